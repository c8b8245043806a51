"""Derivatives of ``_nn_linear`` (y = x @ W^T + b over the rows of x).

Each gradient is one GEMM or one reduction over the rows; the weight gradient g^T @ x comes out
contiguous in W's layout, which the optimizers' fused steps need.
"""

from __future__ import annotations

from typing import Any

from ember.autograd._rule import Rule


def _rows(t: Any) -> Any:
    """t [*, n] as [rows, n] (a view when t's layout allows)."""
    return t.reshape(-1, t.shape[-1]) if t.dim() != 2 else t


def _input(g: Any, a: Any) -> Any:
    return g.matmul(a.weight)


def _weight(g: Any, a: Any) -> Any:
    return _rows(g).mT.mm(_rows(a.input))


def _bias(g: Any, a: Any) -> Any:
    # A 0-d bias gets the full sum from the engine's sum-to-shape step.
    return _rows(g).sum(0)


RULES: dict[str, Rule] = {
    "_nn_linear": Rule(input=_input, weight=_weight, bias=_bias),
}
