"""linalg.matrix_exp and linalg.solve_triangular against scipy and closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg

import ember

HAS_AUTOGRAD = ember._C._has_grad_recorder()


@pytest.mark.parametrize("scale", [0.01, 1.0, 30.0])
@pytest.mark.parametrize("dtype", [ember.float64, ember.complex128])
def test_matrix_exp_matches_scipy(scale: float, dtype: ember.dtype) -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 4, 4)) * scale / 4
    if dtype == ember.complex128:
        a = a + 1j * rng.normal(size=(3, 4, 4)) * scale / 4
    got = ember.linalg.matrix_exp(ember.from_numpy(a)).numpy()
    want = np.stack([scipy.linalg.expm(m) for m in a])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12 * np.abs(want).max())


def test_matrix_exp_closed_forms() -> None:
    t = 0.7
    rot = ember.linalg.matrix_exp(ember.tensor([[0.0, -t], [t, 0.0]], dtype=ember.float64))
    np.testing.assert_allclose(
        rot.numpy(), [[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]
    )
    nil = ember.linalg.matrix_exp(ember.tensor([[0.0, 1.0], [0.0, 0.0]]))
    assert nil.tolist() == [[1.0, 1.0], [0.0, 1.0]]
    d = ember.linalg.matrix_exp(ember.tensor([[1.0, 0.0], [0.0, -2.0]], dtype=ember.float64))
    np.testing.assert_allclose(d.numpy(), np.diag([math.e, math.exp(-2)]))
    f32 = ember.matrix_exp(ember.eye(3) * 2)
    assert f32.dtype == ember.float32
    np.testing.assert_allclose(f32.numpy(), np.eye(3) * math.exp(2), rtol=1e-6)
    assert ember.eye(2).matrix_exp().shape == (2, 2)
    assert ember.linalg.matrix_exp(ember.zeros(0, 0)).shape == (0, 0)


def test_matrix_exp_errors() -> None:
    with pytest.raises(RuntimeError, match="square"):
        ember.linalg.matrix_exp(ember.zeros(2, 3))
    with pytest.raises(RuntimeError, match="at least 2 dimensions"):
        ember.linalg.matrix_exp(ember.zeros(3))
    with pytest.raises(RuntimeError, match="floating point"):
        ember.linalg.matrix_exp(ember.zeros(2, 2, dtype=ember.int64))
    with pytest.raises(TypeError):
        ember.linalg.matrix_exp([[1.0]])


@pytest.mark.parametrize("upper", [True, False])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("unit", [True, False])
def test_solve_triangular_matches_scipy(upper: bool, left: bool, unit: bool) -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(size=(2, 4, 4)) + 4 * np.eye(4)  # the other triangle is junk: ignored
    b = rng.normal(size=(2, 4, 3)) if left else rng.normal(size=(2, 3, 4))
    got = ember.linalg.solve_triangular(
        ember.from_numpy(a), ember.from_numpy(b), upper=upper, left=left, unitriangular=unit
    ).numpy()
    for k in range(2):
        if left:
            want = scipy.linalg.solve_triangular(a[k], b[k], lower=not upper, unit_diagonal=unit)
        else:  # X A = B  <=>  A^T X^T = B^T
            want = scipy.linalg.solve_triangular(a[k].T, b[k].T, lower=upper, unit_diagonal=unit).T
        np.testing.assert_allclose(got[k], want, rtol=1e-10)


def test_solve_triangular_errors() -> None:
    A = ember.eye(3)
    with pytest.raises(TypeError, match="upper"):
        ember.linalg.solve_triangular(A, A)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="upper"):
        ember.linalg.solve_triangular(A, A, upper=1)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="square"):
        ember.linalg.solve_triangular(ember.zeros(2, 3), A, upper=True)


@pytest.mark.skipif(not HAS_AUTOGRAD, reason="needs ember-autograd")
def test_gradients() -> None:
    rng = np.random.default_rng(2)
    a = ember.tensor(rng.normal(size=(3, 3)).tolist(), dtype=ember.float64, requires_grad=True)
    assert ember.autograd.gradcheck(ember.linalg.matrix_exp, (a,))
    t = ember.tensor((rng.normal(size=(3, 3)) + 3 * np.eye(3)).tolist(), dtype=ember.float64,
                     requires_grad=True)  # fmt: skip
    b = ember.tensor(rng.normal(size=(3, 2)).tolist(), dtype=ember.float64, requires_grad=True)
    assert ember.autograd.gradcheck(
        lambda A, B: ember.linalg.solve_triangular(A, B, upper=True), (t, b)
    )


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.array([[0.1, 0.5], [-0.3, 0.2]])
    np.testing.assert_allclose(
        ember.linalg.matrix_exp(ember.from_numpy(a)).numpy(),
        torch.linalg.matrix_exp(torch.from_numpy(a)).numpy(),
        rtol=1e-12,
    )
