// Generic inner loops shared by every elementwise kernel. Each loop has a fast path for
// contiguous operands and for a broadcast scalar operand (stride 0), written so the compiler
// vectorizes them for the ISA this file is compiled for, and a strided fallback.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "ember/dtype.h"
#include "ember/kernels.h"

// The namespace of the ISA this translation unit is compiled for (set by CMake).
#ifndef EMBER_ISA
#define EMBER_ISA baseline
#endif
#define EMBER_ISA_NS EMBER_CONCAT(isa_, EMBER_ISA)
#define EMBER_CONCAT(a, b) EMBER_CONCAT_(a, b)
#define EMBER_CONCAT_(a, b) a##b

namespace ember::cpu::EMBER_ISA_NS {

inline const OpParams& params_of(const void* params) {
  static const OpParams kNone{};
  return params ? *static_cast<const OpParams*>(params) : kNone;
}

template <typename T>
inline const T* in_ptr(char* const* data, int i) {
  return reinterpret_cast<const T*>(data[i]);
}

// out[i] = v. Half and BFloat16 are written through their bits: under `omp simd` GCC keeps the
// struct temporary in a per-lane array and then vectorizes nothing (bf16 relu ran 90x slower
// than float32).
template <typename Out, typename C>
__attribute__((always_inline)) inline void store(Out* __restrict out, int64_t i, C v) {
  if constexpr (std::is_same_v<Out, BFloat16> || std::is_same_v<Out, Half>)
    out[i].bits = Out::from_float(static_cast<float>(v));
  else
    out[i] = static_cast<Out>(v);
}

// out = op(in) for In -> Out, computing in compute_t<In>.
template <typename In, typename Out, typename Op>
void unary_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  using C = compute_t<In>;
  const Op op(params_of(params));
  Out* __restrict out = reinterpret_cast<Out*>(data[0]);
  const In* __restrict in = in_ptr<In>(data, 1);
  if (strides[0] == sizeof(Out) && strides[1] == sizeof(In)) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) store(out, i, op(static_cast<C>(in[i])));
    return;
  }
  char* o = data[0];
  const char* a = data[1];
  for (int64_t i = 0; i < n; ++i, o += strides[0], a += strides[1]) {
    *reinterpret_cast<Out*>(o) =
        static_cast<Out>(op(static_cast<C>(*reinterpret_cast<const In*>(a))));
  }
}

// out = op(a, b) for In x In -> Out.
template <typename In, typename Out, typename Op>
void binary_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  using C = compute_t<In>;
  const Op op(params_of(params));
  Out* __restrict out = reinterpret_cast<Out*>(data[0]);
  const In* __restrict a = in_ptr<In>(data, 1);
  const In* __restrict b = in_ptr<In>(data, 2);
  constexpr int64_t so = sizeof(Out), si = sizeof(In);
  if (strides[0] == so) {
    if (strides[1] == si && strides[2] == si) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) store(out, i, op(static_cast<C>(a[i]), static_cast<C>(b[i])));
      return;
    }
    if (strides[1] == 0 && strides[2] == si) {
      const C av = static_cast<C>(a[0]);
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) store(out, i, op(av, static_cast<C>(b[i])));
      return;
    }
    if (strides[1] == si && strides[2] == 0) {
      const C bv = static_cast<C>(b[0]);
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) store(out, i, op(static_cast<C>(a[i]), bv));
      return;
    }
  }
  char* o = data[0];
  const char* pa = data[1];
  const char* pb = data[2];
  for (int64_t i = 0; i < n; ++i, o += strides[0], pa += strides[1], pb += strides[2]) {
    *reinterpret_cast<Out*>(o) =
        static_cast<Out>(op(static_cast<C>(*reinterpret_cast<const In*>(pa)),
                            static_cast<C>(*reinterpret_cast<const In*>(pb))));
  }
}

// out = op(a, b, c) for three same-typed inputs (lerp with a tensor weight).
template <typename T, typename Op>
void ternary_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  using C = compute_t<T>;
  const Op op(params_of(params));
  char* o = data[0];
  const char *pa = data[1], *pb = data[2], *pc = data[3];
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<T*>(o) = static_cast<T>(op(static_cast<C>(*reinterpret_cast<const T*>(pa)),
                                                 static_cast<C>(*reinterpret_cast<const T*>(pb)),
                                                 static_cast<C>(*reinterpret_cast<const T*>(pc))));
    o += strides[0];
    pa += strides[1];
    pb += strides[2];
    pc += strides[3];
  }
}

// cond ? x : y without a branch: a branch on a random mask mispredicts half the time (where()
// was 40x slower than mul on [1000, 64]), and GCC does not if-convert `c ? x : y` for every T.
// Element types of 1, 2, 4 or 8 bytes select through an all-ones/all-zeros mask, which
// vectorizes; others (complex128) keep the ternary.
template <typename T>
inline T select_value(bool c, T x, T y) {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    using U = std::conditional_t<
        sizeof(T) == 1, uint8_t,
        std::conditional_t<sizeof(T) == 2, uint16_t,
                           std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    const U mask = static_cast<U>(U{0} - static_cast<U>(c));
    const U bits = static_cast<U>((std::bit_cast<U>(x) & mask) | (std::bit_cast<U>(y) & ~mask));
    return std::bit_cast<T>(bits);
  } else {
    return c ? x : y;
  }
}

// out = cond ? a : b (where), for any element type: bool conditions, same-typed values.
template <typename T>
void where_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  constexpr int64_t s = sizeof(T);
  const bool a_scalar = strides[2] == 0, b_scalar = strides[3] == 0;
  if (strides[0] == s && strides[1] == 1 && (a_scalar || strides[2] == s) &&
      (b_scalar || strides[3] == s)) {
    T* __restrict out = reinterpret_cast<T*>(data[0]);
    // Read as bytes: a bool holding anything but 0/1 would be undefined behaviour, and the mask
    // needs exactly 0 or 1.
    const uint8_t* __restrict cond = reinterpret_cast<const uint8_t*>(data[1]);
    const T* __restrict a = reinterpret_cast<const T*>(data[2]);
    const T* __restrict b = reinterpret_cast<const T*>(data[3]);
    if (!a_scalar && !b_scalar) {
      for (int64_t i = 0; i < n; ++i) out[i] = select_value<T>(cond[i] != 0, a[i], b[i]);
    } else if (!a_scalar) {
      const T y = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = select_value<T>(cond[i] != 0, a[i], y);
    } else if (!b_scalar) {
      const T x = *a;
      for (int64_t i = 0; i < n; ++i) out[i] = select_value<T>(cond[i] != 0, x, b[i]);
    } else {
      const T x = *a, y = *b;
      for (int64_t i = 0; i < n; ++i) out[i] = select_value<T>(cond[i] != 0, x, y);
    }
    return;
  }
  char *o = data[0], *c = data[1], *a = data[2], *b = data[3];
  for (int64_t i = 0; i < n; ++i) {
    const T x = *reinterpret_cast<const T*>(a), y = *reinterpret_cast<const T*>(b);
    *reinterpret_cast<T*>(o) = select_value<T>(*reinterpret_cast<const uint8_t*>(c) != 0, x, y);
    o += strides[0];
    c += strides[1];
    a += strides[2];
    b += strides[3];
  }
}

}  // namespace ember::cpu::EMBER_ISA_NS
