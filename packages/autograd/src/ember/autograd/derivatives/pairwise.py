"""Derivatives of ops over pairs of vectors: cross, cdist, cov and corrcoef."""

from __future__ import annotations

import math
from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import conj


def _cross_dim(shape: tuple[int, ...], dim: Any) -> int:
    if dim is not None:
        return int(dim)
    # torch (and ember): the first dim of the input's own shape of size 3.
    return next(i for i, size in enumerate(shape) if size == 3)


def _cdist(g: Any, a: Any, first: bool) -> Any:
    """d ||x1_i - x2_j||_p: the difference weighted per p, summed over the other set."""
    p = float(a.p)
    diff = a.x1.unsqueeze(-2) - a.x2.unsqueeze(-3)  # [..., P, R, M]
    dist = a.result.unsqueeze(-1)
    if p == 0:
        weight = ember.zeros_like(diff)
    elif p == 1:
        weight = diff.sgn()
    elif p == 2:
        weight = ember.where(dist == 0, 0.0, diff / dist)
    elif math.isinf(p):
        # Only the coordinates that reach the maximum move the distance.
        weight = diff.sgn() * (diff.abs() == dist).to(diff.dtype)
    else:
        magnitude = diff.abs()
        weight = diff.sgn() * magnitude ** (p - 1) / dist ** (p - 1)
        weight = ember.where((dist == 0) | (magnitude == 0), 0.0, weight)
    contribution = g.unsqueeze(-1) * weight
    return contribution.sum(-2) if first else -contribution.sum(-3)


class _CovParts:
    """What cov computed: the centered observations, their weights and the normalizer."""

    def __init__(self, x: Any, correction: Any, fweights: Any, aweights: Any) -> None:
        rows = x if x.dim() == 2 else x.reshape(1, -1)
        n = rows.shape[1]
        weights = ember.ones(n, dtype=rows.dtype)
        if fweights is not None:
            weights = weights * fweights.to(rows.dtype)
        self.frequency = weights
        if aweights is not None:
            weights = weights * aweights
        total = weights.sum()
        mean = (rows * weights).sum(1, keepdim=True) / total
        self.centered = rows - mean
        self.weights = weights
        self.total = total
        if aweights is None:
            self.norm = (total - correction).clamp(min=0)
        else:
            self.norm = (total - correction * (weights * aweights).sum() / total).clamp(min=0)


def _cov_input(g: Any, a: Any) -> Any:
    parts = _CovParts(a.input, a.correction, a.fweights, a.aweights)
    rows = parts.centered.shape[0]
    gm = g.reshape(rows, rows)
    # C = Xc W Xc^T / norm; the mean's own dependence on X cancels (sum_k w_k xc_k = 0).
    grad = (gm + gm.mT) @ (parts.centered * parts.weights) / parts.norm
    return grad.reshape(a.input.shape)


def _cov_aweights(g: Any, a: Any) -> Any:
    parts = _CovParts(a.input, a.correction, a.fweights, a.aweights)
    rows = parts.centered.shape[0]
    gm = g.reshape(rows, rows)
    xc, f, aw, total = parts.centered, parts.frequency, a.aweights, parts.total
    # dC/da_k = f_k xc_k xc_k^T / norm - C / norm * dnorm/da_k.
    quadratic = ((gm @ xc) * xc).sum(0)
    weighted = (parts.weights * aw).sum()
    dnorm = f * (1 - a.correction * (2 * aw * total - weighted) / (total * total))
    return (
        f * quadratic / parts.norm - (gm * a.result.reshape(rows, rows)).sum() / parts.norm * dnorm
    )


def _corrcoef(g: Any, a: Any) -> Any:
    parts = _CovParts(a.input, 1, None, None)
    rows = parts.centered.shape[0]
    cov = parts.centered @ parts.centered.mT / parts.norm
    variance = cov.diagonal()
    scale = (variance.unsqueeze(1) * variance.unsqueeze(0)).sqrt()
    corr = cov / scale
    gm = g.reshape(rows, rows)
    # R_ij = C_ij (C_ii C_jj)^-1/2: the diagonal of C also moves every R in its row and column.
    gr = gm * corr
    grad_cov = gm / scale - ember.diag((gr.sum(1) + gr.sum(0)) / (2 * variance))
    grad = (grad_cov + grad_cov.mT) @ parts.centered / parts.norm
    return grad.reshape(a.input.shape)


RULES: dict[str, Rule] = {
    "cross": Rule(
        input=lambda g, a: ember.cross(conj(a.other), g, _cross_dim(a.input_shape, a.dim)),
        other=lambda g, a: ember.cross(g, conj(a.input), _cross_dim(a.input_shape, a.dim)),
    ),
    "cdist": Rule(
        x1=lambda g, a: _cdist(g, a, True),
        x2=lambda g, a: _cdist(g, a, False),
    ),
    "cov": Rule(
        input=_cov_input,
        aweights=_cov_aweights,
    ),
    "corrcoef": Rule(input=_corrcoef),
}
