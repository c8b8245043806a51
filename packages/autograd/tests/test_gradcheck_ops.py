"""Every differentiable op against finite differences.

``SAMPLES`` maps an op to a few small float64 calls. Every dispatch name that records a rule
('rule') or an in-place form of one ('inplace') is gradchecked on the samples of its op: its own
entry if it has one, else the samples of the function it is the method, operator, alias or
in-place form of. A differentiable op without samples or without a rule fails the suite, so a new
op cannot land without a derivative. Inputs avoid the points where an op is not differentiable
(ties for max/sort, zeros for abs, values near the bounds of clamp).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest

import ember
from ember.autograd import _record, _registry, gradcheck, gradgradcheck
from ember.autograd.derivatives import ALIASES, INPLACE_OPERATORS

_rng = np.random.default_rng(20240611)


def _tensor(values: Any, grad: bool = True) -> ember.Tensor:
    t = ember.from_numpy(np.array(values, dtype=np.float64))  # keeps 0-d arrays 0-d
    return t.requires_grad_(grad)


def r(*shape: int, scale: float = 1.0) -> ember.Tensor:
    """Uniform in [-scale, scale)."""
    return _tensor(_rng.uniform(-scale, scale, shape))


def away(*shape: int) -> ember.Tensor:
    """Magnitudes in [0.5, 1.5), either sign: far from the kink at 0 (abs, relu, sgn, ...)."""
    return _tensor(_rng.uniform(0.5, 1.5, shape) * _rng.choice([-1.0, 1.0], shape))


def pos(*shape: int, low: float = 0.5, high: float = 1.5) -> ember.Tensor:
    return _tensor(_rng.uniform(low, high, shape))


def distinct(*shape: int) -> ember.Tensor:
    """Values at least 0.2 apart: no ties for max, sort, median, ..."""
    n = math.prod(shape)
    values = _rng.permutation(n) * 0.3 + _rng.uniform(-0.05, 0.05, n) - 0.15 * n
    return _tensor(values.reshape(shape))


def cz(*shape: int) -> ember.Tensor:
    """complex128, real and imaginary parts uniform in [-1, 1), at least 0.3 from 0 (angle)."""
    values = _rng.uniform(-1, 1, shape) + 1j * _rng.uniform(-1, 1, shape)
    values = np.where(np.abs(values) < 0.3, values + 0.5, values)
    return ember.from_numpy(np.array(values, dtype=np.complex128)).requires_grad_()


def const(values: Any) -> ember.Tensor:
    """A float64 tensor that does not require grad."""
    return _tensor(values, grad=False)


def idx(*values: Any) -> ember.Tensor:
    return ember.tensor(list(values), dtype=ember.int64)


def mask(*values: Any) -> ember.Tensor:
    return ember.tensor(list(values), dtype=ember.bool)


class Sample(NamedTuple):
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    inplace: bool  # the result has args[0]'s shape and dtype: usable for in-place forms
    eps: float
    atol: float


def S(*args: Any, inplace: bool = True, eps: float = 1e-6, atol: float = 1e-5, **kw: Any) -> Sample:
    return Sample(args, kw, inplace, eps, atol)


def _unary(make: Callable[..., ember.Tensor] = r) -> list[Sample]:
    return [S(make(2, 3)), S(make())]


_UNARY = {
    "neg": _unary(),
    "positive": _unary(),
    "abs": _unary(away),
    "sgn": _unary(away),
    "sign": _unary(away),
    "ceil": _unary(),
    "floor": _unary(),
    "trunc": _unary(),
    "frac": _unary(),
    "round": [S(r(2, 3)), S(r(3), decimals=1)],
    "exp": _unary(),
    "exp2": _unary(),
    "expm1": _unary(),
    "log": _unary(pos),
    "log2": _unary(pos),
    "log10": _unary(pos),
    "log1p": _unary(pos),
    "sqrt": _unary(pos),
    "rsqrt": _unary(pos),
    "square": _unary(),
    "reciprocal": _unary(away),
    "sin": _unary(),
    "cos": _unary(),
    "tan": _unary(),
    "asin": _unary(),
    "acos": _unary(),
    "atan": _unary(),
    "sinh": _unary(),
    "cosh": _unary(),
    "tanh": _unary(),
    "asinh": _unary(),
    "acosh": [S(pos(2, 3, low=1.5, high=3))],
    "atanh": _unary(),
    "sigmoid": _unary(),
    "relu": _unary(away),
    "erf": _unary(),
    "erfc": _unary(),
    "erfinv": _unary(),
    "lgamma": _unary(pos),
    "digamma": _unary(pos),
    "sinc": [S(r(2, 3)), S(const([0.0, 0.5]).requires_grad_())],
    # ember.special's native kernels (x = 0 is a sample: I1's derivative is 1/2 there).
    "i0": _unary(lambda *s: r(*s, scale=3.0)),
    "_special_i0e": _unary(away),
    "_special_i1": [S(r(2, 3, scale=3.0)), S(const([0.0, -2.0]).requires_grad_())],
    "_special_i1e": [S(away(2, 3)), S(const([0.0, 2.0]).requires_grad_())],
    "_special_erfcx": _unary(lambda *s: r(*s, scale=3.0)),
    "_special_ndtri": _unary(lambda *s: pos(*s, low=0.05, high=0.95)),
    "nan_to_num": _unary(),
    "clone": _unary(),
    "contiguous": [S(r(3, 2).t())],
    "Tensor.double": _unary(),
}

_BINARY = {
    "add": [S(r(2, 3), r(3)), S(r(2, 3), 2.5), S(r(3), r(2, 1), alpha=-2, inplace=False)],
    "sub": [S(r(2, 3), r(2, 3), alpha=0.5), S(r(3), 1.5)],
    "mul": [S(r(2, 3), r(2, 3)), S(r(2, 1), r(3), inplace=False), S(r(3), 3.0)],
    "div": [S(r(2, 3), away(3)), S(r(3), 2.0), S(r(3), away(3), rounding_mode="floor")],
    "true_divide": [S(r(2, 3), away(3)), S(r(3), 2.0)],
    "pow": [S(pos(2, 3), r(2, 3)), S(pos(3), 3.0), S(r(3), 2)],
    "float_power": [S(pos(2, 3), r(2, 3)), S(pos(3), 2.5)],
    "atan2": [S(away(2, 3), away(2, 3))],
    "hypot": [S(away(2, 3), away(3))],
    "nextafter": [S(distinct(2, 3), distinct(2, 3)), S(r(3), r(2, 1), inplace=False)],
    "maximum": [S(distinct(2, 3), distinct(2, 3))],
    "minimum": [S(distinct(2, 3), distinct(2, 3))],
    "fmax": [S(distinct(2, 3), distinct(2, 3))],
    "fmin": [S(distinct(2, 3), distinct(2, 3))],
    "remainder": [S(r(2, 3, scale=3), away(2, 3)), S(r(3, scale=3), 1.5)],
    "fmod": [S(r(2, 3, scale=3), away(2, 3))],
    "copysign": [S(away(2, 3), away(2, 3))],
    "xlogy": [S(r(2, 3), pos(2, 3))],
    "logaddexp": [S(r(2, 3), r(3))],
    "logaddexp2": [S(r(2, 3), r(3))],
    # Its input is a step (not differentiable at 0): zeros there only without requires_grad.
    "heaviside": [S(distinct(2, 3), r(2, 3)), S(const([0.0, 1.0, -1.0]), r(3))],
    "polygamma": [S(1, pos(2, 3)), S(2, pos(3))],
    "_special_zeta": [S(const([2.0, 3.5, 1.5]), pos(3, low=0.5, high=2.0), inplace=False)],
    "Tensor.polygamma": [S(pos(2, 3), 1), S(pos(3), 2)],
    # Reversed operators, called as methods: x.__rsub__(y) is y - x.
    "rsub": [S(r(2, 3), 2.0), S(r(2, 3), r(2, 3))],
    "rdiv": [S(away(2, 3), 2.0)],
    "rpow": [S(r(2, 3), 2.0)],
    "rmod": [S(away(2, 3), 2.5)],
    "rmatmul": [S(r(3, 2), r(4, 3))],
}

_TERNARY = {
    "clamp": [
        S(r(2, 3), -0.5, 0.5),
        S(r(3), min=r(3)),
        S(r(3, scale=2), pos(3, low=-1.0, high=-0.3), pos(3, low=0.3, high=1.0)),
    ],
    "clamp_min": [S(r(2, 3), -0.2), S(r(3), r(3))],
    "clamp_max": [S(r(2, 3), 0.2), S(r(3), r(3))],
    "lerp": [S(r(2, 3), r(2, 3), r(2, 3)), S(r(3), r(3), 0.3)],
    "addcmul": [S(r(2, 3), r(2, 3), r(3), value=0.5)],
    "addcdiv": [S(r(2, 3), r(2, 3), away(3), value=2.0)],
    "where": [S(mask(True, False, True), r(3), r(2, 3))],
    "Tensor.where": [S(r(2, 3), mask(True, False, True), r(3))],
    "masked_fill": [
        S(r(2, 3), mask(True, False, True), 0.5),
        S(r(3), mask(False, True, True), r()),
    ],
    "Tensor._to_dtype": [S(r(2, 3), ember.float64, True)],
    # Low-precision copies: steps large enough to see through the rounding.
    "Tensor.float": [S(pos(3, low=1, high=2), eps=1e-2, atol=1e-4)],
    "Tensor.half": [S(pos(3, low=1, high=2), eps=0.1, atol=5e-3)],
    "Tensor.bfloat16": [S(pos(3, low=1, high=2), eps=0.5, atol=2e-2)],
    "Tensor.copy_": [S(r(2, 3), r(3)), S(r(3), r(3))],
    "Tensor.fill_": [S(r(2, 3), r()), S(r(3), 1.5)],
    "Tensor.zero_": [S(r(2, 3))],
}

_REDUCTIONS = {
    "sum": [S(r(2, 3)), S(r(2, 3), 1), S(r(2, 3, 2), (0, 2), True)],
    "mean": [S(r(2, 3)), S(r(2, 3), -1, True)],
    "nansum": [S(const([1.0, math.nan, 2.0]).requires_grad_()), S(r(2, 3), 0)],
    "nanmean": [S(const([[1.0, math.nan], [0.5, 2.0]]).requires_grad_(), 1), S(r(2, 3))],
    "prod": [S(r(2, 3)), S(r(2, 3), 1), S(const([[1.5, 0.0, 2.0]]).requires_grad_(), 1, True)],
    "amax": [S(distinct(2, 3)), S(distinct(2, 3), 1, True)],
    "amin": [S(distinct(2, 3)), S(distinct(2, 3), (0, 1))],
    "max": [
        S(distinct(2, 3)),
        S(distinct(2, 3), 1),
        S(distinct(2, 3), 0, True),
        S(distinct(3), distinct(3)),
        S(distinct(3), other=distinct(3)),
    ],
    "min": [S(distinct(2, 3)), S(distinct(2, 3), 1), S(distinct(3), other=distinct(3))],
    "aminmax": [S(distinct(2, 3)), S(distinct(2, 3), dim=1, keepdim=True)],
    "var": [S(r(2, 3)), S(r(2, 3), 1, keepdim=True), S(r(2, 3), 0, correction=0), S(r(4), False)],
    "std": [S(r(2, 3)), S(r(2, 3), 1, False), S(r(4), unbiased=False), S(r(4), False)],
    "var_mean": [S(r(2, 3)), S(r(2, 3), 1, correction=0), S(r(4), False)],
    "std_mean": [S(r(2, 3)), S(r(2, 3), 0, keepdim=True)],
    "norm": [S(away(2, 3)), S(away(2, 3), 1, 1), S(distinct(2, 3), math.inf, 0), S(away(3), 3)],
    "Tensor.norm": [S(away(2, 3), 2, 1)],
    "logsumexp": [S(r(2, 3), 1), S(r(2, 3), (0, 1), True)],
    "cumsum": [S(r(2, 3), 1), S(r(4), 0)],
    "cumprod": [
        S(r(2, 3), 1),
        S(const([1.5, 0.0, 2.0, 0.5]).requires_grad_(), 0),
        S(const([[0.0, 1.5, 0.0, 2.0], [0.7, 1.1, -0.4, 0.0]]).requires_grad_(), 1),
    ],
    "logcumsumexp": [S(r(2, 3), 1), S(r(4, scale=30), 0)],
    "cummax": [S(distinct(2, 4), 1)],
    "cummin": [S(distinct(2, 4), 0)],
    "softmax": [S(r(2, 3), 1), S(r(2, 3), 0)],
    "log_softmax": [S(r(2, 3), 1), S(r(2, 3), -2)],
    "sort": [S(distinct(2, 3)), S(distinct(2, 3), 0, True)],
    "msort": [S(distinct(3, 2))],
    "topk": [S(distinct(2, 4), 2), S(distinct(2, 4), 1, 0, False)],
    "kthvalue": [S(distinct(2, 4), 2), S(distinct(2, 4), 1, 0, True)],
    "median": [
        S(distinct(5)),
        S(distinct(2, 3), 1),
        S(const([1.0, 2.0, 2.0, 5.0]).requires_grad_()),
    ],
    "nanmedian": [S(const([1.0, math.nan, 3.0, 0.5]).requires_grad_()), S(distinct(2, 3), 1, True)],
    "mode": [S(distinct(2, 4)), S(distinct(2, 4), 0, True)],
    "quantile": [
        S(distinct(7), 0.3),
        S(distinct(3, 5), pos(2, low=0.1, high=0.9), 1),
        S(distinct(3, 5), 0.4, 0, True, interpolation="lower"),
        S(distinct(3, 5), 0.4, 1, interpolation="higher"),
        S(distinct(6), 0.3, interpolation="midpoint"),
        S(distinct(6), 0.33, interpolation="nearest"),
    ],
    "nanquantile": [
        S(const([1.0, math.nan, 3.0, 0.5, 2.2]).requires_grad_(), 0.6),
        S(distinct(2, 4), const([0.2, 0.7]), 1),
    ],
}

_LINALG = {
    "matmul": [
        S(r(2, 3), r(3, 2)),
        S(r(3), r(3)),
        S(r(3), r(3, 2)),
        S(r(2, 3), r(3)),
        S(r(2, 2, 3), r(3, 2)),
    ],
    "mm": [S(r(2, 3), r(3, 2))],
    "bmm": [S(r(2, 2, 3), r(2, 3, 2))],
    "mv": [S(r(2, 3), r(3))],
    "dot": [S(r(3), r(3))],
    "vdot": [S(r(3), r(3))],
    "outer": [S(r(3), r(2))],
    "addmm": [
        S(r(2, 2), r(2, 3), r(3, 2), beta=0.5, alpha=2.0),
        S(r(2), r(2, 3), r(3, 2), inplace=False),
    ],
    "addmv": [S(r(2), r(2, 3), r(3), alpha=0.5)],
    "baddbmm": [S(r(2, 2, 2), r(2, 2, 3), r(2, 3, 2), beta=2.0)],
    "einsum": [S("ij,jk->ik", r(2, 3), r(3, 2)), S("i,i", r(3), r(3)), S("bij->bj", r(2, 2, 3))],
    "tensordot": [S(r(2, 3), r(3, 2), 1), S(r(2, 3), r(2, 3), ([0, 1], [0, 1]))],
    "kron": [S(r(2, 2), r(2, 1)), S(r(3), r(2))],
    "cross": [S(r(2, 3), r(2, 3)), S(r(4, 3), r(1, 3), dim=1, inplace=False)],
    "cdist": [
        S(r(3, 2), r(4, 2)),
        S(r(2, 3, 2), r(2, 2, 2), 1.0),
        S(r(3, 2), r(2, 2), 3.0),
        S(distinct(2, 3), distinct(2, 3), math.inf),
        S(r(3, 2), r(2, 2), 0.5),
    ],
    "cov": [
        S(r(2, 4)),
        S(r(4), correction=0),
        S(r(2, 4), fweights=idx(1, 2, 1, 3), aweights=pos(4)),
    ],
    "corrcoef": [S(r(3, 4))],
}

_SHAPE = {
    "Tensor.view": [S(r(2, 3), 3, 2), S(r(2, 3), (6,))],
    "Tensor.reshape": [S(r(2, 3), 6), S(r(2, 3).t(), (3, 2))],
    "reshape": [S(r(2, 3), (3, -1))],
    "Tensor.view_as": [S(r(2, 3), const(np.zeros((3, 2))))],
    "Tensor.reshape_as": [S(r(2, 3), const(np.zeros(6)))],
    "flatten": [S(r(2, 3, 2)), S(r(2, 3, 2), 1)],
    "unflatten": [S(r(2, 6), 1, (2, 3))],
    "squeeze": [S(r(2, 1, 3)), S(r(2, 1, 3), 1)],
    "unsqueeze": [S(r(2, 3), 1)],
    "Tensor.permute": [S(r(2, 3, 2), 2, 0, 1), S(r(2, 3), (1, 0))],
    "permute": [S(r(2, 3, 2), (1, 2, 0))],
    "transpose": [S(r(2, 3), 0, 1)],
    "swapaxes": [S(r(2, 3), 0, 1)],
    "Tensor.swapaxes_": [S(r(2, 3), 0, 1)],
    "t": [S(r(2, 3))],
    "adjoint": [S(r(2, 3))],
    "movedim": [S(r(2, 3, 2), 0, 2), S(r(2, 3, 2), (0, 1), (2, 0))],
    "Tensor.expand": [S(r(3, 1), 3, 2), S(r(3), (2, 3))],
    "Tensor.expand_as": [S(r(3, 1), const(np.zeros((2, 3, 2))))],
    "broadcast_to": [S(r(3, 1), (2, 3, 2))],
    "broadcast_tensors": [S(r(3, 1), r(2)), S(r(2))],
    "narrow": [S(r(4, 3), 0, 1, 2)],
    "select": [S(r(4, 3), 1, -1)],
    "diagonal": [S(r(3, 3)), S(r(2, 3, 3), 1, 1, 2)],
    "index": [
        S(r(4, 3), (1, slice(None, None, 2))),
        S(r(4, 3), idx(0, 2, 0)),
        S(r(4, 3), (idx(0, 1), idx(2, 2))),
        S(r(2, 3), mask(False, True)),
        S(r(4, 3), (Ellipsis, None, 1)),
    ],
    "setitem": [
        S(r(4, 3), (slice(None), 1), r(4)),
        S(r(4, 3), idx(0, 2), r(3)),
        S(r(3), mask(True, False, True), r()),
    ],
    "unbind": [S(r(2, 3)), S(r(2, 3), 1), S(r(1, 3))],
    "split": [S(r(5, 2), (2, 3)), S(r(5, 2), 2), S(r(2, 2), 2)],
    "Tensor.split": [S(r(5, 2), 2), S(r(2, 4), [1, 3], 1)],
    "split_with_sizes": [S(r(5, 2), [4, 1])],
    "chunk": [S(r(5, 2), 2)],
    "tensor_split": [S(r(5, 2), 3), S(r(2, 5), [1, 3], 1)],
    "hsplit": [S(r(2, 4), 2)],
    "vsplit": [S(r(4, 2), [1])],
    "dsplit": [S(r(1, 2, 4), 2)],
    "cat": [S([r(2, 3), r(1, 3)]), S([r(2, 1), r(2, 2)], 1), S([r(3)], dim=0)],
    "stack": [S([r(2, 3), r(2, 3)]), S([r(3), r(3)], 1)],
    "hstack": [S([r(2, 2), r(2, 1)]), S([r(3), r(2)])],
    "atleast_1d": [S(r()), S(r(), r(2))],
    "atleast_2d": [S(r(3)), S(r(), r(2, 2), r(2))],
    "atleast_3d": [S(r(3)), S(r(2, 2), r(2, 2, 2))],
    "vstack": [S([r(3), r(2, 3)])],
    "dstack": [S([r(2, 2), r(2, 2, 2)]), S([r(2), r(2)])],
    "column_stack": [S([r(3), r(3, 2)])],
    "block_diag": [S(r(2, 2), r(3), r(), r(2, 1))],
    "cartesian_prod": [S(r(2), r(3)), S(r(2), r(2), r(1)), S(r(3))],
    "combinations": [S(r(4)), S(r(3), 2, True), S(r(4), 3)],
    "meshgrid": [S(r(2), r(3)), S(r(2), r(3), r(1), indexing="xy"), S(r(3))],
    "flip": [S(r(2, 3), (0, 1))],
    "Tensor.flip": [S(r(2, 3), 1), S(r(2, 3), (0,))],
    "fliplr": [S(r(2, 3))],
    "flipud": [S(r(2, 3))],
    "roll": [S(r(2, 3), 1), S(r(2, 3), (1, -1), (0, 1))],
    "rot90": [
        S(r(2, 3), inplace=False),
        S(r(2, 3), 2, [0, 1]),
        S(r(2, 3, 2), -1, (1, 2), inplace=False),
    ],
    "Tensor.repeat": [S(r(2, 3), 2, 1), S(r(3), (2, 1, 2))],
    "tile": [S(r(2, 3), (2,))],
    "Tensor.tile": [S(r(2, 3), 1, 2)],
    "repeat_interleave": [
        S(r(3, 2), 2, 0),
        S(r(3), idx(1, 0, 2)),
        S(r(2, 2), 2),
        S(r(2, 3), idx(2, 1, 1), dim=1),
    ],
    "unfold": [S(r(6), 0, 2, 2), S(r(3, 5), 1, 3, 1)],
    # Contiguous inputs only: finite differences perturb a contiguous copy of the input.
    "as_strided": [S(r(4, 3), (2, 2), (1, 2), 1), S(r(5), (3, 2), (1, 1))],
    "diff": [S(r(3, 5)), S(r(3, 5), 2, 0), S(r(3, 5), 2, 1, prepend=r(3, 1), append=r(3, 2))],
    "tril": [S(r(3, 3)), S(r(3, 4), -1)],
    "triu": [S(r(3, 3), 1)],
    "diag": [S(r(3)), S(r(3, 3), 1), S(r(3), -1)],
    "diag_embed": [S(r(2, 3)), S(r(2, 3), 1, 0, 2)],
    "diagflat": [S(r(2, 2)), S(r(3), -1)],
    "trace": [S(r(3, 3))],
    "gather": [S(r(3, 4), 1, idx([0, 2], [1, 1], [3, 0]))],
    "scatter": [
        S(r(3, 4), 1, idx([0, 2], [1, 3], [3, 0]), r(3, 2)),
        S(r(3, 4), 0, idx([0, 2, 1]), 2.0),
        S(r(2, 3), 1, idx([0, 0], [1, 2]), r(2, 3), reduce="add"),
        S(r(2, 3), 1, idx([0, 0], [1, 2]), r(2, 2), reduce="multiply"),
    ],
    "scatter_add": [S(r(3, 4), 1, idx([0, 0], [1, 3], [2, 2]), r(3, 3))],
    "scatter_reduce": [
        S(r(2, 4), 1, idx([0, 0, 3], [1, 1, 1]), r(2, 3), reduce) for reduce in ("sum", "mean")
    ]
    + [
        S(distinct(2, 4), 1, idx([0, 0, 3], [1, 1, 1]), distinct(2, 3), reduce, include_self=inc)
        for reduce in ("amax", "amin")
        for inc in (True, False)
    ]
    + [
        S(
            const([[0.0, 1.5, -2.0], [0.7, 1.2, 0.0]]).requires_grad_(),
            1,
            idx([0, 0, 2], [1, 1, 1]),
            const([[0.0, 0.9, 1.1], [2.0, 0.0, 0.0]]).requires_grad_(),
            "prod",
            include_self=inc,
        )
        for inc in (True, False)
    ]
    + [S(r(2, 3), 1, idx([0, 0], [2, 2]), r(2, 2), "mean", include_self=False)],
    "index_select": [S(r(3, 4), 1, idx(0, 2, 0))],
    "index_add": [S(r(3, 4), 0, idx(0, 2, 0), r(3, 4), alpha=2.0), S(r(3), 0, idx(1), r(1))],
    "index_copy": [S(r(3, 4), 1, idx(3, 0), r(3, 2))],
    "index_fill": [S(r(3, 4), 1, idx(1, 3), 0.5), S(r(3, 4), 0, idx(2), r())],
    "masked_scatter": [
        S(r(2, 3), mask(True, False, True), r(5)),
        S(r(2, 3), ember.tensor([[True], [False]]), r(2, 3)),
    ],
    "take": [S(r(3, 4), idx([0, 5], [11, 5]))],
    "take_along_dim": [S(r(3, 4), idx([0, 2], [1, 1], [3, 0]), 1), S(r(3, 4), idx(0, 7, 7))],
    "masked_select": [
        S(r(2, 3), mask(True, False, True)),
        S(r(3), ember.tensor([[True], [False]])),
    ],
    "index_put": [
        S(r(5), (idx(0, 2),), r(2)),
        S(r(5), (idx(0, 2, 0),), r(3), True),
        S(r(3, 2), (idx(0, 2), idx(1, 1)), r()),
    ],
}

# Complex numbers (more, with mixed real/complex inputs, in test_gradcheck_complex.py).
_COMPLEX = {
    "angle": [S(cz(2, 3)), S(away(3))],
    "real": [S(cz(2, 3)), S(r(3))],
    "imag": [S(cz(2, 3))],
    "conj": [S(cz(2, 3)), S(r(3))],
    "conj_physical": [S(cz(2, 3)), S(r(3))],
    "resolve_conj": [S(cz(2, 3)), S(r(3))],
    "complex": [S(r(2, 3), r(3), inplace=False), S(r(), r(2))],
    "view_as_real": [S(cz(2, 3))],
    "view_as_complex": [S(r(2, 3, 2)), S(r(2))],
}

SAMPLES: dict[str, list[Sample]] = {
    **_UNARY,
    **_BINARY,
    **_TERNARY,
    **_REDUCTIONS,
    **_LINALG,
    **_SHAPE,
    **_COMPLEX,
}


def _sample_key(name: str) -> str | None:
    """The SAMPLES entry whose calls exercise the dispatch name ``name``."""
    base = name.removeprefix("Tensor.")
    candidates = [name, base]
    if name in INPLACE_OPERATORS:
        candidates.append(INPLACE_OPERATORS[name])
    if base.endswith("_") and not base.endswith("__"):
        candidates += [name[:-1], base[:-1]]
    candidates += [ALIASES[c] for c in list(candidates) if c in ALIASES]
    return next((c for c in candidates if c in SAMPLES), None)


def _is_inplace(name: str) -> bool:
    return _registry.classify(name) == "inplace"


def _usable(name: str, sample: Sample) -> bool:
    is_method = name.startswith("Tensor.")
    if is_method and not (sample.args and isinstance(sample.args[0], ember.Tensor)):
        return False
    if _is_inplace(name) and not sample.inplace:
        return False
    # Operators take no keyword arguments.
    return not (name.removeprefix("Tensor.").startswith("__") and sample.kwargs)


def _collect(value: Any, found: list[ember.Tensor]) -> None:
    if isinstance(value, ember.Tensor):
        if value.requires_grad:
            found.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, found)


def _rebuild(value: Any, replacements: list[ember.Tensor]) -> Any:
    if isinstance(value, ember.Tensor):
        return replacements.pop(0) if value.requires_grad else value
    if isinstance(value, (list, tuple)):
        return type(value)(_rebuild(item, replacements) for item in value)
    return value


def _call(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if not name.startswith("Tensor."):
        return getattr(ember, name)(*args, **kwargs)
    self, *rest = args
    if _is_inplace(name):
        self = self.clone()  # in-place ops run on a non-leaf
        getattr(self, name.removeprefix("Tensor."))(*rest, **kwargs)
        return self
    return getattr(self, name.removeprefix("Tensor."))(*rest, **kwargs)


def _as_function(name: str, sample: Sample) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """``name`` applied to ``sample`` as a function of the sample's tensors that require grad."""
    inputs: list[ember.Tensor] = []
    _collect((sample.args, sample.kwargs), inputs)

    def func(*xs: ember.Tensor) -> Any:
        args, kwargs = _rebuild((sample.args, sample.kwargs), list(xs))
        return _call(name, args, kwargs)

    return func, tuple(inputs)


# The private linalg natives are gradchecked through ember.linalg in test_gradcheck_linalg.py
# (cholesky and eigh read one triangle: their inputs must be built symmetric).
RECORDED = sorted(
    n
    for n in _registry.dispatch_names()
    if _registry.classify(n) in ("rule", "inplace")
    and not n.startswith(_registry.DIFFERENTIABLE_PRIVATE_PREFIXES)
)


@pytest.mark.parametrize("name", RECORDED)
def test_gradcheck(name: str) -> None:
    key = _sample_key(name)
    assert key is not None, f"{name} records a derivative rule but has no entry in SAMPLES"
    samples = [s for s in SAMPLES[key] if _usable(name, s)]
    assert samples, f"no sample of {key!r} fits {name} (method, in-place or operator form)"
    for sample in samples:
        func, inputs = _as_function(name, sample)
        assert gradcheck(func, inputs, eps=sample.eps, atol=sample.atol), (name, sample)


def test_every_differentiable_op_has_a_rule() -> None:
    # An op the registry declares differentiable (grad="rule") without a derivative rule would
    # land in MISSING: recording it would raise. The tables load on first use: load them here.
    _registry.load()
    assert set() == _record.MISSING


def test_in_place_as_strided_reads_the_geometry_before_the_write() -> None:
    # as_strided_ rewrites self's geometry: its backward needs the layout it had before.
    x = ember.arange(6, dtype=ember.float64).requires_grad_()
    y = x * 1
    y.as_strided_((2, 2), (1, 2), 1)
    np.testing.assert_array_equal(y.detach().numpy(), [[1.0, 3.0], [2.0, 4.0]])
    y.backward(ember.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=ember.float64))
    assert x.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 3.0, 2.0, 4.0, 0.0])


# Second derivatives of a representative subset: (dispatch name, index of the sample).
GRADGRAD = [
    *[(name, 0) for name in ("mul", "div", "pow", "exp", "tanh", "log", "sigmoid", "atan2")],
    *[(name, 1) for name in ("sum", "mean", "prod", "var", "amax")],
    *[(name, 0) for name in ("std", "norm", "logsumexp", "cumprod", "cumsum", "logcumsumexp")],
    *[(name, 0) for name in ("matmul", "mm", "einsum", "softmax", "log_softmax", "cdist")],
    ("matmul", 4),
    ("Tensor.__getitem__", 0),
    ("Tensor.__getitem__", 1),
    *[(name, 0) for name in ("gather", "select", "narrow", "trace", "cat", "where", "cov")],
    *[(name, 0) for name in ("cross", "index_add", "quantile", "diff", "scatter_reduce")],
    ("cumprod", 1),
    ("diagonal", 1),
    ("masked_fill", 1),
    ("quantile", 1),
    ("diff", 2),
    ("scatter_reduce", 2),
    ("split", 2),
    ("unbind", 2),
    ("as_strided", 1),
    ("Tensor.unfold", 1),
    ("repeat_interleave", 1),
]


@pytest.mark.parametrize(("name", "which"), GRADGRAD)
def test_gradgradcheck(name: str, which: int) -> None:
    key = _sample_key(name)
    assert key is not None
    func, inputs = _as_function(name, SAMPLES[key][which])
    assert gradgradcheck(func, inputs)


def test_as_strided_reads_the_input_geometry() -> None:
    # A transposed input: the gradient lands where each output element was read from storage.
    base = ember.arange(12, dtype=ember.float64).reshape(3, 4).requires_grad_()
    view = base.t()
    out = view.as_strided((2, 2), (4, 1), 1)
    np.testing.assert_array_equal(out.detach().numpy(), [[1.0, 2.0], [5.0, 6.0]])
    (grad,) = ember.autograd.grad(out, base, ember.tensor([[1.0, 2.0], [3.0, 4.0]]).double())
    expected = np.zeros(12)
    expected[[1, 2, 5, 6]] = [1.0, 2.0, 3.0, 4.0]
    np.testing.assert_array_equal(grad.numpy(), expected.reshape(3, 4))


# Their outputs view other inputs than the first; the recorder takes a view's base from the first
# argument only, so they stay recorded as copies (an in-place write into one is not refused).
VIEWS_OF_SEVERAL_INPUTS = {"broadcast_tensors", "meshgrid", "cartesian_prod"}


def _tensor_first_samples(name: str) -> list[Any]:
    key = _sample_key(name)
    assert key is not None, name
    return [
        s
        for s in SAMPLES[key]
        if _usable(name, s) and s.args and isinstance(s.args[0], ember.Tensor)
    ]


def _recorded_with_view(view: bool | None) -> list[str]:
    """Recorded rule ops whose rule says view=`view` and that have a sample to try."""
    return [
        n
        for n in RECORDED
        if _registry.classify(n) == "rule"
        and n not in VIEWS_OF_SEVERAL_INPUTS
        and _record.RULES[n].is_view is view
        and _tensor_first_samples(n)
    ]


@pytest.mark.parametrize("name", _recorded_with_view(False))
def test_outputs_sharing_memory_are_recorded_as_views(name: str) -> None:
    # A view recorded as a copy would let an in-place write skip the base's gradient.
    for sample in _tensor_first_samples(name):
        source = sample.args[0]
        with ember.no_grad():
            result = _call(name, sample.args, sample.kwargs)
        outputs = result if isinstance(result, (tuple, list)) else (result,)
        shared = [
            i
            for i, o in enumerate(outputs)
            if isinstance(o, ember.Tensor) and o is not source and o._is_view_of(source)
        ]
        assert not shared, f"{name}: outputs {shared} are views of the input but view=False"


@pytest.mark.parametrize("name", _recorded_with_view(True))
def test_ops_recorded_as_views_return_views(name: str) -> None:
    # A copy recorded as a view would route an in-place write's gradient into the wrong base.
    for sample in _tensor_first_samples(name):
        source = sample.args[0]
        with ember.no_grad():
            result = _call(name, sample.args, sample.kwargs)
        outputs = result if isinstance(result, (tuple, list)) else (result,)
        for i, o in enumerate(outputs):
            if isinstance(o, ember.Tensor) and o.numel() > 0:
                assert o is source or o._is_view_of(source), f"{name}: output {i} is a copy"


def test_masked_scatter_leaves_its_input_alone() -> None:
    # The out-of-place form once wrote into its input when no broadcasting was needed.
    x = ember.zeros(2, 3, dtype=ember.float64)
    out = ember.masked_scatter(x, mask(True, False, True), ember.arange(1.0, 6.0).double())
    np.testing.assert_array_equal(out.numpy(), [[1.0, 0.0, 2.0], [3.0, 0.0, 4.0]])
    np.testing.assert_array_equal(x.numpy(), np.zeros((2, 3)))
