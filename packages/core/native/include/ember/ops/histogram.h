// Counting into bins: histc (equal-width bins over [min, max]) and bincount.
#pragma once

#include "ember/tensor.h"

namespace ember {

// `bins` equal-width bins over [min, max] of a float tensor (min == max: the data's range,
// widened by 1 on each side when it is a single value). Values outside, and NaN, are skipped;
// max falls in the last bin. The result has x's dtype.
Tensor histc(const Tensor& x, int64_t bins, double min, double max, const Tensor& out = {});

// Occurrences of each value of a 1-d non-negative integer tensor (int64), or the sums of
// `weights` (float32 weights give float32, any other dtype float64); at least `minlength` bins.
Tensor bincount(const Tensor& x, const Tensor& weights, int64_t minlength);

}  // namespace ember
