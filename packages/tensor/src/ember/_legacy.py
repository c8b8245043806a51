"""torch's legacy tensor API: ``Tensor(data)``/``Tensor(*sizes)``, the typed classes
(``FloatTensor`` & co.), ``Tensor.type`` names and ``typename``.

The typed classes are, as in torch, not subclasses of ``Tensor``: their metaclass makes calling
one construct a tensor of its dtype and ``isinstance(t, FloatTensor)`` test ``t.dtype``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ember._device import _as_device, _check_cpu
from ember_core import _C

__all__ = [
    "BFloat16Tensor",
    "BoolTensor",
    "ByteTensor",
    "CharTensor",
    "DoubleTensor",
    "FloatTensor",
    "HalfTensor",
    "IntTensor",
    "LongTensor",
    "ShortTensor",
    "legacy_new",
    "type_convert",
    "type_name",
    "typename",
]

# dtype -> torch's legacy type name (without the "torch." prefix).
TYPE_NAMES: dict[Any, str] = {
    _C.bool: "BoolTensor",
    _C.uint8: "ByteTensor",
    _C.int8: "CharTensor",
    _C.int16: "ShortTensor",
    _C.int32: "IntTensor",
    _C.int64: "LongTensor",
    _C.float16: "HalfTensor",
    _C.bfloat16: "BFloat16Tensor",
    _C.float32: "FloatTensor",
    _C.float64: "DoubleTensor",
    _C.complex64: "ComplexFloatTensor",
    _C.complex128: "ComplexDoubleTensor",
    _C.uint16: "UInt16Tensor",
    _C.uint32: "UInt32Tensor",
    _C.uint64: "UInt64Tensor",
}
# Both spellings name the same type: torch's ("torch.LongTensor") and ember's.
_DTYPE_OF_NAME: dict[str, Any] = {
    f"{prefix}.{name}": dt for dt, name in TYPE_NAMES.items() for prefix in ("torch", "ember")
}


def _is_size_item(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def legacy_new(dtype: Any, args: tuple[Any, ...], kwargs: dict[str, Any], op: str) -> Any:
    """torch's legacy constructor: ``()``, ``(*sizes)``, ``(size)``, ``(data)``, ``(tensor)``.

    Args:
        dtype: the dtype made (float32 for ``Tensor``, the class's for ``LongTensor`` & co.).
        args, kwargs: the call's arguments; the only keywords are ``device`` and ``size``.
        op: the name used in error messages.
    """
    unknown = set(kwargs) - {"device", "size"}
    if unknown:
        raise TypeError(
            f"[{op}] new() got unexpected keyword argument(s) {', '.join(sorted(unknown))}: the "
            "legacy constructor takes data or sizes and device=; use ember.tensor(data, dtype=) "
            "or ember.empty(*size, dtype=)"
        )
    if kwargs.get("device") is not None:
        _check_cpu(_as_device(kwargs["device"], op), op)
    if "size" in kwargs:
        if args:
            raise TypeError(f"[{op}] new() got both positional arguments and size=")
        size = kwargs["size"]
        if not isinstance(size, (tuple, list)) or not all(_is_size_item(s) for s in size):
            raise TypeError(f"[{op}] new(): size must be a tuple of ints, got {size!r:.60}")
        return _empty(dtype, tuple(size), op)
    if not args:
        return _C.empty(0, dtype=dtype)
    if len(args) == 1:
        (data,) = args
        if isinstance(data, _C.TensorBase):
            if data.dtype != dtype and op != "Tensor":
                raise TypeError(
                    f"[{op}] expected a tensor of dtype {dtype} (got {data.dtype}): convert it "
                    f"with .to({dtype})"
                )
            return data.detach()  # an alias of the same storage, as torch
        if _is_size_item(data) or _is_size_class(data):
            return _empty(dtype, tuple(data) if _is_size_class(data) else (data,), op)
        if isinstance(data, (str, bytes)):
            raise TypeError(f"[{op}] new(): invalid data type {type(data).__name__!r}")
        if isinstance(data, Sequence) or hasattr(data, "__array_interface__"):
            return _C.tensor(data, dtype=dtype)
        raise TypeError(f"[{op}] new(): data must be a sequence (got {type(data).__name__})")
    for i, item in enumerate(args):
        if not _is_size_item(item):
            raise TypeError(
                f"[{op}] new(): argument 'size' must be a tuple of ints, but got "
                f"{type(item).__name__} at pos {i + 1}"
            )
    return _empty(dtype, args, op)


def _is_size_class(value: Any) -> bool:
    from ember._tensor import Size

    return isinstance(value, Size)


def _empty(dtype: Any, size: tuple[int, ...], op: str) -> Any:
    for s in size:
        if s < 0:
            raise RuntimeError(
                f"[{op}] Trying to create tensor with negative dimension {s}: {list(size)}"
            )
    return _C.empty(list(size), dtype=dtype)


class _TensorType(type):
    """The metaclass of the typed classes (torch's ``tensortype``)."""

    dtype: Any

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _C.TensorBase) and obj.dtype == cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return legacy_new(cls.dtype, args, kwargs, cls.__name__)

    def __repr__(cls) -> str:
        return f"<class 'ember.{cls.__name__}'>"


def _typed(name: str, dtype: Any) -> _TensorType:
    doc = (
        f"torch's legacy ``{name}``: ``{name}(data)`` or ``{name}(*sizes)`` makes a tensor of "
        f"dtype {dtype}; ``isinstance(t, ember.{name})`` tests ``t.dtype == {dtype}``.\n\n"
        f"Example:\n    >>> ember.{name}(2).dtype\n    {dtype}\n"
    )
    attrs = {"dtype": dtype, "is_cuda": False, "is_sparse": False, "__doc__": doc}
    return _TensorType(name, (), {**attrs, "__module__": "ember"})


FloatTensor = _typed("FloatTensor", _C.float32)
DoubleTensor = _typed("DoubleTensor", _C.float64)
HalfTensor = _typed("HalfTensor", _C.float16)
BFloat16Tensor = _typed("BFloat16Tensor", _C.bfloat16)
LongTensor = _typed("LongTensor", _C.int64)
IntTensor = _typed("IntTensor", _C.int32)
ShortTensor = _typed("ShortTensor", _C.int16)
CharTensor = _typed("CharTensor", _C.int8)
ByteTensor = _typed("ByteTensor", _C.uint8)
BoolTensor = _typed("BoolTensor", _C.bool)


def type_name(dtype: Any) -> str:
    """torch's type name of a CPU tensor of ``dtype`` (``'torch.FloatTensor'``)."""
    return "torch." + TYPE_NAMES[dtype]


def type_convert(t: Any, dtype: Any, op: str = "type") -> Any:
    """``Tensor.type(dtype)``: ``dtype`` is a dtype, a typed class or a type name."""
    if isinstance(dtype, _TensorType):
        dtype = dtype.dtype
    elif isinstance(dtype, str):
        if ".cuda." in dtype:
            raise RuntimeError(
                f"[{op}] {dtype!r} is a CUDA tensor type: this ember build has only CPU tensors"
            )
        if dtype not in _DTYPE_OF_NAME:
            raise ValueError(
                f"[{op}] invalid type: {dtype!r}; expected a name such as 'torch.FloatTensor'"
            )
        dtype = _DTYPE_OF_NAME[dtype]
    elif dtype in (float, int, bool):
        dtype = {float: _C.float64, int: _C.int64, bool: _C.bool}[dtype]
    if not isinstance(dtype, _C.dtype):
        raise TypeError(f"[{op}] expected a dtype, a tensor type or a type name, got {dtype!r}")
    return t if dtype == t.dtype else t._to_dtype(dtype, False)


def typename(obj: Any) -> str:
    """The type name torch reports: ``'torch.FloatTensor'`` for tensors, else the class name.

    Example:
        >>> ember.typename(ember.zeros(2))
        'torch.FloatTensor'
    """
    if isinstance(obj, _C.TensorBase):
        return type_name(obj.dtype)
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", type(obj).__qualname__)
    if module in ("", "builtins"):
        return str(qualname)
    return f"{module}.{qualname}"
