// The device layer of CUDA builds: libcudart is dlopen'ed on first use, never linked, so the
// module imports on machines without a GPU, a driver or NVIDIA's runtime wheel.
// Only the runtime API's types come from the toolkit headers; every call goes through dlsym.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <mutex>

#include "ember/cuda.h"
#include "ember/errors.h"

#ifndef EMBER_CUDA_TOOLKIT_VERSION
#error "EMBER_CUDA_TOOLKIT_VERSION must be defined by CMakeLists.txt for the CUDA variant"
#endif

namespace ember::cuda {
namespace {

using GetDeviceCountFn = cudaError_t (*)(int*);
using GetDevicePropertiesFn = cudaError_t (*)(cudaDeviceProp*, int);
using GetVersionFn = cudaError_t (*)(int*);
using GetErrorStringFn = const char* (*)(cudaError_t);

// Soname of the runtime this build was compiled against (one per CUDA major version).
constexpr const char* kRuntimeSoname = "libcudart.so." EMBER_CUDA_MAJOR;

struct Runtime {
  std::once_flag loaded;
  std::string preferred_path;
  std::string error;  // why no device can be used; empty when the runtime works
  int device_count = 0;
  int version = 0;
  void* handle = nullptr;
  GetDevicePropertiesFn get_properties = nullptr;
  GetErrorStringFn error_string = nullptr;
};

Runtime& runtime() {
  static Runtime r;
  return r;
}

// Tries the path ember_core found (NVIDIA's wheel) first, then the loader's search path.
void* open_runtime(Runtime& r) {
  if (!r.preferred_path.empty()) {
    if (void* h = dlopen(r.preferred_path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
  }
  return dlopen(kRuntimeSoname, RTLD_NOW | RTLD_LOCAL);
}

Runtime& loaded_runtime() {
  Runtime& r = runtime();
  std::call_once(r.loaded, [&] {
    r.handle = open_runtime(r);
    if (!r.handle) {
      r.error = str("the CUDA runtime (", kRuntimeSoname, ") could not be loaded: ", dlerror(),
                    " (pip install nvidia-cuda-runtime)");
      return;
    }
    auto get_count = reinterpret_cast<GetDeviceCountFn>(dlsym(r.handle, "cudaGetDeviceCount"));
    auto get_version = reinterpret_cast<GetVersionFn>(dlsym(r.handle, "cudaRuntimeGetVersion"));
    r.get_properties =
        reinterpret_cast<GetDevicePropertiesFn>(dlsym(r.handle, "cudaGetDeviceProperties"));
    r.error_string = reinterpret_cast<GetErrorStringFn>(dlsym(r.handle, "cudaGetErrorString"));
    if (!get_count || !get_version || !r.get_properties || !r.error_string) {
      r.error = str("the CUDA runtime at ", kRuntimeSoname, " lacks cudaGetDeviceCount and co.");
      return;
    }
    get_version(&r.version);
    // Without a driver or a GPU this returns an error (35, 100): that means zero devices.
    const cudaError_t status = get_count(&r.device_count);
    if (status != cudaSuccess) {
      r.device_count = 0;
      r.error = str("cudaGetDeviceCount failed: ", r.error_string(status), " (error ",
                    static_cast<int>(status), ")");
    }
  });
  return r;
}

}  // namespace

bool compiled_with_cuda() { return true; }
std::string toolkit_version() { return EMBER_CUDA_TOOLKIT_VERSION; }

void set_runtime_library_path(const std::string& path) { runtime().preferred_path = path; }

int device_count() { return loaded_runtime().device_count; }

std::string device_name(int index) {
  Runtime& r = loaded_runtime();
  EMBER_CHECK(r.device_count > 0, RuntimeError, "[get_device_name] no CUDA device is available (",
              r.error, ")");
  EMBER_CHECK(index >= 0 && index < r.device_count, IndexError, "[get_device_name] device index ",
              index, " is out of range for ", r.device_count, " CUDA device(s)");
  cudaDeviceProp props{};
  const cudaError_t status = r.get_properties(&props, index);
  EMBER_CHECK(status == cudaSuccess, RuntimeError, "[get_device_name] cudaGetDeviceProperties(",
              index, ") failed: ", r.error_string(status));
  return props.name;
}

std::string unavailable_reason() {
  Runtime& r = loaded_runtime();
  if (!r.error.empty()) return r.error;
  return r.device_count == 0 ? "no CUDA device found" : "";
}

std::string runtime_version() {
  const int v = loaded_runtime().version;  // 13000 means 13.0
  return v > 0 ? str(v / 1000, ".", (v % 1000) / 10) : "";
}

}  // namespace ember::cuda
