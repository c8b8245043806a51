// rot90, repeat_interleave, tril/triu_indices, unfold, as_strided, cartesian_prod, combinations,
// block_diag and cross: module functions and Tensor methods with torch's argument names.
// Conversion only; the ops live in src/ops_construct.cpp.
#include "python_api.h"

namespace ember::py {
namespace {

// The tensors of a *tensors varargs call (cartesian_prod, block_diag).
std::vector<Tensor> tensor_varargs(const nb::args& args, const char* op) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < args.size(); ++i) {
    EMBER_CHECK(is_tensor(args[i]), TypeError, "[", op, "] expected Tensor as element ", i,
                " in argument 0, but got ", nb::type_name(args[i].type()).c_str());
    out.push_back(unwrap(args[i]));
  }
  return out;
}

nb::object repeat_interleave_fn(const Tensor& x, nb::handle repeats, nb::handle dim,
                                nb::handle output_size) {
  const char* op = "repeat_interleave";
  const auto d = optional_int_argument(dim, op, "dim");
  const auto size = optional_int_argument(output_size, op, "output_size");
  if (is_tensor(repeats)) return wrap(repeat_interleave(x, unwrap(repeats), d, size));
  return wrap(repeat_interleave(x, int_argument(repeats, op, "repeats"), d, size));
}

void check_cpu(nb::handle device, const char* op) {
  if (device.is_none()) return;
  const std::string name = nb::str(device).c_str();
  EMBER_CHECK(name == "cpu" || name == "cpu:0", RuntimeError, "[", op, "] device '", name,
              "' is not available: this build of ember only has the CPU");
}

using Triangle = Tensor (*)(int64_t, int64_t, int64_t, ScalarType);

void def_triangle_indices(nb::module_& m, const char* name, Triangle fn) {
  m.def(
      name,
      [name, fn](nb::handle row, nb::handle col, nb::handle offset, nb::handle dtype,
                 nb::handle device, nb::handle layout) {
        check_cpu(device, name);
        EMBER_CHECK(layout.is_none() || nb::str(layout).equal(nb::str("torch.strided")) ||
                        nb::str(layout).equal(nb::str("strided")),
                    RuntimeError, "[", name, "] only the strided layout is supported");
        const ScalarType dt = dtype.is_none() ? ScalarType::Int64 : to_dtype_arg(dtype, name);
        return wrap(fn(int_argument(row, name, "row"), int_argument(col, name, "col"),
                       int_argument(offset, name, "offset"), dt));
      },
      nb::arg("row"), nb::arg("col"), nb::arg("offset") = 0, nb::kw_only(),
      nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
      nb::arg("layout") = nb::none());
}

}  // namespace

void init_construct(nb::module_& m, TensorClass& cls) {
  auto rot90_fn = [](const Tensor& x, nb::handle k, nb::handle dims) {
    return wrap(rot90(x, int_argument(k, "rot90", "k"), to_int_list(dims, "rot90", "dims")));
  };
  m.def(
      "rot90",
      [rot90_fn](nb::handle input, nb::handle k, nb::handle dims) {
        return rot90_fn(tensor_argument(input, "rot90"), k, dims);
      },
      nb::arg("input").none(), nb::arg("k") = 1, nb::arg("dims") = nb::make_tuple(0, 1));
  cls.def("rot90", rot90_fn, nb::arg("k") = 1, nb::arg("dims") = nb::make_tuple(0, 1));

  // torch.repeat_interleave(repeats) (one tensor, no repeats=) gives the index form.
  m.def(
      "repeat_interleave",
      [](nb::handle input, nb::handle repeats, nb::handle dim, nb::handle output_size) {
        const char* op = "repeat_interleave";
        const Tensor& x = tensor_argument(input, op);
        if (repeats.is_none()) {
          EMBER_CHECK(dim.is_none(), TypeError, "[", op, "] dim= needs repeats=");
          return wrap(
              repeat_interleave_indices(x, optional_int_argument(output_size, op, "output_size")));
        }
        return repeat_interleave_fn(x, repeats, dim, output_size);
      },
      nb::arg("input").none(), nb::arg("repeats") = nb::none(), nb::arg("dim") = nb::none(),
      nb::kw_only(), nb::arg("output_size") = nb::none());
  cls.def("repeat_interleave", &repeat_interleave_fn, nb::arg("repeats"),
          nb::arg("dim") = nb::none(), nb::kw_only(), nb::arg("output_size") = nb::none());

  def_triangle_indices(m, "tril_indices", &tril_indices);
  def_triangle_indices(m, "triu_indices", &triu_indices);

  cls.def(
      "unfold",
      [](const Tensor& self, nb::handle dimension, nb::handle size, nb::handle step) {
        return wrap(unfold(self, int_argument(dimension, "unfold", "dimension"),
                           int_argument(size, "unfold", "size"),
                           int_argument(step, "unfold", "step")));
      },
      nb::arg("dimension"), nb::arg("size"), nb::arg("step"));

  auto as_strided_fn = [](const Tensor& x, nb::handle size, nb::handle stride,
                          nb::handle storage_offset) {
    return wrap(as_strided_checked(
        x, to_int_list(size, "as_strided", "size"), to_int_list(stride, "as_strided", "stride"),
        optional_int_argument(storage_offset, "as_strided", "storage_offset")));
  };
  m.def(
      "as_strided",
      [as_strided_fn](nb::handle input, nb::handle size, nb::handle stride,
                      nb::handle storage_offset) {
        return as_strided_fn(tensor_argument(input, "as_strided"), size, stride, storage_offset);
      },
      nb::arg("input").none(), nb::arg("size"), nb::arg("stride"),
      nb::arg("storage_offset") = nb::none());
  cls.def("as_strided", as_strided_fn, nb::arg("size"), nb::arg("stride"),
          nb::arg("storage_offset") = nb::none());
  cls.def(
      "as_strided_",
      [](nb::handle self, nb::handle size, nb::handle stride, nb::handle storage_offset) {
        as_strided_(unwrap(self), to_int_list(size, "as_strided_", "size"),
                    to_int_list(stride, "as_strided_", "stride"),
                    optional_int_argument(storage_offset, "as_strided_", "storage_offset"));
        return nb::borrow(self);
      },
      nb::arg("size"), nb::arg("stride"), nb::arg("storage_offset") = nb::none());

  m.def("cartesian_prod", [](nb::args tensors) {
    return wrap(cartesian_prod(tensor_varargs(tensors, "cartesian_prod")));
  });
  m.def("block_diag",
        [](nb::args tensors) { return wrap(block_diag(tensor_varargs(tensors, "block_diag"))); });
  m.def(
      "combinations",
      [](nb::handle input, nb::handle r, nb::handle with_replacement) {
        EMBER_CHECK(PyBool_Check(with_replacement.ptr()), TypeError,
                    "[combinations] argument 'with_replacement' must be bool, not ",
                    nb::type_name(with_replacement.type()).c_str());
        return wrap(combinations(tensor_argument(input, "combinations"),
                                 int_argument(r, "combinations", "r"),
                                 nb::cast<bool>(with_replacement)));
      },
      nb::arg("input").none(), nb::arg("r") = 2, nb::arg("with_replacement") = false);

  m.def(
      "cross",
      [](nb::handle input, nb::handle other, nb::handle dim, nb::handle out) {
        return result_or_out(
            cross(tensor_argument(input, "cross"), tensor_argument(other, "cross", "other"),
                  optional_int_argument(dim, "cross", "dim"), out_argument(out, "cross")),
            out);
      },
      nb::arg("input").none(), nb::arg("other"), nb::arg("dim") = nb::none(), nb::kw_only(),
      nb::arg("out") = nb::none());
  cls.def(
      "cross",
      [](const Tensor& self, nb::handle other, nb::handle dim) {
        return wrap(cross(self, tensor_argument(other, "cross", "other"),
                          optional_int_argument(dim, "cross", "dim")));
      },
      nb::arg("other"), nb::arg("dim") = nb::none());
}

}  // namespace ember::py
