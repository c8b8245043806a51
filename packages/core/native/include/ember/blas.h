// GEMM through OpenBLAS from the scipy-openblas32 wheel, split across ember's thread pool. The
// library is located by Python at import (its path handed over with set_blas_library_path) and
// dlopen'ed on first use, so `import ember` does not pay for loading it.
#pragma once

#include <complex>
#include <cstdint>
#include <string>

namespace ember {

// Products of fewer multiply-adds than this run as one BLAS call on the calling thread (splitting
// costs more than it saves); those with one row or one column of C run as gemv.
constexpr int64_t kBlasParallelWork = int64_t{1} << 19;

void set_blas_library_path(const std::string& path);
bool blas_available();
// The dlopen'ed library (loaded on first call; raises RuntimeError naming `op` when missing), for
// lapack.cpp to look up LAPACK symbols in the same OpenBLAS.
void* blas_library_handle(const char* op);
// Kept for symmetry with set_num_threads: OpenBLAS always runs single-threaded (blas.cpp says why).
void blas_set_num_threads(int n);

// Row-major C = alpha * op(A) @ op(B) + beta * C; lda/ldb/ldc are row strides in elements.
void blas_gemm_f32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                   int64_t ldc);
void blas_gemm_f64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                   const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                   double* c, int64_t ldc);
void blas_gemm_c64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                   std::complex<float> alpha, const std::complex<float>* a, int64_t lda,
                   const std::complex<float>* b, int64_t ldb, std::complex<float> beta,
                   std::complex<float>* c, int64_t ldc);
void blas_gemm_c128(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                    std::complex<double> alpha, const std::complex<double>* a, int64_t lda,
                    const std::complex<double>* b, int64_t ldb, std::complex<double> beta,
                    std::complex<double>* c, int64_t ldc);

}  // namespace ember
