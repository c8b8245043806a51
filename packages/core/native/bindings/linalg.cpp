// Matrix products: ember.matmul/mm/bmm/mv/dot/vdot/outer/ger/addmm/addmv/baddbmm/tensordot/
// einsum, their Tensor methods, the in-place add*_ forms and the @ operator.
#include "python_api.h"

namespace ember::py {
namespace {

// Products take tensors only (torch raises TypeError for Python numbers here).
Tensor tensor_arg(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

// beta/alpha: a Python number (or a one-element tensor), as torch's Scalar.
double scalar_arg(nb::handle h, const char* op, const char* arg) {
  if (is_tensor(h) && unwrap(h).numel() == 1) return item_double(unwrap(h), op);
  EMBER_CHECK(PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr()), TypeError, "[", op, "] argument '",
              arg, "' must be a number, not ", nb::type_name(h.type()).c_str());
  const double v = PyFloat_AsDouble(h.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw ValueError(str("[", op, "] argument '", arg, "' is too large for a float"));
  }
  return v;
}

Tensor out_arg(nb::handle out, const char* op) {
  if (out.is_none()) return Tensor();
  return tensor_arg(out, op, "out");
}

using PairOp = Tensor (*)(const Tensor&, const Tensor&, const Tensor&);
using AddOp = Tensor (*)(const Tensor&, const Tensor&, const Tensor&, double, double,
                         const Tensor&);
using AddInPlaceOp = const Tensor& (*)(const Tensor&, const Tensor&, const Tensor&, double, double);

// ember.name(input, <arg>, *, out=None) and Tensor.name(<method_arg>).
void def_pair(nb::module_& m, TensorClass& cls, const char* name, PairOp fn, const char* arg,
              const char* method_arg) {
  m.def(
      name,
      [fn, name, arg](nb::handle input, nb::handle other, nb::handle out) {
        return result_or_out(
            fn(tensor_arg(input, name, "input"), tensor_arg(other, name, arg), out_arg(out, name)),
            out);
      },
      nb::arg("input").none(), nb::arg(arg).none(), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name, method_arg](const Tensor& self, nb::handle other) {
        return wrap(fn(self, tensor_arg(other, name, method_arg), {}));
      },
      nb::arg(method_arg).none());
}

// ember.name(input, a1, a2, *, beta=1, alpha=1, out=None), Tensor.name and Tensor.name_.
void def_add(nb::module_& m, TensorClass& cls, const char* name, const char* name_, AddOp fn,
             AddInPlaceOp fn_, const char* arg1, const char* arg2) {
  m.def(
      name,
      [fn, name, arg1, arg2](nb::handle input, nb::handle x1, nb::handle x2, nb::handle beta,
                             nb::handle alpha, nb::handle out) {
        return result_or_out(fn(tensor_arg(input, name, "input"), tensor_arg(x1, name, arg1),
                                tensor_arg(x2, name, arg2), scalar_arg(beta, name, "beta"),
                                scalar_arg(alpha, name, "alpha"), out_arg(out, name)),
                             out);
      },
      nb::arg("input").none(), nb::arg(arg1).none(), nb::arg(arg2).none(), nb::kw_only(),
      nb::arg("beta").none() = 1, nb::arg("alpha").none() = 1, nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name, arg1, arg2](const Tensor& self, nb::handle x1, nb::handle x2, nb::handle beta,
                             nb::handle alpha) {
        return wrap(fn(self, tensor_arg(x1, name, arg1), tensor_arg(x2, name, arg2),
                       scalar_arg(beta, name, "beta"), scalar_arg(alpha, name, "alpha"), {}));
      },
      nb::arg(arg1).none(), nb::arg(arg2).none(), nb::kw_only(), nb::arg("beta").none() = 1,
      nb::arg("alpha").none() = 1);
  cls.def(
      name_,
      [fn_, name_, arg1, arg2](nb::handle self, nb::handle x1, nb::handle x2, nb::handle beta,
                               nb::handle alpha) {
        fn_(unwrap(self), tensor_arg(x1, name_, arg1), tensor_arg(x2, name_, arg2),
            scalar_arg(beta, name_, "beta"), scalar_arg(alpha, name_, "alpha"));
        return nb::borrow(self);
      },
      nb::arg(arg1).none(), nb::arg(arg2).none(), nb::kw_only(), nb::arg("beta").none() = 1,
      nb::arg("alpha").none() = 1);
}

Tensor tensordot_arg(const Tensor& a, const Tensor& b, nb::handle dims, const Tensor& out) {
  if (PyIndex_Check(dims.ptr()) || (is_tensor(dims) && unwrap(dims).dim() == 0)) {
    return tensordot_n(a, b, to_int_list(dims, "tensordot", "dims")[0], out);
  }
  EMBER_CHECK(PySequence_Check(dims.ptr()) && nb::len(dims) == 2, TypeError,
              "[tensordot] 'dims' must be an int or a pair of dim lists, got ",
              nb::str(dims).c_str());
  return tensordot(a, b, to_int_list(dims[0], "tensordot", "dims"),
                   to_int_list(dims[1], "tensordot", "dims"), out);
}

}  // namespace

void init_linalg(nb::module_& m, TensorClass& cls) {
  def_pair(m, cls, "matmul", &matmul, "other", "other");
  def_pair(m, cls, "mm", &mm, "mat2", "mat2");
  def_pair(m, cls, "bmm", &bmm, "mat2", "mat2");
  def_pair(m, cls, "mv", &mv, "vec", "vec");
  def_pair(m, cls, "dot", &dot, "tensor", "tensor");
  def_pair(m, cls, "vdot", &vdot, "other", "other");
  def_pair(m, cls, "outer", &outer, "vec2", "vec2");
  def_pair(m, cls, "ger", &outer, "vec2", "vec2");
  def_add(m, cls, "addmm", "addmm_", &addmm, &addmm_, "mat1", "mat2");
  def_add(m, cls, "addmv", "addmv_", &addmv, &addmv_, "mat", "vec");
  def_add(m, cls, "baddbmm", "baddbmm_", &baddbmm, &baddbmm_, "batch1", "batch2");

  // a @ b: a non-tensor operand gives NotImplemented, so Python raises its own TypeError.
  cls.def(
      "__matmul__",
      [](nb::handle self, nb::handle other) -> nb::object {
        if (!is_tensor(other)) return nb::borrow(Py_NotImplemented);
        return wrap(matmul(unwrap(self), unwrap(other)));
      },
      nb::arg("other").none());
  cls.def(
      "__rmatmul__",
      [](nb::handle self, nb::handle other) -> nb::object {
        if (!is_tensor(other)) return nb::borrow(Py_NotImplemented);
        return wrap(matmul(unwrap(other), unwrap(self)));
      },
      nb::arg("other").none());

  m.def(
      "tensordot",
      [](nb::handle a, nb::handle b, nb::handle dims, nb::handle out) {
        return result_or_out(
            tensordot_arg(tensor_arg(a, "tensordot", "a"), tensor_arg(b, "tensordot", "b"), dims,
                          out_arg(out, "tensordot")),
            out);
      },
      nb::arg("a").none(), nb::arg("b").none(), nb::arg("dims").none() = 2,
      nb::arg("out") = nb::none());

  // einsum(equation, *operands) or einsum(equation, [operands]).
  m.def(
      "einsum",
      [](nb::handle equation, nb::args args) {
        EMBER_CHECK(PyUnicode_Check(equation.ptr()), TypeError,
                    "[einsum] the equation must be a str, got ",
                    nb::type_name(equation.type()).c_str());
        nb::handle seq = args;
        if (args.size() == 1 && !is_tensor(args[0]) && PySequence_Check(args[0].ptr())) {
          seq = args[0];
        }
        std::vector<Tensor> operands;
        for (nb::handle item : nb::iter(seq)) {
          operands.push_back(tensor_arg(item, "einsum", "operands"));
        }
        return wrap(einsum(nb::cast<std::string>(equation), operands));
      },
      nb::arg("equation").none(), nb::arg("operands"));
}

}  // namespace ember::py
