// Sliding-window gathers behind convolution, pooling and unfold/fold: im2col copies every window
// of a [N, C, *spatial] input (1 to 3 spatial dims) into the columns of a [N, C * K, L] matrix
// (K: kernel positions, L: output positions); col2im is its adjoint (sums columns back).
#pragma once

#include <utility>

#include "ember/tensor.h"

namespace ember {

// Window geometry per spatial dim. `out_size` is the number of windows along each dim: windows
// may reach past the padded input (ceil_mode pooling, 'same' convolution); such reads give
// pad_value and such writes are dropped.
struct WindowGeometry {
  Shape kernel, dilation, padding, stride, out_size;
};

// input [N, C, *S] (float types) -> [N, C * prod(kernel), prod(out_size)]; positions outside the
// input read `pad_value`.
Tensor im2col(const Tensor& input, const WindowGeometry& g, double pad_value = 0.0);
// columns [N, C * prod(kernel), prod(out_size)] -> [N, C, *input_size], summing the entries that
// land on one input position.
Tensor col2im(const Tensor& columns, const Shape& input_size, const WindowGeometry& g);

// Convolution as per-sample im2col + GEMM, samples split over the pool (one native call per
// pass; no [C * K, N * L] matrix). The kernel size is the weight's trailing dims; `g.kernel` is
// ignored by conv_forward and conv_input_grad. input [N, C, *S], weight [C_out, C / groups, *k],
// optional bias [C_out] (undefined for none) -> [N, C_out, *g.out_size].
Tensor conv_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    const WindowGeometry& g, int64_t groups);
// The gradient of conv_forward's input (the transposed convolution): grad_output
// [N, C_out, *out], weight [C_out, C / groups, *k] -> [N, C, *input_size].
Tensor conv_input_grad(const Tensor& grad_output, const Tensor& weight, const Shape& input_size,
                       const WindowGeometry& g, int64_t groups);
// The gradient of conv_forward's weight: grad_output [N, C_out, *out], input [N, C, *S] ->
// [C_out, C / groups, *g.kernel].
Tensor conv_weight_grad(const Tensor& grad_output, const Tensor& input, const WindowGeometry& g,
                        int64_t groups);

// Pooling over 1 to 3 spatial dims of [N, C, *S] float inputs, one (n, c) plane per task; the
// output size (ceil_mode included) is the caller's: windows reaching past the padded input are
// cut there. max_pool returns (values, indices) with indices flat in each input plane, as torch's;
// without with_indices the indices tensor is empty. A window's maximum is its first largest
// element, or its last NaN.
std::pair<Tensor, Tensor> max_pool(const Tensor& input, const WindowGeometry& g, bool with_indices);
// grad_output [N, C, *out] summed into [N, C, *input_size] at indices (max_pool's backward).
Tensor max_pool_backward(const Tensor& grad_output, const Tensor& indices, const Shape& input_size);
// Average of each window (g.dilation must be ones); divisor_override 0 means none (torch
// allows negative ones).
Tensor avg_pool(const Tensor& input, const WindowGeometry& g, bool count_include_pad,
                int64_t divisor_override);
// The adjoint of avg_pool: grad_output [N, C, *out] -> [N, C, *input_size].
Tensor avg_pool_backward(const Tensor& grad_output, const Shape& input_size,
                         const WindowGeometry& g, bool count_include_pad, int64_t divisor_override);

}  // namespace ember
