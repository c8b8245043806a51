// Autocast: per-thread state, the argument casts of each policy, and the cache of casted
// weights (leaf tensors that require grad are cast once per outermost region, as in torch).
#include "autocast_dispatch.h"

#include <unordered_map>
#include <vector>

namespace ember::py {

std::atomic<int> g_autocast_threads{0};

namespace {

thread_local bool t_enabled = false;
thread_local bool t_busy = false;  // inside autocast_call: nested ops are not cast again
thread_local bool t_cache_enabled = true;
thread_local ScalarType t_dtype = ScalarType::BFloat16;

PyTypeObject* g_tensor_type = nullptr;
PyObject* g_to_str = nullptr;
PyObject* g_out_str = nullptr;
PyObject* g_grad_fn_str = nullptr;

struct CacheEntry {
  nb::object source;  // keeps the key's TensorImpl alive, so its address is not reused
  nb::object cast;
};
thread_local std::unordered_map<const TensorImpl*, CacheEntry> t_cache;

const Tensor* as_tensor(PyObject* o) {
  if (!PyObject_TypeCheck(o, g_tensor_type)) return nullptr;
  return nb::inst_ptr<Tensor>(nb::handle(o));
}

bool is_low(ScalarType t) { return t == ScalarType::BFloat16 || t == ScalarType::Float16; }

// torch's is_eligible: a floating tensor that is not float64.
bool eligible(const Tensor* t) {
  return t && is_floating(t->dtype()) && t->dtype() != ScalarType::Float64;
}

// A leaf that requires grad (a weight): its cast is cached for the region.
bool cacheable(PyObject* o, const Tensor* t) {
  if (!t_cache_enabled || !t->impl().requires_grad) return false;
  PyObject* fn = PyObject_GetAttr(o, g_grad_fn_str);
  if (!fn) {
    PyErr_Clear();
    return false;
  }
  const bool leaf = fn == Py_None;
  Py_DECREF(fn);
  return leaf;
}

// `o` cast to `to` through Tensor.to (recorded by autograd); a new reference.
PyObject* cast_tensor(PyObject* o, const Tensor* t, ScalarType to) {
  const bool cache = cacheable(o, t);
  if (cache) {
    auto it = t_cache.find(&t->impl());
    if (it != t_cache.end()) return Py_NewRef(it->second.cast.ptr());
  }
  nb::object dtype = dtype_object(to);
  PyObject* r = PyObject_CallMethodObjArgs(o, g_to_str, dtype.ptr(), nullptr);
  if (r && cache) t_cache[&t->impl()] = {nb::borrow(o), nb::borrow(r)};
  return r;
}

// The dtype the policy casts a tensor of dtype `from` to, or `from` itself.
ScalarType target(AutocastPolicy policy, ScalarType from, ScalarType promoted) {
  switch (policy) {
    case AutocastPolicy::kLower:
      return t_dtype;
    case AutocastPolicy::kFp32:
      return is_low(from) ? ScalarType::Float32 : from;
    case AutocastPolicy::kPromote:
      return promoted;
    case AutocastPolicy::kNone:
      break;
  }
  return from;
}

// torch's promote_type: the region's dtype unless some argument is float32 (float64 ignored).
void promote_with(PyObject* o, ScalarType& promoted) {
  auto visit = [&](PyObject* item) {
    const Tensor* t = as_tensor(item);
    if (!eligible(t)) return;
    if (t->dtype() == ScalarType::Float32 || t->dtype() != promoted) {
      promoted = ScalarType::Float32;
    }
  };
  if (PyList_Check(o) || PyTuple_Check(o)) {
    const bool list = PyList_Check(o);
    const Py_ssize_t n = list ? PyList_Size(o) : PyTuple_Size(o);
    for (Py_ssize_t i = 0; i < n; ++i) visit(list ? PyList_GetItem(o, i) : PyTuple_GetItem(o, i));
  } else {
    visit(o);
  }
}

// One argument cast by the policy (tensors, and the tensors of a list/tuple); a new reference.
PyObject* cast_arg(PyObject* o, AutocastPolicy policy, ScalarType promoted) {
  if (const Tensor* t = as_tensor(o)) {
    if (!eligible(t)) return Py_NewRef(o);
    const ScalarType to = target(policy, t->dtype(), promoted);
    return to == t->dtype() ? Py_NewRef(o) : cast_tensor(o, t, to);
  }
  if (!PyList_Check(o) && !PyTuple_Check(o)) return Py_NewRef(o);
  const bool list = PyList_Check(o);
  const Py_ssize_t n = list ? PyList_Size(o) : PyTuple_Size(o);
  PyObject* out = list ? PyList_New(n) : PyTuple_New(n);
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item =
        cast_arg(list ? PyList_GetItem(o, i) : PyTuple_GetItem(o, i), policy, promoted);
    if (!item) {
      Py_DECREF(out);
      return nullptr;
    }
    if (list)
      PyList_SetItem(out, i, item);
    else
      PyTuple_SetItem(out, i, item);
  }
  return out;
}

struct BusyScope {
  bool saved = t_busy;
  BusyScope() { t_busy = true; }
  ~BusyScope() { t_busy = saved; }
};

void set_enabled(bool on, ScalarType dtype) {
  if (on != t_enabled) g_autocast_threads.fetch_add(on ? 1 : -1, std::memory_order_relaxed);
  t_enabled = on;
  t_dtype = dtype;
}

// Threads that exit inside a region must not leave the counter raised.
struct ThreadExit {
  ~ThreadExit() {
    if (t_enabled) g_autocast_threads.fetch_sub(1, std::memory_order_relaxed);
  }
};
thread_local ThreadExit t_exit_guard;

}  // namespace

bool autocast_active() { return t_enabled && !t_busy; }

PyObject* autocast_call(PyObject* dispatcher, PyObject* unbound, AutocastPolicy policy,
                        PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  const Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    // out= variants are not autocast (torch registers no autocast kernel for them).
    if (PyUnicode_Compare(PyTuple_GetItem(kwnames, i), g_out_str) == 0 &&
        args[nargs + i] != Py_None) {
      BusyScope busy;
      return PyObject_Vectorcall(dispatcher, args, static_cast<size_t>(nargs), kwnames);
    }
  }
  (void)t_exit_guard;  // odr-use: constructs the per-thread guard
  BusyScope busy;
  const Py_ssize_t lead = self ? 1 : 0;
  std::vector<PyObject*> raw(static_cast<size_t>(lead + nargs + nkw));
  if (self) raw[0] = self;
  for (Py_ssize_t i = 0; i < nargs + nkw; ++i) raw[static_cast<size_t>(lead + i)] = args[i];
  ScalarType promoted = t_dtype;
  if (policy == AutocastPolicy::kPromote) {
    for (PyObject* o : raw) promote_with(o, promoted);
  }
  std::vector<PyObject*> cast(raw.size(), nullptr);
  PyObject* result = nullptr;
  bool ok = true;
  for (size_t i = 0; i < raw.size() && ok; ++i) {
    cast[i] = cast_arg(raw[i], policy, promoted);
    ok = cast[i] != nullptr;
  }
  if (ok) {
    result = PyObject_Vectorcall(self ? unbound : dispatcher, cast.data(),
                                 static_cast<size_t>(lead + nargs), kwnames);
  }
  for (PyObject* o : cast) Py_XDECREF(o);
  return result;
}

void init_autocast(nb::module_& m, nb::handle tensor_class) {
  g_tensor_type = reinterpret_cast<PyTypeObject*>(tensor_class.ptr());
  g_to_str = PyUnicode_InternFromString("to");
  g_out_str = PyUnicode_InternFromString("out");
  g_grad_fn_str = PyUnicode_InternFromString("grad_fn");
  m.def(
      "_set_autocast_enabled",
      [](bool on, nb::handle dtype) {
        const ScalarType dt = to_dtype_arg(dtype, "autocast");
        EMBER_CHECK(is_low(dt) || dt == ScalarType::Float32, ValueError,
                    "[autocast] dtype must be bfloat16, float16 or float32, got ", dtype_name(dt));
        set_enabled(on, dt);
      },
      nb::arg("enabled"), nb::arg("dtype"),
      "Turns this thread's CPU autocast region on or off, with its low-precision dtype.");
  m.def("_get_autocast_enabled", [] { return t_enabled; });
  m.def("_get_autocast_dtype", [] { return dtype_object(t_dtype); });
  m.def("_set_autocast_cache_enabled", [](bool on) { t_cache_enabled = on; }, nb::arg("enabled"));
  m.def("_get_autocast_cache_enabled", [] { return t_cache_enabled; });
  m.def(
      "_clear_autocast_cache", [] { t_cache.clear(); },
      "Drops this thread's cached casts of weights (at the exit of the outermost region).");
}

}  // namespace ember::py
