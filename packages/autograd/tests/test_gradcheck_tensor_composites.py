"""Gradients of ember-tensor's Python composites (ravel, chain_matmul, logit, ldexp, frexp, addr,
addbmm, ...): autograd records the native ops they call, and finite differences (gradcheck) in
float64 are the oracle; torch's gradients are compared when torch is importable."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember
from ember.autograd import gradcheck, gradgradcheck

F64 = ember.float64


def leaf(*shape: int, seed: int, low: float = -1.0, high: float = 1.0) -> ember.Tensor:
    x = np.random.default_rng(seed).uniform(low, high, shape)
    return ember.tensor(x, dtype=F64, requires_grad=True)


def test_ravel_and_neg_views() -> None:
    x = leaf(2, 3, seed=0)
    assert gradcheck(lambda t: t.t().ravel() * ember.arange(6.0, dtype=F64), (x,))
    assert gradcheck(lambda t: ember.resolve_neg(t) * 2, (x,))


def test_chain_matmul() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mats = (leaf(2, 3, seed=1), leaf(3, 4, seed=2), leaf(4, 2, seed=3))
        assert gradcheck(ember.chain_matmul, mats)
        assert gradcheck(lambda a: ember.chain_matmul(a), (mats[0],))


def test_logit() -> None:
    p = leaf(5, seed=4, low=0.05, high=0.95)
    assert gradcheck(ember.logit, (p,))
    assert gradgradcheck(ember.logit, (p,))
    assert gradcheck(lambda t: ember.logit(t, eps=0.3), (p,))  # zero outside [eps, 1 - eps]
    assert gradcheck(lambda t: (t * 1).logit_(0.1), (p,))


def test_ldexp() -> None:
    x = leaf(4, seed=5)
    e = ember.tensor([3, -1, 0, 2])
    assert gradcheck(lambda t: ember.ldexp(t, e), (x,))
    assert gradcheck(lambda t: (t * 1).ldexp_(e), (x,))
    float_e = leaf(4, seed=6)
    assert gradcheck(ember.ldexp, (x, float_e))  # d/de x * 2**e = ln 2 * x * 2**e


def test_frexp_mantissa_gradient() -> None:
    x = leaf(6, seed=7, low=-8.0, high=8.0)
    assert gradcheck(lambda t: ember.frexp(t).mantissa, (x,))
    m, e = ember.frexp(x)
    m.sum().backward()
    assert x.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), 2.0 ** -e.numpy().astype(np.float64))
    assert not e.requires_grad


def test_addr_and_addbmm() -> None:
    a, u, v = leaf(3, 4, seed=8), leaf(3, seed=9), leaf(4, seed=10)
    assert gradcheck(lambda *t: ember.addr(*t, beta=0.5, alpha=-2), (a, u, v))
    assert gradcheck(lambda m, x, y: (m * 1).addr_(x, y, alpha=3), (a, u, v))
    assert gradcheck(lambda m, x, y: ember.addr(m[0], x, y), (a, u, v))  # broadcast input
    m, b1, b2 = leaf(2, 3, seed=11), leaf(4, 2, 5, seed=12), leaf(4, 5, 3, seed=13)
    assert gradcheck(lambda *t: ember.addbmm(*t, beta=2, alpha=0.5), (m, b1, b2))
    assert gradcheck(lambda c, x, y: (c * 1).addbmm_(x, y), (m, b1, b2))


def test_view_scatters() -> None:
    x = leaf(3, 4, seed=14)
    assert gradcheck(lambda a, s: ember.select_scatter(a, s, 1, -1), (x, leaf(3, seed=15)))
    assert gradcheck(
        lambda a, s: ember.slice_scatter(a, s, 1, 1, None, 2), (x, leaf(3, 2, seed=16))
    )
    assert gradcheck(lambda a, s: a.diagonal_scatter(s, 1), (x, leaf(3, seed=17)))


def test_trapezoid_family_and_vander() -> None:
    y, x = leaf(2, 5, seed=18), leaf(5, seed=19)
    assert gradcheck(ember.trapezoid, (y, x))
    assert gradcheck(lambda t: ember.trapz(t, dx=0.5, dim=0), (y,))
    assert gradcheck(ember.cumulative_trapezoid, (y, x))
    assert gradcheck(lambda t: ember.vander(t, 4, increasing=True), (leaf(3, seed=20),))


def test_renorm() -> None:
    x = leaf(3, 4, seed=21, low=-2.0, high=2.0)
    assert gradcheck(lambda t: ember.renorm(t, 2, 0, 1.0), (x,))
    assert gradcheck(lambda t: (t * 1).renorm_(1, 1, 1.5), (x,))


def test_gradient() -> None:
    y = leaf(4, 5, seed=22)
    coords = ember.tensor([0.0, 1.0, 3.0, 4.0, 7.0], dtype=F64)
    assert gradcheck(lambda t: ember.gradient(t, edge_order=2), (y,))
    assert gradcheck(lambda t: ember.gradient(t, spacing=[coords], dim=1), (y,))


def test_against_torch_gradients() -> None:
    torch = pytest.importorskip("torch")
    p = np.array([0.05, 0.3, 0.6, 0.99])
    x = ember.tensor(p, requires_grad=True)
    t = torch.tensor(p, requires_grad=True)
    ember.logit(x, 0.1).sum().backward()
    torch.logit(t, 0.1).sum().backward()
    assert x.grad is not None and t.grad is not None
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy())
    x = ember.tensor([0.75, -3.0, 10.0], dtype=F64, requires_grad=True)
    t = torch.tensor([0.75, -3.0, 10.0], dtype=torch.float64, requires_grad=True)
    ember.frexp(x).mantissa.sum().backward()
    torch.frexp(t).mantissa.sum().backward()
    assert x.grad is not None and t.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())
    a = np.random.default_rng(3).standard_normal((3, 4)) * 2
    x = ember.tensor(a, requires_grad=True)
    t = torch.tensor(a, requires_grad=True)
    ember.renorm(x, 2, 0, 1.0).sum().backward()
    torch.renorm(t, 2, 0, 1.0).sum().backward()
    assert x.grad is not None and t.grad is not None
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-10)
