"""Helpers shared by the Array API namespace: argument checks, axis handling, scalars."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ember
from ember._device import _as_device, _check_cpu
from ember._device import device as Device
from ember._tensor import Tensor

# ember's public namespace, typed loosely: the native stub types every result as `object`.
E: Any = ember

Array = Tensor
Scalar = bool | int | float | complex


def check_array(x: object, op: str, name: str = "x") -> Any:
    """Returns x when it is an ember tensor; TypeError naming `op` and the argument otherwise."""
    if not isinstance(x, Tensor):
        raise TypeError(f"[{op}] argument '{name}' must be an ember array, not {type(x).__name__}")
    return x


def check_device(device: object, op: str) -> None:
    """Accepts None or the CPU device (ember arrays live on the CPU only)."""
    if device is None:
        return
    if not isinstance(device, (str, Device)):
        raise TypeError(f"[{op}] device must be an ember.device or str, not {device!r}")
    _check_cpu(_as_device(device, op), op)


def shape_of(x: Any) -> tuple[int, ...]:
    """x's shape as a plain tuple (for error messages)."""
    return tuple(x.shape)


def is_scalar(x: object) -> bool:
    """Whether x is a Python bool, int, float or complex (the scalars the standard accepts)."""
    return isinstance(x, (bool, int, float, complex))


def scalar_dtype(value: Any) -> Any:
    """The default dtype of a Python scalar: bool, int64, or the default float/complex dtype."""
    if isinstance(value, bool):
        return E.bool
    if isinstance(value, int):
        return E.int64
    if isinstance(value, complex):
        return complex_default()
    return E.get_default_dtype()


def complex_default() -> Any:
    """The default complex dtype: the complex dtype of the default float dtype's precision."""
    return E.complex128 if E.get_default_dtype() == E.float64 else E.complex64


def as_operands(x1: object, x2: object, op: str) -> tuple[Any, Any]:
    """Turns a Python scalar operand into a 0-d array of the dtype the other array promotes it to.

    The 2024.12 standard lets either operand of a binary function be a scalar (never both).
    Two arrays promote by the standard's lattice even when one of them is 0-d.
    """
    if isinstance(x1, Tensor) and isinstance(x2, Tensor):
        # NOTE: torch lets a dimensioned array's dtype win over a 0-d one's of the same kind
        # (int8 + 0-d int64 -> int8); the standard promotes 0-d arrays like any other.
        if x1.dtype != x2.dtype and (x1.ndim == 0 or x2.ndim == 0):
            common = E.promote_types(x1.dtype, x2.dtype)
            return x1.to(common), x2.to(common)
        return x1, x2
    if isinstance(x1, Tensor) and is_scalar(x2):
        return x1, E.tensor(x2, dtype=E.result_type(x1, x2))
    if isinstance(x2, Tensor) and is_scalar(x1):
        return E.tensor(x1, dtype=E.result_type(x2, x1)), x2
    raise TypeError(
        f"[{op}] expected arrays or one array and one Python scalar, got "
        f"{type(x1).__name__} and {type(x2).__name__}"
    )


def int_tuple(value: object, op: str, name: str) -> tuple[int, ...]:
    """An int or a sequence of ints as a tuple; TypeError naming `op` and the argument otherwise."""
    items = (value,) if isinstance(value, int) else value
    if not isinstance(items, (tuple, list)) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in items
    ):
        raise TypeError(f"[{op}] {name} must be an int or a tuple of ints, got {value!r}")
    return tuple(items)


def normalize_axes(axis: int | Sequence[int] | None, ndim: int, op: str) -> tuple[int, ...]:
    """The axes as a sorted tuple of non-negative ints; None means every axis.

    Raises IndexError for an axis out of range and ValueError for a repeated one.
    """
    if axis is None:
        return tuple(range(ndim))
    result = []
    for a in int_tuple(axis, op, "axis"):
        if not -ndim <= a < ndim:
            raise IndexError(f"[{op}] axis {a} is out of range for an array of {ndim} dims")
        result.append(a % ndim)
    if len(set(result)) != len(result):
        raise ValueError(f"[{op}] repeated axis in {axis!r}")
    return tuple(sorted(result))


def kept_shape(shape: Sequence[int], axes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of a reduction over `axes` with keepdims=True (reduced axes become 1)."""
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def reduce_axes(
    x: Any,
    axis: int | Sequence[int] | None,
    keepdims: bool,
    op: str,
    reduce: Any,
) -> Any:
    """Runs `reduce(x, dims)` (dims a non-empty tuple) with the standard's axis/keepdims rules.

    `axis=()` reduces nothing: a trailing axis of length 1 is added and reduced instead, so the
    result still has the reduction's dtype. A 0-d array is handled the same way.
    """
    axes = normalize_axes(axis, x.ndim, op)
    if not axes or x.ndim == 0:
        return reduce(x.unsqueeze(-1), (-1,))
    result = reduce(x, axes)
    return result.reshape(kept_shape(x.shape, axes)) if keepdims else result


def accumulator_dtype(x: Any, dtype: Any) -> Any:
    """The standard's default dtype of sums and products: uint64 for unsigned integer input."""
    if dtype is None and x.dtype in (E.uint8, E.uint16, E.uint32, E.uint64):
        return E.uint64
    return dtype
