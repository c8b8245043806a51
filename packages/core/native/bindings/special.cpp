// The native kernels behind ember.special: ember.i0 / Tensor.i0 / Tensor.i0_ (torch has them in
// the main namespace too) and the module-only functions ember._special_<name>(input, *, out=None)
// that ember.special wraps under torch.special's names.
#include "python_api.h"

namespace ember::py {
namespace {

struct SpecialUnary {
  const char* name;
  UnaryOp op;
};

constexpr SpecialUnary kSpecialUnary[] = {
    {"_special_i0e", UnaryOp::SpecialI0e},
    {"_special_i1", UnaryOp::SpecialI1},
    {"_special_i1e", UnaryOp::SpecialI1e},
    {"_special_erfcx", UnaryOp::SpecialErfcx},
    {"_special_ndtri", UnaryOp::SpecialNdtri},
    {"_special_bessel_j0", UnaryOp::SpecialBesselJ0},
    {"_special_bessel_j1", UnaryOp::SpecialBesselJ1},
};

}  // namespace

void init_special(nb::module_& m, TensorClass& cls) {
  m.def(
      "i0",
      [](nb::handle input, nb::handle out) {
        return result_or_out(unary(UnaryOp::I0, to_tensor(input, "i0"), out_argument(out, "i0")),
                             out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def("i0", [](const Tensor& self) { return wrap(unary(UnaryOp::I0, self)); });
  cls.def("i0_", [](nb::handle self) {
    unary(UnaryOp::I0, unwrap(self), {}, {}, true);
    return nb::borrow(self);
  });
  for (const auto& e : kSpecialUnary) {
    m.def(
        e.name,
        [op = e.op, name = e.name](nb::handle input, nb::handle out) {
          return result_or_out(unary(op, to_tensor(input, name), out_argument(out, name)), out);
        },
        nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none());
  }
  m.def(
      "_special_zeta",
      [](nb::handle input, nb::handle other, nb::handle out) {
        const char* name = "_special_zeta";
        return result_or_out(binary(BinaryOp::SpecialZeta, to_tensor(input, name),
                                    to_tensor(other, name, "other"), out_argument(out, name)),
                             out);
      },
      nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
}

}  // namespace ember::py
