"""Hand-written backward passes for the hot composites (GELU).

Autograd of the plain composite runs about twice as many full-size ops as the closed-form
gradient; the Function's backward is itself built from differentiable ember ops, so
``create_graph=True`` (double backward) still works. (layer_norm and cross-entropy are natives
now: _C._nn_layer_norm, _C._nn_cross_entropy.)
"""

from __future__ import annotations

from typing import Any

import ember
from ember._tensor import Tensor
from ember.autograd import Function

_INV_SQRT2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327
_TANH_K = 0.7978845608028654  # sqrt(2 / pi)
_TANH_C = 0.044715


def _gelu_slope(x: Tensor, approximate: str) -> Tensor:
    """d gelu / dx as differentiable ops (used for double backward)."""
    if approximate == "tanh":
        th = ember.tanh((x + x * x * x * _TANH_C) * _TANH_K)
        inner = (x * x * (3 * _TANH_C) + 1.0) * _TANH_K
        return (th + 1.0) * 0.5 + x * (1.0 - th * th) * inner * 0.5
    cdf = (ember.erf(x * _INV_SQRT2) + 1.0) * 0.5
    return cdf + x * ember.exp(x * x * -0.5) * _INV_SQRT_2PI


class GeluFn(Function):
    """GELU with its closed-form derivative, computed in place in the backward pass."""

    @staticmethod
    def forward(ctx: Any, input: Tensor, approximate: str) -> Tensor:
        ctx.approximate = approximate
        if approximate == "tanh":
            th = ember.tanh((input * input * _TANH_C + 1.0).mul_(input).mul_(_TANH_K))
            ctx.save_for_backward(input, th)
            return (th + 1.0).mul_(input).mul_(0.5)
        cdf = ember.erf(input * _INV_SQRT2).mul_(0.5).add_(0.5)
        ctx.save_for_backward(input, cdf)
        return input * cdf

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple[Any, ...]:
        x, saved = ctx.saved_tensors
        if ember.is_grad_enabled():  # create_graph: rebuild the slope from the input
            return grad * _gelu_slope(x, ctx.approximate), None
        if ctx.approximate == "tanh":
            # 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3 c x^2)
            slope = (x * x).mul_(3 * _TANH_C).add_(1.0).mul_(_TANH_K * 0.5).mul_(x)
            slope.mul_(1.0 - saved * saved).add_(saved.mul(0.5)).add_(0.5)
            return slope.mul_(grad), None
        # cdf + x * pdf
        slope = (x * x).mul_(-0.5).exp_().mul_(x).mul_(_INV_SQRT_2PI).add_(saved)
        return slope.mul_(grad), None
