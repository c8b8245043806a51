// Basic indexing: Tensor.__getitem__ / __setitem__ with ints, slices, Ellipsis, None and 0-d
// integer tensors (a view), and Tensor.__iter__. Advanced indexing is not supported yet.
#include "python_api.h"

namespace ember::py {
namespace {

[[noreturn]] void advanced_index() {
  throw NotImplementedError(
      "[index] advanced indexing (tensor/list indices) is not supported yet");
}

// A slice bound: None, or any object with __index__ (clamped like Python's slice.indices).
std::optional<int64_t> slice_bound(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  EMBER_CHECK(PyIndex_Check(h.ptr()), TypeError, "[index] slice indices must be integers or ",
              "None or have an __index__ method, got ", nb::type_name(h.type()).c_str());
  const Py_ssize_t v = PyNumber_AsSsize_t(h.ptr(), nullptr);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return static_cast<int64_t>(v);
}

IndexItem integer_item(nb::handle h) {
  int overflow = 0;
  nb::object index = nb::steal(PyNumber_Index(h.ptr()));
  if (!index.is_valid()) throw nb::python_error();
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  EMBER_CHECK(overflow == 0, IndexError, "[index] index ", nb::str(h).c_str(),
              " is out of bounds (it does not fit in int64)");
  return IndexItem::integer(v);
}

IndexItem parse_item(nb::handle h) {
  PyObject* o = h.ptr();
  if (h.is_none()) return IndexItem::new_axis();
  if (o == Py_Ellipsis) return IndexItem::ellipsis();
  if (PySlice_Check(o)) {
    const auto step = slice_bound(h.attr("step"));
    EMBER_CHECK(step.value_or(1) != 0, ValueError, "[index] slice step cannot be zero");
    EMBER_CHECK(step.value_or(1) > 0, ValueError, "[index] step must be greater than zero, got ",
                *step);
    return IndexItem::slice(slice_bound(h.attr("start")), slice_bound(h.attr("stop")),
                            step.value_or(1));
  }
  if (PyBool_Check(o)) advanced_index();  // x[True] is a mask in torch
  if (PyLong_Check(o)) return integer_item(h);
  if (is_tensor(h)) {
    const Tensor& t = unwrap(h);
    EMBER_CHECK(t.dtype() == ScalarType::Bool || is_integral(t.dtype(), false), IndexError,
                "[index] tensors used as indices must be long, int, byte or bool tensors, got ",
                dtype_name(t.dtype()));
    // A 0-d integer tensor acts as an int; uint8 and bool tensors are masks (advanced).
    if (t.dim() == 0 && t.dtype() != ScalarType::UInt8 && t.dtype() != ScalarType::Bool) {
      return IndexItem::integer(item_int(t, "index"));
    }
    advanced_index();
  }
  if (nb::hasattr(h, "__array_interface__")) {
    // numpy integer scalars and 0-d integer arrays act as ints; other arrays are advanced.
    const bool is_int = nb::hasattr(h, "dtype") && nb::hasattr(h, "ndim") &&
                        nb::cast<int64_t>(h.attr("ndim")) == 0 &&
                        nb::cast<std::string>(h.attr("dtype").attr("kind")) != "b" &&
                        PyIndex_Check(o);
    if (is_int) return integer_item(h);
    if (nb::hasattr(h, "dtype") && nb::cast<std::string>(h.attr("dtype").attr("kind")) == "f" &&
        nb::cast<int64_t>(h.attr("ndim")) == 0) {
      throw IndexError("[index] only integers, slices (`:`), ellipsis (`...`), None and long or "
                       "byte Variables are valid indices (got float)");
    }
    advanced_index();
  }
  if (PyList_Check(o) || (PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o))) {
    advanced_index();
  }
  if (PyIndex_Check(o)) return integer_item(h);
  throw IndexError(str("[index] only integers, slices (`:`), ellipsis (`...`), None and long or ",
                       "byte Variables are valid indices (got ",
                       nb::type_name(h.type()).c_str(), ")"));
}

std::vector<IndexItem> parse_index(nb::handle index) {
  std::vector<IndexItem> items;
  // torch (like old numpy) reads a list holding slices, Ellipsis or None as a tuple.
  bool as_tuple = PyTuple_Check(index.ptr());
  if (PyList_Check(index.ptr())) {
    for (nb::handle item : nb::iter(index)) {
      as_tuple |= item.is_none() || item.ptr() == Py_Ellipsis || PySlice_Check(item.ptr());
    }
  }
  if (!as_tuple) return {parse_item(index)};
  for (nb::handle item : nb::iter(index)) items.push_back(parse_item(item));
  return items;
}

// The value of x[index] = value: a tensor, a Python number, or data ember.tensor accepts.
Tensor setitem_value(nb::handle value) {
  if (is_tensor(value)) return unwrap(value);
  if (is_python_scalar(value)) return to_tensor(value, "index", "value");
  if (PyIndex_Check(value.ptr()) && !nb::hasattr(value, "ndim")) {
    return to_tensor(value, "index", "value");
  }
  nb::object converted = nb::module_::import_("ember_core._C").attr("tensor")(value);
  return unwrap(converted);
}

}  // namespace

void init_indexing(nb::module_& m, TensorClass& cls) {
  cls.def("__getitem__", [](const Tensor& self, nb::handle index) {
    return wrap(ember::index(self, parse_index(index)));
  }, nb::arg("index").none());
  cls.def("__setitem__", [](const Tensor& self, nb::handle index, nb::handle value) {
    const auto items = parse_index(index);
    index_put_(self, items, setitem_value(value));
  }, nb::arg("index").none(), nb::arg("value").none());
  cls.def("__iter__", [](const Tensor& self) {
    EMBER_CHECK(self.dim() > 0, TypeError, "[iter] iteration over a 0-d tensor");
    return nb::iter(wrap_list(unbind(self, 0)));
  });
}

}  // namespace ember::py
