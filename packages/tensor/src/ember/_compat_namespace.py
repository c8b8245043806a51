"""torch's top-level names around the ops: constants, legacy tensor types, memory formats, the
``*_like`` factories with ``memory_format``, global flags (default device, deterministic
algorithms, inter-op threads) and small composites (``isin``, ``deg2rad``, ...).
"""

from __future__ import annotations

import math
from typing import Any

from ember import _memory_format as _mf
from ember._device import _as_device, _check_cpu
from ember._device import device as _device_cls
from ember._dtype import is_tensor
from ember._histogram import histogram, histogramdd
from ember._legacy import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    typename,
)
from ember._matrix_functions import matrix_exp
from ember._memory_format import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    layout,
    memory_format,
    preserve_format,
    strided,
)
from ember._tensor_compat import UntypedStorage
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
    "UntypedStorage",
    "are_deterministic_algorithms_enabled",
    "channels_last",
    "channels_last_3d",
    "contiguous_format",
    "deg2rad",
    "e",
    "empty_like",
    "full_like",
    "get_default_device",
    "get_num_interop_threads",
    "histogram",
    "histogramdd",
    "inf",
    "is_deterministic_algorithms_warn_only_enabled",
    "isin",
    "layout",
    "matrix_exp",
    "memory_format",
    "nan",
    "newaxis",
    "ones_like",
    "pi",
    "preserve_format",
    "rad2deg",
    "rand_like",
    "randint_like",
    "randn_like",
    "scalar_tensor",
    "set_default_device",
    "set_num_interop_threads",
    "signbit",
    "strided",
    "typename",
    "use_deterministic_algorithms",
    "zeros_like",
]

pi: float = math.pi
e: float = math.e
inf: float = math.inf
nan: float = math.nan
newaxis: None = None

empty_like = _mf.like(_C.empty_like, "empty_like")
zeros_like = _mf.like(_C.zeros_like, "zeros_like")
ones_like = _mf.like(_C.ones_like, "ones_like")
full_like = _mf.like(_C.full_like, "full_like")
rand_like = _mf.like(_C.rand_like, "rand_like")
randn_like = _mf.like(_C.randn_like, "randn_like")
randint_like = _mf.like(_C.randint_like, "randint_like")

_STATE: dict[str, Any] = {
    "deterministic": False,
    "warn_only": False,
    "interop_threads": None,  # set on first use: the intra-op thread count
}


def set_default_device(device: Any) -> None:
    """Sets the device factories use by default; ember has only the CPU (``None`` resets).

    Example:
        >>> ember.set_default_device("cpu")
    """
    if device is not None:
        _check_cpu(_as_device(device, "set_default_device"), "set_default_device")


def get_default_device() -> _device_cls:
    """The device factories use by default: ``device(type='cpu')``.

    Example:
        >>> ember.get_default_device()
        device(type='cpu')
    """
    return _device_cls("cpu")


def use_deterministic_algorithms(mode: bool, *, warn_only: bool = False) -> None:
    """Asks for deterministic algorithms (ember's CPU kernels already are: sums run in a fixed
    order and accumulating puts run serially), so this records the flag.

    Example:
        >>> ember.use_deterministic_algorithms(True); ember.use_deterministic_algorithms(False)
    """
    if not isinstance(mode, bool) or not isinstance(warn_only, bool):
        raise TypeError(
            "[use_deterministic_algorithms] mode and warn_only must be bools, got "
            f"{mode!r} and {warn_only!r}"
        )
    _STATE["deterministic"], _STATE["warn_only"] = mode, warn_only


def are_deterministic_algorithms_enabled() -> bool:
    """Whether :func:`use_deterministic_algorithms` turned them on."""
    return bool(_STATE["deterministic"])


def is_deterministic_algorithms_warn_only_enabled() -> bool:
    """Whether deterministic algorithms were asked for with ``warn_only=True``."""
    return bool(_STATE["warn_only"])


def get_num_interop_threads() -> int:
    """Threads for inter-op parallelism. ember runs one op at a time on its intra-op pool, so
    this is the value set (by default the intra-op thread count)."""
    if _STATE["interop_threads"] is None:
        _STATE["interop_threads"] = int(_C.get_num_threads())
    return int(_STATE["interop_threads"])


def set_num_interop_threads(num: int) -> None:
    """Sets the inter-op thread count (recorded; see :func:`get_num_interop_threads`)."""
    if not isinstance(num, int) or isinstance(num, bool) or num <= 0:
        raise RuntimeError(
            f"[set_num_interop_threads] Expected positive number of threads, got {num!r}"
        )
    _STATE["interop_threads"] = num


def _as_operand(x: Any, op: str, name: str) -> Any:
    if is_tensor(x):
        return x
    if isinstance(x, (int, float, bool)):
        return _C.tensor(x)
    raise TypeError(f"[{op}] {name} must be a Tensor or a number, got {type(x).__name__}")


def isin(
    elements: Any, test_elements: Any, *, assume_unique: bool = False, invert: bool = False
) -> Any:
    """Whether each element of ``elements`` is in ``test_elements`` (a bool tensor shaped like
    ``elements``): a sort of ``test_elements`` and a binary search.

    Example:
        >>> ember.isin(ember.tensor([1, 2, 3]), ember.tensor([2, 5]))
        tensor([False,  True, False])
    """
    a = _as_operand(elements, "isin", "elements")
    b = _as_operand(test_elements, "isin", "test_elements")
    if a.is_complex() or b.is_complex():
        raise NotImplementedError("[isin] complex tensors are not supported (as torch)")
    common = _C.promote_types(a.dtype, b.dtype)
    a, b = a.to(common), b.to(common).reshape(-1)
    if b.numel() == 0:
        found = _C.zeros(list(a.shape), dtype=_C.bool)
    else:
        table = b.sort().values
        where = _C.searchsorted(table, a.contiguous()).clamp(max=b.numel() - 1)
        found = table[where] == a
    return found.logical_not() if invert else found


def deg2rad(input: Any) -> Any:
    """Degrees to radians (integers give the default float dtype).

    Example:
        >>> ember.deg2rad(ember.tensor([180.0]))
        tensor([3.1416])
    """
    x = _float_operand(input, "deg2rad")
    return x * (math.pi / 180.0)


def rad2deg(input: Any) -> Any:
    """Radians to degrees (integers give the default float dtype).

    Example:
        >>> ember.rad2deg(ember.tensor([math.pi]))
        tensor([180.])
    """
    x = _float_operand(input, "rad2deg")
    return x * (180.0 / math.pi)


def _float_operand(input: Any, op: str) -> Any:
    if not is_tensor(input):
        raise TypeError(f"[{op}] argument 'input' must be Tensor, not {type(input).__name__}")
    if input.is_complex():
        raise RuntimeError(f"[{op}] is not supported for complex tensors")
    if not input.is_floating_point():
        return input.to(_C.get_default_dtype())
    return input


def signbit(input: Any) -> Any:
    """Whether each element's sign bit is set (``-0.0`` and negative NaNs included).

    Example:
        >>> ember.signbit(ember.tensor([-0.0, 0.0, -1.0]))
        tensor([ True, False,  True])
    """
    if not is_tensor(input):
        raise TypeError(f"[signbit] argument 'input' must be Tensor, not {type(input).__name__}")
    if input.is_complex():
        raise RuntimeError("[signbit] is not implemented for complex tensors.")
    if input.dtype == _C.bool:
        return _C.zeros(list(input.shape), dtype=_C.bool)
    if not input.is_floating_point():
        return input < 0
    # The sign bit is the top bit of the float's bits viewed as a same-width signed integer.
    bits = {_C.float16: _C.int16, _C.bfloat16: _C.int16, _C.float32: _C.int32}
    return input.contiguous().view(bits.get(input.dtype, _C.int64)) < 0  # float64: int64


def scalar_tensor(
    s: Any, *, dtype: Any = None, layout: Any = None, device: Any = None,
    requires_grad: bool = False, pin_memory: bool = False,
) -> Any:  # fmt: skip
    """A 0-d tensor holding ``s`` (default float dtype unless ``dtype``).

    Example:
        >>> ember.scalar_tensor(3)
        tensor(3.)
    """
    if is_tensor(s):
        if s.numel() != 1:
            raise RuntimeError("[scalar_tensor] expected a number, got a tensor with many values")
        s = s.item()
    if not isinstance(s, (int, float, bool, complex)):
        raise TypeError(f"[scalar_tensor] argument 's' must be Number, not {type(s).__name__}")
    if dtype is None:
        dtype = _C.complex64 if isinstance(s, complex) else _C.get_default_dtype()
    return _C.tensor(s, dtype=dtype, device=device, requires_grad=requires_grad)
