// Autocast at the op boundary (ember.amp.autocast). While a region is active in a thread, the
// op dispatcher (grad_dispatch.cpp) hands the calls of the ops on torch's CPU autocast lists to
// autocast_call, which casts their floating tensor arguments and calls the op again; everywhere
// else the cost is one test of a process-wide counter of active regions.
#pragma once

#include <atomic>
#include <cstdint>

#include "python_api.h"

namespace ember::py {

enum class AutocastPolicy : uint8_t {
  kNone,     // not an autocast op
  kLower,    // float32 (and lower) tensors run in the region's dtype (matmul, conv, linear, ...)
  kFp32,     // float16/bfloat16 tensors run in float32 (losses, norms of reductions, linalg, fft)
  kPromote,  // tensors run in the widest floating dtype among them (cat, stack, index_copy)
};

// Threads with an enabled autocast region, over the whole process: zero on the fast path.
extern std::atomic<int> g_autocast_threads;

// Whether this thread is in an enabled region and not already inside an autocast op.
bool autocast_active();

// Casts the arguments of `dispatcher` (an op, possibly bound to `self`) by `policy`, then calls
// it with autocast suspended (so autograd records the casts and the op). `unbound` is the
// class's dispatcher to call when `self` is set (self is cast too). Returns a new reference.
PyObject* autocast_call(PyObject* dispatcher, PyObject* unbound, AutocastPolicy policy,
                        PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

// ember._C._set_autocast_enabled / _get_autocast_* / _clear_autocast_cache.
void init_autocast(nb::module_& m, nb::handle tensor_class);

}  // namespace ember::py
