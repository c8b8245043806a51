// Row loops for reductions along dims and scans, run through the TensorIterator: the iterator
// walks output positions, the input is viewed with the reduced dims removed, and RowParams gives
// the reduced run (length and byte stride). Private to ops_reduce_dim.cpp (compiled once).
// Use it for loops that read each run once, in order, at any stride (no copy of the input);
// loops that reorder a run or need it contiguous take a copy from rows_last.h instead.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "ember/dtype.h"
#include "ember/iterator.h"
#include "ember/parallel.h"

namespace ember::rows {

struct RowParams {
  int64_t len = 0;         // elements in each reduced run
  int64_t in_stride = 0;   // bytes between consecutive elements of a run in the input
  int64_t out_stride = 0;  // scans: bytes between consecutive elements of the output run
  double p = 0;            // var's correction, norm's order
};

template <typename T>
inline T& at(char* base, int64_t offset) {
  return *reinterpret_cast<T*>(base + offset);
}

// Op interface: kOutputs; State; init(State&, params); step(State&, C x, int64_t k) for the
// k-th element of a run; combine(State& a, const State& b) merging a state over other indices;
// write(const State&, char** data, const int64_t* strides, int64_t i, params) for position i.

// Folds elements [k0, k1) of a run into `st`. Contiguous runs use independent lanes merged at
// the end, which breaks the serial dependency chain (and lets the compiler vectorize).
template <typename T, typename Op>
void reduce_segment(typename Op::State& st, const char* run, int64_t k0, int64_t k1, int64_t rs,
                    const RowParams& p) {
  using C = compute_t<T>;
  using State = typename Op::State;
  if (rs != static_cast<int64_t>(sizeof(T))) {
    for (int64_t k = k0; k < k1; ++k) {
      Op::step(st, static_cast<C>(*reinterpret_cast<const T*>(run + k * rs)), k);
    }
    return;
  }
  const T* x = reinterpret_cast<const T*>(run);
  if constexpr (requires { Op::template contiguous<T>(st, x, k0, k1); }) {
    Op::template contiguous<T>(st, x, k0, k1);
  } else {
    constexpr int kLanes = 8;
    int64_t k = k0;
    if (k1 - k0 >= 4 * kLanes) {
      State lanes[kLanes];
      for (State& lane : lanes) Op::init(lane, p);
      for (; k + kLanes <= k1; k += kLanes) {
        for (int j = 0; j < kLanes; ++j) Op::step(lanes[j], static_cast<C>(x[k + j]), k + j);
      }
      for (const State& lane : lanes) Op::combine(st, lane);
    }
    for (; k < k1; ++k) Op::step(st, static_cast<C>(x[k]), k);
  }
}

// The iterator's loop over n output positions. When adjacent outputs read adjacent input
// columns (a reduction over an outer dim), a block of columns is walked run by run so every
// cache line read is used at once.
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
      for (int64_t b = 0; b < nb; ++b) Op::init(st[b], p);
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
    Op::init(st, p);
    reduce_segment<T, Op>(st, data[kIn] + i * strides[kIn], 0, p.len, rs, p);
    Op::write(st, data, strides, i, p);
  }
}

// One long run (a reduction to a single output): split the run across threads, then merge the
// per-chunk states in order. `outs` are the output data pointers.
using FullLoop = void (*)(char** outs, const char* run, const RowParams& p);

template <typename T, typename Op>
void reduce_full(char** outs, const char* run, const RowParams& p) {
  using State = typename Op::State;
  const int64_t chunks = parallel_chunks(0, p.len, kParallelGrain);
  std::vector<State> parts(chunks);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      Op::init(parts[c], p);
      reduce_segment<T, Op>(parts[c], run, p.len * c / chunks, p.len * (c + 1) / chunks,
                            p.in_stride, p);
    }
  });
  for (int64_t c = 1; c < chunks; ++c) Op::combine(parts[0], parts[c]);
  const int64_t zero[kMaxOperands] = {};
  Op::write(parts[0], outs, zero, 0, p);
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
  static void init(State& s, const RowParams&) {
    if constexpr (std::numeric_limits<C>::has_infinity) {
      s.best = kMax ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::infinity();
    } else {
      s.best = kMax ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
    }
    s.index = std::numeric_limits<int64_t>::max();  // no element yet
  }
  static void step(State& s, C x, int64_t k) {
    const bool better = kMax ? !(x <= s.best) : !(x >= s.best);
    if (s.index == std::numeric_limits<int64_t>::max() || (better && !is_nan(s.best))) {
      s.best = x;
      s.index = k;
    }
  }
  // Order-free merge: NaN beats numbers, then the better value, then the lower index.
  static void combine(State& a, const State& b) {
    if (b.index == std::numeric_limits<int64_t>::max()) return;
    const bool a_nan = is_nan(a.best), b_nan = is_nan(b.best);
    bool take;
    if (a.index == std::numeric_limits<int64_t>::max())
      take = true;
    else if (a_nan || b_nan)
      take = b_nan && (!a_nan || b.index < a.index);
    else if (a.best == b.best)
      take = b.index < a.index;
    else
      take = kMax ? b.best > a.best : b.best < a.best;
    if (take) a = b;
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

// Count, mean and sum of squared deviations in double. Strided runs use Welford's update;
// contiguous segments use two passes; partial states merge with Chan et al.'s formula.
// kMode: 0 var, 1 std, 2 (var, mean), 3 (std, mean).
template <typename T, int kMode>
struct VarOp {
  static constexpr int kOutputs = kMode >= 2 ? 2 : 1;
  struct State {
    double n, mean, m2;
  };
  static void init(State& s, const RowParams&) { s.n = s.mean = s.m2 = 0; }
  static void step(State& s, double x, int64_t) {
    s.n += 1;
    const double delta = x - s.mean;
    s.mean += delta / s.n;
    s.m2 += delta * (x - s.mean);
  }
  template <typename U>
  static void contiguous(State& s, const U* x, int64_t k0, int64_t k1) {
    constexpr int kLanes = 8;
    const int64_t n = k1 - k0;
    if (n <= 0) return;
    double lanes[kLanes] = {};
    int64_t k = k0;
    for (; k + kLanes <= k1; k += kLanes) {
      for (int j = 0; j < kLanes; ++j) lanes[j] += static_cast<double>(x[k + j]);
    }
    double sum = 0;
    for (; k < k1; ++k) sum += static_cast<double>(x[k]);
    for (double l : lanes) sum += l;
    const double mean = sum / static_cast<double>(n);
    double sq[kLanes] = {};
    for (k = k0; k + kLanes <= k1; k += kLanes) {
      for (int j = 0; j < kLanes; ++j) {
        const double d = static_cast<double>(x[k + j]) - mean;
        sq[j] += d * d;
      }
    }
    double m2 = 0;
    for (; k < k1; ++k) {
      const double d = static_cast<double>(x[k]) - mean;
      m2 += d * d;
    }
    for (double l : sq) m2 += l;
    combine(s, State{static_cast<double>(n), mean, m2});
  }
  static void combine(State& a, const State& b) {
    if (b.n == 0) return;
    if (a.n == 0) {
      a = b;
      return;
    }
    const double n = a.n + b.n;
    const double delta = b.mean - a.mean;
    a.mean += delta * (b.n / n);
    a.m2 += b.m2 + delta * delta * (a.n * b.n / n);
    a.n = n;
  }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams& p) {
    // torch divides by max(0, N - correction): 0/0 gives NaN, x/0 gives inf.
    double var = s.m2 / std::max(0.0, s.n - p.p);
    if (kMode == 1 || kMode == 3) var = std::sqrt(var);
    at<T>(data[0], i * strides[0]) = static_cast<T>(var);
    if constexpr (kMode >= 2) {
      at<T>(data[1], i * strides[1]) =
          static_cast<T>(s.n == 0 ? std::numeric_limits<double>::quiet_NaN() : s.mean);
    }
  }
};

enum class NormKind { Zero, One, Two, Inf, NegInf, General };

// Vector norms accumulated in double; max/min norms propagate NaN. General: (sum |x|^p)^(1/p).
template <typename T, NormKind kKind>
struct NormOp {
  static constexpr int kOutputs = 1;
  struct State {
    double acc, p;
  };
  static void init(State& s, const RowParams& params) {
    s.acc = kKind == NormKind::NegInf ? std::numeric_limits<double>::infinity() : 0.0;
    s.p = params.p;
  }
  static double pick(double a, double b) {
    if constexpr (kKind == NormKind::Inf)
      return (b > a || std::isnan(b)) ? b : a;
    else
      return (b < a || std::isnan(b)) ? b : a;
  }
  static void step(State& s, compute_t<T> x, int64_t) {
    using C = compute_t<T>;
    const double a = std::fabs(static_cast<double>(x));
    if constexpr (kKind == NormKind::Two)
      s.acc += a * a;
    else if constexpr (kKind == NormKind::One)
      s.acc += a;
    else if constexpr (kKind == NormKind::Zero)
      s.acc += (x != C(0) ? 1.0 : 0.0);
    // pow in the input's precision (powf for float), like torch; the sum stays in double.
    else if constexpr (kKind == NormKind::General)
      s.acc += std::pow(std::fabs(x), C(s.p));
    else
      s.acc = pick(s.acc, a);
  }
  // Sums of |x| or x^2 over a contiguous segment: independent lanes in the input's precision
  // (vectorizable), flushed into the double total every block so error stays bounded.
  template <typename U>
    requires(kKind == NormKind::Two || kKind == NormKind::One)
  static void contiguous(State& s, const U* x, int64_t k0, int64_t k1) {
    using C = compute_t<U>;
    constexpr int kLanes = 16;
    constexpr int64_t kBlock = 4096;
    for (int64_t b0 = k0; b0 < k1; b0 += kBlock) {
      const int64_t b1 = std::min(k1, b0 + kBlock);
      C lanes[kLanes] = {};
      int64_t k = b0;
      for (; k + kLanes <= b1; k += kLanes) {
        for (int j = 0; j < kLanes; ++j) {
          const C v = static_cast<C>(x[k + j]);
          lanes[j] += kKind == NormKind::Two ? v * v : std::fabs(v);
        }
      }
      double total = 0;
      for (; k < b1; ++k) {
        const double v = static_cast<double>(static_cast<C>(x[k]));
        total += kKind == NormKind::Two ? v * v : std::fabs(v);
      }
      for (C lane : lanes) total += static_cast<double>(lane);
      s.acc += total;
    }
  }
  static void combine(State& a, const State& b) {
    if constexpr (kKind == NormKind::Inf || kKind == NormKind::NegInf)
      a.acc = pick(a.acc, b.acc);
    else
      a.acc += b.acc;
  }
  static void write(const State& s, char** data, const int64_t* strides, int64_t i,
                    const RowParams& p) {
    double r = s.acc;
    if constexpr (kKind == NormKind::Two) r = std::sqrt(r);
    if constexpr (kKind == NormKind::General) r = std::pow(r, 1.0 / p.p);
    at<T>(data[0], i * strides[0]) = static_cast<T>(r);
  }
};

template <typename T>
struct CountNonzeroOp {
  using C = compute_t<T>;
  static constexpr int kOutputs = 1;
  struct State {
    int64_t count;
  };
  static void init(State& s, const RowParams&) { s.count = 0; }
  static void step(State& s, C x, int64_t) { s.count += x != C(0); }
  static void combine(State& a, const State& b) { a.count += b.count; }
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
    if constexpr (kProd)
      return static_cast<A>(acc * x);
    else
      return static_cast<A>(acc + x);
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
