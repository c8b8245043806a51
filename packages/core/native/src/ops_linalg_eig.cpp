// The eigendecomposition of general (non-symmetric) square matrices through LAPACK's geev.
//
// Unlike the other decompositions, eig hands LAPACK a column-major copy of A itself, not the
// row-major copy that reads as A^T: A^T has the same eigenvalues, but LAPACK would return them in
// another order and give A's left eigenvectors. With A itself the order and the normalization
// (unit norm, largest component real) are LAPACK's, as torch returns them.
#include <cmath>
#include <complex>
#include <vector>

#include "ember/lapack.h"
#include "ember/ops.h"
#include "linalg_lapack_util.h"

namespace ember {

using namespace linalg_detail;

namespace {

// Whether every element of the dense buffer is finite (real and imaginary parts alike).
template <typename R>
bool all_finite(const R* data, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) return false;
  }
  return true;
}

// What both geev flavours need: A's column-major copy, the results and LAPACK's info per matrix.
struct EigProblem {
  Tensor a, W, V, info;
  int64_t n, count;
  bool compute_v;
  const char* op;
};

// sgeev/dgeev: eigenvalues come as wr + i wi, and a complex pair (wi[j] > 0) shares two columns of
// LAPACK's VR: the eigenvectors are vr[:, j] + i vr[:, j + 1] and its conjugate.
template <typename R>
void eig_real(const EigProblem& p) {
  using C = std::complex<R>;
  const int n = static_cast<int>(p.n), ldvr = p.compute_v ? n : 1;
  const char jobvr = p.compute_v ? 'V' : 'N';
  int lwork = 0;
  {
    R query = 0, dummy = 0;
    check_arguments(lapack::geev<R>('N', jobvr, n, p.a.data<R>(), n, &dummy, &dummy, &dummy, 1,
                                    &dummy, ldvr, &query, -1),
                    p.op, "geev");
    lwork = workspace_size(query);
  }
  int32_t* infos = p.info.data<int32_t>();
  for_each_matrix(p.count, 10 * p.n * p.n * p.n, [&](int64_t begin, int64_t end) {
    std::vector<R> work(static_cast<size_t>(lwork)), wr(p.n), wi(p.n);
    std::vector<R> vr(p.compute_v ? static_cast<size_t>(p.n * p.n) : 1);
    R dummy = 0;
    for (int64_t i = begin; i < end; ++i) {
      infos[i] = lapack::geev<R>('N', jobvr, n, p.a.data<R>() + i * p.n * p.n, n, wr.data(),
                                 wi.data(), &dummy, 1, vr.data(), ldvr, work.data(), lwork);
      check_arguments(infos[i], p.op, "geev");
      C* w = p.W.data<C>() + i * p.n;
      for (int64_t j = 0; j < p.n; ++j) w[j] = C(wr[j], wi[j]);
      if (!p.compute_v || infos[i] != 0) continue;
      C* v = p.V.data<C>() + i * p.n * p.n;
      for (int64_t j = 0; j < p.n; ++j) {
        const R* re = vr.data() + j * p.n;
        if (wi[j] == 0 || j + 1 == p.n) {
          for (int64_t r = 0; r < p.n; ++r) v[r * p.n + j] = C(re[r], 0);
          continue;
        }
        const R* im = re + p.n;
        for (int64_t r = 0; r < p.n; ++r) {
          v[r * p.n + j] = C(re[r], im[r]);
          v[r * p.n + j + 1] = C(re[r], -im[r]);
        }
        ++j;  // the pair's second column is done
      }
    }
  });
}

// cgeev/zgeev: eigenvalues and eigenvectors come out complex; VR is transposed into row-major V.
template <typename R>
void eig_complex(const EigProblem& p) {
  using C = std::complex<R>;
  const int n = static_cast<int>(p.n), ldvr = p.compute_v ? n : 1;
  const char jobvr = p.compute_v ? 'V' : 'N';
  int lwork = 0;
  {
    C query = 0, dummy = 0;
    R rdummy = 0;
    check_arguments(lapack::geev<R>('N', jobvr, n, p.a.data<C>(), n, &dummy, &dummy, 1, &dummy,
                                    ldvr, &query, -1, &rdummy),
                    p.op, "geev");
    lwork = workspace_size(query.real());
  }
  int32_t* infos = p.info.data<int32_t>();
  for_each_matrix(p.count, 10 * p.n * p.n * p.n, [&](int64_t begin, int64_t end) {
    std::vector<C> work(static_cast<size_t>(lwork));
    std::vector<C> vr(p.compute_v ? static_cast<size_t>(p.n * p.n) : 1);
    std::vector<R> rwork(static_cast<size_t>(2 * p.n));
    C dummy = 0;
    for (int64_t i = begin; i < end; ++i) {
      infos[i] =
          lapack::geev<R>('N', jobvr, n, p.a.data<C>() + i * p.n * p.n, n, p.W.data<C>() + i * p.n,
                          &dummy, 1, vr.data(), ldvr, work.data(), lwork, rwork.data());
      check_arguments(infos[i], p.op, "geev");
      if (!p.compute_v || infos[i] != 0) continue;
      C* v = p.V.data<C>() + i * p.n * p.n;
      for (int64_t j = 0; j < p.n; ++j) {
        for (int64_t r = 0; r < p.n; ++r) v[r * p.n + j] = vr[j * p.n + r];
      }
    }
  });
}

}  // namespace

Tensor2 linalg_eig(const Tensor& A, bool compute_v, const char* op) {
  check_square(A, op);
  check_float_or_complex(A, op);
  const Shape batch = batch_shape(A);
  const int64_t n = A.size(-1), count = batch_count(batch);
  const ScalarType result_type = to_complex_type(A.dtype());
  const ScalarType real_type = to_real_type(A.dtype());
  Shape w_shape = batch;
  w_shape.push_back(n);
  EigProblem p{column_major_copy(A, A.sizes()),
               Tensor::empty(w_shape, result_type),
               compute_v ? Tensor::empty(A.sizes(), result_type) : Tensor::empty({0}, result_type),
               empty_info(batch),
               n,
               count,
               compute_v,
               op};
  fill_int_(p.info, 0);
  if (n == 0 || count == 0) return {p.W, p.V};
  dispatch_float(real_type, [&](auto tag) {
    using R = decltype(tag);
    // NOTE: LAPACK's balancing rejects NaN (an argument error), and torch's eigvals then returns
    // garbage; ember raises for eig and eigvals alike.
    const int64_t reals = p.a.numel() * (is_complex(A.dtype()) ? 2 : 1);
    EMBER_CHECK(all_finite(p.a.data<R>(), reals), RuntimeError, "[", op,
                "] input tensor should not contain infs or NaNs.");
    if (is_complex(A.dtype())) {
      eig_complex<R>(p);
    } else {
      eig_real<R>(p);
    }
  });
  raise_on_info(p.info, A.dim() > 2, op, [](int code) {
    return str(
        "The algorithm failed to converge because the input matrix is ill-conditioned or "
        "has too many repeated eigenvalues (error code: ",
        code, ").");
  });
  return {p.W, p.V};
}

}  // namespace ember
