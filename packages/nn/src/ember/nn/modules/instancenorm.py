"""Instance normalization modules of ``ember.nn``: InstanceNorm1d/2d/3d.

As in torch, ``affine`` and ``track_running_stats`` default to False, unbatched inputs are
accepted, and the running statistics (when tracked) are used in eval mode.
"""

from __future__ import annotations

import warnings

import ember
from ember._tensor import Tensor
from ember.nn._functional import normalization as N
from ember.nn._functional._checks import check_tensor
from ember.nn.modules.batchnorm import _LazyNormBase, _NormBase

__all__ = [
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]


class _InstanceNorm(_NormBase):
    _spatial = 1

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device: object = None,
        dtype: ember.dtype | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__(
            num_features,
            eps,
            momentum,
            affine,
            track_running_stats,
            device,
            dtype,
            bias=bias,
        )

    def _check_input_dim(self, input: Tensor) -> None:
        allowed = (self._spatial + 1, self._spatial + 2)
        if input.dim() not in allowed:
            raise ValueError(
                f"expected {allowed[0]}D or {allowed[1]}D input (got {input.dim()}D input)"
            )

    def forward(self, input: Tensor) -> Tensor:
        check_tensor(input, "input", self)
        self._check_input_dim(input)
        feature_dim = input.dim() - (self._spatial + 1)
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.size(feature_dim)}."
                )
            warnings.warn(
                f"input's size at dim={feature_dim} does not match num_features. You can "
                "silence this warning by not passing in num_features, which is not used "
                "because affine=False",
                stacklevel=2,
            )
        unbatched = input.dim() == self._spatial + 1
        x = input.unsqueeze(0) if unbatched else input
        out = N.instance_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization over (N, C, L) or (C, L) inputs.

    Example:
        >>> nn.InstanceNorm1d(2)(ember.randn(3, 2, 5)).shape
        ember.Size([3, 2, 5])
    """

    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization over (N, C, H, W) or (C, H, W) inputs.

    Example:
        >>> nn.InstanceNorm2d(2)(ember.randn(3, 2, 4, 4)).shape
        ember.Size([3, 2, 4, 4])
    """

    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization over (N, C, D, H, W) or (C, D, H, W) inputs.

    Example:
        >>> nn.InstanceNorm3d(2)(ember.randn(1, 2, 2, 2, 2)).shape
        ember.Size([1, 2, 2, 2, 2])
    """

    _spatial = 3


class _LazyInstanceNorm(_LazyNormBase, _InstanceNorm):
    def _feature_dim(self, input: Tensor) -> int:
        return int(input.dim()) - (self._spatial + 1)


class LazyInstanceNorm1d(_LazyInstanceNorm):
    """InstanceNorm1d with ``num_features`` inferred from the first input.

    Example:
        >>> m = nn.LazyInstanceNorm1d()
        >>> _ = m(ember.randn(2, 3, 5))
        >>> type(m).__name__, m.num_features
        ('InstanceNorm1d', 3)
    """

    _spatial = 1
    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyInstanceNorm):
    """InstanceNorm2d with ``num_features`` inferred from the first input.

    Example:
        >>> nn.LazyInstanceNorm2d()(ember.randn(2, 3, 4, 4)).shape
        ember.Size([2, 3, 4, 4])
    """

    _spatial = 2
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyInstanceNorm):
    """InstanceNorm3d with ``num_features`` inferred from the first input.

    Example:
        >>> nn.LazyInstanceNorm3d()(ember.randn(1, 3, 2, 2, 2)).shape
        ember.Size([1, 3, 2, 2, 2])
    """

    _spatial = 3
    cls_to_become = InstanceNorm3d
