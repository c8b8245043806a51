// Ops composed from existing ops: softmax/log_softmax (max-shifted, so no overflow),
// addcmul/addcdiv, diff, heaviside and float_power.
#include <cmath>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"

namespace ember {
namespace {

Tensor softmax_impl(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype, bool log,
                    const char* op) {
  const ScalarType out_dt = dtype.value_or(x.dtype());
  EMBER_CHECK(is_floating(out_dt), NotImplementedError, "[", op,
              "] expected a floating point input (or a floating dtype=), got ", dtype_name(out_dt));
  int64_t d = wrap_dim(dim, x.dim(), op);
  if (x.numel() == 0) return empty_like(x, out_dt, op);
  // float16/bfloat16 compute in float32 and round once at the end.
  const bool reduced = out_dt == ScalarType::Float16 || out_dt == ScalarType::BFloat16;
  Tensor xf = to_dtype(x, reduced ? ScalarType::Float32 : out_dt);
  const bool zero_dim = xf.dim() == 0;
  if (zero_dim) xf = unsqueeze(xf, 0), d = 0;
  const Dims dims{d};
  Tensor shifted = binary(BinaryOp::Sub, xf, amax(xf, dims, true));
  Tensor result;
  if (log) {
    Tensor lse = sum(unary(UnaryOp::Exp, shifted), dims, true);
    unary(UnaryOp::Log, lse, {}, {}, true);
    result = binary(BinaryOp::Sub, shifted, lse, {}, {}, true);
  } else {
    unary(UnaryOp::Exp, shifted, {}, {}, true);
    result = binary(BinaryOp::Div, shifted, sum(shifted, dims, true), {}, {}, true);
  }
  if (zero_dim) result = squeeze(result, Dims{0});
  return reduced ? to_dtype(result, out_dt) : result;
}

Tensor addc(bool is_div, const Tensor& input, const Tensor& t1, const Tensor& t2,
            const Tensor& value, const Tensor& out, bool in_place) {
  const char* op =
      is_div ? (in_place ? "addcdiv_" : "addcdiv") : (in_place ? "addcmul_" : "addcmul");
  EMBER_CHECK(!is_div || !(is_integral(t1.dtype(), true) && is_integral(t2.dtype(), true)),
              RuntimeError, "[", op, "] integer division with addcdiv is not supported (tensor1 ",
              dtype_name(t1.dtype()), ", tensor2 ", dtype_name(t2.dtype()),
              "); use (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype)");
  // Check the shapes here so a mismatch is reported under this op's name.
  const Shape shape =
      broadcast_shapes(broadcast_shapes(input.sizes(), t1.sizes(), op), t2.sizes(), op);
  EMBER_CHECK(!in_place || shape == input.sizes(), RuntimeError, "[", op, "] output with shape ",
              input.sizes(), " doesn't match the broadcast shape ", shape);
  // Compute the product in the three-way promoted dtype, as torch's fused kernel does.
  const ScalarType dt = result_type({input, t1, t2});
  const Tensor a = t1.dtype() == dt ? t1 : to_dtype(t1, dt);
  const Tensor b = t2.dtype() == dt ? t2 : to_dtype(t2, dt);
  Tensor prod = binary(is_div ? BinaryOp::Div : BinaryOp::Mul, a, b);
  Tensor v = value;
  // torch converts value to the integral compute type (truncating) instead of rejecting it.
  if (!is_floating(dt) && is_floating(value.dtype())) {
    v = Tensor::scalar_int(static_cast<int64_t>(std::trunc(item_double(value, op))),
                           ScalarType::Int64, true);
  }
  return add(input, prod, v, out, in_place);
}

}  // namespace

Tensor softmax(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl(x, dim, dtype, false, "softmax");
}

Tensor log_softmax(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype) {
  return softmax_impl(x, dim, dtype, true, "log_softmax");
}

Tensor addcmul(const Tensor& input, const Tensor& t1, const Tensor& t2, const Tensor& value,
               const Tensor& out, bool in_place) {
  return addc(false, input, t1, t2, value, out, in_place);
}

Tensor addcdiv(const Tensor& input, const Tensor& t1, const Tensor& t2, const Tensor& value,
               const Tensor& out, bool in_place) {
  return addc(true, input, t1, t2, value, out, in_place);
}

Tensor diff(const Tensor& x, int64_t n, int64_t dim, const Tensor& prepend, const Tensor& append) {
  EMBER_CHECK(x.dim() > 0, RuntimeError, "[diff] expects input to be at least one-dimensional");
  EMBER_CHECK(n >= 0, RuntimeError, "[diff] order must be non-negative but got ", n);
  const int64_t d = wrap_dim(dim, x.dim(), "diff");
  std::vector<Tensor> parts;
  for (const Tensor* t : {&prepend, &x, &append}) {
    if (!t->defined()) continue;
    EMBER_CHECK(t->dim() == x.dim(), RuntimeError,
                "[diff] expects prepend or append to be the same dimension as input (", x.dim(),
                "), got shape ", t->sizes());
    parts.push_back(*t);
  }
  if (n == 0) {  // torch ignores prepend/append here; a fresh contiguous copy of the input
    Tensor r = Tensor::empty(x.sizes(), x.dtype());
    copy_(r, x);
    return r;
  }
  Tensor cur = parts.size() == 1 ? x : cat(parts, d);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t len = cur.size(d);
    if (len == 0) break;
    const Tensor hi = narrow(cur, d, 1, len - 1);
    const Tensor lo = narrow(cur, d, 0, len - 1);
    // bool has no subtraction: torch's diff uses logical_xor there.
    cur = cur.dtype() == ScalarType::Bool ? compare(CompareOp::LogicalXor, hi, lo)
                                          : binary(BinaryOp::Sub, hi, lo);
  }
  return cur;
}

Tensor nansum(const Tensor& x, const Dims& dims, bool keepdim, std::optional<ScalarType> dtype,
              const Tensor& out) {
  reduction_mask(x, dims, "nansum");  // reports bad dims under this op's name
  // torch's CPU nansum refuses complex too (a RuntimeError).
  EMBER_CHECK(!is_complex(x.dtype()), RuntimeError,
              "[nansum] nansum does not support complex inputs, got ", dtype_name(x.dtype()));
  if (!is_floating(x.dtype())) return sum(x, dims, keepdim, dtype, out);
  return nan_sum(x, dims, keepdim, dtype, out);
}

Tensor nanmean(const Tensor& x, const Dims& dims, bool keepdim, std::optional<ScalarType> dtype,
               const Tensor& out) {
  // torch checks the input itself, even when dtype= names a float type.
  EMBER_CHECK(is_floating(x.dtype()), RuntimeError,
              "[nanmean] expected input to have floating point dtype but got ",
              dtype_name(x.dtype()));
  const ScalarType dt = dtype.value_or(x.dtype());
  EMBER_CHECK(is_floating(dt), RuntimeError, "[nanmean] expected a floating point dtype=, got ",
              dtype_name(dt));
  return nan_mean(x, dims, keepdim, dt, out);
}

Tensor heaviside(const Tensor& x, const Tensor& values, const Tensor& out, bool in_place) {
  const char* op = in_place ? "heaviside_" : "heaviside";
  EMBER_CHECK(x.dtype() == values.dtype(), RuntimeError, "[", op,
              "] is not implemented for tensors with different dtypes (input ",
              dtype_name(x.dtype()), ", values ", dtype_name(values.dtype()), ")");
  return binary(BinaryOp::Heaviside, x, values, out, {}, in_place);
}

Tensor float_power(const Tensor& x, const Tensor& exponent, const Tensor& out, bool in_place) {
  EMBER_CHECK(!in_place || x.dtype() == ScalarType::Float64, RuntimeError,
              "[float_power_] the base given to float_power_ has dtype ", dtype_name(x.dtype()),
              " but the operation's result requires dtype float64");
  EMBER_CHECK(!out.defined() || out.dtype() == ScalarType::Float64, RuntimeError,
              "[float_power] the output given to float_power has dtype ", dtype_name(out.dtype()),
              " but the operation's result requires dtype float64");
  reject_complex(x.dtype(), "float_power");
  reject_complex(exponent.dtype(), "float_power");
  const auto as_f64 = [](const Tensor& t) {
    return t.dtype() == ScalarType::Float64 ? t : to_dtype(t, ScalarType::Float64);
  };
  return binary(BinaryOp::Pow, as_f64(x), as_f64(exponent), out, {}, in_place);
}

}  // namespace ember
