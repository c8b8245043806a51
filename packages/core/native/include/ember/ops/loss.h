// Fused loss kernels behind ember.nn.functional: each loss is one pass over its input forward
// and one pass backward, instead of a chain of elementwise ops that autograd records one by one.
#pragma once

#include <cstdint>

#include "ember/tensor.h"

namespace ember {

// torch's reduction enum: 0 none, 1 mean, 2 sum.
enum class LossReduction : int64_t { kNone = 0, kMean = 1, kSum = 2 };
LossReduction loss_reduction(int64_t code, const char* op);

// Sigmoid + binary cross-entropy in one numerically stable pass (float32/float64): input and
// target of one shape; optional weight and pos_weight broadcast to it (undefined for none).
Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        int64_t reduction);
// Its gradient with respect to input, in one pass: grad_output is 0-d for mean/sum.
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad_output, const Tensor& input,
                                                 const Tensor& target, const Tensor& weight,
                                                 const Tensor& pos_weight, int64_t reduction);

}  // namespace ember
