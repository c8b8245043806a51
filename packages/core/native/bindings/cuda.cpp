// Build identity (version, variant) and the CUDA device queries behind ember.cuda.
// EMBER_VERSION and EMBER_VARIANT are defined for this file only (CMakeLists.txt), so that wheel
// variants differ in one object file and ccache reuses every other one.
#include "ember/cuda.h"

#include <nanobind/stl/string.h>

#include "python_api.h"

namespace ember::py {

void init_cuda(nb::module_& m) {
  m.attr("_version") = EMBER_VERSION;  // with its local label: "0.1.0+cu130"
  m.attr("variant") = EMBER_VARIANT;   // "cpu" or "cuda"
  m.def("_cuda_toolkit_version", &cuda::toolkit_version,
        "The CUDA toolkit version of a CUDA build (\"13.0\"); empty for CPU builds.");
  m.def("_cuda_set_runtime_library_path", &cuda::set_runtime_library_path, nb::arg("path"),
        "Where the CUDA runtime is looked for first (set by ember_core at import).");
  m.def("_cuda_device_count", &cuda::device_count,
        "Usable CUDA devices (the runtime is loaded on the first call; 0 on CPU builds).");
  m.def("_cuda_device_name", &cuda::device_name, nb::arg("index"),
        "The name of CUDA device `index`.");
  m.def("_cuda_unavailable_reason", &cuda::unavailable_reason,
        "Why no CUDA device can be used (empty when one can).");
  m.def("_cuda_runtime_version", &cuda::runtime_version,
        "The loaded CUDA runtime's version (\"13.0\"), empty when none loaded.");
}

}  // namespace ember::py
