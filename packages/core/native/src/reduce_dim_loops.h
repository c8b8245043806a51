// Row loops for reductions along dims and scans, run through the TensorIterator: the iterator
// walks output positions, the input is viewed with the reduced dims removed, and RowParams gives
// the reduced run (length and byte stride). Private to ops_reduce_dim.cpp (compiled once).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ember/dtype.h"

namespace ember::rows {

struct RowParams {
  int64_t len = 0;         // elements in each reduced run
  int64_t in_stride = 0;   // bytes between consecutive elements of a run in the input
  int64_t out_stride = 0;  // scans: bytes between consecutive elements of the output run
  double p = 0;            // var's correction, norm's order
};

template <typename C>
inline bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}

template <typename T>
inline T& at(char* base, int64_t offset) {
  return *reinterpret_cast<T*>(base + offset);
}

// Drives a single-pass Op over runs. Op: kOutputs, State, init(State&), step(State&, C, k),
// write(const State&, char** data, const int64_t* strides, int64_t i, const RowParams&).
// When adjacent outputs read adjacent input columns (a reduction over an outer dim), a block
// of columns is walked run by run so every cache line read is used at once.
template <typename T, typename Op>
void reduce_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  using C = compute_t<T>;
  using State = typename Op::State;
  const RowParams& p = *static_cast<const RowParams*>(params);
  constexpr int kIn = Op::kOutputs;
  constexpr int64_t kSize = sizeof(T);
  const int64_t rs = p.in_stride;
  if (n > 1 && strides[kIn] == kSize && rs != kSize && p.len > 1) {
    constexpr int64_t kBlock = 16;
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t nb = std::min(kBlock, n - i0);
      State st[kBlock];
      for (int64_t b = 0; b < nb; ++b) Op::init(st[b]);
      const char* base = data[kIn] + i0 * kSize;
      for (int64_t k = 0; k < p.len; ++k) {
        const T* run = reinterpret_cast<const T*>(base + k * rs);
        for (int64_t b = 0; b < nb; ++b) Op::step(st[b], static_cast<C>(run[b]), k);
      }
      for (int64_t b = 0; b < nb; ++b) Op::write(st[b], data, strides, i0 + b, p);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    State st;
    Op::init(st);
    const char* run = data[kIn] + i * strides[kIn];
    if (rs == kSize) {
      const T* x = reinterpret_cast<const T*>(run);
      for (int64_t k = 0; k < p.len; ++k) Op::step(st, static_cast<C>(x[k]), k);
    } else {
      for (int64_t k = 0; k < p.len; ++k) {
        Op::step(st, static_cast<C>(*reinterpret_cast<const T*>(run + k * rs)), k);
      }
    }
    Op::write(st, data, strides, i, p);
  }
}

// max/min with the index of the first extreme; the first NaN wins and stays (torch's rule).
// kValues: write (values, indices); else indices only (argmax/argmin).
template <typename T, bool kMax, bool kValues>
struct ExtremeOp {
  using C = compute_t<T>;
  static constexpr int kOutputs = kValues ? 2 : 1;
  struct State {
    C best;
    int64_t index;
  };
  static void init(State& s) {
    if constexpr (std::numeric_limits<C>::has_infinity) {
      s.best = kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
    } else {
      s.best = kMax ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
    }
    s.index = 0;
  }
  static void step(State& s, C x, int64_t k) {
    const bool better = kMax ? !(x <= s.best) : !(x >= s.best);
    if (better && !is_nan(s.best)) {
      s.best = x;
      s.index = k;
    }
  }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams&) {
    if constexpr (kValues) {
      at<T>(data[0], i * strides[0]) = static_cast<T>(s.best);
      at<int64_t>(data[1], i * strides[1]) = s.index;
    } else {
      at<int64_t>(data[0], i * strides[0]) = s.index;
    }
  }
};

// Welford's update in double: stable for long runs and for means far from zero.
// kMode: 0 var, 1 std, 2 (var, mean), 3 (std, mean).
template <typename T, int kMode>
struct VarOp {
  static constexpr int kOutputs = kMode >= 2 ? 2 : 1;
  struct State {
    double mean, m2;
  };
  static void init(State& s) { s.mean = s.m2 = 0; }
  static void step(State& s, double x, int64_t k) {
    const double delta = x - s.mean;
    s.mean += delta / static_cast<double>(k + 1);
    s.m2 += delta * (x - s.mean);
  }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams& p) {
    const double n = static_cast<double>(p.len);
    // torch divides by max(0, N - correction): 0/0 gives NaN, x/0 gives inf.
    double var = s.m2 / std::max(0.0, n - p.p);
    if (kMode == 1 || kMode == 3) var = std::sqrt(var);
    at<T>(data[0], i * strides[0]) = static_cast<T>(var);
    if constexpr (kMode >= 2) {
      at<T>(data[1], i * strides[1]) =
          static_cast<T>(p.len == 0 ? std::numeric_limits<double>::quiet_NaN() : s.mean);
    }
  }
};

// Online log-sum-exp: the running sum is rescaled whenever the maximum grows, so one pass
// suffices and exp never overflows. All -inf gives -inf, any +inf gives +inf, NaN propagates.
template <typename T>
struct LogSumExpOp {
  using C = compute_t<T>;
  static constexpr int kOutputs = 1;
  struct State {
    C max;
    double sum;
    bool pos_inf, nan;
  };
  static void init(State& s) {
    s.max = -std::numeric_limits<C>::infinity();
    s.sum = 0;
    s.pos_inf = s.nan = false;
  }
  static void step(State& s, C x, int64_t) {
    if (std::isnan(x)) {
      s.nan = true;
    } else if (std::isinf(x)) {
      s.pos_inf |= x > 0;
    } else if (x > s.max) {
      s.sum = s.sum * static_cast<double>(std::exp(s.max - x)) + 1.0;
      s.max = x;
    } else {
      s.sum += static_cast<double>(std::exp(x - s.max));
    }
  }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams&) {
    double r;
    if (s.nan) r = std::numeric_limits<double>::quiet_NaN();
    else if (s.pos_inf) r = std::numeric_limits<double>::infinity();
    else if (s.sum == 0) r = -std::numeric_limits<double>::infinity();
    else r = static_cast<double>(s.max) + std::log(s.sum);
    at<T>(data[0], i * strides[0]) = static_cast<T>(r);
  }
};

enum class NormKind { Zero, One, Two, Inf, NegInf };

// Vector norms of fixed order, accumulated in double; max/min norms propagate NaN.
template <typename T, NormKind kKind>
struct NormOp {
  static constexpr int kOutputs = 1;
  struct State {
    double acc;
  };
  static void init(State& s) {
    s.acc = kKind == NormKind::NegInf ? std::numeric_limits<double>::infinity() : 0.0;
  }
  static void step(State& s, double x, int64_t) {
    const double a = std::fabs(x);
    if constexpr (kKind == NormKind::Two) s.acc += a * a;
    else if constexpr (kKind == NormKind::One) s.acc += a;
    else if constexpr (kKind == NormKind::Zero) s.acc += (x != 0.0 ? 1.0 : 0.0);
    else if constexpr (kKind == NormKind::Inf) s.acc = (a > s.acc || std::isnan(a)) ? a : s.acc;
    else s.acc = (a < s.acc || std::isnan(a)) ? a : s.acc;
  }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams& p) {
    double r = s.acc;
    if constexpr (kKind == NormKind::Two) r = std::sqrt(r);
    at<T>(data[0], i * strides[0]) = static_cast<T>(r);
  }
};

// Any other order p: (sum |x|^p)^(1/p), which reads p from the params.
template <typename T>
void general_norm_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const RowParams& p = *static_cast<const RowParams*>(params);
  const int64_t rs = p.in_stride;
  for (int64_t i = 0; i < n; ++i) {
    const char* run = data[1] + i * strides[1];
    double acc = 0;
    for (int64_t k = 0; k < p.len; ++k) {
      const double a = std::fabs(static_cast<double>(
          static_cast<compute_t<T>>(*reinterpret_cast<const T*>(run + k * rs))));
      acc += std::pow(a, p.p);
    }
    at<T>(data[0], i * strides[0]) = static_cast<T>(std::pow(acc, 1.0 / p.p));
  }
}

template <typename T>
struct CountNonzeroOp {
  using C = compute_t<T>;
  static constexpr int kOutputs = 1;
  struct State {
    int64_t count;
  };
  static void init(State& s) { s.count = 0; }
  static void step(State& s, C x, int64_t) { s.count += x != C(0); }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams&) {
    at<int64_t>(data[0], i * strides[0]) = s.count;
  }
};

// Inclusive scans: data[0] output, data[1] input, both of dtype T; accumulates in compute_t<T>
// (float for half types). Outer-dim scans walk a block of columns run by run.
template <typename T, bool kProd>
void scan_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  using A = std::conditional_t<std::is_same_v<T, bool>, int64_t, compute_t<T>>;
  const RowParams& p = *static_cast<const RowParams*>(params);
  constexpr int64_t kSize = sizeof(T);
  const A init = kProd ? A(1) : A(0);
  auto combine = [](A acc, A x) -> A {
    if constexpr (kProd) return static_cast<A>(acc * x);
    else return static_cast<A>(acc + x);
  };
  if (n > 1 && strides[0] == kSize && strides[1] == kSize && p.in_stride != kSize) {
    constexpr int64_t kBlock = 32;
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t nb = std::min(kBlock, n - i0);
      A acc[kBlock];
      std::fill(acc, acc + nb, init);
      for (int64_t k = 0; k < p.len; ++k) {
        const T* in = reinterpret_cast<const T*>(data[1] + i0 * kSize + k * p.in_stride);
        T* out = reinterpret_cast<T*>(data[0] + i0 * kSize + k * p.out_stride);
        for (int64_t b = 0; b < nb; ++b) {
          acc[b] = combine(acc[b], static_cast<A>(in[b]));
          out[b] = static_cast<T>(acc[b]);
        }
      }
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const char* in = data[1] + i * strides[1];
    char* out = data[0] + i * strides[0];
    A acc = init;
    for (int64_t k = 0; k < p.len; ++k) {
      acc = combine(acc, static_cast<A>(*reinterpret_cast<const T*>(in + k * p.in_stride)));
      at<T>(out, k * p.out_stride) = static_cast<T>(acc);
    }
  }
}

}  // namespace ember::rows
