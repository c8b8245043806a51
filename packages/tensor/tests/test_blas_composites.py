"""addr and addbmm (ember/_blas_composites.py) against numpy, and against torch 2.13 when it is
importable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 5), st.integers(1, 5), st.sampled_from([0, 0.5, 1]), st.sampled_from([1, -2.0])
)
def test_addr_matches_numpy(n: int, m: int, beta: float, alpha: float) -> None:
    rng = np.random.default_rng(n * 7 + m)
    a, u, v = rng.standard_normal((n, m)), rng.standard_normal(n), rng.standard_normal(m)
    result = ember.addr(ember.tensor(a), ember.tensor(u), ember.tensor(v), beta=beta, alpha=alpha)
    np.testing.assert_allclose(result.numpy(), beta * a + alpha * np.outer(u, v), rtol=1e-12)
    method = ember.tensor(a).addr(ember.tensor(u), ember.tensor(v), beta=beta, alpha=alpha)
    np.testing.assert_allclose(method.numpy(), result.numpy())


def test_addr_broadcast_beta_zero_ints_bools_inplace() -> None:
    u, v = ember.tensor([1.0, 2.0]), ember.tensor([3.0, 4.0, 5.0])
    assert ember.addr(ember.tensor([1.0, 0.0, 0.0]), u, v).tolist() == [
        [4.0, 4.0, 5.0],
        [7.0, 8.0, 10.0],
    ]
    nan = ember.full((2, 3), float("nan"))
    assert not ember.addr(nan, u, v, beta=0).isnan().any().item()  # beta=0 ignores input
    ints = ember.addr(ember.tensor([[1], [2]]), ember.tensor([1, 2]), ember.tensor([3]))
    assert ints.tolist() == [[4], [8]] and ints.dtype == ember.int64
    assert ember.addr(
        ember.tensor([[True]]), ember.tensor([True]), ember.tensor([False])
    ).tolist() == [[True]]
    x = ember.zeros(2, 3)
    assert x.addr_(u, v, alpha=2) is x and x.tolist() == [[6.0, 8.0, 10.0], [12.0, 16.0, 20.0]]
    out = ember.empty(0)
    ember.addr(ember.zeros(2, 3), u, v, out=out)
    assert out.tolist() == [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]


def test_addr_bad_input() -> None:
    u, v = ember.ones(2), ember.ones(3)
    with pytest.raises(RuntimeError, match=r"\[addr\] Expected 1-D argument vec1, but got 2-D"):
        ember.addr(ember.ones(2, 3), u.reshape(2, 1), v)
    with pytest.raises(RuntimeError):
        ember.addr(ember.ones(2, 4), u, v)
    with pytest.raises(RuntimeError, match=r"\[addr\] For integral input tensors, argument beta"):
        ember.addr(ember.ones(2, 3, dtype=ember.int64), u.long(), v.long(), beta=0.5)
    with pytest.raises(TypeError, match=r"\[addr\] argument 'alpha' must be Number"):
        ember.addr(ember.ones(2, 3), u, v, alpha="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[addr\] argument 'vec2' must be Tensor"):
        ember.addr(ember.ones(2, 3), u, [1.0])  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match=r"\[addr_\] 2D tensor expected"):
        ember.ones(3).addr_(u, v)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 4), st.integers(1, 4), st.integers(0, 4), st.integers(1, 4))
def test_addbmm_matches_numpy(b: int, n: int, k: int, p: int) -> None:
    rng = np.random.default_rng(b + 10 * n + 100 * k + 1000 * p)
    a, b1, b2 = (
        rng.standard_normal((n, p)),
        rng.standard_normal((b, n, k)),
        rng.standard_normal((b, k, p)),
    )
    result = ember.addbmm(ember.tensor(a), ember.tensor(b1), ember.tensor(b2), beta=0.5, alpha=2)
    expected = 0.5 * a + 2 * np.einsum("bnk,bkp->np", b1, b2)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-12, atol=1e-12)
    x = ember.tensor(a)
    assert x.addbmm_(ember.tensor(b1), ember.tensor(b2), beta=0.5, alpha=2) is x
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_addbmm_broadcast_ints_and_out() -> None:
    ones = ember.ones(4, 2, 5, dtype=ember.int64), ember.ones(4, 5, 3, dtype=ember.int64)
    assert ember.addbmm(ember.ones(2, 3, dtype=ember.int64), *ones).tolist() == [[21] * 3] * 2
    assert ember.addbmm(ember.ones(3), ember.ones(4, 2, 5), ember.ones(4, 5, 3)).shape == (2, 3)
    out = ember.empty(0)
    ember.addbmm(ember.zeros(1, 1), ember.ones(3, 1, 2), ember.ones(3, 2, 1), out=out)
    assert out.tolist() == [[6.0]]
    assert ember.zeros(1, 1).addbmm(ember.ones(3, 1, 2), ember.ones(3, 2, 1)).tolist() == [[6.0]]


def test_addbmm_bad_input() -> None:
    m, b1, b2 = ember.ones(2, 3), ember.ones(4, 2, 5), ember.ones(4, 5, 3)
    with pytest.raises(RuntimeError, match=r"\[addbmm\] batch1 and batch2 must have same number"):
        ember.addbmm(m, b1, ember.ones(3, 5, 3))
    with pytest.raises(RuntimeError, match=r"\[addbmm\] batch1 must be a 3D tensor, got 2D"):
        ember.addbmm(m, b1[0], b2[0])
    with pytest.raises(RuntimeError, match=r"\[addbmm\] Incompatible matrix sizes"):
        ember.addbmm(m, b1, ember.ones(4, 4, 3))
    with pytest.raises(RuntimeError, match=r"\[addbmm\] input of shape \[3, 3\]"):
        ember.addbmm(ember.ones(3, 3), b1, b2)
    with pytest.raises(RuntimeError, match=r"\[addbmm_\] self of shape \[3\]"):
        ember.ones(3).addbmm_(b1, b2)


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    a, u, v = rng.standard_normal((3, 4)), rng.standard_normal(3), rng.standard_normal(4)
    np.testing.assert_allclose(
        ember.addr(ember.tensor(a), ember.tensor(u), ember.tensor(v), beta=0.5, alpha=3).numpy(),
        torch.addr(torch.tensor(a), torch.tensor(u), torch.tensor(v), beta=0.5, alpha=3).numpy(),
    )
    b1, b2 = rng.standard_normal((5, 3, 2)), rng.standard_normal((5, 2, 4))
    np.testing.assert_allclose(
        ember.addbmm(ember.tensor(a), ember.tensor(b1), ember.tensor(b2), alpha=-1).numpy(),
        torch.addbmm(torch.tensor(a), torch.tensor(b1), torch.tensor(b2), alpha=-1).numpy(),
    )
