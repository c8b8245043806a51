"""Padding layers: Zero/Constant/Reflection/Replication/Circular Pad 1d, 2d and 3d."""

from __future__ import annotations

from collections.abc import Sequence

from ember._tensor import Tensor
from ember.nn._functional.padding import pad
from ember.nn.modules.module import Module

__all__ = [
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
]


def _pairs(padding: int | Sequence[int], n: int, name: str) -> tuple[int, ...]:
    if isinstance(padding, bool):
        raise TypeError(f"{name}: padding must be an int or a tuple of ints, not bool")
    if isinstance(padding, int):
        return (padding,) * (2 * n)
    values = tuple(int(v) for v in padding)
    if len(values) != 2 * n:
        raise ValueError(f"{name}: padding must be an int or a {2 * n}-tuple, got {padding!r}")
    return values


class _PadNd(Module):
    _ember_builtin = True
    _n = 1
    _mode = "constant"
    padding: tuple[int, ...]

    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__()
        self.padding = _pairs(padding, self._n, type(self).__name__)

    def forward(self, input: Tensor) -> Tensor:
        return pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    value: float

    def __init__(self, padding: int | Sequence[int], value: float) -> None:
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:
        return pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with a constant: ``padding`` is an int or (left, right).

    Example:
        >>> ember.nn.ConstantPad1d(1, 3.5)(ember.zeros(1, 2))
        tensor([[3.5000, 0.0000, 0.0000, 3.5000]])
    """

    _n = 1


class ConstantPad2d(_ConstantPadNd):
    """Pads the last 2 dims with a constant: (left, right, top, bottom).

    Example:
        >>> ember.nn.ConstantPad2d((1, 0, 0, 1), 1.0)(ember.zeros(1, 2, 2)).shape
        ember.Size([1, 3, 3])
    """

    _n = 2


class ConstantPad3d(_ConstantPadNd):
    """Pads the last 3 dims with a constant.

    Example:
        >>> ember.nn.ConstantPad3d(1, 0.5)(ember.zeros(1, 1, 1, 1)).shape
        ember.Size([1, 3, 3, 3])
    """

    _n = 3


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding: int | Sequence[int]) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Pads the last dim with zeros.

    Example:
        >>> ember.nn.ZeroPad1d((1, 2))(ember.ones(1, 2))
        tensor([[0., 1., 1., 0., 0.]])
    """

    _n = 1


class ZeroPad2d(_ZeroPadNd):
    """Pads the last 2 dims with zeros.

    Example:
        >>> ember.nn.ZeroPad2d(1)(ember.ones(1, 2, 2)).shape
        ember.Size([1, 4, 4])
    """

    _n = 2


class ZeroPad3d(_ZeroPadNd):
    """Pads the last 3 dims with zeros.

    Example:
        >>> ember.nn.ZeroPad3d(1)(ember.ones(1, 1, 1, 1)).shape
        ember.Size([1, 3, 3, 3])
    """

    _n = 3


class ReflectionPad1d(_PadNd):
    """Pads the last dim with its reflection (edge not repeated).

    Example:
        >>> ember.nn.ReflectionPad1d(2)(ember.tensor([[[0.0, 1.0, 2.0]]]))
        tensor([[[2., 1., 0., 1., 2., 1., 0.]]])
    """

    _n, _mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Pads the last 2 dims with their reflection.

    Example:
        >>> ember.nn.ReflectionPad2d(1)(ember.randn(1, 1, 3, 3)).shape
        ember.Size([1, 1, 5, 5])
    """

    _n, _mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Pads the last 3 dims with their reflection.

    Example:
        >>> ember.nn.ReflectionPad3d(1)(ember.randn(1, 1, 2, 2, 2)).shape
        ember.Size([1, 1, 4, 4, 4])
    """

    _n, _mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """Pads the last dim by repeating its edge values.

    Example:
        >>> ember.nn.ReplicationPad1d(1)(ember.tensor([[[1.0, 2.0]]]))
        tensor([[[1., 1., 2., 2.]]])
    """

    _n, _mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """Pads the last 2 dims by repeating their edge values.

    Example:
        >>> ember.nn.ReplicationPad2d(1)(ember.randn(1, 1, 2, 2)).shape
        ember.Size([1, 1, 4, 4])
    """

    _n, _mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """Pads the last 3 dims by repeating their edge values.

    Example:
        >>> ember.nn.ReplicationPad3d(1)(ember.randn(1, 1, 2, 2, 2)).shape
        ember.Size([1, 1, 4, 4, 4])
    """

    _n, _mode = 3, "replicate"


class CircularPad1d(_PadNd):
    """Pads the last dim by wrapping around.

    Example:
        >>> ember.nn.CircularPad1d(1)(ember.tensor([[[1.0, 2.0, 3.0]]]))
        tensor([[[3., 1., 2., 3., 1.]]])
    """

    _n, _mode = 1, "circular"


class CircularPad2d(_PadNd):
    """Pads the last 2 dims by wrapping around.

    Example:
        >>> ember.nn.CircularPad2d(1)(ember.randn(1, 1, 2, 2)).shape
        ember.Size([1, 1, 4, 4])
    """

    _n, _mode = 2, "circular"


class CircularPad3d(_PadNd):
    """Pads the last 3 dims by wrapping around.

    Example:
        >>> ember.nn.CircularPad3d(1)(ember.randn(1, 1, 2, 2, 2)).shape
        ember.Size([1, 1, 4, 4, 4])
    """

    _n, _mode = 3, "circular"
