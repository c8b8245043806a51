// Lazy conjugate views at the op boundary. Kernels never read the conj bit: the op dispatcher
// (grad_dispatch.cpp) hands any call that sees a conjugate view to conj_call, which resolves it
// once, or keeps it lazy for the ops that commute with conjugation.
#pragma once

#include <cstdint>
#include <string_view>

#include "python_api.h"

namespace ember::py {

enum class ConjMode : uint8_t {
  kResolve,     // conjugate views among the arguments become new resolved tensors (the default)
  kPass,        // the op handles conjugate views itself (conj, copy_, queries, numpy, ...)
  kStructural,  // the op only moves or casts its input's elements: run it on the storage, then
                // flag a view result as conjugate or conjugate a new result in place
};

struct ConjTraits {
  ConjMode mode = ConjMode::kResolve;
  bool inplace = false;  // writes into its first argument (add_, copy_, __setitem__, ...)
};

// The traits of an op, by its name without the "Tensor." prefix of methods.
ConjTraits conj_traits(std::string_view name);

// Calls `func` (a nanobind function; `args` has self first for methods) so that it sees the
// values of conjugate views: see ConjMode. A conjugate destination (the first argument of an
// in-place op, or out=) is computed into a resolved copy and copied back with conjugation.
// `name` is the op name for error messages. Returns a new reference, or null with an error set.
PyObject* conj_call(PyObject* func, PyObject* name, ConjTraits traits, PyObject* const* args,
                    Py_ssize_t nargs, PyObject* kwnames);

// Captures the raw (undispatched) Tensor.conj, resolve_conj, conj_physical_ and copy_ that
// conj_call uses; called once the class's methods are wrapped.
void init_conj_dispatch(nb::handle tensor_class);

}  // namespace ember::py
