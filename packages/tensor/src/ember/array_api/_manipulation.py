"""Manipulation and indexing functions: shapes, joins, flips, repeats, take."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from ember.array_api._common import Array, E, check_array, int_tuple, normalize_axes, shape_of


def _arrays(arrays: Sequence[Array], op: str) -> list[Any]:
    if isinstance(arrays, (str, bytes)) or not isinstance(arrays, (list, tuple)):
        raise TypeError(f"[{op}] expected a list or tuple of arrays, got {type(arrays).__name__}")
    return [check_array(a, op, "arrays") for a in arrays]


def broadcast_arrays(*arrays: Array) -> list[Array]:
    """The arrays broadcast against each other (views).

    Example:
        >>> [a.shape for a in broadcast_arrays(ember.zeros(3), ember.zeros(2, 1))]
        [ember.Size([2, 3]), ember.Size([2, 3])]
    """
    return list(E.broadcast_tensors(*_arrays(arrays, "broadcast_arrays")))


def broadcast_to(x: Array, /, shape: tuple[int, ...]) -> Array:
    """x broadcast to `shape` (a view).

    Example:
        >>> broadcast_to(ember.zeros(3), (2, 3)).shape
        ember.Size([2, 3])
    """
    return E.broadcast_to(check_array(x, "broadcast_to"), int_tuple(shape, "broadcast_to", "shape"))  # type: ignore[no-any-return]


def concat(arrays: Sequence[Array], /, *, axis: int | None = 0) -> Array:
    """The arrays joined along `axis` (flattened first when ``axis=None``).

    Example:
        >>> concat([ember.zeros(2), ember.ones(1)])
        tensor([0., 0., 1.])
    """
    items = _arrays(arrays, "concat")
    if axis is None:
        items = [a.reshape(-1) for a in items]
        axis = 0
    return E.cat(items, dim=axis)  # type: ignore[no-any-return]


def expand_dims(x: Array, /, axis: int = 0) -> Array:
    """x with a new axis of length 1 at `axis` (in ``[-x.ndim - 1, x.ndim]``).

    Example:
        >>> expand_dims(ember.zeros(3), axis=-1).shape
        ember.Size([3, 1])
    """
    check_array(x, "expand_dims")
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"[expand_dims] axis must be an int, got {axis!r}")
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise IndexError(f"[expand_dims] axis {axis} is out of range for {x.ndim + 1} dims")
    return x.unsqueeze(axis)


def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """x with the order of elements reversed along `axis` (every axis when None).

    Example:
        >>> flip(ember.arange(3))
        tensor([2, 1, 0])
    """
    check_array(x, "flip")
    return E.flip(x, normalize_axes(axis, x.ndim, "flip"))  # type: ignore[no-any-return]


def moveaxis(
    x: Array, source: int | tuple[int, ...], destination: int | tuple[int, ...], /
) -> Array:
    """x with axes `source` moved to positions `destination`.

    Example:
        >>> moveaxis(ember.zeros(2, 3, 4), 0, -1).shape
        ember.Size([3, 4, 2])
    """
    return E.moveaxis(check_array(x, "moveaxis"), source, destination)  # type: ignore[no-any-return]


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """x with its axes reordered as `axes` (a view).

    Example:
        >>> permute_dims(ember.zeros(2, 3), (1, 0)).shape
        ember.Size([3, 2])
    """
    return E.permute(check_array(x, "permute_dims"), int_tuple(axes, "permute_dims", "axes"))  # type: ignore[no-any-return]


def repeat(x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
    """Each element repeated `repeats` times along `axis` (x flattened first when None).

    Example:
        >>> repeat(ember.tensor([1, 2]), 2)
        tensor([1, 1, 2, 2])
    """
    check_array(x, "repeat")
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if isinstance(repeats, Array) and repeats.dtype != E.int64:
        # Any integer dtype may hold the counts; ember's repeat_interleave takes int32/int64.
        if repeats.dtype not in (E.int8, E.int16, E.int32, E.uint8):
            raise TypeError(f"[repeat] repeats must have an integer dtype, got {repeats.dtype}")
        repeats = repeats.to(E.int64)
    return E.repeat_interleave(x, repeats, dim=axis)  # type: ignore[no-any-return]


def reshape(x: Array, /, shape: tuple[int, ...], *, copy: builtins.bool | None = None) -> Array:
    """x with a new shape: a view when possible, a copy when `copy=True` or when needed.

    `copy=False` raises ValueError when the strides do not allow a view.

    Example:
        >>> reshape(ember.arange(6), (2, -1)).shape
        ember.Size([2, 3])
    """
    check_array(x, "reshape")
    shape = int_tuple(shape, "reshape", "shape")
    if copy:
        return x.reshape(shape).clone()  # type: ignore[no-any-return]
    if copy is False:
        try:
            return x.view(shape)
        except RuntimeError as error:
            if "view size is not compatible" not in str(error):
                raise
            raise ValueError(f"[reshape] copy=False but {shape_of(x)} -> {shape} copies") from None
    return x.reshape(shape)


def roll(
    x: Array,
    /,
    shift: int | tuple[int, ...],
    *,
    axis: int | tuple[int, ...] | None = None,
) -> Array:
    """x with elements shifted by `shift` along `axis` (the flattened array when None).

    An int `shift` with a tuple `axis` shifts every one of those axes by the same amount.

    Example:
        >>> roll(ember.arange(4), 1)
        tensor([3, 0, 1, 2])
    """
    check_array(x, "roll")
    if axis is None:
        return E.roll(x, shift)  # type: ignore[no-any-return]
    if isinstance(shift, int) and not isinstance(axis, int):
        shift = (shift,) * len(axis)  # one shift applies to every axis
    return E.roll(x, shift, axis)  # type: ignore[no-any-return]


def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """x without the length-1 axes `axis`; ValueError when one of them is not of length 1.

    Example:
        >>> squeeze(ember.zeros(1, 3), axis=0).shape
        ember.Size([3])
    """
    check_array(x, "squeeze")
    axes = normalize_axes(axis, x.ndim, "squeeze")
    for a in axes:
        if shape_of(x)[a] != 1:
            raise ValueError(f"[squeeze] axis {a} of shape {shape_of(x)} is not of length 1")
    return E.squeeze(x, axes) if axes else x


def stack(arrays: Sequence[Array], /, *, axis: int = 0) -> Array:
    """Arrays of one shape joined along a new axis.

    Example:
        >>> stack([ember.zeros(2), ember.ones(2)]).shape
        ember.Size([2, 2])
    """
    return E.stack(_arrays(arrays, "stack"), dim=axis)  # type: ignore[no-any-return]


def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    """x repeated `repetitions` times along each axis.

    Example:
        >>> tile(ember.tensor([1, 2]), (2,))
        tensor([1, 2, 1, 2])
    """
    return E.tile(check_array(x, "tile"), int_tuple(repetitions, "tile", "repetitions"))  # type: ignore[no-any-return]


def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices of x along `axis`, as a tuple of views.

    Example:
        >>> len(unstack(ember.zeros(3, 2)))
        3
    """
    check_array(x, "unstack")
    if x.ndim == 0:
        raise ValueError("[unstack] expected an array of at least 1 dim, got a 0-d array")
    return tuple(E.unbind(x, axis))


def _from_the_end(x: Any, indices: Any, axis: int, op: str) -> Any:
    """`indices` with negative entries counted from the end of `axis` (the 2024.12 rule)."""
    if not isinstance(axis, int) or not -x.ndim <= axis < builtins.max(x.ndim, 1):
        return indices  # the ember op reports the bad axis
    if indices.is_floating_point() or indices.is_complex() or indices.dtype == E.bool:
        return indices  # the ember op reports the bad dtype
    size = x.shape[axis] if x.ndim else 1
    if indices.numel() and builtins.bool(E.any(indices < -size)):
        lowest = int(E.min(indices))
        raise IndexError(f"[{op}] index {lowest} is out of bounds for axis {axis} with size {size}")
    return E.where(indices < 0, indices + size, indices)


def take(x: Array, indices: Array, /, *, axis: int | None = None) -> Array:
    """Elements of x at the 1-D integer `indices` along `axis` (optional for 1-D x).

    Example:
        >>> take(ember.tensor([5, 6, 7]), ember.tensor([2, 0]))
        tensor([7, 5])
    """
    check_array(x, "take")
    check_array(indices, "take", "indices")
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"[take] axis is required for an array of {x.ndim} dims")
        axis = 0
    return E.index_select(x, axis, _from_the_end(x, indices, axis, "take"))  # type: ignore[no-any-return]


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    """Elements of x picked along `axis` by `indices` of the same number of dims.

    Example:
        >>> take_along_axis(ember.tensor([[4, 5]]), ember.tensor([[1, 0]]), axis=1)
        tensor([[5, 4]])
    """
    check_array(x, "take_along_axis")
    check_array(indices, "take_along_axis", "indices")
    return E.take_along_dim(x, _from_the_end(x, indices, axis, "take_along_axis"), dim=axis)  # type: ignore[no-any-return]
