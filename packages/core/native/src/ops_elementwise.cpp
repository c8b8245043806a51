// Front-ends of the elementwise ops: dtype rules, argument checks, then one iterator pass.
#include <cmath>
#include <limits>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/kernels.h"
#include "ember/ops.h"

namespace ember {
namespace {

// The op names and dtype rules the registry declares for each kernel.
#define EMBER_NAME_ENTRY(name, types, ints_to_float, public_name) public_name,
constexpr const char* kUnaryNames[] = {EMBER_UNARY_KERNELS(EMBER_NAME_ENTRY)};
constexpr const char* kPredicateNames[] = {EMBER_PREDICATE_KERNELS(EMBER_NAME_ENTRY)};
constexpr const char* kBinaryNames[] = {EMBER_BINARY_KERNELS(EMBER_NAME_ENTRY)};
constexpr const char* kCompareNames[] = {EMBER_COMPARE_KERNELS(EMBER_NAME_ENTRY)};
#undef EMBER_NAME_ENTRY
#define EMBER_FLOAT_ONLY_ENTRY(name, types, ints_to_float, public_name) ints_to_float,
constexpr bool kUnaryFloatOnly[] = {EMBER_UNARY_KERNELS(EMBER_FLOAT_ONLY_ENTRY)};
constexpr bool kBinaryFloatOnly[] = {EMBER_BINARY_KERNELS(EMBER_FLOAT_ONLY_ENTRY)};
#undef EMBER_FLOAT_ONLY_ENTRY

// Integer inputs of these ops run in the default float dtype (sqrt of int64 is float32).
bool is_float_only(UnaryOp op) { return kUnaryFloatOnly[static_cast<int>(op)]; }
bool is_float_only(BinaryOp op) { return kBinaryFloatOnly[static_cast<int>(op)]; }

Loop1d require_kernel(Loop1d fn, const char* op, ScalarType dtype) {
  EMBER_CHECK(fn != nullptr, TypeNotImplementedError, "[", op, "] not supported for dtype ",
              dtype_name(dtype));
  return fn;
}

IterConfig in_place_config(IterConfig config, bool in_place) {
  if (in_place) config.resize_outputs = false;
  return config;
}

// Integer division by zero has no value: raise, as torch does. The divisor is checked in the
// compute dtype: a Python int that wraps to 0 there (int16 // 2**31) would divide by zero too.
void check_int_divisor(const Tensor& b, ScalarType compute, const char* op) {
  if (is_floating(compute)) return;
  // A zero of the compute dtype: an int64 one would not promote with a (wrapped) uint64 divisor.
  const Tensor zero = Tensor::scalar_int(0, compute, true);
  const Tensor divisor = b.dtype() == compute ? b : to_dtype(b, compute);
  const Tensor any_zero = any(compare(CompareOp::Eq, divisor, zero), {}, false);
  EMBER_CHECK(!*any_zero.data<bool>(), RuntimeError, "[", op,
              "] ZeroDivisionError: integer division by zero");
}

}  // namespace

const char* op_name(UnaryOp op) { return kUnaryNames[static_cast<int>(op)]; }
const char* op_name(PredicateOp op) { return kPredicateNames[static_cast<int>(op)]; }
const char* op_name(BinaryOp op) { return kBinaryNames[static_cast<int>(op)]; }
const char* op_name(CompareOp op) { return kCompareNames[static_cast<int>(op)]; }

Tensor unary(UnaryOp op, const Tensor& x, const Tensor& out, const OpParams& p, bool in_place) {
  const char* name = op_name(op);
  if (op == UnaryOp::Neg) {
    EMBER_CHECK(x.dtype() != ScalarType::Bool, TypeError,
                "[neg] negation, the `-` operator, on a bool tensor is not supported; use `~` "
                "or logical_not() to invert a mask");
  }
  // torch has no integer frac (it is always 0) and no `+bool`.
  EMBER_CHECK(op != UnaryOp::Frac || is_floating(x.dtype()), TypeError,
              "[frac] not supported for dtype ", dtype_name(x.dtype()));
  EMBER_CHECK(op != UnaryOp::Identity || x.dtype() != ScalarType::Bool, TypeError,
              "[positive] the `+` operator on a bool tensor is not supported");
  // torch computes square(bool) as pow(x, 2): an int64 result.
  if (op == UnaryOp::Square && x.dtype() == ScalarType::Bool) {
    EMBER_CHECK(!in_place, RuntimeError,
                "[square_] result type int64 can't be cast to the "
                "desired output type bool");
    return unary(op, to_dtype(x, ScalarType::Int64), out, p, false);
  }
  if (op == UnaryOp::Abs && is_complex(x.dtype())) {  // a real result: its own loop
    EMBER_CHECK(!in_place, RuntimeError,
                "[abs_] In-place abs is not supported for complex tensors");
    return complex_abs(x, out);
  }
  IterConfig config;
  config.promote_int_to_float = is_float_only(op);
  TensorIterator iter(name, in_place_config(config, in_place));
  iter.add_output(in_place ? x : out).add_input(x);
  iter.build();
  const ScalarType dt = iter.compute_dtype();
  // sign of a bool is the bool itself.
  const UnaryOp kernel = op == UnaryOp::Sign && dt == ScalarType::Bool ? UnaryOp::Identity : op;
  iter.for_each(
      require_kernel(cpu_kernels().unary[static_cast<int>(kernel)][static_cast<int>(dt)], name, dt),
      &p);
  if (in_place) x.bump_version();
  return iter.output();
}

Tensor predicate(PredicateOp op, const Tensor& x, const Tensor& out) {
  IterConfig config;
  config.promote_inputs = false;
  config.has_output_dtype = true;
  config.output_dtype = ScalarType::Bool;
  TensorIterator iter(op_name(op), config);
  iter.add_output(out).add_input(x);
  iter.build();
  const ScalarType dt = iter.compute_dtype();
  iter.for_each(require_kernel(cpu_kernels().predicate[static_cast<int>(op)][static_cast<int>(dt)],
                               op_name(op), dt));
  return iter.output();
}

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b, const Tensor& out, const OpParams& p,
              bool in_place) {
  const char* name = op_name(op);
  if (op == BinaryOp::Hypot) {  // torch's hypot has floating kernels only
    const ScalarType dt = result_type({a, b});
    EMBER_CHECK(is_floating(dt), TypeError, "[hypot] not supported for dtype ", dtype_name(dt));
  }
  IterConfig config;
  config.promote_int_to_float = is_float_only(op);
  TensorIterator iter(name, in_place_config(config, in_place));
  iter.add_output(in_place ? a : out).add_input(a).add_input(b);
  iter.build();
  const ScalarType dt = iter.compute_dtype();
  if (op == BinaryOp::Sub || op == BinaryOp::AddScaled) {
    EMBER_CHECK(dt != ScalarType::Bool, TypeError, "[", name,
                "] subtraction, the `-` operator, with bool tensors is not supported; use `^` "
                "or logical_xor() instead");
  }
  // Bools have no nan: fmax/fmin are maximum/minimum (torch supports them for bool).
  BinaryOp kernel = op;
  if (dt == ScalarType::Bool && op == BinaryOp::Fmax) kernel = BinaryOp::Maximum;
  if (dt == ScalarType::Bool && op == BinaryOp::Fmin) kernel = BinaryOp::Minimum;
  // A dtype without the kernel (uint32 // 2) raises before the argument checks.
  const Loop1d loop = require_kernel(
      cpu_kernels().binary[static_cast<int>(kernel)][static_cast<int>(dt)], name, dt);
  if (op == BinaryOp::DivTrunc || op == BinaryOp::DivFloor || op == BinaryOp::Remainder ||
      op == BinaryOp::Fmod) {
    check_int_divisor(b, dt, name);
  }
  if (op == BinaryOp::Pow && !is_floating(dt) && !is_complex(dt) && b.is_wrapped_number()) {
    EMBER_CHECK(item_int(b, "pow") >= 0, RuntimeError,
                "[pow] integers to negative integer powers are not allowed");
  }
  iter.for_each(loop, &p);
  if (in_place) a.bump_version();
  return iter.output();
}

Tensor compare(CompareOp op, const Tensor& a, const Tensor& b, const Tensor& out, bool in_place) {
  IterConfig config;
  config.has_output_dtype = true;
  config.output_dtype = ScalarType::Bool;
  config.check_out_cast = false;  // comparisons may write into any output dtype, like torch
  TensorIterator iter(op_name(op), in_place_config(config, in_place));
  iter.add_output(in_place ? a : out).add_input(a).add_input(b);
  iter.build();
  const ScalarType dt = iter.compute_dtype();
  iter.for_each(require_kernel(cpu_kernels().compare[static_cast<int>(op)][static_cast<int>(dt)],
                               op_name(op), dt));
  if (in_place) a.bump_version();
  return iter.output();
}

// alpha scales `b`; it must not be a float when the result is integral (torch's rule).
static Tensor add_scaled(const char* name, const Tensor& a, const Tensor& b, const Tensor& alpha,
                         bool negate, const Tensor& out, bool in_place) {
  const ScalarType result = result_type({a, b});
  if (is_complex(result)) {
    // The complex kernels have no fused a + alpha * b: scale b first (alpha may be complex).
    const Tensor scaled = binary(BinaryOp::Mul, b, alpha, {}, {}, false);
    return binary(negate ? BinaryOp::Sub : BinaryOp::Add, a, scaled, out, {}, in_place);
  }
  EMBER_CHECK(!is_complex(alpha.dtype()), RuntimeError, "[", name,
              "] for non-complex input tensors, argument alpha must not be a complex number.");
  const double alpha_f = item_double(alpha, name);
  const bool alpha_is_one = alpha_f == 1.0 && !negate;
  if (alpha_is_one) return binary(BinaryOp::Add, a, b, out, {}, in_place);
  if (alpha_f == 1.0 && negate) return binary(BinaryOp::Sub, a, b, out, {}, in_place);
  EMBER_CHECK(is_floating(result) || !is_floating(alpha.dtype()), TypeError, "[", name,
              "] for integral input tensors, argument alpha must not be a floating point number");
  OpParams p;
  p.f0 = negate ? -alpha_f : alpha_f;
  if (!is_floating(result)) {
    // Read as an integer only for integer results (alpha is integral there, checked above):
    // converting a float alpha such as inf or -1e308 to int64 is undefined behaviour. Negation
    // wraps (-INT64_MIN), as the integer kernels' arithmetic does.
    const int64_t ai = item_int(alpha, name);
    p.i0 = negate ? static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(ai)) : ai;
  }
  return binary(BinaryOp::AddScaled, a, b, out, p, in_place);
}

Tensor add(const Tensor& a, const Tensor& b, const Tensor& alpha, const Tensor& out,
           bool in_place) {
  return add_scaled("add", a, b, alpha, false, out, in_place);
}

Tensor sub(const Tensor& a, const Tensor& b, const Tensor& alpha, const Tensor& out,
           bool in_place) {
  EMBER_CHECK(result_type({a, b}) != ScalarType::Bool, TypeError,
              "[sub] subtraction, the `-` operator, with two bool tensors is not supported; use "
              "`^` or logical_xor() instead");
  EMBER_CHECK(a.dtype() != ScalarType::Bool && b.dtype() != ScalarType::Bool, TypeError,
              "[sub] subtraction, the `-` operator, with a bool tensor is not supported; use `~` "
              "or logical_not() to invert a mask");
  return add_scaled("sub", a, b, alpha, true, out, in_place);
}

Tensor div(const Tensor& a, const Tensor& b, const std::string& rounding_mode, const Tensor& out,
           bool in_place) {
  if (rounding_mode.empty()) return binary(BinaryOp::Div, a, b, out, {}, in_place);
  if (rounding_mode == "trunc") return binary(BinaryOp::DivTrunc, a, b, out, {}, in_place);
  if (rounding_mode == "floor") return binary(BinaryOp::DivFloor, a, b, out, {}, in_place);
  throw ValueError(
      str("[div] expected rounding_mode to be one of None, 'trunc', or 'floor' but "
          "found '",
          rounding_mode, "'"));
}

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b, const Tensor& out) {
  EMBER_CHECK(cond.dtype() == ScalarType::Bool, TypeRuntimeError,
              "[where] expected condition to be a bool tensor, but got a tensor of dtype ",
              dtype_name(cond.dtype()));
  const ScalarType dt = result_type({a, b});
  IterConfig config;
  config.has_compute_dtype = true;
  config.compute_dtype = dt;
  config.cast_inputs = false;
  TensorIterator iter("where", config);
  iter.add_output(out).add_input(cond).add_input(to_dtype(a, dt)).add_input(to_dtype(b, dt));
  iter.build();
  iter.for_each(cpu_kernels().where[static_cast<int>(dt)]);
  return iter.output();
}

Tensor clamp(const Tensor& x, const Tensor& min, const Tensor& max, const Tensor& out,
             bool in_place) {
  EMBER_CHECK(min.defined() || max.defined(), RuntimeError,
              "[clamp] at least one of 'min' or 'max' must not be None");
  const bool scalar_bounds =
      (!min.defined() || min.is_wrapped_number()) && (!max.defined() || max.is_wrapped_number());
  if (!scalar_bounds) {
    Tensor result = x;
    if (min.defined()) result = binary(BinaryOp::Maximum, result, min);
    if (max.defined()) result = binary(BinaryOp::Minimum, result, max);
    if (in_place) {
      check_out_dtype(x, result.dtype(), "clamp_");
      return copy_(x, result);
    }
    return write_out(result, out, "clamp", {.inputs = {x, min, max}});
  }
  std::vector<Tensor> operands = {x};
  if (min.defined()) operands.push_back(min);
  if (max.defined()) operands.push_back(max);
  const ScalarType dt = result_type(operands);
  OpParams p;
  if (min.defined()) {
    p.f0 = item_double(min, "clamp");
    p.i0 =
        is_floating(min.dtype()) ? static_cast<int64_t>(std::ceil(p.f0)) : item_int(min, "clamp");
  }
  if (max.defined()) {
    p.f1 = item_double(max, "clamp");
    p.i1 =
        is_floating(max.dtype()) ? static_cast<int64_t>(std::floor(p.f1)) : item_int(max, "clamp");
  }
  const UnaryOp op = min.defined() && max.defined() ? UnaryOp::ClampBoth
                     : min.defined()                ? UnaryOp::ClampMin
                                                    : UnaryOp::ClampMax;
  const Tensor input = dt == x.dtype() ? x : to_dtype(x, dt);
  if (in_place) {
    EMBER_CHECK(dt == x.dtype(), RuntimeError, "[clamp_] result type ", dtype_name(dt),
                " can't be cast to the desired output type ", dtype_name(x.dtype()));
  }
  return unary(op, in_place ? x : input, out, p, in_place);
}

Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight, const Tensor& out,
            bool in_place) {
  EMBER_CHECK(start.dtype() == end.dtype(), TypeError, "[lerp] expected dtype ",
              dtype_name(start.dtype()), " for `end` but got dtype ", dtype_name(end.dtype()));
  EMBER_CHECK(is_floating(start.dtype()), TypeError, "[lerp] not supported for dtype ",
              dtype_name(start.dtype()));
  if (weight.is_wrapped_number()) {
    OpParams p;
    p.f0 = item_double(weight, "lerp");
    return binary(BinaryOp::Lerp, start, end, out, p, in_place);
  }
  EMBER_CHECK(weight.dtype() == start.dtype(), TypeError, "[lerp] expected dtype ",
              dtype_name(start.dtype()), " for `weight` but got dtype ",
              dtype_name(weight.dtype()));
  IterConfig config;
  TensorIterator iter("lerp", in_place_config(config, in_place));
  iter.add_output(in_place ? start : out).add_input(start).add_input(end).add_input(weight);
  iter.build();
  const ScalarType dt = iter.compute_dtype();
  iter.for_each(cpu_kernels().lerp_tensor[static_cast<int>(dt)]);
  if (in_place) start.bump_version();
  return iter.output();
}

Tensor round(const Tensor& x, int64_t decimals, const Tensor& out, bool in_place) {
  if (decimals == 0) return unary(UnaryOp::Round, x, out, {}, in_place);
  EMBER_CHECK(is_floating(x.dtype()), TypeError,
              "[round] decimals is only supported for floating-point tensors, got ",
              dtype_name(x.dtype()));
  OpParams p;
  p.i0 = decimals;
  // |decimals| in double: negating INT64_MIN is undefined (UBSan found it).
  p.f0 = std::pow(10.0, std::fabs(static_cast<double>(decimals)));
  return unary(UnaryOp::RoundDecimals, x, out, p, in_place);
}

Tensor nan_to_num(const Tensor& x, double nan, std::optional<double> posinf,
                  std::optional<double> neginf, const Tensor& out, bool in_place) {
  reject_complex(x.dtype(), "nan_to_num");
  // Integers have no nan or inf: torch returns the values unchanged.
  if (!is_floating(x.dtype())) {
    if (in_place) return x;
    if (!out.defined()) return clone(x);
    return write_out(x, out, "nan_to_num", {.dtype = OutDtype::kExact, .inputs = {x}});
  }
  double hi = 0, lo = 0;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, Half>) {
      hi = 65504.0;
    } else if constexpr (std::is_same_v<T, BFloat16>) {
      hi = 3.3895313892515355e38;
    } else if constexpr (std::is_floating_point_v<T>) {
      hi = static_cast<double>(std::numeric_limits<T>::max());
    }
  });
  lo = -hi;
  OpParams p;
  p.f0 = nan;
  p.f1 = posinf.value_or(hi);
  const double neg = neginf.value_or(lo);
  static_assert(sizeof(neg) == sizeof(p.i0));
  std::memcpy(&p.i0, &neg, sizeof(neg));
  return unary(UnaryOp::NanToNum, x, out, p, in_place);
}

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  EMBER_CHECK(a.dtype() == b.dtype(), TypeError,
              "[isclose] expected both inputs to have the "
              "same dtype, but got ",
              dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
  EMBER_CHECK(rtol >= 0 && atol >= 0, ValueError,
              "[isclose] rtol and atol must be "
              "non-negative, got rtol=",
              rtol, " and atol=", atol);
  Tensor close = compare(CompareOp::Eq, a, b);
  if (!is_floating(a.dtype()) && !is_complex(a.dtype())) return close;
  if (equal_nan) {
    close = compare(CompareOp::LogicalOr, close,
                    compare(CompareOp::LogicalAnd, predicate(PredicateOp::IsNan, a),
                            predicate(PredicateOp::IsNan, b)));
  }
  // |a - b| <= atol + rtol * |b|, computed in a's dtype (complex: with the complex abs, in
  // its real dtype, as torch); infinities only equal themselves.
  const ScalarType real_type = to_real_type(a.dtype());
  const Tensor diff = unary(UnaryOp::Abs, binary(BinaryOp::Sub, a, b));
  const Tensor tol =
      binary(BinaryOp::Add, Tensor::scalar(atol, real_type),
             binary(BinaryOp::Mul, Tensor::scalar(rtol, real_type), unary(UnaryOp::Abs, b)));
  const Tensor within = compare(CompareOp::LogicalAnd, compare(CompareOp::Le, diff, tol),
                                predicate(PredicateOp::IsFinite, diff));
  return compare(CompareOp::LogicalOr, close, within);
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  const Tensor all_close = all(isclose(a, b, rtol, atol, equal_nan), {}, false);
  return *all_close.data<bool>();
}

bool equal(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes()) return false;
  return *all(compare(CompareOp::Eq, a, b), {}, false).data<bool>();
}

}  // namespace ember
