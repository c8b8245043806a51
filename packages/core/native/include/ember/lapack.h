// LAPACK from the scipy-openblas32 library that GEMM already uses (blas.h): thin typed wrappers
// over the Fortran routines, looked up on first use. Fortran conventions apply: column-major
// matrices, 32-bit integers, and leading dimensions of at least max(1, rows).
//
// Each call runs on the calling thread only (OpenBLAS stays single-threaded, see blas.cpp); the
// linalg ops split batches of matrices over ember's pool themselves. Every wrapper returns
// LAPACK's `info`: 0 on success, -i when argument i was invalid, > 0 for the routine's own failure
// (a zero pivot, a minor that is not positive-definite, no convergence). Passing lwork = -1 asks
// for the optimal workspace size instead, returned in work[0] (and iwork[0] where there is one).
#pragma once

#include <complex>

namespace ember::lapack {

// getrf, getri and getrs also take std::complex<float>/<double> matrices (c/z routines).
// LU with partial pivoting: A = P L U; ipiv (min(m, n)) holds 1-based row swaps.
template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv);
// Inverse from getrf's factors, in place.
template <typename T>
int getri(int n, T* a, int lda, const int* ipiv, T* work, int lwork);
// Solves op(A) X = B from getrf's factors; trans is 'N' or 'T'.
template <typename T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
// Cholesky factor in the `uplo` ('U' or 'L') triangle; the other triangle is left untouched.
template <typename T>
int potrf(char uplo, int n, T* a, int lda);
// Householder QR (R in the upper triangle, reflectors below it and in tau).
template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork);
// The first n columns of Q from geqrf's k reflectors, in place.
template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork);
// SVD by divide and conquer; jobz: 'A' (full U, VT), 'S' (reduced) or 'N' (values only).
template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, T* work,
          int lwork, int* iwork);
// The steps of gesdd, for a caller that runs the last one in parallel: bidiagonal reduction
// A = Q B P^T (B upper bidiagonal when m >= n, else lower; d, e its diagonals, Q and P as
// reflectors in a, tauq, taup), the SVD of B by divide and conquer (bdsdc, uplo 'U' or 'L',
// singular vectors into u and vt, n x n; work 3n^2 + 4n, iwork 8n), and the product of a matrix
// c with Q or P^T (ormbr: vect 'Q' or 'P', side 'L' or 'R', trans 'N' or 'T').
template <typename T>
int gebrd(int m, int n, T* a, int lda, T* d, T* e, T* tauq, T* taup, T* work, int lwork);
template <typename T>
int bdsdc(char uplo, int n, T* d, T* e, T* u, int ldu, T* vt, int ldvt, T* work, int* iwork);
template <typename T>
int ormbr(char vect, char side, char trans, int m, int n, int k, const T* a, int lda, const T* tau,
          T* c, int ldc, T* work, int lwork);
// Symmetric eigendecomposition by divide and conquer; jobz 'V' or 'N', uplo 'U' or 'L'.
template <typename T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int lwork, int* iwork,
          int liwork);
// Least squares: QR (gels, full rank assumed), complete orthogonal factorization (gelsy), SVD by
// divide and conquer (gelsd) or plain SVD (gelss). B (ldb >= max(m, n)) becomes the solution.
template <typename T>
int gels(char trans, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* work, int lwork);
template <typename T>
int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, int* jpvt, T rcond, int* rank,
          T* work, int lwork);
template <typename T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, T* work,
          int lwork, int* iwork);
template <typename T>
int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, T* work,
          int lwork);
// Eigenvalues wr + i wi of a general real matrix, and its left/right eigenvectors (jobvl, jobvr:
// 'V' or 'N'). A complex pair (wi[j] > 0) shares two columns of vr: vr[:, j] +- i vr[:, j + 1].
template <typename T>
int geev(char jobvl, char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vl, int ldvl, T* vr,
         int ldvr, T* work, int lwork);
// The same for a complex matrix (cgeev/zgeev); rwork holds 2n reals.
template <typename T>
int geev(char jobvl, char jobvr, int n, std::complex<T>* a, int lda, std::complex<T>* w,
         std::complex<T>* vl, int ldvl, std::complex<T>* vr, int ldvr, std::complex<T>* work,
         int lwork, T* rwork);

}  // namespace ember::lapack
