// Unary elementwise kernels and predicates (isnan, ...), one instantiation per (op, dtype).
#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

template <typename Op, typename... Ts>
void set_unary(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &unary_loop<Ts, Ts, Op>), ...);
}
template <typename Op, typename... Ts>
void set_predicate(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &unary_loop<Ts, bool, Op>), ...);
}

}  // namespace

void fill_unary(KernelTable& t) {
#define UNARY(name, types) set_unary<name>(t.unary[static_cast<int>(UnaryOp::name)], types{});
  UNARY(Neg, NumericTypes)
  UNARY(Abs, NumericTypes)
  UNARY(Sign, NumericTypes)
  UNARY(Sinc, FloatTypes)
  UNARY(Erfinv, FloatTypes)
  UNARY(Lgamma, FloatTypes)
  UNARY(Digamma, FloatTypes)
  UNARY(Polygamma, FloatTypes)
  UNARY(I0, FloatTypes)
  UNARY(SpecialI0e, FloatTypes)
  UNARY(SpecialI1, FloatTypes)
  UNARY(SpecialI1e, FloatTypes)
  UNARY(SpecialErfcx, FloatTypes)
  UNARY(SpecialNdtri, FloatTypes)
  UNARY(SpecialBesselJ0, FloatTypes)
  UNARY(SpecialBesselJ1, FloatTypes)
  UNARY(Sqrt, FloatTypes)
  UNARY(Rsqrt, FloatTypes)
  UNARY(Exp, FloatTypes)
  UNARY(Exp2, FloatTypes)
  UNARY(Expm1, FloatTypes)
  UNARY(Log, FloatTypes)
  UNARY(Log2, FloatTypes)
  UNARY(Log10, FloatTypes)
  UNARY(Log1p, FloatTypes)
  UNARY(Sin, FloatTypes)
  UNARY(Cos, FloatTypes)
  UNARY(Tan, FloatTypes)
  UNARY(Asin, FloatTypes)
  UNARY(Acos, FloatTypes)
  UNARY(Atan, FloatTypes)
  UNARY(Sinh, FloatTypes)
  UNARY(Cosh, FloatTypes)
  UNARY(Tanh, FloatTypes)
  UNARY(Asinh, FloatTypes)
  UNARY(Acosh, FloatTypes)
  UNARY(Atanh, FloatTypes)
  UNARY(Sigmoid, FloatTypes)
  UNARY(Relu, NumericTypes)
  UNARY(Erf, FloatTypes)
  UNARY(Erfc, FloatTypes)
  UNARY(Floor, NumericTypes)
  UNARY(Ceil, NumericTypes)
  UNARY(Round, NumericTypes)
  UNARY(RoundDecimals, FloatTypes)
  UNARY(Trunc, NumericTypes)
  UNARY(Frac, FloatTypes)
  UNARY(Reciprocal, FloatTypes)
  UNARY(Square, NumericTypes)
  UNARY(BitwiseNot, IntBoolTypes)
  UNARY(ClampBoth, NumericTypes)
  UNARY(ClampMin, NumericTypes)
  UNARY(ClampMax, NumericTypes)
  UNARY(NanToNum, FloatTypes)
  UNARY(Identity, AllTypes)
  // torch's limited uint16/32/64 support: rounding is the identity on integers, and `+x`.
  UNARY(Floor, LimitedUnsignedTypes)
  UNARY(Ceil, LimitedUnsignedTypes)
  UNARY(Round, LimitedUnsignedTypes)
  UNARY(Trunc, LimitedUnsignedTypes)
  UNARY(Identity, LimitedUnsignedTypes)
#undef UNARY
#define PREDICATE(name) \
  set_predicate<name>(t.predicate[static_cast<int>(PredicateOp::name)], AllTypes{});
  EMBER_PREDICATE_OPS(PREDICATE)
#undef PREDICATE
  // torch's limited uint16/32/64 support has the nan/inf tests (never true/always finite).
  set_predicate<IsNan>(t.predicate[static_cast<int>(PredicateOp::IsNan)], LimitedUnsignedTypes{});
  set_predicate<IsInf>(t.predicate[static_cast<int>(PredicateOp::IsInf)], LimitedUnsignedTypes{});
  set_predicate<IsFinite>(t.predicate[static_cast<int>(PredicateOp::IsFinite)],
                          LimitedUnsignedTypes{});
  set_predicate<IsPosInf>(t.predicate[static_cast<int>(PredicateOp::IsPosInf)],
                          LimitedUnsignedTypes{});
  set_predicate<IsNegInf>(t.predicate[static_cast<int>(PredicateOp::IsNegInf)],
                          LimitedUnsignedTypes{});
}

}  // namespace ember::cpu::EMBER_ISA_NS
