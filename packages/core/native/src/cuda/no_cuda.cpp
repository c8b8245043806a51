// The device layer of CPU builds: no CUDA runtime is ever loaded and no device exists.
#include "ember/cuda.h"
#include "ember/errors.h"

namespace ember::cuda {

bool compiled_with_cuda() { return false; }
std::string toolkit_version() { return ""; }
void set_runtime_library_path(const std::string&) {}
int device_count() { return 0; }

std::string device_name(int index) {
  throw RuntimeError(str("[get_device_name] no CUDA device ", index,
                         ": this ember-core is a CPU build (install a cu* variant for CUDA)"));
}

std::string unavailable_reason() { return "this ember-core is a CPU build"; }
std::string runtime_version() { return ""; }

}  // namespace ember::cuda
