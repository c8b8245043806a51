"""``unfold`` (im2col: every sliding block as a column) and ``fold`` (its adjoint, col2im)."""

from __future__ import annotations

import math
from typing import Any

from ember._tensor import Tensor
from ember.nn._functional._window import IntOrTuple, float_only, is_tensor, ntuple
from ember_core import _C


def _blocks(
    spatial: tuple[int, ...],
    k: tuple[int, ...],
    dil: tuple[int, ...],
    p: tuple[int, ...],
    s: tuple[int, ...],
) -> tuple[int, ...]:
    return tuple((spatial[i] + 2 * p[i] - dil[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2))


def _args(
    kernel_size: IntOrTuple,
    dilation: IntOrTuple,
    padding: IntOrTuple,
    stride: IntOrTuple,
    op: str,
) -> tuple[tuple[int, ...], ...]:
    k = ntuple(kernel_size, 2, "kernel_size", op)
    dil = ntuple(dilation, 2, "dilation", op)
    p = ntuple(padding, 2, "padding", op)
    s = ntuple(stride, 2, "stride", op)
    for name, values, low in (("kernel", k, 1), ("dilation", dil, 1), ("stride", s, 1)):
        if any(v < low for v in values):
            raise RuntimeError(f"{op}: {name} should be greater than zero, but got {list(values)}")
    if any(v < 0 for v in p):
        raise RuntimeError(f"{op}: padding should be non-negative, but got {list(p)}")
    return k, dil, p, s


def unfold(
    input: Tensor,
    kernel_size: IntOrTuple,
    dilation: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    stride: IntOrTuple = 1,
) -> Tensor:
    """Extracts sliding local blocks: [N, C, H, W] -> [N, C * kH * kW, L] ([C, H, W] -> [C * K, L]).

    Example:
        >>> unfold(ember.randn(2, 3, 5, 5), 3).shape
        ember.Size([2, 27, 9])
    """
    result: Tensor = _unfold_impl(input, kernel_size, dilation, padding, stride)
    return result


def _unfold_impl(
    input: Any,
    kernel_size: IntOrTuple,
    dilation: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    stride: IntOrTuple = 1,
) -> Any:
    op = "unfold"
    if not is_tensor(input) or input.dim() not in (3, 4):
        shape = list(input.shape) if is_tensor(input) else type(input).__name__
        raise RuntimeError(
            f"Input Error: Only 3D or 4D input Tensors are supported (got {shape}) in unfold"
        )
    float_only(input, op)
    k, dil, p, s = _args(kernel_size, dilation, padding, stride, op)
    x = input.unsqueeze(0) if input.dim() == 3 else input
    spatial = tuple(x.shape[2:])
    blocks = _blocks(spatial, k, dil, p, s)
    if any(b < 1 for b in blocks):
        raise RuntimeError(
            f"Given input with spatial size {spatial}, kernel_size={k}, dilation={dil}, "
            f"padding={p}, calculated shape of the array of sliding blocks as {blocks}, but its "
            "components must be at least one."
        )
    out = _C._nn_im2col(x, k, dil, p, s, blocks)
    return out.squeeze(0) if input.dim() == 3 else out


def fold(
    input: Tensor,
    output_size: IntOrTuple,
    kernel_size: IntOrTuple,
    dilation: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    stride: IntOrTuple = 1,
) -> Tensor:
    """Sums sliding local blocks back into a tensor: [N, C * K, L] -> [N, C, *output_size].

    Example:
        >>> x = ember.randn(1, 3, 4, 4)
        >>> fold(unfold(x, 2, stride=2), (4, 4), 2, stride=2).equal(x)
        True
    """
    result: Tensor = _fold_impl(input, output_size, kernel_size, dilation, padding, stride)
    return result


def _fold_impl(
    input: Any,
    output_size: IntOrTuple,
    kernel_size: IntOrTuple,
    dilation: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    stride: IntOrTuple = 1,
) -> Any:
    op = "fold"
    if not is_tensor(input) or input.dim() not in (2, 3):
        shape = list(input.shape) if is_tensor(input) else type(input).__name__
        raise RuntimeError(
            f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
            f"(got {shape}) in fold"
        )
    float_only(input, op)
    out_size = ntuple(output_size, 2, "output_size", op)
    k, dil, p, s = _args(kernel_size, dilation, padding, stride, op)
    x = input.unsqueeze(0) if input.dim() == 2 else input
    kernel = math.prod(k)
    if x.shape[1] % kernel != 0:
        raise RuntimeError(
            "Expected size of input's dimension 1 to be divisible by the product of "
            f"kernel_size, but got input.size(1)={x.shape[1]} and kernel_size={k}."
        )
    blocks = _blocks(out_size, k, dil, p, s)
    if any(b < 1 for b in blocks) or x.shape[2] != blocks[0] * blocks[1]:
        raise RuntimeError(
            f"Given output_size={out_size}, kernel_size={k}, dilation={dil}, padding={p}, "
            f"stride={s}, expected size of input's dimension 2 to match the calculated number "
            f"of sliding blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got "
            f"input.size(2)={x.shape[2]}."
        )
    out = _C._nn_col2im(x, out_size, k, dil, p, s, blocks)
    return out.squeeze(0) if input.dim() == 2 else out
