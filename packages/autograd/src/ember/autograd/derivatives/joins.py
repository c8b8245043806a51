"""Derivatives of ops that join several tensors into one: hstack/vstack/dstack/column_stack,
block_diag, cartesian_prod, combinations and meshgrid.

Each input's gradient is the part of the output gradient where that input was placed (summed
where the op repeated it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import by_parts
from ember.autograd.derivatives.shape import _grads

Shape = tuple[int, ...]


def _atleast_1d(shape: Shape) -> Shape:
    return shape if len(shape) >= 1 else (1,)


def _atleast_2d(shape: Shape) -> Shape:
    return shape if len(shape) >= 2 else (1, *_atleast_1d(shape))


def _atleast_3d(shape: Shape) -> Shape:
    if len(shape) >= 3:
        return shape
    if len(shape) == 2:
        return (*shape, 1)
    return (1, *_atleast_1d(shape), 1)


def _column(shape: Shape) -> Shape:
    # column_stack turns 0-d and 1-d tensors into columns.
    if len(shape) >= 2:
        return shape
    n = shape[0] if shape else 1
    return (n, 1)


def _unstack(g: Any, shapes: list[Shape], lift: Callable[[Shape], Shape], dim: int) -> list[Any]:
    """Each input's slice of a cat of the lifted inputs along ``dim``, in the input's shape."""
    grads, start = [], 0
    for shape in shapes:
        size = lift(shape)[dim]
        grads.append(g.narrow(dim, start, size).reshape(shape))
        start += size
    return grads


def _hstack(g: Any, shapes: list[Shape]) -> list[Any]:
    dim = 0 if len(_atleast_1d(shapes[0])) == 1 else 1
    return _unstack(g, shapes, _atleast_1d, dim)


def _block_diag(g: Any, shapes: list[Shape]) -> list[Any]:
    grads, row, col = [], 0, 0
    for shape in shapes:
        rows, cols = _atleast_2d(shape)
        grads.append(g.narrow(0, row, rows).narrow(1, col, cols).reshape(shape))
        row += rows
        col += cols
    return grads


def _cartesian_prod(g: Any, shapes: list[Shape]) -> list[Any]:
    if len(shapes) == 1:
        return [g]
    sizes = [s[0] for s in shapes]
    grads = []
    # Column i of the output is input i laid out on axis i of the grid of all combinations.
    for i, size in enumerate(sizes):
        grid = g.select(1, i).reshape(sizes)
        others = [d for d in range(len(sizes)) if d != i]
        grads.append(grid.sum(others).reshape(size) if others else grid)
    return grads


@by_parts
def _combinations(g: Any, shape: Shape, r: int, with_replacement: bool) -> Any:
    n = shape[0]
    grad = ember.zeros(n, dtype=g.dtype)
    if g.numel() == 0:
        return grad
    # The same op on 0..n-1 says which input element each output element is.
    positions = ember.combinations(ember.arange(n), r, with_replacement)
    return grad.index_put_((positions.reshape(-1),), g.reshape(-1), accumulate=True)


def _meshgrid(g: Any, shapes: list[Shape], indexing: Any) -> list[Any]:
    g = _grads(g)
    count = len(shapes)
    axes = list(range(count))
    if indexing == "xy" and count >= 2:
        axes[0], axes[1] = 1, 0
    grads = []
    for i, shape in enumerate(shapes):
        others = [d for d in range(count) if d != axes[i]]
        grad = g[i].sum(others) if others else g[i]
        grads.append(grad.reshape(shape))
    return grads


RULES: dict[str, Rule] = {
    "hstack": Rule(tensors=lambda g, a: _hstack(g, a.tensors_shape)),
    "vstack": Rule(tensors=lambda g, a: _unstack(g, a.tensors_shape, _atleast_2d, 0)),
    "dstack": Rule(tensors=lambda g, a: _unstack(g, a.tensors_shape, _atleast_3d, 2)),
    "column_stack": Rule(tensors=lambda g, a: _unstack(g, a.tensors_shape, _column, 1)),
    "block_diag": Rule("*tensors", tensors=lambda g, a: _block_diag(g, a.tensors_shape)),
    "cartesian_prod": Rule("*tensors", tensors=lambda g, a: _cartesian_prod(g, a.tensors_shape)),
    "combinations": Rule(
        input=lambda g, a: _combinations(g, a.input_shape, a.r, a.with_replacement),
    ),
    "meshgrid": Rule(
        tensors=lambda g, a: _meshgrid(g, a.tensors_shape, a.indexing),
    ),
}
