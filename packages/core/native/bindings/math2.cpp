// ember.softmax/log_softmax, addcmul/addcdiv (+ in-place), logaddexp/logaddexp2 and diff.
#include "python_api.h"

namespace ember::py {
namespace {

using SoftmaxLike = Tensor (*)(const Tensor&, int64_t, std::optional<ScalarType>);
using AddcLike = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                            const Tensor&, bool);

Tensor out_arg(nb::handle out, const char* op) {
  EMBER_CHECK(out.is_none() || is_tensor(out), TypeError, "[", op,
              "] argument 'out' must be a Tensor, not ", nb::type_name(out.type()).c_str());
  return to_optional_tensor(out, op, "out");
}

// value= must be a Python number (torch's Scalar), not a tensor.
Tensor value_arg(nb::handle value, const char* op) {
  EMBER_CHECK(is_python_scalar(value), TypeError, "[", op,
              "] argument 'value' must be a Number, not ", nb::type_name(value.type()).c_str());
  return to_tensor(value, op, "value");
}

void def_softmax(nb::module_& m, TensorClass& cls, const char* name, SoftmaxLike fn) {
  m.def(name, [fn, name](nb::handle input, int64_t dim, nb::handle dtype) {
    return wrap(fn(to_tensor(input, name), dim, to_optional_dtype(dtype, name)));
  }, nb::arg("input"), nb::arg("dim"), nb::kw_only(), nb::arg("dtype") = nb::none());
  cls.def(name, [fn, name](const Tensor& self, int64_t dim, nb::handle dtype) {
    return wrap(fn(self, dim, to_optional_dtype(dtype, name)));
  }, nb::arg("dim"), nb::arg("dtype") = nb::none());
}

void def_addc(nb::module_& m, TensorClass& cls, const char* name, const char* name_,
              AddcLike fn) {
  m.def(name, [fn, name](nb::handle input, nb::handle t1, nb::handle t2, nb::handle value,
                         nb::handle out) {
    return result_or_out(fn(to_tensor(input, name), to_tensor(t1, name, "tensor1"),
                            to_tensor(t2, name, "tensor2"), value_arg(value, name),
                            out_arg(out, name), false),
                         out);
  }, nb::arg("input"), nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(),
     nb::arg("value") = 1, nb::arg("out") = nb::none());
  cls.def(name, [fn, name](const Tensor& self, nb::handle t1, nb::handle t2, nb::handle value) {
    return wrap(fn(self, to_tensor(t1, name, "tensor1"), to_tensor(t2, name, "tensor2"),
                   value_arg(value, name), {}, false));
  }, nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1);
  cls.def(name_, [fn, name_](nb::handle self, nb::handle t1, nb::handle t2, nb::handle value) {
    fn(unwrap(self), to_tensor(t1, name_, "tensor1"), to_tensor(t2, name_, "tensor2"),
       value_arg(value, name_), {}, true);
    return nb::borrow(self);
  }, nb::arg("tensor1"), nb::arg("tensor2"), nb::kw_only(), nb::arg("value") = 1);
}

// Binary ops of the kernel table that only this file binds (torch has no in-place form).
void def_binary(nb::module_& m, TensorClass& cls, const char* name, BinaryOp op) {
  m.def(name, [op, name](nb::handle input, nb::handle other, nb::handle out) {
    return result_or_out(binary(op, to_tensor(input, name), to_tensor(other, name, "other"),
                                out_arg(out, name)),
                         out);
  }, nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(name, [op, name](const Tensor& self, nb::handle other) {
    return wrap(binary(op, self, to_tensor(other, name, "other")));
  }, nb::arg("other"));
}

}  // namespace

void init_math2(nb::module_& m, TensorClass& cls) {
  def_softmax(m, cls, "softmax", &softmax);
  def_softmax(m, cls, "log_softmax", &log_softmax);
  def_addc(m, cls, "addcmul", "addcmul_", &addcmul);
  def_addc(m, cls, "addcdiv", "addcdiv_", &addcdiv);
  def_binary(m, cls, "logaddexp", BinaryOp::Logaddexp);
  def_binary(m, cls, "logaddexp2", BinaryOp::Logaddexp2);

  auto diff_fn = [](const Tensor& x, int64_t n, int64_t dim, nb::handle prepend,
                    nb::handle append) {
    return wrap(diff(x, n, dim, to_optional_tensor(prepend, "diff", "prepend"),
                     to_optional_tensor(append, "diff", "append")));
  };
  m.def("diff", [diff_fn](nb::handle input, int64_t n, int64_t dim, nb::handle prepend,
                          nb::handle append) {
    return diff_fn(to_tensor(input, "diff"), n, dim, prepend, append);
  }, nb::arg("input"), nb::arg("n") = 1, nb::arg("dim") = -1, nb::arg("prepend") = nb::none(),
     nb::arg("append") = nb::none());
  cls.def("diff", diff_fn, nb::arg("n") = 1, nb::arg("dim") = -1,
          nb::arg("prepend") = nb::none(), nb::arg("append") = nb::none());
}

}  // namespace ember::py
