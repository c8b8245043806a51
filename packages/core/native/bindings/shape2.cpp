// flip/fliplr/flipud, roll, repeat/tile, tril/triu: module functions and Tensor methods with
// torch's argument names. Conversion only; the ops live in src/ops_shape2.cpp.
#include "python_api.h"

namespace ember::py {
namespace {

// The `input` of a module function: a tensor, never a number (as in torch).
const Tensor& input_arg(nb::handle h, const char* op) {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument 'input' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

int64_t int_arg(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(!PyBool_Check(h.ptr()) && (PyLong_Check(h.ptr()) || PyIndex_Check(h.ptr())) &&
                  !is_tensor(h),
              TypeError, "[", op, "] argument '", arg, "' must be an int, not ",
              nb::type_name(h.type()).c_str());
  return to_int_list(h, op, arg)[0];
}

// *dims varargs or one sequence (Tensor.flip(0, 1) == Tensor.flip((0, 1))).
std::vector<int64_t> varargs_list(const nb::args& args, const char* op) {
  if (args.size() == 1) return to_int_list(args[0], op, "dims");
  std::vector<int64_t> out;
  for (nb::handle h : args) out.push_back(int_arg(h, op, "dims"));
  return out;
}

}  // namespace

void init_shape2(nb::module_& m, TensorClass& cls) {
  m.def("flip", [](nb::handle input, nb::handle dims) {
    return wrap(flip(input_arg(input, "flip"), to_int_list(dims, "flip", "dims")));
  }, nb::arg("input").none(), nb::arg("dims"));
  cls.def("flip", [](const Tensor& self, nb::args dims) {
    return wrap(flip(self, varargs_list(dims, "flip")));
  });
  m.def("fliplr", [](nb::handle input) { return wrap(fliplr(input_arg(input, "fliplr"))); },
        nb::arg("input").none());
  cls.def("fliplr", [](const Tensor& self) { return wrap(fliplr(self)); });
  m.def("flipud", [](nb::handle input) { return wrap(flipud(input_arg(input, "flipud"))); },
        nb::arg("input").none());
  cls.def("flipud", [](const Tensor& self) { return wrap(flipud(self)); });

  auto roll_fn = [](const Tensor& x, nb::handle shifts, nb::handle dims) {
    std::vector<int64_t> ds;
    if (!dims.is_none()) ds = to_int_list(dims, "roll", "dims");
    return wrap(roll(x, to_int_list(shifts, "roll", "shifts"), ds));
  };
  m.def("roll", [roll_fn](nb::handle input, nb::handle shifts, nb::handle dims) {
    return roll_fn(input_arg(input, "roll"), shifts, dims);
  }, nb::arg("input").none(), nb::arg("shifts"), nb::arg("dims") = nb::none());
  cls.def("roll", roll_fn, nb::arg("shifts"), nb::arg("dims") = nb::none());

  cls.def("repeat", [](const Tensor& self, nb::args repeats) {
    return wrap(repeat(self, sizes_from_args(repeats, "repeat")));
  });
  m.def("tile", [](nb::handle input, nb::handle dims) {
    return wrap(tile(input_arg(input, "tile"), to_int_list(dims, "tile", "dims")));
  }, nb::arg("input").none(), nb::arg("dims"));
  cls.def("tile", [](const Tensor& self, nb::args dims) {
    return wrap(tile(self, varargs_list(dims, "tile")));
  });

  m.def("tril", [](nb::handle input, nb::handle diagonal) {
    return wrap(tril(input_arg(input, "tril"), int_arg(diagonal, "tril", "diagonal")));
  }, nb::arg("input").none(), nb::arg("diagonal") = 0);
  m.def("triu", [](nb::handle input, nb::handle diagonal) {
    return wrap(triu(input_arg(input, "triu"), int_arg(diagonal, "triu", "diagonal")));
  }, nb::arg("input").none(), nb::arg("diagonal") = 0);
  cls.def("tril", [](const Tensor& self, nb::handle diagonal) {
    return wrap(tril(self, int_arg(diagonal, "tril", "diagonal")));
  }, nb::arg("diagonal") = 0);
  cls.def("triu", [](const Tensor& self, nb::handle diagonal) {
    return wrap(triu(self, int_arg(diagonal, "triu", "diagonal")));
  }, nb::arg("diagonal") = 0);
  cls.def("tril_", [](nb::handle self, nb::handle diagonal) {
    tril_(unwrap(self), int_arg(diagonal, "tril_", "diagonal"));
    return nb::borrow(self);
  }, nb::arg("diagonal") = 0);
  cls.def("triu_", [](nb::handle self, nb::handle diagonal) {
    triu_(unwrap(self), int_arg(diagonal, "triu_", "diagonal"));
    return nb::borrow(self);
  }, nb::arg("diagonal") = 0);
}

}  // namespace ember::py
