"""``Fold`` and ``Unfold``: sliding blocks to columns and back (col2im / im2col)."""

from __future__ import annotations

from ember._tensor import Tensor
from ember.nn._functional._window import IntOrTuple
from ember.nn._functional.fold import fold, unfold
from ember.nn.modules.module import Module

__all__ = ["Fold", "Unfold"]


class Fold(Module):
    """Sums [N, C * K, L] blocks back into [N, C, *output_size].

    Example:
        >>> ember.nn.Fold((4, 5), (2, 2))(ember.randn(1, 12, 12)).shape
        ember.Size([1, 3, 4, 5])
    """

    _ember_builtin = True

    def __init__(
        self,
        output_size: IntOrTuple,
        kernel_size: IntOrTuple,
        dilation: IntOrTuple = 1,
        padding: IntOrTuple = 0,
        stride: IntOrTuple = 1,
    ) -> None:
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    def extra_repr(self) -> str:
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )


class Unfold(Module):
    """Extracts sliding blocks of [N, C, H, W] as columns [N, C * K, L].

    Example:
        >>> ember.nn.Unfold(2)(ember.randn(1, 3, 4, 5)).shape
        ember.Size([1, 12, 12])
    """

    _ember_builtin = True

    def __init__(
        self,
        kernel_size: IntOrTuple,
        dilation: IntOrTuple = 1,
        padding: IntOrTuple = 0,
        stride: IntOrTuple = 1,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input: Tensor) -> Tensor:
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
            f"stride={self.stride}"
        )
