// Branch-free exp, sigmoid and tanh for the fused RNN-cell and attention kernels: written so that
// an `omp simd` loop vectorizes them for whatever ISA its function is compiled for (the callers
// compile one copy per ISA with target attributes); double goes to libm.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ember::fastmath {

// exp(x) for float: 2^n * p(r) with r = x - n ln2 in [-ln2/2, ln2/2] and a degree-6 Taylor
// polynomial (relative error ~1.2e-7); below -87 the result is 0 and above 88 it is +inf, so
// exp(-inf) = 0 and sigmoid/tanh saturate exactly.
[[gnu::always_inline]] inline float exp(float x) {
  const float xc = x < -87.0f ? -87.0f : (x > 88.0f ? 88.0f : x);
  // Round to nearest with the 1.5 * 2^23 trick (no rounding instruction needed).
  const float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  const float r = (xc - n * 0.693145751953125f) - n * 1.428606765330187e-06f;
  float p = 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  const float y = p * scale;
  const float over = x > 88.0f ? __builtin_inff() : y;  // float overflows from exp(88.72)
  return x != x ? x : (x < -87.0f ? 0.0f : over);
}

[[gnu::always_inline]] inline double exp(double x) { return std::exp(x); }

template <typename T>
[[gnu::always_inline]] inline T sigmoid(T x) {
  return T(1) / (T(1) + fastmath::exp(-x));
}

// tanh: an odd Taylor polynomial near 0 (where 1 - 2 / (e^2x + 1) would lose relative
// precision), the exp form elsewhere.
[[gnu::always_inline]] inline float tanh(float x) {
  const float a = x < 0.0f ? -x : x;
  const float big = 1.0f - 2.0f / (fastmath::exp(2.0f * a) + 1.0f);
  const float x2 = a * a;
  float p = 62.0f / 2835.0f;
  p = p * x2 - 17.0f / 315.0f;
  p = p * x2 + 2.0f / 15.0f;
  p = p * x2 - 1.0f / 3.0f;
  const float small = a + a * x2 * p;
  const float t = a < 0.3f ? small : big;
  return x < 0.0f ? -t : t;
}

[[gnu::always_inline]] inline double tanh(double x) { return std::tanh(x); }

}  // namespace ember::fastmath
