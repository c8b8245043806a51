"""Derivatives of writes at indices: index_add/copy/fill, masked_scatter, scatter with a reduction.

The gradient of a write is the output gradient with the overwritten positions zeroed (for the
destination) and the gradient read back at those positions (for the written values).
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import by_parts
from ember.autograd.graph import is_tensor


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _fit_to(grad: Any, shape: tuple[int, ...]) -> Any:
    """``grad`` (shaped like an index) inside zeros of ``shape``: src may be larger than index."""
    if tuple(grad.shape) == tuple(shape):
        return grad
    if grad.dim() != len(shape):
        return grad.reshape(shape)
    # Pad each dim at its end: out of place, so that the result stays differentiable.
    for d, size in enumerate(shape):
        missing = size - grad.shape[d]
        if missing:
            pad = list(grad.shape)
            pad[d] = missing
            grad = ember.cat([grad, ember.zeros(pad, dtype=grad.dtype)], d)
    return grad


def _index_fill_value(g: Any, a: Any) -> Any:
    return g.index_select(a.dim, a.index).sum()


@by_parts
def _masked_scatter_source(g: Any, mask: Any, shape: tuple[int, ...]) -> Any:
    # The k masked positions consumed source's first k elements, in order; the rest got nothing.
    taken = g.masked_select(mask)
    rest = _numel(shape) - taken.numel()
    if rest > 0:
        taken = ember.cat([taken, ember.zeros(rest, dtype=g.dtype)])
    return taken.reshape(shape)


def _written(g: Any, dim: int, index: Any) -> Any:
    """A mask of the positions ``scatter(dim, index, ...)`` writes to."""
    return ember.zeros_like(g, dtype=ember.bool).scatter(dim, index, True)


def _reduce_name(reduce: str) -> str:
    # scatter(reduce=) spells them 'add' and 'multiply'.
    return {"add": "sum", "multiply": "prod"}.get(reduce, reduce)


def _scatter_reduce_grads(
    g: Any,
    x: Any,
    dim: int,
    index: Any,
    src: Any,
    reduce: str,
    include_self: bool,
    result: Any,
) -> tuple[Any, Any]:
    """(grad_input, grad_src) of ``x.scatter_reduce(dim, index, src, reduce, include_self)``.

    ``src`` is the part of the source that was read (shaped like ``index``).
    """
    reduce = _reduce_name(reduce)
    if reduce == "sum":
        grad_self, grad_src = g, g.gather(dim, index)
    elif reduce == "mean":
        count = ember.ones_like(g) if include_self else ember.zeros_like(g)
        count = count.scatter_add(dim, index, ember.ones_like(index, dtype=g.dtype))
        scaled = g / count.masked_fill(count == 0, 1.0)
        grad_self, grad_src = scaled, scaled.gather(dim, index)
    elif reduce in ("amax", "amin"):
        # Every element equal to the result shares its gradient evenly.
        value = result.gather(dim, index)
        self_wins = (x == result).to(g.dtype)
        if not include_self:
            self_wins = self_wins.scatter(dim, index, 0.0)
        src_wins = (src == value).to(g.dtype)
        share = g / self_wins.scatter_add(dim, index, src_wins)
        grad_self, grad_src = self_wins * share, src_wins * share.gather(dim, index)
    elif reduce == "prod":
        grad_self, grad_src = _scatter_prod_grads(g, x, dim, index, src, include_self, result)
    else:
        raise ValueError(f"[scatter_reduce] unknown reduce {reduce!r}")
    if not include_self:
        grad_self = grad_self.masked_fill(_written(g, dim, index), 0.0)
    return grad_self, grad_src


def _scatter_prod_grads(
    g: Any, x: Any, dim: int, index: Any, src: Any, include_self: bool, result: Any
) -> tuple[Any, Any]:
    # The product of the other factors, without dividing by zero: a zero factor is replaced by
    # one and the product recomputed (torch's scatter_reduce prod backward).
    zero_self = x == 0
    ones_for_self = x.masked_fill(zero_self, 1.0)
    grad_self = g * ones_for_self.scatter_reduce(dim, index, src, "prod", include_self=include_self)
    grad_self = grad_self / ones_for_self
    zero_src = src == 0
    zeros_at = ember.zeros_like(g).scatter_add(dim, index, zero_src.to(g.dtype))
    single_zero = zero_src & (zeros_at.gather(dim, index) == 1)
    others = x.scatter_reduce(
        dim, index, src.masked_fill(single_zero, 1.0), "prod", include_self=include_self
    )
    grad_src = ember.where(
        single_zero,
        (g * others).gather(dim, index),
        (g * result).gather(dim, index) / src.masked_fill(zero_src, 1.0),
    )
    return grad_self, grad_src


def _take_like(src: Any, index: Any) -> Any:
    """The part of ``src`` that scatter reads: its leading ``index.shape`` window."""
    if tuple(src.shape) == tuple(index.shape):
        return src
    window = src
    for d, size in enumerate(index.shape):
        window = window.narrow(d, 0, size)
    return window


def _scatter_input(g: Any, a: Any) -> Any:
    if a.reduce is None:
        return g.scatter(a.dim, a.index, 0.0)
    if is_tensor(a.src):
        src = a.src
    else:
        fill = a.value if a.value is not None else a.src
        src = ember.full_like(a.index, fill, dtype=g.dtype)
    return _scatter_reduce_grads(
        g, a.input, a.dim, a.index, _take_like(src, a.index), a.reduce, True, a.result
    )[0]


def _scatter_src(g: Any, a: Any) -> Any:
    if a.reduce is None:
        return _fit_to(g.gather(a.dim, a.index), a.src.shape)
    src = _take_like(a.src, a.index)
    grad = _scatter_reduce_grads(g, a.input, a.dim, a.index, src, a.reduce, True, a.result)[1]
    return _fit_to(grad, a.src.shape)


def _scatter_reduce(g: Any, a: Any, which: int) -> Any:
    src = _take_like(a.src, a.index)
    grads = _scatter_reduce_grads(
        g, a.input, a.dim, a.index, src, a.reduce, bool(a.include_self), a.result
    )
    return grads[0] if which == 0 else _fit_to(grads[1], a.src.shape)


RULES: dict[str, Rule] = {
    "index_add": Rule(
        input=lambda g, a: g,
        source=lambda g, a: (g.index_select(a.dim, a.index) * a.alpha).reshape(a.source_shape),
    ),
    "index_copy": Rule(
        input=lambda g, a: g.index_fill(a.dim, a.index, 0.0),
        source=lambda g, a: g.index_select(a.dim, a.index).reshape(a.source_shape),
    ),
    "index_fill": Rule(
        input=lambda g, a: g.index_fill(a.dim, a.index, 0.0),
        value=_index_fill_value,
    ),
    "masked_scatter": Rule(
        input=lambda g, a: g.masked_fill(a.mask, 0.0),
        source=lambda g, a: _masked_scatter_source(g, a.mask, a.source_shape),
    ),
    "scatter": Rule(
        input=_scatter_input,
        src=_scatter_src,
    ),
    "scatter_add": Rule(
        "input, dim, index, src",
        input=lambda g, a: g,
        src=lambda g, a: _fit_to(g.gather(a.dim, a.index), a.src_shape),
    ),
    "scatter_reduce": Rule(
        input=lambda g, a: _scatter_reduce(g, a, 0),
        src=lambda g, a: _scatter_reduce(g, a, 1),
    ),
}
