"""Derivatives of products: matmul and its relatives, einsum, tensordot, kron.

For complex operands the other factor enters conjugated (``g @ y.mH``; see ``complex.py``).
"""

from __future__ import annotations

from typing import Any

from ember.autograd._rule import Rule
from ember.autograd.derivatives._einsum import einsum_operand_grad
from ember.autograd.derivatives.complex import adjoint, conj


def _matmul_input(g: Any, x: Any, y: Any) -> Any:
    """d(x @ y)/dx for every matmul case (1-D operands, broadcast batches)."""
    if x.dim() == 1 and y.dim() == 1:
        return g * conj(y)
    if y.dim() == 1:
        return g.unsqueeze(-1) * conj(y)
    if x.dim() == 1:
        return (g.unsqueeze(-2) @ adjoint(y)).squeeze(-2)
    return g @ adjoint(y)


def _matmul_other(g: Any, x: Any, y: Any) -> Any:
    if x.dim() == 1 and y.dim() == 1:
        return g * conj(x)
    if x.dim() == 1:
        return conj(x).unsqueeze(-1) * g.unsqueeze(-2)
    if y.dim() == 1:
        return (adjoint(x) @ g.unsqueeze(-1)).squeeze(-1)
    return adjoint(x) @ g


def _einsum_operands(g: Any, equation: str, operands: Any) -> list[Any]:
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return [einsum_operand_grad(g, equation, operands, i) for i in range(len(operands))]


def _tensordot_dims(a_ndim: int, dims: Any) -> tuple[list[int], list[int]]:
    if isinstance(dims, int):
        return list(range(a_ndim - dims, a_ndim)), list(range(dims))
    first, second = dims
    first = [first] if isinstance(first, int) else list(first)
    second = [second] if isinstance(second, int) else list(second)
    return first, second


def _tensordot_grad(g: Any, x: Any, y: Any, dims: Any, for_first: bool) -> Any:
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    dx, dy = _tensordot_dims(x.dim(), dims)
    dx = [d % x.dim() for d in dx]
    dy = [d % y.dim() for d in dy]
    sx = list(letters[: x.dim()])
    sy = list(letters[x.dim() : x.dim() + y.dim()])
    for a, b in zip(dx, dy, strict=True):
        sy[b] = sx[a]
    out = [c for k, c in enumerate(sx) if k not in dx] + [
        c for k, c in enumerate(sy) if k not in dy
    ]
    equation = f"{''.join(sx)},{''.join(sy)}->{''.join(out)}"
    return einsum_operand_grad(g, equation, [x, y], 0 if for_first else 1)


def _kron_grad(g: Any, x: Any, y: Any, for_first: bool) -> Any:
    nd = max(x.dim(), y.dim())
    xs = (1,) * (nd - x.dim()) + tuple(x.shape)
    ys = (1,) * (nd - y.dim()) + tuple(y.shape)
    interleaved: list[int] = []
    for a, b in zip(xs, ys, strict=True):
        interleaved += [a, b]
    blocks = g.reshape(interleaved)
    if for_first:
        yv = conj(y).reshape([v for b in ys for v in (1, b)])
        return (blocks * yv).sum(list(range(1, 2 * nd, 2))).reshape(x.shape)
    xv = conj(x).reshape([v for a in xs for v in (a, 1)])
    return (blocks * xv).sum(list(range(0, 2 * nd, 2))).reshape(y.shape)


RULES: dict[str, Rule] = {
    "matmul": Rule(
        input=lambda g, a: _matmul_input(g, a.input, a.other),
        other=lambda g, a: _matmul_other(g, a.input, a.other),
    ),
    # `other @ input` (Tensor.__rmatmul__).
    "rmatmul": Rule(
        "input, other",
        input=lambda g, a: _matmul_other(g, a.other, a.input),
        other=lambda g, a: _matmul_input(g, a.other, a.input),
    ),
    "mm": Rule(
        input=lambda g, a: g @ adjoint(a.mat2),
        mat2=lambda g, a: adjoint(a.input) @ g,
    ),
    "bmm": Rule(
        input=lambda g, a: g @ adjoint(a.mat2),
        mat2=lambda g, a: adjoint(a.input) @ g,
    ),
    "mv": Rule(
        input=lambda g, a: g.unsqueeze(-1) * conj(a.vec),
        vec=lambda g, a: adjoint(a.input) @ g,
    ),
    "dot": Rule(
        input=lambda g, a: g * conj(a.tensor),
        tensor=lambda g, a: g * conj(a.input),
    ),
    # vdot(x, y) = sum(conj(x) * y): antiholomorphic in x.
    "vdot": Rule(
        input=lambda g, a: conj(g) * a.other,
        other=lambda g, a: g * a.input,
    ),
    "outer": Rule(
        input=lambda g, a: g @ conj(a.vec2),
        vec2=lambda g, a: g.mT @ conj(a.input),
    ),
    "addmm": Rule(
        input=lambda g, a: g * conj(a.beta),
        mat1=lambda g, a: (g @ adjoint(a.mat2)) * conj(a.alpha),
        mat2=lambda g, a: (adjoint(a.mat1) @ g) * conj(a.alpha),
    ),
    "addmv": Rule(
        input=lambda g, a: g * conj(a.beta),
        mat=lambda g, a: g.unsqueeze(-1) * conj(a.vec * a.alpha),
        vec=lambda g, a: (adjoint(a.mat) @ g) * conj(a.alpha),
    ),
    "baddbmm": Rule(
        input=lambda g, a: g * conj(a.beta),
        batch1=lambda g, a: (g @ adjoint(a.batch2)) * conj(a.alpha),
        batch2=lambda g, a: (adjoint(a.batch1) @ g) * conj(a.alpha),
    ),
    "einsum": Rule(
        operands=lambda g, a: _einsum_operands(g, a.equation, a.operands),
    ),
    "tensordot": Rule(
        "a, b, dims=2",
        a=lambda g, x: _tensordot_grad(g, x.a, x.b, x.dims, True),
        b=lambda g, x: _tensordot_grad(g, x.a, x.b, x.dims, False),
    ),
    "kron": Rule(
        input=lambda g, a: _kron_grad(g, a.input, a.other, True),
        other=lambda g, a: _kron_grad(g, a.input, a.other, False),
    ),
}
