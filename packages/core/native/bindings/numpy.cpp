// Interop with NumPy and Python data: ember.from_numpy (zero-copy, both ways), Tensor.numpy(),
// __array__, and ember.tensor / as_tensor from nested sequences.
#include <nanobind/stl/string.h>

#include <limits>

#include "interop.h"
#include "python_api.h"

namespace ember::py {
namespace {

using ArrayIn = nb::ndarray<nb::ro, nb::device::cpu>;

ScalarType from_dlpack_dtype(nb::dlpack::dtype dt, const char* op) {
  using nb::dlpack::dtype_code;
  const auto code = static_cast<dtype_code>(dt.code);
  EMBER_CHECK(dt.lanes == 1, TypeError, "[", op, "] vector dtypes are not supported");
  if (code == dtype_code::Bool && dt.bits == 8) return ScalarType::Bool;
  if (code == dtype_code::UInt) {
    switch (dt.bits) {
      case 8:
        return ScalarType::UInt8;
      case 16:
        return ScalarType::UInt16;
      case 32:
        return ScalarType::UInt32;
      case 64:
        return ScalarType::UInt64;
      default:
        break;
    }
  }
  if (code == dtype_code::Int) {
    switch (dt.bits) {
      case 8:
        return ScalarType::Int8;
      case 16:
        return ScalarType::Int16;
      case 32:
        return ScalarType::Int32;
      case 64:
        return ScalarType::Int64;
      default:
        break;
    }
  }
  if (code == dtype_code::Float) {
    switch (dt.bits) {
      case 16:
        return ScalarType::Float16;
      case 32:
        return ScalarType::Float32;
      case 64:
        return ScalarType::Float64;
      default:
        break;
    }
  }
  if (code == dtype_code::Bfloat && dt.bits == 16) return ScalarType::BFloat16;
  if (code == dtype_code::Complex && dt.bits == 64) return ScalarType::ComplexFloat;
  if (code == dtype_code::Complex && dt.bits == 128) return ScalarType::ComplexDouble;
  throw TypeError(
      str("[", op, "] can't convert an array of dtype code ", int(dt.code), " with ", int(dt.bits),
          " bits; supported: bool, uint8, uint16, uint32, uint64, int8, int16, int32, int64, "
          "float16, float32, float64, complex64, complex128"));
}

// nanobind refuses byte-swapped, object and long double arrays and strides that are not a
// multiple of the item size: say so by name instead of 'std::bad_cast'.
[[noreturn]] void throw_unconvertible(nb::handle obj, const char* op) {
  std::string dtype = "?", strides = "?";
  if (nb::hasattr(obj, "dtype")) dtype = nb::repr(nb::getattr(obj, "dtype")).c_str();
  if (nb::hasattr(obj, "strides")) strides = nb::repr(nb::getattr(obj, "strides")).c_str();
  throw TypeError(str("[", op, "] can't convert an array of dtype ", dtype, " with strides ",
                      strides,
                      " (bytes); supported: native-byte-order bool, uint8-uint64, int8, int16,",
                      " int32, int64, float16, float32, float64 with strides that are multiples",
                      " of the item size"));
}

}  // namespace

nb::dlpack::dtype to_dlpack_dtype(ScalarType t) {
  using nb::dlpack::dtype_code;
  const uint8_t bits = static_cast<uint8_t>(element_size(t) * 8);
  dtype_code code = dtype_code::Float;
  if (t == ScalarType::Bool)
    code = dtype_code::Bool;
  else if (t == ScalarType::UInt8 || is_limited_unsigned(t))
    code = dtype_code::UInt;
  else if (is_integral(t, false))
    code = dtype_code::Int;
  else if (t == ScalarType::BFloat16)
    code = dtype_code::Bfloat;
  else if (is_complex(t))
    code = dtype_code::Complex;
  return {static_cast<uint8_t>(code), bits, 1};
}

Tensor from_array(nb::handle obj, const char* op) {
  // Writable first: a read-only source (DLPack flag, read-only buffer) only shows as a refused
  // writable import, and the tensor must then refuse writes too.
  bool writable = true;
  std::optional<ArrayIn> maybe;
  try {
    maybe.emplace(nb::cast<nb::ndarray<nb::device::cpu>>(obj));
  } catch (const nb::cast_error&) {
    PyErr_Clear();
    writable = false;
    try {
      maybe.emplace(nb::cast<ArrayIn>(obj));
    } catch (const nb::cast_error&) {
      PyErr_Clear();
      throw_unconvertible(obj, op);
    }
  }
  const ArrayIn& array = *maybe;
  const ScalarType dtype = from_dlpack_dtype(array.dtype(), op);
  Shape sizes(array.ndim()), strides(array.ndim());
  int64_t lo = 0, hi = 0;  // element range reachable from the data pointer
  bool empty = false;
  for (size_t i = 0; i < array.ndim(); ++i) {
    sizes[i] = static_cast<int64_t>(array.shape(i));
    strides[i] = array.stride(i);
    empty |= sizes[i] == 0;
    if (sizes[i] > 0) (strides[i] < 0 ? lo : hi) += (sizes[i] - 1) * strides[i];
  }
  if (writable && nb::hasattr(obj, "flags")) {
    writable = nb::cast<bool>(obj.attr("flags").attr("writeable"));
  }
  // Storage starts at the lowest reachable element so negative strides stay in bounds.
  const int64_t esize = element_size(dtype);
  char* base = static_cast<char*>(const_cast<void*>(array.data())) + lo * esize;
  const size_t nbytes = empty ? 0 : static_cast<size_t>((hi - lo + 1) * esize);
  auto* keep = new ArrayIn(array);
  auto storage = Storage::wrap(
      base, nbytes,
      [keep] {
        nb::gil_scoped_acquire gil;
        delete keep;
      },
      writable);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = -lo;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

namespace {

nb::object to_numpy(nb::handle self) {
  const Tensor& t = unwrap(self);
  EMBER_CHECK(t.dtype() != ScalarType::BFloat16, TypeError,
              "[numpy] NumPy has no bfloat16 dtype: convert first, e.g. t.float().numpy()");
  // NumPy would see the storage, not the conjugated values (torch refuses the same way).
  EMBER_CHECK(!t.is_conj(), RuntimeError,
              "[numpy] Can't call numpy() on Tensor that has conjugate bit set. Use "
              "tensor.resolve_conj().numpy() instead.");
  std::vector<size_t> shape(t.sizes().begin(), t.sizes().end());
  nb::ndarray<nb::numpy> array(t.data_bytes(), shape.size(), shape.data(), self, t.strides().data(),
                               to_dlpack_dtype(t.dtype()));
  return array.cast();
}

// ---- ember.tensor(data): nested sequences of numbers/tensors -> a new tensor.
enum class Kind { Bool = 0, Int = 1, Float = 2, Complex = 3 };

// Python complex, numpy complex scalars (they also have __float__), or another object that
// only converts to complex. Fraction and other reals also define __complex__: they stay real.
bool is_complex_number(nb::handle h) {
  if (PyComplex_Check(h.ptr())) return true;
  if (is_tensor(h) || PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr())) return false;
  if (nb::hasattr(h, "dtype") && nb::hasattr(h, "__complex__")) {
    nb::object kind = nb::getattr(nb::getattr(h, "dtype"), "kind", nb::none());
    return nb::isinstance<nb::str>(kind) && nb::cast<std::string>(kind) == "c";
  }
  return !has_float_slot(h) && nb::hasattr(h, "__complex__");
}

// The value of a Python complex, or of an object with __complex__ (numpy.complex64).
std::complex<double> complex_value(nb::handle h) {
  nb::object c = PyComplex_Check(h.ptr()) ? nb::borrow(h) : nb::handle(&PyComplex_Type)(h);
  return {PyComplex_RealAsDouble(c.ptr()), PyComplex_ImagAsDouble(c.ptr())};
}

bool is_sequence(nb::handle h) { return PyList_Check(h.ptr()) || PyTuple_Check(h.ptr()); }

// Nesting deeper than this is refused: it bounds the recursion (a list that contains itself
// would otherwise recurse until the stack overflows).
constexpr size_t kMaxNestingDepth = 64;

void infer(nb::handle h, size_t depth, Shape& shape, Kind& kind, bool& any_element) {
  if (is_sequence(h)) {
    EMBER_CHECK(depth < kMaxNestingDepth, ValueError, "[tensor] nested sequences deeper than ",
                kMaxNestingDepth, " levels (does a list contain itself?)");
    const int64_t n = static_cast<int64_t>(nb::len(h));
    if (depth == shape.size()) {
      EMBER_CHECK(!any_element, ValueError, "[tensor] expected a number at depth ", depth,
                  " but found a sequence (ragged nested sequence)");
      shape.push_back(n);
    } else {
      EMBER_CHECK(shape[depth] == n, ValueError, "[tensor] expected sequence of length ",
                  shape[depth], " at dim ", depth, " (got ", n, ")");
    }
    for (nb::handle item : nb::iter(h)) infer(item, depth + 1, shape, kind, any_element);
    return;
  }
  EMBER_CHECK(depth == shape.size(), ValueError, "[tensor] expected a sequence at depth ", depth,
              " but found a number (ragged nested sequence)");
  any_element = true;
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return;
  // Tensors first: they define __index__, so PyIndex_Check would call a float tensor an int.
  if (is_tensor(h)) {
    const Tensor& t = unwrap(h);
    EMBER_CHECK(t.numel() == 1, ValueError,
                "[tensor] only one-element tensors can be converted to Python scalars, got shape ",
                t.sizes());
    if (is_complex(t.dtype()))
      kind = Kind::Complex;
    else if (is_floating(t.dtype()))
      kind = std::max(kind, Kind::Float);
    else if (t.dtype() != ScalarType::Bool)
      kind = std::max(kind, Kind::Int);
  } else if (PyLong_Check(o) || PyIndex_Check(o)) {
    kind = std::max(kind, Kind::Int);
  } else if (is_complex_number(h)) {
    kind = Kind::Complex;
  } else if (has_float_slot(h)) {
    kind = std::max(kind, Kind::Float);
  } else {
    throw TypeValueError(
        str("[tensor] could not infer dtype of ", nb::type_name(h.type()).c_str()));
  }
}

// NOTE: converting an element may run Python code (__float__, __index__) that mutates the
// lists being read, so every sequence is re-checked against the inferred shape here.
template <typename T>
constexpr bool is_wide_unsigned_v =
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>;

// A Python int stored in uint16/32/64, as torch: uint64 takes [0, 2**64) (else OverflowError),
// uint16/uint32 wrap negatives like a cast and raise RuntimeError above their maximum.
template <typename T>
T unsigned_value(nb::handle h) {
  if constexpr (std::is_same_v<T, uint64_t>) {
    const unsigned long long v = PyLong_AsUnsignedLongLong(h.ptr());
    if (v == static_cast<unsigned long long>(-1) && PyErr_Occurred()) throw nb::python_error();
    return static_cast<T>(v);
  } else {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    EMBER_CHECK(overflow == 0 && v <= static_cast<long long>(std::numeric_limits<T>::max()),
                RuntimeError, "[tensor] value ", nb::str(h).c_str(),
                " cannot be converted to type ", dtype_name(scalar_type_of<T>()),
                " without overflow");
    return static_cast<T>(v);
  }
}

template <typename T>
void fill_elements(nb::handle h, const Shape& shape, size_t depth, T*& out) {
  const bool sequence = is_sequence(h);
  EMBER_CHECK(sequence == (depth < shape.size()), ValueError, "[tensor] the nested sequence ",
              "changed while it was converted (found a ", sequence ? "sequence" : "number",
              " at depth ", depth, ")");
  if (sequence) {
    const int64_t n = shape[depth];
    for (int64_t i = 0; i <= n; ++i) {
      // Checked before each element and after the last: the previous element's conversion
      // may have resized the list.
      EMBER_CHECK(static_cast<int64_t>(nb::len(h)) == n, ValueError, "[tensor] the nested ",
                  "sequence changed while it was converted (expected length ", n, " at dim ", depth,
                  ", got ", nb::len(h), ")");
      if (i == n) break;
      nb::object item = nb::steal(PySequence_GetItem(h.ptr(), static_cast<Py_ssize_t>(i)));
      if (!item.is_valid()) throw nb::python_error();
      fill_elements(item, shape, depth + 1, out);
    }
    return;
  }
  PyObject* o = h.ptr();
  if constexpr (is_complex_v<T>) {
    if (is_complex_number(h) || (is_tensor(h) && is_complex(unwrap(h).dtype()))) {
      *out++ = static_cast<T>(is_tensor(h) ? item_complex(unwrap(h), "tensor") : complex_value(h));
      return;
    }
  } else {
    EMBER_CHECK(!is_complex_number(h) && !(is_tensor(h) && is_complex(unwrap(h).dtype())),
                TypeError, "[tensor] can't convert a complex value to the real dtype ",
                dtype_name(scalar_type_of<T>()));
  }
  if constexpr (is_wide_unsigned_v<T>) {
    if (PyLong_Check(o)) {
      *out++ = unsigned_value<T>(h);
      return;
    }
  }
  if (is_tensor(h)) {
    const Tensor& t = unwrap(h);
    if (is_floating(t.dtype()))
      *out++ = static_cast<T>(item_double(t, "tensor"));
    else
      *out++ = static_cast<T>(item_int(t, "tensor"));
  } else if (PyBool_Check(o)) {
    *out++ = static_cast<T>(o == Py_True);
  } else if (PyLong_Check(o) || PyIndex_Check(o)) {
    bool overflow = false;
    const std::optional<int64_t> index = index_value(h, &overflow);
    if constexpr (!std::is_integral_v<T>) {
      if (overflow) {  // torch takes an int past int64 into a floating dtype through double
        const double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
        if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
          *out++ = T(static_cast<float>(v));
        } else {
          *out++ = static_cast<T>(v);
        }
        return;
      }
    }
    EMBER_CHECK(!overflow, RuntimeValueError,
                "[tensor] Overflow when unpacking long: ", nb::str(h).c_str(),
                " does not fit in int64");
    EMBER_CHECK(index.has_value(), TypeError, "[tensor] could not convert ",
                nb::type_name(h.type()).c_str(), " to an int");
    const int64_t v = *index;
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      *out++ = T(static_cast<float>(v));
    } else {
      *out++ = static_cast<T>(v);
    }
  } else {
    const double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred()) throw nb::python_error();
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      *out++ = T(static_cast<float>(v));
    } else {
      *out++ = static_cast<T>(v);
    }
  }
}

bool has_array_interface(nb::handle h) {
  return !is_tensor(h) && (nb::hasattr(h, "__array_interface__") || nb::hasattr(h, "__dlpack__"));
}

Tensor tensor_from_data(nb::handle data, std::optional<ScalarType> dtype, bool copy) {
  if (is_tensor(data)) {
    const Tensor& t = unwrap(data);
    if (!copy && (!dtype || *dtype == t.dtype())) return t;
    return to_dtype(t, dtype.value_or(t.dtype()), copy);
  }
  if (has_array_interface(data)) {
    Tensor t = from_array(data, "tensor");
    if (!copy && (!dtype || *dtype == t.dtype())) return t;
    return to_dtype(t, dtype.value_or(t.dtype()), copy);
  }
  Shape shape;
  Kind kind = Kind::Bool;
  bool any_element = false;
  infer(data, 0, shape, kind, any_element);
  ScalarType dt = kind == Kind::Complex ? default_complex_dtype()
                  : kind == Kind::Float ? default_dtype()
                  : kind == Kind::Int   ? ScalarType::Int64
                                        : ScalarType::Bool;
  if (!any_element && kind == Kind::Bool) dt = default_dtype();  // tensor([]) is float
  if (dtype) dt = *dtype;
  Tensor t = Tensor::empty(shape, dt);
  visit_every_dtype(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = t.data<T>();
    fill_elements(data, shape, 0, out);
  });
  return t;
}

// As torch: an array sharing memory with a tensor that requires grad would escape autograd.
void check_no_grad(nb::handle self) {
  EMBER_CHECK(
      !unwrap(self).impl().requires_grad, RuntimeError,
      "[numpy] Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
      "instead.");
}

}  // namespace

void init_numpy(nb::module_& m, TensorClass& cls) {
  m.def(
      "from_numpy",
      [](nb::handle array) {
        EMBER_CHECK(nb::hasattr(array, "__array_interface__") || nb::hasattr(array, "__dlpack__"),
                    TypeError, "[from_numpy] expected np.ndarray (got ",
                    nb::type_name(array.type()).c_str(), ")");
        return wrap(from_array(array, "from_numpy"));
      },
      nb::arg("ndarray"), "A tensor sharing memory with a NumPy array (no copy).");
  cls.def(
      "numpy",
      [](nb::handle self, bool force) -> nb::object {
        if (force) return to_numpy(wrap(clone(unwrap(self))));
        check_no_grad(self);
        return to_numpy(self);
      },
      nb::kw_only(), nb::arg("force") = false);
  cls.def(
      "__array__",
      [](nb::handle self, nb::handle dtype, nb::handle copy) -> nb::object {
        check_no_grad(self);
        nb::object array = to_numpy(self);
        if (!dtype.is_none()) {
          try {
            array = array.attr("astype")(dtype, nb::arg("copy") = false);
          } catch (nb::python_error& e) {
            // numpy refused the dtype argument: say which op it was given to.
            throw TypeError(str("[__array__] invalid dtype ", nb::repr(dtype).c_str(), ": ",
                                nb::str(e.value()).c_str()));
          }
        }
        if (!copy.is_none()) {
          const int truth = PyObject_IsTrue(copy.ptr());
          if (truth < 0) throw nb::python_error();
          if (truth) array = array.attr("copy")();
        }
        return array;
      },
      nb::arg("dtype") = nb::none(), nb::kw_only(), nb::arg("copy") = nb::none());
  m.def(
      "tensor",
      [](nb::handle data, nb::handle dtype, nb::handle device, nb::handle requires_grad,
         nb::handle pin_memory) {
        check_creation_options("tensor", device, requires_grad);
        return wrap(tensor_from_data(data, to_optional_dtype(dtype, "tensor"), true));
      },
      nb::arg("data"), nb::kw_only(), nb::arg("dtype") = nb::none(),
      nb::arg("device").none() = nb::none(), nb::arg("requires_grad") = false,
      nb::arg("pin_memory") = false);
  m.def(
      "as_tensor",
      [](nb::handle data, nb::handle dtype, nb::handle device) -> nb::object {
        if (!device.is_none()) check_device("as_tensor", device);
        const auto dt = to_optional_dtype(dtype, "as_tensor");
        if (is_tensor(data) && (!dt || *dt == unwrap(data).dtype())) return nb::borrow(data);
        return wrap(tensor_from_data(data, dt, false));
      },
      nb::arg("data"), nb::kw_only(), nb::arg("dtype") = nb::none(),
      nb::arg("device").none() = nb::none());
}

}  // namespace ember::py
