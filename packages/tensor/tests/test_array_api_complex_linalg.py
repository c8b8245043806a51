"""ember.array_api.linalg on complex64/complex128 against numpy.linalg (and closed forms).

ember.linalg's decompositions are real-only; the namespace reaches complex input through the
real embedding and short column loops (``_linalg_complex.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import raises, to_numpy

xp: Any = ember.ones(1).__array_namespace__()
RNG = np.random.default_rng(5)
DTYPES = [(xp.complex64, np.complex64, 1e-4), (xp.complex128, np.complex128, 1e-10)]
IDS = ["complex64", "complex128"]


def cplx(*shape: int, dtype: Any = np.complex128) -> np.ndarray:
    return (RNG.normal(size=shape) + 1j * RNG.normal(size=shape)).astype(dtype)


def adjoint(a: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(a, -1, -2))


def hermitian_pd(*batch: int, n: int = 4, dtype: Any = np.complex128) -> np.ndarray:
    s = cplx(*batch, n, n)
    return (s @ adjoint(s) + n * np.eye(n)).astype(dtype)


def near(actual: Any, expected: np.ndarray, tol: float) -> None:
    got = to_numpy(actual)
    assert got.shape == np.shape(expected), (got.shape, np.shape(expected))
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), DTYPES, ids=IDS)
@pytest.mark.parametrize("shape", [(3, 4), (2, 5, 3), (0, 2), (1, 1)])
def test_svdvals_and_matrix_rank(dtype: Any, np_dtype: Any, tol: float, shape: Any) -> None:
    a = cplx(*shape, dtype=np_dtype)
    values = xp.linalg.svdvals(xp.asarray(a))
    assert values.dtype == (xp.float32 if dtype == xp.complex64 else xp.float64)
    near(values, np.linalg.svdvals(a), tol)
    rank = xp.linalg.matrix_rank(xp.asarray(a))
    assert to_numpy(rank).tolist() == np.linalg.matrix_rank(a).tolist() and rank.dtype == xp.int64


def test_matrix_rank_of_rank_deficient_and_rtol() -> None:
    a = cplx(5, 2) @ cplx(2, 4)  # rank 2
    assert int(xp.linalg.matrix_rank(xp.asarray(a))) == 2
    assert int(xp.linalg.matrix_rank(xp.asarray(a), rtol=0.999)) == 1
    stack = np.stack([a, cplx(5, 4)])
    assert to_numpy(xp.linalg.matrix_rank(xp.asarray(stack))).tolist() == [2, 4]


@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), DTYPES, ids=IDS)
def test_eigvalsh_and_eigh(dtype: Any, np_dtype: Any, tol: float) -> None:
    h = hermitian_pd(2, n=4, dtype=np_dtype)
    near(xp.linalg.eigvalsh(xp.asarray(h)), np.linalg.eigvalsh(h), tol * 10)
    values, vectors = xp.linalg.eigh(xp.asarray(h))
    assert vectors.dtype == dtype and values.dtype == xp.real(xp.asarray(h)).dtype
    w, v = to_numpy(values), to_numpy(vectors)
    np.testing.assert_allclose(w, np.linalg.eigvalsh(h), rtol=tol * 10, atol=tol * 10)
    np.testing.assert_allclose(h @ v, v * w[..., None, :], atol=tol * 100)
    np.testing.assert_allclose(adjoint(v) @ v, np.broadcast_to(np.eye(4), v.shape), atol=tol * 10)


def test_eigh_uses_the_lower_triangle_and_handles_repeated_eigenvalues() -> None:
    u, _ = np.linalg.qr(cplx(4, 4))
    h = u @ np.diag([1.0, 1.0, 1.0, 3.0]) @ adjoint(u)  # a three-fold eigenvalue
    junk_upper = np.tril(h) + np.triu(cplx(4, 4), 1)  # the upper triangle is never read
    values, vectors = xp.linalg.eigh(xp.asarray(junk_upper))
    v = to_numpy(vectors)
    np.testing.assert_allclose(to_numpy(values), [1.0, 1.0, 1.0, 3.0], atol=1e-12)
    np.testing.assert_allclose(h @ v, v * np.array([1.0, 1.0, 1.0, 3.0]), atol=1e-12)
    np.testing.assert_allclose(adjoint(v) @ v, np.eye(4), atol=1e-12)
    near(xp.linalg.eigvalsh(xp.asarray(junk_upper)), np.linalg.eigvalsh(h, UPLO="L"), 1e-12)
    empty = xp.linalg.eigh(xp.zeros((0, 0), dtype=xp.complex64))
    assert empty.eigenvalues.shape == (0,) and empty.eigenvectors.shape == (0, 0)


@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), DTYPES, ids=IDS)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3), (1, 1), (0, 2), (3, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dtype: Any, np_dtype: Any, tol: float, shape: Any, mode: str) -> None:
    a = cplx(*shape, dtype=np_dtype)
    q, r = xp.linalg.qr(xp.asarray(a), mode=mode)
    nq, nr = np.linalg.qr(a, mode=mode)
    assert q.dtype == dtype and r.dtype == dtype
    assert q.shape == nq.shape and r.shape == nr.shape
    qn, rn = to_numpy(q), to_numpy(r)
    np.testing.assert_allclose(qn @ rn, a, atol=tol * 10)
    eye = np.broadcast_to(np.eye(qn.shape[-1]), (*adjoint(qn).shape[:-1], qn.shape[-1]))
    np.testing.assert_allclose(adjoint(qn) @ qn, eye, atol=tol * 10)
    assert np.all(np.tril(rn, -1) == 0)


@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), DTYPES, ids=IDS)
def test_cholesky(dtype: Any, np_dtype: Any, tol: float) -> None:
    h = hermitian_pd(3, n=4, dtype=np_dtype)
    lower = xp.linalg.cholesky(xp.asarray(h))
    assert lower.dtype == dtype
    near(lower, np.linalg.cholesky(h), tol * 10)
    near(xp.linalg.cholesky(xp.asarray(h), upper=True), np.linalg.cholesky(h, upper=True), tol * 10)
    raises(
        ember.linalg.LinAlgError,
        "linalg.cholesky",
        lambda: xp.linalg.cholesky(xp.asarray(-h)),
        "positive-definite",
    )
    assert xp.linalg.cholesky(xp.zeros((0, 0), dtype=dtype)).shape == (0, 0)


@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), DTYPES, ids=IDS)
def test_slogdet(dtype: Any, np_dtype: Any, tol: float) -> None:
    a = cplx(2, 3, 3, dtype=np_dtype)
    sign, logabsdet = xp.linalg.slogdet(xp.asarray(a))
    expected_sign, expected_log = np.linalg.slogdet(a)
    assert sign.dtype == dtype and logabsdet.dtype == xp.real(xp.asarray(a)).dtype
    near(sign, expected_sign, tol * 10)
    near(logabsdet, expected_log, tol * 10)
    singular = xp.linalg.slogdet(xp.zeros((2, 2), dtype=dtype))
    assert complex(singular.sign) == 0 and float(singular.logabsdet) == -np.inf
    empty = xp.linalg.slogdet(xp.zeros((0, 0), dtype=dtype))
    assert complex(empty.sign) == 1 and float(empty.logabsdet) == 0


def test_slogdet_does_not_overflow_where_det_would() -> None:
    a = (cplx(60, 60) * 1e7).astype(np.complex64)  # |det| ~ 1e450: beyond float32 and float64
    sign, logabsdet = xp.linalg.slogdet(xp.asarray(a))
    expected_sign, expected_log = np.linalg.slogdet(a.astype(np.complex128))
    assert abs(complex(sign) - expected_sign) < 1e-3
    assert abs(float(logabsdet) - expected_log) < 1e-3 * abs(expected_log)


def test_pinv_and_matrix_power_and_mixed_matmul() -> None:
    a = cplx(3, 3)
    near(xp.linalg.matrix_power(xp.asarray(a), -2), np.linalg.matrix_power(a, -2), 1e-10)
    near(xp.linalg.matrix_power(xp.asarray(a), 3), np.linalg.matrix_power(a, 3), 1e-10)
    empty = xp.linalg.matrix_power(xp.zeros((0, 0), dtype=xp.complex64), -1)
    assert empty.shape == (0, 0) and empty.dtype == xp.complex64
    x8, x16 = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([3, 4], dtype=xp.int16)
    assert int(xp.matmul(x8, x16)) == 11 and xp.matmul(x8, x16).dtype == xp.int16


@pytest.mark.parametrize(("dtype", "np_dtype", "tol"), DTYPES, ids=IDS)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 5, 5), (1, 1), (6, 2), (0, 3), (3, 0)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd(dtype: Any, np_dtype: Any, tol: float, shape: Any, full_matrices: bool) -> None:
    a = cplx(*shape, dtype=np_dtype)
    u, s, vh = xp.linalg.svd(xp.asarray(a), full_matrices=full_matrices)
    nu, ns, nvh = np.linalg.svd(a, full_matrices=full_matrices)
    assert (u.shape, s.shape, vh.shape) == (nu.shape, ns.shape, nvh.shape)
    assert u.dtype == dtype and vh.dtype == dtype and s.dtype == xp.real(xp.asarray(a)).dtype
    un, sn, vhn = to_numpy(u), to_numpy(s), to_numpy(vh)
    np.testing.assert_allclose(sn, ns, atol=tol * 10)
    k = min(shape[-2:])
    np.testing.assert_allclose((un[..., :k] * sn[..., None, :]) @ vhn[..., :k, :], a, atol=tol * 10)
    for q in (un, adjoint(vhn)):  # orthonormal columns
        eye = np.broadcast_to(np.eye(q.shape[-1]), (*q.shape[:-2], q.shape[-1], q.shape[-1]))
        np.testing.assert_allclose(adjoint(q) @ q, eye, atol=tol * 10)


def test_svd_of_rank_deficient_and_repeated_singular_values() -> None:
    for a in (
        np.eye(4, dtype=complex) * (1 + 1j),
        np.zeros((3, 3), complex),
        cplx(5, 2) @ cplx(2, 4),
    ):
        u, s, vh = (to_numpy(t) for t in xp.linalg.svd(xp.asarray(a)))
        np.testing.assert_allclose(s, np.linalg.svd(a)[1], atol=1e-12)
        np.testing.assert_allclose((u[:, : len(s)] * s) @ vh[: len(s)], a, atol=1e-12)
        np.testing.assert_allclose(adjoint(u) @ u, np.eye(u.shape[0]), atol=1e-12)
        np.testing.assert_allclose(vh @ adjoint(vh), np.eye(vh.shape[0]), atol=1e-12)


@given(
    m=st.integers(1, 4),
    n=st.integers(1, 4),
    data=st.data(),
)
def test_qr_reconstructs_any_shape(m: int, n: int, data: st.DataObject) -> None:
    mode = data.draw(st.sampled_from(["reduced", "complete"]))
    a = cplx(m, n)
    q, r = xp.linalg.qr(xp.asarray(a), mode=mode)
    np.testing.assert_allclose(to_numpy(q) @ to_numpy(r), a, atol=1e-10)


def test_qr_and_svd_of_huge_values_do_not_overflow() -> None:
    # |column|**2 exceeds float64's range: the factorisations scale by the largest magnitude.
    a = np.array([[6.8831e153j], [1.1506e154j]])
    q, r = (to_numpy(t) for t in xp.linalg.qr(xp.asarray(a)))
    assert np.all(np.isfinite(q)) and np.all(np.isfinite(r))
    np.testing.assert_allclose(q @ r, a, rtol=1e-12)
    b = np.array([[1e300 + 1e300j, 1e300], [2e300, -1e300j]])
    u, s, vh = (to_numpy(t) for t in xp.linalg.svd(xp.asarray(b)))
    np.testing.assert_allclose(s, np.linalg.svd(b)[1], rtol=1e-12)
    np.testing.assert_allclose((u * s) @ vh, b, rtol=0, atol=1e-12 * 1e300)
