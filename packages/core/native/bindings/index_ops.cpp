// Index ops: index_select, gather, scatter(_add)(_), take, take_along_dim, masked_fill(_),
// masked_select, nonzero, argwhere, one-argument where, index_put(_).
#include "python_api.h"

namespace ember::py {
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
ScatterSource scatter_source(nb::handle src, nb::handle value, nb::handle reduce,
                             const char* op, bool add) {
  EMBER_CHECK(reduce.is_none(), NotImplementedError, "[", op,
              "] reduce= is not supported; use scatter_add");
  EMBER_CHECK(src.is_none() != value.is_none(), TypeError, "[", op,
              "] expected exactly one of src and value");
  // scatter_add has no value form in torch.
  EMBER_CHECK(!add || (value.is_none() && is_tensor(src)), TypeError, "[", op,
              "] src must be a tensor, got ", nb::type_name(src.type()).c_str());
  if (!value.is_none()) return {to_tensor(value, op, "value"), true};
  if (is_python_scalar(src)) return {to_tensor(src, op, "value"), true};
  return {to_tensor(src, op, "src"), false};
}

void def_scatter(nb::module_& m, TensorClass& cls, const char* name, bool add) {
  const std::string inplace = std::string(name) + "_";
  m.def(name, [name, add](nb::handle input, int64_t dim, nb::handle index, nb::handle src,
                          nb::handle value, nb::handle reduce) {
    const ScatterSource s = scatter_source(src, value, reduce, name, add);
    return wrap(scatter(to_tensor(input, name), dim, to_tensor(index, name, "index"), s.tensor,
                        add, s.is_value));
  }, nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("src") = nb::none(),
     nb::kw_only(), nb::arg("value") = nb::none(), nb::arg("reduce") = nb::none());
  cls.def(name, [name, add](const Tensor& self, int64_t dim, nb::handle index, nb::handle src,
                            nb::handle value, nb::handle reduce) {
    const ScatterSource s = scatter_source(src, value, reduce, name, add);
    return wrap(scatter(self, dim, to_tensor(index, name, "index"), s.tensor, add, s.is_value));
  }, nb::arg("dim"), nb::arg("index"), nb::arg("src") = nb::none(), nb::kw_only(),
     nb::arg("value") = nb::none(), nb::arg("reduce") = nb::none());
  cls.def(inplace.c_str(), [name, add](nb::handle self, int64_t dim, nb::handle index,
                                       nb::handle src, nb::handle value, nb::handle reduce) {
    const ScatterSource s = scatter_source(src, value, reduce, name, add);
    scatter_(unwrap(self), dim, to_tensor(index, name, "index"), s.tensor, add, s.is_value);
    return nb::borrow(self);
  }, nb::arg("dim"), nb::arg("index"), nb::arg("src") = nb::none(), nb::kw_only(),
     nb::arg("value") = nb::none(), nb::arg("reduce") = nb::none());
}

nb::object nonzero_result(const Tensor& t, bool as_tuple) {
  return as_tuple ? wrap_list(nonzero_tuple(t)) : wrap(nonzero(t));
}

}  // namespace

void init_index_ops(nb::module_& m, TensorClass& cls) {
  m.def("index_select", [](nb::handle input, int64_t dim, nb::handle index, nb::handle out) {
    return result_or_out(index_select(to_tensor(input, "index_select"), dim,
                                      to_tensor(index, "index_select", "index"),
                                      to_optional_tensor(out, "index_select", "out")),
                         out);
  }, nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::kw_only(),
     nb::arg("out") = nb::none());
  cls.def("index_select", [](const Tensor& self, int64_t dim, nb::handle index) {
    return wrap(index_select(self, dim, to_tensor(index, "index_select", "index")));
  }, nb::arg("dim"), nb::arg("index"));

  m.def("gather", [](nb::handle input, int64_t dim, nb::handle index, bool, nb::handle out) {
    return result_or_out(gather(to_tensor(input, "gather"), dim,
                                to_tensor(index, "gather", "index"),
                                to_optional_tensor(out, "gather", "out")),
                         out);
  }, nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::kw_only(),
     nb::arg("sparse_grad") = false, nb::arg("out") = nb::none());
  cls.def("gather", [](const Tensor& self, int64_t dim, nb::handle index, bool) {
    return wrap(gather(self, dim, to_tensor(index, "gather", "index")));
  }, nb::arg("dim"), nb::arg("index"), nb::kw_only(), nb::arg("sparse_grad") = false);

  def_scatter(m, cls, "scatter", false);
  def_scatter(m, cls, "scatter_add", true);

  m.def("take", [](nb::handle input, nb::handle index, nb::handle out) {
    return result_or_out(take(to_tensor(input, "take"), to_tensor(index, "take", "index"),
                              to_optional_tensor(out, "take", "out")),
                         out);
  }, nb::arg("input"), nb::arg("index"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def("take", [](const Tensor& self, nb::handle index) {
    return wrap(take(self, to_tensor(index, "take", "index")));
  }, nb::arg("index"));
  m.def("take_along_dim", [](nb::handle input, nb::handle indices, std::optional<int64_t> dim,
                             nb::handle out) {
    return result_or_out(take_along_dim(to_tensor(input, "take_along_dim"),
                                        to_tensor(indices, "take_along_dim", "indices"), dim,
                                        to_optional_tensor(out, "take_along_dim", "out")),
                         out);
  }, nb::arg("input"), nb::arg("indices"), nb::arg("dim") = nb::none(), nb::kw_only(),
     nb::arg("out") = nb::none());
  cls.def("take_along_dim", [](const Tensor& self, nb::handle indices,
                               std::optional<int64_t> dim) {
    return wrap(take_along_dim(self, to_tensor(indices, "take_along_dim", "indices"), dim));
  }, nb::arg("indices"), nb::arg("dim") = nb::none());

  m.def("masked_fill", [](nb::handle input, nb::handle mask, nb::handle value) {
    return wrap(masked_fill(to_tensor(input, "masked_fill"),
                            to_tensor(mask, "masked_fill", "mask"),
                            to_tensor(value, "masked_fill", "value")));
  }, nb::arg("input"), nb::arg("mask"), nb::arg("value"));
  cls.def("masked_fill", [](const Tensor& self, nb::handle mask, nb::handle value) {
    return wrap(masked_fill(self, to_tensor(mask, "masked_fill", "mask"),
                            to_tensor(value, "masked_fill", "value")));
  }, nb::arg("mask"), nb::arg("value"));
  cls.def("masked_fill_", [](nb::handle self, nb::handle mask, nb::handle value) {
    masked_fill_(unwrap(self), to_tensor(mask, "masked_fill_", "mask"),
                 to_tensor(value, "masked_fill_", "value"));
    return nb::borrow(self);
  }, nb::arg("mask"), nb::arg("value"));
  m.def("masked_select", [](nb::handle input, nb::handle mask, nb::handle out) {
    return result_or_out(masked_select(to_tensor(input, "masked_select"),
                                       to_tensor(mask, "masked_select", "mask"),
                                       to_optional_tensor(out, "masked_select", "out")),
                         out);
  }, nb::arg("input"), nb::arg("mask"), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def("masked_select", [](const Tensor& self, nb::handle mask) {
    return wrap(masked_select(self, to_tensor(mask, "masked_select", "mask")));
  }, nb::arg("mask"));

  m.def("nonzero", [](nb::handle input, nb::handle out, bool as_tuple) {
    EMBER_CHECK(!as_tuple || out.is_none(), TypeError,
                "[nonzero] out= is not supported with as_tuple=True");
    if (as_tuple) return nonzero_result(to_tensor(input, "nonzero"), true);
    return result_or_out(nonzero(to_tensor(input, "nonzero"),
                                 to_optional_tensor(out, "nonzero", "out")),
                         out);
  }, nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none(), nb::arg("as_tuple") = false);
  cls.def("nonzero", [](const Tensor& self, bool as_tuple) {
    return nonzero_result(self, as_tuple);
  }, nb::kw_only(), nb::arg("as_tuple") = false);
  m.def("argwhere", [](nb::handle input) {
    return wrap(nonzero(to_tensor(input, "argwhere")));
  }, nb::arg("input"));
  cls.def("argwhere", [](const Tensor& self) { return wrap(nonzero(self)); });
  // where(condition) is nonzero(condition, as_tuple=True); an overload of the 3-argument where.
  m.def("where", [](nb::handle condition) {
    return nonzero_result(to_tensor(condition, "where", "condition"), true);
  }, nb::arg("condition"));

  m.def("index_put", [](nb::handle input, nb::handle indices, nb::handle values,
                        bool accumulate) {
    return wrap(index_put(to_tensor(input, "index_put"), to_index_list(indices, "index_put"),
                          to_tensor(values, "index_put", "values"), accumulate));
  }, nb::arg("input"), nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  cls.def("index_put", [](const Tensor& self, nb::handle indices, nb::handle values,
                          bool accumulate) {
    return wrap(index_put(self, to_index_list(indices, "index_put"),
                          to_tensor(values, "index_put", "values"), accumulate));
  }, nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  cls.def("index_put_", [](nb::handle self, nb::handle indices, nb::handle values,
                           bool accumulate) {
    index_put_(unwrap(self), to_index_list(indices, "index_put_"),
               to_tensor(values, "index_put_", "values"), accumulate);
    return nb::borrow(self);
  }, nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
}

}  // namespace ember::py
