// cummax/cummin and logcumsumexp as serial scans over each run (runs split across threads),
// and aminmax from the amin/amax reductions.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/ops/scan.h"
#include "ember/parallel.h"
#include "rows_last.h"

namespace ember {
namespace {

template <bool kMax>
std::pair<Tensor, Tensor> cum_extreme(const Tensor& x, int64_t dim, const char* op) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(x.dim(), 1), op);
  const Tensor rows = rows_last::block(x, d);
  const int64_t n = rows.sizes()[0], len = rows.sizes()[1];
  Tensor values = Tensor::empty({n, len}, x.dtype());
  Tensor indices = Tensor::empty({n, len}, ScalarType::Int64);
  visit_dtype_with_unsigned(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* in = rows.data<T>();
    T* vals = values.data<T>();
    int64_t* idxs = indices.data<int64_t>();
    parallel_for(0, n, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(len, 1)),
                 [&](int64_t b, int64_t e) {
                   for (int64_t r = b; r < e; ++r) {
                     const T* run = in + r * len;
                     T best = len > 0 ? run[0] : T{};
                     int64_t at = 0;
                     for (int64_t k = 0; k < len; ++k) {
                       const C v = static_cast<C>(run[k]), cur = static_cast<C>(best);
                       const bool take = kMax ? v >= cur : v <= cur;
                       if (is_nan(v) || (!is_nan(cur) && take)) {
                         best = run[k];
                         at = k;
                       }
                       vals[r * len + k] = best;
                       idxs[r * len + k] = at;
                     }
                   }
                 });
  });
  return {rows_last::unblock(values, x, d, len, true),
          rows_last::unblock(indices, x, d, len, true)};
}

// torch's log-add-exp step: equal infinite operands keep their value (no inf - inf NaN).
template <typename C>
C log_add_exp(C x, C acc) {
  const C lo = std::isnan(acc) ? acc : std::min(x, acc);
  const C hi = std::isnan(acc) ? acc : std::max(x, acc);
  if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
  return x;
}

}  // namespace

std::pair<Tensor, Tensor> cummax(const Tensor& x, int64_t dim) {
  return cum_extreme<true>(x, dim, "cummax");
}

std::pair<Tensor, Tensor> cummin(const Tensor& x, int64_t dim) {
  return cum_extreme<false>(x, dim, "cummin");
}

Tensor logcumsumexp(const Tensor& x, int64_t dim, const Tensor& out) {
  const char* op = "logcumsumexp";
  EMBER_CHECK(is_floating(x.dtype()), NotImplementedError, "[", op, "] not implemented for ",
              dtype_name(x.dtype()), " (needs a floating point input)");
  const int64_t d = wrap_dim(dim, std::max<int64_t>(x.dim(), 1), op);
  if (out.defined()) check_out(out, x.dtype(), op, {.dtype = OutDtype::kExact, .inputs = {x}});
  const Tensor rows = rows_last::block(x, d);
  const int64_t n = rows.sizes()[0], len = rows.sizes()[1];
  Tensor result = Tensor::empty({n, len}, x.dtype());
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (std::is_floating_point_v<C>) {
      const T* in = rows.data<T>();
      T* o = result.data<T>();
      parallel_for(0, n, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(len, 1)),
                   [&](int64_t b, int64_t e) {
                     for (int64_t r = b; r < e; ++r) {
                       C acc = -std::numeric_limits<C>::infinity();
                       for (int64_t k = 0; k < len; ++k) {
                         acc = log_add_exp(static_cast<C>(in[r * len + k]), acc);
                         o[r * len + k] = static_cast<T>(acc);
                       }
                     }
                   });
    }
  });
  const Tensor y = rows_last::unblock(result, x, d, len, true);
  return write_out(y, out, op, {.dtype = OutDtype::kExact});
}

std::pair<Tensor, Tensor> aminmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim) {
  const char* op = "aminmax";
  if (!dim) {
    EMBER_CHECK(x.numel() > 0, RuntimeError, "[", op, "] cannot compute aminmax over an empty ",
                "tensor (shape ", x.sizes(), ") as the operation has no identity");
    return {amin(x, {}, keepdim), amax(x, {}, keepdim)};
  }
  const int64_t d = wrap_dim(*dim, std::max<int64_t>(x.dim(), 1), op);
  EMBER_CHECK(x.dim() == 0 || x.sizes()[d] != 0, IndexError, "[", op, "] Expected reduction dim ",
              d, " to have non-zero size (input shape ", x.sizes(), ")");
  if (x.dim() == 0) return {clone(x), clone(x)};
  return {amin(x, {d}, keepdim), amax(x, {d}, keepdim)};
}

}  // namespace ember
