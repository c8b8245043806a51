"""``memory_format`` and ``layout`` objects, and the dim orders behind ``channels_last``.

ember tensors are strided, so a memory format is only an order of the dims in memory:
``channels_last`` keeps (N, C, H, W) sizes with strides ordered N, H, W, C (innermost C), exactly
as torch lays it out. Conversions are a permute, a contiguous copy and the inverse permute: ops
autograd already records.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember._dtype import is_tensor
from ember_core import _C

__all__ = [
    "channels_last",
    "channels_last_3d",
    "contiguous_format",
    "layout",
    "memory_format",
    "preserve_format",
    "strided",
]


class memory_format:
    """How a tensor's elements are ordered in memory (``ember.channels_last``, ...).

    Example:
        >>> ember.zeros(1, 3, 2, 2).contiguous(memory_format=ember.channels_last).stride()
        (12, 1, 6, 3)
    """

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"ember.{self._name}"

    def __reduce__(self) -> str:
        return self._name  # pickled by name: the module-level singleton


class layout:
    """The memory layout of a tensor; ember has only ``ember.strided``.

    Example:
        >>> ember.zeros(2).layout
        ember.strided
    """

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"ember.{self._name}"

    def __reduce__(self) -> str:
        return self._name


contiguous_format: memory_format = memory_format("contiguous_format")
preserve_format: memory_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
strided = layout("strided")

# memory order (outermost first) of the dims for each format that fixes one, by rank.
_ORDERS = {"channels_last": (4, (0, 2, 3, 1)), "channels_last_3d": (5, (0, 2, 3, 4, 1))}


def check(fmt: Any, op: str) -> memory_format:
    if not isinstance(fmt, memory_format):
        raise TypeError(f"[{op}] memory_format must be an ember.memory_format, got {fmt!r}")
    return fmt


def _order(fmt: memory_format, t: Any, op: str) -> tuple[int, ...]:
    rank, order = _ORDERS[fmt._name]
    if t.dim() != rank:
        raise RuntimeError(
            f"[{op}] required rank {rank} tensor to use {fmt._name} format, got a tensor of "
            f"rank {t.dim()}"
        )
    return order


def _inverse(order: tuple[int, ...]) -> list[int]:
    inv = [0] * len(order)
    for i, d in enumerate(order):
        inv[d] = i
    return inv


def is_contiguous(t: Any, fmt: memory_format) -> bool:
    """torch's rule: strides of non-size-1 dims follow the format's order, densely packed."""
    if fmt is contiguous_format or fmt is preserve_format:
        return bool(t.is_contiguous())
    rank, order = _ORDERS[fmt._name]
    if t.dim() != rank:
        return False
    expected = 1
    for d in reversed(order):
        size = t.shape[d]
        if size != 1:
            if t.stride(d) != expected:
                return False
            expected *= size
    return True


def to_format(t: Any, fmt: memory_format, op: str, *, copy: bool) -> Any:
    """``t`` laid out in ``fmt`` (``t`` itself when already so, unless ``copy``)."""
    if fmt is preserve_format:
        return _C.TensorBase.clone(t) if copy else t
    if fmt is contiguous_format:
        if t.is_contiguous():
            return _C.TensorBase.clone(t) if copy else t
        return _C.TensorBase.contiguous(t)
    order = _order(fmt, t, op)
    if is_contiguous(t, fmt) and not copy:
        return t
    return t.permute(order).contiguous().permute(_inverse(order))


def like(native: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``native`` (an ``*_like`` factory: it keeps the input's strides) with ``memory_format``.

    The other formats pass an uninitialized template of the wanted layout instead of the input.
    """

    def factory(input: Any, *args: Any, memory_format: Any = preserve_format, **kwargs: Any) -> Any:
        if memory_format is preserve_format:
            return native(input, *args, **kwargs)
        fmt = check(memory_format, name)
        if not is_tensor(input):
            return native(input, *args, **kwargs)  # the native call raises its TypeError
        if fmt is contiguous_format:
            template = _C.empty(list(input.shape), dtype=input.dtype)
        else:
            order = _order(fmt, input, name)
            shape = [input.shape[d] for d in order]
            template = _C.empty(shape, dtype=input.dtype).permute(_inverse(order))
        return native(template, *args, **kwargs)

    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (native.__doc__ or "") + (
        "\n\nmemory_format (ember.memory_format): the result's layout; preserve_format (the "
        "default) keeps the input's strides when it is dense."
    )
    return factory
