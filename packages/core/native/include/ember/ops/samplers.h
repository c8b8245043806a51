// Random samplers beyond the fills of factory.h: multinomial, poisson, and the in-place
// geometric_, log_normal_ and cauchy_. All draw from a Generator (null: the default one), so a
// seeded call gives the same numbers whatever the thread count.
#pragma once

#include "ember/ops/factory.h"
#include "ember/tensor.h"

namespace ember {

// num_samples category indices per row of a 1-d or 2-d tensor of non-negative weights (int64,
// shaped like probs with the last dim replaced). Without replacement a category is drawn at
// most once.
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement,
                   Generator* gen = nullptr, const Tensor& out = {});
// A Poisson count for each (finite, non-negative) rate, in the rates' floating dtype.
Tensor poisson(const Tensor& rates, Generator* gen = nullptr);
// Trials up to the first success, each succeeding with probability p in (0, 1): 1, 2, ...
const Tensor& geometric_(const Tensor& t, double p, Generator* gen = nullptr);
// exp(N(mean, std)); floating dtypes, std > 0.
const Tensor& log_normal_(const Tensor& t, double mean, double std, Generator* gen = nullptr);
// median + sigma * tan(pi * (U - 1/2)); floating dtypes, sigma > 0.
const Tensor& cauchy_(const Tensor& t, double median, double sigma, Generator* gen = nullptr);

}  // namespace ember
