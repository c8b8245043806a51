"""Derivative rules of the dropout family (registry/dropout.py).

Both ops multiply by the same fixed mask, so each one's gradient is the backward op again with
that mask: ``_nn_dropout_backward`` is linear in grad_output and its own adjoint.
"""

from __future__ import annotations

from typing import Any

from ember.autograd._rule import Rule
from ember_core import _C


def _dropout_input(g: Any, a: Any) -> Any:
    return _C._nn_dropout_backward(g[0], a.result[1], a.p)


def _dropout_backward_grad_output(g: Any, a: Any) -> Any:
    return _C._nn_dropout_backward(g, a.mask, a.p)


RULES: dict[str, Rule] = {
    "_nn_dropout": Rule(outputs=(0,), input=_dropout_input),
    "_nn_dropout_backward": Rule(grad_output=_dropout_backward_grad_output),
}
