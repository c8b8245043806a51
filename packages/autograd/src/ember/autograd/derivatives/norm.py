"""Derivatives of the normalization natives (layer, RMS, group and batch norm).

Each backward is one native call that recomputes the statistics from the saved input (nothing of
the forward's output is saved, so ``relu_`` on a norm's output is fine) and returns the input,
weight and bias gradients together (``_fused_grads.part`` shares it between the formulas). With
``create_graph=True`` the formulas are rebuilt from differentiable ops on the input instead, so
second derivatives work.
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives._fused_grads import part, wants
from ember_core import _C


def _affine_mask(a: Any) -> tuple[bool, bool, bool]:
    return wants(a.input), wants(a.weight), wants(a.bias)


def _sum_lead(t: Any, lead: list[int]) -> Any:
    return t.sum(lead) if lead else t


def _normalized_backward(g: Any, x: Any, w: Any, dims: list[int], eps: float, rms: bool) -> Any:
    """(grad_input, grad_weight, grad_bias) of (x - mean) * rstd * w + b over ``dims`` as
    differentiable ops (rms: no mean); w and b broadcast along ``dims``' complement."""
    if rms:
        rstd = ember.rsqrt((x * x).mean(dims, keepdim=True) + eps)
        xhat = x * rstd
    else:
        var, mean = ember.var_mean(x, dims, correction=0, keepdim=True)
        rstd = ember.rsqrt(var + eps)
        xhat = (x - mean) * rstd
    gxhat = g * w if w is not None else g
    gi = gxhat - (gxhat * xhat).mean(dims, keepdim=True) * xhat
    if not rms:
        gi = gi - gxhat.mean(dims, keepdim=True)
    return gi * rstd, g * xhat


# ---- layer norm / RMS norm ----------------------------------------------------------------


def _layer_norm_grads(g: Any, a: Any, mask: list[bool]) -> Any:
    g = g[0]
    if ember.is_grad_enabled():
        dims = list(range(-a.normalized_ndim, 0))
        gi, gxh = _normalized_backward(g, a.input, a.weight, dims, a.eps, False)
        lead = list(range(g.dim() - a.normalized_ndim))
        return gi, _sum_lead(gxh, lead), _sum_lead(g, lead)
    return _C._nn_layer_norm_backward(g, a.input, a.weight, a.normalized_ndim, a.eps, mask)


def _rms_norm_grads(g: Any, a: Any, mask: list[bool]) -> Any:
    g = g[0]
    if ember.is_grad_enabled():
        dims = list(range(-a.normalized_ndim, 0))
        gi, gxh = _normalized_backward(g, a.input, a.weight, dims, a.eps, True)
        return gi, _sum_lead(gxh, list(range(g.dim() - a.normalized_ndim)))
    return _C._nn_rms_norm_backward(g, a.input, a.weight, a.normalized_ndim, a.eps, mask)


def _rms_mask(a: Any) -> tuple[bool, bool]:
    return wants(a.input), wants(a.weight)


# ---- group norm ---------------------------------------------------------------------------


def _channel_shape(x: Any) -> list[int]:
    return [x.size(1)] + [1] * (x.dim() - 2)


def _group_norm_grads(g: Any, a: Any, mask: list[bool]) -> Any:
    g = g[0]
    x = a.input
    if ember.is_grad_enabled():
        n, groups = x.size(0), a.num_groups
        shape = _channel_shape(x)
        w = a.weight.reshape(shape) if a.weight is not None else None
        gx = (g * w if w is not None else g).reshape([n, groups, -1])
        gi, _ = _normalized_backward(gx, x.reshape([n, groups, -1]), None, [2], a.eps, False)
        var, mean = ember.var_mean(x.reshape([n, groups, -1]), [2], correction=0, keepdim=True)
        xhat = ((x.reshape([n, groups, -1]) - mean) * ember.rsqrt(var + a.eps)).reshape(x.shape)
        red = [0, *range(2, x.dim())]
        return gi.reshape(x.shape), (g * xhat).sum(red), g.sum(red)
    return _C._nn_group_norm_backward(g, x, a.weight, a.num_groups, a.eps, mask)


# ---- batch norm ---------------------------------------------------------------------------


def _batch_norm_grads(g: Any, a: Any, mask: list[bool]) -> Any:
    g = g[0]
    x = a.input
    if ember.is_grad_enabled():
        shape = _channel_shape(x)
        red = [0, *range(2, x.dim())]
        w = a.weight.reshape(shape) if a.weight is not None else None
        if a.training:
            gi, gxh = _normalized_backward(g, x, w, red, a.eps, False)
        else:
            # eval: a fixed affine map of x (running statistics are constants)
            scale = ember.rsqrt(a.running_var.detach().to(x.dtype) + a.eps).reshape(shape)
            gi = (g * w if w is not None else g) * scale
            gxh = g * ((x - a.running_mean.detach().to(x.dtype).reshape(shape)) * scale)
        return gi, gxh.sum(red), g.sum(red)
    return _C._nn_batch_norm_backward(
        g, x, a.weight, a.running_mean, a.running_var, a.training, a.eps, mask
    )


# Each formula names its grads function, so the rule sees (and saves) what that function reads.
RULES: dict[str, Rule] = {
    "_nn_layer_norm": Rule(
        outputs=(0,),
        input=lambda g, a: part(g, a, 0, _affine_mask, _layer_norm_grads),
        weight=lambda g, a: part(g, a, 1, _affine_mask, _layer_norm_grads),
        bias=lambda g, a: part(g, a, 2, _affine_mask, _layer_norm_grads),
    ),
    "_nn_rms_norm": Rule(
        outputs=(0,),
        input=lambda g, a: part(g, a, 0, _rms_mask, _rms_norm_grads),
        weight=lambda g, a: part(g, a, 1, _rms_mask, _rms_norm_grads),
    ),
    "_nn_group_norm": Rule(
        outputs=(0,),
        input=lambda g, a: part(g, a, 0, _affine_mask, _group_norm_grads),
        weight=lambda g, a: part(g, a, 1, _affine_mask, _group_norm_grads),
        bias=lambda g, a: part(g, a, 2, _affine_mask, _group_norm_grads),
    ),
    "_nn_batch_norm": Rule(
        outputs=(0,),
        input=lambda g, a: part(g, a, 0, _affine_mask, _batch_norm_grads),
        weight=lambda g, a: part(g, a, 1, _affine_mask, _batch_norm_grads),
        bias=lambda g, a: part(g, a, 2, _affine_mask, _batch_norm_grads),
    ),
}
