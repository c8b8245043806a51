// multinomial, poisson and the in-place geometric_/log_normal_/cauchy_.
//
// Fixed-count samplers transform uniforms or normals drawn by random.cpp's fills into a float64
// scratch tensor. poisson needs a varying number of uniforms per element: element i reserves
// Philox block (offset + i) and takes further blocks from the same counter with word 2 raised,
// a sub-stream no other call can reach, so results stay independent of the thread count.
#include "ember/ops/samplers.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Checks an in-place target before anything is drawn (a failed call consumes no numbers).
void check_target(const Tensor& t, const char* op) {
  t.check_writable(op);
  assert_no_internal_overlap(t, op);
}

void check_float_target(const Tensor& t, const char* op) {
  EMBER_CHECK(is_floating(t.dtype()), NotImplementedError, "[", op, "] not implemented for ",
              dtype_name(t.dtype()), " (needs a floating point dtype)");
}

// Uniforms in [0, 1) with 53 random bits, shaped like t.
Tensor uniforms(const Shape& shape, Generator* gen) {
  Tensor u = Tensor::empty(shape, ScalarType::Float64);
  uniform_(u, 0.0, 1.0, gen);
  return u;
}

// Writes f(u) for uniforms u into t (cast to t's dtype).
template <typename F>
const Tensor& fill_from_uniform(const Tensor& t, Generator* gen, F f) {
  Tensor u = uniforms(t.sizes(), gen);
  double* v = u.data<double>();
  parallel_for(0, u.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) v[i] = f(v[i]);
  });
  if (t.numel() > 0) copy_(t, u);
  return t;
}

// One element's private stream of uniforms (see the file comment).
class ElementStream {
 public:
  ElementStream(uint64_t counter, std::array<uint32_t, 2> key) : counter_(counter), key_(key) {}
  double next() {
    if (used_ == 2) {
      block_ = philox4x32_10(
          {static_cast<uint32_t>(counter_), static_cast<uint32_t>(counter_ >> 32), sub_++, 0},
          key_);
      used_ = 0;
    }
    const uint64_t bits = (uint64_t{block_[2 * used_]} << 32) | block_[2 * used_ + 1];
    ++used_;
    return static_cast<double>(bits >> 11) * 0x1p-53;
  }

 private:
  uint64_t counter_;
  std::array<uint32_t, 2> key_;
  std::array<uint32_t, 4> block_{};
  uint32_t sub_ = 0;
  int used_ = 2;
};

// Poisson(lambda): multiplication of uniforms below 10, else Hormann's transformed rejection
// (PTRS, 1993), the algorithms numpy and torch use.
double sample_poisson(double lambda, ElementStream& s) {
  if (lambda >= 10) {
    const double slam = std::sqrt(lambda), loglam = std::log(lambda);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    while (true) {
      const double u = s.next() - 0.5, v = s.next();
      const double us = 0.5 - std::fabs(u);
      const double k = std::floor((2 * a / us + b) * u + lambda + 0.43);
      if (us >= 0.07 && v <= vr) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <=
          -lambda + k * loglam - std::lgamma(k + 1)) {
        return k;
      }
    }
  }
  if (lambda == 0) return 0;
  const double limit = std::exp(-lambda);
  double product = 1, count = 0;
  while (true) {
    product *= s.next();
    if (product <= limit) return count;
    count += 1;
  }
}

}  // namespace

Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement, Generator* gen,
                   const Tensor& out) {
  const char* op = "multinomial";
  EMBER_CHECK(is_floating(probs.dtype()), RuntimeError, "[", op, "] only supports ",
              "floating-point dtypes for input, got ", dtype_name(probs.dtype()));
  EMBER_CHECK(probs.dim() == 1 || probs.dim() == 2, RuntimeError, "[", op,
              "] prob_dist must be 1 or 2 dim, got shape ", probs.sizes());
  EMBER_CHECK(num_samples > 0, RuntimeError, "[", op, "] cannot sample n_sample <= 0 samples, ",
              "got ", num_samples);
  const int64_t cats = probs.sizes().back();
  EMBER_CHECK(replacement || num_samples <= cats, RuntimeError, "[", op, "] cannot sample ",
              "n_sample > prob_dist.size(-1) samples without replacement (", num_samples, " > ",
              cats, ")");
  EMBER_CHECK(cats > 0, RuntimeError, "[", op, "] the distribution has no categories (shape ",
              probs.sizes(), ")");
  if (out.defined()) {
    EMBER_CHECK(out.dtype() == ScalarType::Int64, RuntimeError, "[", op, "] expects an int64 ",
                "out tensor, got ", dtype_name(out.dtype()));
    check_out(out, ScalarType::Int64, op, {.dtype = OutDtype::kExact, .inputs = {probs}});
  }
  const int64_t rows = probs.dim() == 2 ? probs.sizes()[0] : 1;
  const Tensor p = contiguous(to_dtype(reshape(probs, {rows, cats}), ScalarType::Float64));
  const double* pv = p.data<double>();
  for (int64_t r = 0; r < rows; ++r) {
    double total = 0;
    for (int64_t c = 0; c < cats; ++c) {
      const double v = pv[r * cats + c];
      EMBER_CHECK(std::isfinite(v) && v >= 0, RuntimeError, "[", op, "] probability tensor ",
                  "contains either inf, nan or element < 0 (found ", v, ")");
      total += v;
    }
    EMBER_CHECK(total > 0, RuntimeError, "[", op, "] invalid multinomial distribution (sum of ",
                "probabilities <= 0) in row ", r);
  }
  Tensor result = Tensor::empty({rows, num_samples}, ScalarType::Int64);
  int64_t* res = result.data<int64_t>();
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / (cats + num_samples));
  if (replacement) {
    // Inverse CDF: the first category whose running total exceeds u * total.
    const Tensor u = uniforms({rows, num_samples}, gen);
    const double* uv = u.data<double>();
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      std::vector<double> cdf(cats);
      for (int64_t r = b; r < e; ++r) {
        std::partial_sum(pv + r * cats, pv + (r + 1) * cats, cdf.begin());
        int64_t last = cats - 1;
        while (pv[r * cats + last] == 0) --last;  // where a rounded-up target lands
        for (int64_t j = 0; j < num_samples; ++j) {
          const double target = uv[r * num_samples + j] * cdf.back();
          const int64_t c = std::upper_bound(cdf.begin(), cdf.end(), target) - cdf.begin();
          res[r * num_samples + j] = std::min(c, last);
        }
      }
    });
  } else {
    // The categories with the smallest E / p for exponential E: a draw without replacement
    // (zero weights come last, in index order).
    Tensor keys = Tensor::empty({rows, cats}, ScalarType::Float64);
    exponential_(keys, 1.0, gen);
    double* kv = keys.data<double>();
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      std::vector<int64_t> order(cats);
      for (int64_t r = b; r < e; ++r) {
        const double* k = kv + r * cats;
        std::vector<double> key(cats);
        for (int64_t c = 0; c < cats; ++c) {
          const double w = pv[r * cats + c];
          key[c] = w > 0 ? k[c] / w : std::numeric_limits<double>::infinity();
        }
        std::iota(order.begin(), order.end(), int64_t{0});
        std::partial_sort(
            order.begin(), order.begin() + num_samples, order.end(),
            [&](int64_t i, int64_t j) { return key[i] < key[j] || (key[i] == key[j] && i < j); });
        std::copy_n(order.begin(), num_samples, res + r * num_samples);
      }
    });
  }
  if (probs.dim() == 1) result = reshape(result, {num_samples});
  return write_out(result, out, op, {.dtype = OutDtype::kExact});
}

Tensor poisson(const Tensor& rates, Generator* gen) {
  const char* op = "poisson";
  check_float_target(rates, op);
  const Tensor lam = contiguous(to_dtype(rates, ScalarType::Float64));
  const double* lv = lam.data<double>();
  const int64_t n = lam.numel();
  for (int64_t i = 0; i < n; ++i) {
    EMBER_CHECK(std::isfinite(lv[i]) && lv[i] >= 0, RuntimeError, "[", op, "] invalid Poisson ",
                "rate, expected rate to be finite and non-negative, got ", lv[i]);
  }
  Generator& g = gen ? *gen : default_generator();
  const Generator::Range range = g.reserve(static_cast<uint64_t>(n));
  const std::array<uint32_t, 2> key{static_cast<uint32_t>(range.seed),
                                    static_cast<uint32_t>(range.seed >> 32)};
  Tensor draws = Tensor::empty(rates.sizes(), ScalarType::Float64);
  double* dv = draws.data<double>();
  parallel_for(0, n, 4096, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      ElementStream s(range.counter + static_cast<uint64_t>(i), key);
      dv[i] = sample_poisson(lv[i], s);
    }
  });
  return to_dtype(draws, rates.dtype());
}

const Tensor& geometric_(const Tensor& t, double p, Generator* gen) {
  const char* op = "geometric_";
  EMBER_CHECK(t.dtype() != ScalarType::Bool, NotImplementedError, "[", op,
              "] not implemented for bool");
  EMBER_CHECK(p > 0 && p < 1, RuntimeError, "[", op, "] expects p to be in (0, 1), but got p=", p);
  check_target(t, op);
  const double scale = 1.0 / std::log1p(-p);
  // 1 - u lies in (0, 1]: the count is ceil(log(1 - u) / log(1 - p)), at least 1.
  return fill_from_uniform(
      t, gen, [scale](double u) { return std::max(1.0, std::ceil(std::log1p(-u) * scale)); });
}

const Tensor& log_normal_(const Tensor& t, double mean, double std, Generator* gen) {
  const char* op = "log_normal_";
  check_float_target(t, op);
  EMBER_CHECK(std > 0, RuntimeError, "[", op, "] expects std > 0.0, but found std=", std);
  check_target(t, op);
  Tensor z = Tensor::empty(t.sizes(), ScalarType::Float64);
  normal_(z, mean, std, gen, op);
  double* v = z.data<double>();
  parallel_for(0, z.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) v[i] = std::exp(v[i]);
  });
  if (t.numel() > 0) copy_(t, z);
  return t;
}

const Tensor& cauchy_(const Tensor& t, double median, double sigma, Generator* gen) {
  const char* op = "cauchy_";
  EMBER_CHECK(is_floating(t.dtype()), RuntimeError, "[", op, "] Cauchy distribution is a ",
              "continuous probability distribution; dtype must be a floating point but you ",
              "specified ", dtype_name(t.dtype()));
  EMBER_CHECK(sigma > 0, RuntimeError, "[", op, "] expects sigma > 0.0, but found sigma=", sigma);
  check_target(t, op);
  return fill_from_uniform(
      t, gen, [median, sigma](double u) { return median + sigma * std::tan(kPi * (u - 0.5)); });
}

}  // namespace ember
