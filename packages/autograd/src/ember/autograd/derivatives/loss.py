"""Derivatives of the fused loss kernels (``_nn_*`` natives of the loss family).

A plain backward is one native pass (``_nn_binary_cross_entropy_with_logits_backward``); under
``create_graph`` the same gradient is written as recorded ops, so higher-order gradients flow.
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember_core import _C


def _reduce_grad(g: Any, per_element: Any, reduction: int) -> Any:
    if reduction == 0:
        return g * per_element
    if reduction == 1:
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
    "_nn_binary_cross_entropy_with_logits": Rule(input=_bce_input, target=_bce_target),
}
