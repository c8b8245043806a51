// histc and bincount. histc maps each value to its bin with torch's formula, computed in the
// input's dtype so that values near an edge land in the same bin as in torch.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "ember/checked_math.h"
#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/ops/histogram.h"
#include "ember/parallel.h"
#include "ember/unsigned_support.h"

namespace ember {

Tensor histc(const Tensor& x, int64_t bins, double min, double max, const Tensor& out) {
  const char* op = "histc";
  EMBER_CHECK(is_floating(x.dtype()), NotImplementedError, "[", op, "] not implemented for ",
              dtype_name(x.dtype()), " (needs a floating point input)");
  EMBER_CHECK(bins > 0, RuntimeError, "[", op, "] bins must be > 0, but got ", bins);
  EMBER_CHECK(!(min > max), RuntimeError, "[", op, "] max must be larger than min, got min=", min,
              " and max=", max);
  if (out.defined()) check_out(out, x.dtype(), op, {.dtype = OutDtype::kExact, .inputs = {x}});
  double lo = min, hi = max;
  if (lo == hi && x.numel() > 0) {
    lo = item_double(amin(x, {}, false), op);
    hi = item_double(amax(x, {}, false), op);
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  EMBER_CHECK(std::isfinite(lo) && std::isfinite(hi), RuntimeError, "[", op, "] range of [", lo,
              ", ", hi, "] is not finite");
  const Tensor data = contiguous(x);
  const int64_t n = data.numel();
  // Per-chunk counts merged at the end: integer counts, so the merge order does not matter.
  // Per-thread histograms only while they are small next to the input.
  const int64_t chunks = bins <= n / 4 ? parallel_chunks(0, n, kParallelGrain) : 1;
  Tensor counts_buffer =
      zeros({checked_mul(chunks, bins, "histc", "the number of bins")}, ScalarType::Int64);
  int64_t* counts = counts_buffer.data<int64_t>();
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) {
      using C = compute_t<T>;
      const T* v = data.data<T>();
      const T left(static_cast<C>(lo)), right(static_cast<C>(hi));
      EMBER_CHECK(std::isfinite(static_cast<C>(left)) && std::isfinite(static_cast<C>(right)),
                  RuntimeError, "[", op, "] the range [", lo, ", ", hi, "] cannot be converted to ",
                  dtype_name(x.dtype()), " without overflow");
      // Every step rounds to T, as torch's arithmetic on its scalar type does.
      const T width = static_cast<T>(static_cast<C>(right) - static_cast<C>(left));
      parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
        for (int64_t c = cb; c < ce; ++c) {
          int64_t* h = counts + c * bins;
          for (int64_t i = n * c / chunks; i < n * (c + 1) / chunks; ++i) {
            const C e = static_cast<C>(v[i]);
            if (!(e >= static_cast<C>(left) && e <= static_cast<C>(right))) continue;
            const T offset = static_cast<T>(e - static_cast<C>(left));
            const T scaled = static_cast<T>(static_cast<C>(offset) * static_cast<C>(bins));
            const C q =
                static_cast<C>(static_cast<T>(static_cast<C>(scaled) / static_cast<C>(width)));
            // Clamped before the conversion: an overflowed offset * bins is inf, and converting
            // inf or NaN to an integer is undefined. max itself lands in the last bin.
            const int64_t pos = q >= static_cast<C>(bins - 1) ? bins - 1
                                : q > C(0)                    ? static_cast<int64_t>(q)
                                                              : 0;
            ++h[pos];
          }
        }
      });
    }
  });
  Tensor total = Tensor::empty({bins}, ScalarType::Int64);
  int64_t* t = total.data<int64_t>();
  for (int64_t b = 0; b < bins; ++b) {
    t[b] = 0;
    for (int64_t c = 0; c < chunks; ++c) t[b] += counts[c * bins + b];
  }
  const Tensor result = to_dtype(total, x.dtype());
  return write_out(result, out, op, {.dtype = OutDtype::kExact});
}

Tensor bincount(const Tensor& x, const Tensor& weights, int64_t minlength) {
  const char* op = "bincount";
  reject_limited_unsigned(x.dtype(), op);
  EMBER_CHECK(is_integral(x.dtype(), false), NotImplementedError, "[", op, "] not implemented for ",
              dtype_name(x.dtype()), " (needs an integer input)");
  EMBER_CHECK(minlength >= 0, RuntimeError, "[", op, "] minlength should be >= 0, got ", minlength);
  EMBER_CHECK(x.dim() == 1, RuntimeError, "[", op, "] only supports 1-d non-negative integral ",
              "inputs, got shape ", x.sizes());
  if (weights.defined()) {
    EMBER_CHECK(weights.dim() == 1 && weights.numel() == x.numel(), RuntimeError, "[", op,
                "] weights should be 1-d and have the same length as input, got weights of ",
                "shape ", weights.sizes(), " and input of shape ", x.sizes());
  }
  const Tensor v = contiguous(to_dtype(x, ScalarType::Int64));
  const int64_t* iv = v.data<int64_t>();
  const int64_t n = v.numel();
  int64_t largest = -1;
  for (int64_t i = 0; i < n; ++i) {
    EMBER_CHECK(iv[i] >= 0, RuntimeError, "[", op, "] only supports 1-d non-negative integral ",
                "inputs, got the value ", iv[i], " at index ", i);
    largest = std::max(largest, iv[i]);
  }
  const int64_t length =
      std::max(checked_add(largest, 1, "bincount", "the largest value + 1"), minlength);
  if (!weights.defined()) {
    Tensor counts = zeros({length}, ScalarType::Int64);
    int64_t* c = counts.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) ++c[iv[i]];
    return counts;
  }
  // Sums in the result dtype, in input order (the order torch adds them in).
  const ScalarType dtype =
      weights.dtype() == ScalarType::Float32 ? ScalarType::Float32 : ScalarType::Float64;
  Tensor sums = zeros({length}, dtype);
  const Tensor w = contiguous(to_dtype(weights, dtype));
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      T* s = sums.data<T>();
      const T* wv = w.data<T>();
      for (int64_t i = 0; i < n; ++i) s[iv[i]] += wv[i];
    }
  });
  return sums;
}

}  // namespace ember
