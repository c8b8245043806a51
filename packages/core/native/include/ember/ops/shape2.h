// Shape ops that copy: flips, rolls, repeats and triangular masks (torch semantics).
#pragma once

#include <vector>

#include "ember/tensor.h"

namespace ember {

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims);
Tensor fliplr(const Tensor& x);  // needs >= 2 dims
Tensor flipud(const Tensor& x);  // needs >= 1 dim
// Empty `dims` rolls the flattened tensor (then `shifts` must have one entry).
Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims);
Tensor repeat(const Tensor& x, const std::vector<int64_t>& repeats);
Tensor tile(const Tensor& x, const std::vector<int64_t>& dims);
// Lower/upper triangle of the last two dims; the rest becomes zero.
Tensor tril(const Tensor& x, int64_t diagonal);
Tensor triu(const Tensor& x, int64_t diagonal);
const Tensor& tril_(const Tensor& x, int64_t diagonal);
const Tensor& triu_(const Tensor& x, int64_t diagonal);

}  // namespace ember
