#include "python_api.h"

#include <cmath>

namespace ember::py {
namespace {
nb::handle g_tensor_class;
// Handles, not nb::object: a static destructor would DECREF after the interpreter is gone
// (a crash at exit on Python 3.12+). The dtype objects live as long as the process.
nb::handle g_dtypes[kNumScalarTypes];
}  // namespace

void set_tensor_class(nb::handle cls) {
  EMBER_CHECK(PyType_Check(cls.ptr()) &&
                  PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                                   reinterpret_cast<PyTypeObject*>(nb::type<Tensor>().ptr())),
              TypeError, "[_set_tensor_class] expected a subclass of TensorBase");
  cls.inc_ref();  // lives as long as the module
  g_tensor_class = cls;
}

nb::object wrap(Tensor t) {
  nb::handle cls = g_tensor_class ? g_tensor_class : nb::type<Tensor>();
  nb::object inst = nb::inst_alloc(cls);
  new (nb::inst_ptr<Tensor>(inst)) Tensor(std::move(t));
  nb::inst_mark_ready(inst);
  return inst;
}

nb::object wrap_pair(std::pair<Tensor, Tensor> p) {
  return nb::make_tuple(wrap(std::move(p.first)), wrap(std::move(p.second)));
}

nb::object wrap_list(const std::vector<Tensor>& ts, bool as_tuple) {
  nb::list items;
  for (const Tensor& t : ts) items.append(wrap(t));
  if (as_tuple) return nb::tuple(items);
  return std::move(items);
}

bool is_tensor(nb::handle h) { return nb::isinstance<Tensor>(h); }

const Tensor& unwrap(nb::handle h) { return *nb::inst_ptr<Tensor>(h); }

bool is_python_scalar(nb::handle h) {
  return PyBool_Check(h.ptr()) || PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()) ||
         PyComplex_Check(h.ptr());
}

Tensor to_tensor(nb::handle h, const char* op, const char* arg) {
  if (is_tensor(h)) return unwrap(h);
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return Tensor::scalar_int(o == Py_True, ScalarType::Bool, true);
  if (PyFloat_Check(o)) return Tensor::scalar(PyFloat_AsDouble(o), ScalarType::Float64, true);
  if (PyComplex_Check(o)) {  // a wrapped complex number: the default complex dtype in promotion
    return Tensor::scalar_complex({PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)},
                                  ScalarType::ComplexDouble, true);
  }
  // Python ints, numpy scalars and other numbers that know how to become an int or a float.
  if (const auto v = python_int(h, op, arg)) {
    return Tensor::scalar_int(v->bits, v->is_uint64 ? ScalarType::UInt64 : ScalarType::Int64, true);
  }
  if (has_float_slot(h) && !nb::hasattr(h, "__len__")) {
    const double v = PyFloat_AsDouble(o);
    if (!(v == -1.0 && PyErr_Occurred())) return Tensor::scalar(v, ScalarType::Float64, true);
    PyErr_Clear();
  }
  throw TypeError(str("[", op, "] argument '", arg, "' must be a Tensor or a number, not ",
                      nb::type_name(h.type()).c_str()));
}

namespace {
// h.__index__() as a Python int; an invalid object (the error cleared) when h has none.
nb::object index_object(nb::handle h) {
  if (!PyIndex_Check(h.ptr())) return nb::object();
  nb::object index = nb::steal(PyNumber_Index(h.ptr()));
  if (!index.is_valid()) PyErr_Clear();
  return index;
}
}  // namespace

std::optional<int64_t> index_value(nb::handle h, bool* overflow) {
  *overflow = false;
  const nb::object index = index_object(h);
  if (!index.is_valid()) return std::nullopt;
  int over = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &over);
  *overflow = over != 0;
  if (*overflow) return std::nullopt;
  return v;
}

std::optional<PythonInt> python_int(nb::handle h, const char* op, const char* arg) {
  const nb::object index = index_object(h);
  if (!index.is_valid()) return std::nullopt;
  int over = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &over);
  if (over == 0) return PythonInt{v, false};
  if (over > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(index.ptr());
    if (!PyErr_Occurred()) return PythonInt{static_cast<int64_t>(u), true};
    PyErr_Clear();
  }
  // OverflowError like torch's (with its reason); also a RuntimeError, which ember raised before.
  throw OverflowRuntimeError(
      str("[", op, "] the integer ", nb::str(h).c_str(), " given for '", arg,
          "' does not fit in int64 or uint64 (",
          over > 0 ? "int too big to convert" : "can't convert negative int to unsigned", ")"));
}

bool has_float_slot(nb::handle h) {
  // PyType_GetSlot, not tp_as_number: the abi3 wheel builds against the limited API.
  return PyFloat_Check(h.ptr()) || PyType_GetSlot(Py_TYPE(h.ptr()), Py_nb_float) != nullptr;
}

Tensor to_optional_tensor(nb::handle h, const char* op, const char* arg) {
  if (h.is_none()) return Tensor();
  return to_tensor(h, op, arg);
}

nb::object dtype_object(ScalarType t) { return nb::borrow(g_dtypes[static_cast<int>(t)]); }

ScalarType to_dtype_arg(nb::handle h, const char* op) {
  if (nb::isinstance<DType>(h)) return nb::cast<const DType&>(h).type;
  if (h.is(reinterpret_cast<PyObject*>(&PyFloat_Type))) return ScalarType::Float64;
  if (h.is(reinterpret_cast<PyObject*>(&PyLong_Type))) return ScalarType::Int64;
  if (h.is(reinterpret_cast<PyObject*>(&PyBool_Type))) return ScalarType::Bool;
  throw TypeError(
      str("[", op, "] expected an ember dtype (e.g. ember.float32), got ", nb::repr(h).c_str()));
}

std::optional<ScalarType> to_optional_dtype(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  return to_dtype_arg(h, op);
}

std::vector<int64_t> to_int_list(nb::handle h, const char* op, const char* arg) {
  auto as_int = [&](nb::handle item) -> int64_t {
    EMBER_CHECK(!PyBool_Check(item.ptr()) && !PyFloat_Check(item.ptr()) &&
                    (PyIndex_Check(item.ptr()) || (is_tensor(item) && unwrap(item).numel() == 1 &&
                                                   is_integral(unwrap(item).dtype(), false))),
                TypeError, "[", op, "] '", arg, "' must be an int or a sequence of ints, got ",
                nb::type_name(item.type()).c_str());
    if (is_tensor(item)) return item_int(unwrap(item), op);
    bool overflow = false;
    const std::optional<int64_t> v = index_value(item, &overflow);
    EMBER_CHECK(!overflow, ValueError, "[", op, "] '", arg, "' value ", nb::str(item).c_str(),
                " does not fit in int64");
    EMBER_CHECK(v.has_value(), TypeError, "[", op, "] '", arg,
                "' must be an int or a sequence of ints, got ", nb::type_name(item.type()).c_str());
    return *v;
  };
  if (PyIndex_Check(h.ptr()) || (is_tensor(h) && unwrap(h).dim() == 0)) return {as_int(h)};
  EMBER_CHECK(PySequence_Check(h.ptr()) && !PyUnicode_Check(h.ptr()), TypeError, "[", op, "] '",
              arg, "' must be an int or a sequence of ints, got ", nb::type_name(h.type()).c_str());
  std::vector<int64_t> out;
  for (nb::handle item : nb::iter(h)) out.push_back(as_int(item));
  return out;
}

std::vector<int64_t> sizes_from_args(const nb::args& args, const char* op) {
  if (args.size() == 1 && !PyIndex_Check(args[0].ptr())) return to_int_list(args[0], op, "size");
  return to_int_list(args, op, "size");
}

std::vector<int64_t> to_dims(nb::handle h, const char* op) {
  if (h.is_none()) return {};
  return to_int_list(h, op, "dim");
}

int64_t int_argument(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(!PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr()) && !is_tensor(h), TypeError, "[", op,
              "] argument '", arg, "' must be int, not ", nb::type_name(h.type()).c_str());
  return to_int_list(h, op, arg)[0];
}

std::optional<int64_t> optional_int_argument(nb::handle h, const char* op, const char* arg) {
  if (h.is_none()) return std::nullopt;
  return int_argument(h, op, arg);
}

const Tensor& tensor_argument(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

Tensor out_argument(nb::handle out, const char* op) {
  if (out.is_none()) return {};
  return tensor_argument(out, op, "out");
}

nb::object result_or_out(Tensor result, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return wrap(std::move(result));
}

void init_dtypes(nb::module_& m) {
  nb::class_<DType>(m, "dtype", "An element type, such as ember.float32.")
      .def_prop_ro("is_floating_point", [](const DType& d) { return is_floating(d.type); })
      .def_prop_ro("is_signed", [](const DType& d) { return is_signed(d.type); })
      .def_prop_ro("is_complex", [](const DType& d) { return is_complex(d.type); })
      .def_prop_ro("itemsize", [](const DType& d) { return element_size(d.type); })
      .def("__repr__", [](const DType& d) { return "ember." + std::string(dtype_name(d.type)); })
      .def("__reduce__", [](const DType& d) { return std::string(dtype_name(d.type)); });
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    g_dtypes[i] = nb::cast(DType{t}).release();
    m.attr(std::string(dtype_name(t)).c_str()) = g_dtypes[i];
  }
  m.def("_set_tensor_class", &set_tensor_class);
  m.def(
      "promote_types",
      [](nb::handle a, nb::handle b) {
        return dtype_object(
            promote_types(to_dtype_arg(a, "promote_types"), to_dtype_arg(b, "promote_types")));
      },
      nb::arg("type1"), nb::arg("type2"));
  m.def(
      "can_cast",
      [](nb::handle from, nb::handle to) {
        return can_cast(to_dtype_arg(from, "can_cast"), to_dtype_arg(to, "can_cast"));
      },
      nb::arg("from_"), nb::arg("to"));
  m.def("get_default_dtype", [] { return dtype_object(default_dtype()); });
  m.def(
      "set_default_dtype",
      [](nb::handle d) { set_default_dtype(to_dtype_arg(d, "set_default_dtype")); }, nb::arg("d"));
  m.def(
      "result_type",
      [](nb::handle a, nb::handle b) {
        return dtype_object(result_type(
            {to_tensor(a, "result_type", "tensor1"), to_tensor(b, "result_type", "tensor2")}));
      },
      nb::arg("tensor1"), nb::arg("tensor2"));
}

}  // namespace ember::py
