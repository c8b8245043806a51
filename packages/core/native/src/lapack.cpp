// LAPACK symbols looked up in the OpenBLAS that blas.cpp loads (`scipy_` prefix, Fortran `_`
// suffix), and the typed wrappers of lapack.h around them.
//
// NOTE: gfortran passes one hidden length (size_t) per character argument after the others; the
// routines written in Fortran read it, so every pointer type below declares it.
#include "ember/lapack.h"

#include <dlfcn.h>

#include <complex>
#include <cstddef>
#include <mutex>
#include <string>
#include <type_traits>

#include "ember/blas.h"
#include "ember/dtype.h"
#include "ember/errors.h"

namespace ember::lapack {
namespace {

using Len = std::size_t;

template <typename T>
struct Routines {
  void (*getrf)(const int*, const int*, T*, const int*, int*, int*);
  void (*getri)(const int*, T*, const int*, const int*, T*, const int*, int*);
  void (*getrs)(const char*, const int*, const int*, const T*, const int*, const int*, T*,
                const int*, int*, Len);
  void (*potrf)(const char*, const int*, T*, const int*, int*, Len);
  void (*geqrf)(const int*, const int*, T*, const int*, T*, T*, const int*, int*);
  void (*orgqr)(const int*, const int*, const int*, T*, const int*, const T*, T*, const int*, int*);
  void (*gesdd)(const char*, const int*, const int*, T*, const int*, T*, T*, const int*, T*,
                const int*, T*, const int*, int*, int*, Len);
  void (*gebrd)(const int*, const int*, T*, const int*, T*, T*, T*, T*, T*, const int*, int*);
  void (*bdsdc)(const char*, const char*, const int*, T*, T*, T*, const int*, T*, const int*, T*,
                int*, T*, int*, int*, Len, Len);
  void (*ormbr)(const char*, const char*, const char*, const int*, const int*, const int*, const T*,
                const int*, const T*, T*, const int*, T*, const int*, int*, Len, Len, Len);
  void (*syevd)(const char*, const char*, const int*, T*, const int*, T*, T*, const int*, int*,
                const int*, int*, Len, Len);
  void (*gels)(const char*, const int*, const int*, const int*, T*, const int*, T*, const int*, T*,
               const int*, int*, Len);
  void (*gelsy)(const int*, const int*, const int*, T*, const int*, T*, const int*, int*, const T*,
                int*, T*, const int*, int*);
  void (*gelsd)(const int*, const int*, const int*, T*, const int*, T*, const int*, T*, const T*,
                int*, T*, const int*, int*, int*);
  void (*gelss)(const int*, const int*, const int*, T*, const int*, T*, const int*, T*, const T*,
                int*, T*, const int*, int*);
  void (*geev)(const char*, const char*, const int*, T*, const int*, T*, T*, T*, const int*, T*,
               const int*, T*, const int*, int*, Len, Len);
};

// The complex routines (c/z prefix) ember calls, for the real type R of their elements.
template <typename R>
struct ComplexRoutines {
  using C = std::complex<R>;
  void (*getrf)(const int*, const int*, C*, const int*, int*, int*);
  void (*getri)(const int*, C*, const int*, const int*, C*, const int*, int*);
  void (*getrs)(const char*, const int*, const int*, const C*, const int*, const int*, C*,
                const int*, int*, Len);
  void (*geev)(const char*, const char*, const int*, C*, const int*, C*, C*, const int*, C*,
               const int*, C*, const int*, R*, int*, Len, Len);
};

// LAPACK's type letter: s, d for float, double; c, z for their complex types.
template <typename T>
constexpr char type_letter() {
  if constexpr (std::is_same_v<T, float>) return 's';
  if constexpr (std::is_same_v<T, double>) return 'd';
  if constexpr (std::is_same_v<T, std::complex<float>>) return 'c';
  return 'z';
}

// Looks up scipy_<s|d><name>_ and stores it in `fn`.
template <typename T, typename Fn>
void bind(void* handle, const char* name, Fn& fn) {
  const std::string symbol = std::string("scipy_") + type_letter<T>() + name + "_";
  fn = reinterpret_cast<Fn>(dlsym(handle, symbol.c_str()));
  EMBER_CHECK(fn != nullptr, RuntimeError, "[linalg] LAPACK routine ", symbol,
              " not found in the OpenBLAS library");
}

template <typename T>
const Routines<T>& routines() {
  static Routines<T> r{};
  static std::once_flag once;
  static std::string error;
  std::call_once(once, [] {
    try {
      void* h = blas_library_handle("linalg");
      bind<T>(h, "getrf", r.getrf);
      bind<T>(h, "getri", r.getri);
      bind<T>(h, "getrs", r.getrs);
      bind<T>(h, "potrf", r.potrf);
      bind<T>(h, "geqrf", r.geqrf);
      bind<T>(h, "orgqr", r.orgqr);
      bind<T>(h, "gesdd", r.gesdd);
      bind<T>(h, "gebrd", r.gebrd);
      bind<T>(h, "bdsdc", r.bdsdc);
      bind<T>(h, "ormbr", r.ormbr);
      bind<T>(h, "syevd", r.syevd);
      bind<T>(h, "gels", r.gels);
      bind<T>(h, "gelsy", r.gelsy);
      bind<T>(h, "gelsd", r.gelsd);
      bind<T>(h, "gelss", r.gelss);
      bind<T>(h, "geev", r.geev);
    } catch (const RuntimeError& e) {
      error = e.what();
    }
  });
  EMBER_CHECK(error.empty(), RuntimeError, error);
  return r;
}

template <typename R>
const ComplexRoutines<R>& complex_routines() {
  static ComplexRoutines<R> r{};
  static std::once_flag once;
  static std::string error;
  std::call_once(once, [] {
    try {
      void* h = blas_library_handle("linalg");
      bind<std::complex<R>>(h, "getrf", r.getrf);
      bind<std::complex<R>>(h, "getri", r.getri);
      bind<std::complex<R>>(h, "getrs", r.getrs);
      bind<std::complex<R>>(h, "geev", r.geev);
    } catch (const RuntimeError& e) {
      error = e.what();
    }
  });
  EMBER_CHECK(error.empty(), RuntimeError, error);
  return r;
}

// The table holding T's routines: Routines<T> for float/double, ComplexRoutines<R> for
// std::complex<R> (only the routines ember calls with complex matrices).
template <typename T>
const auto& table() {
  if constexpr (is_complex_v<T>) {
    return complex_routines<typename T::value_type>();
  } else {
    return routines<T>();
  }
}

}  // namespace

template <typename T>
int getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  table<T>().getrf(&m, &n, a, &lda, ipiv, &info);
  return info;
}

template <typename T>
int getri(int n, T* a, int lda, const int* ipiv, T* work, int lwork) {
  int info = 0;
  table<T>().getri(&n, a, &lda, ipiv, work, &lwork, &info);
  return info;
}

template <typename T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  int info = 0;
  table<T>().getrs(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
  return info;
}

template <typename T>
int potrf(char uplo, int n, T* a, int lda) {
  int info = 0;
  routines<T>().potrf(&uplo, &n, a, &lda, &info, 1);
  return info;
}

template <typename T>
int geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork) {
  int info = 0;
  routines<T>().geqrf(&m, &n, a, &lda, tau, work, &lwork, &info);
  return info;
}

template <typename T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork) {
  int info = 0;
  routines<T>().orgqr(&m, &n, &k, a, &lda, tau, work, &lwork, &info);
  return info;
}

template <typename T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, T* work,
          int lwork, int* iwork) {
  int info = 0;
  routines<T>().gesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, &info, 1);
  return info;
}

template <typename T>
int gebrd(int m, int n, T* a, int lda, T* d, T* e, T* tauq, T* taup, T* work, int lwork) {
  int info = 0;
  routines<T>().gebrd(&m, &n, a, &lda, d, e, tauq, taup, work, &lwork, &info);
  return info;
}

template <typename T>
int bdsdc(char uplo, int n, T* d, T* e, T* u, int ldu, T* vt, int ldvt, T* work, int* iwork) {
  int info = 0;
  const char compq = 'I';
  routines<T>().bdsdc(&uplo, &compq, &n, d, e, u, &ldu, vt, &ldvt, nullptr, nullptr, work, iwork,
                      &info, 1, 1);
  return info;
}

template <typename T>
int ormbr(char vect, char side, char trans, int m, int n, int k, const T* a, int lda, const T* tau,
          T* c, int ldc, T* work, int lwork) {
  int info = 0;
  routines<T>().ormbr(&vect, &side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, &info,
                      1, 1, 1);
  return info;
}

template <typename T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int lwork, int* iwork,
          int liwork) {
  int info = 0;
  routines<T>().syevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, &info, 1, 1);
  return info;
}

template <typename T>
int gels(char trans, int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* work, int lwork) {
  int info = 0;
  routines<T>().gels(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, &info, 1);
  return info;
}

template <typename T>
int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, int* jpvt, T rcond, int* rank,
          T* work, int lwork) {
  int info = 0;
  routines<T>().gelsy(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, &info);
  return info;
}

template <typename T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, T* work,
          int lwork, int* iwork) {
  int info = 0;
  routines<T>().gelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, &info);
  return info;
}

template <typename T>
int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, T* work,
          int lwork) {
  int info = 0;
  routines<T>().gelss(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, &info);
  return info;
}

template <typename T>
int geev(char jobvl, char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vl, int ldvl, T* vr,
         int ldvr, T* work, int lwork) {
  int info = 0;
  routines<T>().geev(&jobvl, &jobvr, &n, a, &lda, wr, wi, vl, &ldvl, vr, &ldvr, work, &lwork, &info,
                     1, 1);
  return info;
}

template <typename T>
int geev(char jobvl, char jobvr, int n, std::complex<T>* a, int lda, std::complex<T>* w,
         std::complex<T>* vl, int ldvl, std::complex<T>* vr, int ldvr, std::complex<T>* work,
         int lwork, T* rwork) {
  int info = 0;
  complex_routines<T>().geev(&jobvl, &jobvr, &n, a, &lda, w, vl, &ldvl, vr, &ldvr, work, &lwork,
                             rwork, &info, 1, 1);
  return info;
}

#define EMBER_LAPACK_INSTANTIATE(T)                                                                \
  template int getrf<T>(int, int, T*, int, int*);                                                  \
  template int getri<T>(int, T*, int, const int*, T*, int);                                        \
  template int getrs<T>(char, int, int, const T*, int, const int*, T*, int);                       \
  template int potrf<T>(char, int, T*, int);                                                       \
  template int geqrf<T>(int, int, T*, int, T*, T*, int);                                           \
  template int orgqr<T>(int, int, int, T*, int, const T*, T*, int);                                \
  template int gesdd<T>(char, int, int, T*, int, T*, T*, int, T*, int, T*, int, int*);             \
  template int gebrd<T>(int, int, T*, int, T*, T*, T*, T*, T*, int);                               \
  template int bdsdc<T>(char, int, T*, T*, T*, int, T*, int, T*, int*);                            \
  template int ormbr<T>(char, char, char, int, int, int, const T*, int, const T*, T*, int, T*,     \
                        int);                                                                      \
  template int syevd<T>(char, char, int, T*, int, T*, T*, int, int*, int);                         \
  template int gels<T>(char, int, int, int, T*, int, T*, int, T*, int);                            \
  template int gelsy<T>(int, int, int, T*, int, T*, int, int*, T, int*, T*, int);                  \
  template int gelsd<T>(int, int, int, T*, int, T*, int, T*, T, int*, T*, int, int*);              \
  template int gelss<T>(int, int, int, T*, int, T*, int, T*, T, int*, T*, int);                    \
  template int geev<T>(char, char, int, T*, int, T*, T*, T*, int, T*, int, T*, int);               \
  template int geev<T>(char, char, int, std::complex<T>*, int, std::complex<T>*, std::complex<T>*, \
                       int, std::complex<T>*, int, std::complex<T>*, int, T*);

EMBER_LAPACK_INSTANTIATE(float)
EMBER_LAPACK_INSTANTIATE(double)

// The LU family for complex matrices (cgetrf/zgetrf, ...): inv, solve and det take them.
#define EMBER_LAPACK_INSTANTIATE_COMPLEX(T)                 \
  template int getrf<T>(int, int, T*, int, int*);           \
  template int getri<T>(int, T*, int, const int*, T*, int); \
  template int getrs<T>(char, int, int, const T*, int, const int*, T*, int);

EMBER_LAPACK_INSTANTIATE_COMPLEX(std::complex<float>)
EMBER_LAPACK_INSTANTIATE_COMPLEX(std::complex<double>)

}  // namespace ember::lapack
