// The floating-point test shared by the random fills and dropout: at compile time for a kernel's
// element type, at run time for a tensor, with torch's NotImplementedError text.
#pragma once

#include <type_traits>

#include "ember/errors.h"
#include "ember/ops/factory.h"
#include "ember/tensor.h"

namespace ember {

template <typename T>
constexpr bool is_float_type =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// `kernel` is the name torch's message gives ("normal_kernel_cpu"): torch names its kernel there.
inline void check_floating(const Tensor& t, const char* op, const char* kernel) {
  EMBER_CHECK(is_floating(t.dtype()), NotImplementedError, "[", op, "] \"", kernel,
              "\" not implemented for '", torch_type_name(t.dtype()), "' (needs a floating point ",
              "dtype, got ", dtype_name(t.dtype()), ")");
}

}  // namespace ember
