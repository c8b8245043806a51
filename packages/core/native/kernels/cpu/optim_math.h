// Scalar helpers of the fused optimizer steps: each rounds exactly as the ember kernel that the
// op-by-op reference path calls (files including it are compiled with -ffp-contract=off).
#pragma once

#include <cmath>

#include "loops.h"

namespace ember::cpu::EMBER_ISA_NS {

// a + s * b as ember's AddScaled/addcmul/addcdiv kernels round it (one FMA where the ISA has it).
template <typename T>
inline T add_scaled(T a, T s, T b) {
#ifdef __FMA__
  return std::fma(s, b, a);
#else
  return a + s * b;
#endif
}

// torch's lerp: exact at weight 1 (ember's Lerp functor).
template <typename T>
inline T lerp(T a, T b, T w) {
  const T d = b - a;
#ifdef __FMA__
  return std::fabs(w) < T(0.5) ? std::fma(w, d, a) : std::fma(-d, T(1) - w, b);
#else
  return std::fabs(w) < T(0.5) ? a + w * d : b - d * (T(1) - w);
#endif
}

// torch.maximum: NaN in either operand propagates.
template <typename T>
inline T maximum(T a, T b) {
  return (a != a || a > b) ? a : b;
}

}  // namespace ember::cpu::EMBER_ISA_NS
