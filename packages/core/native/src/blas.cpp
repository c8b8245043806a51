// OpenBLAS (scipy-openblas32) loaded on first use. Its symbols carry the `scipy_` prefix.
#include "ember/blas.h"

#include <dlfcn.h>

#include <mutex>

#include "ember/errors.h"

namespace ember {
namespace {

// cblas enums (cblas.h): row-major 101, no-trans 111, trans 112. The scipy-openblas32 build uses
// 32-bit integers.
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
using blasint = int;
using SgemmFn = void (*)(int, int, int, blasint, blasint, blasint, float, const float*, blasint,
                         const float*, blasint, float, float*, blasint);
using DgemmFn = void (*)(int, int, int, blasint, blasint, blasint, double, const double*,
                         blasint, const double*, blasint, double, double*, blasint);
using SetThreadsFn = void (*)(int);

struct Blas {
  std::once_flag loaded;
  std::string path;
  std::string error;
  void* handle = nullptr;
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  SetThreadsFn set_threads = nullptr;
  int pending_threads = 0;
};

Blas& blas() {
  static Blas b;
  return b;
}

Blas& loaded_blas() {
  Blas& b = blas();
  std::call_once(b.loaded, [&] {
    if (b.path.empty()) {
      b.error = "no BLAS library path was set (ember_core locates scipy-openblas32 at import)";
      return;
    }
    b.handle = dlopen(b.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!b.handle) {
      b.error = dlerror();
      return;
    }
    b.sgemm = reinterpret_cast<SgemmFn>(dlsym(b.handle, "scipy_cblas_sgemm"));
    b.dgemm = reinterpret_cast<DgemmFn>(dlsym(b.handle, "scipy_cblas_dgemm"));
    b.set_threads =
        reinterpret_cast<SetThreadsFn>(dlsym(b.handle, "scipy_openblas_set_num_threads"));
    if (!b.sgemm || !b.dgemm) b.error = "scipy_cblas_sgemm/dgemm not found in " + b.path;
    if (b.set_threads && b.pending_threads > 0) b.set_threads(b.pending_threads);
  });
  EMBER_CHECK(b.error.empty(), RuntimeError, "[matmul] OpenBLAS could not be loaded: ", b.error);
  return b;
}

blasint to_blasint(int64_t v, const char* what) {
  EMBER_CHECK(v <= 0x7fffffff, ValueError, "[matmul] ", what, " ", v,
              " exceeds the 32-bit BLAS limit");
  return static_cast<blasint>(v);
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

void blas_set_num_threads(int n) {
  Blas& b = blas();
  b.pending_threads = n;
  if (b.set_threads) b.set_threads(n);
}

void blas_gemm_f32(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                   const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                   int64_t ldc) {
  loaded_blas().sgemm(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
                      to_blasint(m, "m"), to_blasint(n, "n"), to_blasint(k, "k"), alpha, a,
                      to_blasint(lda, "lda"), b, to_blasint(ldb, "ldb"), beta, c,
                      to_blasint(ldc, "ldc"));
}

void blas_gemm_f64(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha,
                   const double* a, int64_t lda, const double* b, int64_t ldb, double beta,
                   double* c, int64_t ldc) {
  loaded_blas().dgemm(kRowMajor, trans_a ? kTrans : kNoTrans, trans_b ? kTrans : kNoTrans,
                      to_blasint(m, "m"), to_blasint(n, "n"), to_blasint(k, "k"), alpha, a,
                      to_blasint(lda, "lda"), b, to_blasint(ldb, "ldb"), beta, c,
                      to_blasint(ldc, "ldc"));
}

}  // namespace ember
