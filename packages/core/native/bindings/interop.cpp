// Sharing memory with other libraries and files: DLPack (ember.from_dlpack, Tensor.__dlpack__),
// the buffer protocol on tensors, ember.frombuffer, and the storage-level helpers that
// ember.save/ember.load build on (raw bytes of a storage, typed views over loaded bytes).
#include "interop.h"

#include <nanobind/stl/pair.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "python_api.h"

namespace ember::py {
namespace {

constexpr int kDLCPU = 1;   // DLPack's device type for host memory
nb::object g_dlpack_error;  // ember.DLPackError: a BufferError and a ValueError

[[noreturn]] void throw_buffer_error(const std::string& message) {
  PyErr_SetString(PyExc_BufferError, message.c_str());
  throw nb::python_error();
}

// ---- The buffer protocol (memoryview(t), bytes(t), file.write(t), numpy.asarray(t)).

const char* buffer_format(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return "?";
    case ScalarType::UInt8:
      return "B";
    case ScalarType::Int8:
      return "b";
    case ScalarType::Int16:
      return "h";
    case ScalarType::Int32:
      return "i";
    case ScalarType::Int64:
      return "q";
    case ScalarType::UInt16:
      return "H";
    case ScalarType::UInt32:
      return "I";
    case ScalarType::UInt64:
      return "Q";
    case ScalarType::Float16:
      return "e";
    case ScalarType::Float32:
      return "f";
    case ScalarType::Float64:
      return "d";
    default:
      return nullptr;  // bfloat16 has no struct-module code
  }
}

bool is_f_contiguous(const Tensor& t) {
  int64_t expected = 1;
  for (int64_t i = 0; i < t.dim(); ++i) {
    if (t.sizes()[i] == 0) return true;
    if (t.sizes()[i] != 1 && t.strides()[i] != expected) return false;
    expected *= t.sizes()[i];
  }
  return true;
}

// Fills `view` per PEP 3118; shape and strides live in `view->internal` until release.
void fill_buffer(PyObject* self, Py_buffer* view, int flags) {
  const Tensor& t = unwrap(nb::handle(self));
  if (t.is_conj()) {  // the buffer would show the storage, not the conjugated values
    throw_buffer_error(
        "[buffer] Can't export tensors with the conjugate bit set; call "
        "tensor.resolve_conj() first");
  }
  const char* format = buffer_format(t.dtype());
  if (!format) {
    throw_buffer_error(
        "[buffer] bfloat16 tensors have no buffer-protocol format; "
        "use t.view(ember.int16) or t.float()");
  }
  if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && !t.storage()->writable()) {
    throw_buffer_error("[buffer] the tensor's memory is read-only");
  }
  const bool c_contiguous = t.is_contiguous();
  const bool needs_c = (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS ||
                       (flags & PyBUF_STRIDES) != PyBUF_STRIDES;
  const bool needs_f = (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS;
  const bool needs_any = (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS;
  if ((needs_c && !c_contiguous) || (needs_f && !is_f_contiguous(t)) ||
      (needs_any && !c_contiguous && !is_f_contiguous(t))) {
    throw_buffer_error(
        str("[buffer] the consumer needs contiguous memory but the tensor has "
            "shape ",
            t.sizes(), " and strides ", t.strides(), "; call .contiguous() first"));
  }
  const int64_t ndim = t.dim();
  auto dims = std::make_unique<Py_ssize_t[]>(static_cast<size_t>(2 * ndim + 1));
  for (int64_t i = 0; i < ndim; ++i) {
    dims[i] = static_cast<Py_ssize_t>(t.sizes()[i]);
    dims[ndim + i] = static_cast<Py_ssize_t>(t.strides()[i] * t.element_size());
  }
  view->buf = t.data_bytes();
  view->obj = Py_NewRef(self);
  view->len = static_cast<Py_ssize_t>(t.numel() * t.element_size());
  view->readonly = t.storage()->writable() ? 0 : 1;
  view->itemsize = static_cast<Py_ssize_t>(t.element_size());
  view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? const_cast<char*>(format) : nullptr;
  view->ndim = static_cast<int>(ndim);
  view->shape = (flags & PyBUF_ND) == PyBUF_ND ? dims.get() : nullptr;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? dims.get() + ndim : nullptr;
  view->suboffsets = nullptr;
  view->internal = dims.release();
}

int tensor_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  view->obj = nullptr;
  // As numpy() (and torch): memory shared with a tensor that requires grad escapes autograd.
  if (nb::inst_ptr<Tensor>(nb::handle(self))->impl().requires_grad) {
    PyErr_SetString(PyExc_RuntimeError,
                    "[numpy] Can't call numpy() on Tensor that requires grad. Use "
                    "tensor.detach().numpy() instead.");
    return -1;
  }
  try {
    fill_buffer(self, view, flags);
    return 0;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_BufferError, e.what());
  }
  return -1;
}

void tensor_releasebuffer(PyObject*, Py_buffer* view) {
  delete[] static_cast<Py_ssize_t*>(view->internal);
}

// ---- DLPack.

// The capsule holds a reference to `owner` (a Python tensor), which keeps the storage alive until
// the consumer calls the capsule's deleter.
nb::object dlpack_capsule(nb::handle owner, nb::handle max_version, nb::handle dl_device) {
  const Tensor& t = unwrap(owner);
  std::vector<size_t> shape(t.sizes().begin(), t.sizes().end());
  nb::object array;
  if (t.storage()->writable()) {
    array = nb::ndarray<nb::array_api>(t.data_bytes(), shape.size(), shape.data(), owner,
                                       t.strides().data(), to_dlpack_dtype(t.dtype()), kDLCPU)
                .cast();
  } else {
    array =
        nb::ndarray<nb::array_api, nb::ro>(t.data_bytes(), shape.size(), shape.data(), owner,
                                           t.strides().data(), to_dlpack_dtype(t.dtype()), kDLCPU)
            .cast();
  }
  return array.attr("__dlpack__")(nb::arg("max_version") = max_version,
                                  nb::arg("dl_device") = dl_device);
}

// (major, minor) or (device type, device id): None or a pair of ints.
std::optional<std::pair<int64_t, int64_t>> int_pair(nb::handle h, const char* arg) {
  if (h.is_none()) return std::nullopt;
  EMBER_CHECK(PyTuple_Check(h.ptr()) && nb::len(h) == 2, TypeError, "[__dlpack__] ", arg,
              " must be None or a tuple of two ints, got ", nb::repr(h).c_str());
  bool overflow = false;
  const auto first = index_value(h[0], &overflow);
  const auto second = index_value(h[1], &overflow);
  EMBER_CHECK(
      first && second && !overflow && !PyBool_Check(h[0].ptr()) && !PyBool_Check(h[1].ptr()),
      TypeError, "[__dlpack__] ", arg, " must be None or a tuple of two ints, got ",
      nb::repr(h).c_str());
  return std::make_pair(*first, *second);
}

nb::object tensor_dlpack(nb::handle self, nb::handle stream, nb::handle max_version,
                         nb::handle dl_device, nb::handle copy) {
  EMBER_CHECK(stream.is_none(), ValueError, "[__dlpack__] stream must be None for CPU tensors");
  int_pair(max_version, "max_version");
  const auto device = int_pair(dl_device, "dl_device");
  if (device && (device->first != kDLCPU || device->second != 0)) {
    // The array API asks for BufferError; it is a ValueError too, like ember's other errors.
    PyErr_SetString(g_dlpack_error.ptr(),
                    str("[__dlpack__] can only export to the CPU, (1, 0), not (", device->first,
                        ", ", device->second, ")")
                        .c_str());
    throw nb::python_error();
  }
  const int want_copy = copy.is_none() ? 0 : PyObject_IsTrue(copy.ptr());
  if (want_copy < 0) throw nb::python_error();
  if (!want_copy && unwrap(self).is_conj()) {  // torch refuses too; copy=True resolves
    PyErr_SetString(g_dlpack_error.ptr(),
                    "[__dlpack__] Can't export tensors with the conjugate "
                    "bit set; call tensor.resolve_conj() first");
    throw nb::python_error();
  }
  if (want_copy) return dlpack_capsule(wrap(clone(unwrap(self))), max_version, dl_device);
  return dlpack_capsule(self, max_version, dl_device);
}

Tensor from_dlpack(nb::handle obj) {
  if (is_tensor(obj)) {
    const Tensor& t = unwrap(obj);
    return t.as_strided(t.sizes(), t.strides(), t.offset());  // an alias, as torch returns
  }
  const bool is_capsule = PyCapsule_CheckExact(obj.ptr());
  EMBER_CHECK(is_capsule || nb::hasattr(obj, "__dlpack__"), TypeError,
              "[from_dlpack] expected an object with __dlpack__ or a DLPack capsule, got ",
              nb::type_name(obj.type()).c_str());
  if (!is_capsule && nb::hasattr(obj, "__dlpack_device__")) {
    nb::object device = obj.attr("__dlpack_device__")();
    const int type = nb::cast<int>(device[0]);
    EMBER_CHECK(type == kDLCPU, RuntimeError, "[from_dlpack] the array lives on DLPack device ",
                nb::str(device).c_str(), "; this build of ember reads CPU memory only");
  }
  return from_array(obj, "from_dlpack");
}

// ---- ember.frombuffer: a 1-d tensor over any contiguous buffer-protocol object.

struct BufferRelease {
  void operator()(Py_buffer* view) const {
    PyBuffer_Release(view);
    delete view;
  }
};
using BufferPtr = std::unique_ptr<Py_buffer, BufferRelease>;

Tensor from_buffer(nb::handle buffer, ScalarType dtype, int64_t count, int64_t offset) {
  EMBER_CHECK(PyObject_CheckBuffer(buffer.ptr()), TypeError,
              "[frombuffer] expected an object that implements the buffer protocol, got ",
              nb::type_name(buffer.type()).c_str());
  bool writable = true;
  auto* raw = new Py_buffer();
  if (PyObject_GetBuffer(buffer.ptr(), raw, PyBUF_WRITABLE) != 0) {
    PyErr_Clear();
    writable = false;
    if (PyObject_GetBuffer(buffer.ptr(), raw, PyBUF_SIMPLE) != 0) {
      PyErr_Clear();
      delete raw;
      throw ValueError("[frombuffer] the buffer is not contiguous");
    }
  }
  BufferPtr view(raw);
  const int64_t length = view->len;
  const int64_t esize = element_size(dtype);
  EMBER_CHECK(length > 0 && count != 0, ValueError, "[frombuffer] both buffer length (", length,
              ") and count (", count, ") must not be 0");
  EMBER_CHECK(offset >= 0 && offset < length, ValueError, "[frombuffer] offset (", offset,
              " bytes) must be non-negative and no greater than buffer length (", length,
              " bytes) minus 1");
  EMBER_CHECK(count >= -1, ValueError, "[frombuffer] count must be -1 or positive, got ", count);
  if (count == -1) {
    EMBER_CHECK((length - offset) % esize == 0, ValueError, "[frombuffer] buffer length (",
                length - offset, " bytes) after offset (", offset,
                " bytes) must be a multiple of element size (", esize, ")");
    count = (length - offset) / esize;
  }
  EMBER_CHECK(count <= (length - offset) / esize, ValueError,
              "[frombuffer] requested buffer length (", count, " * ", esize,
              " bytes) after offset (", offset,
              " bytes) must not be greater than actual buffer length (", length, " bytes)");
  char* data = static_cast<char*>(view->buf) + offset;
  Py_buffer* held = view.release();
  auto storage = Storage::wrap(
      data, static_cast<size_t>(count * esize),
      [held] {
        nb::gil_scoped_acquire gil;
        BufferRelease()(held);
      },
      writable);
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = {count};
  impl->strides = {1};
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

// ---- Storage-level helpers for ember.save / ember.load (private: names start with '_').

// A tensor of `dtype` over `base`'s storage; every element it can reach must lie inside it.
Tensor view_storage(const Tensor& base, ScalarType dtype, const Shape& sizes, const Shape& strides,
                    int64_t offset) {
  const char* op = "_view_storage";
  EMBER_CHECK(sizes.size() == strides.size(), ValueError, "[", op, "] size ", sizes, " and stride ",
              strides, " have different lengths");
  const int64_t numel = checked_numel(sizes, op);
  const int64_t esize = element_size(dtype);
  const int64_t nbytes = static_cast<int64_t>(base.storage()->nbytes());
  EMBER_CHECK(offset >= 0, ValueError, "[", op, "] negative storage offset ", offset);
  const auto address = reinterpret_cast<uintptr_t>(base.storage()->data());
  EMBER_CHECK(address % static_cast<uintptr_t>(esize) == 0, ValueError, "[", op,
              "] the storage is not aligned to the element size ", esize);
  if (numel > 0) {
    int64_t lo = offset, hi = offset;  // reachable elements, checked for overflow
    for (size_t i = 0; i < sizes.size(); ++i) {
      int64_t span = 0;
      EMBER_CHECK(!__builtin_mul_overflow(sizes[i] - 1, strides[i], &span) &&
                      !__builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi),
                  ValueError, "[", op, "] size ", sizes, " and stride ", strides, " overflow");
    }
    int64_t lo_byte = 0, hi_byte = 0;
    EMBER_CHECK(!__builtin_mul_overflow(lo, esize, &lo_byte) &&
                    !__builtin_mul_overflow(hi + 1, esize, &hi_byte),
                ValueError, "[", op, "] offset ", offset, " overflows");
    EMBER_CHECK(lo_byte >= 0 && hi_byte <= nbytes, ValueError, "[", op, "] size ", sizes,
                ", stride ", strides, " and offset ", offset, " reach bytes [", lo_byte, ", ",
                hi_byte, ") outside the storage's ", nbytes, " bytes");
  }
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = base.storage();
  impl->sizes = sizes;
  impl->strides = strides;
  impl->offset = offset;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

}  // namespace

PyType_Slot tensor_buffer_slots[] = {
    {Py_bf_getbuffer, reinterpret_cast<void*>(tensor_getbuffer)},
    {Py_bf_releasebuffer, reinterpret_cast<void*>(tensor_releasebuffer)},
    {0, nullptr}};

void init_interop(nb::module_& m, TensorClass& cls) {
  g_dlpack_error = nb::steal(PyErr_NewExceptionWithDoc(
      "ember_core._C.DLPackError",
      "A DLPack export the tensor cannot provide (array API: BufferError).",
      nb::make_tuple(nb::handle(PyExc_BufferError), nb::handle(PyExc_ValueError)).ptr(), nullptr));
  m.attr("DLPackError") = g_dlpack_error;
  cls.def("__dlpack__", &tensor_dlpack, nb::kw_only(), nb::arg("stream") = nb::none(),
          nb::arg("max_version") = nb::none(), nb::arg("dl_device") = nb::none(),
          nb::arg("copy") = nb::none(),
          "A DLPack capsule sharing the tensor's memory (a copy when copy=True).");
  cls.def(
      "__dlpack_device__", [](const Tensor&) { return std::pair<int, int>(kDLCPU, 0); },
      "(device type, device id) in DLPack's numbering: (1, 0) is the CPU.");
  m.def(
      "from_dlpack",
      [](nb::handle ext_tensor, nb::handle device, nb::handle copy) {
        check_creation_options("from_dlpack", device, Py_False);
        const int want_copy = copy.is_none() ? 0 : PyObject_IsTrue(copy.ptr());
        if (want_copy < 0) throw nb::python_error();
        Tensor t = from_dlpack(ext_tensor);
        return wrap(want_copy ? clone(t) : t);
      },
      nb::arg("ext_tensor"), nb::kw_only(), nb::arg("device") = nb::none(),
      nb::arg("copy") = nb::none(),
      "A tensor sharing memory with any object that implements __dlpack__ (or a DLPack\n"
      "capsule): numpy arrays, torch tensors, ... No copy is made unless copy=True.\n\n"
      "Example:\n"
      "    >>> ember.from_dlpack(numpy.arange(3.0))\n"
      "    tensor([0., 1., 2.], dtype=ember.float64)");
  m.def(
      "frombuffer",
      [](nb::handle buffer, nb::handle dtype, int64_t count, int64_t offset,
         nb::handle requires_grad) {
        check_creation_options("frombuffer", nb::none(), requires_grad);
        return wrap(from_buffer(buffer, to_dtype_arg(dtype, "frombuffer"), count, offset));
      },
      nb::arg("buffer"), nb::kw_only(), nb::arg("dtype"), nb::arg("count") = -1,
      nb::arg("offset") = 0, nb::arg("requires_grad") = false,
      "A 1-d tensor over the bytes of a buffer-protocol object (bytearray, mmap, ...), sharing\n"
      "its memory: `count` elements of `dtype` from byte `offset` (-1: to the end).\n"
      "Read-only buffers give read-only tensors.\n\n"
      "Example:\n"
      "    >>> ember.frombuffer(bytearray(8), dtype=ember.int32)\n"
      "    tensor([0, 0], dtype=ember.int32)");
  m.def(
      "_storage_id", [](const Tensor& t) { return reinterpret_cast<uintptr_t>(t.storage().get()); },
      nb::arg("tensor"), "An id of the tensor's storage, equal for all views of it.");
  m.def(
      "_storage_bytes",
      [](const Tensor& t) {
        const int64_t n = static_cast<int64_t>(t.storage()->nbytes());
        return wrap(view_storage(t, ScalarType::UInt8, {n}, {1}, 0));
      },
      nb::arg("tensor"), "The tensor's whole storage as a 1-d uint8 tensor (no copy).");
  m.def(
      "_as_subclass",
      [](const Tensor& t, nb::handle cls) {
        EMBER_CHECK(PyType_Check(cls.ptr()) &&
                        PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls.ptr()),
                                         reinterpret_cast<PyTypeObject*>(nb::type<Tensor>().ptr())),
                    TypeError, "[_as_subclass] expected a subclass of Tensor, got ",
                    nb::repr(cls).c_str());
        nb::object inst = nb::inst_alloc(cls);
        new (nb::inst_ptr<Tensor>(inst)) Tensor(t);  // shares the TensorImpl (and its grad state)
        nb::inst_mark_ready(inst);
        return inst;
      },
      nb::arg("tensor"), nb::arg("cls"),
      "A new Python object of class `cls` for the same tensor (copy, pickle, legacy "
      "constructors).");
  m.def(
      "_view_storage",
      [](const Tensor& base, nb::handle dtype, nb::handle size, nb::handle stride,
         int64_t storage_offset) {
        return wrap(view_storage(base, to_dtype_arg(dtype, "_view_storage"),
                                 to_int_list(size, "_view_storage", "size"),
                                 to_int_list(stride, "_view_storage", "stride"), storage_offset));
      },
      nb::arg("base"), nb::arg("dtype"), nb::arg("size"), nb::arg("stride"),
      nb::arg("storage_offset"),
      "A tensor of `dtype` over base's storage (bounds-checked); offset in elements.");
}

}  // namespace ember::py
