"""Data types, promotion and casting: the standard's data type functions over ember dtypes."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

from ember.array_api._common import E, check_array, check_device, complex_default, is_scalar
from ember_core._C import dtype as DType

bool: DType = E.bool
int8: DType = E.int8
int16: DType = E.int16
int32: DType = E.int32
int64: DType = E.int64
uint8: DType = E.uint8
uint16: DType = E.uint16
uint32: DType = E.uint32
uint64: DType = E.uint64
float32: DType = E.float32
float64: DType = E.float64
complex64: DType = E.complex64
complex128: DType = E.complex128

# The dtypes the standard knows that ember has, by the standard's names.
DTYPES: dict[str, DType] = {
    "bool": bool,
    "int8": int8,
    "int16": int16,
    "int32": int32,
    "int64": int64,
    "uint8": uint8,
    "uint16": uint16,
    "uint32": uint32,
    "uint64": uint64,
    "float32": float32,
    "float64": float64,
    "complex64": complex64,
    "complex128": complex128,
}
_KINDS: dict[str, tuple[DType, ...]] = {
    "bool": (bool,),
    "signed integer": (int8, int16, int32, int64),
    "unsigned integer": (uint8, uint16, uint32, uint64),
    "integral": (int8, int16, int32, int64, uint8, uint16, uint32, uint64),
    "real floating": (float32, float64),
    "complex floating": (complex64, complex128),
    "numeric": (
        int8,
        int16,
        int32,
        int64,
        uint8,
        uint16,
        uint32,
        uint64,
        float32,
        float64,
        complex64,
        complex128,
    ),
}


def _check_dtype(dtype: object, op: str) -> DType:
    if not isinstance(dtype, DType):
        raise TypeError(f"[{op}] expected an ember dtype, got {dtype!r}")
    return dtype


def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> builtins.bool:
    """Whether `dtype` is of `kind`: a dtype, a kind name ('integral', ...) or a tuple of them.

    Example:
        >>> isdtype(float32, ("integral", "real floating"))
        True
    """
    _check_dtype(dtype, "isdtype")
    if isinstance(kind, tuple):
        return any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, DType):
        return dtype == kind
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"[isdtype] unknown kind {kind!r}; expected one of {sorted(_KINDS)}")
        return dtype in _KINDS[kind]
    raise TypeError(f"[isdtype] kind must be a dtype, a str or a tuple, got {kind!r}")


def _promote_scalar(dtype: DType, scalar: builtins.bool | int | float | complex) -> DType:
    """The dtype of `dtype` combined with a Python scalar: the array's dtype unless kinds differ."""
    if isinstance(scalar, complex):
        if dtype in _KINDS["complex floating"]:
            return dtype
        return complex128 if dtype == float64 else complex_default()
    if (
        isinstance(scalar, float)
        and not dtype.is_floating_point
        and dtype not in _KINDS["complex floating"]
    ):
        return E.get_default_dtype()  # type: ignore[no-any-return]
    if isinstance(scalar, int) and not isinstance(scalar, builtins.bool) and dtype == bool:
        return int64
    return dtype


def real_dtype_of(dtype: DType) -> DType:
    """The real floating dtype of a complex dtype's precision (`dtype` itself when it is real)."""
    return {complex64: float32, complex128: float64}.get(dtype, dtype)


def result_type(*arrays_and_dtypes: Any) -> DType:
    """The dtype the standard's promotion rules give to arrays, dtypes and Python scalars.

    Example:
        >>> result_type(int8, uint8)
        ember.int16
    """
    dtypes = [a.dtype if hasattr(a, "dtype") else a for a in arrays_and_dtypes if not is_scalar(a)]
    scalars = [a for a in arrays_and_dtypes if is_scalar(a)]
    if not dtypes:
        raise ValueError("[result_type] at least one array or dtype is required")
    result = _check_dtype(dtypes[0], "result_type")
    for d in dtypes[1:]:
        result = E.promote_types(result, _check_dtype(d, "result_type"))
    for s in scalars:
        result = _promote_scalar(result, s)
    return result


def can_cast(from_: Any, to: DType, /) -> builtins.bool:
    """Whether promotion of `from_` (a dtype or an array) with `to` gives `to`.

    Example:
        >>> can_cast(int8, uint8)
        False
    """
    source = from_.dtype if hasattr(from_, "dtype") else _check_dtype(from_, "can_cast")
    target = _check_dtype(to, "can_cast")
    try:
        return E.promote_types(source, target) == target  # type: ignore[no-any-return]
    except RuntimeError:  # uint64 with a signed type: no common type, so no safe cast
        return False


@dataclass(frozen=True)
class finfo_object:
    """Machine limits of a floating-point dtype (``finfo``'s result)."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


@dataclass(frozen=True)
class iinfo_object:
    """Limits of an integer dtype (``iinfo``'s result)."""

    bits: int
    max: int
    min: int
    dtype: DType


def _dtype_of(type: Any, op: str) -> DType:
    return type.dtype if hasattr(type, "dtype") else _check_dtype(type, op)


def finfo(type: Any, /) -> finfo_object:
    """Machine limits of a real or complex floating-point dtype or of an array's dtype.

    Example:
        >>> finfo(float32).bits
        32
    """
    dtype = real_dtype_of(_dtype_of(type, "finfo"))
    if dtype not in _KINDS["real floating"]:
        raise TypeError(f"[finfo] expected a floating-point dtype, got {dtype}")
    # A complex dtype's limits are those of its real and imaginary parts (dtype is their dtype).
    info = E.finfo(dtype)
    return finfo_object(info.bits, info.eps, info.max, info.min, info.smallest_normal, dtype)


def iinfo(type: Any, /) -> iinfo_object:
    """Limits of an integer dtype or of an array's dtype.

    Example:
        >>> iinfo(int8).min
        -128
    """
    dtype = _dtype_of(type, "iinfo")
    if dtype not in _KINDS["integral"]:
        raise TypeError(f"[iinfo] expected an integer dtype, got {dtype}")
    info = E.iinfo(dtype)
    return iinfo_object(info.bits, info.max, info.min, dtype)


def astype(x: Any, dtype: DType, /, *, copy: builtins.bool = True, device: Any = None) -> Any:
    """x converted to `dtype`; a new array unless `copy=False` and the dtype already matches.

    Example:
        >>> astype(E.tensor([1.7]), int64)
        tensor([1])
    """
    check_array(x, "astype")
    check_device(device, "astype")
    return x.to(_check_dtype(dtype, "astype"), copy=copy)
