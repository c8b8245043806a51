"""Derivatives of the fused loss natives (cross-entropy, binary cross-entropy with logits).

``_nn_cross_entropy``'s backward is one native pass from the saved logits, targets and per-position
logsumexp; with ``create_graph=True`` it is rebuilt from differentiable ops on the logits (the
softmax), so second derivatives work.
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember_core import _C


def _cross_entropy_composite(g: Any, a: Any) -> Any:
    """dloss/dx = s (p ((1 - e) w_t + e / C sum w) - (1 - e) w_t onehot_t - e / C w) at valid
    positions, s the incoming gradient (over the total weight for 'mean')."""
    x, t, w = a.input, a.target, a.weight
    classes = x.size(1)
    eps = a.label_smoothing
    valid = t != a.ignore_index
    safe = t.masked_fill(~valid, 0)
    wt = ember.take(w, safe) if w is not None else ember.ones(list(t.shape), dtype=x.dtype)
    s = g / a.result[2].to(x.dtype) if a.reduction == "mean" else g
    s = ember.where(valid, s, 0.0)  # [N, *d] for every reduction
    sum_w = float(w.sum()) if w is not None else float(classes)
    shape = [classes] + [1] * (x.dim() - 2)
    p = ember.softmax(x, 1)
    coef = (s * ((1.0 - eps) * wt + eps / classes * sum_w)).unsqueeze(1)
    hit = ember.zeros_like(x).scatter(1, safe.unsqueeze(1), (s * wt * (1.0 - eps)).unsqueeze(1))
    spread = s.unsqueeze(1) * (eps / classes)
    spread = spread * w.reshape(shape) if w is not None else spread.expand(list(x.shape))
    return p * coef - hit - spread


def _cross_entropy(g: Any, a: Any) -> Any:
    g = g[0]
    if ember.is_grad_enabled():
        return _cross_entropy_composite(g, a)
    _, lse, total = a.result
    return _C._nn_cross_entropy_backward(
        g,
        a.input,
        a.target,
        a.weight,
        lse,
        total,
        a.reduction,
        a.ignore_index,
        a.label_smoothing,
    )


def _reduce_grad(g: Any, per_element: Any, reduction: str) -> Any:
    # "none" and "sum" both scale each element's derivative by g (g broadcasts for "sum").
    if reduction == "mean":
        return g * per_element / max(per_element.numel(), 1)
    return g * per_element


def _bce_input(g: Any, a: Any) -> Any:
    if not ember.is_grad_enabled():
        return _C._nn_binary_cross_entropy_with_logits_backward(
            g, a.input, a.target, a.weight, a.pos_weight, a.reduction
        )
    x, t = a.input, a.target
    lw = 1 if a.pos_weight is None else (a.pos_weight - 1) * t + 1
    d = (1 - t) - lw * ember.sigmoid(-x)
    if a.weight is not None:
        d = d * a.weight
    return _reduce_grad(g, d, a.reduction)


def _bce_target(g: Any, a: Any) -> Any:
    # d/dt [(1 - t) x + lw softplus(-x)] with lw = 1 + (pw - 1) t: -x + (pw - 1) softplus(-x).
    x = a.input
    d = -x if a.pos_weight is None else -x + (a.pos_weight - 1) * _softplus_neg(x)
    if a.weight is not None:
        d = d * a.weight
    return _reduce_grad(g, d, a.reduction)


def _softplus_neg(x: Any) -> Any:
    return ember.log1p(ember.exp(-x.abs())) + (-x).clamp(min=0.0)


RULES: dict[str, Rule] = {
    "_nn_cross_entropy": Rule(outputs=(0,), input=_cross_entropy),
    "_nn_binary_cross_entropy_with_logits": Rule(input=_bce_input, target=_bce_target),
}
