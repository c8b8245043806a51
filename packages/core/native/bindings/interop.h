// What numpy.cpp and interop.cpp share: importing any DLPack or buffer-protocol array without a
// copy, and the DLPack dtype of an ember dtype.
#pragma once

#include <nanobind/ndarray.h>

#include "python_api.h"

namespace ember::py {

// A tensor sharing memory with `obj` (DLPack producer, capsule or buffer); read-only sources give
// read-only tensors. Errors name `op`.
Tensor from_array(nb::handle obj, const char* op);
nb::dlpack::dtype to_dlpack_dtype(ScalarType t);

}  // namespace ember::py
