"""Pooling: max/avg/lp pools over sliding windows, adaptive pools, max_unpool.

Sliding-window pools are one native call each way: ``_C._nn_max_pool`` (values and flat
indices; its backward ``_C._nn_max_pool_backward`` scatters the gradient at the indices) and
``_C._nn_avg_pool`` (its backward ``_C._nn_avg_pool_backward``), each (n, c) plane a task of the
pool. This module checks torch's arguments and computes the output size (ceil_mode). Adaptive
average pools are one small matrix product per spatial dim (the pool is separable); adaptive max
pools gather each window's elements by index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensors
from ember.nn._functional._window import IntOrTuple, batched, float_only, is_tensor, ntuple
from ember_core import _C

SizeArg = int | None | Sequence[int | None]


def _pool_out(size: int, k: int, s: int, p: int, d: int, ceil_mode: bool) -> int:
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    # The last window must start inside the input or its left padding (torch's rule).
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _window_args(
    input: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None,
    padding: IntOrTuple,
    dilation: IntOrTuple,
    ceil_mode: bool,
    d: int,
    op: str,
    half_of: str,
) -> tuple[Any, bool, tuple[tuple[int, ...], ...]]:
    x, unbatched = batched(input, d, op)
    float_only(x, op)
    k = ntuple(kernel_size, d, "kernel_size", op)
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else None
    s = s if s is not None else ntuple(stride, d, "stride", op)  # type: ignore[arg-type]
    p = ntuple(padding, d, "padding", op)
    dil = ntuple(dilation, d, "dilation", op)
    if any(v <= 0 for v in k):
        raise RuntimeError(f"{op}: kernel_size must be greater than zero, but got {list(k)}")
    if any(v <= 0 for v in s):
        raise RuntimeError("stride should not be zero")
    if any(v <= 0 for v in dil):
        raise RuntimeError(f"{op}: dilation must be greater than zero, but got {list(dil)}")
    for i in range(d):
        effective = (k[i] - 1) * dil[i] + 1 if half_of == "effective kernel" else k[i]
        if p[i] < 0 or p[i] > effective // 2:
            detail = f"pad={p[i]}, kernel_size={k[i]}"
            detail += f" and dilation={dil[i]}" if half_of == "effective kernel" else ""
            raise RuntimeError(f"pad should be at most half of {half_of} size, but got {detail}")
    if any(v == 0 for v in x.shape[1:]):
        raise RuntimeError(
            f"{op}: expected a non-empty input (only the batch dim may be 0), got input of size "
            f"{list(input.shape)}"
        )
    spatial = tuple(x.shape[2:])
    out = tuple(_pool_out(spatial[i], k[i], s[i], p[i], dil[i], ceil_mode) for i in range(d))
    if any(o < 1 for o in out):
        raise RuntimeError(
            f"Given input size: ({'x'.join(str(v) for v in x.shape[1:])}). Calculated output "
            f"size: ({'x'.join(str(v) for v in (x.shape[1], *out))}). Output size is too small"
        )
    return x, unbatched, (k, s, p, dil, out)


def _max_pool(
    input: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None,
    padding: IntOrTuple,
    dilation: IntOrTuple,
    ceil_mode: bool,
    return_indices: bool,
    d: int,
) -> Any:
    op = f"max_pool{d}d"
    x, unbatched, (k, s, p, dil, out) = _window_args(
        input, kernel_size, stride, padding, dilation, ceil_mode, d, op, "effective kernel"
    )
    # Indices only where they are returned or a gradient will be routed through them.
    with_indices = return_indices or (x.requires_grad and ember.is_grad_enabled())
    result, indices = _C._nn_max_pool(x, k, s, p, dil, out, with_indices)
    if unbatched:
        result = result.squeeze(0)
        indices = indices.squeeze(0) if return_indices else indices
    return (result, indices) if return_indices else result


def max_pool1d(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """1-d max pooling over [N, C, L] or [C, L]; with ``return_indices`` also the argmax
    positions (flat in each input plane), as ``max_unpool1d`` takes them.

    Example:
        >>> max_pool1d(ember.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)
        tensor([[[3., 2.]]])
    """
    result: Tensor | tuple[Tensor, Tensor] = _max_pool(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1
    )
    return result


def max_pool2d(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """2-d max pooling over [N, C, H, W] or [C, H, W].

    Example:
        >>> max_pool2d(ember.arange(16.0).reshape(1, 1, 4, 4), 2)
        tensor([[[[ 5.,  7.],
                  [13., 15.]]]])
    """
    result: Tensor | tuple[Tensor, Tensor] = _max_pool(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2
    )
    return result


def max_pool3d(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """3-d max pooling over [N, C, D, H, W] or [C, D, H, W].

    Example:
        >>> max_pool3d(ember.randn(1, 2, 4, 4, 4), 2).shape
        ember.Size([1, 2, 2, 2, 2])
    """
    result: Tensor | tuple[Tensor, Tensor] = _max_pool(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3
    )
    return result


def max_pool1d_with_indices(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = True,
) -> tuple[Tensor, Tensor]:
    """``max_pool1d`` returning (values, indices)."""
    result: tuple[Tensor, Tensor] = _max_pool1d_with_indices_impl(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )
    return result


def _max_pool1d_with_indices_impl(
    input: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = True,
) -> Any:
    r = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 1)
    assert isinstance(r, tuple)
    return r


def max_pool2d_with_indices(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = True,
) -> tuple[Tensor, Tensor]:
    """``max_pool2d`` returning (values, indices)."""
    result: tuple[Tensor, Tensor] = _max_pool2d_with_indices_impl(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )
    return result


def _max_pool2d_with_indices_impl(
    input: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = True,
) -> Any:
    r = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 2)
    assert isinstance(r, tuple)
    return r


def max_pool3d_with_indices(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = True,
) -> tuple[Tensor, Tensor]:
    """``max_pool3d`` returning (values, indices)."""
    result: tuple[Tensor, Tensor] = _max_pool3d_with_indices_impl(
        input, kernel_size, stride, padding, dilation, ceil_mode, return_indices
    )
    return result


def _max_pool3d_with_indices_impl(
    input: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    dilation: IntOrTuple = 1,
    ceil_mode: bool = False,
    return_indices: bool = True,
) -> Any:
    r = _max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, True, 3)
    assert isinstance(r, tuple)
    return r


def _avg_pool(
    input: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None,
    padding: IntOrTuple,
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: int | None,
    d: int,
) -> Any:
    op = f"avg_pool{d}d"
    x, unbatched, (k, s, p, _, out) = _window_args(
        input, kernel_size, stride, padding, 1, ceil_mode, d, op, "kernel"
    )
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError(f"{op}: divisor must be not zero")
    result = _C._nn_avg_pool(x, k, s, p, out, count_include_pad, divisor_override)
    return result.squeeze(0) if unbatched else result


def avg_pool1d(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """1-d average pooling over [N, C, L] or [C, L].

    Example:
        >>> avg_pool1d(ember.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2)
        tensor([[[2., 1.]]])
    """
    result: Tensor = _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1
    )
    return result


def avg_pool2d(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """2-d average pooling over [N, C, H, W] or [C, H, W].

    Example:
        >>> avg_pool2d(ember.ones(1, 1, 4, 4), 2, padding=1, count_include_pad=False)[0, 0, 0]
        tensor([1., 1., 1.])
    """
    result: Tensor = _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 2
    )
    return result


def avg_pool3d(
    input: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """3-d average pooling over [N, C, D, H, W] or [C, D, H, W].

    Example:
        >>> avg_pool3d(ember.ones(1, 1, 2, 2, 2), 2).shape
        ember.Size([1, 1, 1, 1, 1])
    """
    result: Tensor = _avg_pool(
        input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, 3
    )
    return result


def _lp_pool(
    input: Any,
    norm_type: float,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None,
    ceil_mode: bool,
    d: int,
) -> Any:
    # torch's formula: (sum over the window of x^p)^(1/p), through avg_pool times the window size.
    check_tensors(f"lp_pool{d}d", input=input)
    if norm_type == 0:  # torch divides by it: ZeroDivisionError
        raise ValueError(f"lp_pool{d}d: norm_type must be nonzero, got {norm_type}")
    k = ntuple(kernel_size, d, "kernel_size", f"lp_pool{d}d")
    pooled = _avg_pool(input.pow(norm_type), k, stride, 0, ceil_mode, True, None, d)
    return (ember.sign(pooled) * pooled.abs().clamp(min=0)).mul(math.prod(k)).pow(1.0 / norm_type)


def lp_pool1d(
    input: Tensor,
    norm_type: float,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    """Power-average pooling: the p-norm of each window, over [N, C, L] or [C, L].

    Example:
        >>> lp_pool1d(ember.tensor([[[3.0, 4.0]]]), 2, 2)
        tensor([[[5.]]])
    """
    result: Tensor = _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)
    return result


def lp_pool2d(
    input: Tensor,
    norm_type: float,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    """Power-average pooling over [N, C, H, W] or [C, H, W].

    Example:
        >>> lp_pool2d(ember.ones(1, 1, 2, 2), 1, 2)
        tensor([[[[4.]]]])
    """
    result: Tensor = _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)
    return result


def lp_pool3d(
    input: Tensor,
    norm_type: float,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    ceil_mode: bool = False,
) -> Tensor:
    """Power-average pooling over [N, C, D, H, W] or [C, D, H, W].

    Example:
        >>> lp_pool3d(ember.ones(1, 1, 2, 2, 2), 1, 2).shape
        ember.Size([1, 1, 1, 1, 1])
    """
    result: Tensor = _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)
    return result


def _adaptive_sizes(input: Any, output_size: SizeArg, d: int, op: str) -> tuple[int, ...]:
    spatial = tuple(input.shape[-d:])
    if output_size is None or isinstance(output_size, int):
        items: list[int | None] = [output_size] * d
    else:
        items = list(output_size)
        if len(items) != d:
            raise RuntimeError(f"{op}: output_size must be {d}")
    sizes = tuple(spatial[i] if v is None else int(v) for i, v in enumerate(items))
    if any(v < 0 for v in sizes):
        raise RuntimeError(f"{op}: elements of output_size must be non-negative, got {sizes}")
    return sizes


def _bounds(size: int, out: int) -> tuple[np.ndarray, np.ndarray]:
    o = np.arange(out)
    return (o * size) // out, -((-(o + 1) * size) // out)


def _adaptive_avg(input: Any, output_size: SizeArg, d: int) -> Any:
    op = f"adaptive_avg_pool{d}d"
    x, unbatched = batched(input, d, op)
    float_only(x, op)
    if any(v == 0 for v in x.shape[1:]):
        raise RuntimeError(f"{op}: expected a non-empty input, got input of size {list(x.shape)}")
    out = _adaptive_sizes(x, output_size, d, op)
    y = x
    for i in range(d):
        size = x.shape[2 + i]
        if out[i] == size:
            continue
        start, end = _bounds(size, out[i])
        cols = np.arange(size)[None, :]
        weights = ((cols >= start[:, None]) & (cols < end[:, None])) / (end - start)[:, None]
        w = ember.from_numpy(weights.T.copy()).to(x.dtype)
        # Windows along one dim are averaged by one [size, out] matrix (the pool is separable).
        y = (y.movedim(2 + i, -1) @ w).movedim(-1, 2 + i)
    return y.squeeze(0) if unbatched else y


def adaptive_avg_pool1d(input: Tensor, output_size: SizeArg) -> Tensor:
    """Average pooling to a fixed output length over [N, C, L] or [C, L].

    Example:
        >>> adaptive_avg_pool1d(ember.tensor([[[1.0, 2.0, 3.0, 4.0]]]), 2)
        tensor([[[1.5000, 3.5000]]])
    """
    result: Tensor = _adaptive_avg(input, output_size, 1)
    return result


def adaptive_avg_pool2d(input: Tensor, output_size: SizeArg) -> Tensor:
    """Average pooling to a fixed output size (None keeps a dim) over [N, C, H, W] or [C, H, W].

    Example:
        >>> adaptive_avg_pool2d(ember.randn(2, 3, 7, 9), (2, None)).shape
        ember.Size([2, 3, 2, 9])
    """
    result: Tensor = _adaptive_avg(input, output_size, 2)
    return result


def adaptive_avg_pool3d(input: Tensor, output_size: SizeArg) -> Tensor:
    """Average pooling to a fixed output size over [N, C, D, H, W] or [C, D, H, W].

    Example:
        >>> adaptive_avg_pool3d(ember.randn(1, 2, 4, 5, 6), 1).shape
        ember.Size([1, 2, 1, 1, 1])
    """
    result: Tensor = _adaptive_avg(input, output_size, 3)
    return result


def _adaptive_max(input: Any, output_size: SizeArg, return_indices: bool, d: int) -> Any:
    op = f"adaptive_max_pool{d}d"
    x, unbatched = batched(input, d, op)
    float_only(x, op)
    if any(v == 0 for v in x.shape[1:]):
        raise RuntimeError(f"{op}: expected a non-empty input, got input of size {list(x.shape)}")
    out = _adaptive_sizes(x, output_size, d, op)
    spatial = tuple(x.shape[2:])
    in_strides = [math.prod(spatial[i + 1 :]) for i in range(d)]
    # [L, K] flat positions of each window's elements; short windows repeat their first element.
    table = np.zeros((*out, *([1] * d)), dtype=np.int64)
    for i in range(d):
        start, end = _bounds(spatial[i], out[i])
        width = int((end - start).max()) if out[i] else 1
        pos = start[:, None] + np.arange(width)[None, :]
        pos = np.where(pos < end[:, None], pos, start[:, None])
        shape = [1] * (2 * d)
        shape[i], shape[d + i] = out[i], width
        table = table + pos.reshape(shape) * in_strides[i]
    length, window = math.prod(out), math.prod(table.shape[d:])
    flat = ember.from_numpy(table.reshape(length * window).copy())
    n, c = x.shape[0], x.shape[1]
    gathered = x.reshape(n * c, -1).index_select(1, flat).reshape(n * c, length, window)
    values, arg = gathered.max(dim=2)
    result = values.reshape(n, c, *out)
    if unbatched:
        result = result.squeeze(0)
    if not return_indices:
        return result
    positions = ember.take(flat, ember.arange(length) * window + arg)
    return result, positions.reshape(result.shape)


def adaptive_max_pool1d(
    input: Tensor, output_size: SizeArg, return_indices: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """Max pooling to a fixed output length over [N, C, L] or [C, L].

    Example:
        >>> adaptive_max_pool1d(ember.tensor([[[1.0, 5.0, 3.0, 4.0]]]), 2)
        tensor([[[5., 4.]]])
    """
    result: Tensor | tuple[Tensor, Tensor] = _adaptive_max(input, output_size, return_indices, 1)
    return result


def adaptive_max_pool2d(
    input: Tensor, output_size: SizeArg, return_indices: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """Max pooling to a fixed output size over [N, C, H, W] or [C, H, W].

    Example:
        >>> adaptive_max_pool2d(ember.randn(1, 3, 7, 7), 3).shape
        ember.Size([1, 3, 3, 3])
    """
    result: Tensor | tuple[Tensor, Tensor] = _adaptive_max(input, output_size, return_indices, 2)
    return result


def adaptive_max_pool3d(
    input: Tensor, output_size: SizeArg, return_indices: bool = False
) -> Tensor | tuple[Tensor, Tensor]:
    """Max pooling to a fixed output size over [N, C, D, H, W] or [C, D, H, W].

    Example:
        >>> adaptive_max_pool3d(ember.randn(1, 1, 4, 4, 4), 2).shape
        ember.Size([1, 1, 2, 2, 2])
    """
    result: Tensor | tuple[Tensor, Tensor] = _adaptive_max(input, output_size, return_indices, 3)
    return result


def _max_unpool(
    input: Any,
    indices: Any,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None,
    padding: IntOrTuple,
    output_size: Sequence[int] | None,
    d: int,
) -> Any:
    op = f"max_unpool{d}d"
    x, unbatched = batched(input, d, op)
    if not is_tensor(indices) or indices.dtype != ember.int64:
        raise RuntimeError(f"{op}: expected indices to be an int64 Tensor")
    if tuple(indices.shape) != tuple(input.shape):
        raise RuntimeError(
            f"{op}: expected shape of indices to be same as that of the input tensor "
            f"({list(input.shape)}) but got indices tensor with shape: {list(indices.shape)}"
        )
    k = ntuple(kernel_size, d, "kernel_size", op)
    s = k if stride is None else ntuple(stride, d, "stride", op)
    p = ntuple(padding, d, "padding", op)
    spatial = tuple(x.shape[2:])
    default = tuple((spatial[i] - 1) * s[i] - 2 * p[i] + k[i] for i in range(d))
    if output_size is None:
        out = default
    else:
        out = tuple(int(v) for v in output_size)
        if len(out) == d + 2 or (unbatched and len(out) == d + 1):
            out = out[-d:]
        if len(out) != d:
            raise ValueError(
                f"{op}: output_size should be a sequence containing {d} or {d + 2} elements, "
                f"but it has a length of '{len(out)}'"
            )
        for i in range(d):
            lo, hi = default[i] - s[i], default[i] + s[i]
            if not lo < out[i] < hi:
                raise ValueError(
                    f'invalid output_size "{tuple(out)}" (dim {i} must be between {lo} and {hi})'
                )
    n, c = x.shape[0], x.shape[1]
    plane = math.prod(out)
    flat_idx = indices.reshape(n * c, -1)
    if flat_idx.numel() and (int(flat_idx.max()) >= plane or int(flat_idx.min()) < 0):
        bad = int(flat_idx.max()) if int(flat_idx.max()) >= plane else int(flat_idx.min())
        raise RuntimeError(
            f"Found an invalid max index: {bad} (output volumes are of size "
            f"{'x'.join(str(v) for v in out)}"
        )
    result = ember.zeros(n * c, plane, dtype=x.dtype).scatter(1, flat_idx, x.reshape(n * c, -1))
    result = result.reshape(n, c, *out)
    return result.squeeze(0) if unbatched else result


def max_unpool1d(
    input: Tensor,
    indices: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    output_size: Sequence[int] | None = None,
) -> Tensor:
    """Partial inverse of ``max_pool1d``: values go back to their indices, zeros elsewhere.

    Example:
        >>> y, i = max_pool1d(ember.tensor([[[1.0, 3.0, 2.0, 0.0]]]), 2, return_indices=True)
        >>> max_unpool1d(y, i, 2)
        tensor([[[0., 3., 2., 0.]]])
    """
    result: Tensor = _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)
    return result


def max_unpool2d(
    input: Tensor,
    indices: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    output_size: Sequence[int] | None = None,
) -> Tensor:
    """Partial inverse of ``max_pool2d``.

    Example:
        >>> y, i = max_pool2d(ember.randn(1, 1, 4, 4), 2, return_indices=True)
        >>> max_unpool2d(y, i, 2).shape
        ember.Size([1, 1, 4, 4])
    """
    result: Tensor = _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)
    return result


def max_unpool3d(
    input: Tensor,
    indices: Tensor,
    kernel_size: IntOrTuple,
    stride: IntOrTuple | None = None,
    padding: IntOrTuple = 0,
    output_size: Sequence[int] | None = None,
) -> Tensor:
    """Partial inverse of ``max_pool3d``.

    Example:
        >>> y, i = max_pool3d(ember.randn(1, 1, 2, 2, 2), 2, return_indices=True)
        >>> max_unpool3d(y, i, 2).shape
        ember.Size([1, 1, 2, 2, 2])
    """
    result: Tensor = _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)
    return result


def fractional_max_pool2d(*args: object, **kwargs: object) -> Tensor:
    """Not implemented yet in ember (torch.nn.functional.fractional_max_pool2d)."""
    result: Tensor = _fractional_max_pool2d_impl()
    return result


def _fractional_max_pool2d_impl(*args: object, **kwargs: object) -> Any:
    raise NotImplementedError("ember.nn.functional.fractional_max_pool2d is not implemented yet")


def fractional_max_pool3d(*args: object, **kwargs: object) -> Tensor:
    """Not implemented yet in ember (torch.nn.functional.fractional_max_pool3d)."""
    result: Tensor = _fractional_max_pool3d_impl()
    return result


def _fractional_max_pool3d_impl(*args: object, **kwargs: object) -> Any:
    raise NotImplementedError("ember.nn.functional.fractional_max_pool3d is not implemented yet")
