// TensorBase: attributes, conversions to Python values, dtype conversion methods.
#include <nanobind/stl/pair.h>

#include "python_api.h"

namespace ember::py {
namespace {

nb::object scalar_to_python(const Tensor& t, const char* data) {
  return visit_every_dtype(t.dtype(), [&](auto tag) -> nb::object {
    using T = typename decltype(tag)::type;
    const T value = *reinterpret_cast<const T*>(data);
    if constexpr (is_complex_v<T>) {
      return nb::steal(PyComplex_FromDoubles(static_cast<double>(value.real()),
                                             static_cast<double>(value.imag())));
    } else if constexpr (std::is_same_v<T, bool>) {
      return nb::bool_(value);
    } else if constexpr (std::is_same_v<T, uint64_t>) {
      return nb::steal(PyLong_FromUnsignedLongLong(value));
    } else if constexpr (std::is_integral_v<T>) {
      return nb::int_(static_cast<int64_t>(value));
    } else {
      return nb::float_(static_cast<double>(static_cast<compute_t<T>>(value)));
    }
  });
}

nb::object to_list(const Tensor& t, int64_t dim, const char* data) {
  if (dim == t.dim()) return scalar_to_python(t, data);
  const int64_t n = t.sizes()[dim];
  const int64_t step = t.strides()[dim] * t.element_size();
  nb::list out;
  for (int64_t i = 0; i < n; ++i) out.append(to_list(t, dim + 1, data + i * step));
  return std::move(out);
}

nb::tuple int_tuple(const Shape& v) {
  nb::list items;
  for (int64_t x : v) items.append(x);
  return nb::tuple(items);
}

nb::handle g_size_class;

void check_subclass(nb::handle type, const char* op) {
  EMBER_CHECK(PyType_Check(type.ptr()) &&
                  PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()),
                                   reinterpret_cast<PyTypeObject*>(nb::type<Tensor>().ptr())),
              TypeError, "[", op, "] cls must be a subclass of Tensor, not ",
              nb::type_name(type.type()).c_str());
}

nb::object wrap_as(nb::handle type, Tensor t) {
  nb::object inst = nb::inst_alloc(type);
  new (nb::inst_ptr<Tensor>(inst)) Tensor(std::move(t));
  nb::inst_mark_ready(inst);
  return inst;
}

}  // namespace

void init_tensor_class(nb::module_& m, TensorClass& cls) {
  m.def("_set_size_class", [](nb::handle c) {
    c.inc_ref();
    g_size_class = c;
  });
  auto shape = [](const Tensor& t) -> nb::object {
    nb::tuple sizes = int_tuple(t.sizes());
    return g_size_class ? g_size_class(sizes) : nb::object(sizes);
  };
  cls.def_prop_ro("shape", shape)
      .def(
          "size",
          [shape](const Tensor& t, std::optional<int64_t> dim) -> nb::object {
            if (dim) return nb::int_(t.size(*dim));
            return shape(t);
          },
          nb::arg("dim") = nb::none())
      .def(
          "stride",
          [](const Tensor& t, std::optional<int64_t> dim) -> nb::object {
            if (dim) return nb::int_(t.stride(*dim));
            return int_tuple(t.strides());
          },
          nb::arg("dim") = nb::none())
      .def_prop_ro("dtype", [](const Tensor& t) { return dtype_object(t.dtype()); })
      .def_prop_ro("ndim", &Tensor::dim)
      .def("dim", &Tensor::dim)
      .def("ndimension", &Tensor::dim)
      .def("numel", &Tensor::numel)
      .def("nelement", &Tensor::numel)
      .def("storage_offset", &Tensor::offset)
      .def("is_contiguous", [](const Tensor& t) { return t.is_contiguous(); })
      .def("element_size", &Tensor::element_size)
      .def_prop_ro("itemsize", &Tensor::element_size)
      .def_prop_ro("nbytes", [](const Tensor& t) { return t.numel() * t.element_size(); })
      .def("data_ptr", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_bytes()); })
      .def("is_floating_point", [](const Tensor& t) { return is_floating(t.dtype()); })
      .def("is_complex", [](const Tensor& t) { return is_complex(t.dtype()); })
      .def_prop_ro("_version", [](const Tensor& t) { return t.storage()->version(); })
      .def(
          "_is_view_of",
          [](const Tensor& a, const Tensor& b) { return a.storage() == b.storage(); },
          "Whether both tensors share one storage.")
      .def("item",
           [](const Tensor& t) {
             EMBER_CHECK(t.numel() == 1, RuntimeError, "[item] a Tensor with ", t.numel(),
                         " elements cannot be converted to a Python scalar");
             return scalar_to_python(t, t.data_bytes());
           })
      .def("tolist", [](const Tensor& t) { return to_list(t, 0, t.data_bytes()); })
      .def("__len__",
           [](const Tensor& t) {
             EMBER_CHECK(t.dim() > 0, TypeError, "[len] len() of a 0-d tensor");
             return t.sizes()[0];
           })
      .def("__bool__",
           [](const Tensor& t) {
             EMBER_CHECK(t.numel() == 1, RuntimeError, "[bool] Boolean value of Tensor with ",
                         t.numel() == 0 ? "no values" : "more than one value", " is ambiguous");
             return item_double(t, "bool") != 0.0;
           })
      .def("__float__", [](const Tensor& t) { return item_double(t, "float"); })
      .def("__int__",
           [](const Tensor& t) {
             if (is_floating(t.dtype())) {
               const double v = item_double(t, "int");
               EMBER_CHECK(std::isfinite(v), ValueError, "[int] cannot convert ", v,
                           " to an integer");
               return nb::int_(nb::float_(v));
             }
             return nb::int_(item_int(t, "int"));
           })
      .def("__index__",
           [](const Tensor& t) {
             EMBER_CHECK(is_integral(t.dtype(), true) && t.numel() == 1, TypeError,
                         "[index] only integer tensors of a single element can be converted to an "
                         "index");
             return item_int(t, "index");
           })
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()); })
      .def("contiguous",
           [](nb::handle self) -> nb::object {
             const Tensor& t = unwrap(self);
             if (t.is_contiguous()) return nb::borrow(self);
             return wrap(contiguous(t));
           })
      .def("clone", [](const Tensor& t) { return wrap(clone(t)); })
      .def(
          "copy_",
          [](nb::handle self, nb::handle src) {
            copy_(unwrap(self), to_tensor(src, "copy_", "src"));
            return nb::borrow(self);
          },
          nb::arg("src"))
      .def(
          "fill_",
          [](nb::handle self, nb::handle value) {
            const Tensor& t = unwrap(self);
            // torch's rule for a Python number, as in full: no silent wrap or overflow to inf.
            if (PyFloat_Check(value.ptr())) {
              check_value_fits(Scalar::from_double(PyFloat_AsDouble(value.ptr())), t.dtype(),
                               "fill_");
            } else if (!is_tensor(value) && !PyBool_Check(value.ptr())) {
              if (const auto i = python_int(value, "fill_", "value")) {
                check_value_fits(i->scalar(), t.dtype(), "fill_");
              }
            }
            fill_tensor_(t, to_tensor(value, "fill_", "value"));
            return nb::borrow(self);
          },
          nb::arg("value"))
      .def("zero_",
           [](nb::handle self) {
             fill_int_(unwrap(self), 0);
             return nb::borrow(self);
           })
      .def(
          "_to_dtype",
          [](nb::handle self, nb::handle dtype, bool copy) -> nb::object {
            const ScalarType dt = to_dtype_arg(dtype, "to");
            const Tensor& t = unwrap(self);
            if (dt == t.dtype() && !copy) return nb::borrow(self);
            return wrap(to_dtype(t, dt, true));
          },
          nb::arg("dtype"), nb::arg("copy") = false);

  // Python subclasses over an existing tensor (torch's _make_subclass / as_subclass): nn.Parameter.
  cls.def_static(
      "_make_subclass",
      [](nb::handle type, nb::handle data, bool require_grad) {
        check_subclass(type, "_make_subclass");
        Tensor out = alias(unwrap(data));  // shares storage, not autograd identity (a new leaf)
        out.impl().view_base.reset();
        nb::object inst = wrap_as(type, std::move(out));
        if (require_grad) inst.attr("requires_grad_")(true);
        return inst;
      },
      nb::arg("cls"), nb::arg("data"), nb::arg("require_grad") = false,
      "An instance of `cls` sharing `data`'s storage, detached from its graph.");
  cls.def(
      "as_subclass",
      [](const Tensor& t, nb::handle type) {
        check_subclass(type, "as_subclass");
        return wrap_as(type, t);  // the same tensor (autograd history included) seen as `cls`
      },
      nb::arg("cls"), "This tensor (same storage and autograd history) as an instance of `cls`.");

  cls.def(
      "_set_data",
      [](nb::handle self, nb::handle data) {
        // torch's `t.data = other`: self takes other's storage and geometry, keeps its autograd
        // state.
        const Tensor& t = unwrap(self);
        EMBER_CHECK(nb::isinstance<Tensor>(data), TypeError,
                    "[set_data] Variable data has to be a tensor, but got ",
                    nb::type_name(data.type()).c_str());
        const Tensor& src = unwrap(data);
        TensorImpl& dst = t.impl();
        const TensorImpl& from = src.impl();
        dst.storage = from.storage;
        dst.sizes = from.sizes;
        dst.strides = from.strides;
        dst.offset = from.offset;
        dst.dtype = from.dtype;
        dst.set_conj(from.is_conj());
        return nb::borrow(self);
      },
      nb::arg("data"), "Replaces this tensor's data (storage and geometry) by `data`'s, in place.");

  // float(), long(), ...: conversions that return self when the dtype already matches.
  static const std::pair<const char*, ScalarType> conversions[] = {
      {"bool", ScalarType::Bool},     {"byte", ScalarType::UInt8},
      {"char", ScalarType::Int8},     {"short", ScalarType::Int16},
      {"int", ScalarType::Int32},     {"long", ScalarType::Int64},
      {"half", ScalarType::Float16},  {"bfloat16", ScalarType::BFloat16},
      {"float", ScalarType::Float32}, {"double", ScalarType::Float64}};
  for (const auto& [name, dt] : conversions) {
    const ScalarType target = dt;
    cls.def(name, [target](nb::handle self) -> nb::object {
      const Tensor& t = unwrap(self);
      if (t.dtype() == target) return nb::borrow(self);
      return wrap(to_dtype(t, target));
    });
  }
}

}  // namespace ember::py
