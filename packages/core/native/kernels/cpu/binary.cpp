// Binary elementwise kernels, comparisons and where(), one instantiation per (op, dtype).
#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

template <typename Op, typename... Ts>
void set_binary(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &binary_loop<Ts, Ts, Op>), ...);
}
template <typename Op, typename... Ts>
void set_compare(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &binary_loop<Ts, bool, Op>), ...);
}

template <typename... Ts>
void set_where(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &where_loop<Ts>), ...);
}

template <typename... Ts>
void set_lerp_tensor(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &ternary_loop<Ts, Lerp>), ...);
}

}  // namespace

void fill_binary(KernelTable& t) {
#define BINARY(name, types) set_binary<name>(t.binary[static_cast<int>(BinaryOp::name)], types{});
  BINARY(Add, AllTypes)
  BINARY(Sub, NumericTypes)
  BINARY(AddScaled, NumericTypes)
  BINARY(Mul, AllTypes)
  BINARY(Div, FloatTypes)
  BINARY(DivTrunc, NumericTypes)
  BINARY(DivFloor, NumericTypes)
  BINARY(Remainder, NumericTypes)
  BINARY(Fmod, NumericTypes)
  BINARY(Pow, NumericTypes)
  BINARY(Atan2, FloatTypes)
  BINARY(Maximum, AllTypes)
  BINARY(Minimum, AllTypes)
  BINARY(Fmax, NumericTypes)
  BINARY(Fmin, NumericTypes)
  BINARY(BitwiseAnd, IntBoolTypes)
  BINARY(BitwiseOr, IntBoolTypes)
  BINARY(BitwiseXor, IntBoolTypes)
  BINARY(LeftShift, IntTypes)
  BINARY(RightShift, IntTypes)
  BINARY(Copysign, FloatTypes)
  BINARY(Hypot, FloatTypes)
  BINARY(Lerp, FloatTypes)
  BINARY(Xlogy, FloatTypes)
  BINARY(Logaddexp, FloatTypes)
  BINARY(Logaddexp2, FloatTypes)
  BINARY(Heaviside, AllTypes)
  BINARY(Gcd, IntTypes)
  BINARY(Lcm, IntTypes)
  BINARY(SpecialZeta, FloatTypes)
#undef BINARY
#define COMPARE(name) set_compare<name>(t.compare[static_cast<int>(CompareOp::name)], AllTypes{});
  EMBER_COMPARE_OPS(COMPARE)
#undef COMPARE
  set_where(t.where, AllTypes{});
  set_lerp_tensor(t.lerp_tensor, FloatTypes{});
}

}  // namespace ember::cpu::EMBER_ISA_NS
