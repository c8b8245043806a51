// The autograd hook of the op layer. Every public function of ember._C and every method of
// TensorBase is wrapped, at module init, in a small vectorcall object that forwards the call
// unchanged unless ember.autograd has registered a recorder, named this op as one it records,
// and the call involves a tensor that requires grad (or asks for requires_grad=True). Only then
// does the call divert to Python; the fast path costs one flag test and a forwarded vectorcall.
// While some tensor has its conj bit set, calls also go through conj_call (conj_dispatch.h),
// which resolves conjugate views once here instead of in every kernel.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/unordered_set.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "autocast_dispatch.h"
#include "conj_dispatch.h"
#include "python_api.h"

// Python 3.11's names for the member types (3.12 renamed them; the stable ABI build uses those).
#ifndef Py_T_PYSSIZET
#include <structmember.h>
#define Py_T_PYSSIZET T_PYSSIZET
#define Py_T_OBJECT_EX T_OBJECT_EX
#define Py_READONLY READONLY
#endif

namespace ember::py {
namespace {

// Grad mode is per thread, as in torch; a new thread starts with grad enabled.
thread_local bool t_grad_enabled = true;

PyObject* g_recorder = nullptr;  // ember.autograd's entry point, or null
PyTypeObject* g_dispatch_type = nullptr;
PyTypeObject* g_tensor_type = nullptr;
PyObject* g_requires_grad_str = nullptr;

struct GradDispatch {
  PyObject_HEAD vectorcallfunc vectorcall;
  PyObject* func;   // the nanobind function doing the work
  PyObject* name;   // the op name the recorder looks up
  PyObject* self;   // bound instance (attribute access like `x.add`), or null
  bool recorded;    // whether ember.autograd has a rule (or a refusal) for this op
  ConjTraits conj;  // how the op sees conjugate views
  // What the recorder calls to run the op: a dispatcher that never records but resolves
  // conjugate views (autograd records on the caller's tensors; the kernel sees the values).
  PyObject* resolver;
  AutocastPolicy autocast;  // set by ember.amp (_set_autocast_ops)
  PyObject* unbound;        // a bound dispatcher's class-level op (for autocast), or null
};

std::vector<GradDispatch*>& all_dispatchers() {
  static std::vector<GradDispatch*> v;
  return v;
}

bool tensor_requires_grad(PyObject* o) {
  return PyObject_TypeCheck(o, g_tensor_type) &&
         nb::inst_ptr<Tensor>(nb::handle(o))->impl().requires_grad;
}

// Whether `o`, or an item of a list/tuple argument (cat, stack, ...), requires grad.
bool arg_requires_grad(PyObject* o) {
  if (tensor_requires_grad(o)) return true;
  // Only the stable-ABI accessors: the wheel is built against the limited API.
  if (PyList_Check(o)) {
    const Py_ssize_t n = PyList_Size(o);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (tensor_requires_grad(PyList_GetItem(o, i))) return true;
    }
  } else if (PyTuple_Check(o)) {
    const Py_ssize_t n = PyTuple_Size(o);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (tensor_requires_grad(PyTuple_GetItem(o, i))) return true;
    }
  }
  return false;
}

bool needs_recording(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  const Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
  if (t_grad_enabled) {
    if (self && tensor_requires_grad(self)) return true;
    for (Py_ssize_t i = 0; i < nargs + nkw; ++i) {
      if (arg_requires_grad(args[i])) return true;
    }
  }
  // Creation ops asked for requires_grad=True make a leaf even under no_grad.
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    PyObject* key = PyTuple_GetItem(kwnames, i);
    if ((key == g_requires_grad_str || PyUnicode_Compare(key, g_requires_grad_str) == 0) &&
        args[nargs + i] == Py_True) {
      return true;
    }
  }
  return false;
}

PyObject* call_recorder(GradDispatch* d, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  const Py_ssize_t offset = d->self ? 1 : 0;
  PyObject* positional = PyTuple_New(nargs + offset);
  if (!positional) return nullptr;
  if (d->self) {
    PyTuple_SetItem(positional, 0, Py_NewRef(d->self));
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    PyTuple_SetItem(positional, i + offset, Py_NewRef(args[i]));
  }
  PyObject* kwargs = PyDict_New();
  if (!kwargs) {
    Py_DECREF(positional);
    return nullptr;
  }
  const Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    if (PyDict_SetItem(kwargs, PyTuple_GetItem(kwnames, i), args[nargs + i]) < 0) {
      Py_DECREF(positional);
      Py_DECREF(kwargs);
      return nullptr;
    }
  }
  PyObject* func = d->resolver && any_conj_tensor_alive() ? d->resolver : d->func;
  PyObject* result =
      PyObject_CallFunctionObjArgs(g_recorder, d->name, func, positional, kwargs, nullptr);
  Py_DECREF(positional);
  Py_DECREF(kwargs);
  return result;
}

// Kernels that know no op name (visit_dtype on a complex or uint16/32/64 dtype) raise
// "[<op>] ...": name it, keeping the exception's class.
PyObject* name_unnamed_error(GradDispatch* d, PyObject* result) {
  if (result || !PyErr_ExceptionMatches(PyExc_TypeError)) return result;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyObject* text = value ? PyObject_Str(value) : nullptr;
  const char* message = text ? PyUnicode_AsUTF8AndSize(text, nullptr) : nullptr;
  constexpr std::string_view kUnnamed = "[<op>]";
  if (message && std::string_view(message).starts_with(kUnnamed)) {
    const char* name = PyUnicode_AsUTF8AndSize(d->name, nullptr);
    const std::string named =
        std::string("[") + (name ? name : "?") + "]" + (message + kUnnamed.size());
    Py_XDECREF(text);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    PyErr_SetString(type, named.c_str());
    Py_XDECREF(type);
    return nullptr;
  }
  if (!text) PyErr_Clear();
  Py_XDECREF(text);
  PyErr_Restore(type, value, traceback);
  return nullptr;
}

// ember.autograd maps a view's gradient to its base by geometry alone, which would drop the
// conjugation of a write through a conj view: refuse rather than return wrong gradients.
PyObject* refuse_conj_destination(GradDispatch* d) {
  const char* full = PyUnicode_AsUTF8AndSize(d->name, nullptr);
  std::string_view name = full ? full : "?";
  if (name.starts_with("Tensor.")) name.remove_prefix(7);
  PyErr_SetString(PyExc_NotImplementedError,
                  str("[", name,
                      "] in-place writes into a conjugate view are not differentiable "
                      "yet; write into the base tensor, or into x.conj().resolve_conj()")
                      .c_str());
  return nullptr;
}

PyObject* dispatch_vectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                              PyObject* kwnames) {
  auto* d = reinterpret_cast<GradDispatch*>(callable);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (d->autocast != AutocastPolicy::kNone &&
      g_autocast_threads.load(std::memory_order_relaxed) > 0 && autocast_active()) {
    return autocast_call(callable, d->unbound, d->autocast, d->self, args, nargs, kwnames);
  }
  if (g_recorder && d->recorded && needs_recording(d->self, args, nargs, kwnames)) {
    PyObject* dest = d->self ? d->self : (nargs > 0 ? args[0] : nullptr);
    if (d->conj.inplace && dest && PyObject_TypeCheck(dest, g_tensor_type) &&
        nb::inst_ptr<Tensor>(nb::handle(dest))->is_conj()) {
      return refuse_conj_destination(d);
    }
    return call_recorder(d, args, nargs, kwnames);
  }
  const bool conj = d->conj.mode != ConjMode::kPass && any_conj_tensor_alive();
  if (!d->self) {
    return name_unnamed_error(d, conj ? conj_call(d->func, d->name, d->conj, args, nargs, kwnames)
                                      : PyObject_Vectorcall(d->func, args, nargsf, kwnames));
  }
  // A bound dispatcher (from `x.add` attribute access): prepend self.
  const Py_ssize_t total = nargs + (kwnames ? PyTuple_Size(kwnames) : 0);
  std::vector<PyObject*> full(static_cast<size_t>(total) + 1);
  full[0] = d->self;
  for (Py_ssize_t i = 0; i < total; ++i) full[static_cast<size_t>(i) + 1] = args[i];
  if (conj) {
    return name_unnamed_error(
        d, conj_call(d->func, d->name, d->conj, full.data(), nargs + 1, kwnames));
  }
  return name_unnamed_error(
      d, PyObject_Vectorcall(d->func, full.data(), static_cast<size_t>(nargs) + 1, kwnames));
}

GradDispatch* new_dispatcher(PyObject* func, PyObject* name, PyObject* self, bool recorded,
                             ConjTraits conj, PyObject* resolver) {
  auto* d = PyObject_GC_New(GradDispatch, g_dispatch_type);
  if (!d) return nullptr;
  d->vectorcall = dispatch_vectorcall;
  d->func = Py_NewRef(func);
  d->name = Py_NewRef(name);
  d->self = self ? Py_NewRef(self) : nullptr;
  d->recorded = recorded;
  d->conj = conj;
  d->resolver = resolver ? Py_NewRef(resolver) : nullptr;
  d->autocast = AutocastPolicy::kNone;
  d->unbound = nullptr;
  PyObject_GC_Track(reinterpret_cast<PyObject*>(d));
  return d;
}

int dispatch_traverse(PyObject* o, visitproc visit, void* arg) {
  auto* d = reinterpret_cast<GradDispatch*>(o);
  Py_VISIT(d->func);
  Py_VISIT(d->self);
  Py_VISIT(d->resolver);
  Py_VISIT(d->unbound);
  Py_VISIT(Py_TYPE(o));
  return 0;
}

int dispatch_clear(PyObject* o) {
  auto* d = reinterpret_cast<GradDispatch*>(o);
  Py_CLEAR(d->self);
  Py_CLEAR(d->resolver);
  Py_CLEAR(d->unbound);
  return 0;
}

void dispatch_dealloc(PyObject* o) {
  auto* d = reinterpret_cast<GradDispatch*>(o);
  PyObject_GC_UnTrack(o);
  Py_CLEAR(d->func);
  Py_CLEAR(d->name);
  Py_CLEAR(d->self);
  Py_CLEAR(d->resolver);
  Py_CLEAR(d->unbound);
  PyTypeObject* type = Py_TYPE(o);
  PyObject_GC_Del(o);
  Py_DECREF(type);
}

// `x.add` (attribute access without a call) binds like a method; `x.add(y)` skips this thanks
// to Py_TPFLAGS_METHOD_DESCRIPTOR.
PyObject* dispatch_descr_get(PyObject* o, PyObject* inst, PyObject*) {
  auto* d = reinterpret_cast<GradDispatch*>(o);
  if (inst == nullptr || d->self != nullptr) return Py_NewRef(o);
  PyObject* bound = reinterpret_cast<PyObject*>(
      new_dispatcher(d->func, d->name, inst, false, d->conj, d->resolver));
  if (bound) {
    auto* b = reinterpret_cast<GradDispatch*>(bound);
    b->recorded = d->recorded;
    b->autocast = d->autocast;
    if (d->autocast != AutocastPolicy::kNone) b->unbound = Py_NewRef(o);
  }
  return bound;
}

// Introspection (`__doc__`, `__name__`, `__signature__`, ...) falls through to the wrapped
// nanobind function so help() and the stub generator see the real thing.
// The op registry's docstrings (packages/core/registry/), by dispatch name; ops the registry
// does not document yet keep nanobind's (their signature).
const char* registry_doc(PyObject* name) {
  static const std::unordered_map<std::string_view, const char*> docs = {
#define EMBER_OP_DOC(name, text) {name, text},
#include "generated/op_docs.inc"
#undef EMBER_OP_DOC
  };
  Py_ssize_t size = 0;
  const char* text = PyUnicode_AsUTF8AndSize(name, &size);
  if (!text) {
    PyErr_Clear();
    return nullptr;
  }
  auto it = docs.find(std::string_view(text, static_cast<size_t>(size)));
  return it == docs.end() ? nullptr : it->second;
}

PyObject* dispatch_getattro(PyObject* o, PyObject* attr) {
  if (PyUnicode_CompareWithASCIIString(attr, "__doc__") == 0) {
    auto* d = reinterpret_cast<GradDispatch*>(o);
    if (const char* doc = registry_doc(d->name)) return PyUnicode_FromString(doc);
    return PyObject_GetAttr(d->func, attr);
  }
  PyObject* found = PyObject_GenericGetAttr(o, attr);
  if (found || !PyErr_ExceptionMatches(PyExc_AttributeError)) return found;
  PyErr_Clear();
  return PyObject_GetAttr(reinterpret_cast<GradDispatch*>(o)->func, attr);
}

PyObject* dispatch_repr(PyObject* o) {
  return PyObject_Repr(reinterpret_cast<GradDispatch*>(o)->func);
}

PyTypeObject* make_dispatch_type() {
  static PyMemberDef members[] = {
      {"__vectorcalloffset__", Py_T_PYSSIZET,
       static_cast<Py_ssize_t>(offsetof(GradDispatch, vectorcall)), Py_READONLY, nullptr},
      {"__wrapped__", Py_T_OBJECT_EX, static_cast<Py_ssize_t>(offsetof(GradDispatch, func)),
       Py_READONLY, nullptr},
      {nullptr, 0, 0, 0, nullptr}};
  static PyType_Slot slots[] = {{Py_tp_members, members},
                                {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                                {Py_tp_descr_get, reinterpret_cast<void*>(dispatch_descr_get)},
                                {Py_tp_getattro, reinterpret_cast<void*>(dispatch_getattro)},
                                {Py_tp_repr, reinterpret_cast<void*>(dispatch_repr)},
                                {Py_tp_traverse, reinterpret_cast<void*>(dispatch_traverse)},
                                {Py_tp_clear, reinterpret_cast<void*>(dispatch_clear)},
                                {Py_tp_dealloc, reinterpret_cast<void*>(dispatch_dealloc)},
                                {0, nullptr}};
  static PyType_Spec spec = {"ember_core._C.op", static_cast<int>(sizeof(GradDispatch)), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
                                 Py_TPFLAGS_METHOD_DESCRIPTOR,
                             slots};
  return reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
}

bool is_nanobind_function(nb::handle obj, const char* kind) {
  return std::string(nb::type_name(obj.type()).c_str()) == kind;
}

// Replaces every nanobind function found in `scope` (a module or a class) by a dispatcher.
// Methods are named "Tensor.<name>": their signatures can differ from the functions'
// (x.view(*shape) vs no function at all, x.reshape(*shape) vs ember.reshape(input, shape)).
void wrap_functions(nb::handle scope, const char* kind, const std::string& prefix) {
  // A class's __dict__ is a mappingproxy: go through items().
  nb::object items = nb::getattr(scope, "__dict__").attr("items")();
  std::vector<std::pair<nb::object, nb::object>> targets;
  for (nb::handle item : nb::iter(items)) {
    nb::handle key = item[0], value = item[1];
    const std::string name = nb::str(key).c_str();
    if (name == "__init__" || name == "__new__" || !is_nanobind_function(value, kind)) continue;
    targets.emplace_back(nb::borrow(key), nb::borrow(value));
  }
  for (auto& [key, func] : targets) {
    nb::str op_name((prefix + nb::str(key).c_str()).c_str());
    const ConjTraits conj = conj_traits(nb::str(key).c_str());
    nb::object resolver;
    if (conj.mode != ConjMode::kPass) {
      resolver = nb::steal(reinterpret_cast<PyObject*>(
          new_dispatcher(func.ptr(), op_name.ptr(), nullptr, false, conj, nullptr)));
      if (!resolver) throw nb::python_error();
    }
    GradDispatch* d =
        new_dispatcher(func.ptr(), op_name.ptr(), nullptr, false, conj, resolver.ptr());
    if (!d) throw nb::python_error();
    all_dispatchers().push_back(d);
    nb::setattr(scope, key, nb::steal(reinterpret_cast<PyObject*>(d)));
  }
}

// What the recorder registered; the rest of the ops keep the plain fast path.
void set_recorder(nb::handle recorder, const std::unordered_set<std::string>& names) {
  Py_XDECREF(g_recorder);
  g_recorder = recorder.is_none() ? nullptr : Py_NewRef(recorder.ptr());
  for (GradDispatch* d : all_dispatchers()) {
    d->recorded = g_recorder && names.count(nb::str(d->name).c_str()) > 0;
  }
}

// ember.amp's op lists: name -> policy (1 lower precision, 2 float32, 3 promote; 0 clears).
void set_autocast_ops(const nb::dict& policies) {
  for (GradDispatch* d : all_dispatchers()) {
    d->autocast = AutocastPolicy::kNone;
    PyObject* p = PyDict_GetItem(policies.ptr(), d->name);
    if (p) d->autocast = static_cast<AutocastPolicy>(PyLong_AsLong(p));
  }
}

// The autograd record hangs off the TensorImpl as an opaque handle; dropping the last
// reference to the impl must release the Python object with the GIL held.
struct PyHandleDeleter {
  void operator()(void* p) const {
    auto* obj = static_cast<PyObject*>(p);
    if (!Py_IsInitialized()) return;  // interpreter gone: leak rather than crash at exit
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(obj);
    PyGILState_Release(state);
  }
};

}  // namespace

void init_grad_dispatch(nb::module_& m, TensorClass& cls) {
  g_tensor_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  g_requires_grad_str = PyUnicode_InternFromString("requires_grad");

  m.def(
      "is_grad_enabled", [] { return t_grad_enabled; },
      "Whether gradient recording is on in this thread (ember.no_grad turns it off).");
  m.def("_set_grad_enabled", [](bool on) { t_grad_enabled = on; }, nb::arg("mode"));
  m.def("_set_grad_recorder", &set_recorder, nb::arg("recorder").none(), nb::arg("names"),
        "Registers ember.autograd's recorder for the named ops (None unregisters).");
  m.def("_has_grad_recorder", [] { return g_recorder != nullptr; });
  m.def("_set_autocast_ops", &set_autocast_ops, nb::arg("policies"),
        "Marks the ops autocast casts: {name: 1 lower precision | 2 float32 | 3 promote}.");
  init_autocast(m, cls);

  cls.def_prop_ro(
         "requires_grad", [](const Tensor& t) { return t.impl().requires_grad; },
         "Whether gradients are recorded for this tensor (needs ember-autograd).")
      .def("_set_requires_grad", [](const Tensor& t, bool on) { t.impl().requires_grad = on; })
      .def_prop_rw(
          "_autograd_meta",
          [](const Tensor& t) -> nb::object {
            void* meta = t.impl().autograd_meta.get();
            if (!meta) return nb::none();
            return nb::borrow(static_cast<PyObject*>(meta));
          },
          [](const Tensor& t, nb::handle meta) {
            if (meta.is_none()) {
              t.impl().autograd_meta.reset();
              return;
            }
            t.impl().autograd_meta =
                std::shared_ptr<void>(Py_NewRef(meta.ptr()), PyHandleDeleter{});
          },
          nb::arg("meta").none())
      .def_prop_ro(
          "_sizes",
          [](const Tensor& t) {
            nb::object sizes = nb::steal(PyTuple_New(t.dim()));
            for (int64_t d = 0; d < t.dim(); ++d) {
              PyTuple_SetItem(sizes.ptr(), d, PyLong_FromLongLong(t.sizes()[d]));
            }
            return sizes;
          },
          "The shape as a plain tuple (cheaper than .shape for autograd's bookkeeping).")
      .def("_is_same_tensor", [](const Tensor& a, const Tensor& b) { return a.same_impl(b); })
      .def_prop_ro(
          "_view_base",
          [](const Tensor& t) -> nb::object {
            auto base = t.impl().view_base.lock();
            if (!base) return nb::none();
            return wrap(Tensor(std::move(base)));
          },
          "The live tensor this one is a view of (None for a non-view or a dead base).")
      .def(
          "detach",
          [](const Tensor& t) {
            Tensor out = alias(t);
            out.impl().view_base.reset();  // a detached tensor is not a view for autograd
            return wrap(out);
          },
          "A new tensor sharing storage, cut from the autograd graph.");
}

void install_grad_dispatch(nb::module_& m, TensorClass& cls) {
  g_dispatch_type = make_dispatch_type();
  if (!g_dispatch_type) throw nb::python_error();
  wrap_functions(m, "nanobind.nb_func", "");
  wrap_functions(cls, "nanobind.nb_method", "Tensor.");
  init_conj_dispatch(cls);
}

}  // namespace ember::py
