// Ops composed from other ops (src/ops_composite.cpp): softmax/log_softmax, addcmul/addcdiv,
// float_power, heaviside and diff, with torch's in-place forms. Conversion only.
#include "python_api.h"

namespace ember::py {
namespace {

using SoftmaxLike = Tensor (*)(const Tensor&, int64_t, std::optional<ScalarType>);
using AddcLike = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                            const Tensor&, bool);

Tensor out_arg(nb::handle out, const char* op) {
  EMBER_CHECK(out.is_none() || is_tensor(out), TypeError, "[", op,
              "] argument 'out' must be a Tensor, not ", nb::type_name(out.type()).c_str());
  return out_argument(out, op);
}

// value= must be a Python number (torch's Scalar), not a tensor.
Tensor value_arg(nb::handle value, const char* op) {
  EMBER_CHECK(is_python_scalar(value), TypeError, "[", op,
              "] argument 'value' must be a Number, not ", nb::type_name(value.type()).c_str());
  return to_tensor(value, op, "value");
}

void def_softmax(nb::module_& m, TensorClass& cls, const char* name, SoftmaxLike fn) {
  m.def(
      name,
      [fn, name](nb::handle input, int64_t dim, nb::handle dtype, nb::handle out) {
        const Tensor r = fn(to_tensor(input, name), dim, to_optional_dtype(dtype, name));
        return result_or_out(
            write_out(r, out_argument(out, name), name, {.dtype = OutDtype::kExact}), out);
      },
      nb::arg("input"), nb::arg("dim"), nb::kw_only(), nb::arg("dtype") = nb::none(),
      nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, int64_t dim, nb::handle dtype) {
        return wrap(fn(self, dim, to_optional_dtype(dtype, name)));
      },
      nb::arg("dim"), nb::arg("dtype") = nb::none());
}

void def_addc(nb::module_& m, TensorClass& cls, const char* name, const char* name_, AddcLike fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle t1, nb::handle t2, nb::handle value, nb::handle out) {
        return result_or_out(
            fn(to_tensor(input, name), to_tensor(t1, name, "tensor1"),
               to_tensor(t2, name, "tensor2"), value_arg(value, name), out_arg(out, name), false),
            out);
      },
      nb::arg("input"), nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1,
      nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, nb::handle t1, nb::handle t2, nb::handle value) {
        return wrap(fn(self, to_tensor(t1, name, "tensor1"), to_tensor(t2, name, "tensor2"),
                       value_arg(value, name), {}, false));
      },
      nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1);
  cls.def(
      name_,
      [fn, name_](nb::handle self, nb::handle t1, nb::handle t2, nb::handle value) {
        fn(unwrap(self), to_tensor(t1, name_, "tensor1"), to_tensor(t2, name_, "tensor2"),
           value_arg(value, name_), {}, true);
        return nb::borrow(self);
      },
      nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1);
}

// values= must be a tensor (torch's heaviside takes no Python numbers).
Tensor values_arg(nb::handle values, const char* op) {
  EMBER_CHECK(is_tensor(values), TypeError, "[", op, "] argument 'values' must be a Tensor, not ",
              nb::type_name(values.type()).c_str());
  return unwrap(values);
}

}  // namespace

void init_composite(nb::module_& m, TensorClass& cls) {
  def_softmax(m, cls, "softmax", &softmax);
  def_softmax(m, cls, "log_softmax", &log_softmax);
  def_addc(m, cls, "addcmul", "addcmul_", &addcmul);
  def_addc(m, cls, "addcdiv", "addcdiv_", &addcdiv);

  m.def(
      "float_power",
      [](nb::handle input, nb::handle exponent, nb::handle out) {
        return result_or_out(float_power(to_tensor(input, "float_power"),
                                         to_tensor(exponent, "float_power", "exponent"),
                                         out_arg(out, "float_power")),
                             out);
      },
      nb::arg("input"), nb::arg("exponent"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "float_power",
      [](const Tensor& self, nb::handle exponent) {
        return wrap(float_power(self, to_tensor(exponent, "float_power", "exponent")));
      },
      nb::arg("exponent"));
  cls.def(
      "float_power_",
      [](nb::handle self, nb::handle exponent) {
        float_power(unwrap(self), to_tensor(exponent, "float_power_", "exponent"), {}, true);
        return nb::borrow(self);
      },
      nb::arg("exponent"));

  m.def(
      "heaviside",
      [](nb::handle input, nb::handle values, nb::handle out) {
        return result_or_out(heaviside(to_tensor(input, "heaviside"),
                                       values_arg(values, "heaviside"), out_arg(out, "heaviside")),
                             out);
      },
      nb::arg("input"), nb::arg("values"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "heaviside",
      [](const Tensor& self, nb::handle values) {
        return wrap(heaviside(self, values_arg(values, "heaviside")));
      },
      nb::arg("values"));
  cls.def(
      "heaviside_",
      [](nb::handle self, nb::handle values) {
        heaviside(unwrap(self), values_arg(values, "heaviside_"), {}, true);
        return nb::borrow(self);
      },
      nb::arg("values"));

  auto diff_fn = [](const Tensor& x, int64_t n, int64_t dim, nb::handle prepend,
                    nb::handle append) {
    return wrap(diff(x, n, dim, to_optional_tensor(prepend, "diff", "prepend"),
                     to_optional_tensor(append, "diff", "append")));
  };
  m.def(
      "diff",
      [diff_fn](nb::handle input, int64_t n, int64_t dim, nb::handle prepend, nb::handle append,
                nb::handle out) {
        const nb::object r = diff_fn(to_tensor(input, "diff"), n, dim, prepend, append);
        return result_or_out(write_out(unwrap(r), out_argument(out, "diff"), "diff"), out);
      },
      nb::arg("input"), nb::arg("n") = 1, nb::arg("dim") = -1, nb::arg("prepend") = nb::none(),
      nb::arg("append") = nb::none(), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def("diff", diff_fn, nb::arg("n") = 1, nb::arg("dim") = -1, nb::arg("prepend") = nb::none(),
          nb::arg("append") = nb::none());
}

}  // namespace ember::py
