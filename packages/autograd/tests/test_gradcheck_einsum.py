"""Gradients of einsum in every equation form: '...', repeated letters, implicit output, broadcast.

Finite differences (gradcheck, gradgradcheck) are the oracle; a numpy closed form checks the
diagonal case by value as well.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from ember.autograd import gradcheck, gradgradcheck

F64 = ember.float64


def leaf(*shape: int, seed: int) -> ember.Tensor:
    x = np.random.default_rng(seed).standard_normal(shape)
    return ember.tensor(x, dtype=F64, requires_grad=True)


CASES = [
    ("ii->i", [(3, 3)]),
    ("ii", [(4, 4)]),
    ("iij->j", [(3, 3, 2)]),
    ("iii->i", [(2, 2, 2)]),
    ("ijij->ij", [(2, 3, 2, 3)]),
    ("ii,i->i", [(3, 3), (3,)]),
    ("ij,jj->i", [(2, 3), (3, 3)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 2)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
    ("i...->...", [(3, 2, 2)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("b...i,b...i->b", [(2, 3, 4), (2, 3, 4)]),
    ("...,...", [(2, 3), (3,)]),
    ("ij,ij->ij", [(1, 3), (2, 3)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("i,j", [(2,), (3,)]),
    ("ba,ab", [(2, 3), (3, 2)]),
    ("ij->", [(2, 3)]),
    (" i j , j k -> i k ", [(2, 3), (3, 2)]),
]


@pytest.mark.parametrize(("equation", "shapes"), CASES, ids=[c[0] for c in CASES])
def test_einsum_gradcheck(equation: str, shapes: list[tuple[int, ...]]) -> None:
    operands = [leaf(*s, seed=k) for k, s in enumerate(shapes)]
    assert gradcheck(lambda *ops: ember.einsum(equation, *ops), operands)
    assert gradgradcheck(lambda *ops: ember.einsum(equation, *ops), operands)


COMPLEX_CASES = [
    ("ij,jk->ik", [(2, 3), (3, 2)]),
    ("ii->i", [(3, 3)]),
    ("...ij,...jk", [(2, 2, 3), (3, 2)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
]


@pytest.mark.parametrize(("equation", "shapes"), COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_complex_einsum_gradcheck(equation: str, shapes: list[tuple[int, ...]]) -> None:
    rng = np.random.default_rng(7)
    operands = [
        ember.tensor(
            rng.standard_normal(s) + 1j * rng.standard_normal(s),
            dtype=ember.complex128,
            requires_grad=True,
        )
        for s in shapes
    ]
    assert gradcheck(lambda *ops: ember.einsum(equation, *ops), operands)
    assert gradgradcheck(lambda *ops: ember.einsum(equation, *ops), operands)


def test_einsum_list_form_gradcheck() -> None:
    a, b = leaf(2, 2, seed=0), leaf(2, seed=1)
    assert gradcheck(lambda x, y: ember.einsum("ii,i->i", [x, y]), [a, b])


def test_diagonal_gradient_is_identity_times_gradient() -> None:
    x = leaf(4, 4, seed=3)
    g = np.arange(4.0)
    ember.einsum("ii->i", x).backward(ember.tensor(g, dtype=F64))
    assert x.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), np.diag(g))


def test_trace_gradient_of_a_repeated_letter_with_a_summed_letter() -> None:
    x = leaf(3, 3, 2, seed=4)
    ember.einsum("iij->", x).backward()
    assert x.grad is not None
    expected = np.broadcast_to(np.eye(3)[:, :, None], (3, 3, 2))
    np.testing.assert_array_equal(x.grad.numpy(), expected)


@settings(max_examples=25, deadline=None)
@given(
    batch=st.lists(st.integers(1, 3), max_size=2),
    n=st.integers(1, 3),
    m=st.integers(1, 3),
)
def test_batched_matmul_by_ellipsis_matches_matmul_gradients(
    batch: list[int], n: int, m: int
) -> None:
    a, b = leaf(*batch, n, m, seed=n), leaf(m, n, seed=m)
    ember.einsum("...ij,jk->...ik", a, b).sum().backward()
    a2, b2 = a.detach().requires_grad_(), b.detach().requires_grad_()
    (a2 @ b2).sum().backward()
    assert a.grad is not None and a2.grad is not None and b.grad is not None
    assert b2.grad is not None
    np.testing.assert_allclose(a.grad.numpy(), a2.grad.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), b2.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_einsum_sublist_form_gradcheck() -> None:
    a, b = leaf(2, 3, seed=5), leaf(3, 3, seed=6)
    assert gradcheck(lambda x, y: ember.einsum(x, [0, 1], y, [1, 1], [0, 1]), [a, b])
