// Resolving conjugate views at the op boundary (see conj_dispatch.h). Only reached while some
// tensor has its conj bit set, so none of this costs anything to code that never calls conj().
#include "conj_dispatch.h"

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ember::py {
namespace {

// Raw nanobind methods: calling them skips the dispatcher, so they are never recorded by
// autograd and never come back here.
PyObject* g_conj = nullptr;     // flips the conj bit (a new view)
PyObject* g_resolve = nullptr;  // resolve_conj
PyObject* g_negate = nullptr;   // conj_physical_ (negates the imaginary parts in place)
PyObject* g_copy = nullptr;     // copy_ (conjugates between conj and plain tensors)
PyObject* g_out_str = nullptr;

bool is_conj_tensor(PyObject* o) { return is_tensor(o) && unwrap(o).is_conj(); }

// Whether o is a conjugate view, or a list/tuple holding one (cat, stack, out=(a, b), ...).
bool holds_conj(PyObject* o) {
  if (is_conj_tensor(o)) return true;
  const bool list = PyList_Check(o), tuple = !list && PyTuple_Check(o);
  if (!list && !tuple) return false;
  const Py_ssize_t n = list ? PyList_Size(o) : PyTuple_Size(o);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (is_conj_tensor(list ? PyList_GetItem(o, i) : PyTuple_GetItem(o, i))) return true;
  }
  return false;
}

// `f(items[i])` for each item of a list/tuple, as a new sequence of the same kind.
template <typename F>
PyObject* map_sequence(PyObject* seq, F f) {
  const bool list = PyList_Check(seq);
  const Py_ssize_t n = list ? PyList_Size(seq) : PyTuple_Size(seq);
  PyObject* out = list ? PyList_New(n) : PyTuple_New(n);
  if (!out) return nullptr;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = f(list ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i));
    if (!item) {
      Py_DECREF(out);
      return nullptr;
    }
    if (list) {
      PyList_SetItem(out, i, item);
    } else {
      PyTuple_SetItem(out, i, item);
    }
  }
  return out;
}

PyObject* resolved_tensor(PyObject* o) {
  if (is_conj_tensor(o)) return PyObject_CallFunctionObjArgs(g_resolve, o, nullptr);
  return Py_NewRef(o);
}

// A new reference: o with its conjugate views resolved (o itself when it has none). Like
// holds_conj, it looks one level into a list/tuple and no deeper, so a list that contains
// itself cannot make it recurse.
PyObject* resolved(PyObject* o) {
  if (is_conj_tensor(o)) return resolved_tensor(o);
  if (!holds_conj(o)) return Py_NewRef(o);
  return map_sequence(o, resolved_tensor);
}

// A RuntimeError "[op] message"; methods are named "Tensor.op" in the dispatcher.
PyObject* set_error(PyObject* name, const char* message) {
  const char* full = PyUnicode_AsUTF8AndSize(name, nullptr);
  std::string_view op = full ? full : "?";
  if (op.starts_with("Tensor.")) op.remove_prefix(7);
  PyErr_SetString(PyExc_RuntimeError, (str("[", op, "] ", message)).c_str());
  return nullptr;
}

// ---- Structural ops: run on the storage's values, then conjugate the result.

// The result of a structural op run on `stripped` (the input without its conj bit) made into
// the result for `original`: a view of the storage gets the bit, a new tensor is conjugated.
PyObject* reflag(PyObject* r, PyObject* original, PyObject* stripped, PyObject* name) {
  if (r == stripped) return Py_NewRef(original);
  if (PyList_Check(r) || PyTuple_Check(r)) {
    return map_sequence(r, [&](PyObject* item) { return reflag(item, original, stripped, name); });
  }
  if (!is_tensor(r)) return Py_NewRef(r);
  const Tensor& t = unwrap(r);
  const Tensor& x = unwrap(original);
  if (t.storage() == x.storage()) {
    // A reinterpretation (view(dtype)) would pair the wrong halves of each element.
    if (t.dtype() != x.dtype()) {
      return set_error(name,
                       "cannot view a conjugate view as another dtype; call "
                       "resolve_conj() first");
    }
    t.impl().set_conj(!t.is_conj());  // a view the op just made: nothing else holds it yet
    return Py_NewRef(r);
  }
  if (is_complex(t.dtype())) {
    PyObject* done = PyObject_CallFunctionObjArgs(g_negate, r, nullptr);
    if (!done) return nullptr;
    Py_DECREF(done);
  }
  return Py_NewRef(r);
}

PyObject* structural_call(PyObject* func, PyObject* name, std::vector<PyObject*>& call,
                          Py_ssize_t nargs, PyObject* kwnames, std::vector<nb::object>& keep) {
  PyObject* original = call[0];
  nb::object stripped = nb::steal(PyObject_CallFunctionObjArgs(g_conj, original, nullptr));
  if (!stripped) return nullptr;
  call[0] = stripped.ptr();
  for (size_t i = 1; i < call.size(); ++i) {  // index tensors and the like: plain resolution
    if (!holds_conj(call[i])) continue;
    keep.push_back(nb::steal(resolved(call[i])));
    if (!keep.back()) return nullptr;
    call[i] = keep.back().ptr();
  }
  nb::object result =
      nb::steal(PyObject_Vectorcall(func, call.data(), static_cast<size_t>(nargs), kwnames));
  if (!result) return nullptr;
  return reflag(result.ptr(), original, stripped.ptr(), name);
}

// ---- Every other op: resolve the inputs; a conjugate destination gets a resolved stand-in.

struct Destination {
  nb::object original;  // the conjugate view the caller passed
  nb::object stand_in;  // the resolved copy the op writes into
};

PyObject* stand_in_for(PyObject* o, std::vector<Destination>& dests) {
  if (!is_conj_tensor(o)) return Py_NewRef(o);
  PyObject* temp = resolved(o);
  if (temp) dests.push_back({nb::borrow(o), nb::borrow(temp)});
  return temp;
}

// The caller's objects in place of the stand-ins in the op's result (x.add_() returns x).
PyObject* restore_identity(PyObject* r, const std::vector<Destination>& dests) {
  for (const Destination& d : dests) {
    if (r == d.stand_in.ptr()) return Py_NewRef(d.original.ptr());
  }
  if (PyTuple_Check(r) && !dests.empty()) {
    return map_sequence(r, [&](PyObject* item) { return restore_identity(item, dests); });
  }
  return Py_NewRef(r);
}

PyObject* resolving_call(PyObject* func, PyObject* name, ConjTraits traits,
                         std::vector<PyObject*>& call, Py_ssize_t nargs, PyObject* kwnames,
                         Py_ssize_t out_at, std::vector<nb::object>& keep) {
  std::vector<Destination> dests;
  for (size_t i = 0; i < call.size(); ++i) {
    PyObject* arg = call[i];
    if (!holds_conj(arg)) continue;
    const bool destination = (traits.inplace && i == 0) || static_cast<Py_ssize_t>(i) == out_at;
    PyObject* replaced = nullptr;
    if (!destination) {
      replaced = resolved(arg);
    } else if (is_conj_tensor(arg)) {
      replaced = stand_in_for(arg, dests);
    } else {  // out=(values, indices)
      replaced = map_sequence(arg, [&](PyObject* item) { return stand_in_for(item, dests); });
    }
    if (!replaced) return nullptr;
    keep.push_back(nb::steal(replaced));
    call[i] = replaced;
  }
  nb::object result =
      nb::steal(PyObject_Vectorcall(func, call.data(), static_cast<size_t>(nargs), kwnames));
  if (!result) return nullptr;
  for (const Destination& d : dests) {
    if (unwrap(d.original).sizes() != unwrap(d.stand_in).sizes()) {
      return set_error(name,
                       "a conjugate view given as out= must already have the result's "
                       "shape; resolve it or pass a plain tensor");
    }
    PyObject* done =
        PyObject_CallFunctionObjArgs(g_copy, d.original.ptr(), d.stand_in.ptr(), nullptr);
    if (!done) return nullptr;
    Py_DECREF(done);
  }
  return restore_identity(result.ptr(), dests);
}

}  // namespace

ConjTraits conj_traits(std::string_view name) {
  // The registry's conj= field (packages/core/registry/): "pass" ops take conjugate views as
  // they are (the conj family, copies that conjugate themselves, queries, in-place geometry
  // changes, exports that refuse conj views); "structural" ops only move or cast elements, so
  // conjugation commutes with them (ops that also fill in zeros, like tril, are not: the zeros
  // would become 0-0j).
  static const std::unordered_set<std::string_view> pass = {
      // Internal helpers of ember-tensor and ember.autograd (not ops, so not in the registry).
      "_is_same_tensor", "_is_view_of", "_set_requires_grad",
      "_storage_bytes",  "_storage_id", "_view_storage",
#define EMBER_CONJ_PASS(name) name,
#define EMBER_CONJ_STRUCTURAL(name)
#include "generated/conj_traits.inc"
#undef EMBER_CONJ_PASS
#undef EMBER_CONJ_STRUCTURAL
  };
  static const std::unordered_set<std::string_view> structural = {
#define EMBER_CONJ_PASS(name)
#define EMBER_CONJ_STRUCTURAL(name) name,
#include "generated/conj_traits.inc"
#undef EMBER_CONJ_PASS
#undef EMBER_CONJ_STRUCTURAL
  };
  static const std::unordered_set<std::string_view> inplace_dunders = {
      "__setitem__",   "__iadd__",    "__isub__",    "__imul__",   "__itruediv__",
      "__ifloordiv__", "__imod__",    "__ipow__",    "__iand__",   "__ior__",
      "__ixor__",      "__ilshift__", "__irshift__", "__imatmul__"};
  ConjTraits traits;
  traits.inplace = inplace_dunders.count(name) > 0 ||
                   (name.size() > 1 && name.back() == '_' && name.front() != '_');
  if (pass.count(name)) {
    traits.mode = ConjMode::kPass;
    traits.inplace = name == "copy_";  // the other pass ops ending in _ change geometry only
  } else if (structural.count(name)) {
    traits.mode = ConjMode::kStructural;
  }
  return traits;
}

PyObject* conj_call(PyObject* func, PyObject* name, ConjTraits traits, PyObject* const* args,
                    Py_ssize_t nargs, PyObject* kwnames) {
  const Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
  std::vector<PyObject*> call(args, args + nargs + nkw);
  bool any = false;
  for (PyObject* a : call) any = any || holds_conj(a);
  if (!any) return PyObject_Vectorcall(func, args, static_cast<size_t>(nargs), kwnames);
  Py_ssize_t out_at = -1;
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    PyObject* key = PyTuple_GetItem(kwnames, i);
    if (key == g_out_str || PyUnicode_Compare(key, g_out_str) == 0) out_at = nargs + i;
  }
  std::vector<nb::object> keep;  // owns the replaced arguments until the call returns
  if (traits.mode == ConjMode::kStructural && out_at < 0 && nargs > 0 && is_conj_tensor(call[0])) {
    return structural_call(func, name, call, nargs, kwnames, keep);
  }
  return resolving_call(func, name, traits, call, nargs, kwnames, out_at, keep);
}

void init_conj_dispatch(nb::handle tensor_class) {
  auto raw = [&](const char* method) {
    nb::object attr = nb::getattr(tensor_class, method);
    return nb::getattr(attr, "__wrapped__", attr).release().ptr();
  };
  g_conj = raw("conj");
  g_resolve = raw("resolve_conj");
  g_negate = raw("conj_physical_");
  g_copy = raw("copy_");
  g_out_str = PyUnicode_InternFromString("out");
}

}  // namespace ember::py
