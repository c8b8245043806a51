// Index ops: index_select, gather, scatter(_add)(_), take, take_along_dim, masked_fill(_),
// masked_select, nonzero, argwhere, one-argument where, index_put(_).
#include "python_api.h"

namespace ember::py {
namespace docs {
constexpr const char* index_select = R"doc(Picks entries along `dim` by a 1-d index (a copy).

Args:
    input (Tensor): the source.
    dim (int): the dim to index.
    index (Tensor): int64 or int32 indices in [0, size), 0-d or 1-d.

Example:
    >>> ember.index_select(ember.tensor([[1, 2], [3, 4]]), 0, ember.tensor([1, 1])).tolist()
    [[3, 4], [3, 4]]
)doc";
constexpr const char* gather = R"doc(out[i][j] = input[index[i][j]][j] for dim=0 (likewise per dim).

Args:
    input (Tensor): the source.
    dim (int): the dim the index picks along.
    index (Tensor): int64/int32, same rank as input, no larger apart from `dim`.

Example:
    >>> ember.gather(ember.tensor([[1, 2], [3, 4]]), 1, ember.tensor([[1], [0]])).tolist()
    [[2], [3]]
)doc";
constexpr const char* scatter = R"doc(A copy of input with out[index[i][j]][j] = src[i][j] (dim=0).

Args:
    input (Tensor): the destination (not modified; see Tensor.scatter_).
    dim (int): the dim the index writes along.
    index (Tensor): int64/int32, same rank as input.
    src (Tensor or number): the values, or one value for every index (also `value=`).

Example:
    >>> ember.scatter(ember.zeros(3), 0, ember.tensor([2, 0]), ember.tensor([5.0, 6.0])).tolist()
    [6.0, 0.0, 5.0]
)doc";
constexpr const char* scatter_add = R"doc(Like scatter, but adds src in; duplicates sum.

Example:
    >>> ember.scatter_add(ember.zeros(2), 0, ember.tensor([1, 1]), ember.ones(2)).tolist()
    [0.0, 2.0]
)doc";
constexpr const char* take = R"doc(Entries of the flattened input at `index`, shaped like `index`.

Example:
    >>> ember.take(ember.tensor([[1, 2], [3, 4]]), ember.tensor([3, -4])).tolist()
    [4, 1]
)doc";
constexpr const char* take_along_dim = R"doc(gather along `dim` after broadcasting the other dims.

With dim=None, input and indices are flattened first.

Example:
    >>> x = ember.tensor([[10, 30, 20], [60, 40, 50]])
    >>> ember.take_along_dim(x, ember.tensor([[1], [0]]), dim=1).tolist()
    [[30], [60]]
)doc";
constexpr const char* masked_fill = R"doc(A copy of input with `value` where the bool mask is True.

Example:
    >>> x = ember.tensor([1.0, 2.0, 3.0])
    >>> ember.masked_fill(x, x > 1.5, 0.0).tolist()
    [1.0, 0.0, 0.0]
)doc";
constexpr const char* masked_select = R"doc(The entries where the bool mask is True, as a 1-d copy.

Example:
    >>> x = ember.tensor([[1, 2], [3, 4]])
    >>> ember.masked_select(x, x % 2 == 0).tolist()
    [2, 4]
)doc";
constexpr const char* nonzero = R"doc(Coordinates of the nonzero entries, one row each (int64).

With as_tuple=True, one 1-d tensor per dim instead (like numpy.nonzero).

Example:
    >>> ember.nonzero(ember.tensor([[0, 1], [2, 0]])).tolist()
    [[0, 1], [1, 0]]
)doc";
constexpr const char* argwhere = R"doc(Same as nonzero(input): a row per nonzero entry.

Example:
    >>> ember.argwhere(ember.tensor([0.0, 3.0, 0.0, 1.0])).tolist()
    [[1], [3]]
)doc";
constexpr const char* index_put = R"doc(A copy of input with input[indices] = values (or +=).

Args:
    input (Tensor): the destination (not modified; see Tensor.index_put_).
    indices (tuple of Tensor): one int64/int32 index or bool mask per leading dim.
    values (Tensor): broadcast to the indexed shape; must have input's dtype.
    accumulate (bool): add instead of assign, summing duplicate indices.

Example:
    >>> idx = (ember.tensor([0, 0, 2]),)
    >>> ember.index_put(ember.zeros(3), idx, ember.ones(3), accumulate=True).tolist()
    [2.0, 0.0, 1.0]
)doc";
}  // namespace docs

namespace {

// index_put_'s `indices`: a tuple or list of index tensors, None meaning `:`.
std::vector<Tensor> to_index_list(nb::handle h, const char* op) {
  EMBER_CHECK(PyTuple_Check(h.ptr()) || PyList_Check(h.ptr()), TypeError, "[", op,
              "] indices must be a tuple of tensors, got ", nb::type_name(h.type()).c_str());
  std::vector<Tensor> out;
  for (nb::handle item : nb::iter(h)) {
    EMBER_CHECK(is_tensor(item), TypeError, "[", op, "] indices must be tensors, got ",
                nb::type_name(item.type()).c_str());
    out.push_back(unwrap(item));
  }
  return out;
}

// scatter's fourth argument: a src tensor, or a number (the value= form).
struct ScatterSource {
  Tensor tensor;
  bool is_value;
};
ScatterSource scatter_source(nb::handle src, nb::handle value, nb::handle reduce, const char* op,
                             bool add) {
  EMBER_CHECK(reduce.is_none() || !add, TypeError, "[", op,
              "] got an unexpected argument 'reduce'");
  EMBER_CHECK(src.is_none() != value.is_none(), TypeError, "[", op,
              "] expected exactly one of src and value");
  // scatter_add has no value form in torch.
  EMBER_CHECK(!add || (value.is_none() && is_tensor(src)), TypeError, "[", op,
              "] src must be a tensor, got ", nb::type_name(src.type()).c_str());
  if (!value.is_none()) return {to_tensor(value, op, "value"), true};
  if (is_python_scalar(src)) return {to_tensor(src, op, "value"), true};
  return {to_tensor(src, op, "src"), false};
}

// scatter(..., reduce='add'|'multiply') goes to scatter_reduce with include_self (torch's rule).
Tensor scatter_any(const Tensor& x, int64_t dim, const Tensor& index, const ScatterSource& s,
                   bool add, nb::handle reduce, const char* op, bool in_place) {
  if (reduce.is_none()) {
    if (in_place) return scatter_(x, dim, index, s.tensor, add, s.is_value);
    return scatter(x, dim, index, s.tensor, add, s.is_value);
  }
  EMBER_CHECK(PyUnicode_Check(reduce.ptr()), TypeError, "[", op, "] argument 'reduce' must be ",
              "str, not ", nb::type_name(reduce.type()).c_str());
  const ScatterReduce kind = scatter_reduce_kind(nb::cast<std::string>(reduce), true, op);
  if (in_place) return scatter_reduce_(x, dim, index, s.tensor, kind, true, s.is_value, op);
  return scatter_reduce(x, dim, index, s.tensor, kind, true, s.is_value, op);
}

void def_scatter(nb::module_& m, TensorClass& cls, const char* name, bool add) {
  const std::string inplace = std::string(name) + "_";
  m.def(
      name,
      [name, add](nb::handle input, int64_t dim, nb::handle index, nb::handle src, nb::handle value,
                  nb::handle reduce) {
        const ScatterSource s = scatter_source(src, value, reduce, name, add);
        return wrap(scatter_any(to_tensor(input, name), dim, to_tensor(index, name, "index"), s,
                                add, reduce, name, false));
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("src") = nb::none(),
      nb::kw_only(), nb::arg("value") = nb::none(), nb::arg("reduce") = nb::none(),
      add ? docs::scatter_add : docs::scatter);
  cls.def(
      name,
      [name, add](const Tensor& self, int64_t dim, nb::handle index, nb::handle src,
                  nb::handle value, nb::handle reduce) {
        const ScatterSource s = scatter_source(src, value, reduce, name, add);
        return wrap(
            scatter_any(self, dim, to_tensor(index, name, "index"), s, add, reduce, name, false));
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("src") = nb::none(), nb::kw_only(),
      nb::arg("value") = nb::none(), nb::arg("reduce") = nb::none());
  cls.def(
      inplace.c_str(),
      [name, add, inplace_name = inplace](nb::handle self, int64_t dim, nb::handle index,
                                          nb::handle src, nb::handle value, nb::handle reduce) {
        const ScatterSource s = scatter_source(src, value, reduce, name, add);
        scatter_any(unwrap(self), dim, to_tensor(index, name, "index"), s, add, reduce,
                    inplace_name.c_str(), true);
        return nb::borrow(self);
      },
      nb::arg("dim"), nb::arg("index"), nb::arg("src") = nb::none(), nb::kw_only(),
      nb::arg("value") = nb::none(), nb::arg("reduce") = nb::none());
}

nb::object nonzero_result(const Tensor& t, bool as_tuple) {
  return as_tuple ? wrap_list(nonzero_tuple(t)) : wrap(nonzero(t));
}

}  // namespace

void init_index_ops(nb::module_& m, TensorClass& cls) {
  m.def(
      "index_select",
      [](nb::handle input, int64_t dim, nb::handle index, nb::handle out) {
        return result_or_out(index_select(to_tensor(input, "index_select"), dim,
                                          to_tensor(index, "index_select", "index"),
                                          out_argument(out, "index_select")),
                             out);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::kw_only(),
      nb::arg("out") = nb::none(), docs::index_select);
  cls.def(
      "index_select",
      [](const Tensor& self, int64_t dim, nb::handle index) {
        return wrap(index_select(self, dim, to_tensor(index, "index_select", "index")));
      },
      nb::arg("dim"), nb::arg("index"));

  m.def(
      "gather",
      [](nb::handle input, int64_t dim, nb::handle index, bool, nb::handle out) {
        return result_or_out(
            gather(to_tensor(input, "gather"), dim, to_tensor(index, "gather", "index"),
                   out_argument(out, "gather")),
            out);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::kw_only(),
      nb::arg("sparse_grad") = false, nb::arg("out") = nb::none(), docs::gather);
  cls.def(
      "gather",
      [](const Tensor& self, int64_t dim, nb::handle index, bool) {
        return wrap(gather(self, dim, to_tensor(index, "gather", "index")));
      },
      nb::arg("dim"), nb::arg("index"), nb::kw_only(), nb::arg("sparse_grad") = false);

  def_scatter(m, cls, "scatter", false);
  def_scatter(m, cls, "scatter_add", true);

  m.def(
      "take",
      [](nb::handle input, nb::handle index, nb::handle out) {
        return result_or_out(take(to_tensor(input, "take"), to_tensor(index, "take", "index"),
                                  out_argument(out, "take")),
                             out);
      },
      nb::arg("input"), nb::arg("index"), nb::kw_only(), nb::arg("out") = nb::none(), docs::take);
  cls.def(
      "take",
      [](const Tensor& self, nb::handle index) {
        return wrap(take(self, to_tensor(index, "take", "index")));
      },
      nb::arg("index"));
  m.def(
      "take_along_dim",
      [](nb::handle input, nb::handle indices, std::optional<int64_t> dim, nb::handle out) {
        return result_or_out(take_along_dim(to_tensor(input, "take_along_dim"),
                                            to_tensor(indices, "take_along_dim", "indices"), dim,
                                            out_argument(out, "take_along_dim")),
                             out);
      },
      nb::arg("input"), nb::arg("indices"), nb::arg("dim") = nb::none(), nb::kw_only(),
      nb::arg("out") = nb::none(), docs::take_along_dim);
  cls.def(
      "take_along_dim",
      [](const Tensor& self, nb::handle indices, std::optional<int64_t> dim) {
        return wrap(take_along_dim(self, to_tensor(indices, "take_along_dim", "indices"), dim));
      },
      nb::arg("indices"), nb::arg("dim") = nb::none());

  m.def(
      "masked_fill",
      [](nb::handle input, nb::handle mask, nb::handle value) {
        return wrap(masked_fill(to_tensor(input, "masked_fill"),
                                to_tensor(mask, "masked_fill", "mask"),
                                to_tensor(value, "masked_fill", "value")));
      },
      nb::arg("input"), nb::arg("mask"), nb::arg("value"), docs::masked_fill);
  cls.def(
      "masked_fill",
      [](const Tensor& self, nb::handle mask, nb::handle value) {
        return wrap(masked_fill(self, to_tensor(mask, "masked_fill", "mask"),
                                to_tensor(value, "masked_fill", "value")));
      },
      nb::arg("mask"), nb::arg("value"));
  cls.def(
      "masked_fill_",
      [](nb::handle self, nb::handle mask, nb::handle value) {
        masked_fill_(unwrap(self), to_tensor(mask, "masked_fill_", "mask"),
                     to_tensor(value, "masked_fill_", "value"));
        return nb::borrow(self);
      },
      nb::arg("mask"), nb::arg("value"));
  m.def(
      "masked_select",
      [](nb::handle input, nb::handle mask, nb::handle out) {
        return result_or_out(masked_select(to_tensor(input, "masked_select"),
                                           to_tensor(mask, "masked_select", "mask"),
                                           out_argument(out, "masked_select")),
                             out);
      },
      nb::arg("input"), nb::arg("mask"), nb::kw_only(), nb::arg("out") = nb::none(),
      docs::masked_select);
  cls.def(
      "masked_select",
      [](const Tensor& self, nb::handle mask) {
        return wrap(masked_select(self, to_tensor(mask, "masked_select", "mask")));
      },
      nb::arg("mask"));

  m.def(
      "nonzero",
      [](nb::handle input, nb::handle out, bool as_tuple) {
        EMBER_CHECK(!as_tuple || out.is_none(), TypeError,
                    "[nonzero] out= is not supported with as_tuple=True");
        if (as_tuple) return nonzero_result(to_tensor(input, "nonzero"), true);
        return result_or_out(nonzero(to_tensor(input, "nonzero"), out_argument(out, "nonzero")),
                             out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none(), nb::arg("as_tuple") = false,
      docs::nonzero);
  cls.def(
      "nonzero", [](const Tensor& self, bool as_tuple) { return nonzero_result(self, as_tuple); },
      nb::kw_only(), nb::arg("as_tuple") = false);
  m.def(
      "argwhere", [](nb::handle input) { return wrap(nonzero(to_tensor(input, "argwhere"))); },
      nb::arg("input"), docs::argwhere);
  cls.def("argwhere", [](const Tensor& self) { return wrap(nonzero(self)); });
  // where(condition) is nonzero(condition, as_tuple=True); an overload of the 3-argument where.
  m.def(
      "where",
      [](nb::handle condition) {
        return nonzero_result(to_tensor(condition, "where", "condition"), true);
      },
      nb::arg("condition"));

  m.def(
      "index_put",
      [](nb::handle input, nb::handle indices, nb::handle values, bool accumulate) {
        return wrap(index_put(to_tensor(input, "index_put"), to_index_list(indices, "index_put"),
                              to_tensor(values, "index_put", "values"), accumulate));
      },
      nb::arg("input"), nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false,
      docs::index_put);
  cls.def(
      "index_put",
      [](const Tensor& self, nb::handle indices, nb::handle values, bool accumulate) {
        return wrap(index_put(self, to_index_list(indices, "index_put"),
                              to_tensor(values, "index_put", "values"), accumulate));
      },
      nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  cls.def(
      "index_put_",
      [](nb::handle self, nb::handle indices, nb::handle values, bool accumulate) {
        index_put_(unwrap(self), to_index_list(indices, "index_put_"),
                   to_tensor(values, "index_put_", "values"), accumulate);
        return nb::borrow(self);
      },
      nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
}

}  // namespace ember::py
