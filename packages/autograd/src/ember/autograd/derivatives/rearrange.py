"""Derivatives of ops that move, repeat or window elements: rot90, repeat_interleave, unfold,
as_strided and diff.

An element read several times (overlapping windows, repeats) sums the gradients of every place
it was read to; the sums use index_add/index_put with accumulation, never Python loops.
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import by_parts
from ember.autograd.graph import is_tensor

Shape = tuple[int, ...]


def _numel(shape: Shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


@by_parts
def _repeat_interleave(g: Any, shape: Shape, repeats: Any, dim: Any) -> Any:
    work = (_numel(shape),) if dim is None else shape
    d = 0 if dim is None else dim % len(shape)
    n = work[d]
    if is_tensor(repeats) and repeats.numel() != 1:
        # Input slice i went to the repeats[i] output slices that follow the earlier ones.
        source = ember.repeat_interleave(ember.arange(n), repeats)
        grad = ember.zeros(work, dtype=g.dtype).index_add(d, source, g)
    else:
        r = int(repeats.item()) if is_tensor(repeats) else int(repeats)
        split = (*work[:d], n, r, *work[d + 1 :])
        grad = g.reshape(split).sum(d + 1)
    return grad.reshape(shape)


@by_parts
def _unfold(g: Any, shape: Shape, dimension: int, size: int, step: int) -> Any:
    if len(shape) == 0:
        return g.reshape(shape)
    d = dimension % len(shape)
    windows = g.shape[d]
    # Window w, offset k read element w * step + k; g is [..., windows (at d), ..., size].
    source = (ember.arange(windows).unsqueeze(1) * step + ember.arange(size)).reshape(-1)
    flat = g.movedim(-1, d + 1)
    flat = flat.reshape(*flat.shape[:d], windows * size, *flat.shape[d + 2 :])
    return ember.zeros(shape, dtype=g.dtype).index_add(d, source, flat)


def _extent(size: Any, stride: Any, offset: int) -> int:
    """One past the last storage position a geometry touches (``offset`` when it is empty)."""
    if any(int(s) == 0 for s in size):
        return offset
    return offset + sum((int(s) - 1) * int(st) for s, st in zip(size, stride, strict=True)) + 1


@by_parts
def _as_strided(g: Any, geometry: Any, size: Any, stride: Any, storage_offset: Any) -> Any:
    """Storage positions say what the output read: accumulate g into a storage-sized buffer at
    the output's positions and read it back at the input's (torch's as_strided_backward).
    ``geometry`` is the input's (sizes, strides, offset) before the call: only the layout is
    needed, so the input itself is not saved (later in-place writes to it stay legal)."""
    in_shape, in_stride, in_offset = geometry
    out_offset = in_offset if storage_offset is None else int(storage_offset)
    extent = max(_extent(in_shape, in_stride, in_offset), _extent(size, stride, out_offset), 1)
    positions = ember.arange(extent)
    out_positions = positions.as_strided(size, stride, out_offset).reshape(-1)
    in_positions = positions.as_strided(in_shape, in_stride, in_offset)
    storage = ember.zeros(extent, dtype=g.dtype)
    storage.index_put_((out_positions,), g.reshape(-1), accumulate=True)
    # Input elements sharing a storage position (an expanded input) share its gradient.
    count = ember.zeros(extent, dtype=g.dtype)
    count.index_put_(
        (in_positions.reshape(-1),), ember.ones(in_positions.numel(), dtype=g.dtype), True
    )
    return (storage / count.clamp(min=1))[in_positions]


def _diff_grads(g: Any, a: Any) -> list[Any]:
    """Gradients of (prepend, input, append) for ``diff``: n backward first differences."""
    ndim = len(a.input_shape)
    d = a.dim % ndim
    parts = [s for s in (a.prepend_shape, a.input_shape, a.append_shape) if s is not None]
    lengths = [s[d] for s in parts]
    total = sum(lengths)
    if total <= a.n:
        return [ember.zeros(s, dtype=g.dtype) for s in parts]
    for _ in range(a.n):
        # y_i = x_{i+1} - x_i, so dx_j = g_{j-1} - g_j (g is zero outside its range).
        edge = ember.zeros_like(g.narrow(d, 0, 1))
        g = ember.cat([edge, g], d) - ember.cat([g, edge], d)
    return list(g.split(lengths, d))


def _diff_part(g: Any, a: Any, which: str) -> Any:
    grads = _diff_grads(g, a)
    if which == "prepend":
        return grads[0]
    if which == "append":
        return grads[-1]
    return grads[1 if a.prepend_shape is not None else 0]


RULES: dict[str, Rule] = {
    # dims defaults to (0, 1); signature defaults cannot hold commas.
    "rot90": Rule(
        "input, k=1, dims=None",
        input=lambda g, a: g.rot90(-a.k, (0, 1) if a.dims is None else a.dims),
    ),
    "repeat_interleave": Rule(
        input=lambda g, a: _repeat_interleave(g, a.input_shape, a.repeats, a.dim),
    ),
    "unfold": Rule(
        "input, dimension, size, step",
        view=True,
        input=lambda g, a: _unfold(g, a.input_shape, a.dimension, a.size, a.step),
    ),
    "as_strided": Rule(
        view=True,
        input=lambda g, a: _as_strided(g, a.input_geometry, a.size, a.stride, a.storage_offset),
    ),
    "diff": Rule(
        input=lambda g, a: _diff_part(g, a, "input"),
        prepend=lambda g, a: _diff_part(g, a, "prepend"),
        append=lambda g, a: _diff_part(g, a, "append"),
    ),
}
