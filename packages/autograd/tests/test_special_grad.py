"""Gradients of ember.special in float64: gradcheck for every differentiable function (native
rules and the composites, whose gradients come from the ops they are built of), the places
where torch's derivative is special (x = 0, the clamped side of logit, log_ndtr's far tail), and
the functions torch leaves non-differentiable."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ember
from ember.autograd import gradcheck, gradgradcheck

S = ember.special


def t64(values: Any, grad: bool = True) -> ember.Tensor:
    return ember.from_numpy(np.asarray(values, dtype=np.float64)).requires_grad_(grad)


UNARY: list[tuple[str, Callable[[ember.Tensor], ember.Tensor], list[float]]] = [
    ("expit", S.expit, [-3.0, 0.2, 4.0]),
    ("logit", S.logit, [0.1, 0.4, 0.6, 0.95]),
    ("logit_eps", lambda x: S.logit(x, eps=0.2), [0.1, 0.4, 0.95]),
    ("erf", S.erf, [-1.5, 0.3]),
    ("erfc", S.erfc, [-1.5, 0.3]),
    ("erfinv", S.erfinv, [-0.7, 0.2]),
    ("erfcx", S.erfcx, [-2.0, 0.0, 0.7, 12.0, 40.0]),
    ("ndtr", S.ndtr, [-3.0, 0.0, 2.0]),
    ("ndtri", S.ndtri, [1e-3, 0.2, 0.5, 0.9]),
    ("log_ndtr", S.log_ndtr, [-30.0, -3.0, -1.0, 0.0, 2.5]),
    ("entr", S.entr, [0.2, 1.0, 3.0]),
    ("gammaln", S.gammaln, [0.4, 3.5]),
    ("digamma", S.digamma, [0.4, 3.5]),
    ("polygamma", lambda x: S.polygamma(2, x), [0.4, 3.5]),
    ("multigammaln", lambda x: S.multigammaln(x, 3), [1.2, 4.0]),
    ("i0", S.i0, [-2.0, 0.0, 0.5, 31.0]),
    ("i0e", S.i0e, [-2.0, 0.5, 31.0]),
    ("i1", S.i1, [-2.0, 0.0, 0.5, 31.0]),
    ("i1e", S.i1e, [-2.0, 0.0, 0.5, 31.0]),
    ("sinc", S.sinc, [-1.3, 0.0, 0.4]),
    ("expm1", S.expm1, [-1.0, 0.3]),
    ("exp2", S.exp2, [-1.0, 0.3]),
    ("log1p", S.log1p, [0.1, 2.0]),
    ("spherical_bessel_j0", S.spherical_bessel_j0, [-2.0, 0.5, 3.0]),
]


@pytest.mark.parametrize("case", UNARY, ids=[c[0] for c in UNARY])
def test_unary_gradcheck(case: Any) -> None:
    _, fn, points = case
    assert gradcheck(fn, (t64(points),), eps=1e-6, atol=1e-5)


@pytest.mark.parametrize("name", ["erfcx", "ndtri", "i0", "i1", "log_ndtr", "ndtr", "entr"])
def test_second_derivatives(name: str) -> None:
    fn = dict((c[0], c[1]) for c in UNARY)[name]
    points = {"ndtri": [0.2, 0.7], "entr": [0.5, 2.0], "log_ndtr": [-5.0, 0.5]}.get(
        name, [-1.5, 0.5, 2.0]
    )
    assert gradgradcheck(fn, (t64(points),), eps=1e-6, atol=1e-4)


def test_binary_and_reductions_gradcheck() -> None:
    x, y = t64([0.5, -1.2, 2.0]), t64([0.3, 1.5, 4.0])
    assert gradcheck(S.xlogy, (x, y))
    assert gradcheck(S.xlog1py, (x, y))
    assert gradcheck(lambda q: S.zeta(t64([2.0, 3.5, 5.0], grad=False), q), (y,))
    m = t64([[0.3, -1.0, 2.0], [0.5, 0.5, -0.2]])
    assert gradcheck(lambda v: S.softmax(v, 1), (m,))
    assert gradcheck(lambda v: S.log_softmax(v, 0), (m,))
    assert gradcheck(lambda v: S.logsumexp(v, 1), (m,))


def test_derivative_values() -> None:
    # d/dx I0 = I1, d/dx I1 = 1/2 at 0, d/dx ndtri(p) = 1 / phi(ndtri(p)), log_ndtr' = phi/Phi.
    x = t64([0.0, 1.0])
    S.i1(x).sum().backward()
    assert x.grad is not None
    np.testing.assert_allclose(x.grad.numpy(), [0.5, 1.2660658777520082 - 0.5651591039924851])
    p = t64([0.3])
    S.ndtri(p).backward()
    z = S.ndtri(t64([0.3], grad=False)).item()
    assert p.grad is not None
    np.testing.assert_allclose(p.grad.item(), math.sqrt(2 * math.pi) * math.exp(z * z / 2))
    far = t64([-40.0])
    S.log_ndtr(far).backward()
    # phi(x)/Phi(x) ~ -x (1 + 1/x^2 - ...) far in the lower tail: finite, no 0/0.
    assert far.grad is not None and abs(far.grad.item() - 40.0249) < 1e-3
    # logit with eps: zero gradient on the clamped side, as torch.
    q = t64([0.05, 0.5])
    S.logit(q, eps=0.1).sum().backward()
    assert q.grad is not None and q.grad.tolist()[0] == 0.0 and q.grad.tolist()[1] == 4.0


def test_non_differentiable_functions() -> None:
    x = t64([0.5, 1.0])
    # torch: bessel_j0/j1 results do not require grad, and zeta has no derivative in x.
    assert not S.bessel_j0(x).requires_grad and not S.bessel_j1(x).requires_grad
    out = S.zeta(x + 1.5, t64([1.0, 2.0], grad=False))
    with pytest.raises(NotImplementedError, match=r"special\.zeta"):
        out.sum().backward()
