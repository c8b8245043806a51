// Tensor.__getitem__ / __setitem__ and Tensor.__iter__. Ints, slices, Ellipsis, None and 0-d
// integer tensors give a view (basic indexing); tensors, lists, numpy arrays and bools are
// advanced indices (a copy, ember/ops/index.h).
#include "python_api.h"

namespace ember::py {
namespace {

AdvancedItem basic_item(IndexItem item) { return AdvancedItem{item, Tensor()}; }
AdvancedItem tensor_item(Tensor t) { return AdvancedItem{IndexItem::integer(0), std::move(t)}; }

// A list or numpy array index as a tensor (an empty list is an empty int64 index).
AdvancedItem converted_item(nb::handle h) {
  if (PyList_Check(h.ptr()) && PyList_Size(h.ptr()) == 0) {
    return tensor_item(Tensor::empty({0}, ScalarType::Int64));
  }
  nb::object converted;
  try {
    converted = nb::module_::import_("ember_core._C").attr("tensor")(h);
  } catch (const std::exception& e) {
    throw IndexError(str("[index] could not convert ", nb::type_name(h.type()).c_str(),
                         " index to a tensor: ", e.what()));
  }
  return tensor_item(unwrap(converted));
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

AdvancedItem integer_item(nb::handle h) {
  int overflow = 0;
  nb::object index = nb::steal(PyNumber_Index(h.ptr()));
  if (!index.is_valid()) throw nb::python_error();
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  EMBER_CHECK(overflow == 0, IndexError, "[index] index ", nb::str(h).c_str(),
              " is out of bounds (it does not fit in int64)");
  return basic_item(IndexItem::integer(v));
}

AdvancedItem parse_item(nb::handle h) {
  PyObject* o = h.ptr();
  if (h.is_none()) return basic_item(IndexItem::new_axis());
  if (o == Py_Ellipsis) return basic_item(IndexItem::ellipsis());
  if (PySlice_Check(o)) {
    const auto step = slice_bound(h.attr("step"));
    EMBER_CHECK(step.value_or(1) != 0, ValueError, "[index] slice step cannot be zero");
    EMBER_CHECK(step.value_or(1) > 0, ValueError, "[index] step must be greater than zero, got ",
                *step);
    return basic_item(IndexItem::slice(slice_bound(h.attr("start")), slice_bound(h.attr("stop")),
                                       step.value_or(1)));
  }
  if (PyBool_Check(o)) {  // x[True] is a 0-d mask in torch
    return tensor_item(Tensor::scalar_int(o == Py_True, ScalarType::Bool));
  }
  if (PyLong_Check(o)) return integer_item(h);
  if (is_tensor(h)) {
    const Tensor& t = unwrap(h);
    EMBER_CHECK(t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::UInt8 ||
                    t.dtype() == ScalarType::Int32 || t.dtype() == ScalarType::Int64,
                IndexError,
                "[index] tensors used as indices must be long, int, byte or bool tensors, got ",
                dtype_name(t.dtype()));
    // A 0-d integer tensor acts as an int; uint8 and bool tensors are masks (advanced).
    if (t.dim() == 0 && t.dtype() != ScalarType::UInt8 && t.dtype() != ScalarType::Bool) {
      return basic_item(IndexItem::integer(item_int(t, "index")));
    }
    return tensor_item(t);
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
      throw IndexError(
          "[index] only integers, slices (`:`), ellipsis (`...`), None and long or "
          "byte Variables are valid indices (got float)");
    }
    return converted_item(h);
  }
  if (PyList_Check(o) || (PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o))) {
    return converted_item(h);
  }
  if (PyIndex_Check(o)) return integer_item(h);
  throw IndexError(str("[index] only integers, slices (`:`), ellipsis (`...`), None and long or ",
                       "byte Variables are valid indices (got ", nb::type_name(h.type()).c_str(),
                       ")"));
}

std::vector<AdvancedItem> parse_index(nb::handle index) {
  std::vector<AdvancedItem> items;
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

// The items as basic ones when no item is a tensor (the view path).
std::optional<std::vector<IndexItem>> basic_items(const std::vector<AdvancedItem>& items) {
  std::vector<IndexItem> basic;
  for (const AdvancedItem& item : items) {
    if (item.is_tensor()) return std::nullopt;
    basic.push_back(item.basic);
  }
  return basic;
}

// The value of x[index] = value: a tensor, a Python number, or data ember.tensor accepts.
Tensor setitem_value(nb::handle value) {
  if (is_tensor(value)) return unwrap(value);
  if (!PyBool_Check(value.ptr())) {
    // torch unpacks an int value as int64: ValueError past it (RuntimeError too, as ember's was),
    // where an operand of an op would be a uint64 scalar.
    bool overflow = false;
    index_value(value, &overflow);
    EMBER_CHECK(!overflow, RuntimeValueError,
                "[index] Overflow when unpacking long long: ", nb::str(value).c_str(),
                " given for 'value' does not fit in int64");
  }
  if (is_python_scalar(value)) return to_tensor(value, "index", "value");
  if (PyIndex_Check(value.ptr()) && !nb::hasattr(value, "ndim")) {
    return to_tensor(value, "index", "value");
  }
  nb::object converted = nb::module_::import_("ember_core._C").attr("tensor")(value);
  return unwrap(converted);
}

}  // namespace

void init_indexing(nb::module_& m, TensorClass& cls) {
  cls.def(
      "__getitem__",
      [](const Tensor& self, nb::handle index) {
        const auto items = parse_index(index);
        if (const auto basic = basic_items(items)) return wrap(ember::index(self, *basic));
        return wrap(index_advanced(self, items));
      },
      nb::arg("index").none());
  cls.def(
      "__setitem__",
      [](const Tensor& self, nb::handle index, nb::handle value) {
        const auto items = parse_index(index);
        if (const auto basic = basic_items(items)) {
          index_put_(self, *basic, setitem_value(value));
        } else {
          index_put_advanced_(self, items, setitem_value(value), false);
        }
      },
      nb::arg("index").none(), nb::arg("value").none());
  cls.def("__iter__", [](const Tensor& self) {
    EMBER_CHECK(self.dim() > 0, TypeError, "[iter] iteration over a 0-d tensor");
    return nb::iter(wrap_list(unbind(self, 0)));
  });
}

}  // namespace ember::py
