"""``PixelShuffle`` and ``PixelUnshuffle`` (sub-pixel rearrangements of channels)."""

from __future__ import annotations

from ember._tensor import Tensor
from ember.nn._functional.vision import pixel_shuffle, pixel_unshuffle
from ember.nn.modules.module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """[*, C * r^2, H, W] -> [*, C, H * r, W * r].

    Example:
        >>> ember.nn.PixelShuffle(3)(ember.randn(1, 9, 4, 4)).shape
        ember.Size([1, 1, 12, 12])
    """

    _ember_builtin = True

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """[*, C, H * r, W * r] -> [*, C * r^2, H, W].

    Example:
        >>> ember.nn.PixelUnshuffle(3)(ember.randn(1, 1, 12, 12)).shape
        ember.Size([1, 9, 4, 4])
    """

    _ember_builtin = True

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
