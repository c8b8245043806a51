// The window geometry shared by the convolution and pooling kernels: 1 to 3 spatial dims as 3
// (a 1-d or 2-d problem runs as 3-d with leading unit dims), checked once.
#pragma once

#include <algorithm>
#include <cstdint>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/ops/conv.h"
#include "ember/parallel.h"
#include "ember/tensor.h"

namespace ember::window {

struct Geo3 {
  int64_t in[3], k[3], dil[3], pad[3], str[3], out[3];
  int64_t kernel_numel() const { return k[0] * k[1] * k[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
};

inline int64_t ceil_div(int64_t n, int64_t d) { return n > 0 ? (n + d - 1) / d : -((-n) / d); }

// The window positions o in [lo, hi) whose read o * stride + offset lies in [0, size).
inline void valid_range(int64_t size, int64_t stride, int64_t offset, int64_t count, int64_t* lo,
                        int64_t* hi) {
  *lo = std::clamp<int64_t>(ceil_div(-offset, stride), 0, count);
  *hi = std::clamp<int64_t>(ceil_div(size - offset, stride), *lo, count);
}

inline Geo3 to_geo3(const Shape& spatial, const WindowGeometry& g, const char* op) {
  const size_t d = g.kernel.size();
  EMBER_CHECK(d >= 1 && d <= 3 && spatial.size() == d && g.dilation.size() == d &&
                  g.padding.size() == d && g.stride.size() == d && g.out_size.size() == d,
              RuntimeError, "[", op,
              "] expected 1 to 3 spatial dims with one kernel size, "
              "dilation, padding, stride and output size each, got input spatial size ",
              spatial, " and kernel_size ", g.kernel);
  Geo3 r{};
  const size_t lead = 3 - d;
  for (size_t i = 0; i < 3; ++i) {
    const bool unit = i < lead;
    const size_t j = i - lead;
    r.in[i] = unit ? 1 : spatial[j];
    r.k[i] = unit ? 1 : g.kernel[j];
    r.dil[i] = unit ? 1 : g.dilation[j];
    r.pad[i] = unit ? 0 : g.padding[j];
    r.str[i] = unit ? 1 : g.stride[j];
    r.out[i] = unit ? 1 : g.out_size[j];
    EMBER_CHECK(r.k[i] > 0 && r.dil[i] > 0 && r.str[i] > 0 && r.pad[i] >= 0 && r.out[i] >= 0 &&
                    r.in[i] >= 0,
                RuntimeError, "[", op,
                "] kernel_size, dilation and stride must be positive, "
                "padding and sizes non-negative; got kernel_size ",
                g.kernel, ", dilation ", g.dilation, ", padding ", g.padding, ", stride ", g.stride,
                ", output size ", g.out_size);
  }
  return r;
}

// float16/bfloat16 run in float32 (rounded once at the end); other non-float types are refused.
inline ScalarType compute_dtype(ScalarType dt, const char* op) {
  EMBER_CHECK(dt == ScalarType::Float32 || dt == ScalarType::Float64 || dt == ScalarType::Float16 ||
                  dt == ScalarType::BFloat16,
              RuntimeError, "[", op, "] not implemented for '", dtype_name(dt),
              "': expected a floating point tensor");
  return dt == ScalarType::Float64 ? ScalarType::Float64 : ScalarType::Float32;
}

// Planes per parallel task: enough that one task does about kParallelGrain kernel taps.
inline int64_t plane_grain(const Geo3& g) {
  return std::max<int64_t>(1,
                           kParallelGrain / std::max<int64_t>(1, g.kernel_numel() * g.out_numel()));
}

// t as a contiguous tensor of the compute dtype ct (no copy when it already is one).
inline Tensor in_dtype(const Tensor& t, ScalarType ct) {
  return contiguous(t.dtype() == ct ? t : to_dtype(t, ct));
}

}  // namespace ember::window
