// Scalar functors for every elementwise op, written once and shared by every ISA. Each takes its
// parameters from OpParams and works in the compute type (float for float16/bfloat16).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ember/kernels.h"
#include "loops.h"
#include "polygamma.h"
#include "special_math.h"

// libmvec (glibc) provides SIMD versions of these; declaring them `declare simd` lets the
// compiler call the vector variant for the ISA it targets. NOTE: libmvec is glibc >= 2.22
// (tanh and friends 2.35); manylinux_2_35 wheels are what we ship.
extern "C" {
#pragma omp declare simd notinbranch
float expf(float);
#pragma omp declare simd notinbranch
float logf(float);
#pragma omp declare simd notinbranch
float sinf(float);
#pragma omp declare simd notinbranch
float cosf(float);
#pragma omp declare simd notinbranch
float tanhf(float);
#pragma omp declare simd notinbranch
float exp2f(float);
#pragma omp declare simd notinbranch
float expm1f(float);
#pragma omp declare simd notinbranch
float log2f(float);
#pragma omp declare simd notinbranch
float log10f(float);
#pragma omp declare simd notinbranch
float log1pf(float);
#pragma omp declare simd notinbranch
float erff(float);
#pragma omp declare simd notinbranch
double exp(double);
#pragma omp declare simd notinbranch
double log(double);
}

// NOTE: everything here lives in the per-ISA namespace, so inline code compiled for AVX-512
// can never be picked by the linker for the baseline kernels (one-definition rule).
namespace ember::cpu::EMBER_ISA_NS {

template <typename C>
constexpr bool is_float_v = std::is_floating_point_v<C>;

// Integer arithmetic wraps modulo 2^bits, as torch's results do; done in unsigned types (at
// least unsigned int, so small types never promote to a signed int that overflows) because
// signed overflow is undefined behaviour. The conversion back is modular since C++20.
template <typename C>
constexpr bool is_wrapping_int_v = std::is_integral_v<C> && !std::is_same_v<C, bool>;
template <typename C>
using wrap_t = std::make_unsigned_t<std::common_type_t<C, int>>;
template <typename C>
constexpr C wrap_add(C a, C b) {
  return static_cast<C>(static_cast<wrap_t<C>>(a) + static_cast<wrap_t<C>>(b));
}
template <typename C>
constexpr C wrap_sub(C a, C b) {
  return static_cast<C>(static_cast<wrap_t<C>>(a) - static_cast<wrap_t<C>>(b));
}
template <typename C>
constexpr C wrap_mul(C a, C b) {
  return static_cast<C>(static_cast<wrap_t<C>>(a) * static_cast<wrap_t<C>>(b));
}

#define EMBER_FUNCTOR(Name) \
  struct Name {             \
    const OpParams& p;      \
    explicit Name(const OpParams& params) : p(params) {}

// ---------------------------------------------------------------- unary
EMBER_FUNCTOR(Neg)
template <typename C>
C operator()(C x) const {
  if constexpr (std::is_same_v<C, bool>)
    return x;
  else if constexpr (is_wrapping_int_v<C>)
    return wrap_sub<C>(0, x);
  else
    return static_cast<C>(-x);
}
};
EMBER_FUNCTOR(Abs)
template <typename C>
C operator()(C x) const {
  if constexpr (std::is_same_v<C, bool> || std::is_unsigned_v<C>)
    return x;
  else if constexpr (is_float_v<C>)
    return std::fabs(x);
  else
    return x < 0 ? wrap_sub<C>(0, x) : x;
}
}
;
EMBER_FUNCTOR(Sign)
template <typename C>
C operator()(C x) const {
  if constexpr (std::is_same_v<C, bool>)
    return x;
  else
    return static_cast<C>((C(0) < x) - (x < C(0)));
}
}
;
#define EMBER_FLOAT_UNARY(Name, expr) \
  EMBER_FUNCTOR(Name)                 \
  template <typename C>               \
  C operator()(C x) const {           \
    return expr;                      \
  }                                   \
  }                                   \
  ;
EMBER_FLOAT_UNARY(Sqrt, std::sqrt(x))
// sin(pi x) / (pi x) with the removable singularity at 0 filled in.
EMBER_FLOAT_UNARY(Sinc, x == C(0) ? C(1)
                                  : std::sin(C(3.14159265358979323846) * x) /
                                        (C(3.14159265358979323846) * x))
// Inverse error function: a rational first guess (Giles) polished by Newton steps on erf, which
// bring it to full precision for float and double.
template <typename C>
inline C erfinv_value(C y) {
  if (std::isnan(y) || y < C(-1) || y > C(1)) return std::numeric_limits<C>::quiet_NaN();
  if (y == C(1) || y == C(-1)) return std::copysign(std::numeric_limits<C>::infinity(), y);
  const double yd = static_cast<double>(y);
  double w = -std::log((1.0 - yd) * (1.0 + yd));
  double x;
  if (w < 5.0) {
    w -= 2.5;
    double p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
    x = p * yd;
  } else {
    w = std::sqrt(w) - 3.0;
    double p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
    x = p * yd;
  }
  for (int i = 0; i < 2; ++i) {  // Newton on erf(x) - y: derivative 2/sqrt(pi) e^{-x^2}
    x -= (std::erf(x) - yd) / (1.1283791670955126 * std::exp(-x * x));
  }
  return static_cast<C>(x);
}
EMBER_FLOAT_UNARY(Erfinv, erfinv_value(x))
EMBER_FLOAT_UNARY(Lgamma, std::lgamma(x))
// ember.special's kernels (special_math.h), computed in double.
#define EMBER_SPECIAL_UNARY(Name, expr) \
  EMBER_FLOAT_UNARY(Name, static_cast<C>([](double v) { return expr; }(static_cast<double>(x))))
EMBER_SPECIAL_UNARY(I0, bessel_i_value(0, v, false))
EMBER_SPECIAL_UNARY(SpecialI0e, bessel_i_value(0, v, true))
EMBER_SPECIAL_UNARY(SpecialI1, bessel_i_value(1, v, false))
EMBER_SPECIAL_UNARY(SpecialI1e, bessel_i_value(1, v, true))
EMBER_SPECIAL_UNARY(SpecialErfcx, erfcx_value(v))
EMBER_SPECIAL_UNARY(SpecialNdtri, ndtri_value(v, [](double y) { return erfinv_value(y); }))
EMBER_SPECIAL_UNARY(SpecialBesselJ0, bessel_j_value(0, v))
EMBER_SPECIAL_UNARY(SpecialBesselJ1, bessel_j_value(1, v))
#undef EMBER_SPECIAL_UNARY
// digamma: reflection below 0.5, recurrence up to 10, then the asymptotic series. Torch's poles:
// -inf at 0 (copysign'd), NaN at negative integers.
template <typename C>
inline C digamma_value(C xc) {
  double x = static_cast<double>(xc);
  if (std::isnan(x)) return xc;
  if (x == 0) return static_cast<C>(std::copysign(std::numeric_limits<double>::infinity(), -x));
  if (x < 0 && x == std::trunc(x)) return std::numeric_limits<C>::quiet_NaN();
  if (x == -std::numeric_limits<double>::infinity()) return std::numeric_limits<C>::quiet_NaN();
  double result = 0;
  if (x < 0.5) {
    constexpr double kPi = 3.14159265358979323846;
    result = -kPi / std::tan(kPi * x);
    x = 1 - x;
  }
  // Up to 10 and through the x^-14 term: the remainder (3617/8160 x^-16) is below 1e-16.
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  const double z = 1 / (x * x);
  const double series =
      z * (1.0 / 12 -
           z * (1.0 / 120 -
                z * (1.0 / 252 -
                     z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z * (1.0 / 12)))))));
  return static_cast<C>(result + std::log(x) - 0.5 / x - series);
}
EMBER_FLOAT_UNARY(Digamma, digamma_value(x))
// polygamma(n, x) for n = p.i0 >= 0 (n = 0 is digamma).
EMBER_FUNCTOR(Polygamma)
template <typename C>
C operator()(C x) const {
  if (p.i0 == 0) return digamma_value(x);
  return static_cast<C>(polygamma_value(p.i0, static_cast<double>(x)));
}
}
;
EMBER_FLOAT_UNARY(Rsqrt, C(1) / std::sqrt(x))
EMBER_FLOAT_UNARY(Exp, std::exp(x))
EMBER_FLOAT_UNARY(Exp2, std::exp2(x))
EMBER_FLOAT_UNARY(Expm1, std::expm1(x))
EMBER_FLOAT_UNARY(Log, std::log(x))
EMBER_FLOAT_UNARY(Log2, std::log2(x))
EMBER_FLOAT_UNARY(Log10, std::log10(x))
EMBER_FLOAT_UNARY(Log1p, std::log1p(x))
EMBER_FLOAT_UNARY(Sin, std::sin(x))
EMBER_FLOAT_UNARY(Cos, std::cos(x))
EMBER_FLOAT_UNARY(Tan, std::tan(x))
EMBER_FLOAT_UNARY(Asin, std::asin(x))
EMBER_FLOAT_UNARY(Acos, std::acos(x))
EMBER_FLOAT_UNARY(Atan, std::atan(x))
EMBER_FLOAT_UNARY(Sinh, std::sinh(x))
EMBER_FLOAT_UNARY(Cosh, std::cosh(x))
EMBER_FLOAT_UNARY(Tanh, std::tanh(x))
EMBER_FLOAT_UNARY(Asinh, std::asinh(x))
EMBER_FLOAT_UNARY(Acosh, std::acosh(x))
EMBER_FLOAT_UNARY(Atanh, std::atanh(x))
EMBER_FLOAT_UNARY(Sigmoid, C(1) / (C(1) + std::exp(-x)))
EMBER_FLOAT_UNARY(Erf, std::erf(x))
EMBER_FLOAT_UNARY(Erfc, std::erfc(x))
EMBER_FLOAT_UNARY(Frac, x - std::trunc(x))
EMBER_FLOAT_UNARY(Reciprocal, C(1) / x)
#undef EMBER_FLOAT_UNARY

EMBER_FUNCTOR(Relu)
template <typename C>
C operator()(C x) const {
  if constexpr (is_float_v<C>)
    return std::isnan(x) ? x : (x > C(0) ? x : C(0));
  else
    return x > C(0) ? x : C(0);
}
}
;
// Rounding is the identity on integers.
#define EMBER_ROUNDING(Name, fn) \
  EMBER_FUNCTOR(Name)            \
  template <typename C>          \
  C operator()(C x) const {      \
    if constexpr (is_float_v<C>) \
      return fn(x);              \
    else                         \
      return x;                  \
  }                              \
  }                              \
  ;
EMBER_ROUNDING(Floor, std::floor)
EMBER_ROUNDING(Ceil, std::ceil)
EMBER_ROUNDING(Round, std::nearbyint)  // half to even, like torch.round
EMBER_ROUNDING(Trunc, std::trunc)
#undef EMBER_ROUNDING
// torch.round(decimals=d): p.i0 = d, p.f0 = 10^|d|.
EMBER_FUNCTOR(RoundDecimals)
template <typename C>
C operator()(C x) const {
  const C scale = static_cast<C>(p.f0);
  return p.i0 >= 0 ? std::nearbyint(x * scale) / scale : std::nearbyint(x / scale) * scale;
}
}
;
EMBER_FUNCTOR(Square)
template <typename C>
C operator()(C x) const {
  if constexpr (is_wrapping_int_v<C>)
    return wrap_mul(x, x);
  else
    return static_cast<C>(x * x);
}
}
;
EMBER_FUNCTOR(BitwiseNot)
template <typename C>
C operator()(C x) const {
  if constexpr (std::is_same_v<C, bool>)
    return !x;
  else
    return static_cast<C>(~x);
}
}
;
// Bounds arrive in f0/f1 for float dtypes and i0/i1 for integers.
template <typename C>
inline C lower_bound_of(const OpParams& p) {
  if constexpr (is_float_v<C>)
    return static_cast<C>(p.f0);
  else
    return static_cast<C>(p.i0);
}
template <typename C>
inline C upper_bound_of(const OpParams& p) {
  if constexpr (is_float_v<C>)
    return static_cast<C>(p.f1);
  else
    return static_cast<C>(p.i1);
}
// clamp propagates NaN inputs and NaN bounds, like torch.clamp; min wins when min > max.
EMBER_FUNCTOR(ClampBoth)
template <typename C>
C operator()(C x) const {
  const C lo = lower_bound_of<C>(p), hi = upper_bound_of<C>(p);
  if constexpr (is_float_v<C>) {
    if (std::isnan(x)) return x;
    if (std::isnan(lo)) return lo;
    if (std::isnan(hi)) return hi;
  }
  const C y = x < lo ? lo : x;
  return y > hi ? hi : y;
}
}
;
EMBER_FUNCTOR(ClampMin)
template <typename C>
C operator()(C x) const {
  const C lo = lower_bound_of<C>(p);
  if constexpr (is_float_v<C>)
    if (std::isnan(x) || std::isnan(lo)) return std::isnan(x) ? x : lo;
  return x < lo ? lo : x;
}
}
;
EMBER_FUNCTOR(ClampMax)
template <typename C>
C operator()(C x) const {
  const C hi = upper_bound_of<C>(p);
  if constexpr (is_float_v<C>)
    if (std::isnan(x) || std::isnan(hi)) return std::isnan(x) ? x : hi;
  return x > hi ? hi : x;
}
}
;
// nan_to_num: p.f0 replaces NaN, p.f1 +inf, and -inf is stored in the bits of p.i0.
EMBER_FUNCTOR(NanToNum)
template <typename C>
C operator()(C x) const {
  if constexpr (is_float_v<C>) {
    double neginf;
    static_assert(sizeof(neginf) == sizeof(p.i0));
    __builtin_memcpy(&neginf, &p.i0, sizeof(neginf));
    if (std::isnan(x)) return static_cast<C>(p.f0);
    if (std::isinf(x)) return static_cast<C>(x > 0 ? p.f1 : neginf);
    return x;
  } else {
    return x;
  }
}
}
;
EMBER_FUNCTOR(Identity)
template <typename C>
C operator()(C x) const {
  return x;
}
}
;

// ---------------------------------------------------------------- predicates (-> bool)
#define EMBER_PREDICATE(Name, float_expr, int_expr) \
  EMBER_FUNCTOR(Name)                               \
  template <typename C>                             \
  bool operator()(C x) const {                      \
    if constexpr (is_float_v<C>)                    \
      return float_expr;                            \
    else                                            \
      return int_expr;                              \
  }                                                 \
  }                                                 \
  ;
EMBER_PREDICATE(IsNan, std::isnan(x), false)
EMBER_PREDICATE(IsInf, std::isinf(x), false)
EMBER_PREDICATE(IsFinite, std::isfinite(x), true)
EMBER_PREDICATE(IsPosInf, std::isinf(x) && x > 0, false)
EMBER_PREDICATE(IsNegInf, std::isinf(x) && x < 0, false)
EMBER_PREDICATE(LogicalNot, x == C(0), x == C(0))
#undef EMBER_PREDICATE

// ---------------------------------------------------------------- binary
EMBER_FUNCTOR(Add)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_wrapping_int_v<C>)
    return wrap_add(a, b);
  else
    return static_cast<C>(a + b);
}
}
;
EMBER_FUNCTOR(Sub)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_wrapping_int_v<C>)
    return wrap_sub(a, b);
  else
    return static_cast<C>(a - b);
}
}
;
// a + alpha * b (alpha in f0 for floats, i0 for integers).
EMBER_FUNCTOR(AddScaled)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    return a + static_cast<C>(p.f0) * b;
  else
    return wrap_add(a, wrap_mul(static_cast<C>(p.i0), b));
}
}
;
EMBER_FUNCTOR(Mul)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (std::is_same_v<C, bool>)
    return a && b;
  else if constexpr (is_wrapping_int_v<C>)
    return wrap_mul(a, b);
  else
    return static_cast<C>(a * b);
}
}
;
EMBER_FUNCTOR(Div)
template <typename C>
C operator()(C a, C b) const {
  return a / b;
}
}
;
// Integer divisors are checked for zero by the front-end before these run.
EMBER_FUNCTOR(DivTrunc)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    return std::trunc(a / b);
  else if constexpr (std::is_signed_v<C>) {
    if (b == -1) return static_cast<C>(-a);  // avoids INT_MIN / -1 overflow trap
    return static_cast<C>(a / b);
  } else
    return static_cast<C>(a / b);
}
}
;
EMBER_FUNCTOR(DivFloor)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>) {
    if (b == 0) return a / b;
    const C mod = std::fmod(a, b);
    C div = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) div -= C(1);
    C floordiv;
    if (div != 0) {
      floordiv = std::floor(div);
      if (div - floordiv > C(0.5)) floordiv += C(1);
    } else {
      floordiv = std::copysign(C(0), a / b);
    }
    return floordiv;
  } else if constexpr (std::is_signed_v<C>) {
    if (b == -1) return static_cast<C>(-a);
    C q = static_cast<C>(a / b);
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  } else {
    return static_cast<C>(a / b);
  }
}
}
;
EMBER_FUNCTOR(Remainder)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>) {
    C mod = std::fmod(a, b);
    if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
    return mod;
  } else if constexpr (std::is_signed_v<C>) {
    if (b == -1) return 0;
    C r = static_cast<C>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
    return r;
  } else {
    return static_cast<C>(a % b);
  }
}
}
;
EMBER_FUNCTOR(Fmod)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    return std::fmod(a, b);
  else if constexpr (std::is_signed_v<C>)
    return b == -1 ? C(0) : static_cast<C>(a % b);
  else
    return static_cast<C>(a % b);
}
}
;
EMBER_FUNCTOR(Pow)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>) {
    return std::pow(a, b);
  } else if constexpr (std::is_same_v<C, bool>) {
    return a || !b;
  } else {
    if constexpr (std::is_signed_v<C>) {
      if (b < 0) {
        if (a == 1) return 1;
        if (a == -1) return (b & 1) ? C(-1) : C(1);
        return 0;
      }
    }
    // Exponentiation by squaring, wrapping on overflow like torch.
    using U = std::make_unsigned_t<C>;
    U result = 1, base = static_cast<U>(a);
    for (U e = static_cast<U>(b); e; e >>= 1) {
      if (e & 1) result *= base;
      base *= base;
    }
    return static_cast<C>(result);
  }
}
}
;
EMBER_FUNCTOR(Atan2)
template <typename C>
C operator()(C a, C b) const {
  return std::atan2(a, b);
}
}
;
// maximum/minimum propagate NaN; fmax/fmin ignore it.
EMBER_FUNCTOR(Maximum)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    if (std::isnan(a) || std::isnan(b)) return a + b;
  return a > b ? a : b;
}
}
;
EMBER_FUNCTOR(Minimum)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    if (std::isnan(a) || std::isnan(b)) return a + b;
  return a < b ? a : b;
}
}
;
EMBER_FUNCTOR(Fmax)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    return std::fmax(a, b);
  else
    return a > b ? a : b;
}
}
;
EMBER_FUNCTOR(Fmin)
template <typename C>
C operator()(C a, C b) const {
  if constexpr (is_float_v<C>)
    return std::fmin(a, b);
  else
    return a < b ? a : b;
}
}
;
EMBER_FUNCTOR(BitwiseAnd)
template <typename C>
C operator()(C a, C b) const {
  return static_cast<C>(a & b);
}
}
;
EMBER_FUNCTOR(BitwiseOr)
template <typename C>
C operator()(C a, C b) const {
  return static_cast<C>(a | b);
}
}
;
EMBER_FUNCTOR(BitwiseXor)
template <typename C>
C operator()(C a, C b) const {
  return static_cast<C>(a ^ b);
}
}
;
// Shifts by >= the bit width give 0 (left) or the sign fill (right), like torch.
EMBER_FUNCTOR(LeftShift)
template <typename C>
C operator()(C a, C b) const {
  using U = std::make_unsigned_t<C>;
  if (b < 0 || b >= static_cast<C>(sizeof(C) * 8)) return 0;
  return static_cast<C>(static_cast<U>(a) << b);
}
}
;
EMBER_FUNCTOR(RightShift)
template <typename C>
C operator()(C a, C b) const {
  constexpr C bits = static_cast<C>(sizeof(C) * 8);
  if (b < 0 || b >= bits) {
    if constexpr (std::is_signed_v<C>)
      return a < 0 ? C(-1) : C(0);
    else
      return 0;
  }
  return static_cast<C>(a >> b);
}
}
;
EMBER_FUNCTOR(Copysign)
template <typename C>
C operator()(C a, C b) const {
  return std::copysign(a, b);
}
}
;
EMBER_FUNCTOR(Hypot)
template <typename C>
C operator()(C a, C b) const {
  return std::hypot(a, b);
}
}
;
// float and double only: in the float compute type of float16/bfloat16 the next float rounds
// back to the input, so those dtypes step their bits instead (nextafter16_loop, binary.cpp).
EMBER_FUNCTOR(Nextafter)
// The bit step written out (std::nextafter is a libm call per element: ~7x torch's time).
template <typename C>
C operator()(C a, C b) const {
  using U = std::conditional_t<sizeof(C) == 4, uint32_t, uint64_t>;
  const U bits = std::bit_cast<U>(a);
  const U stepped = ((a < b) == (a > C(0))) ? bits + 1 : bits - 1;
  C r = std::bit_cast<C>(stepped);
  if (a == C(0)) r = std::copysign(std::bit_cast<C>(U{1}), b);
  if (a == b) r = b;
  if (a != a || b != b) r = a + b;
  return r;
}
}
;
// lerp(start, end, weight) with the weight in f0; torch's formula keeps lerp(a, b, 1) == b.
template <typename C>
inline C lerp_value(C a, C b, C w) {
  return std::fabs(w) < C(0.5) ? a + w * (b - a) : b - (b - a) * (C(1) - w);
}
EMBER_FUNCTOR(Lerp)
template <typename C>
C operator()(C a, C b) const {
  return lerp_value(a, b, static_cast<C>(p.f0));
}
template <typename C>
C operator()(C a, C b, C w) const {
  return lerp_value(a, b, w);
}
}
;
EMBER_FUNCTOR(Xlogy)
template <typename C>
C operator()(C x, C y) const {
  if (std::isnan(y)) return y;
  if (x == 0) return 0;
  return x * std::log(y);
}
}
;

EMBER_FUNCTOR(SpecialZeta)
template <typename C>
C operator()(C x, C q) const {
  return static_cast<C>(zeta_value(static_cast<double>(x), static_cast<double>(q)));
}
}
;

// log(e^a + e^b) as max + log1p(e^-|a-b|); equal infinities return a (a - b would be NaN).
EMBER_FUNCTOR(Logaddexp)
template <typename C>
C operator()(C a, C b) const {
  if (std::isinf(a) && a == b) return a;
  const C m = std::max(a, b);
  return std::isnan(m) ? a + b : m + std::log1p(std::exp(-std::fabs(a - b)));
}
}
;
EMBER_FUNCTOR(Logaddexp2)
template <typename C>
C operator()(C a, C b) const {
  if (std::isinf(a) && a == b) return a;
  const C m = std::max(a, b);
  return std::isnan(m) ? a + b
                       : m + std::log1p(std::exp2(-std::fabs(a - b))) / C(0.6931471805599453);
}
}
;

// torch's heaviside: `values` where x == 0, else x > 0 (so NaN gives 0).
EMBER_FUNCTOR(Heaviside)
template <typename C>
C operator()(C x, C values) const {
  return x == C(0) ? values : static_cast<C>(x > C(0));
}
}
;
// Euclid on magnitudes in the unsigned type, so |INT_MIN| wraps as in torch instead of UB.
template <typename C>
inline C gcd_value(C a, C b) {
  using U = std::make_unsigned_t<C>;
  U x = a < 0 ? static_cast<U>(U(0) - static_cast<U>(a)) : static_cast<U>(a);
  U y = b < 0 ? static_cast<U>(U(0) - static_cast<U>(b)) : static_cast<U>(b);
  while (y != 0) {
    const U r = static_cast<U>(x % y);
    x = y;
    y = r;
  }
  return static_cast<C>(x);
}
EMBER_FUNCTOR(Gcd)
template <typename C>
C operator()(C a, C b) const {
  return gcd_value(a, b);
}
}
;
EMBER_FUNCTOR(Lcm)
template <typename C>
C operator()(C a, C b) const {
  using U = std::make_unsigned_t<C>;
  const C g = gcd_value(a, b);
  if (g == 0) return 0;
  const C q = static_cast<C>(a / g);
  const U m = static_cast<U>(static_cast<U>(q) * static_cast<U>(b));  // wraps like torch
  const C r = static_cast<C>(m);
  return r < 0 ? static_cast<C>(U(0) - m) : r;
}
}
;

// ---------------------------------------------------------------- comparisons (-> bool)
#define EMBER_COMPARE(Name, expr)   \
  EMBER_FUNCTOR(Name)               \
  template <typename C>             \
  bool operator()(C a, C b) const { \
    return expr;                    \
  }                                 \
  }                                 \
  ;
EMBER_COMPARE(Eq, a == b)
EMBER_COMPARE(Ne, a != b)
EMBER_COMPARE(Lt, a < b)
EMBER_COMPARE(Le, a <= b)
EMBER_COMPARE(Gt, a > b)
EMBER_COMPARE(Ge, a >= b)
EMBER_COMPARE(LogicalAnd, (a != C(0)) && (b != C(0)))
EMBER_COMPARE(LogicalOr, (a != C(0)) || (b != C(0)))
EMBER_COMPARE(LogicalXor, (a != C(0)) != (b != C(0)))
#undef EMBER_COMPARE
#undef EMBER_FUNCTOR

}  // namespace ember::cpu::EMBER_ISA_NS
