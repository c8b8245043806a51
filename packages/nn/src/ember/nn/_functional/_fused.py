"""Hand-written backward passes for the hot composites (layer_norm, cross-entropy).

Autograd of the plain composites runs about twice as many full-size ops as these closed-form
gradients; each Function's backward is itself built from differentiable ember ops, so
``create_graph=True`` (double backward) still works.
"""

from __future__ import annotations

from typing import Any, cast

import ember
from ember._tensor import Tensor
from ember.autograd import Function


class LayerNormFn(Function):
    """(x - mean) * rstd over ``dims``, then weight and bias; gradients in closed form."""

    @staticmethod
    def forward(
        ctx: Any,
        input: Tensor,
        weight: Tensor | None,
        bias: Tensor | None,
        dims: list[int],
        eps: float,
    ) -> Tensor:
        var, mean = ember.var_mean(input, dims, correction=0, keepdim=True)
        rstd = ember.rsqrt(var + eps)
        xhat = (input - mean) * rstd
        ctx.save_for_backward(input, xhat, rstd, weight)
        ctx.dims = dims
        ctx.eps = eps
        ctx.has_bias = bias is not None
        if weight is not None and bias is not None:
            return ember.addcmul(bias, xhat, weight)
        if weight is not None:
            return xhat * weight
        if bias is not None:
            return xhat + bias
        return cast(Tensor, xhat.clone())

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple[Any, ...]:
        input, xhat, rstd, weight = ctx.saved_tensors
        dims = ctx.dims
        if ember.is_grad_enabled():
            # create_graph: rebuild the statistics from the input so they carry its graph
            var, mean = ember.var_mean(input, dims, correction=0, keepdim=True)
            rstd = ember.rsqrt(var + ctx.eps)
            xhat = (input - mean) * rstd
        lead = list(range(grad.dim() - len(dims)))
        gxhat = grad * weight if weight is not None else grad
        grad_weight = grad_bias = None
        if weight is not None and ctx.needs_input_grad[1]:
            grad_weight = (grad * xhat).sum(lead) if lead else grad * xhat
        if ctx.has_bias and ctx.needs_input_grad[2]:
            grad_bias = grad.sum(lead) if lead else grad
        grad_input = None
        if ctx.needs_input_grad[0]:
            m1 = gxhat.mean(dims, keepdim=True)
            m2 = (gxhat * xhat).mean(dims, keepdim=True)
            grad_input = ember.addcmul(gxhat - m1, xhat, m2, value=-1.0) * rstd
        return grad_input, grad_weight, grad_bias, None, None


class CrossEntropyFn(Function):
    """Unweighted, unmasked cross-entropy of logits [N, C, ...] and valid class indices, with
    optional label smoothing.

    The gradient is ``(softmax - (1 - eps) onehot - eps / C) * g`` (divided by the element count
    for 'mean'), computed from the saved log-probabilities with one exp and one scatter.
    """

    @staticmethod
    def forward(
        ctx: Any, input: Tensor, target: Tensor, reduction: str, smoothing: float
    ) -> Tensor:
        logp = ember.log_softmax(input, 1)
        index = target.unsqueeze(1)
        loss = -logp.gather(1, index).squeeze(1)
        classes = input.size(1)
        if smoothing > 0.0:
            loss = loss * (1.0 - smoothing) - logp.sum(1) * (smoothing / classes)
        ctx.save_for_backward(input, logp, index)
        ctx.reduction = reduction
        ctx.smoothing = smoothing
        ctx.count = loss.numel()
        if reduction == "mean":
            return loss.mean()
        if reduction == "sum":
            return loss.sum()
        return loss

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple[Any, ...]:
        input, logp, index = ctx.saved_tensors
        eps = ctx.smoothing
        hit = ember.full(list(index.shape), eps - 1.0, dtype=logp.dtype)
        create_graph = ember.is_grad_enabled()
        if create_graph:
            # softmax from the input (so it carries its graph), out of place
            diff = ember.softmax(input, 1)
            if eps > 0.0:
                diff = diff - eps / logp.size(1)
            diff = diff.scatter_add(1, index, hit)
        else:
            diff = ember.exp(logp)
            if eps > 0.0:
                diff.sub_(eps / logp.size(1))
            diff.scatter_add_(1, index, hit)
        if ctx.reduction == "none":
            scale = grad.unsqueeze(1)
        elif ctx.reduction == "mean":
            scale = grad / ctx.count
        else:
            scale = grad
        if create_graph:
            return diff * scale, None, None, None
        return diff.mul_(scale), None, None, None


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
