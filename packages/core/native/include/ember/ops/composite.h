// Ops composed from other ops: softmax/log_softmax along a dim (max-shifted), addcmul/addcdiv,
// diff, heaviside and float_power. Elementwise additions (logaddexp, logaddexp2) live in the
// binary op table (kernels.h).
#pragma once

#include <optional>

#include "ember/ops/reduce.h"
#include "ember/tensor.h"

namespace ember {

// Numerically stable (max-shifted); `dtype` converts the input first. Float inputs only.
Tensor softmax(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);

// input + value * t1 * t2 and input + value * t1 / t2; `value` is a wrapped Python number.
Tensor addcmul(const Tensor& input, const Tensor& t1, const Tensor& t2, const Tensor& value,
               const Tensor& out = {}, bool in_place = false);
Tensor addcdiv(const Tensor& input, const Tensor& t1, const Tensor& t2, const Tensor& value,
               const Tensor& out = {}, bool in_place = false);

// n-th forward difference along `dim`, after concatenating prepend/append (undefined = absent).
Tensor diff(const Tensor& x, int64_t n, int64_t dim, const Tensor& prepend = {},
            const Tensor& append = {});

// sum/mean treating NaN as absent (zero, and not counted); nanmean needs a float input.
Tensor nansum(const Tensor& x, const Dims& dims, bool keepdim,
              std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor nanmean(const Tensor& x, const Dims& dims, bool keepdim,
               std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});

// `values` where x == 0, else (x > 0); torch requires both operands to have one dtype.
Tensor heaviside(const Tensor& x, const Tensor& values, const Tensor& out = {},
                 bool in_place = false);

// pow computed in float64 whatever the operands (torch.float_power); the in-place form needs a
// float64 self.
Tensor float_power(const Tensor& x, const Tensor& exponent, const Tensor& out = {},
                   bool in_place = false);

}  // namespace ember
