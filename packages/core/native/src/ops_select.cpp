// mode, unique, nanmedian and quantile: each run along the dim is copied out (rows_last.h) and
// sorted or partitioned on its own, runs split across threads.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/ops/select.h"
#include "ember/parallel.h"
#include "rows_last.h"

namespace ember {
namespace {

// Runs fn(row) for each of `rows` runs of `len` elements, in parallel.
template <typename Fn>
void for_each_row(int64_t rows, int64_t len, Fn fn) {
  parallel_for(0, rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(len, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t r = b; r < e; ++r) fn(r);
               });
}

void check_reduced_dim(const Tensor& x, int64_t d, const char* op) {
  EMBER_CHECK(x.dim() == 0 || x.sizes()[d] != 0, IndexError, "[", op, "] Expected reduction dim ",
              d, " to have non-zero size (input shape ", x.sizes(), ")");
}

}  // namespace

std::pair<Tensor, Tensor> mode(const Tensor& x, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(x.dim(), 1), "mode");
  check_reduced_dim(x, d, "mode");
  const Tensor rows = rows_last::block(x, d);
  const int64_t n = rows.sizes()[0], len = rows.sizes()[1];
  Tensor values = Tensor::empty({n, 1}, x.dtype());
  Tensor indices = Tensor::empty({n, 1}, ScalarType::Int64);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* in = rows.data<T>();
    T* vals = values.data<T>();
    int64_t* idxs = indices.data<int64_t>();
    // torch's CPU kernel: std::sort of (value, index) pairs by value, then the first longest
    // run of equal values; the index is that of the run's last pair. The same std::sort call
    // gives the same (implementation-defined) order of equal values.
    for_each_row(n, len, [&](int64_t r) {
      std::vector<std::pair<T, int64_t>> el(len);
      for (int64_t k = 0; k < len; ++k) el[k] = {in[r * len + k], k};
      std::sort(el.begin(), el.end(), [](const auto& a, const auto& b) {
        return static_cast<C>(a.first) < static_cast<C>(b.first);
      });
      T best{};
      int64_t best_index = 0, run = 0, best_run = 0;
      for (int64_t i = 0; i < len; ++i) {
        ++run;
        if (i == len - 1 || static_cast<C>(el[i].first) != static_cast<C>(el[i + 1].first)) {
          if (run > best_run) {
            best = el[i].first;
            best_index = el[i].second;
            best_run = run;
          }
          run = 0;
        }
      }
      vals[r] = best;
      idxs[r] = best_index;
    });
  });
  return {rows_last::unblock(values, x, d, 1, keepdim),
          rows_last::unblock(indices, x, d, 1, keepdim)};
}

namespace {

// unique over whole slices along d (torch's unique_dim): std::sort of the slice indices by a
// lexicographic comparison, then runs of equal slices (NaN never equal).
std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& x, int64_t dim) {
  const char* op = "unique";
  EMBER_CHECK(x.dim() > 0, IndexError, "[", op, "] Dimension specified as ", dim,
              " but tensor has no dimensions");
  const int64_t d = wrap_dim(dim, x.dim(), op);
  const int64_t zero_dims = std::count(x.sizes().begin(), x.sizes().end(), 0);
  if (x.sizes()[d] == 0) {
    EMBER_CHECK(zero_dims == 1, RuntimeError, "[", op, "] Number of zero sized dimensions is ",
                "more than one, so unique cannot be applied (input shape ", x.sizes(), ")");
    return {Tensor::empty(x.sizes(), x.dtype()), Tensor::empty({0}, ScalarType::Int64),
            Tensor::empty({0}, ScalarType::Int64)};
  }
  EMBER_CHECK(zero_dims == 0, RuntimeError, "[", op, "] There are 0 sized dimensions, and they ",
              "aren't selected, so unique cannot be applied (input shape ", x.sizes(), ")");
  const Tensor front = contiguous(movedim(x, {d}, {0}));
  const int64_t n = x.sizes()[d], inner = x.numel() / n;
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), int64_t{0});
  Tensor inverse = Tensor::empty({n}, ScalarType::Int64);
  std::vector<int64_t> firsts, counts;
  visit_dtype_with_unsigned(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* data = front.data<T>();
    auto value = [&](int64_t row, int64_t j) { return static_cast<C>(data[row * inner + j]); };
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      for (int64_t j = 0; j < inner; ++j) {
        if (value(a, j) < value(b, j)) return true;
        if (value(a, j) > value(b, j)) return false;
      }
      return false;
    });
    int64_t* inv = inverse.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      bool same = i > 0;
      for (int64_t j = 0; same && j < inner; ++j) {
        same = value(order[i], j) == value(firsts.back(), j);
      }
      if (!same) {
        firsts.push_back(order[i]);
        counts.push_back(0);
      }
      ++counts.back();
      inv[order[i]] = static_cast<int64_t>(firsts.size()) - 1;
    }
  });
  const int64_t groups = static_cast<int64_t>(firsts.size());
  Shape sizes = front.sizes();
  sizes[0] = groups;
  Tensor values = Tensor::empty(sizes, x.dtype());
  const int64_t row_bytes = inner * x.element_size();
  for (int64_t g = 0; g < groups; ++g) {
    std::memcpy(values.data_bytes() + g * row_bytes, front.data_bytes() + firsts[g] * row_bytes,
                row_bytes);
  }
  Tensor count_t = Tensor::empty({groups}, ScalarType::Int64);
  std::copy(counts.begin(), counts.end(), count_t.data<int64_t>());
  return {contiguous(movedim(values, {0}, {d})), inverse, count_t};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& x, std::optional<int64_t> dim) {
  if (dim) return unique_dim(x, *dim);
  // torch's CPU unique: its default (unstable) sort, a std::sort of (value, index) pairs with
  // NaN last, then runs of equal values (NaN never equal). The same std::sort call orders the
  // NaNs and the zeros of either sign as torch does.
  const Tensor flat = contiguous(reshape(x, {-1}));
  const int64_t n = flat.numel();
  Tensor inverse = Tensor::empty(x.sizes(), ScalarType::Int64);
  Tensor values, counts;
  visit_dtype_with_unsigned(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* v = flat.data<T>();
    std::vector<std::pair<T, int64_t>> el(n);
    for (int64_t i = 0; i < n; ++i) el[i] = {v[i], i};
    std::sort(el.begin(), el.end(), [](const auto& a, const auto& b) {
      const C l = static_cast<C>(a.first), r = static_cast<C>(b.first);
      return (!is_nan(l) && is_nan(r)) || l < r;
    });
    std::vector<int64_t> firsts;
    int64_t* inv = inverse.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || static_cast<C>(el[i].first) != static_cast<C>(el[i - 1].first)) {
        firsts.push_back(i);
      }
      inv[el[i].second] = static_cast<int64_t>(firsts.size()) - 1;
    }
    const int64_t groups = static_cast<int64_t>(firsts.size());
    values = Tensor::empty({groups}, x.dtype());
    counts = Tensor::empty({groups}, ScalarType::Int64);
    for (int64_t g = 0; g < groups; ++g) {
      values.data<T>()[g] = el[firsts[g]].first;
      counts.data<int64_t>()[g] = (g + 1 < groups ? firsts[g + 1] : n) - firsts[g];
    }
  });
  return {values, inverse, counts};
}

// ---- nanmedian.

Tensor nanmedian(const Tensor& x) {
  EMBER_CHECK(x.dtype() != ScalarType::Bool, NotImplementedError,
              "[nanmedian] not implemented for 'bool'");
  if (x.numel() == 0) {
    EMBER_CHECK(is_floating(x.dtype()), RuntimeError, "[nanmedian] cannot take the median of ",
                "an empty ", dtype_name(x.dtype()), " tensor (input shape ", x.sizes(), ")");
    Tensor nan = Tensor::empty({}, x.dtype());
    fill_(nan, std::numeric_limits<double>::quiet_NaN());
    return nan;
  }
  // torch's CPU kernel: nth_element at rank ((n - NaNs) - 1) / 2 with NaN above every number
  // (an all-NaN input gives rank 0, a NaN); the same call picks the same zero of either sign.
  Tensor values = contiguous(reshape(x, {-1}));
  if (values.storage() == x.storage()) values = clone(values);
  Tensor result = Tensor::empty({}, x.dtype());
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    T* first = values.data<T>();
    T* last = first + values.numel();
    const int64_t nans = std::count_if(first, last, [](T v) { return is_nan(static_cast<C>(v)); });
    T* nth = first + (values.numel() - nans - 1) / 2;
    std::nth_element(first, nth, last, [](T a, T b) {
      const C l = static_cast<C>(a), r = static_cast<C>(b);
      return l < r || (is_nan(r) && !is_nan(l));
    });
    *result.data<T>() = *nth;
  });
  return result;
}

std::pair<Tensor, Tensor> nanmedian_dim(const Tensor& x, int64_t dim, bool keepdim) {
  const char* op = "nanmedian";
  const int64_t d = wrap_dim(dim, std::max<int64_t>(x.dim(), 1), op);
  EMBER_CHECK(x.dtype() != ScalarType::Bool, NotImplementedError, "[", op,
              "] not implemented for 'bool'");
  check_reduced_dim(x, d, op);
  const Tensor rows = rows_last::block(x, d);
  const int64_t n = rows.sizes()[0], len = rows.sizes()[1];
  Tensor values = Tensor::empty({n, 1}, x.dtype());
  Tensor indices = Tensor::empty({n, 1}, ScalarType::Int64);
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* in = rows.data<T>();
    // torch's CPU kernel: nth_element over indices with NaN above every number and ties
    // broken by index; the same comparator and std call pick the same index.
    for_each_row(n, len, [&](int64_t r) {
      const T* run = in + r * len;
      auto v = [&](int64_t i) { return static_cast<C>(run[i]); };
      std::vector<int64_t> idx(len);
      std::iota(idx.begin(), idx.end(), int64_t{0});
      int64_t nans = 0;
      for (int64_t i = 0; i < len; ++i) nans += is_nan(v(i));
      const auto nth = idx.begin() + (len - nans - 1) / 2;
      std::nth_element(idx.begin(), nth, idx.end(), [&](int64_t i, int64_t j) {
        return v(i) < v(j) || (v(i) == v(j) && i < j) || (is_nan(v(j)) && !is_nan(v(i)));
      });
      values.data<T>()[r] = run[*nth];
      indices.data<int64_t>()[r] = *nth;
    });
  });
  return {rows_last::unblock(values, x, d, 1, keepdim),
          rows_last::unblock(indices, x, d, 1, keepdim)};
}

// ---- quantile.

QuantileInterpolation quantile_interpolation(const std::string& name, const char* op) {
  if (name == "linear") return QuantileInterpolation::Linear;
  if (name == "lower") return QuantileInterpolation::Lower;
  if (name == "higher") return QuantileInterpolation::Higher;
  if (name == "midpoint") return QuantileInterpolation::Midpoint;
  if (name == "nearest") return QuantileInterpolation::Nearest;
  throw RuntimeError(str("[", op, "] interpolation must be one of linear, lower, higher, midpoint ",
                         "or nearest, but got '", name, "'"));
}

namespace {

// One run's quantiles, computed in T like torch: rank = q * (n - 1) (NaN in the run: the last
// rank, so the result is NaN), rounded per mode, then torch's lerp between the neighbours.
template <typename T>
void quantiles_of_run(T* run, int64_t len, const T* q, int64_t nq, T* out, int64_t out_stride,
                      QuantileInterpolation mode, bool ignore_nan) {
  std::sort(run, run + len, [](T a, T b) { return a < b || (!std::isnan(a) && std::isnan(b)); });
  int64_t valid = len;
  while (valid > 0 && std::isnan(run[valid - 1])) --valid;
  for (int64_t j = 0; j < nq; ++j) {
    T rank;
    if (ignore_nan) {
      rank = q[j] * static_cast<T>(valid - 1);
      if (rank < 0) rank = 0;
    } else {
      rank = valid < len ? static_cast<T>(len - 1) : q[j] * static_cast<T>(len - 1);
    }
    if (mode == QuantileInterpolation::Lower) rank = std::floor(rank);
    if (mode == QuantileInterpolation::Higher) rank = std::ceil(rank);
    if (mode == QuantileInterpolation::Nearest) rank = std::nearbyint(rank);  // half to even
    const int64_t below = static_cast<int64_t>(rank);
    T result = run[below];
    if (mode == QuantileInterpolation::Linear || mode == QuantileInterpolation::Midpoint) {
      const T w = mode == QuantileInterpolation::Midpoint ? T(0.5) : rank - static_cast<T>(below);
      const T end = run[static_cast<int64_t>(std::ceil(rank))];
      result = w < T(0.5) ? result + w * (end - result) : end - (end - result) * (T(1) - w);
    }
    out[j * out_stride] = result;
  }
}

}  // namespace

Tensor quantile(const Tensor& x, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                QuantileInterpolation interpolation, bool ignore_nan, const Tensor& out) {
  const char* op = ignore_nan ? "nanquantile" : "quantile";
  EMBER_CHECK(x.dtype() == ScalarType::Float32 || x.dtype() == ScalarType::Float64, RuntimeError,
              "[", op, "] input tensor must be either float or double dtype, got ",
              dtype_name(x.dtype()));
  EMBER_CHECK(q.dim() <= 1, RuntimeError, "[", op, "] q must be a scalar or 1D tensor, got ",
              "shape ", q.sizes());
  EMBER_CHECK(q.dtype() == x.dtype(), RuntimeError, "[", op, "] q tensor must be same dtype as ",
              "the input tensor, got ", dtype_name(q.dtype()), " and ", dtype_name(x.dtype()));
  EMBER_CHECK(x.numel() > 0, RuntimeError, "[", op, "] input tensor must be non-empty (shape ",
              x.sizes(), ")");
  if (out.defined()) {
    EMBER_CHECK(out.dtype() == x.dtype(), RuntimeError, "[", op, "] out tensor must be same ",
                "dtype as the input tensor, got ", dtype_name(out.dtype()));
  }
  const Tensor qd = contiguous(reshape(to_dtype(q, ScalarType::Float64), {-1}));
  for (int64_t j = 0; j < qd.numel(); ++j) {
    const double v = qd.data<double>()[j];
    EMBER_CHECK(v >= 0 && v <= 1, RuntimeError, "[", op, "] q must be in the range [0, 1] but ",
                "got ", v);
  }
  // Runs: the whole input (dim unset) or each run along dim.
  Tensor rows;
  Shape position_shape;
  if (!dim) {
    rows = clone(reshape(x, {1, x.numel()}));
    if (keepdim) position_shape.assign(x.dim(), 1);
  } else {
    const int64_t d = wrap_dim(*dim, std::max<int64_t>(x.dim(), 1), op);
    rows = clone(rows_last::block(x, d));
    if (x.dim() > 0) {
      position_shape = x.sizes();
      if (keepdim)
        position_shape[d] = 1;
      else
        position_shape.erase(position_shape.begin() + d);
    }
  }
  const int64_t n = rows.sizes()[0], len = rows.sizes()[1], nq = qd.numel();
  Tensor result = Tensor::empty({nq, n}, x.dtype());
  const Tensor qx = contiguous(to_dtype(qd, x.dtype()));
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T>) {
      for_each_row(n, len * 4, [&](int64_t r) {
        quantiles_of_run<T>(rows.data<T>() + r * len, len, qx.data<T>(), nq, result.data<T>() + r,
                            n, interpolation, ignore_nan);
      });
    }
  });
  Shape shape = position_shape;
  if (q.dim() == 1) shape.insert(shape.begin(), nq);
  result = reshape(result, shape);
  return write_out(result, out, op, {.dtype = OutDtype::kExact});
}

}  // namespace ember
