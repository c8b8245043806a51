// Views and shape ops: ember.reshape(input, shape), Tensor.view(*shape), ember.cat(...), ...
// Each op is bound as a module function (input first) and/or a method, with torch's arg names.
#include "python_api.h"

namespace ember::py {
namespace {

// One int argument: a Python int, a 0-d integer tensor, or another object with __index__ that
// is not an array with dims (numpy integers are fine).
int64_t int_arg(nb::handle h, const char* op, const char* arg) {
  const bool int_like =
      is_tensor(h) ? unwrap(h).dim() == 0 && is_integral(unwrap(h).dtype(), false)
                   : !nb::hasattr(h, "ndim") || nb::cast<int64_t>(nb::int_(h.attr("ndim"))) == 0;
  EMBER_CHECK(int_like && !PyBool_Check(h.ptr()) && (is_tensor(h) || PyIndex_Check(h.ptr())),
              TypeError, "[", op, "] argument '", arg, "' must be an int, not ",
              nb::type_name(h.type()).c_str());
  return to_int_list(h, op, arg)[0];
}

std::vector<int64_t> int_list_arg(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(!is_tensor(h) || unwrap(h).dim() == 0, TypeError, "[", op, "] argument '", arg,
              "' must be a tuple of ints, not Tensor");
  return to_int_list(h, op, arg);
}

// The tensors of cat/stack: a sequence of tensors (not a tensor, not numbers).
std::vector<Tensor> tensor_list_arg(nb::handle h, const char* op) {
  EMBER_CHECK(!is_tensor(h) && PySequence_Check(h.ptr()) && !PyUnicode_Check(h.ptr()), TypeError,
              "[", op, "] argument 'tensors' must be a tuple or list of Tensors, not ",
              nb::type_name(h.type()).c_str());
  std::vector<Tensor> out;
  size_t i = 0;
  for (nb::handle item : nb::iter(h)) {
    EMBER_CHECK(is_tensor(item), TypeError, "[", op, "] expected Tensor as element ", i,
                " of 'tensors', but got ", nb::type_name(item.type()).c_str());
    out.push_back(unwrap(item));
    ++i;
  }
  return out;
}

std::optional<std::vector<int64_t>> optional_dims(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  return int_list_arg(h, op, "dim");
}

// `dim` or its numpy-style alias `axis` (concat/concatenate accept both).
int64_t dim_or_axis(nb::handle dim, nb::handle axis, const char* op) {
  if (!axis.is_none()) return int_arg(axis, op, "axis");
  return int_arg(dim, op, "dim");
}

nb::object split_any(const Tensor& x, nb::handle sizes, nb::handle dim, const char* op) {
  const int64_t d = int_arg(dim, op, "dim");
  if (PyLong_Check(sizes.ptr()) || (is_tensor(sizes) && unwrap(sizes).dim() == 0)) {
    return wrap_list(split(x, int_arg(sizes, op, "split_size"), d));
  }
  return wrap_list(split_with_sizes(x, int_list_arg(sizes, op, "split_size_or_sections"), d));
}

// The `input` of a module function: a tensor, never a number (as in torch).
const Tensor& tensor_arg(nb::handle h, const char* op, const char* arg = "input") {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

// fn(const Tensor&, handles...) as a module function taking its input as a handle, so that a
// non-tensor input raises our TypeError rather than nanobind's.
template <typename F, typename R, typename... A>
auto checked_input(const char* name, F fn, R (F::*)(const Tensor&, A...) const) {
  return
      [fn, name](nb::handle input, A... args) -> R { return fn(tensor_arg(input, name), args...); };
}

// Binds fn(input, ...) as ember.<name> and Tensor.<name>.
template <typename F, typename... Extra>
void def_both(nb::module_& m, TensorClass& cls, const char* name, F fn, const Extra&... args) {
  m.def(name, checked_input(name, fn, &F::operator()), nb::arg("input").none(), args...);
  cls.def(name, fn, args...);
}

// x.mH and x.adjoint(): mT's own check would name mT, so say which one the caller used.
nb::object adjoint_named(const Tensor& x, const char* name, const char* shown) {
  EMBER_CHECK(x.dim() != 1, RuntimeError, "[", name, "] tensor.", shown,
              " is only supported on matrices or batches of matrices. Got 1-D tensor.");
  return wrap(conj(mT(x)));
}

void init_views(nb::module_& m, TensorClass& cls) {
  cls.def("view", [](const Tensor& self, nb::args args) {
    if (args.size() == 1 && nb::isinstance<DType>(args[0])) {
      return wrap(view_dtype(self, nb::cast<const DType&>(args[0]).type));
    }
    return wrap(view(self, sizes_from_args(args, "view")));
  });
  cls.def(
      "view_as",
      [](const Tensor& self, nb::handle other) {
        return wrap(view(self, to_tensor(other, "view_as", "other").sizes()));
      },
      nb::arg("other"));
  cls.def("reshape", [](const Tensor& self, nb::args args) {
    return wrap(reshape(self, sizes_from_args(args, "reshape")));
  });
  m.def(
      "reshape",
      [](nb::handle input, nb::handle shape) {
        return wrap(reshape(tensor_arg(input, "reshape"), int_list_arg(shape, "reshape", "shape")));
      },
      nb::arg("input").none(), nb::arg("shape"));
  cls.def(
      "reshape_as",
      [](const Tensor& self, nb::handle other) {
        return wrap(reshape(self, to_tensor(other, "reshape_as", "other").sizes()));
      },
      nb::arg("other"));
  cls.def("permute", [](const Tensor& self, nb::args args) {
    return wrap(permute(self, sizes_from_args(args, "permute")));
  });
  m.def(
      "permute",
      [](nb::handle input, nb::handle dims) {
        return wrap(permute(tensor_arg(input, "permute"), int_list_arg(dims, "permute", "dims")));
      },
      nb::arg("input").none(), nb::arg("dims"));
  for (const char* name : {"transpose", "swapaxes", "swapdims"}) {
    // torch names swapaxes' arguments axis0/axis1, the others dim0/dim1.
    const char* a0 = name[4] == 'a' ? "axis0" : "dim0";
    const char* a1 = name[4] == 'a' ? "axis1" : "dim1";
    def_both(
        m, cls, name,
        [name, a0, a1](const Tensor& x, nb::handle dim0, nb::handle dim1) {
          return wrap(transpose(x, int_arg(dim0, name, a0), int_arg(dim1, name, a1)));
        },
        nb::arg(a0), nb::arg(a1));
  }
  for (const char* name : {"transpose_", "swapaxes_", "swapdims_"}) {
    cls.def(
        name,
        [name](nb::handle self, nb::handle dim0, nb::handle dim1) {
          transpose_(unwrap(self), int_arg(dim0, name, "dim0"), int_arg(dim1, name, "dim1"));
          return nb::borrow(self);
        },
        nb::arg("dim0"), nb::arg("dim1"));
  }
  def_both(m, cls, "t", [](const Tensor& x) { return wrap(t(x)); });
  cls.def("t_", [](nb::handle self) {
    t_(unwrap(self));
    return nb::borrow(self);
  });
  cls.def_prop_ro("T", [](const Tensor& x) { return wrap(reverse_dims(x)); });
  cls.def_prop_ro("mT", [](const Tensor& x) { return wrap(mT(x)); });
  // The adjoint: the conjugate transpose (conj is a no-op on real dtypes).
  cls.def_prop_ro("H", [](const Tensor& x) {
    EMBER_CHECK(x.dim() <= 2, RuntimeError, "[H] tensor.H is only supported on matrices (2-D ",
                "tensors). Got ", x.dim(), "-D tensor.");
    return wrap(conj(t(x)));
  });
  cls.def_prop_ro("mH", [](const Tensor& x) { return adjoint_named(x, "mH", "mH"); });
  def_both(m, cls, "adjoint",
           [](const Tensor& x) { return adjoint_named(x, "adjoint", "adjoint()"); });

  cls.def("expand", [](const Tensor& self, nb::args args) {
    return wrap(expand(self, sizes_from_args(args, "expand")));
  });
  cls.def(
      "expand_as",
      [](const Tensor& self, nb::handle other) {
        return wrap(expand(self, to_tensor(other, "expand_as", "other").sizes()));
      },
      nb::arg("other"));
  def_both(
      m, cls, "squeeze",
      [](const Tensor& x, nb::handle dim) {
        return wrap(squeeze(x, optional_dims(dim, "squeeze")));
      },
      nb::arg("dim") = nb::none());
  cls.def(
      "squeeze_",
      [](nb::handle self, nb::handle dim) {
        squeeze_(unwrap(self), optional_dims(dim, "squeeze_"));
        return nb::borrow(self);
      },
      nb::arg("dim") = nb::none());
  def_both(
      m, cls, "unsqueeze",
      [](const Tensor& x, nb::handle dim) {
        return wrap(unsqueeze(x, int_arg(dim, "unsqueeze", "dim")));
      },
      nb::arg("dim"));
  cls.def(
      "unsqueeze_",
      [](nb::handle self, nb::handle dim) {
        unsqueeze_(unwrap(self), int_arg(dim, "unsqueeze_", "dim"));
        return nb::borrow(self);
      },
      nb::arg("dim"));
  def_both(
      m, cls, "flatten",
      [](const Tensor& x, nb::handle start, nb::handle end) {
        return wrap(
            flatten(x, int_arg(start, "flatten", "start_dim"), int_arg(end, "flatten", "end_dim")));
      },
      nb::arg("start_dim") = 0, nb::arg("end_dim") = -1);
  def_both(
      m, cls, "unflatten",
      [](const Tensor& x, nb::handle dim, nb::handle sizes) {
        return wrap(unflatten(x, int_arg(dim, "unflatten", "dim"),
                              int_list_arg(sizes, "unflatten", "sizes")));
      },
      nb::arg("dim"), nb::arg("sizes"));
  def_both(
      m, cls, "narrow",
      [](const Tensor& x, nb::handle dim, nb::handle start, nb::handle length) {
        return wrap(narrow(x, int_arg(dim, "narrow", "dim"), int_arg(start, "narrow", "start"),
                           int_arg(length, "narrow", "length")));
      },
      nb::arg("dim"), nb::arg("start"), nb::arg("length"));
  def_both(
      m, cls, "select",
      [](const Tensor& x, nb::handle dim, nb::handle index) {
        return wrap(select(x, int_arg(dim, "select", "dim"), int_arg(index, "select", "index")));
      },
      nb::arg("dim"), nb::arg("index"));
  def_both(
      m, cls, "unbind",
      [](const Tensor& x, nb::handle dim) {
        return wrap_list(unbind(x, int_arg(dim, "unbind", "dim")));
      },
      nb::arg("dim") = 0);
  for (const char* name : {"movedim", "moveaxis"}) {
    def_both(
        m, cls, name,
        [name](const Tensor& x, nb::handle source, nb::handle destination) {
          return wrap(movedim(x, int_list_arg(source, name, "source"),
                              int_list_arg(destination, name, "destination")));
        },
        nb::arg("source"), nb::arg("destination"));
  }
  def_both(
      m, cls, "diagonal",
      [](const Tensor& x, nb::handle offset, nb::handle dim1, nb::handle dim2) {
        return wrap(diagonal(x, int_arg(offset, "diagonal", "offset"),
                             int_arg(dim1, "diagonal", "dim1"), int_arg(dim2, "diagonal", "dim2")));
      },
      nb::arg("offset") = 0, nb::arg("dim1") = 0, nb::arg("dim2") = 1);
}

void init_joins(nb::module_& m, TensorClass& cls) {
  for (const char* name : {"cat", "concat", "concatenate"}) {
    m.def(
        name,
        [name](nb::handle tensors, nb::handle dim, nb::handle axis, nb::handle out) {
          return result_or_out(cat(tensor_list_arg(tensors, name), dim_or_axis(dim, axis, name),
                                   out_argument(out, name)),
                               out);
        },
        nb::arg("tensors").none(), nb::arg("dim") = 0, nb::kw_only(), nb::arg("axis") = nb::none(),
        nb::arg("out") = nb::none());
  }
  m.def(
      "stack",
      [](nb::handle tensors, nb::handle dim, nb::handle out) {
        return result_or_out(stack(tensor_list_arg(tensors, "stack"), int_arg(dim, "stack", "dim"),
                                   out_argument(out, "stack")),
                             out);
      },
      nb::arg("tensors").none(), nb::arg("dim") = 0, nb::kw_only(), nb::arg("out") = nb::none());

  m.def(
      "split",
      [](nb::handle x, nb::handle sizes, nb::handle dim) {
        return split_any(tensor_arg(x, "split", "tensor"), sizes, dim, "split");
      },
      nb::arg("tensor").none(), nb::arg("split_size_or_sections"), nb::arg("dim") = 0);
  cls.def(
      "split",
      [](const Tensor& x, nb::handle sizes, nb::handle dim) {
        return split_any(x, sizes, dim, "split");
      },
      nb::arg("split_size"), nb::arg("dim") = 0);
  def_both(
      m, cls, "split_with_sizes",
      [](const Tensor& x, nb::handle sizes, nb::handle dim) {
        return wrap_list(split_with_sizes(x, int_list_arg(sizes, "split_with_sizes", "split_sizes"),
                                          int_arg(dim, "split_with_sizes", "dim")));
      },
      nb::arg("split_sizes"), nb::arg("dim") = 0);
  def_both(
      m, cls, "chunk",
      [](const Tensor& x, nb::handle chunks, nb::handle dim) {
        return wrap_list(
            chunk(x, int_arg(chunks, "chunk", "chunks"), int_arg(dim, "chunk", "dim")));
      },
      nb::arg("chunks"), nb::arg("dim") = 0);
}

}  // namespace

void init_shape(nb::module_& m, TensorClass& cls) {
  init_views(m, cls);
  init_joins(m, cls);
}

}  // namespace ember::py
