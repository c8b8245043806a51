// OpenBLAS (scipy-openblas32) loaded on first use. Its symbols carry the `scipy_` prefix.
//
// OpenBLAS runs single-threaded: large products are split into row (or column) tiles that
// ember's own pool hands out. OpenBLAS's threads spin at barriers, so on a busy machine one
// descheduled thread stalls every product (measured here: 512^3 took 33 ms on 2 threads
// against 5 ms on one), and spinning threads steal cores from ember's elementwise kernels.
#include "ember/blas.h"

#include <cpuid.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "ember/errors.h"
#include "ember/parallel.h"

namespace ember {
namespace {

// cblas enums (cblas.h): row-major 101, no-trans 111, trans 112. The scipy-openblas32 build uses
// 32-bit integers.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
using blasint = int;
using SgemmFn = void (*)(int, int, int, blasint, blasint, blasint, float, const float*, blasint,
                         const float*, blasint, float, float*, blasint);
using DgemmFn = void (*)(int, int, int, blasint, blasint, blasint, double, const double*, blasint,
                         const double*, blasint, double, double*, blasint);
// cgemm/zgemm take alpha and beta by pointer (complex scalars).
using ComplexGemmFn = void (*)(int, int, int, blasint, blasint, blasint, const void*, const void*,
                               blasint, const void*, blasint, const void*, void*, blasint);
template <typename T>
using GemvFn = void (*)(int, int, blasint, blasint, T, const T*, blasint, const T*, blasint, T, T*,
                        blasint);
using SetThreadsFn = void (*)(int);

struct Blas {
  std::once_flag loaded;
  std::string path;
  std::string error;
  void* handle = nullptr;
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  ComplexGemmFn cgemm = nullptr;
  ComplexGemmFn zgemm = nullptr;
  GemvFn<float> sgemv = nullptr;
  GemvFn<double> dgemv = nullptr;
  SetThreadsFn set_threads = nullptr;
};

Blas& blas() {
  static Blas b;
  return b;
}

// OpenBLAS 0.3.34 does not know AMD Zen 5 (family 0x1a) and runs its Haswell (AVX2) kernels there:
// half its SkylakeX (AVX-512) speed on that CPU (measured: 1024^3 sgemm on one thread, 99 against
// 204 GFLOP/s). Ask for SkylakeX before the library loads, unless the user chose a core.
void prefer_avx512_core_on_zen5() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return;
  const unsigned family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
  __builtin_cpu_init();
  if (__builtin_cpu_is("amd") && family >= 0x1a && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl")) {
    setenv("OPENBLAS_CORETYPE", "SkylakeX", 0);
  }
}

Blas& loaded_blas() {
  Blas& b = blas();
  std::call_once(b.loaded, [&] {
    if (b.path.empty()) {
      b.error = "no BLAS library path was set (ember_core locates scipy-openblas32 at import)";
      return;
    }
    prefer_avx512_core_on_zen5();
    b.handle = dlopen(b.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!b.handle) {
      b.error = dlerror();
      return;
    }
    b.sgemm = reinterpret_cast<SgemmFn>(dlsym(b.handle, "scipy_cblas_sgemm"));
    b.dgemm = reinterpret_cast<DgemmFn>(dlsym(b.handle, "scipy_cblas_dgemm"));
    b.cgemm = reinterpret_cast<ComplexGemmFn>(dlsym(b.handle, "scipy_cblas_cgemm"));
    b.zgemm = reinterpret_cast<ComplexGemmFn>(dlsym(b.handle, "scipy_cblas_zgemm"));
    b.sgemv = reinterpret_cast<GemvFn<float>>(dlsym(b.handle, "scipy_cblas_sgemv"));
    b.dgemv = reinterpret_cast<GemvFn<double>>(dlsym(b.handle, "scipy_cblas_dgemv"));
    b.set_threads =
        reinterpret_cast<SetThreadsFn>(dlsym(b.handle, "scipy_openblas_set_num_threads"));
    if (!b.sgemm || !b.dgemm || !b.cgemm || !b.zgemm || !b.sgemv || !b.dgemv) {
      b.error = "scipy_cblas_sgemm/dgemm/cgemm/zgemm/sgemv/dgemv not found in " + b.path;
    }
    if (b.set_threads) b.set_threads(1);
  });
  EMBER_CHECK(b.error.empty(), RuntimeError, "[matmul] OpenBLAS could not be loaded: ", b.error);
  return b;
}

blasint to_blasint(int64_t v, const char* what) {
  EMBER_CHECK(v <= 0x7fffffff, ValueError, "[matmul] ", what, " ", v,
              " exceeds the 32-bit BLAS limit");
  return static_cast<blasint>(v);
}

// Calls gemm(row0, rows, col0, cols) on tiles of C, in parallel for large products.
template <typename Gemm>
void tiled(int64_t m, int64_t n, int64_t k, Gemm gemm) {
  const int64_t threads = get_num_threads();
  const bool split_rows = m >= n;
  const int64_t extent = split_rows ? m : n;
  // Two tiles per thread balance the load when a thread is descheduled; each tile re-packs the
  // other operand, so more would cost more than it gains.
  const int64_t tiles = std::min<int64_t>(2 * threads, extent / 32);
  if (threads == 1 || tiles < 2 || m * n * k < kBlasParallelWork || in_parallel_region()) {
    gemm(0, m, 0, n);
    return;
  }
  parallel_tasks(tiles, [&](int64_t t) {
    const int64_t lo = extent * t / tiles, hi = extent * (t + 1) / tiles;
    if (split_rows)
      gemm(lo, hi - lo, 0, n);
    else
      gemm(0, m, lo, hi - lo);
  });
}

// Offsets of a tile's first element of op(A) rows / op(B) columns in row-major storage.
template <typename T>
const T* rows_of(const T* a, bool trans, int64_t row0, int64_t ld) {
  return trans ? a + row0 : a + row0 * ld;
}
template <typename T>
const T* cols_of(const T* b, bool trans, int64_t col0, int64_t ld) {
  return trans ? b + col0 * ld : b + col0;
}

}  // namespace

void set_blas_library_path(const std::string& path) { blas().path = path; }

bool blas_available() {
  try {
    loaded_blas();
    return true;
  } catch (const RuntimeError&) {
    return false;
  }
}

void* blas_library_handle(const char* op) {
  Blas& b = blas();
  try {
    return loaded_blas().handle;
  } catch (const RuntimeError&) {
    throw RuntimeError(str("[", op, "] OpenBLAS could not be loaded: ", b.error));
  }
}

void blas_set_num_threads(int) {
  // Nothing to forward: OpenBLAS stays single-threaded and products use ember's pool.
}

namespace {

// A product with one row or one column of C is a matrix-vector product: gemv streams the matrix
// once, where gemm packs it first (measured: [1000, 64] @ [64, 1] took 10 us as sgemm, 5.6 us in
// torch). Returns false when the product is not of that kind or large enough to be worth tiling.
template <typename T>
bool gemv_product(GemvFn<T> gemv, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                  T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                  int64_t ldc) {
  if ((m != 1 && n != 1) || m * n * k >= kBlasParallelWork || k == 0) return false;
  // beta == 0 must not read C (it may hold NaN): OpenBLAS's scal by 0 keeps NaN in some versions.
  if (beta == T(0)) {
    for (int64_t i = 0; i < std::max(m, n); ++i) c[i * (n == 1 ? ldc : 1)] = T(0);
  }
  const T one_beta = beta == T(0) ? T(1) : beta;
  if (n == 1) {  // c[:, 0] = alpha op(A) b[:, 0] + beta c[:, 0]
    const int64_t incx = trans_b ? 1 : ldb;
    if (trans_a)
      gemv(kRowMajor, kTrans, to_blasint(k, "k"), to_blasint(m, "m"), alpha, a,
           to_blasint(lda, "lda"), b, to_blasint(incx, "ldb"), one_beta, c, to_blasint(ldc, "ldc"));
    else
      gemv(kRowMajor, kNoTrans, to_blasint(m, "m"), to_blasint(k, "k"), alpha, a,
           to_blasint(lda, "lda"), b, to_blasint(incx, "ldb"), one_beta, c, to_blasint(ldc, "ldc"));
  } else {  // c[0, :] = alpha op(B)^T a[0, :] + beta c[0, :]
    const int64_t incx = trans_a ? lda : 1;
    if (trans_b)
      gemv(kRowMajor, kNoTrans, to_blasint(n, "n"), to_blasint(k, "k"), alpha, b,
           to_blasint(ldb, "ldb"), a, to_blasint(incx, "lda"), one_beta, c, 1);
    else
      gemv(kRowMajor, kTrans, to_blasint(k, "k"), to_blasint(n, "n"), alpha, b,
           to_blasint(ldb, "ldb"), a, to_blasint(incx, "lda"), one_beta, c, 1);
  }
  return true;
}

template <typename T, typename GemmFn>
void real_gemm(GemmFn gemm, GemvFn<T> gemv, bool trans_a, bool trans_b, int64_t m, int64_t n,
               int64_t k, T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
               int64_t ldc) {
  to_blasint(m, "m");
  to_blasint(n, "n");
  to_blasint(k, "k");
  if (gemv_product(gemv, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) return;
  tiled(m, n, k, [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
    gemm(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
         static_cast<blasint>(rows), static_cast<blasint>(cols), static_cast<blasint>(k), alpha,
         rows_of(a, trans_a, row0, lda), to_blasint(lda, "lda"), cols_of(b, trans_b, col0, ldb),
         to_blasint(ldb, "ldb"), beta, c + row0 * ldc + col0, to_blasint(ldc, "ldc"));
  });
}

}  // namespace

void blas_gemm_f32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                   int64_t ldc) {
  const Blas& lib = loaded_blas();
  real_gemm<float>(lib.sgemm, lib.sgemv, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                   ldc);
}

void blas_gemm_f64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                   const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                   double* c, int64_t ldc) {
  const Blas& lib = loaded_blas();
  real_gemm<double>(lib.dgemm, lib.dgemv, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c,
                    ldc);
}

template <typename T>
void complex_gemm(ComplexGemmFn fn, bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                  T alpha, const T* a, int64_t lda, const T* b, int64_t ldb, T beta, T* c,
                  int64_t ldc) {
  to_blasint(m, "m");
  to_blasint(n, "n");
  to_blasint(k, "k");
  tiled(m, n, k, [&](int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
    fn(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
       static_cast<blasint>(rows), static_cast<blasint>(cols), static_cast<blasint>(k), &alpha,
       rows_of(a, trans_a, row0, lda), to_blasint(lda, "lda"), cols_of(b, trans_b, col0, ldb),
       to_blasint(ldb, "ldb"), &beta, c + row0 * ldc + col0, to_blasint(ldc, "ldc"));
  });
}

void blas_gemm_c64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                   std::complex<float> alpha, const std::complex<float>* a, int64_t lda,
                   const std::complex<float>* b, int64_t ldb, std::complex<float> beta,
                   std::complex<float>* c, int64_t ldc) {
  complex_gemm(loaded_blas().cgemm, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void blas_gemm_c128(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                    std::complex<double> alpha, const std::complex<double>* a, int64_t lda,
                    const std::complex<double>* b, int64_t ldb, std::complex<double> beta,
                    std::complex<double>* c, int64_t ldc) {
  complex_gemm(loaded_blas().zgemm, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace ember
