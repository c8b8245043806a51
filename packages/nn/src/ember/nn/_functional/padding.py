"""``pad``: constant, reflect, replicate and circular padding of the last dims.

Constant padding writes the input into a tensor filled with the value (negative pads crop).
The other modes are one ``index_select`` per padded dim with the source index of every output
position (mirrored, clamped or wrapped), so their backward is an index_add.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor

_MODES = ("constant", "reflect", "replicate", "circular")
_SUPPORTED = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def _source_index(size: int, left: int, right: int, mode: str) -> np.ndarray:
    """For each output position along one dim, the input position it copies."""
    pos = np.arange(-left, size + right)
    if mode == "reflect":
        period = 2 * (size - 1)
        pos = np.abs(pos) % period if period else np.zeros_like(pos)
        return np.where(pos >= size, period - pos, pos)
    if mode == "replicate":
        return np.clip(pos, 0, size - 1)
    return pos % size  # circular


def _check_non_constant(input: Any, pad: tuple[int, ...], mode: str) -> None:
    dims = len(pad) // 2
    if not (input.dim() in (dims + 1, dims + 2) and dims <= 3):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            + _SUPPORTED
        )
    for i in range(dims):
        d = input.dim() - 1 - i
        size = input.shape[d]
        left, right = pad[2 * i], pad[2 * i + 1]
        if mode == "reflect" and (left >= size or right >= size):
            raise RuntimeError(
                f"pad (reflect): padding size should be less than the corresponding input "
                f"dimension, but got: padding ({left}, {right}) at dimension {d} of input "
                f"{list(input.shape)}"
            )
        if mode == "circular" and (left > size or right > size):
            raise RuntimeError(
                f"pad (circular): padding value causes wrapping around more than once: padding "
                f"({left}, {right}) at dimension {d} of input {list(input.shape)}"
            )
        if size == 0 and (left > 0 or right > 0):
            raise RuntimeError(
                f"pad ({mode}): expected a non-empty dimension {d} to pad, got input of size "
                f"{list(input.shape)}"
            )


def pad(
    input: Tensor, pad: Sequence[int], mode: str = "constant", value: float | None = None
) -> Tensor:
    """Pads the last ``len(pad) // 2`` dims: ``pad = (left_last, right_last, left_prev, ...)``.

    Args:
        input: any tensor (non-constant modes: the padded dims plus one or two leading dims).
        pad: pairs of (before, after) amounts, last dim first; negative amounts crop.
        mode: 'constant', 'reflect', 'replicate' or 'circular'.
        value: the fill of 'constant' padding (default 0).

    Example:
        >>> pad(ember.tensor([[1.0, 2.0, 3.0]]), (2, 1), mode="reflect")
        tensor([[3., 2., 1., 2., 3., 2.]])
    """
    result: Tensor = _pad_impl(input, pad, mode, value)
    return result


def _pad_impl(
    input: Any, pad: Sequence[int], mode: str = "constant", value: float | None = None
) -> Any:
    check_tensor(input, "input", "pad")
    amounts = tuple(int(v) for v in pad)
    if len(amounts) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(amounts) // 2 > input.dim():
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but "
            f"got padding length {len(amounts)} and input of dimension {input.dim()}"
        )
    if mode not in _MODES:
        raise NotImplementedError(
            f"Unrecognised padding mode {mode}: pad supports {', '.join(_MODES)}"
        )
    if mode != "constant" and value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    x = input
    # Negative amounts crop first, in every mode.
    for i in range(len(amounts) // 2):
        d = input.dim() - 1 - i
        left, right = amounts[2 * i], amounts[2 * i + 1]
        start, stop = max(-left, 0), x.shape[d] - max(-right, 0)
        if stop < start:
            raise RuntimeError(
                f"pad: the padded size of dimension {d} would be negative: input size "
                f"{input.shape[d]}, padding ({left}, {right})"
            )
        if start or stop != x.shape[d]:
            x = x.narrow(d, start, stop - start)
    grow = tuple(max(v, 0) for v in amounts)
    if not any(grow):
        return x if x is not input else input.clone()
    if mode == "constant":
        shape = list(x.shape)
        index: list[slice] = [slice(None)] * x.dim()
        for i in range(len(grow) // 2):
            d = x.dim() - 1 - i
            shape[d] += grow[2 * i] + grow[2 * i + 1]
            index[d] = slice(grow[2 * i], grow[2 * i] + x.shape[d])
        out = ember.full(shape, 0 if value is None else value, dtype=x.dtype)
        out[tuple(index)] = x
        return out
    _check_non_constant(x, grow, mode)
    for i in range(len(grow) // 2):
        d = x.dim() - 1 - i
        left, right = grow[2 * i], grow[2 * i + 1]
        if left or right:
            source = _source_index(x.shape[d], left, right, mode)
            x = x.index_select(d, ember.from_numpy(source))
    return x
