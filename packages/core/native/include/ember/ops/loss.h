// The fused loss kernels behind ember.nn.functional, each one pass forward and one backward:
// softmax backward and cross-entropy over [outer, C, inner] rows (float32 accumulation for
// float16/bfloat16), and binary cross-entropy with logits.
#pragma once

#include <tuple>

#include "ember/tensor.h"

namespace ember {

// The gradient of softmax (log: log_softmax) along dim from its output and the output's grad.
Tensor softmax_backward(const Tensor& grad_output, const Tensor& output, int64_t dim, bool log);

// Reductions of the fused losses, as torch numbers them.
enum class LossReduction : int { None = 0, Mean = 1, Sum = 2 };

// Cross-entropy of logits [N, C, *d] (or [N, C]) and class indices [N, *d]: log_softmax, NLL with
// class weights (undefined for none), ignore_index and label smoothing in one pass. Returns
// (loss, logsumexp per position [N, *d], total weight 0-d): the last two are what backward reads.
std::tuple<Tensor, Tensor, Tensor> cross_entropy_forward(const Tensor& input, const Tensor& target,
                                                         const Tensor& weight,
                                                         LossReduction reduction,
                                                         int64_t ignore_index, double smoothing);
// The gradient of cross_entropy_forward's loss with respect to input, in one pass.
Tensor cross_entropy_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                              const Tensor& weight, const Tensor& logsumexp,
                              const Tensor& total_weight, LossReduction reduction,
                              int64_t ignore_index, double smoothing);

// Sigmoid + binary cross-entropy in one numerically stable pass (float32/float64): input and
// target of one shape; optional weight and pos_weight broadcast to it (undefined for none).
Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        LossReduction reduction);
// Its gradient with respect to input, in one pass: grad_output is 0-d for mean/sum.
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad_output, const Tensor& input,
                                                 const Tensor& target, const Tensor& weight,
                                                 const Tensor& pos_weight, LossReduction reduction);

}  // namespace ember
