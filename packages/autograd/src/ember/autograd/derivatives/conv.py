"""Derivatives of the window gathers behind convolution, pooling and unfold/fold.

``_nn_im2col`` copies every window of its input into columns and ``_nn_col2im`` sums columns
back: each is the other's adjoint, so each one's backward is one call of the other (a native
pass, never a scatter) and higher-order gradients come for free.

The convolution natives close the same way: ``_nn_conv`` (y = conv(x, w)) has the input gradient
``_nn_conv_input_grad(g, w)`` (the transposed convolution) and the weight gradient
``_nn_conv_weight_grad(g, x)``; each of those is linear in both arguments, and their adjoints are
again one of the three, so every order of gradient is one native call per input.

The pools: ``_nn_max_pool``'s input gradient is ``_nn_max_pool_backward`` (a scatter-add at the
saved indices), whose own gradient is a gather at those indices; ``_nn_avg_pool`` and
``_nn_avg_pool_backward`` are each other's adjoints.
"""

from __future__ import annotations

from typing import Any

from ember.autograd._rule import Rule
from ember_core import _C


def _im2col_backward(g: Any, a: Any) -> Any:
    spatial = a.input_shape[2:]
    return _C._nn_col2im(g, spatial, a.kernel_size, a.dilation, a.padding, a.stride, a.output_size)


def _col2im_backward(g: Any, a: Any) -> Any:
    return _C._nn_im2col(g, a.kernel_size, a.dilation, a.padding, a.stride, a.output_size)


def _conv_input(g: Any, a: Any) -> Any:
    spatial = a.input_shape[2:]
    return _C._nn_conv_input_grad(g, a.weight, spatial, a.stride, a.padding, a.dilation, a.groups)


def _conv_weight(g: Any, a: Any) -> Any:
    kernel = a.weight_shape[2:]
    return _C._nn_conv_weight_grad(g, a.input, kernel, a.stride, a.padding, a.dilation, a.groups)


def _conv_bias(g: Any, a: Any) -> Any:
    # A broadcast grad (the backward of a sum or mean) repeats along its stride-0 dims: one slice
    # of each is summed and scaled by its length, not every repeat read.
    dims = [0, *range(2, g.dim())]
    scale = 1
    for d in dims:
        if g.stride(d) == 0 and g.size(d) > 1:
            scale *= g.size(d)
            g = g.narrow(d, 0, 1)
    total = g.sum(dims)
    return total * scale if scale != 1 else total


# <u, input_grad(go, w)> = <conv(u, w), go> = <w, weight_grad(go, u)>.
def _input_grad_grad_output(g: Any, a: Any) -> Any:
    out = a.grad_output_shape[2:]
    return _C._nn_conv(g, a.weight, None, a.stride, a.padding, a.dilation, a.groups, out)


def _input_grad_weight(g: Any, a: Any) -> Any:
    kernel = a.weight_shape[2:]
    return _C._nn_conv_weight_grad(
        a.grad_output, g, kernel, a.stride, a.padding, a.dilation, a.groups
    )


# <v, weight_grad(go, x)> = <conv(x, v), go> = <x, input_grad(go, v)>.
def _weight_grad_grad_output(g: Any, a: Any) -> Any:
    out = a.grad_output_shape[2:]
    return _C._nn_conv(a.input, g, None, a.stride, a.padding, a.dilation, a.groups, out)


def _weight_grad_input(g: Any, a: Any) -> Any:
    spatial = a.input_shape[2:]
    return _C._nn_conv_input_grad(
        a.grad_output, g, spatial, a.stride, a.padding, a.dilation, a.groups
    )


def _max_pool_input(g: Any, a: Any) -> Any:
    return _C._nn_max_pool_backward(g[0], a.result[1], a.input_shape[2:])


def _max_pool_backward_grad_output(g: Any, a: Any) -> Any:
    # The adjoint of a scatter-add at the indices is a gather at them, plane by plane.
    planes = g.flatten(2)
    indices = a.indices.flatten(2)
    return planes.gather(2, indices).reshape(a.indices.shape)


def _avg_pool_input(g: Any, a: Any) -> Any:
    spatial = a.input_shape[2:]
    return _C._nn_avg_pool_backward(
        g, spatial, a.kernel_size, a.stride, a.padding, a.count_include_pad, a.divisor_override
    )


def _avg_pool_backward_grad_output(g: Any, a: Any) -> Any:
    out = a.grad_output_shape[2:]
    return _C._nn_avg_pool(
        g, a.kernel_size, a.stride, a.padding, out, a.count_include_pad, a.divisor_override
    )


RULES: dict[str, Rule] = {
    "_nn_conv": Rule(
        "input, weight, bias, stride, padding, dilation, groups, output_size",
        input=_conv_input,
        weight=_conv_weight,
        bias=_conv_bias,
    ),
    "_nn_conv_input_grad": Rule(
        "grad_output, weight, input_size, stride, padding, dilation, groups",
        grad_output=_input_grad_grad_output,
        weight=_input_grad_weight,
    ),
    "_nn_conv_weight_grad": Rule(
        "grad_output, input, kernel_size, stride, padding, dilation, groups",
        grad_output=_weight_grad_grad_output,
        input=_weight_grad_input,
    ),
    "_nn_max_pool": Rule(outputs=(0,), input=_max_pool_input),
    "_nn_max_pool_backward": Rule(grad_output=_max_pool_backward_grad_output),
    "_nn_avg_pool": Rule(input=_avg_pool_input),
    "_nn_avg_pool_backward": Rule(grad_output=_avg_pool_backward_grad_output),
    "_nn_im2col": Rule(
        "input, kernel_size, dilation, padding, stride, output_size, pad_value=0.0",
        input=_im2col_backward,
    ),
    "_nn_col2im": Rule(
        "columns, input_size, kernel_size, dilation, padding, stride, output_size",
        columns=_col2im_backward,
    ),
}
