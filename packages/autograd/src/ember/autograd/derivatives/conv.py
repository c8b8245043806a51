"""Derivatives of the window gathers behind convolution, pooling and unfold/fold.

``_nn_im2col`` copies every window of its input into columns and ``_nn_col2im`` sums columns
back: each is the other's adjoint, so each one's backward is one call of the other (a native
pass, never a scatter) and higher-order gradients come for free.
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


RULES: dict[str, Rule] = {
    "_nn_im2col": Rule(
        "input, kernel_size, dilation, padding, stride, output_size, pad_value=0.0",
        input=_im2col_backward,
    ),
    "_nn_col2im": Rule(
        "columns, input_size, kernel_size, dilation, padding, stride, output_size",
        columns=_col2im_backward,
    ),
}
