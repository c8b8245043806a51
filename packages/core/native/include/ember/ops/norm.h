// Normalization layers as one pass each way: layer/RMS norm over trailing dims, group norm over
// channel groups and batch norm over (N, *spatial) per channel. float16/bfloat16 inputs read and
// write their own dtype and accumulate in float32; the saved statistics are float32 then.
#pragma once

#include <array>
#include <tuple>

#include "ember/tensor.h"

namespace ember {

using Tensor3 = std::tuple<Tensor, Tensor, Tensor>;
// Which of (input, weight, bias) a backward pass computes; the others come back undefined.
using GradMask = std::array<bool, 3>;

// Layer norm (rms: RMS norm, no mean and no bias) over the last `normalized_ndim` dims: returns
// (output, mean, rstd), the statistics shaped [*lead, 1, ...] (mean undefined for rms).
// weight/bias are undefined or the normalized shape.
Tensor3 layer_norm_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           int64_t normalized_ndim, double eps, bool rms);
// (grad_input, grad_weight, grad_bias) of layer_norm_forward. Every backward recomputes the
// statistics from the input in its pass (cheap, in cache), so autograd saves no forward output
// and an in-place op on the output (relu_) does not invalidate the graph.
Tensor3 layer_norm_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            int64_t normalized_ndim, double eps, bool rms, GradMask mask);

// Group norm of [N, C, *] over `groups` groups of C / groups channels: (output, mean, rstd), the
// statistics [N, groups]; weight/bias undefined or [C].
Tensor3 group_norm_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           int64_t groups, double eps);
Tensor3 group_norm_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            int64_t groups, double eps, GradMask mask);

// Batch norm of [N, C, *]: training uses the batch statistics and, when running_mean/var are
// defined, updates them in place (momentum; the variance unbiased); eval uses the running ones.
// Returns (output, mean, invstd) per channel.
Tensor3 batch_norm_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           const Tensor& running_mean, const Tensor& running_var, bool training,
                           double momentum, double eps);
// Training recomputes the batch statistics; eval reads running_mean/running_var.
Tensor3 batch_norm_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            const Tensor& running_mean, const Tensor& running_var, bool training,
                            double eps, GradMask mask);

}  // namespace ember
