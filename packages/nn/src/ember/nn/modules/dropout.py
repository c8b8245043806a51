"""Dropout modules of ``ember.nn``: active in training mode, the identity in eval mode."""

from __future__ import annotations

from ember._tensor import Tensor
from ember.nn._functional import dropout as D
from ember.nn.modules.module import Module

__all__ = [
    "AlphaDropout",
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "FeatureAlphaDropout",
]


class _DropoutNd(Module):
    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zeroes elements with probability ``p`` in training, scaling the rest by 1 / (1 - p).

    Example:
        >>> nn.Dropout(0.5).eval()(ember.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return D.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zeroes whole channels of (N, C, L) or (C, L) inputs.

    Example:
        >>> nn.Dropout1d().eval()(ember.ones(1, 2, 2)).shape
        ember.Size([1, 2, 2])
    """

    def forward(self, input: Tensor) -> Tensor:
        return D.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zeroes whole channels of (N, C, H, W) inputs.

    Example:
        >>> nn.Dropout2d().eval()(ember.ones(1, 2, 2, 2)).shape
        ember.Size([1, 2, 2, 2])
    """

    def forward(self, input: Tensor) -> Tensor:
        return D.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) inputs.

    Example:
        >>> nn.Dropout3d().eval()(ember.ones(1, 2, 1, 1, 1)).shape
        ember.Size([1, 2, 1, 1, 1])
    """

    def forward(self, input: Tensor) -> Tensor:
        return D.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout that keeps SELU's self-normalizing statistics.

    Example:
        >>> nn.AlphaDropout(0.2).eval()(ember.ones(2))
        tensor([1., 1.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return D.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels.

    Example:
        >>> nn.FeatureAlphaDropout(0.2).eval()(ember.ones(1, 2, 2)).shape
        ember.Size([1, 2, 2])
    """

    def forward(self, input: Tensor) -> Tensor:
        return D.feature_alpha_dropout(input, self.p, self.training)
