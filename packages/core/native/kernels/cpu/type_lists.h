// dtype sets a kernel family is instantiated for. The baseline build covers every dtype; the
// AVX2/AVX-512 builds only the hot ones (the rest keep their baseline kernels), which keeps
// the number of template instantiations, and so the build time, down.
#pragma once

#include "ember/dtype.h"
#include "ember/kernels.h"
#include "loops.h"

namespace ember::cpu::EMBER_ISA_NS {

template <typename... Ts>
struct TypeList {};

#ifdef EMBER_ISA_BASELINE
// uint16/uint32/uint64 are in every integer family here (torch 2.13 has only casts, ==, mul and
// bitwise and/or/xor for them): the Array API standard needs their arithmetic, comparisons and
// ordering, and ember.Tensor is that namespace's array. Their loops are baseline-only (not hot).
using FloatTypes = TypeList<Half, BFloat16, float, double>;
using IntTypes = TypeList<uint8_t, int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t>;
using IntBoolTypes =
    TypeList<bool, uint8_t, int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t>;
using NumericTypes = TypeList<uint8_t, int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t,
                              uint64_t, Half, BFloat16, float, double>;
using AllTypes = TypeList<bool, uint8_t, int8_t, int16_t, int32_t, int64_t, uint16_t, uint32_t,
                          uint64_t, Half, BFloat16, float, double>;
using CastTypes = AllTypes;
#else
// bfloat16 is hot too (autocast): its conversions are shifts, so its loops vectorize here and
// run scalar and branchy in the baseline build (bf16 relu: 4.6 ms vs 0.05 ms in float32).
using FloatTypes = TypeList<BFloat16, float, double>;
using IntTypes = TypeList<int32_t, int64_t>;
using IntBoolTypes = TypeList<int32_t, int64_t>;
using NumericTypes = TypeList<int32_t, int64_t, BFloat16, float, double>;
using AllTypes = TypeList<bool, uint8_t, int32_t, int64_t, BFloat16, float, double>;
using CastTypes = AllTypes;
#endif

// nextafter's own: its float16/bfloat16 kernels step the storage bits (binary.cpp).
using FloatDoubleTypes = TypeList<float, double>;

template <typename T>
constexpr int dtype_index() {
  return static_cast<int>(scalar_type_of<T>());
}

}  // namespace ember::cpu::EMBER_ISA_NS
