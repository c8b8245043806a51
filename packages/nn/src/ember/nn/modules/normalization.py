"""Normalization modules of ``ember.nn``: LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm."""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional import normalization as N
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter

__all__ = ["GroupNorm", "LayerNorm", "LocalResponseNorm", "RMSNorm"]


def _shape_tuple(normalized_shape: int | Sequence[int]) -> tuple[int, ...]:
    if isinstance(normalized_shape, numbers.Integral):
        return (int(normalized_shape),)
    return tuple(int(s) for s in normalized_shape)  # type: ignore[union-attr]


class LocalResponseNorm(Module):
    """Normalizes each element by the squares of ``size`` neighbouring channels.

    Example:
        >>> nn.LocalResponseNorm(2)(ember.ones(1, 3, 2)).shape
        ember.Size([1, 3, 2])
    """

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return N.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class LayerNorm(Module):
    """Normalizes over the trailing ``normalized_shape`` dims, with optional weight and bias.

    Example:
        >>> m = nn.LayerNorm(4)
        >>> m(ember.randn(2, 4)).shape, sorted(m.state_dict())
        (ember.Size([2, 4]), ['bias', 'weight'])
    """

    weight: Parameter | None
    bias: Parameter | None

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: object = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        self.normalized_shape = _shape_tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        shape = list(self.normalized_shape)
        if elementwise_affine:
            self.weight = Parameter(ember.empty(shape, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(ember.empty(shape, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight 1, bias 0."""
        with no_grad():
            if self.weight is not None:
                self.weight.fill_(1.0)
            if self.bias is not None:
                self.bias.zero_()

    def forward(self, input: Tensor) -> Tensor:
        return N.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}"
        )


class GroupNorm(Module):
    """Normalizes groups of channels, then applies a per-channel affine map.

    Example:
        >>> nn.GroupNorm(2, 4)(ember.randn(3, 4, 5)).shape
        ember.Size([3, 4, 5])
    """

    weight: Parameter | None
    bias: Parameter | None

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        device: object = None,
        dtype: ember.dtype | None = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        if not num_groups > 0:  # torch divides by it first: ZeroDivisionError
            raise ValueError(f"GroupNorm: num_groups must be positive, got {num_groups}")
        if num_channels % num_groups != 0:
            raise ValueError(
                f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})"
            )
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(ember.empty(num_channels, device=device, dtype=dtype))
            if bias:
                self.bias = Parameter(ember.empty(num_channels, device=device, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight 1, bias 0."""
        with no_grad():
            if self.weight is not None:
                self.weight.fill_(1.0)
            if self.bias is not None:
                self.bias.zero_()

    def forward(self, input: Tensor) -> Tensor:
        return N.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
            f"bias={self.bias is not None}"
        )


class RMSNorm(Module):
    """Root-mean-square normalization over the trailing dims (``eps=None``: dtype epsilon).

    Example:
        >>> nn.RMSNorm([4])(ember.randn(2, 4)).shape
        ember.Size([2, 4])
    """

    weight: Parameter | None

    def __init__(
        self,
        normalized_shape: int | Sequence[int],
        eps: float | None = None,
        elementwise_affine: bool = True,
        device: object = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        self.normalized_shape = _shape_tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            shape = list(self.normalized_shape)
            self.weight = Parameter(ember.empty(shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight 1."""
        if self.weight is not None:
            with no_grad():
                self.weight.fill_(1.0)

    def forward(self, x: Tensor) -> Tensor:
        return N.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )
