// Dropout as one native pass each way. The forward draws each element's keep bit from the
// Philox stream (as bernoulli_(1 - p) would), writes x * (kept ? 1 / (1 - p) : 0) and keeps the
// bits packed eight to a byte; the backward reads them back. No float mask the size of the
// input is ever materialized (the composite path kept one alive for the backward).
#pragma once

#include <utility>

#include "ember/ops/factory.h"
#include "ember/tensor.h"

namespace ember {

// (output, mask) for a floating-point input and 0 <= p < 1: mask is uint8 [ceil(numel / 8)],
// bit i % 8 of byte i / 8 set where element i (in row-major order) was kept.
std::pair<Tensor, Tensor> dropout(const Tensor& input, double p, Generator* gen);
// grad_output * (kept ? 1 / (1 - p) : 0), with dropout's mask.
Tensor dropout_backward(const Tensor& grad_output, const Tensor& mask, double p);

}  // namespace ember
