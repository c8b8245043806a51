"""Derivatives of reductions, scans, softmax and selections along a dim."""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import conj
from ember.autograd.graph import is_tensor
from ember_core import _C


def _dims(dim: Any, ndim: int) -> list[int]:
    """The reduced dims, normalized (None or () means all)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return list(range(ndim))
    if isinstance(dim, int):
        dim = [dim]
    return sorted(d % ndim if ndim else 0 for d in dim)


def _unreduce(g: Any, shape: tuple[int, ...], dim: Any, keepdim: bool) -> Any:
    """Puts the reduced dims back into ``g`` as size-1 dims and broadcasts it to ``shape``."""
    if not keepdim and len(shape) != g.dim():
        for d in _dims(dim, len(shape)):
            g = g.unsqueeze(d)
    return g.expand(shape)


def _count(shape: tuple[int, ...], dim: Any) -> int:
    n = 1
    for d in _dims(dim, len(shape)):
        n *= shape[d]
    return n


def _sum(g: Any, a: Any) -> Any:
    return _unreduce(g, a.input_shape, a.dim, a.keepdim)


def _mean(g: Any, a: Any) -> Any:
    return _unreduce(g, a.input_shape, a.dim, a.keepdim) / _count(a.input_shape, a.dim)


def _prod(g: Any, x: Any, dim: Any, keepdim: bool) -> Any:
    """d prod / dx_i = product of the other elements, computed without dividing by x_i."""
    if dim is None:
        flat = x.reshape(-1)
        return _prod_along(_unreduce(g, x.shape, None, keepdim).reshape(-1), flat, 0).reshape(
            x.shape
        )
    d = dim % max(x.dim(), 1)
    return _prod_along(_unreduce(g, x.shape, [d], keepdim), x, d)


def _prod_along(g: Any, x: Any, d: int) -> Any:
    if x.dim() == 0:
        return g
    n = x.shape[d]
    if x.is_complex():
        return g * conj(_products_of_the_others(x, d, n))
    ones = ember.ones_like(x.narrow(d, 0, 1))
    # Exclusive products from the left and from the right: their product skips x_i itself.
    left = ember.cat([ones, x.narrow(d, 0, n - 1)], d).cumprod(d) if n > 1 else ones
    right = (
        ember.cat([x.narrow(d, 1, n - 1), ones], d).flip(d).cumprod(d).flip(d) if n > 1 else ones
    )
    return g * conj(left * right)


def _products_of_the_others(x: Any, d: int, n: int) -> Any:
    """prod_{j != i} x_j along d for every i, as n products with x_i set to 1 (cumprod, the
    linear-time way, takes real tensors only)."""
    rows = x.unsqueeze(d).expand(*x.shape[:d], n, *x.shape[d:])
    diagonal = ember.eye(n, dtype=ember.bool).reshape([n, n] + [1] * (x.dim() - d - 1))
    return ember.where(diagonal, 1.0, rows).prod(d + 1)


def _amax_amin(g: Any, x: Any, result: Any, dim: Any, keepdim: bool) -> Any:
    # Ties share the gradient evenly (torch's amax/amin and full max()/min()).
    expanded = _unreduce(result, x.shape, dim, keepdim)
    mask = (x == expanded).to(g.dtype)
    count = _unreduce(mask.sum(_dims(dim, x.dim()), keepdim=True), x.shape, dim, True)
    return _unreduce(g, x.shape, dim, keepdim) * mask / count


def _indexed(g: Any, shape: tuple[int, ...], dim: int, indices: Any, keepdim: bool) -> Any:
    """Scatters ``g`` to the positions ``indices`` picked along ``dim`` (max(dim), sort, ...)."""
    ndim = len(shape)
    d = dim % ndim if ndim else 0
    if ndim == 0:
        return g.reshape(shape)
    if not keepdim and g.dim() != ndim:
        g = g.unsqueeze(d)
        indices = indices.unsqueeze(d)
    return ember.zeros(shape, dtype=g.dtype).scatter_add(d, indices, g)


def _max_min(g: Any, a: Any, is_max: bool) -> Any:
    if a.other is not None or is_tensor(a.dim):
        other = a.other if a.other is not None else a.dim
        wins = a.input > other if is_max else a.input < other
        return ember.where(a.input == other, g / 2, ember.where(wins, g, 0.0))
    if a.dim is None:
        return _amax_amin(g, a.input, a.result, None, False)
    return _indexed(g[0], a.input.shape, a.dim, a.result[1], bool(a.keepdim))


def _max_min_other(g: Any, a: Any, is_max: bool) -> Any:
    other = a.other if a.other is not None else a.dim
    wins = other > a.input if is_max else other < a.input
    return ember.where(a.input == other, g / 2, ember.where(wins, g, 0.0))


def _dim_correction(a: Any) -> tuple[Any, float]:
    """The reduced dims and the correction of var/std(input, dim, unbiased, keepdim, *,
    correction); ``var(x, False)`` passes ``unbiased`` in the place of dim."""
    dim, unbiased = a.dim, a.unbiased
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if a.correction is not None:
        return dim, float(a.correction)
    return dim, 0.0 if unbiased is False else 1.0


def _var(g: Any, a: Any) -> Any:
    dim, correction = _dim_correction(a)
    n = _count(a.input.shape, dim)
    centered = a.input - a.input.mean(_dims(dim, a.input.dim()), keepdim=True)
    scale = 2.0 / max(n - correction, 0)
    return _unreduce(g, a.input.shape, dim, a.keepdim) * centered * scale


def _std(g: Any, a: Any) -> Any:
    dim, correction = _dim_correction(a)
    n = _count(a.input.shape, dim)
    centered = a.input - a.input.mean(_dims(dim, a.input.dim()), keepdim=True)
    denom = max(n - correction, 0)
    std = _unreduce(a.result, a.input.shape, dim, a.keepdim)
    return _unreduce(g, a.input.shape, dim, a.keepdim) * centered / (std * denom)


def _var_mean(g: Any, a: Any, std: bool) -> Any:
    g_first, g_mean = g
    dim, correction = _dim_correction(a)
    n = _count(a.input.shape, dim)
    centered = a.input - _unreduce(a.result[1], a.input.shape, dim, a.keepdim)
    denom = max(n - correction, 0)
    first = _unreduce(g_first, a.input.shape, dim, a.keepdim)
    if std:
        grad = first * centered / (_unreduce(a.result[0], a.input.shape, dim, a.keepdim) * denom)
    else:
        grad = first * centered * (2.0 / denom)
    return grad + _unreduce(g_mean, a.input.shape, dim, a.keepdim) / n


def _norm(g: Any, a: Any) -> Any:
    p = a.p
    x = a.input
    dim = a.dim
    result = _unreduce(a.result, x.shape, dim, a.keepdim)
    grad = _unreduce(g, x.shape, dim, a.keepdim)
    if p in ("fro", 2, 2.0):
        return ember.where(result == 0, 0.0, grad * x / result)
    if p in (float("inf"), float("-inf")):
        mask = (x.abs() == result).to(g.dtype)
        count = mask.sum(_dims(dim, x.dim()), keepdim=True)
        return grad * x.sgn() * mask / count
    if p == 0:
        return ember.zeros_like(x)
    if p == 1:
        return grad * x.sgn()
    scaled = x * x.abs() ** (p - 2) / result ** (p - 1)
    return ember.where(result == 0, 0.0, grad * scaled)


def _cumsum(g: Any, dim: int) -> Any:
    return g.flip(dim).cumsum(dim).flip(dim)


def _cumprod(g: Any, x: Any, result: Any, dim: int) -> Any:
    d = dim % max(x.dim(), 1)
    if x.dim() == 0:
        return g
    # Complex: the products conjugate (torch's cumprod_backward).
    x, result = conj(x), conj(result)
    if not bool((x == 0).any()):
        return _cumsum(g * result, d) / x
    if ember.is_grad_enabled():
        return _cumprod_twice_differentiable(g, x, d)
    # With zeros: before a row's first zero, sum_{k>=i} g_k result_k / x_i still holds; at the
    # first zero, the products skip it (cumprod with that zero set to one); after it, zero.
    zeros_so_far = (x == 0).cumsum(d)
    before = zeros_so_far == 0
    first_zero = (x == 0) & (zeros_so_far == 1)
    skipped = ember.where(first_zero, 1.0, x).cumprod(d)
    grad_before = _cumsum(g * result, d) / ember.where(before, x, 1.0)
    grad_first = _cumsum(g * skipped, d)
    return ember.where(before, grad_before, ember.where(first_zero, grad_first, 0.0))


def _cumprod_twice_differentiable(g: Any, x: Any, d: int) -> Any:
    """x_i's gradient as sum_{k>=i} g_k * prod_{j<=k, j!=i} x_j, built from products so that
    create_graph=True differentiates it exactly at zeros too (one reverse scan per position)."""
    n = x.shape[d]
    grads = []
    for i in range(n):
        before = (
            x.narrow(d, 0, i).prod(d, keepdim=True) if i else ember.ones_like(x.narrow(d, 0, 1))
        )
        after = x.narrow(d, i + 1, n - i - 1)
        partial = ember.cat([ember.ones_like(before), after], d).cumprod(d)
        grads.append((g.narrow(d, i, n - i) * partial).sum(d, keepdim=True) * before)
    return ember.cat(grads, d)


def _logsumexp(g: Any, a: Any) -> Any:
    result = _unreduce(a.result, a.input.shape, a.dim, a.keepdim)
    return _unreduce(g, a.input.shape, a.dim, a.keepdim) * conj((a.input - result).exp())


def _softmax(g: Any, y: Any, dim: int) -> Any:
    if not ember.is_grad_enabled() and y.is_floating_point():
        return _C._nn_softmax_backward(g, y, dim, False)  # one native pass
    gy = g * y
    return gy - y * gy.sum(dim, keepdim=True)


def _log_softmax(g: Any, y: Any, dim: int) -> Any:
    if not ember.is_grad_enabled() and y.is_floating_point():
        return _C._nn_softmax_backward(g, y, dim, True)
    return g - y.exp() * g.sum(dim, keepdim=True)


def _sort_like(g: Any, a: Any) -> Any:
    return _indexed(g[0], a.input_shape, a.dim, a.result[1], True)


def _nansum(g: Any, a: Any) -> Any:
    return ember.where(a.input.isnan(), 0.0, _unreduce(g, a.input.shape, a.dim, a.keepdim))


def _nanmean(g: Any, a: Any) -> Any:
    valid = ~a.input.isnan()
    count = valid.sum(_dims(a.dim, a.input.dim()), keepdim=True).to(g.dtype)
    return ember.where(valid, _unreduce(g, a.input.shape, a.dim, a.keepdim) / count, 0.0)


def _evenly_distribute(g: Any, x: Any, value: Any) -> Any:
    """The gradient of a full reduction that returns one element's value (median()): every
    element equal to it gets an equal share, as torch does (NaN matches a NaN result)."""
    mask = (x == value) | (x.isnan() & value.isnan())
    return ember.where(mask, g / mask.sum().to(g.dtype), 0.0)


RULES: dict[str, Rule] = {
    "sum": Rule(input=_sum),
    "mean": Rule(input=_mean),
    "nansum": Rule(input=_nansum),
    "nanmean": Rule(input=_nanmean),
    "prod": Rule(
        input=lambda g, a: _prod(g, a.input, a.dim, a.keepdim),
    ),
    "amax": Rule(
        input=lambda g, a: _amax_amin(g, a.input, a.result, a.dim, a.keepdim),
    ),
    "amin": Rule(
        input=lambda g, a: _amax_amin(g, a.input, a.result, a.dim, a.keepdim),
    ),
    "max": Rule(
        "input, dim=None, keepdim=False, *, other=None",
        outputs=(0,),
        input=lambda g, a: _max_min(g, a, True),
        other=lambda g, a: _max_min_other(g, a, True),
        # max(x, y) with a tensor in the place of dim.
        dim=lambda g, a: _max_min_other(g, a, True),
    ),
    "min": Rule(
        "input, dim=None, keepdim=False, *, other=None",
        outputs=(0,),
        input=lambda g, a: _max_min(g, a, False),
        other=lambda g, a: _max_min_other(g, a, False),
        # max(x, y) with a tensor in the place of dim.
        dim=lambda g, a: _max_min_other(g, a, False),
    ),
    "var": Rule(input=_var),
    "std": Rule(input=_std),
    "var_mean": Rule(
        input=lambda g, a: _var_mean(g, a, False),
    ),
    "std_mean": Rule(
        input=lambda g, a: _var_mean(g, a, True),
    ),
    "norm": Rule(input=_norm),
    "Tensor.norm": Rule(input=_norm),
    "logsumexp": Rule(input=_logsumexp),
    "cumsum": Rule(input=lambda g, a: _cumsum(g, a.dim)),
    "cumprod": Rule(
        input=lambda g, a: _cumprod(g, a.input, a.result, a.dim),
    ),
    "softmax": Rule(input=lambda g, a: _softmax(g, a.result, a.dim)),
    "log_softmax": Rule(input=lambda g, a: _log_softmax(g, a.result, a.dim)),
    "sort": Rule(outputs=(0,), input=_sort_like),
    "topk": Rule(
        outputs=(0,),
        input=lambda g, a: _indexed(g[0], a.input_shape, a.dim, a.result[1], True),
    ),
    "kthvalue": Rule(
        outputs=(0,),
        input=lambda g, a: _indexed(g[0], a.input_shape, a.dim, a.result[1], a.keepdim),
    ),
    "median": Rule(
        outputs=(0,),
        input=lambda g, a: (
            _evenly_distribute(g, a.input, a.result)
            if a.dim is None
            else _indexed(g[0], a.input_shape, a.dim, a.result[1], a.keepdim)
        ),
    ),
    "msort": Rule(
        input=lambda g, a: _indexed(g, a.input_shape, 0, a.input.argsort(0), True),
    ),
}
