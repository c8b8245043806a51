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
#undef UNARY
#define PREDICATE(name) \
  set_predicate<name>(t.predicate[static_cast<int>(PredicateOp::name)], AllTypes{});
  EMBER_PREDICATE_OPS(PREDICATE)
#undef PREDICATE
}

}  // namespace ember::cpu::EMBER_ISA_NS
