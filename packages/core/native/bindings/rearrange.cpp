// flip/fliplr/flipud, roll, repeat/tile, tril/triu: module functions and Tensor methods with
// torch's argument names. Conversion only; the ops live in src/ops_rearrange.cpp.
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
  EMBER_CHECK(
      !PyBool_Check(h.ptr()) && (PyLong_Check(h.ptr()) || PyIndex_Check(h.ptr())) && !is_tensor(h),
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

// The tensors of broadcast_tensors/atleast_*: each positional argument must be a tensor.
std::vector<Tensor> tensor_args(nb::handle args, const char* op) {
  std::vector<Tensor> out;
  size_t i = 0;
  for (nb::handle h : nb::iter(args)) {
    EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] expected Tensor as element ", i,
                " in argument 0, but got ", nb::type_name(h.type()).c_str());
    out.push_back(unwrap(h));
    ++i;
  }
  return out;
}

// torch.atleast_nd: one tensor gives a tensor (itself when it has enough dims); several
// tensors, or one list/tuple of them, give a tuple.
template <Tensor (*Fn)(const Tensor&)>
void def_atleast(nb::module_& m, const char* name, int64_t n) {
  m.def(name, [name, n](nb::args args) -> nb::object {
    auto one = [n](nb::handle h) -> nb::object {
      return unwrap(h).dim() >= n ? nb::borrow(h) : wrap(Fn(unwrap(h)));
    };
    if (args.size() == 1 && is_tensor(args[0])) return one(args[0]);
    nb::object items = args;
    if (args.size() == 1 && (PyList_Check(args[0].ptr()) || PyTuple_Check(args[0].ptr()))) {
      items = nb::borrow(args[0]);
    }
    tensor_args(items, name);  // type check only
    nb::list out;
    for (nb::handle h : nb::iter(items)) out.append(one(h));
    return nb::tuple(out);
  });
}

// The tensors of hstack & co: a sequence of tensors (not a tensor itself).
std::vector<Tensor> tensor_seq(nb::handle h, const char* op) {
  EMBER_CHECK(!is_tensor(h) && PySequence_Check(h.ptr()) && !PyUnicode_Check(h.ptr()), TypeError,
              "[", op, "] argument 'tensors' must be a tuple or list of Tensors, not ",
              nb::type_name(h.type()).c_str());
  return tensor_args(h, op);
}

// indices_or_sections: an int (or 0-d integer tensor) is a count, anything else a list.
bool is_sections(nb::handle h) {
  return (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) ||
         (is_tensor(h) && unwrap(h).dim() == 0);
}

using NumpySplit = std::vector<Tensor> (*)(const Tensor&, std::optional<int64_t>,
                                           const std::vector<int64_t>&);

}  // namespace

void init_rearrange(nb::module_& m, TensorClass& cls) {
  m.def(
      "flip",
      [](nb::handle input, nb::handle dims) {
        return wrap(flip(input_arg(input, "flip"), to_int_list(dims, "flip", "dims")));
      },
      nb::arg("input").none(), nb::arg("dims"));
  cls.def("flip", [](const Tensor& self, nb::args dims) {
    return wrap(flip(self, varargs_list(dims, "flip")));
  });
  m.def(
      "fliplr", [](nb::handle input) { return wrap(fliplr(input_arg(input, "fliplr"))); },
      nb::arg("input").none());
  cls.def("fliplr", [](const Tensor& self) { return wrap(fliplr(self)); });
  m.def(
      "flipud", [](nb::handle input) { return wrap(flipud(input_arg(input, "flipud"))); },
      nb::arg("input").none());
  cls.def("flipud", [](const Tensor& self) { return wrap(flipud(self)); });

  auto roll_fn = [](const Tensor& x, nb::handle shifts, nb::handle dims) {
    std::vector<int64_t> ds;
    if (!dims.is_none()) ds = to_int_list(dims, "roll", "dims");
    return wrap(roll(x, to_int_list(shifts, "roll", "shifts"), ds));
  };
  m.def(
      "roll",
      [roll_fn](nb::handle input, nb::handle shifts, nb::handle dims) {
        return roll_fn(input_arg(input, "roll"), shifts, dims);
      },
      nb::arg("input").none(), nb::arg("shifts"), nb::arg("dims") = nb::none());
  cls.def("roll", roll_fn, nb::arg("shifts"), nb::arg("dims") = nb::none());

  cls.def("repeat", [](const Tensor& self, nb::args repeats) {
    return wrap(repeat(self, sizes_from_args(repeats, "repeat")));
  });
  m.def(
      "tile",
      [](nb::handle input, nb::handle dims) {
        return wrap(tile(input_arg(input, "tile"), to_int_list(dims, "tile", "dims")));
      },
      nb::arg("input").none(), nb::arg("dims"));
  cls.def("tile", [](const Tensor& self, nb::args dims) {
    return wrap(tile(self, varargs_list(dims, "tile")));
  });

  // out= takes exactly the result's dtype here (torch's structured ops).
  m.def(
      "tril",
      [](nb::handle input, nb::handle diagonal, nb::handle out) {
        const Tensor r = tril(input_arg(input, "tril"), int_arg(diagonal, "tril", "diagonal"));
        return result_or_out(
            write_out(r, out_argument(out, "tril"), "tril", {.dtype = OutDtype::kExact}), out);
      },
      nb::arg("input").none(), nb::arg("diagonal") = 0, nb::kw_only(), nb::arg("out") = nb::none());
  m.def(
      "triu",
      [](nb::handle input, nb::handle diagonal, nb::handle out) {
        const Tensor r = triu(input_arg(input, "triu"), int_arg(diagonal, "triu", "diagonal"));
        return result_or_out(
            write_out(r, out_argument(out, "triu"), "triu", {.dtype = OutDtype::kExact}), out);
      },
      nb::arg("input").none(), nb::arg("diagonal") = 0, nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "tril",
      [](const Tensor& self, nb::handle diagonal) {
        return wrap(tril(self, int_arg(diagonal, "tril", "diagonal")));
      },
      nb::arg("diagonal") = 0);
  cls.def(
      "triu",
      [](const Tensor& self, nb::handle diagonal) {
        return wrap(triu(self, int_arg(diagonal, "triu", "diagonal")));
      },
      nb::arg("diagonal") = 0);
  cls.def(
      "tril_",
      [](nb::handle self, nb::handle diagonal) {
        tril_(unwrap(self), int_arg(diagonal, "tril_", "diagonal"));
        return nb::borrow(self);
      },
      nb::arg("diagonal") = 0);
  cls.def(
      "triu_",
      [](nb::handle self, nb::handle diagonal) {
        triu_(unwrap(self), int_arg(diagonal, "triu_", "diagonal"));
        return nb::borrow(self);
      },
      nb::arg("diagonal") = 0);

  m.def(
      "diag",
      [](nb::handle input, nb::handle diagonal, nb::handle out) {
        const Tensor r = diag(input_arg(input, "diag"), int_arg(diagonal, "diag", "diagonal"));
        return result_or_out(
            write_out(r, out_argument(out, "diag"), "diag", {.dtype = OutDtype::kExact}), out);
      },
      nb::arg("input").none(), nb::arg("diagonal") = 0, nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "diag",
      [](const Tensor& self, nb::handle diagonal) {
        return wrap(diag(self, int_arg(diagonal, "diag", "diagonal")));
      },
      nb::arg("diagonal") = 0);
  auto diag_embed_fn = [](const Tensor& x, nb::handle offset, nb::handle dim1, nb::handle dim2) {
    return wrap(diag_embed(x, int_arg(offset, "diag_embed", "offset"),
                           int_arg(dim1, "diag_embed", "dim1"),
                           int_arg(dim2, "diag_embed", "dim2")));
  };
  m.def(
      "diag_embed",
      [diag_embed_fn](nb::handle input, nb::handle offset, nb::handle dim1, nb::handle dim2) {
        return diag_embed_fn(input_arg(input, "diag_embed"), offset, dim1, dim2);
      },
      nb::arg("input").none(), nb::arg("offset") = 0, nb::arg("dim1") = -2, nb::arg("dim2") = -1);
  cls.def("diag_embed", diag_embed_fn, nb::arg("offset") = 0, nb::arg("dim1") = -2,
          nb::arg("dim2") = -1);
  m.def(
      "diagflat",
      [](nb::handle input, nb::handle offset) {
        return wrap(diagflat(input_arg(input, "diagflat"), int_arg(offset, "diagflat", "offset")));
      },
      nb::arg("input").none(), nb::arg("offset") = 0);
  cls.def(
      "diagflat",
      [](const Tensor& self, nb::handle offset) {
        return wrap(diagflat(self, int_arg(offset, "diagflat", "offset")));
      },
      nb::arg("offset") = 0);
  m.def(
      "trace", [](nb::handle input) { return wrap(trace(input_arg(input, "trace"))); },
      nb::arg("input").none());
  cls.def("trace", [](const Tensor& self) { return wrap(trace(self)); });

  m.def(
      "broadcast_to",
      [](nb::handle input, nb::handle size) {
        return wrap(broadcast_to(input_arg(input, "broadcast_to"),
                                 to_int_list(size, "broadcast_to", "size")));
      },
      nb::arg("input").none(), nb::arg("size"));
  cls.def(
      "broadcast_to",
      [](const Tensor& self, nb::handle size) {
        return wrap(broadcast_to(self, to_int_list(size, "broadcast_to", "size")));
      },
      nb::arg("size"));
  m.def("broadcast_tensors", [](nb::args tensors) {
    return wrap_list(broadcast_tensors(tensor_args(tensors, "broadcast_tensors")));
  });
  m.def("broadcast_shapes", [](nb::args shapes) {
    std::vector<Shape> list;
    for (nb::handle h : shapes) list.push_back(to_int_list(h, "broadcast_shapes", "shapes"));
    nb::list sizes;
    for (int64_t v : broadcast_shapes(list)) sizes.append(v);
    // ember.Size lives in the Python package, which is imported whenever this runs.
    return nb::object(nb::module_::import_("ember").attr("Size")(nb::tuple(sizes)));
  });
  def_atleast<atleast_1d>(m, "atleast_1d", 1);
  def_atleast<atleast_2d>(m, "atleast_2d", 2);
  def_atleast<atleast_3d>(m, "atleast_3d", 3);

  using Stack = Tensor (*)(const std::vector<Tensor>&, const Tensor&);
  const std::pair<const char*, Stack> stacks[] = {
      {"hstack", hstack}, {"vstack", vstack}, {"dstack", dstack}, {"column_stack", column_stack}};
  for (const auto& [name, fn] : stacks) {
    m.def(
        name,
        [name, fn](nb::handle tensors, nb::handle out) {
          return result_or_out(fn(tensor_seq(tensors, name), out_argument(out, name)), out);
        },
        nb::arg("tensors"), nb::kw_only(), nb::arg("out") = nb::none());
  }

  auto tensor_split_fn = [](const Tensor& x, nb::handle ios, nb::handle dim) {
    const int64_t d = int_arg(dim, "tensor_split", "dim");
    if (is_sections(ios)) {
      return wrap_list(tensor_split(x, to_int_list(ios, "tensor_split", "sections")[0], d));
    }
    // A 1-d tensor of indices converts through its list of Python ints.
    nb::object list = is_tensor(ios) ? nb::object(ios.attr("tolist")()) : nb::borrow(ios);
    return wrap_list(tensor_split_indices(x, to_int_list(list, "tensor_split", "indices"), d));
  };
  m.def(
      "tensor_split",
      [tensor_split_fn](nb::handle input, nb::handle ios, nb::handle dim) {
        return tensor_split_fn(input_arg(input, "tensor_split"), ios, dim);
      },
      nb::arg("input").none(), nb::arg("indices_or_sections"), nb::arg("dim") = 0);
  cls.def("tensor_split", tensor_split_fn, nb::arg("indices_or_sections"), nb::arg("dim") = 0);
  const std::pair<const char*, NumpySplit> splits[] = {
      {"hsplit", hsplit}, {"vsplit", vsplit}, {"dsplit", dsplit}};
  for (const auto& [name, fn] : splits) {
    auto call = [name, fn](const Tensor& x, nb::handle ios) {
      if (is_sections(ios)) return wrap_list(fn(x, to_int_list(ios, name, "sections")[0], {}));
      return wrap_list(fn(x, std::nullopt, to_int_list(ios, name, "indices")));
    };
    m.def(
        name,
        [name, call](nb::handle input, nb::handle ios) {
          return call(input_arg(input, name), ios);
        },
        nb::arg("input").none(), nb::arg("indices_or_sections"));
    cls.def(name, call, nb::arg("indices_or_sections"));
  }

  m.def(
      "meshgrid",
      [](nb::args tensors, nb::handle indexing) {
        nb::handle items = tensors;
        if (tensors.size() == 1 && !is_tensor(tensors[0])) items = tensors[0];
        std::string mode =
            "ij";  // torch's default (it warns that "ij" will change; ember does not)
        if (!indexing.is_none()) {
          EMBER_CHECK(PyUnicode_Check(indexing.ptr()), TypeError,
                      "[meshgrid] argument 'indexing' must be str, not ",
                      nb::type_name(indexing.type()).c_str());
          mode = nb::cast<std::string>(indexing);
        }
        EMBER_CHECK(mode == "ij" || mode == "xy", RuntimeError,
                    "[meshgrid] torch.meshgrid: indexing ",
                    "must be one of \"xy\" or \"ij\", but received: ", mode);
        return wrap_list(meshgrid(tensor_args(items, "meshgrid"), mode == "xy"));
      },
      nb::arg("tensors"), nb::kw_only(), nb::arg("indexing") = nb::none());
  // kron's out= takes any dtype the result casts to (torch's composite ops).
  m.def(
      "kron",
      [](nb::handle input, nb::handle other, nb::handle out) {
        const Tensor r = kron(input_arg(input, "kron"), to_tensor(other, "kron", "other"));
        return result_or_out(write_out(r, out_argument(out, "kron"), "kron"), out);
      },
      nb::arg("input").none(), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "kron",
      [](const Tensor& self, nb::handle other) {
        return wrap(kron(self, to_tensor(other, "kron", "other")));
      },
      nb::arg("other"));
}

}  // namespace ember::py
