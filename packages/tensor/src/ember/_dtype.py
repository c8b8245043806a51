"""dtype helpers: ``finfo``/``iinfo``, torch's dtype aliases and small predicates."""

from __future__ import annotations

import builtins
from typing import Any, ClassVar

from ember_core import _C
from ember_core._C import dtype as DType

__all__ = [
    "cdouble",
    "cfloat",
    "double",
    "finfo",
    "float",
    "half",
    "iinfo",
    "int",
    "is_floating_point",
    "is_nonzero",
    "is_tensor",
    "long",
    "numel",
    "short",
]


def _name(d: DType) -> str:
    return repr(d).removeprefix("ember.")


class finfo:
    """Machine limits of a floating dtype, like ``torch.finfo``.

    Example:
        >>> ember.finfo(ember.float16).max
        65504.0
    """

    # (bits, eps, max, smallest_normal, resolution) as torch.finfo reports them.
    _TABLE: ClassVar[
        dict[
            str, tuple[builtins.int, builtins.float, builtins.float, builtins.float, builtins.float]
        ]
    ] = {
        "float16": (16, 2.0**-10, 65504.0, 2.0**-14, 0.001),
        "bfloat16": (16, 2.0**-7, 3.3895313892515355e38, 2.0**-126, 0.01),
        "float32": (32, 2.0**-23, 3.4028234663852886e38, 2.0**-126, 1e-06),
        "float64": (64, 2.0**-52, 1.7976931348623157e308, 2.0**-1022, 1e-15),
    }

    bits: builtins.int
    eps: builtins.float
    max: builtins.float
    min: builtins.float
    tiny: builtins.float
    smallest_normal: builtins.float
    resolution: builtins.float
    dtype: str

    def __init__(self, type: DType | None = None) -> None:
        d = _C.get_default_dtype() if type is None else type
        if not isinstance(d, DType):
            raise TypeError(f"[finfo] expected an ember dtype, got {d!r}")
        # A complex dtype reports the limits of its parts, as in torch.
        name = {"complex64": "float32", "complex128": "float64"}.get(_name(d), _name(d))
        if name not in self._TABLE:
            raise TypeError(
                f"[finfo] ember.finfo() requires a floating point input type, got {d!r}. "
                "Use ember.iinfo to handle integer types"
            )
        self.bits, self.eps, self.max, self.smallest_normal, self.resolution = self._TABLE[name]
        self.min = -self.max
        self.tiny = self.smallest_normal
        self.dtype = name

    def __repr__(self) -> str:
        return (
            f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
            f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
            f"dtype={self.dtype})"
        )


class iinfo:
    """Limits of an integer dtype, like ``torch.iinfo``.

    Example:
        >>> ember.iinfo(ember.int8).min
        -128
    """

    _BITS: ClassVar[dict[str, tuple[builtins.int, bool]]] = {
        "uint8": (8, False),
        "uint16": (16, False),
        "uint32": (32, False),
        "uint64": (64, False),
        "int8": (8, True),
        "int16": (16, True),
        "int32": (32, True),
        "int64": (64, True),
    }

    bits: builtins.int
    max: builtins.int
    min: builtins.int
    dtype: str

    def __init__(self, type: DType) -> None:
        if not isinstance(type, DType):
            raise TypeError(f"[iinfo] expected an ember dtype, got {type!r}")
        name = _name(type)
        if name == "bool":
            raise TypeError("[iinfo] ember.bool is not supported by ember.iinfo")
        if name not in self._BITS:
            raise TypeError(
                f"[iinfo] ember.iinfo() requires an integer input type, got {type!r}. "
                "Use ember.finfo to handle floating types"
            )
        self.bits, signed = self._BITS[name]
        self.min = -(2 ** (self.bits - 1)) if signed else 0
        self.max = 2 ** (self.bits - 1) - 1 if signed else 2**self.bits - 1
        self.dtype = name

    def __repr__(self) -> str:
        return f"iinfo(min={builtins.float(self.min):g}, max={builtins.float(self.max):g}, " + (
            f"dtype={self.dtype})"
        )


def is_tensor(obj: object) -> bool:
    """Whether ``obj`` is an ember tensor.

    Example:
        >>> ember.is_tensor(ember.tensor([1]))
        True
    """
    return isinstance(obj, _C.TensorBase)


def _require_tensor(obj: Any, op: str) -> _C.TensorBase:
    if not isinstance(obj, _C.TensorBase):
        raise TypeError(f"[{op}] expected a Tensor, got {type(obj).__name__}")
    return obj


def is_floating_point(input: Any) -> bool:
    """Whether the tensor's dtype is a floating type.

    Example:
        >>> ember.is_floating_point(ember.tensor([1.0]))
        True
    """
    return bool(_require_tensor(input, "is_floating_point").is_floating_point())


def numel(input: Any) -> builtins.int:
    """The number of elements of a tensor.

    Example:
        >>> ember.numel(ember.tensor([[1, 2, 3]]))
        3
    """
    return builtins.int(_require_tensor(input, "numel").numel())


def is_nonzero(input: Any) -> bool:
    """Whether a one-element tensor is nonzero; other sizes raise RuntimeError like torch.

    Example:
        >>> ember.is_nonzero(ember.tensor([0.5]))
        True
    """
    t = _require_tensor(input, "is_nonzero")
    n = t.numel()
    if n != 1:
        what = "no values" if n == 0 else "more than one value"
        raise RuntimeError(f"[is_nonzero] Boolean value of Tensor with {what} is ambiguous")
    return bool(t.item() != 0)


# torch's aliases (torch.float is float32, ...), defined last so they do not shadow the builtins
# above.
float = _C.float32
double = _C.float64
half = _C.float16
long = _C.int64
int = _C.int32
short = _C.int16
cfloat = _C.complex64
cdouble = _C.complex128
