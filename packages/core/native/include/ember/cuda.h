// The CUDA device layer: which CUDA devices exist, through the CUDA runtime (libcudart) that the
// cu* wheel variants load lazily with dlopen. CPU builds compile src/cuda/no_cuda.cpp instead and
// report no devices. No CUDA tensors exist yet: device="cuda" requests fail in every variant.
#pragma once

#include <string>

namespace ember::cuda {

// Whether this ember-core was built with the CUDA device layer (the cu* variants).
bool compiled_with_cuda();
// The CUDA toolkit version the build used ("13.0"), or "" for CPU builds.
std::string toolkit_version();
// Where the runtime library is looked for first (ember_core locates NVIDIA's runtime wheel).
void set_runtime_library_path(const std::string& path);
// Usable CUDA devices: 0 on CPU builds, without a driver, or without a GPU. Never throws.
int device_count();
// The name of device `index` (0 <= index < device_count()); throws RuntimeError/IndexError.
std::string device_name(int index);
// Why the runtime is unusable ("" when it loaded and found a driver), for ember.info.
std::string unavailable_reason();
// The loaded runtime's version as "13.0", or "" when no runtime loaded.
std::string runtime_version();

}  // namespace ember::cuda
