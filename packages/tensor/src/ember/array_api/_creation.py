"""Creation functions: arrays from values, shapes, ranges and other arrays."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from ember._tensor import Tensor
from ember.array_api._common import (
    Array,
    E,
    check_array,
    check_device,
    int_tuple,
    is_scalar,
    scalar_dtype,
)

Shape = int | Sequence[int]


def _shape(shape: Shape, op: str) -> tuple[int, ...]:
    return int_tuple(shape, op, "shape")


def asarray(
    obj: Any,
    /,
    *,
    dtype: Any = None,
    device: Any = None,
    copy: builtins.bool | None = None,
) -> Array:
    """An array from an array, a Python scalar or nested sequence, or a DLPack/buffer object.

    `copy=True` always copies, `copy=False` never does (ValueError when it would have to), and
    `copy=None` copies only when needed.

    Example:
        >>> asarray([[1, 2], [3, 4]]).dtype
        ember.int64
    """
    check_device(device, "asarray")
    if isinstance(obj, Tensor):
        if copy is False and dtype is not None and dtype != obj.dtype:
            raise ValueError(f"[asarray] copy=False but casting {obj.dtype} to {dtype} copies")
        result: Any = obj if dtype is None else obj.to(dtype)
        return result.clone() if copy and result is obj else result  # type: ignore[no-any-return]
    if hasattr(obj, "__dlpack__"):
        shared: Any = E.from_dlpack(obj)
        return asarray(shared, dtype=dtype, copy=copy)
    if copy is False:
        raise ValueError(
            f"[asarray] copy=False needs an object that shares memory (an array or a DLPack "
            f"exporter), got {type(obj).__name__}"
        )
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return E.frombuffer(obj, dtype=E.uint8 if dtype is None else dtype).clone()  # type: ignore[no-any-return]
    if is_scalar(obj) and dtype is None:
        dtype = scalar_dtype(obj)
    return E.tensor(obj, dtype=dtype)  # type: ignore[no-any-return]


def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)``; ``arange(n)`` counts from 0.

    Example:
        >>> arange(1, 7, 2)
        tensor([1, 3, 5])
    """
    check_device(device, "arange")
    if stop is None:
        start, stop = 0, start
    for name, bound in (("start", start), ("stop", stop), ("step", step)):
        if not isinstance(bound, (int, float)) or isinstance(bound, builtins.bool):
            raise TypeError(f"[arange] {name} must be an int or a float, got {bound!r}")
    if step != 0 and (stop - start) * step <= 0:
        # The standard's empty range (ember's arange, like torch's, rejects start > stop, step > 0);
        # the dtype is still the one all the bounds give (a float bound: the default float).
        if dtype is None:
            floats = any(isinstance(b, float) for b in (start, stop, step))
            dtype = E.get_default_dtype() if floats else E.int64
        stop = start
    return E.arange(start, stop, step, dtype=dtype)  # type: ignore[no-any-return]


def empty(shape: Shape, *, dtype: Any = None, device: Any = None) -> Array:
    """An uninitialised array of `shape`.

    Example:
        >>> empty((2, 3)).shape
        ember.Size([2, 3])
    """
    check_device(device, "empty")
    return E.empty(_shape(shape, "empty"), dtype=dtype)  # type: ignore[no-any-return]


def zeros(shape: Shape, *, dtype: Any = None, device: Any = None) -> Array:
    """An array of zeros.

    Example:
        >>> zeros(2, dtype=E.int32)
        tensor([0, 0], dtype=ember.int32)
    """
    check_device(device, "zeros")
    return E.zeros(_shape(shape, "zeros"), dtype=dtype)  # type: ignore[no-any-return]


def ones(shape: Shape, *, dtype: Any = None, device: Any = None) -> Array:
    """An array of ones.

    Example:
        >>> ones(2)
        tensor([1., 1.])
    """
    check_device(device, "ones")
    return E.ones(_shape(shape, "ones"), dtype=dtype)  # type: ignore[no-any-return]


def full(
    shape: Shape,
    fill_value: builtins.bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """An array filled with `fill_value`; its dtype follows the scalar's kind by default.

    Example:
        >>> full(2, 7)
        tensor([7, 7])
    """
    check_device(device, "full")
    if not is_scalar(fill_value):
        raise TypeError(f"[full] fill_value must be a Python scalar, got {fill_value!r}")
    dtype = scalar_dtype(fill_value) if dtype is None else dtype
    return E.full(_shape(shape, "full"), fill_value, dtype=dtype)  # type: ignore[no-any-return]


def empty_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    """An uninitialised array with x's shape (and dtype unless given).

    Example:
        >>> empty_like(ones(3)).shape
        ember.Size([3])
    """
    check_array(x, "empty_like")
    check_device(device, "empty_like")
    return E.empty_like(x, dtype=dtype)  # type: ignore[no-any-return]


def zeros_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    """Zeros with x's shape (and dtype unless given).

    Example:
        >>> zeros_like(ones(2))
        tensor([0., 0.])
    """
    check_array(x, "zeros_like")
    check_device(device, "zeros_like")
    return E.zeros_like(x, dtype=dtype)  # type: ignore[no-any-return]


def ones_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    """Ones with x's shape (and dtype unless given).

    Example:
        >>> ones_like(zeros(2))
        tensor([1., 1.])
    """
    check_array(x, "ones_like")
    check_device(device, "ones_like")
    return E.ones_like(x, dtype=dtype)  # type: ignore[no-any-return]


def full_like(
    x: Array,
    /,
    fill_value: builtins.bool | int | float | complex,
    *,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """`fill_value` in x's shape (and dtype unless given).

    Example:
        >>> full_like(zeros(2), 3.5)
        tensor([3.5000, 3.5000])
    """
    check_array(x, "full_like")
    check_device(device, "full_like")
    if isinstance(fill_value, complex):  # ember's full_like takes real fill values only
        return E.full(tuple(x.shape), fill_value, dtype=x.dtype if dtype is None else dtype)  # type: ignore[no-any-return]
    return E.full_like(x, fill_value, dtype=dtype)  # type: ignore[no-any-return]


def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *,
    k: int = 0,
    dtype: Any = None,
    device: Any = None,
) -> Array:
    """A 2-D array with ones on diagonal `k` (k > 0: above the main diagonal) and zeros elsewhere.

    Example:
        >>> eye(2, 3, k=1)
        tensor([[0., 1., 0.],
                [0., 0., 1.]])
    """
    check_device(device, "eye")
    n_cols = n_rows if n_cols is None else n_cols
    if isinstance(k, int) and isinstance(n_rows, int) and isinstance(n_cols, int):
        # Beyond the corners every diagonal is empty: clamping keeps k within int64.
        k = builtins.max(builtins.min(k, n_cols), -n_rows)
    ones_ = E.ones((n_rows, n_cols), dtype=dtype)
    return ones_.triu(k).tril(k)  # type: ignore[no-any-return]


def linspace(
    start: int | float | complex,
    stop: int | float | complex,
    /,
    num: int,
    *,
    dtype: Any = None,
    device: Any = None,
    endpoint: builtins.bool = True,
) -> Array:
    """`num` evenly spaced values from `start` to `stop` (excluded when ``endpoint=False``).

    A complex bound gives a complex array (the default complex dtype unless `dtype` is given).

    Example:
        >>> linspace(0, 1, 4, endpoint=False)
        tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    check_device(device, "linspace")
    if isinstance(start, complex) or isinstance(stop, complex):
        dtype = scalar_dtype(1j) if dtype is None else dtype
        if dtype not in (E.complex64, E.complex128):
            raise TypeError(f"[linspace] complex bounds need a complex dtype, got {dtype}")
        part = E.float32 if dtype == E.complex64 else E.float64
        begin, end = complex(start), complex(stop)
        real = linspace(begin.real, end.real, num, dtype=part, endpoint=endpoint)
        imag = linspace(begin.imag, end.imag, num, dtype=part, endpoint=endpoint)
        return E.complex(real, imag)  # type: ignore[no-any-return]
    if endpoint:
        return E.linspace(start, stop, num, dtype=dtype)  # type: ignore[no-any-return]
    return E.linspace(start, stop, num + 1, dtype=dtype)[:num]  # type: ignore[no-any-return]


def meshgrid(*arrays: Array, indexing: str = "xy") -> list[Array]:
    """Coordinate grids from 1-D arrays (``indexing='xy'`` Cartesian, ``'ij'`` matrix).

    Example:
        >>> [g.shape for g in meshgrid(arange(2), arange(3))]
        [ember.Size([3, 2]), ember.Size([3, 2])]
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"[meshgrid] indexing must be 'xy' or 'ij', got {indexing!r}")
    if not arrays:
        return []
    items = [check_array(a, "meshgrid", "arrays") for a in arrays]
    return list(E.meshgrid(*items, indexing=indexing))


def tril(x: Array, /, *, k: int = 0) -> Array:
    """The lower triangle of the last two dims (diagonal `k` and below).

    Example:
        >>> tril(ones((2, 2)))
        tensor([[1., 0.],
                [1., 1.]])
    """
    return E.tril(check_array(x, "tril"), k)  # type: ignore[no-any-return]


def triu(x: Array, /, *, k: int = 0) -> Array:
    """The upper triangle of the last two dims (diagonal `k` and above).

    Example:
        >>> triu(ones((2, 2)))
        tensor([[1., 1.],
                [0., 1.]])
    """
    return E.triu(check_array(x, "triu"), k)  # type: ignore[no-any-return]


def from_dlpack(x: Any, /, *, device: Any = None, copy: builtins.bool | None = None) -> Array:
    """An array sharing the memory of a DLPack exporter (a copy when ``copy=True``).

    Example:
        >>> import numpy as np
        >>> from_dlpack(np.arange(3))
        tensor([0, 1, 2])
    """
    check_device(device, "from_dlpack")
    result: Any = E.from_dlpack(x)
    return result.clone() if copy else result  # type: ignore[no-any-return]
