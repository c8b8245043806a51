"""``Upsample``, ``UpsamplingNearest2d`` and ``UpsamplingBilinear2d`` (over F.interpolate)."""

from __future__ import annotations

from typing import Any

from ember._tensor import Tensor
from ember.nn._functional.vision import interpolate
from ember.nn.modules.module import Module

__all__ = ["Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d"]


class Upsample(Module):
    """Resizes [N, C, *spatial] to ``size`` or by ``scale_factor`` (see ``F.interpolate``).

    Example:
        >>> ember.nn.Upsample(scale_factor=2, mode="nearest")(ember.ones(1, 1, 2, 2)).shape
        ember.Size([1, 1, 4, 4])
    """

    _ember_builtin = True

    def __init__(
        self,
        size: Any = None,
        scale_factor: Any = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, (tuple, list)):
            self.scale_factor: Any = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode='nearest')`` for [N, C, H, W].

    Example:
        >>> ember.nn.UpsamplingNearest2d(scale_factor=2)(ember.ones(1, 1, 2, 2)).shape
        ember.Size([1, 1, 4, 4])
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode='bilinear', align_corners=True)`` for [N, C, H, W].

    Example:
        >>> ember.nn.UpsamplingBilinear2d(scale_factor=2)(ember.ones(1, 1, 2, 2)).shape
        ember.Size([1, 1, 4, 4])
    """

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
