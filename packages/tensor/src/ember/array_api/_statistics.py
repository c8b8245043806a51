"""Statistical and utility functions: reductions with the standard's axis/keepdims rules."""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

from ember.array_api._common import (
    Array,
    E,
    accumulator_dtype,
    check_array,
    normalize_axes,
    reduce_axes,
)

Axis = int | Sequence[int] | None


def max(x: Array, /, *, axis: Axis = None, keepdims: builtins.bool = False) -> Array:
    """The largest element over `axis` (every axis when None); NaN propagates.

    Example:
        >>> max(ember.tensor([[1, 5], [3, 2]]), axis=0)
        tensor([3, 5])
    """
    check_array(x, "max")
    if x.numel() == 0:
        raise ValueError("[max] zero-size array: the maximum has no identity")
    return reduce_axes(x, axis, keepdims, "max", lambda t, d: E.amax(t, d))  # type: ignore[no-any-return]


def min(x: Array, /, *, axis: Axis = None, keepdims: builtins.bool = False) -> Array:
    """The smallest element over `axis` (every axis when None); NaN propagates.

    Example:
        >>> min(ember.tensor([[1, 5], [3, 2]]), axis=1)
        tensor([1, 2])
    """
    check_array(x, "min")
    if x.numel() == 0:
        raise ValueError("[min] zero-size array: the minimum has no identity")
    return reduce_axes(x, axis, keepdims, "min", lambda t, d: E.amin(t, d))  # type: ignore[no-any-return]


def mean(x: Array, /, *, axis: Axis = None, keepdims: builtins.bool = False) -> Array:
    """The arithmetic mean over `axis` of a floating-point array.

    Example:
        >>> mean(ember.tensor([1.0, 2.0]))
        tensor(1.5000)
    """
    check_array(x, "mean")
    return reduce_axes(x, axis, keepdims, "mean", lambda t, d: E.mean(t, d))  # type: ignore[no-any-return]


def sum(
    x: Array, /, *, axis: Axis = None, dtype: Any = None, keepdims: builtins.bool = False
) -> Array:
    """The sum over `axis`; integer sums accumulate in int64 (uint64 for unsigned input).

    Example:
        >>> sum(ember.tensor([[1, 2], [3, 4]]), axis=1)
        tensor([3, 7])
    """
    check_array(x, "sum")
    dtype = accumulator_dtype(x, dtype)
    return reduce_axes(x, axis, keepdims, "sum", lambda t, d: E.sum(t, d, dtype=dtype))  # type: ignore[no-any-return]


def _prod_dims(x: Any, dims: tuple[int, ...], dtype: Any) -> Any:
    # ember's prod takes one dim: move the reduced dims last and flatten them into one.
    if len(dims) == 1:
        return E.prod(x, dims[0], dtype=dtype)
    kept = [d for d in range(x.ndim) if d not in dims]
    reduced = math.prod(x.shape[d] for d in dims)
    moved = x.permute((*kept, *dims)).reshape((*[x.shape[d] for d in kept], reduced))
    return E.prod(moved, -1, dtype=dtype)


def prod(
    x: Array, /, *, axis: Axis = None, dtype: Any = None, keepdims: builtins.bool = False
) -> Array:
    """The product over `axis`; integer products accumulate in int64 (uint64 for unsigned input).

    Example:
        >>> prod(ember.tensor([[1, 2], [3, 4]]), axis=0)
        tensor([3, 8])
    """
    check_array(x, "prod")
    dtype = accumulator_dtype(x, dtype)
    return reduce_axes(x, axis, keepdims, "prod", lambda t, d: _prod_dims(t, d, dtype))  # type: ignore[no-any-return]


def _check_correction(correction: int | float, op: str) -> None:
    if isinstance(correction, builtins.bool) or not isinstance(correction, (int, float)):
        raise TypeError(f"[{op}] correction must be an int or float, got {correction!r}")
    if correction < 0:
        raise ValueError(f"[{op}] correction must be non-negative, got {correction}")


def std(
    x: Array,
    /,
    *,
    axis: Axis = None,
    correction: int | float = 0.0,
    keepdims: builtins.bool = False,
) -> Array:
    """The standard deviation over `axis` with ``N - correction`` degrees of freedom.

    Example:
        >>> std(ember.tensor([1.0, 3.0]))
        tensor(1.)
    """
    check_array(x, "std")
    _check_correction(correction, "std")
    return reduce_axes(  # type: ignore[no-any-return]
        x, axis, keepdims, "std", lambda t, d: E.std(t, d, correction=correction)
    )


def var(
    x: Array,
    /,
    *,
    axis: Axis = None,
    correction: int | float = 0.0,
    keepdims: builtins.bool = False,
) -> Array:
    """The variance over `axis` with ``N - correction`` degrees of freedom.

    Example:
        >>> var(ember.tensor([1.0, 3.0]))
        tensor(1.)
    """
    check_array(x, "var")
    _check_correction(correction, "var")
    return reduce_axes(  # type: ignore[no-any-return]
        x, axis, keepdims, "var", lambda t, d: E.var(t, d, correction=correction)
    )


def _cumulative(
    x: Any, axis: int | None, dtype: Any, include_initial: builtins.bool, op: str
) -> tuple[Any, int]:
    check_array(x, op)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"[{op}] axis is required for an array of {x.ndim} dims")
        axis = 0
    if x.ndim == 0:
        raise ValueError(f"[{op}] expected an array of at least 1 dim, got a 0-d array")
    (axis,) = normalize_axes(axis, x.ndim, op)
    return x, axis


def _with_initial(result: Any, axis: int, fill: int) -> Any:
    shape = list(result.shape)
    shape[axis] = 1
    return E.cat([E.full(shape, fill, dtype=result.dtype), result], dim=axis)


def cumulative_sum(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: builtins.bool = False,
) -> Array:
    """Running sums along `axis`, led by a 0 when `include_initial`.

    Example:
        >>> cumulative_sum(ember.tensor([1, 2, 3]), include_initial=True)
        tensor([0, 1, 3, 6])
    """
    x, axis = _cumulative(x, axis, dtype, include_initial, "cumulative_sum")
    dtype = accumulator_dtype(x, dtype)
    result = E.cumsum(x, axis, dtype=dtype)
    return _with_initial(result, axis, 0) if include_initial else result  # type: ignore[no-any-return]


def cumulative_prod(
    x: Array,
    /,
    *,
    axis: int | None = None,
    dtype: Any = None,
    include_initial: builtins.bool = False,
) -> Array:
    """Running products along `axis`, led by a 1 when `include_initial`.

    Example:
        >>> cumulative_prod(ember.tensor([1, 2, 3]), include_initial=True)
        tensor([1, 1, 2, 6])
    """
    x, axis = _cumulative(x, axis, dtype, include_initial, "cumulative_prod")
    dtype = accumulator_dtype(x, dtype)
    result = E.cumprod(x, axis, dtype=dtype)
    return _with_initial(result, axis, 1) if include_initial else result  # type: ignore[no-any-return]


def all(x: Array, /, *, axis: Axis = None, keepdims: builtins.bool = False) -> Array:
    """Whether every element over `axis` is true (nonzero).

    Example:
        >>> all(ember.tensor([1, 0]))
        tensor(False)
    """
    check_array(x, "all")
    # .to(bool): ember's all, like torch's, keeps uint8 for uint8 input; the standard says bool.
    return reduce_axes(x, axis, keepdims, "all", lambda t, d: E.all(t, d).to(E.bool))  # type: ignore[no-any-return]


def any(x: Array, /, *, axis: Axis = None, keepdims: builtins.bool = False) -> Array:
    """Whether some element over `axis` is true (nonzero).

    Example:
        >>> any(ember.tensor([1, 0]))
        tensor(True)
    """
    check_array(x, "any")
    return reduce_axes(x, axis, keepdims, "any", lambda t, d: E.any(t, d).to(E.bool))  # type: ignore[no-any-return]


def diff(
    x: Array,
    /,
    *,
    axis: int = -1,
    n: int = 1,
    prepend: Array | None = None,
    append: Array | None = None,
) -> Array:
    """The n-th forward difference along `axis`, after joining `prepend` and `append`.

    Example:
        >>> diff(ember.tensor([1, 4, 9]))
        tensor([3, 5])
    """
    check_array(x, "diff")
    if isinstance(n, builtins.bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"[diff] n must be a non-negative int, got {n!r}")
    if n == 0:
        return x
    return E.diff(x, n=n, dim=axis, prepend=prepend, append=append)  # type: ignore[no-any-return]
