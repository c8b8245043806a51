// Element types, their C++ representations and PyTorch's type-promotion lattice.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ember {

enum class ScalarType : int8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  ComplexFloat,   // complex64: two float32
  ComplexDouble,  // complex128: two float64
  // torch's "limited support" unsigned types: creation, casts, data movement, ==, *, bitwise
  // and/or/xor, sum/prod/cumsum, sort/unique; visit_dtype refuses them (see visit_dtype).
  UInt16,
  UInt32,
  UInt64,
};
constexpr int kNumScalarTypes = 15;

// NOTE: conversions are always_inline because kernels are compiled once per ISA: an out-of-line
// AVX-512 copy must never be shared with the baseline kernels.
// IEEE binary16, stored as bits; arithmetic happens in float.
struct Half {
  uint16_t bits = 0;
  Half() = default;
  __attribute__((always_inline)) Half(float value)
      : bits(from_float(value)) {}  // NOLINT: implicit like a builtin float
  __attribute__((always_inline)) operator float() const { return to_float(bits); }

  __attribute__((always_inline)) static uint16_t from_float(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u)
      return static_cast<uint16_t>(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (x >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
    if (x < 0x38800000u) {
      // Subnormal half: let the float adder do round-to-nearest-even for us.
      float magnitude;
      std::memcpy(&magnitude, &x, 4);
      magnitude += 0.5f;
      uint32_t r;
      std::memcpy(&r, &magnitude, 4);
      return static_cast<uint16_t>(sign | (r - 0x3f000000u));
    }
    const uint32_t odd = (x >> 13) & 1u;
    x += 0xc8000fffu + odd;  // rebias exponent and round to nearest even
    return static_cast<uint16_t>(sign | (x >> 13));
  }
  __attribute__((always_inline)) static float to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    uint32_t rest = h & 0x7fffu;
    uint32_t out;
    if (rest >= 0x7c00u) {
      out = sign | 0x7f800000u | ((rest & 0x3ffu) << 13);
    } else if (rest >= 0x0400u) {
      out = sign | ((rest << 13) + 0x38000000u);
    } else {
      // Subnormal or zero: scale exactly in float.
      float f = static_cast<float>(rest) * 5.9604644775390625e-08f;
      std::memcpy(&out, &f, 4);
      out |= sign;
    }
    float f;
    std::memcpy(&f, &out, 4);
    return f;
  }
};

// bfloat16: the top half of a float32, rounded to nearest even.
struct BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  __attribute__((always_inline)) BFloat16(float value)
      : bits(from_float(value)) {}  // NOLINT: implicit like a builtin float
  __attribute__((always_inline)) operator float() const {
    uint32_t x = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
  }
  __attribute__((always_inline)) static uint16_t from_float(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // NaN
    x += 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
  }
};

template <typename T>
struct CppTypeTag {
  using type = T;
};

template <ScalarType S>
struct CppTypeOf;
#define EMBER_CPP_TYPE(S, T)        \
  template <>                       \
  struct CppTypeOf<ScalarType::S> { \
    using type = T;                 \
  };
EMBER_CPP_TYPE(Bool, bool)
EMBER_CPP_TYPE(UInt8, uint8_t)
EMBER_CPP_TYPE(Int8, int8_t)
EMBER_CPP_TYPE(Int16, int16_t)
EMBER_CPP_TYPE(Int32, int32_t)
EMBER_CPP_TYPE(Int64, int64_t)
EMBER_CPP_TYPE(Float16, Half)
EMBER_CPP_TYPE(BFloat16, BFloat16)
EMBER_CPP_TYPE(Float32, float)
EMBER_CPP_TYPE(Float64, double)
EMBER_CPP_TYPE(ComplexFloat, std::complex<float>)
EMBER_CPP_TYPE(ComplexDouble, std::complex<double>)
EMBER_CPP_TYPE(UInt16, uint16_t)
EMBER_CPP_TYPE(UInt32, uint32_t)
EMBER_CPP_TYPE(UInt64, uint64_t)
#undef EMBER_CPP_TYPE

template <typename T>
constexpr ScalarType scalar_type_of();
template <>
constexpr ScalarType scalar_type_of<bool>() {
  return ScalarType::Bool;
}
template <>
constexpr ScalarType scalar_type_of<uint8_t>() {
  return ScalarType::UInt8;
}
template <>
constexpr ScalarType scalar_type_of<uint16_t>() {
  return ScalarType::UInt16;
}
template <>
constexpr ScalarType scalar_type_of<uint32_t>() {
  return ScalarType::UInt32;
}
template <>
constexpr ScalarType scalar_type_of<uint64_t>() {
  return ScalarType::UInt64;
}
template <>
constexpr ScalarType scalar_type_of<int8_t>() {
  return ScalarType::Int8;
}
template <>
constexpr ScalarType scalar_type_of<int16_t>() {
  return ScalarType::Int16;
}
template <>
constexpr ScalarType scalar_type_of<int32_t>() {
  return ScalarType::Int32;
}
template <>
constexpr ScalarType scalar_type_of<int64_t>() {
  return ScalarType::Int64;
}
template <>
constexpr ScalarType scalar_type_of<Half>() {
  return ScalarType::Float16;
}
template <>
constexpr ScalarType scalar_type_of<BFloat16>() {
  return ScalarType::BFloat16;
}
template <>
constexpr ScalarType scalar_type_of<float>() {
  return ScalarType::Float32;
}
template <>
constexpr ScalarType scalar_type_of<double>() {
  return ScalarType::Float64;
}
template <>
constexpr ScalarType scalar_type_of<std::complex<float>>() {
  return ScalarType::ComplexFloat;
}
template <>
constexpr ScalarType scalar_type_of<std::complex<double>>() {
  return ScalarType::ComplexDouble;
}

template <typename T>
struct IsComplex : std::false_type {};
template <typename T>
struct IsComplex<std::complex<T>> : std::true_type {};
template <typename T>
constexpr bool is_complex_v = IsComplex<T>::value;

// The type arithmetic runs in: reduced-precision floats compute in float32.
template <typename T>
struct ComputeType {
  using type = T;
};
template <>
struct ComputeType<Half> {
  using type = float;
};
template <>
struct ComputeType<BFloat16> {
  using type = float;
};
template <typename T>
using compute_t = typename ComputeType<T>::type;

int64_t element_size(ScalarType t);
std::string_view dtype_name(ScalarType t);  // "float32", as in `ember.float32`

inline bool is_floating(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
         t == ScalarType::Float64;
}
// uint16/uint32/uint64: the unsigned types torch supports only for a few ops.
inline bool is_limited_unsigned(ScalarType t) {
  return t == ScalarType::UInt16 || t == ScalarType::UInt32 || t == ScalarType::UInt64;
}
inline bool is_integral(ScalarType t, bool include_bool) {
  return (t >= ScalarType::UInt8 && t <= ScalarType::Int64) || is_limited_unsigned(t) ||
         (include_bool && t == ScalarType::Bool);
}
inline bool is_signed(ScalarType t) {
  return t != ScalarType::Bool && t != ScalarType::UInt8 && !is_limited_unsigned(t);
}
inline bool is_complex(ScalarType t) {
  return t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
// complex64 <-> float32, complex128 <-> float64 (float16/bfloat16 have no complex partner here).
inline ScalarType to_real_type(ScalarType t) {
  if (t == ScalarType::ComplexFloat) return ScalarType::Float32;
  if (t == ScalarType::ComplexDouble) return ScalarType::Float64;
  return t;
}
ScalarType to_complex_type(ScalarType t);
// The default complex dtype follows the default float dtype, as in torch.
ScalarType default_complex_dtype();
// Raises "[<op>] ... not implemented for 'complex64'"; the op dispatcher fills in the op's name.
[[noreturn]] void throw_complex_unsupported(ScalarType t);
// Raises TypeError "[op] not implemented for 'complex64'" for a complex `t` (ops whose real code
// path would silently drop the imaginary part).
void reject_complex(ScalarType t, const char* op);
// Raises NotImplementedError "[<op>] not implemented for 'UInt32'" (torch's wording and type) for
// the ops torch does not support on uint16/uint32/uint64; the op dispatcher names the op.
[[noreturn]] void throw_unsigned_unsupported(ScalarType t);

// PyTorch's promote_types lattice (torch.promote_types).
ScalarType promote_types(ScalarType a, ScalarType b);
// Whether casting `from` to `to` is allowed by torch.can_cast (no category demotion).
bool can_cast(ScalarType from, ScalarType to);

ScalarType default_dtype();
void set_default_dtype(ScalarType t);

// Calls `fn(CppTypeTag<T>{})` with the C++ type of `t`, for the real dtypes only: a complex `t`
// raises TypeError and a uint16/32/64 `t` NotImplementedError (torch's limited support), so call
// sites never instantiate their template for std::complex or the wide unsigned types.
template <typename Fn>
decltype(auto) visit_dtype(ScalarType t, Fn&& fn) {
  switch (t) {
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
      throw_complex_unsupported(t);
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      throw_unsigned_unsupported(t);
    case ScalarType::Bool:
      return fn(CppTypeTag<bool>{});
    case ScalarType::UInt8:
      return fn(CppTypeTag<uint8_t>{});
    case ScalarType::Int8:
      return fn(CppTypeTag<int8_t>{});
    case ScalarType::Int16:
      return fn(CppTypeTag<int16_t>{});
    case ScalarType::Int32:
      return fn(CppTypeTag<int32_t>{});
    case ScalarType::Int64:
      return fn(CppTypeTag<int64_t>{});
    case ScalarType::Float16:
      return fn(CppTypeTag<Half>{});
    case ScalarType::BFloat16:
      return fn(CppTypeTag<BFloat16>{});
    case ScalarType::Float32:
      return fn(CppTypeTag<float>{});
    case ScalarType::Float64:
      break;
  }
  return fn(CppTypeTag<double>{});
}

// visit_dtype that also visits complex64/complex128 (std::complex<float>/<double>).
template <typename Fn>
decltype(auto) visit_dtype_with_complex(ScalarType t, Fn&& fn) {
  if (t == ScalarType::ComplexFloat) return fn(CppTypeTag<std::complex<float>>{});
  if (t == ScalarType::ComplexDouble) return fn(CppTypeTag<std::complex<double>>{});
  return visit_dtype(t, std::forward<Fn>(fn));
}

// visit_dtype that also visits uint16/uint32/uint64: for the ops torch supports on them (copies,
// fills, item, sort, unique, cumsum).
template <typename Fn>
decltype(auto) visit_dtype_with_unsigned(ScalarType t, Fn&& fn) {
  if (t == ScalarType::UInt16) return fn(CppTypeTag<uint16_t>{});
  if (t == ScalarType::UInt32) return fn(CppTypeTag<uint32_t>{});
  if (t == ScalarType::UInt64) return fn(CppTypeTag<uint64_t>{});
  return visit_dtype(t, std::forward<Fn>(fn));
}

// Every dtype: the real ones, complex64/complex128 and uint16/uint32/uint64 (scalars, item(),
// tolist(), tensor(list), reduction identities).
template <typename Fn>
decltype(auto) visit_every_dtype(ScalarType t, Fn&& fn) {
  if (t == ScalarType::ComplexFloat) return fn(CppTypeTag<std::complex<float>>{});
  if (t == ScalarType::ComplexDouble) return fn(CppTypeTag<std::complex<double>>{});
  return visit_dtype_with_unsigned(t, std::forward<Fn>(fn));
}

// NaN test for any element type (integers and bool are never NaN); the scans, selections and
// row reductions that skip or propagate NaN share it.
template <typename C>
inline bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>)
    return std::isnan(v);
  else
    return false;
}

}  // namespace ember
