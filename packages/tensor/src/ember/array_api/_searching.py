"""Searching, sorting and set functions."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, NamedTuple

from ember.array_api._common import (
    Array,
    E,
    as_operands,
    check_array,
    is_scalar,
    normalize_axes,
    reduce_axes,
    scalar_dtype,
    shape_of,
)


def _arg_reduce(x: Any, axis: int | None, keepdims: builtins.bool, op: str, fn: Any) -> Any:
    check_array(x, op)
    if x.numel() == 0:
        raise ValueError(f"[{op}] zero-size array of shape {shape_of(x)} has no {op}")
    if axis is None:
        result = fn(x.reshape(-1), 0)
        return result.reshape((1,) * x.ndim) if keepdims else result
    if isinstance(axis, builtins.bool) or not isinstance(axis, int):
        raise TypeError(f"[{op}] axis must be an int or None, got {axis!r}")
    (dim,) = normalize_axes(axis, x.ndim, op)
    return fn(x, dim, keepdim=keepdims)


def argmax(x: Array, /, *, axis: int | None = None, keepdims: builtins.bool = False) -> Array:
    """The index of the first largest element along `axis` (of the flattened array when None).

    Example:
        >>> argmax(ember.tensor([[1, 5], [7, 2]]), axis=1)
        tensor([1, 0])
    """
    return _arg_reduce(x, axis, keepdims, "argmax", E.argmax)  # type: ignore[no-any-return]


def argmin(x: Array, /, *, axis: int | None = None, keepdims: builtins.bool = False) -> Array:
    """The index of the first smallest element along `axis` (of the flattened array when None).

    Example:
        >>> argmin(ember.tensor([[1, 5], [7, 2]]), axis=1)
        tensor([0, 1])
    """
    return _arg_reduce(x, axis, keepdims, "argmin", E.argmin)  # type: ignore[no-any-return]


def count_nonzero(
    x: Array, /, *, axis: int | Sequence[int] | None = None, keepdims: builtins.bool = False
) -> Array:
    """The number of nonzero elements over `axis` (int64).

    Example:
        >>> count_nonzero(ember.tensor([[0, 1], [2, 3]]), axis=1)
        tensor([1, 2])
    """
    check_array(x, "count_nonzero")
    return reduce_axes(  # type: ignore[no-any-return]
        x, axis, keepdims, "count_nonzero", lambda t, d: E.count_nonzero(t, d)
    )


def nonzero(x: Array, /) -> tuple[Array, ...]:
    """The indices of the nonzero elements, one int64 array per axis.

    Example:
        >>> nonzero(ember.tensor([0, 3, 0, 4]))
        (tensor([1, 3]),)
    """
    check_array(x, "nonzero")
    if x.ndim == 0:
        raise ValueError("[nonzero] a 0-d array has no axes to index; use expand_dims first")
    return tuple(E.nonzero(x, as_tuple=True))


def searchsorted(
    x1: Array, x2: Array, /, *, side: str = "left", sorter: Array | None = None
) -> Array:
    """Where each element of x2 would go in the sorted 1-D x1 to keep it sorted.

    Example:
        >>> searchsorted(ember.tensor([1, 3, 5]), ember.tensor([3, 4]), side="right")
        tensor([2, 2])
    """
    check_array(x1, "searchsorted", "x1")
    if is_scalar(x2):
        x2 = E.tensor(x2, dtype=E.result_type(x1, x2))
    check_array(x2, "searchsorted", "x2")
    if x1.ndim != 1:
        raise ValueError(f"[searchsorted] x1 must be 1-D, got shape {shape_of(x1)}")
    if side not in ("left", "right"):
        raise ValueError(f"[searchsorted] side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        x1 = E.take(x1, check_array(sorter, "searchsorted", "sorter"))
    common = E.promote_types(x1.dtype, x2.dtype)
    return E.searchsorted(x1.to(common), x2.to(common), side=side)  # type: ignore[no-any-return]


def where(condition: Array, x1: Any, x2: Any, /) -> Array:
    """Elements of x1 where `condition` is true, of x2 elsewhere (either or both may be scalars).

    Example:
        >>> where(ember.tensor([True, False]), ember.tensor([1, 2]), 0)
        tensor([1, 0])
    """
    check_array(condition, "where", "condition")
    if is_scalar(x1) and is_scalar(x2):
        x1 = E.tensor(x1, dtype=scalar_dtype(x1))  # both scalars: x1 gets its default dtype
    x1, x2 = as_operands(x1, x2, "where")
    return E.where(condition, x1, x2)  # type: ignore[no-any-return]


def _check_sort_args(x: Any, axis: int, op: str) -> int:
    check_array(x, op)
    if x.ndim == 0:
        raise ValueError(f"[{op}] expected an array of at least 1 dim, got a 0-d array")
    (dim,) = normalize_axes(axis, x.ndim, op)
    return dim


def sort(
    x: Array,
    /,
    *,
    axis: int = -1,
    descending: builtins.bool = False,
    stable: builtins.bool = True,
) -> Array:
    """x sorted along `axis`; equal elements keep their order when `stable`.

    Example:
        >>> sort(ember.tensor([3, 1, 2]), descending=True)
        tensor([3, 2, 1])
    """
    dim = _check_sort_args(x, axis, "sort")
    return E.sort(x, dim=dim, descending=descending, stable=stable).values  # type: ignore[no-any-return]


def argsort(
    x: Array,
    /,
    *,
    axis: int = -1,
    descending: builtins.bool = False,
    stable: builtins.bool = True,
) -> Array:
    """The indices that sort x along `axis`; ties keep their order when `stable`.

    Example:
        >>> argsort(ember.tensor([3, 1, 2]))
        tensor([1, 2, 0])
    """
    dim = _check_sort_args(x, axis, "argsort")
    return E.argsort(x, dim=dim, descending=descending, stable=stable)  # type: ignore[no-any-return]


class UniqueAllResult(NamedTuple):
    """``unique_all``'s result."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """``unique_counts``'s result."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """``unique_inverse``'s result."""

    values: Array
    inverse_indices: Array


def _unique_complex(flat: Any) -> tuple[Any, Any, Any]:
    """``unique`` of a 1-D complex array (ember's is real-only): sorted by real, then imaginary
    part; each value with a NaN part stays distinct (NaN != NaN)."""
    if flat.numel() == 0:
        empty = E.zeros(0, dtype=E.int64)
        return flat, empty, empty
    by_imag = E.argsort(E.imag(flat), stable=True)
    order = by_imag[E.argsort(E.real(flat)[by_imag], stable=True)]
    ordered = flat[order]
    starts = E.cat([E.ones(1, dtype=E.bool), ordered[1:] != ordered[:-1]])
    group = E.cumsum(starts.to(E.int64), 0) - 1
    inverse = E.empty_like(group).scatter(0, order, group)
    counts = E.bincount(group)
    return ordered[starts], inverse, counts


def _unique(x: Any, op: str) -> tuple[Any, Any, Any]:
    check_array(x, op)
    flat = x.reshape(-1)
    if flat.is_complex():
        values, inverse, counts = _unique_complex(flat)
    else:
        values, inverse, counts = E.unique(
            flat, sorted=True, return_inverse=True, return_counts=True
        )
    return values, inverse.reshape(shape_of(x)), counts


def unique_all(x: Array, /) -> UniqueAllResult:
    """The sorted unique values, the index of each one's first occurrence, the inverse and counts.

    Example:
        >>> unique_all(ember.tensor([3, 1, 3])).indices
        tensor([1, 0])
    """
    values, inverse, counts = _unique(x, "unique_all")
    n = x.numel()
    positions = E.arange(n)
    first = E.full((values.shape[0],), n, dtype=E.int64)
    first = first.scatter_reduce(0, inverse.reshape(-1), positions, reduce="amin")
    return UniqueAllResult(values, first, inverse, counts)


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """The sorted unique values and how often each occurs.

    Example:
        >>> unique_counts(ember.tensor([3, 1, 3])).counts
        tensor([1, 2])
    """
    values, _, counts = _unique(x, "unique_counts")
    return UniqueCountsResult(values, counts)


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """The sorted unique values and, for each element of x, the index of its value.

    Example:
        >>> unique_inverse(ember.tensor([3, 1, 3])).inverse_indices
        tensor([1, 0, 1])
    """
    values, inverse, _ = _unique(x, "unique_inverse")
    return UniqueInverseResult(values, inverse)


def unique_values(x: Array, /) -> Array:
    """The sorted unique values of x (flattened).

    Example:
        >>> unique_values(ember.tensor([3, 1, 3]))
        tensor([1, 3])
    """
    check_array(x, "unique_values")
    if x.is_complex():
        return _unique_complex(x.reshape(-1))[0]  # type: ignore[no-any-return]
    return E.unique(x.reshape(-1), sorted=True)  # type: ignore[no-any-return]
