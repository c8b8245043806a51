// Scans and paired reductions beyond cumsum/cumprod: cummax/cummin (values and indices),
// logcumsumexp, and aminmax.
#pragma once

#include <optional>
#include <utility>

#include "ember/tensor.h"

namespace ember {

// Running max/min along dim with the index of the element that holds it: ties and NaN take the
// latest index, and once a NaN is seen it stays (torch's rule).
std::pair<Tensor, Tensor> cummax(const Tensor& x, int64_t dim);
std::pair<Tensor, Tensor> cummin(const Tensor& x, int64_t dim);
// log(cumsum(exp(x))) along dim without overflow; floating dtypes only.
Tensor logcumsumexp(const Tensor& x, int64_t dim, const Tensor& out = {});
// (min, max) over every element (dim unset) or along dim.
std::pair<Tensor, Tensor> aminmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim);

}  // namespace ember
