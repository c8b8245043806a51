// Complex-only ops: the real/imag views, view_as_real/view_as_complex, abs, angle, and conj
// (a lazy view with the conj bit), resolve_conj and conj_physical.
#include <cmath>
#include <complex>
#include <numbers>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"

namespace ember {
namespace {

// A view of x's storage with another dtype and geometry (offset and strides in its elements).
Tensor reinterpret(const Tensor& x, ScalarType dtype, Shape sizes, Shape strides, int64_t offset) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = x.storage();
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor part_view(const Tensor& x, int64_t part) {
  Shape strides = x.strides();
  for (int64_t& s : strides) s *= 2;
  return reinterpret(x, to_real_type(x.dtype()), x.sizes(), strides, x.offset() * 2 + part);
}

// out(real) = f(in(complex)) over an iterator; f works in std::complex<R>.
template <typename R, typename F>
void complex_to_real_loop(char** data, const int64_t* strides, int64_t n) {
  char* o = data[0];
  const char* a = data[1];
  for (int64_t i = 0; i < n; ++i, o += strides[0], a += strides[1]) {
    *reinterpret_cast<R*>(o) = F{}(*reinterpret_cast<const std::complex<R>*>(a));
  }
}
struct AbsOf {
  template <typename R>
  R operator()(std::complex<R> z) const {
    return std::abs(z);
  }
};
struct ArgOf {
  template <typename R>
  R operator()(std::complex<R> z) const {
    return std::arg(z);
  }
};

template <typename F>
Tensor complex_to_real(const char* op, const Tensor& x, const Tensor& out) {
  const ScalarType real_type = to_real_type(x.dtype());
  IterConfig config;
  config.promote_inputs = false;
  config.has_output_dtype = true;
  config.output_dtype = real_type;
  TensorIterator iter(op, config);
  iter.add_output(out).add_input(x);
  iter.build();
  const Loop1d loop = real_type == ScalarType::Float32
                          ? [](char** d, const int64_t* s, int64_t n,
                               const void*) { complex_to_real_loop<float, F>(d, s, n); }
                          : [](char** d, const int64_t* s, int64_t n, const void*) {
                              complex_to_real_loop<double, F>(d, s, n);
                            };
  iter.for_each(loop);
  return iter.output();
}

}  // namespace

std::complex<double> item_complex(const Tensor& t, const char* op) {
  EMBER_CHECK(t.numel() == 1, RuntimeError, "[", op, "] a Tensor with ", t.numel(),
              " elements cannot be converted to a Python scalar");
  if (t.dtype() == ScalarType::ComplexFloat) return *t.data<std::complex<float>>();
  if (t.dtype() == ScalarType::ComplexDouble) return *t.data<std::complex<double>>();
  return {item_double(t, op), 0.0};
}

Tensor real(const Tensor& x) { return is_complex(x.dtype()) ? part_view(x, 0) : x; }

Tensor imag(const Tensor& x) {
  EMBER_CHECK(is_complex(x.dtype()), RuntimeError,
              "[imag] imag is not implemented for tensors with non-complex dtypes (got ",
              dtype_name(x.dtype()), ")");
  // torch returns a view with a negative bit here; ember has no such bit, so the imaginary
  // part of a conjugate view is a new tensor holding -imag of the storage.
  if (x.is_conj()) return unary(UnaryOp::Neg, part_view(x, 1));
  return part_view(x, 1);
}

void negate_imag_(const Tensor& x) {
  if (!is_complex(x.dtype()) || x.numel() == 0) return;
  unary(UnaryOp::Neg, part_view(x, 1), Tensor(), {}, true);
  x.bump_version();
}

Tensor view_as_real(const Tensor& x) {
  EMBER_CHECK(is_complex(x.dtype()), RuntimeError,
              "[view_as_real] view_as_real is only supported for complex tensors, got ",
              dtype_name(x.dtype()));
  EMBER_CHECK(!x.is_conj(), RuntimeError,
              "[view_as_real] view_as_real doesn't work on unresolved conjugated tensors. To "
              "resolve the conjugate tensor so you can view it as real, use self.resolve_conj(); "
              "the result will not alias the original.");
  Shape sizes = x.sizes(), strides = x.strides();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return reinterpret(x, to_real_type(x.dtype()), sizes, strides, x.offset() * 2);
}

Tensor view_as_complex(const Tensor& x) {
  EMBER_CHECK(x.dtype() == ScalarType::Float32 || x.dtype() == ScalarType::Float64, RuntimeError,
              "[view_as_complex] view_as_complex is only supported for float32 and float64 "
              "tensors, but got a tensor of scalar type: ",
              dtype_name(x.dtype()));
  EMBER_CHECK(x.dim() > 0 && x.sizes().back() == 2, RuntimeError,
              "[view_as_complex] Tensor must have a last dimension of size 2, got shape ",
              x.sizes());
  EMBER_CHECK(x.strides().back() == 1, RuntimeError,
              "[view_as_complex] Tensor must have a last dimension with stride 1, got strides ",
              x.strides());
  Shape sizes(x.sizes().begin(), x.sizes().end() - 1);
  Shape strides(x.strides().begin(), x.strides().end() - 1);
  for (int64_t& s : strides) {
    EMBER_CHECK(s % 2 == 0, RuntimeError,
                "[view_as_complex] Tensor must have a stride divisible by 2 for all but last "
                "dimension, got strides ",
                x.strides());
    s /= 2;
  }
  EMBER_CHECK(x.offset() % 2 == 0, RuntimeError,
              "[view_as_complex] Tensor must have a storage_offset divisible by 2, got ",
              x.offset());
  return reinterpret(x, to_complex_type(x.dtype()), sizes, strides, x.offset() / 2);
}

Tensor complex_abs(const Tensor& x, const Tensor& out) {
  return complex_to_real<AbsOf>("abs", x, out);
}

Tensor angle(const Tensor& x, const Tensor& out) {
  if (is_complex(x.dtype())) return complex_to_real<ArgOf>("angle", x, out);
  // Real input: pi for negative values, 0 otherwise, NaN kept (torch's angle); ints -> float.
  const Tensor xf = is_floating(x.dtype()) ? x : to_dtype(x, default_dtype());
  const Tensor zero = Tensor::scalar(0.0, xf.dtype());
  const Tensor pi = Tensor::scalar(std::numbers::pi, xf.dtype());
  const Tensor signed_angle = where(compare(CompareOp::Lt, xf, zero), pi, zero);
  const Tensor result = where(predicate(PredicateOp::IsNan, xf), xf, signed_angle);
  return write_out(result, out, "angle", {.inputs = {x}});
}

Tensor conj(const Tensor& x) {
  if (!is_complex(x.dtype())) return x;
  Tensor view = alias(x);
  view.impl().set_conj(!x.is_conj());
  return view;
}

Tensor resolve_conj(const Tensor& x) {
  // clone goes through copy_, which conjugates between a conj source and a plain destination.
  return x.is_conj() ? clone(x) : x;
}

Tensor conj_physical(const Tensor& x, const Tensor& out) {
  if (!is_complex(x.dtype())) {
    if (!out.defined()) return clone(x);
    return write_out(x, out, "conj_physical", {.dtype = OutDtype::kExact, .inputs = {x}});
  }
  Tensor result = out.defined() ? out : Tensor::empty(x.sizes(), x.dtype());
  if (out.defined()) check_out(out, x.dtype(), "conj_physical", {.dtype = OutDtype::kExact});
  EMBER_CHECK(!result.is_conj(), RuntimeError,
              "[conj_physical] out= must not be a conjugate view; resolve it first");
  resize_out(result, x.sizes(), "conj_physical");
  if (!result.same_impl(x)) copy_(result, x);  // copy_ resolves a conj-flagged x
  negate_imag_(result);
  return result;
}

Tensor complex_from_parts(const Tensor& re, const Tensor& im, const Tensor& out) {
  EMBER_CHECK((re.dtype() == ScalarType::Float32 || re.dtype() == ScalarType::Float64) &&
                  re.dtype() == im.dtype(),
              TypeError,
              "[complex] expected both inputs to be float32 or float64 of the same "
              "dtype, got ",
              dtype_name(re.dtype()), " and ", dtype_name(im.dtype()));
  const Shape shape = broadcast_shapes(re.sizes(), im.sizes(), "complex");
  Tensor result = out.defined() ? out : Tensor::empty(shape, to_complex_type(re.dtype()));
  if (out.defined()) {
    check_out(out, to_complex_type(re.dtype()), "complex",
              {.dtype = OutDtype::kExact, .inputs = {re, im}});
    resize_out(out, shape, "complex");
  }
  copy_(part_view(result, 0), re);
  copy_(part_view(result, 1), im);
  result.bump_version();
  return result;
}

}  // namespace ember
