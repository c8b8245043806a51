// index_add, index_copy, index_fill, scatter_reduce, masked_scatter: functions, methods and
// in-place methods (argument conversion only; the ops are in src/ops_index_scatter.cpp).
#include <string>

#include "python_api.h"

namespace ember::py {
namespace docs {
constexpr const char* index_add =
    R"doc(A copy of input with alpha * source added along `dim` at `index`.

Args:
    input (Tensor): the destination (not modified; see Tensor.index_add_).
    dim (int): the dim to index.
    index (Tensor): int64/int32 positions in [0, input.size(dim)), 0-d or 1-d; duplicates add up.
    source (Tensor): input's dtype and shape, with index.numel() along `dim`.
    alpha (number): the factor applied to source.

Example:
    >>> x = ember.zeros(3, 2)
    >>> ember.index_add(x, 0, ember.tensor([0, 2, 0]), ember.ones(3, 2)).tolist()
    [[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]]
)doc";
constexpr const char* index_copy =
    R"doc(A copy of input with source's slices written along `dim` at `index`.

The last of duplicate indices wins.

Example:
    >>> x = ember.zeros(3, 2)
    >>> ember.index_copy(x, 0, ember.tensor([2]), ember.ones(1, 2)).tolist()
    [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
)doc";
constexpr const char* index_fill =
    R"doc(A copy of input with `value` in the slices along `dim` at `index`.

Negative indices count from the end; value is a number or a 0-d tensor.

Example:
    >>> ember.index_fill(ember.zeros(2, 3), 1, ember.tensor([0, -1]), 5).tolist()
    [[5.0, 0.0, 5.0], [5.0, 0.0, 5.0]]
)doc";
constexpr const char* scatter_reduce = R"doc(Reduces src into a copy of input at index along `dim`.

Args:
    input (Tensor): the destination (not modified; see Tensor.scatter_reduce_).
    dim (int): the dim the index writes along.
    index (Tensor): int64/int32, same rank as input.
    src (Tensor): input's dtype, at least index's size in every dim.
    reduce (str): 'sum', 'prod', 'mean', 'amax' or 'amin'.
    include_self (bool): whether input's own values take part in the reduction.

Example:
    >>> x = ember.tensor([1.0, 2.0])
    >>> idx = ember.tensor([0, 0, 1])
    >>> ember.scatter_reduce(x, 0, idx, ember.tensor([5.0, 3.0, 1.0]), "amax").tolist()
    [5.0, 2.0]
)doc";
constexpr const char* masked_scatter =
    R"doc(A copy of input with source's elements, in order, where mask is True.

mask (bool) and input broadcast together; source needs at least as many elements as mask has
True values.

Example:
    >>> mask = ember.tensor([True, False, True])
    >>> ember.masked_scatter(ember.zeros(3), mask, ember.tensor([1.0, 2.0])).tolist()
    [1.0, 0.0, 2.0]
)doc";
}  // namespace docs

namespace {

// alpha= as a Python number (bools are ints, as in torch).
Scalar to_alpha(nb::handle h, const char* op) {
  if (PyFloat_Check(h.ptr())) return Scalar::from_double(PyFloat_AsDouble(h.ptr()));
  bool overflow = false;
  const std::optional<int64_t> v = PyBool_Check(h.ptr())
                                       ? std::optional<int64_t>(h.ptr() == Py_True)
                                       : index_value(h, &overflow);
  EMBER_CHECK(v.has_value() && !overflow, TypeError, "[", op, "] argument 'alpha' must be a ",
              "number that fits in int64 or a float, not ", nb::str(h).c_str());
  return Scalar::from_int(*v);
}

std::string to_reduce(nb::handle h, const char* op) {
  EMBER_CHECK(PyUnicode_Check(h.ptr()), TypeError, "[", op, "] argument 'reduce' must be str, ",
              "not ", nb::type_name(h.type()).c_str());
  return nb::cast<std::string>(h);
}

const Tensor& tensor_only(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

void def_index_add(nb::module_& m, TensorClass& cls) {
  m.def(
      "index_add",
      [](nb::handle input, int64_t dim, nb::handle index, nb::handle source, nb::handle alpha,
         nb::handle out) {
        const char* op = "index_add";
        return result_or_out(
            index_add(tensor_only(input, op, "input"), dim, tensor_only(index, op, "index"),
                      tensor_only(source, op, "source"), to_alpha(alpha, op),
                      out_argument(out, op)),
            out);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::kw_only(),
      nb::arg("alpha").none() = 1, nb::arg("out").none() = nb::none(), docs::index_add);
  cls.def(
      "index_add",
      [](const Tensor& self, int64_t dim, nb::handle index, nb::handle source, nb::handle alpha) {
        const char* op = "index_add";
        return wrap(index_add(self, dim, tensor_only(index, op, "index"),
                              tensor_only(source, op, "source"), to_alpha(alpha, op)));
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::kw_only(),
      nb::arg("alpha").none() = 1);
  cls.def(
      "index_add_",
      [](nb::handle self, int64_t dim, nb::handle index, nb::handle source, nb::handle alpha) {
        const char* op = "index_add_";
        index_add_(unwrap(self), dim, tensor_only(index, op, "index"),
                   tensor_only(source, op, "source"), to_alpha(alpha, op));
        return nb::borrow(self);
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::kw_only(),
      nb::arg("alpha").none() = 1);
}

void def_index_copy_fill(nb::module_& m, TensorClass& cls) {
  m.def(
      "index_copy",
      [](nb::handle input, int64_t dim, nb::handle index, nb::handle source, nb::handle out) {
        const char* op = "index_copy";
        return result_or_out(
            index_copy(tensor_only(input, op, "input"), dim, tensor_only(index, op, "index"),
                       tensor_only(source, op, "source"), out_argument(out, op)),
            out);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::kw_only(),
      nb::arg("out").none() = nb::none(), docs::index_copy);
  cls.def(
      "index_copy",
      [](const Tensor& self, int64_t dim, nb::handle index, nb::handle source) {
        const char* op = "index_copy";
        return wrap(index_copy(self, dim, tensor_only(index, op, "index"),
                               tensor_only(source, op, "source")));
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("source"));
  cls.def(
      "index_copy_",
      [](nb::handle self, int64_t dim, nb::handle index, nb::handle source) {
        const char* op = "index_copy_";
        index_copy_(unwrap(self), dim, tensor_only(index, op, "index"),
                    tensor_only(source, op, "source"));
        return nb::borrow(self);
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("source"));

  m.def(
      "index_fill",
      [](nb::handle input, int64_t dim, nb::handle index, nb::handle value) {
        const char* op = "index_fill";
        return wrap(index_fill(tensor_only(input, op, "input"), dim,
                               tensor_only(index, op, "index"), to_tensor(value, op, "value")));
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("value"), docs::index_fill);
  cls.def(
      "index_fill",
      [](const Tensor& self, int64_t dim, nb::handle index, nb::handle value) {
        const char* op = "index_fill";
        return wrap(
            index_fill(self, dim, tensor_only(index, op, "index"), to_tensor(value, op, "value")));
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("value"));
  cls.def(
      "index_fill_",
      [](nb::handle self, int64_t dim, nb::handle index, nb::handle value) {
        const char* op = "index_fill_";
        index_fill_(unwrap(self), dim, tensor_only(index, op, "index"),
                    to_tensor(value, op, "value"));
        return nb::borrow(self);
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("value"));
}

void def_scatter_reduce(nb::module_& m, TensorClass& cls) {
  m.def(
      "scatter_reduce",
      [](nb::handle input, int64_t dim, nb::handle index, nb::handle src, nb::handle reduce,
         bool include_self, nb::handle out) {
        const char* op = "scatter_reduce";
        const ScatterReduce kind = scatter_reduce_kind(to_reduce(reduce, op), false, op);
        return result_or_out(
            scatter_reduce(tensor_only(input, op, "input"), dim, tensor_only(index, op, "index"),
                           tensor_only(src, op, "src"), kind, include_self, false, op,
                           out_argument(out, op)),
            out);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("src"), nb::arg("reduce"),
      nb::kw_only(), nb::arg("include_self") = true, nb::arg("out").none() = nb::none(),
      docs::scatter_reduce);
  cls.def(
      "scatter_reduce",
      [](const Tensor& self, int64_t dim, nb::handle index, nb::handle src, nb::handle reduce,
         bool include_self) {
        const char* op = "scatter_reduce";
        const ScatterReduce kind = scatter_reduce_kind(to_reduce(reduce, op), false, op);
        return wrap(scatter_reduce(self, dim, tensor_only(index, op, "index"),
                                   tensor_only(src, op, "src"), kind, include_self));
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("src"), nb::arg("reduce"), nb::kw_only(),
      nb::arg("include_self") = true);
  cls.def(
      "scatter_reduce_",
      [](nb::handle self, int64_t dim, nb::handle index, nb::handle src, nb::handle reduce,
         bool include_self) {
        const char* op = "scatter_reduce_";
        const ScatterReduce kind = scatter_reduce_kind(to_reduce(reduce, op), false, op);
        scatter_reduce_(unwrap(self), dim, tensor_only(index, op, "index"),
                        tensor_only(src, op, "src"), kind, include_self, false, op);
        return nb::borrow(self);
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("src"), nb::arg("reduce"), nb::kw_only(),
      nb::arg("include_self") = true);
}

void def_masked_scatter(nb::module_& m, TensorClass& cls) {
  m.def(
      "masked_scatter",
      [](nb::handle input, nb::handle mask, nb::handle source) {
        const char* op = "masked_scatter";
        return wrap(masked_scatter(tensor_only(input, op, "input"), tensor_only(mask, op, "mask"),
                                   tensor_only(source, op, "source")));
      },
      nb::arg("input"), nb::arg("mask"), nb::arg("source"), docs::masked_scatter);
  cls.def(
      "masked_scatter",
      [](const Tensor& self, nb::handle mask, nb::handle source) {
        const char* op = "masked_scatter";
        return wrap(
            masked_scatter(self, tensor_only(mask, op, "mask"), tensor_only(source, op, "source")));
      },
      nb::arg("mask"), nb::arg("source"));
  cls.def(
      "masked_scatter_",
      [](nb::handle self, nb::handle mask, nb::handle source) {
        const char* op = "masked_scatter_";
        masked_scatter_(unwrap(self), tensor_only(mask, op, "mask"),
                        tensor_only(source, op, "source"));
        return nb::borrow(self);
      },
      nb::arg("mask"), nb::arg("source"));
}

}  // namespace

void init_index_scatter(nb::module_& m, TensorClass& cls) {
  def_index_add(m, cls);
  def_index_copy_fill(m, cls);
  def_scatter_reduce(m, cls);
  def_masked_scatter(m, cls);
}

}  // namespace ember::py
