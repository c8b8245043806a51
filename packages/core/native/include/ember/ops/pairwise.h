// polygamma, covariance and correlation matrices, pairwise distances (torch semantics).
#pragma once

#include <optional>
#include <string>

#include "ember/tensor.h"

namespace ember {

// The n-th derivative of digamma (n >= 0); integer inputs promote to the default dtype.
Tensor polygamma(int64_t n, const Tensor& x, const Tensor& out = {}, bool in_place = false);

// Covariance of the rows of x (variables) over its columns (observations), numpy.cov's
// weighting: integer `fweights` repeat observations, float `aweights` weigh them.
Tensor cov(const Tensor& x, int64_t correction, const Tensor& fweights = {},
           const Tensor& aweights = {});
// Pearson correlation coefficients (cov normalized by the standard deviations, clipped to
// [-1, 1]).
Tensor corrcoef(const Tensor& x);

// p-norm distances between the rows of x1 (..., r1, m) and x2 (..., r2, m): (..., r1, r2), batch
// dims broadcast. p = 2 goes through a matrix product when compute_mode asks for it (torch's
// "use_mm_for_euclid_dist_if_necessary": when r1 or r2 exceeds 25).
Tensor cdist(const Tensor& x1, const Tensor& x2, double p, const std::string& compute_mode);

}  // namespace ember
