"""Derivatives of order statistics and scans that pick elements: cummax/cummin, mode, nanmedian,
aminmax, quantile/nanquantile, and logcumsumexp.

An output that is one input element sends its gradient back to that element (through the index
the op returns, or the sorted order); a quantile between two elements splits it by its weights.
"""

from __future__ import annotations

from typing import Any

import ember
from ember._dtype import finfo
from ember.autograd._rule import Rule
from ember.autograd.derivatives.reductions import _amax_amin, _evenly_distribute, _indexed
from ember.autograd.graph import is_tensor


def _cumulative_pick(g: Any, shape: tuple[int, ...], dim: int, indices: Any) -> Any:
    """cummax/cummin: each running extreme came from ``indices``; several outputs may share one."""
    if len(shape) == 0:
        return g.reshape(shape)
    return ember.zeros(shape, dtype=g.dtype).scatter_add(dim % len(shape), indices, g)


def _logcumsumexp(g: Any, x: Any, result: Any, dim: int) -> Any:
    """grad_i = sum_{k >= i} g_k exp(x_i - result_k), summed in log space (positive and negative
    parts of ``g`` apart) so that nothing overflows."""
    if x.dim() == 0:
        return g
    d = dim % x.dim()
    lowest = finfo(g.dtype).min

    def part(weights: Any) -> Any:
        # The lowest finite number, not -inf: -inf - (-inf) would be NaN in a second derivative.
        log_w = ember.where(weights > 0, weights, 1.0).log()
        log_w = ember.where(weights > 0, log_w, lowest)
        tail = (log_w - result).flip(d).logcumsumexp(d).flip(d)
        return (tail + x).exp()

    return part(g.clamp(min=0)) - part((-g).clamp(min=0))


def _aminmax(g: Any, a: Any) -> Any:
    g_min, g_max = g
    grad = _amax_amin(g_min, a.input, a.result[0], a.dim, a.keepdim)
    return grad + _amax_amin(g_max, a.input, a.result[1], a.dim, a.keepdim)


def _median_like(g: Any, a: Any) -> Any:
    if a.dim is None:
        return _evenly_distribute(g, a.input, a.result)
    return _indexed(g[0], a.input_shape, a.dim, a.result[1], a.keepdim)


class _QuantilePlan:
    """Where each quantile reads: sorted rows, the two ranks around it and their weights."""

    def __init__(self, x: Any, q: Any, dim: Any, interpolation: str, ignore_nan: bool) -> None:
        if dim is None:
            rows = x.reshape(1, -1)  # one row of every element
        else:
            rows = x.reshape(1) if x.dim() == 0 else x.movedim(dim % x.dim(), -1)
            rows = rows.reshape(-1, rows.shape[-1])
        n = rows.shape[-1]
        self.sorted, self.order = rows.sort(-1)  # NaN sorts last
        q_tensor = q if is_tensor(q) else ember.tensor(float(q), dtype=x.dtype)
        self.q_shape = tuple(q_tensor.shape)
        # [q, row, 1]: one rank per quantile and row.
        if ignore_nan:
            count = (~rows.isnan()).sum(-1, keepdim=True).to(x.dtype)
        else:
            count = ember.full((rows.shape[0], 1), float(n), dtype=x.dtype)
        rank = q_tensor.reshape(-1, 1, 1).to(x.dtype) * (count - 1)
        last = (count - 1).clamp(min=0)
        if interpolation == "nearest":
            rank = rank.round()
        low = rank.floor().clamp(min=0)
        high = ember.minimum(rank.ceil(), last).clamp(min=0)
        frac = rank - low
        weights = {
            "linear": (1 - frac, frac),
            "lower": (ember.ones_like(frac), ember.zeros_like(frac)),
            "higher": (ember.zeros_like(frac), ember.ones_like(frac)),
            "midpoint": (ember.full_like(frac, 0.5), ember.full_like(frac, 0.5)),
            "nearest": (ember.ones_like(frac), ember.zeros_like(frac)),
        }[interpolation]
        self.low, self.high = low.long(), high.long()
        self.w_low, self.w_high = weights
        self.count = count
        self.rows_shape = tuple(rows.shape)

    def values(self, which: Any) -> Any:
        """The sorted element at rank ``which`` ([q, row, 1]) for every quantile and row."""
        expanded = self.sorted.unsqueeze(0).expand(which.shape[0], *self.rows_shape)
        return expanded.gather(-1, which)


def _rows_back(grad_rows: Any, x: Any, dim: Any) -> Any:
    """Undoes the row layout of _QuantilePlan: [row, n] back to ``x``'s shape."""
    if dim is None or x.dim() == 0:
        return grad_rows.reshape(x.shape)
    d = dim % x.dim()
    moved = list(x.shape)
    moved.append(moved.pop(d))
    return grad_rows.reshape(moved).movedim(-1, d)


def _quantile_input(g: Any, a: Any, ignore_nan: bool) -> Any:
    plan = _QuantilePlan(a.input, a.q, a.dim, a.interpolation, ignore_nan)
    rows, n = plan.rows_shape
    gq = g.reshape(-1, rows, 1)  # [q, row, 1]
    sorted_grad = ember.zeros((gq.shape[0], rows, n), dtype=g.dtype)
    sorted_grad = sorted_grad.scatter_add(-1, plan.low, gq * plan.w_low)
    sorted_grad = sorted_grad.scatter_add(-1, plan.high, gq * plan.w_high).sum(0)
    # Back from sorted order to the input's order (the sort order is a permutation).
    grad_rows = ember.zeros((rows, n), dtype=g.dtype).scatter(-1, plan.order, sorted_grad)
    return _rows_back(grad_rows, a.input, a.dim)


def _quantile_q(g: Any, a: Any, ignore_nan: bool) -> Any:
    # Only linear interpolation moves continuously with q: d/dq = (high - low) * (count - 1).
    if a.interpolation != "linear":
        return ember.zeros_like(a.q)
    plan = _QuantilePlan(a.input, a.q, a.dim, a.interpolation, ignore_nan)
    slope = (plan.values(plan.high) - plan.values(plan.low)) * (plan.count - 1)
    slope = ember.where(plan.high == plan.low, 0.0, slope)
    return (g.reshape(-1, plan.rows_shape[0], 1) * slope).sum([1, 2]).reshape(plan.q_shape)


_QUANTILE = "input, q, dim=None, keepdim=False, *, interpolation='linear'"

RULES: dict[str, Rule] = {
    "cummax": Rule(
        outputs=(0,),
        input=lambda g, a: _cumulative_pick(g[0], a.input_shape, a.dim, a.result[1]),
    ),
    "cummin": Rule(
        outputs=(0,),
        input=lambda g, a: _cumulative_pick(g[0], a.input_shape, a.dim, a.result[1]),
    ),
    "logcumsumexp": Rule(input=lambda g, a: _logcumsumexp(g, a.input, a.result, a.dim)),
    "mode": Rule(
        outputs=(0,),
        input=lambda g, a: _indexed(g[0], a.input_shape, a.dim, a.result[1], a.keepdim),
    ),
    "nanmedian": Rule(outputs=(0,), input=_median_like),
    "aminmax": Rule(input=_aminmax),
    "quantile": Rule(
        _QUANTILE,
        input=lambda g, a: _quantile_input(g, a, False),
        q=lambda g, a: _quantile_q(g, a, False),
    ),
    "nanquantile": Rule(
        _QUANTILE,
        input=lambda g, a: _quantile_input(g, a, True),
        q=lambda g, a: _quantile_q(g, a, True),
    ),
}
