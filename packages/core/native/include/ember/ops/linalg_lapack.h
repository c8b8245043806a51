// torch.linalg's decompositions and solvers through LAPACK (lapack.h): float32/float64 matrices
// in the last two dims, batched over the leading ones, each result a new contiguous tensor.
// `op` is the name errors start with ("[linalg.inv] ..."), since several public functions
// share one implementation. Failures that depend on the values (a singular matrix, one that is
// not positive-definite, no convergence) raise LinAlgError when `check_errors` is set; the `_ex`
// forms return LAPACK's info per matrix instead (int32, shaped like the batch).
#pragma once

#include <optional>
#include <string>
#include <tuple>

#include "ember/errors.h"
#include "ember/tensor.h"

namespace ember {

// torch.linalg.LinAlgError: a RuntimeError raised for singular or non-positive-definite inputs
// and for algorithms that do not converge.
struct LinAlgError : RuntimeError {
  using RuntimeError::RuntimeError;
};

using Tensor2 = std::tuple<Tensor, Tensor>;
using Tensor3 = std::tuple<Tensor, Tensor, Tensor>;
using Tensor4 = std::tuple<Tensor, Tensor, Tensor, Tensor>;

// (LU, pivots, info) of A (m x n, any shape); pivots are 1-based row swaps (int32).
Tensor3 linalg_lu_factor_ex(const Tensor& A, bool pivot, bool check_errors, const char* op);
// Solves A X = B (left) or X A = B, with A^T when adjoint, from lu_factor's LU and pivots.
Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left,
                       bool adjoint, const char* op);
// torch.lu_unpack: (P, L, U) with A = P @ L @ U; empty tensors for the parts not asked for.
Tensor3 lu_unpack(const Tensor& LU, const Tensor& pivots, bool unpack_data, bool unpack_pivots,
                  const char* op);
// (X, info) for A X = B (left) or X A = B; B may be a vector (torch's rule) and batches broadcast.
Tensor2 linalg_solve_ex(const Tensor& A, const Tensor& B, bool left, bool check_errors,
                        const char* op);
// (inverse, info).
Tensor2 linalg_inv_ex(const Tensor& A, bool check_errors, const char* op);
// (L, info) with A = L L^T, or (U, info) with A = U^T U when upper; reads one triangle only.
Tensor2 linalg_cholesky_ex(const Tensor& A, bool upper, bool check_errors, const char* op);
// (Q, R); mode "reduced", "complete" or "r" (Q empty).
Tensor2 linalg_qr(const Tensor& A, const std::string& mode, const char* op);
// (U, S, Vh) by divide and conquer; U and Vh are empty when !compute_uv.
Tensor3 linalg_svd(const Tensor& A, bool full_matrices, bool compute_uv, const char* op);
// (eigenvalues ascending, eigenvectors as columns) of a symmetric matrix given by its `uplo`
// triangle ("L" or "U"); eigenvectors are empty when !compute_v.
Tensor2 linalg_eigh(const Tensor& A, const std::string& uplo, bool compute_v, const char* op);
// (eigenvalues, eigenvectors as unit-norm columns) of general square matrices, in LAPACK's order,
// always complex (complex64 for float32/complex64, complex128 for float64/complex128); the
// eigenvectors are empty when !compute_v. Raises RuntimeError for infs or NaNs.
Tensor2 linalg_eig(const Tensor& A, bool compute_v, const char* op);
// (solution, residuals, rank, singular_values) of min ||A X - B||; driver gels, gelsy, gelsd or
// gelss; rcond defaults to eps * max(m, n). Fields a driver does not give are empty.
Tensor4 linalg_lstsq(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                     const std::string& driver, const char* op);
// (sign, logabsdet) and the determinant, from an LU factorization.
Tensor2 linalg_slogdet(const Tensor& A, const char* op);
Tensor linalg_det(const Tensor& A, const char* op);

}  // namespace ember
