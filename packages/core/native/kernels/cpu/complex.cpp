// Kernels for complex64/complex128 (std::complex), compiled for the baseline ISA only: casts
// to and from every dtype, arithmetic, comparisons, the elementwise math functions, sum/prod
// and where.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>

#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

using ComplexTypes = TypeList<std::complex<float>, std::complex<double>>;
using RealTypes = CastTypes;  // the baseline CastTypes: every real dtype, uint16-64 included

// torch's rules: real -> complex sets imag = 0; complex -> real keeps the real part (torch warns
// once about the discarded imaginary part); complex -> bool is `value != 0`.
template <typename To, typename From>
To convert(From v) {
  if constexpr (is_complex_v<To> && is_complex_v<From>) {
    return To(static_cast<typename To::value_type>(v.real()),
              static_cast<typename To::value_type>(v.imag()));
  } else if constexpr (is_complex_v<To>) {
    return To(static_cast<typename To::value_type>(static_cast<compute_t<From>>(v)), 0);
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(v.real()));
  } else {
    return static_cast<To>(v.real());
  }
}

template <typename From, typename To>
void cast_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  char* o = data[0];
  const char* a = data[1];
  for (int64_t i = 0; i < n; ++i, o += strides[0], a += strides[1]) {
    *reinterpret_cast<To*>(o) = convert<To>(*reinterpret_cast<const From*>(a));
  }
}

template <typename To, typename... Froms>
void set_casts_to(Loop1d (&row)[kNumScalarTypes], TypeList<Froms...>) {
  ((row[dtype_index<Froms>()] = &cast_loop<Froms, To>), ...);
}
template <typename From, typename... Tos>
void set_casts_from(KernelTable& t, TypeList<Tos...>) {
  ((t.cast[dtype_index<Tos>()][dtype_index<From>()] = &cast_loop<From, Tos>), ...);
}

// a + alpha * b with a real alpha (f0); integer alphas arrive in i0.
struct ComplexAddScaled {
  const OpParams& p;
  explicit ComplexAddScaled(const OpParams& params) : p(params) {}
  template <typename C>
  C operator()(C a, C b) const {
    const double alpha = p.f0 != 0 ? p.f0 : static_cast<double>(p.i0);
    return a + static_cast<typename C::value_type>(alpha) * b;
  }
};
struct ComplexPow {
  explicit ComplexPow(const OpParams&) {}
  template <typename C>
  C operator()(C a, C b) const {
    if (b == C(0)) return C(1);
    // Small integer exponents by repeated squaring: exact where exp(b * log(a)) would round.
    using R = typename C::value_type;
    if (b.imag() == R(0) && b.real() == std::trunc(b.real()) && std::abs(b.real()) <= R(64)) {
      auto n = static_cast<int>(std::abs(b.real()));
      C result(1), base = a;
      for (; n > 0; n >>= 1, base *= base) {
        if (n & 1) result *= base;
      }
      return b.real() < 0 ? C(1) / result : result;
    }
    return std::pow(a, b);
  }
};
// isnan/isinf/isfinite look at both parts; logical_not is "value == 0" (torch's rules).
#define EMBER_COMPLEX_PREDICATE(Name, expr)    \
  struct Complex##Name {                       \
    explicit Complex##Name(const OpParams&) {} \
    template <typename C>                      \
    bool operator()(C x) const {               \
      return expr;                             \
    }                                          \
  };
EMBER_COMPLEX_PREDICATE(IsNan, std::isnan(x.real()) || std::isnan(x.imag()))
EMBER_COMPLEX_PREDICATE(IsInf, std::isinf(x.real()) || std::isinf(x.imag()))
EMBER_COMPLEX_PREDICATE(IsFinite, std::isfinite(x.real()) && std::isfinite(x.imag()))
EMBER_COMPLEX_PREDICATE(LogicalNot, x == C(0))
#undef EMBER_COMPLEX_PREDICATE
struct ComplexEq {
  explicit ComplexEq(const OpParams&) {}
  template <typename C>
  bool operator()(C a, C b) const {
    return a == b;
  }
};
struct ComplexNe {
  explicit ComplexNe(const OpParams&) {}
  template <typename C>
  bool operator()(C a, C b) const {
    return a != b;
  }
};
#define EMBER_COMPLEX_UNARY(Name, expr)        \
  struct Complex##Name {                       \
    explicit Complex##Name(const OpParams&) {} \
    template <typename C>                      \
    C operator()(C x) const {                  \
      return expr;                             \
    }                                          \
  };
EMBER_COMPLEX_UNARY(Neg, -x)
EMBER_COMPLEX_UNARY(Identity, x)
EMBER_COMPLEX_UNARY(Exp, std::exp(x))
EMBER_COMPLEX_UNARY(Log, std::log(x))
EMBER_COMPLEX_UNARY(Sqrt, std::sqrt(x))
EMBER_COMPLEX_UNARY(Sin, std::sin(x))
EMBER_COMPLEX_UNARY(Cos, std::cos(x))
EMBER_COMPLEX_UNARY(Tanh, std::tanh(x))
EMBER_COMPLEX_UNARY(Reciprocal, C(1) / x)
EMBER_COMPLEX_UNARY(Square, x* x)
EMBER_COMPLEX_UNARY(Rsqrt, C(1) / std::sqrt(x))
EMBER_COMPLEX_UNARY(Exp2, std::exp(x* typename C::value_type(std::numbers::ln2)))
EMBER_COMPLEX_UNARY(Log2, std::log(x) / typename C::value_type(std::numbers::ln2))
EMBER_COMPLEX_UNARY(Log10, std::log10(x))
EMBER_COMPLEX_UNARY(Tan, std::tan(x))
EMBER_COMPLEX_UNARY(Asin, std::asin(x))
EMBER_COMPLEX_UNARY(Acos, std::acos(x))
EMBER_COMPLEX_UNARY(Atan, std::atan(x))
EMBER_COMPLEX_UNARY(Sinh, std::sinh(x))
EMBER_COMPLEX_UNARY(Cosh, std::cosh(x))
EMBER_COMPLEX_UNARY(Asinh, std::asinh(x))
EMBER_COMPLEX_UNARY(Acosh, std::acosh(x))
EMBER_COMPLEX_UNARY(Atanh, std::atanh(x))
EMBER_COMPLEX_UNARY(Sigmoid, C(1) / (C(1) + std::exp(-x)))
#undef EMBER_COMPLEX_UNARY

// sgn: z / |z|, 0 at 0 (torch.sgn; torch.sign refuses complex in the front-end). A z whose parts
// are both subnormal is scaled into the normal range first: there |z| rounds onto the subnormal
// grid (sgn(1e-45 + 1e-45j) in complex64 came out 1 + 1j, not of unit length).
struct ComplexSgn {
  explicit ComplexSgn(const OpParams&) {}
  template <typename C>
  C operator()(C x) const {
    using R = typename C::value_type;
    if (x == C(0)) return C(0);
    const R m = std::max(std::abs(x.real()), std::abs(x.imag()));
    if (m < std::numeric_limits<R>::min()) x *= R(1) / std::numeric_limits<R>::epsilon();
    return x / std::abs(x);
  }
};

// log1p and expm1 as torch computes them (c10/util/complex_math.h): exact near 0, where
// log(1 + z) and exp(z) - 1 would cancel.
struct ComplexLog1p {
  explicit ComplexLog1p(const OpParams&) {}
  template <typename C>
  C operator()(C z) const {
    using R = typename C::value_type;
    const R x = z.real(), y = z.imag();
    const R theta = std::atan2(y, x + R(1));
    if (std::abs(z) < R(0.5)) {
      const R r = x * (R(2) + x) + y * y;
      if (r == R(0)) return {x, theta};  // underflow
      return {R(0.5) * std::log1p(r), theta};
    }
    return {std::log(std::hypot(x + R(1), y)), theta};
  }
};
struct ComplexExpm1 {
  explicit ComplexExpm1(const OpParams&) {}
  template <typename C>
  C operator()(C z) const {
    using R = typename C::value_type;
    const R x = z.real(), y = z.imag();
    const R half_sin = std::sin(y / R(2));
    return {std::expm1(x) * std::cos(y) - R(2) * half_sin * half_sin, std::exp(x) * std::sin(y)};
  }
};
// sin(pi z) / (pi z), 1 at 0 (torch.sinc).
struct ComplexSinc {
  explicit ComplexSinc(const OpParams&) {}
  template <typename C>
  C operator()(C z) const {
    if (z == C(0)) return C(1);
    const C pz = z * typename C::value_type(std::numbers::pi);
    return std::sin(pz) / pz;
  }
};

struct ComplexSum {
  template <typename T>
  static T combine(T a, T b) {
    return a + b;
  }
};
struct ComplexProd {
  template <typename T>
  static T combine(T a, T b) {
    return a * b;
  }
};

// Sum of a contiguous run: 8 independent lanes (they vectorize and shorten the rounding chain),
// folded block by block so the error stays bounded on long runs, as the real sums do.
template <typename T>
T contiguous_sum(const T* x, int64_t n) {
  constexpr int64_t kLanes = 8, kBlock = 4096;
  T total(0);
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    const T* p = x + start;
    T lanes[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= len; i += kLanes) {
      for (int64_t j = 0; j < kLanes; ++j) lanes[j] += p[i + j];
    }
    T block(0);
    for (; i < len; ++i) block += p[i];
    for (int64_t j = 0; j < kLanes; ++j) block += lanes[j];
    total += block;
  }
  return total;
}

template <typename T, typename R>
void complex_reduce_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  if constexpr (std::is_same_v<R, ComplexSum>) {
    if (strides[0] == 0 && strides[1] == static_cast<int64_t>(sizeof(T))) {
      T* acc = reinterpret_cast<T*>(data[0]);
      *acc += contiguous_sum(reinterpret_cast<const T*>(data[1]), n);
      return;
    }
  }
  char* acc = data[0];
  const char* in = data[1];
  for (int64_t i = 0; i < n; ++i, acc += strides[0], in += strides[1]) {
    T* a = reinterpret_cast<T*>(acc);
    *a = R::combine(*a, *reinterpret_cast<const T*>(in));
  }
}

template <typename T>
void fill_for(KernelTable& t) {
  constexpr int d = dtype_index<T>();
  set_casts_to<T>(t.cast[d], RealTypes{});
  set_casts_to<T>(t.cast[d], ComplexTypes{});
  set_casts_from<T>(t, RealTypes{});
  auto binary = [&](BinaryOp op) -> Loop1d& { return t.binary[static_cast<int>(op)][d]; };
  binary(BinaryOp::Add) = &binary_loop<T, T, Add>;
  binary(BinaryOp::Sub) = &binary_loop<T, T, Sub>;
  binary(BinaryOp::Mul) = &binary_loop<T, T, Mul>;
  binary(BinaryOp::Div) = &binary_loop<T, T, Div>;
  binary(BinaryOp::AddScaled) = &binary_loop<T, T, ComplexAddScaled>;
  binary(BinaryOp::Pow) = &binary_loop<T, T, ComplexPow>;
  auto predicate = [&](PredicateOp op) -> Loop1d& { return t.predicate[static_cast<int>(op)][d]; };
  predicate(PredicateOp::IsNan) = &unary_loop<T, bool, ComplexIsNan>;
  predicate(PredicateOp::IsInf) = &unary_loop<T, bool, ComplexIsInf>;
  predicate(PredicateOp::IsFinite) = &unary_loop<T, bool, ComplexIsFinite>;
  predicate(PredicateOp::LogicalNot) = &unary_loop<T, bool, ComplexLogicalNot>;
  t.compare[static_cast<int>(CompareOp::Eq)][d] = &binary_loop<T, bool, ComplexEq>;
  t.compare[static_cast<int>(CompareOp::Ne)][d] = &binary_loop<T, bool, ComplexNe>;
  auto unary = [&](UnaryOp op) -> Loop1d& { return t.unary[static_cast<int>(op)][d]; };
  unary(UnaryOp::Neg) = &unary_loop<T, T, ComplexNeg>;
  unary(UnaryOp::Identity) = &unary_loop<T, T, ComplexIdentity>;
  unary(UnaryOp::Exp) = &unary_loop<T, T, ComplexExp>;
  unary(UnaryOp::Log) = &unary_loop<T, T, ComplexLog>;
  unary(UnaryOp::Sqrt) = &unary_loop<T, T, ComplexSqrt>;
  unary(UnaryOp::Sin) = &unary_loop<T, T, ComplexSin>;
  unary(UnaryOp::Cos) = &unary_loop<T, T, ComplexCos>;
  unary(UnaryOp::Tanh) = &unary_loop<T, T, ComplexTanh>;
  unary(UnaryOp::Reciprocal) = &unary_loop<T, T, ComplexReciprocal>;
  unary(UnaryOp::Square) = &unary_loop<T, T, ComplexSquare>;
  unary(UnaryOp::Rsqrt) = &unary_loop<T, T, ComplexRsqrt>;
  unary(UnaryOp::Exp2) = &unary_loop<T, T, ComplexExp2>;
  unary(UnaryOp::Expm1) = &unary_loop<T, T, ComplexExpm1>;
  unary(UnaryOp::Log2) = &unary_loop<T, T, ComplexLog2>;
  unary(UnaryOp::Log10) = &unary_loop<T, T, ComplexLog10>;
  unary(UnaryOp::Log1p) = &unary_loop<T, T, ComplexLog1p>;
  unary(UnaryOp::Tan) = &unary_loop<T, T, ComplexTan>;
  unary(UnaryOp::Asin) = &unary_loop<T, T, ComplexAsin>;
  unary(UnaryOp::Acos) = &unary_loop<T, T, ComplexAcos>;
  unary(UnaryOp::Atan) = &unary_loop<T, T, ComplexAtan>;
  unary(UnaryOp::Sinh) = &unary_loop<T, T, ComplexSinh>;
  unary(UnaryOp::Cosh) = &unary_loop<T, T, ComplexCosh>;
  unary(UnaryOp::Asinh) = &unary_loop<T, T, ComplexAsinh>;
  unary(UnaryOp::Acosh) = &unary_loop<T, T, ComplexAcosh>;
  unary(UnaryOp::Atanh) = &unary_loop<T, T, ComplexAtanh>;
  unary(UnaryOp::Sigmoid) = &unary_loop<T, T, ComplexSigmoid>;
  unary(UnaryOp::Sign) = &unary_loop<T, T, ComplexSgn>;
  unary(UnaryOp::Sinc) = &unary_loop<T, T, ComplexSinc>;
  t.reduce[static_cast<int>(ReduceOp::Sum)][d] = &complex_reduce_loop<T, ComplexSum>;
  t.reduce[static_cast<int>(ReduceOp::Prod)][d] = &complex_reduce_loop<T, ComplexProd>;
  t.where[d] = &where_loop<T>;
}

}  // namespace

void fill_complex(KernelTable& t) {
  fill_for<std::complex<float>>(t);
  fill_for<std::complex<double>>(t);
}

}  // namespace ember::cpu::EMBER_ISA_NS
