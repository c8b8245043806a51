// Reduction kernels for the iterator: data[0] is the accumulator (stride 0 along reduced dims),
// data[1] the input in the accumulator's dtype. A reduced innermost dim is folded into a local
// accumulator (pairwise for sums, so long rows do not drift); otherwise rows are combined
// elementwise into the accumulator row.
#include <cmath>

#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

// One register of the ISA this file is compiled for (GCC/Clang vector extension). A wider type
// than the ISA's registers is not split into registers: GCC keeps it on the stack and moves each
// half through general registers (a [4096, 4096] float32 sum ran at 10 GB/s on one AVX2 core
// against torch's 15 GB/s).
#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#elif defined(__AVX2__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;
#endif
template <typename T>
using Vec __attribute__((vector_size(kVecBytes))) = T;

// What a sum adds per element: the value itself, the value with NaN as 0 (nansum), or 1 for
// each non-NaN value (the count nanmean divides by). Each has a scalar and a vector form.
struct TakeValue {
  template <typename T>
  static T scalar(T x) {
    return x;
  }
  template <typename V>
  static V vector(V v) {
    return v;
  }
};
// A vector select (GCC/Clang vector extension): one masked move on AVX-512, a blend on AVX2.
struct ZeroNan {
  template <typename T>
  static T scalar(T x) {
    return x == x ? x : T(0);
  }
  template <typename V>
  static V vector(V v) {
    return v == v ? v : V{};
  }
};
struct OneUnlessNan {
  template <typename T>
  static T scalar(T x) {
    return x == x ? T(1) : T(0);
  }
  template <typename V>
  static V vector(V v) {
    return v == v ? V{} + 1 : V{};
  }
};

template <typename Map>
struct SumOf {
  template <typename T>
  static T combine(T a, T b) {
    return static_cast<T>(a + Map::scalar(b));
  }
  // Pairwise summation over blocks of independent lanes (numpy's scheme).
  template <typename T>
  static T fold(const T* x, int64_t n, T init) {
    return static_cast<T>(init + pairwise(x, n));
  }
  template <typename T>
  static T pairwise(const T* x, int64_t n) {
    if constexpr (std::is_floating_point_v<T>) {
      return pairwise_vec(x, n);
    } else {
      T total = 0;
      for (int64_t i = 0; i < n; ++i) total = static_cast<T>(total + Map::scalar(x[i]));
      return total;
    }
  }
  // Four independent 64-byte accumulators keep four add chains in flight (one chain is
  // latency-bound at about half the memory bandwidth: measured 24 GB/s on one core). Each is held
  // as registers of the ISA's width (1 AVX-512, 2 AVX2 or 4 SSE), so every ISA adds the same
  // elements in the same order and gives the same bits.
  template <typename T>
  static T pairwise_vec(const T* x, int64_t n) {
    using V = Vec<T>;
    constexpr int64_t W = sizeof(V) / sizeof(T);  // lanes per register
    constexpr int kParts = 64 / kVecBytes;        // registers per 64-byte chain
    constexpr int kChains = 4;
    constexpr int64_t kStep = kChains * kParts * W;
    // Leaves of 16K floats: smaller leaves measured 40% slower (the recursion and the
    // horizontal adds at every leaf cost more than they save in accuracy).
    constexpr int64_t kBlock = 16384 * sizeof(float) / sizeof(T);
    if (n > kBlock) {
      const int64_t half = (n / 2) / kStep * kStep;
      return pairwise_vec(x, half) + pairwise_vec(x + half, n - half);
    }
    V acc[kChains][kParts] = {};
    int64_t i = 0;
    for (; i + kStep <= n; i += kStep) {
      for (int c = 0; c < kChains; ++c) {
        for (int p = 0; p < kParts; ++p) {
          V v;
          __builtin_memcpy(&v, x + i + (c * kParts + p) * W, sizeof(V));
          acc[c][p] += Map::vector(v);
        }
      }
    }
    for (int c = 1; c < kChains; ++c)
      for (int p = 0; p < kParts; ++p) acc[0][p] += acc[c][p];
    T total = 0;
    for (; i < n; ++i) total += Map::scalar(x[i]);
    for (int p = 0; p < kParts; ++p)
      for (int64_t j = 0; j < W; ++j) total += acc[0][p][j];
    return total;
  }
};
using SumReduce = SumOf<TakeValue>;

struct ProdReduce {
  template <typename T>
  static T combine(T a, T b) {
    if constexpr (std::is_same_v<T, bool>)
      return a && b;
    else
      return static_cast<T>(a * b);
  }
  template <typename T>
  static T fold(const T* x, int64_t n, T init) {
    for (int64_t i = 0; i < n; ++i) init = combine(init, x[i]);
    return init;
  }
};

// max/min propagate NaN like torch.
struct MaxReduce {
  template <typename T>
  static T combine(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(b)) return b;
    return b > a ? b : a;
  }
  template <typename T>
  static T fold(const T* x, int64_t n, T init) {
    for (int64_t i = 0; i < n; ++i) init = combine(init, x[i]);
    return init;
  }
};
struct MinReduce {
  template <typename T>
  static T combine(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(b)) return b;
    return b < a ? b : a;
  }
  template <typename T>
  static T fold(const T* x, int64_t n, T init) {
    for (int64_t i = 0; i < n; ++i) init = combine(init, x[i]);
    return init;
  }
};
struct AllReduce {
  template <typename T>
  static T combine(T a, T b) {
    return a && b;
  }
  template <typename T>
  static T fold(const T* x, int64_t n, T init) {
    bool acc = init;
    for (int64_t i = 0; i < n; ++i) acc &= static_cast<bool>(x[i]);
    return acc;
  }
};
struct AnyReduce {
  template <typename T>
  static T combine(T a, T b) {
    return a || b;
  }
  template <typename T>
  static T fold(const T* x, int64_t n, T init) {
    bool acc = init;
    for (int64_t i = 0; i < n; ++i) acc |= static_cast<bool>(x[i]);
    return acc;
  }
};

template <typename T, typename R>
void reduce_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  constexpr int64_t s = sizeof(T);
  if (strides[0] == 0) {
    T* acc = reinterpret_cast<T*>(data[0]);
    if (strides[1] == s) {
      *acc = R::fold(reinterpret_cast<const T*>(data[1]), n, *acc);
    } else {
      T value = *acc;
      const char* in = data[1];
      for (int64_t i = 0; i < n; ++i, in += strides[1])
        value = R::combine(value, *reinterpret_cast<const T*>(in));
      *acc = value;
    }
    return;
  }
  if (strides[0] == s && strides[1] == s) {
    T* __restrict acc = reinterpret_cast<T*>(data[0]);
    const T* __restrict in = reinterpret_cast<const T*>(data[1]);
    for (int64_t i = 0; i < n; ++i) acc[i] = R::combine(acc[i], in[i]);
    return;
  }
  char* acc = data[0];
  const char* in = data[1];
  for (int64_t i = 0; i < n; ++i, acc += strides[0], in += strides[1]) {
    T* a = reinterpret_cast<T*>(acc);
    *a = R::combine(*a, *reinterpret_cast<const T*>(in));
  }
}

template <typename R, typename... Ts>
void set_reduce(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &reduce_loop<Ts, R>), ...);
}

// Accumulator dtypes: sums and products of small types accumulate in int64/float32/float64.
using AccumTypes = TypeList<int64_t, float, double>;
#ifdef EMBER_ISA_BASELINE
using OrderedTypes = TypeList<bool, uint8_t, int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t,
                              uint64_t, float, double>;
#else
using OrderedTypes = TypeList<int32_t, int64_t, float, double>;
#endif

}  // namespace

void fill_reduce(KernelTable& t) {
  set_reduce<SumReduce>(t.reduce[static_cast<int>(ReduceOp::Sum)], AccumTypes{});
  set_reduce<ProdReduce>(t.reduce[static_cast<int>(ReduceOp::Prod)], AccumTypes{});
  set_reduce<MaxReduce>(t.reduce[static_cast<int>(ReduceOp::Max)], OrderedTypes{});
  set_reduce<MinReduce>(t.reduce[static_cast<int>(ReduceOp::Min)], OrderedTypes{});
  set_reduce<AllReduce>(t.reduce[static_cast<int>(ReduceOp::All)], TypeList<bool>{});
  set_reduce<AnyReduce>(t.reduce[static_cast<int>(ReduceOp::Any)], TypeList<bool>{});
  set_reduce<SumOf<ZeroNan>>(t.reduce[static_cast<int>(ReduceOp::NanSum)],
                             TypeList<float, double>{});
  set_reduce<SumOf<OneUnlessNan>>(t.reduce[static_cast<int>(ReduceOp::NanCount)],
                                  TypeList<float, double>{});
}

}  // namespace ember::cpu::EMBER_ISA_NS
