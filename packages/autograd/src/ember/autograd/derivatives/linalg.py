"""Derivatives of products: matmul and its relatives, einsum, tensordot, kron."""

from __future__ import annotations

from typing import Any

from ember.autograd._rule import Rule
from ember.autograd.derivatives._einsum import einsum_operand_grad


def _matmul_input(g: Any, x: Any, y: Any) -> Any:
    """d(x @ y)/dx for every matmul case (1-D operands, broadcast batches)."""
    if x.dim() == 1 and y.dim() == 1:
        return g * y
    if y.dim() == 1:
        return g.unsqueeze(-1) * y
    if x.dim() == 1:
        return (g.unsqueeze(-2) @ y.mT).squeeze(-2)
    return g @ y.mT


def _matmul_other(g: Any, x: Any, y: Any) -> Any:
    if x.dim() == 1 and y.dim() == 1:
        return g * x
    if x.dim() == 1:
        return x.unsqueeze(-1) * g.unsqueeze(-2)
    if y.dim() == 1:
        return (x.mT @ g.unsqueeze(-1)).squeeze(-1)
    return x.mT @ g


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
        yv = y.reshape([v for b in ys for v in (1, b)])
        return (blocks * yv).sum(list(range(1, 2 * nd, 2))).reshape(x.shape)
    xv = x.reshape([v for a in xs for v in (a, 1)])
    return (blocks * xv).sum(list(range(0, 2 * nd, 2))).reshape(y.shape)


RULES: dict[str, Rule] = {
    "matmul": Rule(
        "input, other",
        input=lambda g, a: _matmul_input(g, a.input, a.other),
        other=lambda g, a: _matmul_other(g, a.input, a.other),
    ),
    # `other @ input` (Tensor.__rmatmul__).
    "rmatmul": Rule(
        "input, other",
        input=lambda g, a: _matmul_other(g, a.other, a.input),
        other=lambda g, a: _matmul_input(g, a.other, a.input),
    ),
    "mm": Rule("input, mat2", input=lambda g, a: g @ a.mat2.mT, mat2=lambda g, a: a.input.mT @ g),
    "bmm": Rule("input, mat2", input=lambda g, a: g @ a.mat2.mT, mat2=lambda g, a: a.input.mT @ g),
    "mv": Rule(
        "input, vec",
        input=lambda g, a: g.unsqueeze(-1) * a.vec,
        vec=lambda g, a: a.input.mT @ g,
    ),
    "dot": Rule("input, tensor", input=lambda g, a: g * a.tensor, tensor=lambda g, a: g * a.input),
    "vdot": Rule("input, other", input=lambda g, a: g * a.other, other=lambda g, a: g * a.input),
    "outer": Rule(
        "input, vec2",
        input=lambda g, a: g @ a.vec2,
        vec2=lambda g, a: g.mT @ a.input,
    ),
    "addmm": Rule(
        "input, mat1, mat2, *, beta=1, alpha=1",
        input=lambda g, a: g * a.beta,
        mat1=lambda g, a: (g @ a.mat2.mT) * a.alpha,
        mat2=lambda g, a: (a.mat1.mT @ g) * a.alpha,
    ),
    "addmv": Rule(
        "input, mat, vec, *, beta=1, alpha=1",
        input=lambda g, a: g * a.beta,
        mat=lambda g, a: g.unsqueeze(-1) * a.vec * a.alpha,
        vec=lambda g, a: (a.mat.mT @ g) * a.alpha,
    ),
    "baddbmm": Rule(
        "input, batch1, batch2, *, beta=1, alpha=1",
        input=lambda g, a: g * a.beta,
        batch1=lambda g, a: (g @ a.batch2.mT) * a.alpha,
        batch2=lambda g, a: (a.batch1.mT @ g) * a.alpha,
    ),
    "einsum": Rule(
        "equation, *operands",
        operands=lambda g, a: _einsum_operands(g, a.equation, a.operands),
    ),
    "tensordot": Rule(
        "a, b, dims=2",
        a=lambda g, x: _tensordot_grad(g, x.a, x.b, x.dims, True),
        b=lambda g, x: _tensordot_grad(g, x.a, x.b, x.dims, False),
    ),
    "kron": Rule(
        "input, other",
        input=lambda g, a: _kron_grad(g, a.input, a.other, True),
        other=lambda g, a: _kron_grad(g, a.input, a.other, False),
    ),
}
