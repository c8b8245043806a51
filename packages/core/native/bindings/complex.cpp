// Complex-dtype ops: ember.real/imag (and the Tensor.real/.imag views), view_as_real,
// view_as_complex, angle, conj (a lazy view), is_conj, resolve_conj, conj_physical and
// ember.complex. How ops see conjugate views is bindings/conj_dispatch.cpp's job.
#include "python_api.h"

namespace ember::py {
namespace {

// The tensor behind `input` of an op that may return that very Python object.
const Tensor& tensor_input(nb::handle input, const char* op) {
  EMBER_CHECK(is_tensor(input), TypeError, "[", op, "] expected a Tensor as input, got ",
              nb::type_name(input.type()).c_str());
  return unwrap(input);
}

}  // namespace

void init_complex(nb::module_& m, TensorClass& cls) {
  m.def(
      "real", [](const Tensor& x) { return wrap(real(x)); }, nb::arg("input"),
      "The real part of a complex tensor, as a view (a real tensor is returned as is).");
  m.def(
      "imag", [](const Tensor& x) { return wrap(imag(x)); }, nb::arg("input"),
      "The imaginary part of a complex tensor, as a view.");
  cls.def_prop_ro("real", [](const Tensor& x) { return wrap(real(x)); });
  cls.def_prop_ro("imag", [](const Tensor& x) { return wrap(imag(x)); });
  m.def(
      "view_as_real", [](const Tensor& x) { return wrap(view_as_real(x)); }, nb::arg("input"),
      "A real view of a complex tensor with a trailing dim of size 2 (real, imag).");
  m.def(
      "view_as_complex", [](const Tensor& x) { return wrap(view_as_complex(x)); }, nb::arg("input"),
      "A complex view of a float tensor whose last dim has size 2.");
  m.def(
      "angle",
      [](nb::handle input, nb::handle out) {
        return result_or_out(angle(to_tensor(input, "angle"), out_argument(out, "angle")), out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none(),
      "The argument of each element, in radians (0 or pi for real input).");
  cls.def("angle", [](const Tensor& x) { return wrap(angle(x, Tensor())); });
  // conj of a real tensor is the tensor itself (the same Python object, as torch).
  auto lazy_conj = [](nb::handle self) -> nb::object {
    const Tensor& x = tensor_input(self, "conj");
    if (!is_complex(x.dtype())) return nb::borrow(self);
    return wrap(conj(x));
  };
  m.def("conj", lazy_conj, nb::arg("input"),
        "The complex conjugate as a lazy view: shares storage, sets the conj bit (is_conj()).");
  cls.def("conj", lazy_conj);
  auto resolve = [](nb::handle self) -> nb::object {
    const Tensor& x = tensor_input(self, "resolve_conj");
    if (!x.is_conj()) return nb::borrow(self);
    return wrap(resolve_conj(x));
  };
  m.def("resolve_conj", resolve, nb::arg("input"),
        "input itself when its conj bit is clear, else a new tensor with the conjugated values.");
  cls.def("resolve_conj", resolve);
  m.def(
      "conj_physical",
      [](nb::handle input, nb::handle out) {
        return result_or_out(
            conj_physical(to_tensor(input, "conj_physical"), out_argument(out, "conj_physical")),
            out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none(),
      "The complex conjugate, always materialized.");
  cls.def("conj_physical", [](const Tensor& x) { return wrap(conj_physical(x, Tensor())); });
  cls.def("conj_physical_", [](nb::handle self) {
    const Tensor& x = unwrap(self);
    conj_physical(x, x);
    return nb::borrow(self);
  });
  cls.def("__complex__", [](const Tensor& x) {
    const std::complex<double> v = item_complex(x, "__complex__");
    return nb::steal(PyComplex_FromDoubles(v.real(), v.imag()));
  });
  m.def(
      "is_conj", [](const Tensor& x) { return x.is_conj(); }, nb::arg("input"),
      "Whether input is a lazy conjugate view (its conj bit is set).");
  cls.def("is_conj", [](const Tensor& x) { return x.is_conj(); });
  m.def("is_complex", [](const Tensor& x) { return is_complex(x.dtype()); }, nb::arg("input"));
  m.def(
      "complex",
      [](const Tensor& re, const Tensor& im, nb::handle out) {
        return result_or_out(complex_from_parts(re, im, out_argument(out, "complex")), out);
      },
      nb::arg("real"), nb::arg("imag"), nb::kw_only(), nb::arg("out") = nb::none(),
      "A complex tensor from float real and imaginary parts (broadcast together).");
}

}  // namespace ember::py
