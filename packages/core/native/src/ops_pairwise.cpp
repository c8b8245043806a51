// polygamma (a unary kernel with n as its parameter), cov/corrcoef (compositions that follow
// numpy.cov's weighting as torch does) and cdist (a direct loop, or a matrix product for p = 2).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/kernels.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

Tensor wrapped(double v) { return Tensor::scalar(v, ScalarType::Float64, true); }

// The checks torch's cov makes on fweights/aweights.
void check_weights(const Tensor& w, const char* name, bool integral, int64_t observations) {
  EMBER_CHECK(w.dim() <= 1, RuntimeError, "[cov] expected ", name, " to have one or fewer ",
              "dimensions but got ", name, " with ", w.dim(), " dimensions");
  EMBER_CHECK(integral ? is_integral(w.dtype(), false) : is_floating(w.dtype()), RuntimeError,
              "[cov] expected ", name, " to have ", integral ? "integral" : "floating point",
              " dtype but got ", name, " with ", dtype_name(w.dtype()), " dtype");
  EMBER_CHECK(w.numel() == observations, RuntimeError, "[cov] expected ", name,
              " to have the same numel as there are observations in the input but got ", w.numel(),
              " != ", observations);
  EMBER_CHECK(observations == 0 || item_double(amin(w, {}, false), "cov") >= 0, RuntimeError,
              "[cov] ", name, " cannot be negative");
}

// Distances between row i of a (r1 x m) and every row of b (r2 x m), written to out[0, r2).
template <typename T>
void distance_row(const T* a, const T* b, T* out, int64_t r2, int64_t m, double p) {
  for (int64_t j = 0; j < r2; ++j) {
    const T* bj = b + j * m;
    double acc = 0;
    if (p == 0) {
      for (int64_t k = 0; k < m; ++k) acc += a[k] != bj[k];
    } else if (p == 1) {
      for (int64_t k = 0; k < m; ++k) acc += std::fabs(double(a[k]) - bj[k]);
    } else if (p == 2) {
      for (int64_t k = 0; k < m; ++k) {
        const double d = double(a[k]) - bj[k];
        acc += d * d;
      }
      acc = std::sqrt(acc);
    } else if (std::isinf(p)) {
      for (int64_t k = 0; k < m; ++k) acc = std::max(acc, std::fabs(double(a[k]) - bj[k]));
    } else {
      for (int64_t k = 0; k < m; ++k) acc += std::pow(std::fabs(double(a[k]) - bj[k]), p);
      acc = std::pow(acc, 1 / p);
    }
    out[j] = static_cast<T>(acc);
  }
}

// ||a_i||^2 - 2 a_i.b_j + ||b_j||^2, clamped at 0 (rounding) before the square root.
Tensor euclidean_by_matmul(const Tensor& a, const Tensor& b) {
  const Tensor aa = sum(binary(BinaryOp::Mul, a, a), {-1}, true);
  const Tensor bb = mT(sum(binary(BinaryOp::Mul, b, b), {-1}, true));
  Tensor d = binary(BinaryOp::Mul, matmul(a, mT(b)), wrapped(-2.0));
  binary(BinaryOp::Add, d, aa, {}, {}, true);
  binary(BinaryOp::Add, d, bb, {}, {}, true);
  clamp(d, wrapped(0.0), {}, {}, true);
  return unary(UnaryOp::Sqrt, d, {}, {}, true);
}

}  // namespace

Tensor polygamma(int64_t n, const Tensor& x, const Tensor& out, bool in_place) {
  EMBER_CHECK(n >= 0, RuntimeError, "[polygamma] polygamma(n, x) does not support negative n, got ",
              n);
  OpParams params;
  params.i0 = n;
  return unary(UnaryOp::Polygamma, x, out, params, in_place);
}

Tensor cov(const Tensor& x, int64_t correction, const Tensor& fweights, const Tensor& aweights) {
  EMBER_CHECK(x.dim() <= 2, RuntimeError, "[cov] expected input to have two or fewer dimensions ",
              "but got an input with ", x.dim(), " dimensions");
  EMBER_CHECK(x.dtype() != ScalarType::Bool, RuntimeError,
              "[cov] bool dtype is not supported for input");
  const Tensor in = x.dim() < 2 ? reshape(x, {1, -1}) : x;
  const int64_t observations = in.size(1);
  Tensor w;
  if (fweights.defined()) {
    check_weights(fweights, "fweights", true, observations);
    w = fweights;
  }
  if (aweights.defined()) {
    check_weights(aweights, "aweights", false, observations);
    w = w.defined() ? binary(BinaryOp::Mul, w, aweights) : aweights;
  }
  const Tensor w_sum =
      w.defined() ? sum(w, {}, false) : Tensor::scalar_int(observations, ScalarType::Int64);
  const double w_total = item_double(w_sum, "cov");
  EMBER_CHECK(!w.defined() || w_total != 0, RuntimeError,
              "[cov] weights sum to zero, can't be normalized");
  const Tensor weighted = w.defined() ? binary(BinaryOp::Mul, in, w) : in;
  const Tensor avg = binary(BinaryOp::Div, sum(weighted, {1}, false), w_sum);

  double norm_factor;
  if (!w.defined()) {
    norm_factor = static_cast<double>(observations) - static_cast<double>(correction);
  } else if (correction == 0) {
    norm_factor = w_total;
  } else if (!aweights.defined()) {
    norm_factor = w_total - static_cast<double>(correction);
  } else if (!fweights.defined() && observations == 1 && correction == 1) {
    norm_factor = 0;  // torch's (and numpy's) value for this corner, free of rounding
  } else {
    const double w_aw = item_double(sum(binary(BinaryOp::Mul, w, aweights), {}, false), "cov");
    norm_factor = w_total - static_cast<double>(correction) * w_aw / w_total;
  }
  // torch warns and divides by zero here (inf/nan), as numpy does.
  norm_factor = std::max(norm_factor, 0.0);

  Tensor centered;
  if (observations == 1 && fweights.defined() != aweights.defined()) {
    // One observation with one kind of weight: the weighted mean is the observation itself.
    centered = zeros(in.sizes(), is_floating(avg.dtype()) ? avg.dtype() : default_dtype());
  } else {
    centered = binary(BinaryOp::Sub, in, unsqueeze(avg, 1));
  }
  const Tensor rhs = w.defined() ? binary(BinaryOp::Mul, centered, w) : centered;
  const Tensor c = binary(BinaryOp::Div, mm(centered, t(rhs)), wrapped(norm_factor));
  return squeeze(c, std::nullopt);
}

Tensor corrcoef(const Tensor& x) {
  EMBER_CHECK(x.dim() <= 2, RuntimeError, "[corrcoef] expected input to have two or fewer ",
              "dimensions but got an input with ", x.dim(), " dimensions");
  const Tensor c = cov(x, 1);
  if (c.dim() == 0) return binary(BinaryOp::Div, c, c);  // nan for 0, inf, nan; else 1
  const Tensor stddev = unary(UnaryOp::Sqrt, diagonal(c, 0, 0, 1));
  Tensor r = binary(BinaryOp::Div, c, view(stddev, {-1, 1}));
  binary(BinaryOp::Div, r, view(stddev, {1, -1}), {}, {}, true);
  // Rounding can leave values just outside [-1, 1]; numpy and torch clip them.
  return clamp(r, wrapped(-1.0), wrapped(1.0), {}, true);
}

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, const std::string& compute_mode) {
  const char* op = "cdist";
  EMBER_CHECK(x1.dim() >= 2, RuntimeError, "[", op, "] cdist only supports at least 2D tensors, ",
              "X1 got: ", x1.dim(), "D");
  EMBER_CHECK(x2.dim() >= 2, RuntimeError, "[", op, "] cdist only supports at least 2D tensors, ",
              "X2 got: ", x2.dim(), "D");
  const int64_t m = x1.size(-1);
  EMBER_CHECK(m == x2.size(-1), RuntimeError, "[", op, "] X1 and X2 must have the same number ",
              "of columns. X1: ", m, " X2: ", x2.size(-1));
  for (const Tensor* x : {&x1, &x2}) {
    EMBER_CHECK(is_floating(x->dtype()), RuntimeError, "[", op, "] cdist only supports ",
                "floating-point dtypes, ", x == &x1 ? "X1" : "X2",
                " got: ", dtype_name(x->dtype()));
    EMBER_CHECK(x->dtype() == ScalarType::Float32 || x->dtype() == ScalarType::Float64,
                NotImplementedError, "[", op, "] not implemented for dtype ",
                dtype_name(x->dtype()), " (float32 and float64 only, as torch)");
  }
  EMBER_CHECK(x1.dtype() == x2.dtype(), RuntimeError, "[", op, "] expected both inputs to have ",
              "the same dtype, got ", dtype_name(x1.dtype()), " and ", dtype_name(x2.dtype()));
  EMBER_CHECK(p >= 0, RuntimeError, "[", op, "] cdist only supports non-negative p values, got ",
              p);
  const bool if_necessary = compute_mode == "use_mm_for_euclid_dist_if_necessary";
  const bool always_mm = compute_mode == "use_mm_for_euclid_dist";
  EMBER_CHECK(if_necessary || always_mm || compute_mode == "donot_use_mm_for_euclid_dist",
              ValueError, "[", op, "] ", compute_mode, " is not a valid value for compute_mode");

  const Shape batch1(x1.sizes().begin(), x1.sizes().end() - 2);
  const Shape batch2(x2.sizes().begin(), x2.sizes().end() - 2);
  Shape batch = broadcast_shapes(batch1, batch2, op);
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  Shape a_shape = batch, b_shape = batch, result_shape = batch;
  a_shape.insert(a_shape.end(), {r1, m});
  b_shape.insert(b_shape.end(), {r2, m});
  result_shape.insert(result_shape.end(), {r1, r2});
  checked_numel(result_shape, op);
  const Tensor a = expand(x1, a_shape), b = expand(x2, b_shape);
  if (p == 2 && (always_mm || (if_necessary && (r1 > 25 || r2 > 25)))) {
    return euclidean_by_matmul(a, b);
  }
  const Tensor ac = contiguous(a), bc = contiguous(b);
  Tensor result = Tensor::empty(result_shape, x1.dtype());
  const int64_t batches = checked_numel(batch, op);
  const int64_t rows = batches * r1;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(r2 * m, 1));
  visit_dtype(x1.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const T* pa = ac.data<T>();
      const T* pb = bc.data<T>();
      T* po = result.data<T>();
      parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          distance_row(pa + row * m, pb + (row / r1) * r2 * m, po + row * r2, r2, m, p);
        }
      });
    }
  });
  return result;
}

}  // namespace ember
