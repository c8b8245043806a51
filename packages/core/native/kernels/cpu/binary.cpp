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

template <typename T>
void where_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  constexpr int64_t s = sizeof(T);
  if (strides[0] == s && strides[1] == 1 && strides[2] == s && strides[3] == s) {
    T* __restrict out = reinterpret_cast<T*>(data[0]);
    const bool* __restrict cond = reinterpret_cast<const bool*>(data[1]);
    const T* __restrict a = reinterpret_cast<const T*>(data[2]);
    const T* __restrict b = reinterpret_cast<const T*>(data[3]);
    for (int64_t i = 0; i < n; ++i) out[i] = cond[i] ? a[i] : b[i];
    return;
  }
  char *o = data[0], *c = data[1], *a = data[2], *b = data[3];
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<T*>(o) = *reinterpret_cast<const bool*>(c) ? *reinterpret_cast<const T*>(a)
                                                                 : *reinterpret_cast<const T*>(b);
    o += strides[0];
    c += strides[1];
    a += strides[2];
    b += strides[3];
  }
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
#undef BINARY
#define COMPARE(name) \
  set_compare<name>(t.compare[static_cast<int>(CompareOp::name)], AllTypes{});
  EMBER_COMPARE_OPS(COMPARE)
#undef COMPARE
  set_where(t.where, AllTypes{});
  set_lerp_tensor(t.lerp_tensor, FloatTypes{});
}

}  // namespace ember::cpu::EMBER_ISA_NS
