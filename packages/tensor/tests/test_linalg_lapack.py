"""ember.linalg against numpy.linalg: values over dtypes, batches, empty and non-contiguous inputs,
torch's error types and messages, the ``_ex`` info results, and generated bad input."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz_api import EXEMPT_TYPE_ERRORS, SCALARS, TENSOR_MAKERS, deadline

import ember
import ember.linalg as LA
from conftest import VIEW_LAYOUTS, assert_close, raises, to_numpy, with_layout

FLOATS = [ember.float32, ember.float64]
NP = {ember.float32: np.float32, ember.float64: np.float64}
# Matrix results go through O(n^3) rounding: looser than elementwise tolerances.
TOL = {ember.float32: dict(rtol=2e-4, atol=2e-4), ember.float64: dict(rtol=1e-10, atol=1e-10)}
BATCHES = [(), (3,), (2, 2), (0,)]


def rand(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(NP[dtype])


def well_conditioned(batch: tuple[int, ...], n: int, dtype: Any, seed: int = 0) -> np.ndarray:
    """Random square matrices with the diagonal pushed away from singularity."""
    return (rand((*batch, n, n), dtype, seed) + 3 * n * np.eye(n)).astype(NP[dtype])


def spd(batch: tuple[int, ...], n: int, dtype: Any, seed: int = 0) -> np.ndarray:
    a = rand((*batch, n, n), dtype, seed).astype(np.float64)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(NP[dtype])


def tensor(a: np.ndarray, layout: str = "contiguous") -> ember.Tensor:
    return ember.from_numpy(with_layout(a, layout))


def close(actual: ember.Tensor, expected: np.ndarray, dtype: Any) -> None:
    assert_close(actual, expected, dtype=dtype, **TOL[dtype])


def fresh(t: ember.Tensor) -> None:
    """Results are new contiguous tensors."""
    assert t.is_contiguous()


# --- values against numpy ----------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("batch", BATCHES)
def test_inv_det_slogdet_solve(dtype: Any, layout: str, batch: tuple[int, ...]) -> None:
    a = well_conditioned(batch, 4, dtype)
    b = rand((*batch, 4, 3), dtype, 1)
    A, B = tensor(a, layout), tensor(b, layout)
    inv = LA.inv(A)
    fresh(inv)
    close(inv, np.linalg.inv(a), dtype)
    close(LA.det(A), np.linalg.det(a), dtype)
    sign, logabs = LA.slogdet(A)
    ref_sign, ref_logabs = np.linalg.slogdet(a)
    close(sign, ref_sign, dtype)
    close(logabs, ref_logabs, dtype)
    close(LA.solve(A, B), np.linalg.solve(a, b), dtype)
    # left=False: X A = B.
    bt = np.swapaxes(b, -1, -2)
    expected = np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), b), -1, -2)
    close(LA.solve(A, tensor(bt, layout), left=False), expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_solve_vector_rhs_and_broadcasting(dtype: Any) -> None:
    a = well_conditioned((2,), 3, dtype)
    v = rand((2, 3), dtype, 1)
    # B with A's shape minus one dim is a batch of vectors (torch's rule).
    close(LA.solve(tensor(a), tensor(v)), np.linalg.solve(a, v[..., None])[..., 0], dtype)
    close(LA.solve(tensor(a), tensor(v[0])), np.linalg.solve(a, v[0][:, None])[..., 0], dtype)
    b = rand((5, 1, 3, 2), dtype, 2)
    out = LA.solve(tensor(a), tensor(b))
    assert tuple(out.shape) == (5, 2, 3, 2)
    close(out, np.linalg.solve(a, b), dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dtype: Any, layout: str, upper: bool) -> None:
    a = spd((2,), 5, dtype)
    expected = np.linalg.cholesky(a)
    if upper:
        expected = np.swapaxes(expected, -1, -2)
    # Only one triangle is read: garbage in the other must not matter.
    garbage = a + (np.triu(np.ones(5), 1) if not upper else np.tril(np.ones(5), -1)) * 100
    close(LA.cholesky(tensor(garbage.astype(NP[dtype]), layout), upper=upper), expected, dtype)
    L, info = LA.cholesky_ex(tensor(a, layout), upper=upper)
    close(L, expected, dtype)
    assert info.tolist() == [0, 0] and info.dtype == ember.int32
    close(ember.cholesky(tensor(a), upper), expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 6, 2), (0, 3), (3, 0), (2, 0, 0)])
@pytest.mark.parametrize("mode", ["reduced", "complete", "r"])
def test_qr(dtype: Any, shape: tuple[int, ...], mode: str) -> None:
    a = rand(shape, dtype)
    Q, R = LA.qr(tensor(a, "transposed"), mode=mode)
    if mode == "r":
        assert tuple(Q.shape) == (0,)
        np.testing.assert_allclose(np.abs(to_numpy(R)), np.abs(np.linalg.qr(a, "r")), **TOL[dtype])
        return
    q_ref, r_ref = np.linalg.qr(a, mode=mode)
    assert tuple(Q.shape) == q_ref.shape and tuple(R.shape) == r_ref.shape
    q, r = to_numpy(Q), to_numpy(R)
    np.testing.assert_allclose(q @ r, a, **TOL[dtype])
    np.testing.assert_allclose(np.triu(r), r)
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ q, eye, **TOL[dtype])
    np.testing.assert_allclose(np.abs(r), np.abs(r_ref), **TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (3, 2, 4), (0, 3), (3, 0)])
@pytest.mark.parametrize("full", [False, True])
def test_svd(dtype: Any, shape: tuple[int, ...], full: bool) -> None:
    a = rand(shape, dtype)
    U, S, Vh = LA.svd(tensor(a, "strided"), full_matrices=full)
    u_ref, s_ref, vh_ref = np.linalg.svd(a, full_matrices=full)
    assert (tuple(U.shape), tuple(S.shape), tuple(Vh.shape)) == (
        u_ref.shape,
        s_ref.shape,
        vh_ref.shape,
    )
    close(S, s_ref, dtype)
    close(LA.svdvals(tensor(a)), s_ref, dtype)
    k = min(shape[-2:])
    u, s, vh = to_numpy(U), to_numpy(S), to_numpy(Vh)
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, **TOL[dtype])
    for m in (u, np.swapaxes(vh, -1, -2)):
        eye = np.broadcast_to(np.eye(m.shape[-1]), m.shape[:-2] + (m.shape[-1],) * 2)
        np.testing.assert_allclose(np.swapaxes(m, -1, -2) @ m, eye, **TOL[dtype])
    # torch.svd: V rather than Vh, `some` for the reduced form.
    _, _, V2 = ember.svd(tensor(a), some=not full)
    np.testing.assert_allclose(to_numpy(V2), np.swapaxes(vh, -1, -2), **TOL[dtype])


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("batch", BATCHES)
def test_eigh(dtype: Any, uplo: str, batch: tuple[int, ...]) -> None:
    a = rand((*batch, 5, 5), dtype)
    sym = a + np.swapaxes(a, -1, -2)
    w_ref = np.linalg.eigvalsh(sym)
    # Only the UPLO triangle is read.
    garbage = sym + (np.triu(np.ones(5), 1) if uplo == "L" else np.tril(np.ones(5), -1)) * 100
    w, Q = LA.eigh(tensor(garbage.astype(NP[dtype]), "transposed"), UPLO=uplo)
    close(w, w_ref, dtype)
    close(LA.eigvalsh(tensor(garbage.astype(NP[dtype])), uplo), w_ref, dtype)
    q = to_numpy(Q)
    np.testing.assert_allclose(sym @ q, q * to_numpy(w)[..., None, :], rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("driver", ["gels", "gelsy", "gelsd", "gelss"])
@pytest.mark.parametrize("shape", [(6, 3), (3, 6), (4, 4), (2, 5, 3)])
def test_lstsq(dtype: Any, driver: str, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    b = rand((*shape[:-1], 2), dtype, 1)
    result = LA.lstsq(tensor(a, "transposed"), tensor(b, "negative"), driver=driver)
    m, n = shape[-2:]
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    x_ref = np.linalg.pinv(a64) @ b64
    tol = dict(rtol=1e-3, atol=1e-3) if dtype == ember.float32 else TOL[dtype]
    np.testing.assert_allclose(to_numpy(result.solution), x_ref, **tol)
    if m > n and driver != "gelsy":
        expected = ((a64 @ x_ref - b64) ** 2).sum(-2)
        np.testing.assert_allclose(to_numpy(result.residuals), expected, **tol)
    else:
        assert tuple(result.residuals.shape) == (0,)
    if driver == "gels":
        assert tuple(result.rank.shape) == (0,)
    else:
        assert result.rank.dtype == ember.int64
        assert (to_numpy(result.rank) == min(m, n)).all()
    if driver in ("gelsd", "gelss"):
        np.testing.assert_allclose(
            to_numpy(result.singular_values), np.linalg.svd(a64, compute_uv=False), **tol
        )
    else:
        assert tuple(result.singular_values.shape) == (0,)


def test_lstsq_vector_rank_deficient_rcond_and_empty() -> None:
    a = np.array([[1.0, 0.0], [0.0, 1e-3], [0.0, 0.0]])
    r = LA.lstsq(tensor(a), tensor(np.ones((3, 1))), rcond=1e-2, driver="gelsd")
    assert r.rank.item() == 1
    np.testing.assert_allclose(to_numpy(r.solution), [[1.0], [0.0]], atol=1e-12)
    assert tuple(r.residuals.shape) == (0,)  # not full rank
    v = LA.lstsq(tensor(rand((2, 5, 3), ember.float64)), tensor(rand((2, 5), ember.float64)))
    assert tuple(v.solution.shape) == (2, 3)
    empty = LA.lstsq(ember.zeros(0, 2, dtype=ember.float64), ember.zeros(0, 1, dtype=ember.float64))
    assert empty.solution.tolist() == [[0.0], [0.0]]
    tall = LA.lstsq(ember.zeros(3, 0), ember.ones(3, 1), driver="gelsd")
    assert tuple(tall.solution.shape) == (0, 1) and tall.residuals.tolist() == [3.0]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5), (5, 3), (0, 0)])
def test_lu_factor_lu_solve_lu(dtype: Any, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    LU, pivots = LA.lu_factor(tensor(a, "strided"))
    k = min(shape[-2:])
    assert pivots.dtype == ember.int32 and tuple(pivots.shape) == (*shape[:-2], k)
    P, L, U = LA.lu(tensor(a))
    np.testing.assert_allclose(to_numpy(P @ L @ U), a, **TOL[dtype])
    P2, L2, U2 = ember.lu_unpack(LU, pivots)
    np.testing.assert_allclose(to_numpy(P2 @ L2 @ U2), a, **TOL[dtype])
    if shape[-1] != shape[-2] or shape[-1] == 0:
        return
    a = well_conditioned(shape[:-2], shape[-1], dtype)
    b = rand((*shape[:-1], 2), dtype, 1)
    LU, pivots, info = LA.lu_factor_ex(tensor(a))
    assert (to_numpy(info) == 0).all()
    close(LA.lu_solve(LU, pivots, tensor(b)), np.linalg.solve(a, b), dtype)
    at = np.swapaxes(a, -1, -2)
    close(LA.lu_solve(LU, pivots, tensor(b), adjoint=True), np.linalg.solve(at, b), dtype)
    bt = np.swapaxes(b, -1, -2)
    expected = np.swapaxes(np.linalg.solve(at, b), -1, -2)
    close(LA.lu_solve(LU, pivots, tensor(bt), left=False), expected, dtype)


@pytest.mark.parametrize("dtype", FLOATS)
def test_empty_matrices(dtype: Any) -> None:
    e = ember.zeros(2, 0, 0, dtype=dtype)
    assert LA.det(e).tolist() == [1.0, 1.0]
    assert LA.slogdet(e).logabsdet.tolist() == [0.0, 0.0]
    assert tuple(LA.inv(e).shape) == (2, 0, 0)
    assert tuple(LA.cholesky(e).shape) == (2, 0, 0)
    assert tuple(LA.eigh(e).eigenvalues.shape) == (2, 0)
    assert tuple(LA.inv(ember.zeros(0, 3, 3, dtype=dtype)).shape) == (0, 3, 3)
    U, S, Vh = LA.svd(ember.zeros(0, 3, dtype=dtype))
    assert tuple(U.shape) == (0, 0) and tuple(S.shape) == (0,)
    np.testing.assert_array_equal(to_numpy(Vh), np.eye(3))
    assert tuple(LA.pinv(ember.zeros(2, 0, 3, dtype=dtype)).shape) == (2, 3, 0)
    assert LA.matrix_rank(ember.zeros(0, 3, dtype=dtype)).item() == 0
    assert LA.cond(ember.zeros(0, 0, dtype=dtype)).item() == 0


def test_many_small_matrices_match_one_by_one() -> None:
    """The batch loop is split over the pool: each matrix must get its own answer."""
    a = well_conditioned((257,), 3, ember.float64)
    close(LA.inv(tensor(a)), np.linalg.inv(a), ember.float64)
    close(LA.det(tensor(a)), np.linalg.det(a), ember.float64)
    close(LA.svdvals(tensor(a)), np.linalg.svd(a, compute_uv=False), ember.float64)


# --- composites ------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", [2, 1, 0, 3.5, -1, math.inf, -math.inf])
@pytest.mark.parametrize("dim", [None, 0, -1, (0, 2)])
def test_vector_norm(dtype: Any, ord: float, dim: Any) -> None:
    x = rand((3, 4, 5), dtype)
    close(LA.vector_norm(tensor(x, "transposed"), ord, dim), _np_vector_norm(x, ord, dim), dtype)
    kept = LA.vector_norm(tensor(x), ord, dim, keepdim=True)
    assert kept.dim() == 3


def _np_vector_norm(x: np.ndarray, ord: float, axis: Any) -> np.ndarray:
    a = np.abs(x.astype(np.float64))
    if ord == math.inf:
        return a.max(axis=axis)
    if ord == -math.inf:
        return a.min(axis=axis)
    if ord == 0:
        return (a != 0).sum(axis=axis).astype(np.float64)
    return (a**ord).sum(axis=axis) ** (1 / ord)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("ord", ["fro", "nuc", math.inf, -math.inf, 1, -1, 2, -2])
@pytest.mark.parametrize("dim", [(-2, -1), (0, 2), (2, 0)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_matrix_norm(dtype: Any, ord: Any, dim: tuple[int, int], keepdim: bool) -> None:
    x = rand((3, 4, 5), dtype)
    ref = np.linalg.norm(x.astype(np.float64), ord, axis=dim, keepdims=keepdim)
    close(LA.matrix_norm(tensor(x, "strided"), ord, dim, keepdim), ref, dtype)
    close(LA.norm(tensor(x), ord, dim, keepdim), ref, dtype)


def test_norm_dispatch_and_dtype() -> None:
    x = rand((3, 4), ember.float64)
    close(LA.norm(tensor(x)), np.linalg.norm(x), ember.float64)
    close(LA.norm(tensor(x[0]), 3), np.linalg.norm(x[0], 3), ember.float64)
    close(LA.norm(tensor(x), 1), np.linalg.norm(x, 1), ember.float64)  # 2-D: matrix norm
    close(LA.norm(tensor(x), dim=1), np.linalg.norm(x, axis=1), ember.float64)
    half = LA.vector_norm(ember.ones(4, dtype=ember.float16))
    assert half.dtype == ember.float16 and half.item() == 2.0
    widened = LA.vector_norm(ember.ones(4), dtype=ember.float64)
    assert widened.dtype == ember.float64
    assert LA.matrix_norm(ember.zeros(0, 2), math.inf).item() == 0.0
    assert LA.matrix_norm(ember.zeros(0, 2), "nuc").item() == 0.0


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("p", [None, 2, -2, "fro", "nuc", math.inf, -math.inf, 1, -1])
def test_cond(dtype: Any, p: Any) -> None:
    a = well_conditioned((2,), 4, dtype)
    close(LA.cond(tensor(a), p), np.linalg.cond(a.astype(np.float64), p), dtype)
    singular = tensor(np.ones((3, 3), NP[dtype]))
    value = LA.cond(singular, p).item()
    if p in (None, 2, -2):
        # From the singular values: OpenBLAS's AVX-512 (SkylakeX) kernels leave the smallest one
        # at ~5e-22 instead of 0 for ones((3, 3)), so the ratio is huge rather than infinite.
        eps = float(np.finfo(NP[dtype]).eps)
        assert (value <= eps) if p == -2 else (value >= 1 / eps)
    else:
        assert value == math.inf  # from the inverse: LU finds the exact zero pivot


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (2, 3, 5)])
def test_pinv_matrix_rank(dtype: Any, shape: tuple[int, ...]) -> None:
    a = rand(shape, dtype)
    a[..., 0] = a[..., 1]  # rank deficient
    sym = (a @ np.swapaxes(a, -1, -2)).astype(NP[dtype])
    # A cutoff far from both the zero and the non-zero singular values, given to both libraries.
    rtol = 1e-4 if dtype == ember.float32 else 1e-10
    tol = TOL[dtype] if dtype == ember.float64 else dict(rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(
        to_numpy(LA.pinv(tensor(a), rtol=rtol)), np.linalg.pinv(a, rtol), **tol
    )
    got = LA.pinv(tensor(sym), hermitian=True, rtol=rtol)
    np.testing.assert_allclose(to_numpy(got), np.linalg.pinv(sym, rtol, hermitian=True), **tol)
    got = ember.pinverse(tensor(a), rtol)
    np.testing.assert_allclose(to_numpy(got), np.linalg.pinv(a, rtol), **tol)
    rank = LA.matrix_rank(tensor(a), rtol=rtol)
    np.testing.assert_array_equal(to_numpy(rank), np.linalg.matrix_rank(a, rtol=rtol))
    rank = LA.matrix_rank(tensor(sym), hermitian=True, rtol=rtol)
    expected = np.linalg.matrix_rank(sym, rtol=rtol, hermitian=True)
    np.testing.assert_array_equal(to_numpy(rank), expected)
    # A large absolute tolerance drops every singular value.
    assert (to_numpy(LA.matrix_rank(tensor(a), atol=1e6)) == 0).all()
    assert (to_numpy(LA.matrix_rank(tensor(a), tol=1e6)) == 0).all()
    atol = ember.full(tuple(shape[:-2]), 1e6, dtype=dtype)
    assert (to_numpy(LA.pinv(tensor(a), atol=atol)) == 0).all()


def test_default_tolerances_match_numpy() -> None:
    """rtol = eps * max(m, n) by default (numpy's matrix_rank default; pinv given it)."""
    a = rand((3, 6, 4), ember.float64)
    a[..., 0] = a[..., 1]
    np.testing.assert_array_equal(to_numpy(LA.matrix_rank(tensor(a))), np.linalg.matrix_rank(a))
    eps = np.finfo(np.float64).eps * 6
    np.testing.assert_allclose(to_numpy(LA.pinv(tensor(a))), np.linalg.pinv(a, eps), rtol=1e-8)


@pytest.mark.parametrize("n", [0, 1, 2, 5, -1, -3])
def test_matrix_power(n: int) -> None:
    a = well_conditioned((2,), 3, ember.float64) / 9
    close(LA.matrix_power(tensor(a), n), np.linalg.matrix_power(a, n), ember.float64)
    ints = np.arange(8).reshape(2, 2, 2)
    if n >= 0:
        got = ember.matrix_power(ember.from_numpy(ints), n)
        assert got.dtype == ember.int64
        np.testing.assert_array_equal(to_numpy(got), np.linalg.matrix_power(ints, n))


def test_multi_dot_cross_vecdot_diagonal() -> None:
    rng = np.random.default_rng(0)
    mats = [rng.standard_normal(s) for s in [(3,), (3, 40), (40, 2), (2, 30), (30,)]]
    close(
        LA.multi_dot([ember.from_numpy(m) for m in mats]), np.linalg.multi_dot(mats), ember.float64
    )
    mats2 = [rng.standard_normal(s) for s in [(4, 3), (3, 5)]]
    close(LA.multi_dot([tensor(m) for m in mats2]), mats2[0] @ mats2[1], ember.float64)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((1, 3))
    close(LA.cross(tensor(a), tensor(b)), np.cross(a, b), ember.float64)
    close(LA.cross(tensor(a.T), tensor(b.T), dim=0), np.cross(a, b).T, ember.float64)
    close(ember.cross(tensor(a.T), tensor(b.T)), np.cross(a, b).T, ember.float64)
    ints = ember.from_numpy(np.array([1, 2, 3]))
    assert LA.cross(ints, ember.from_numpy(np.array([4, 5, 6]))).tolist() == [-3, 6, -3]
    close(LA.vecdot(tensor(a), tensor(b[0])), a @ b[0], ember.float64)
    close(LA.vecdot(tensor(a.T), tensor(a.T), dim=0), (a * a).sum(1), ember.float64)
    assert LA.diagonal(tensor(a), offset=1).tolist() == np.diagonal(a, 1).tolist()
    assert LA.matmul is ember.matmul


def test_top_level_functions() -> None:
    a = well_conditioned((2,), 3, ember.float64)
    close(ember.det(tensor(a)), np.linalg.det(a), ember.float64)
    close(ember.inverse(tensor(a)), np.linalg.inv(a), ember.float64)
    close(ember.slogdet(tensor(a)).logabsdet, np.linalg.slogdet(a)[1], ember.float64)
    close(ember.logdet(tensor(a)), np.log(np.linalg.det(a)), ember.float64)
    swap = ember.tensor([[0.0, 1.0], [1.0, 0.0]])
    assert math.isnan(ember.logdet(swap).item())
    assert ember.logdet(ember.zeros(2, 2)).item() == -math.inf
    Q, R = ember.qr(tensor(rand((5, 3), ember.float64)), some=False)
    assert tuple(Q.shape) == (5, 5) and tuple(R.shape) == (5, 3)
    U, _, V = ember.svd(tensor(rand((4, 3), ember.float64)), compute_uv=False)
    assert tuple(U.shape) == (4, 4) and to_numpy(U).sum() == 0 and tuple(V.shape) == (3, 3)


def test_out_arguments() -> None:
    a = well_conditioned((), 3, ember.float64)
    out = ember.empty(0, dtype=ember.float64)
    assert LA.inv(tensor(a), out=out) is out
    close(out, np.linalg.inv(a), ember.float64)
    L, info = ember.empty(0, dtype=ember.float64), ember.empty(0, dtype=ember.int32)
    result = LA.cholesky_ex(tensor(spd((), 3, ember.float64)), out=(L, info))
    assert result.L is L and tuple(L.shape) == (3, 3)
    raises(RuntimeError, "linalg.inv", lambda: LA.inv(tensor(a), out=ember.empty(3, 3)), "dtype")
    raises(TypeError, "linalg.svd", lambda: LA.svd(tensor(a), out=ember.empty(0)), "tuple")


# --- errors ----------------------------------------------------------------------------------


def test_singular_and_not_positive_definite_raise_linalg_error() -> None:
    assert issubclass(LA.LinAlgError, RuntimeError)
    singular = ember.tensor([[1.0, 2.0], [2.0, 4.0]])
    batch = ember.stack([ember.eye(2), singular])
    raises(LA.LinAlgError, "linalg.inv", lambda: LA.inv(singular), "diagonal element 2 is zero")
    raises(LA.LinAlgError, "linalg.inv", lambda: LA.inv(batch), "(Batch element 1)")
    raises(LA.LinAlgError, "linalg.solve", lambda: LA.solve(batch, ember.ones(2)), "singular")
    raises(
        LA.LinAlgError,
        "linalg.cholesky",
        lambda: LA.cholesky(batch),
        "(Batch element 1)",
        "leading minor of order 2 is not positive-definite",
    )
    raises(LA.LinAlgError, "linalg.lu_factor", lambda: LA.lu_factor(singular), "U[2,2] is zero")
    raises(LA.LinAlgError, "linalg.inv", lambda: LA.matrix_power(singular, -1), "singular")
    nan = ember.full((3, 3), math.nan)
    raises(LA.LinAlgError, "linalg.svd", lambda: LA.svd(nan), "non-finite values")
    raises(LA.LinAlgError, "linalg.eigh", lambda: LA.eigh(nan), "failed to converge")
    rank_one = ember.tensor([[1.0, 0.0], [0.0, 0.0]])
    raises(LA.LinAlgError, "linalg.lstsq", lambda: LA.lstsq(rank_one, rank_one, driver="gels"))
    assert LA.slogdet(singular).sign.item() == 0
    assert LA.slogdet(singular).logabsdet.item() == -math.inf
    assert LA.det(singular).item() == 0.0


def test_ex_variants_return_info() -> None:
    batch = ember.stack([ember.eye(2), ember.tensor([[1.0, 2.0], [2.0, 4.0]])])
    assert LA.inv_ex(batch).info.tolist() == [0, 2]
    assert LA.cholesky_ex(batch).info.tolist() == [0, 2]
    assert LA.solve_ex(batch, ember.ones(2)).info.tolist() == [0, 2]
    assert LA.lu_factor_ex(batch).info.tolist() == [0, 2]
    raises(LA.LinAlgError, "linalg.inv_ex", lambda: LA.inv_ex(batch, check_errors=True), "Batch")


@pytest.mark.parametrize(
    ("fn", "op"),
    [
        (LA.inv, "linalg.inv"),
        (LA.det, "linalg.det"),
        (LA.slogdet, "linalg.slogdet"),
        (LA.cholesky, "linalg.cholesky"),
        (LA.eigh, "linalg.eigh"),
        (LA.eigvalsh, "linalg.eigvalsh"),
    ],
)
def test_square_op_errors(fn: Callable[[Any], Any], op: str) -> None:
    raises(RuntimeError, op, lambda: fn(ember.ones(2, 3)), "square", "2 by 3")
    raises(RuntimeError, op, lambda: fn(ember.ones(3)), "at least 2 dimensions")
    raises(TypeError, op, lambda: fn(ember.ones(2, 2, dtype=ember.int64)), "int64")
    raises(TypeError, op, lambda: fn(ember.ones(2, 2, dtype=ember.float16)), "Low precision")
    raises(TypeError, op, lambda: fn([[1.0, 0.0], [0.0, 1.0]]), "must be Tensor")


def test_argument_errors() -> None:
    a, b = ember.eye(3), ember.ones(4, 2)
    raises(RuntimeError, "linalg.solve", lambda: LA.solve(a, b), "(3x3 and 4x2)")
    raises(RuntimeError, "linalg.solve", lambda: LA.solve(a, ember.ones(3, dtype=ember.float64)))
    raises(
        RuntimeError,
        "linalg.solve",
        lambda: LA.solve(ember.eye(3).expand(2, 3, 3), ember.ones(4, 3, 1)),
    )
    raises(RuntimeError, "linalg.qr", lambda: LA.qr(a, mode="x"), "unrecognized mode 'x'")
    raises(RuntimeError, "linalg.eigh", lambda: LA.eigh(a, UPLO="X"), "'L' or 'U'")
    raises(RuntimeError, "linalg.lstsq", lambda: LA.lstsq(a, a, driver="foo"), "driver")
    raises(RuntimeError, "linalg.lstsq", lambda: LA.lstsq(a, ember.ones(4, 1)), "size(-2)")
    raises(RuntimeError, "linalg.svd", lambda: LA.svd(a, driver="gesvd"), "CUDA")
    raises(RuntimeError, "linalg.lu_factor", lambda: LA.lu_factor(a, pivot=False), "pivoting")
    LU, piv = LA.lu_factor(a)
    raises(TypeError, "linalg.lu_solve", lambda: LA.lu_solve(LU, piv.long(), a), "int32")
    bad = ember.from_numpy(np.array([1, 9, 3], np.int32))
    raises(RuntimeError, "linalg.lu_solve", lambda: LA.lu_solve(LU, bad, a), "pivots")
    raises(RuntimeError, "lu_unpack", lambda: ember.lu_unpack(LU, bad), "pivots")
    raises(RuntimeError, "linalg.lu_solve", lambda: LA.lu_solve(LU, piv[:2], a), "pivots")
    raises(RuntimeError, "linalg.matrix_norm", lambda: LA.matrix_norm(a, 3), "Order 3")
    raises(RuntimeError, "linalg.matrix_norm", lambda: LA.matrix_norm(a, dim=(0, 0)), "different")
    raises(RuntimeError, "linalg.norm", lambda: LA.norm(ember.ones(2, 2, 2), 2), "1D or 2D")
    raises(TypeError, "linalg.vector_norm", lambda: LA.vector_norm(a, "fro"), "number")
    raises(
        TypeError, "linalg.vector_norm", lambda: LA.vector_norm(ember.ones(2, dtype=ember.int64))
    )
    raises(RuntimeError, "linalg.vector_norm", lambda: LA.vector_norm(ember.ones(0), math.inf))
    raises(IndexError, "linalg.vector_norm", lambda: LA.vector_norm(a, dim=5), "out of range")
    raises(RuntimeError, "linalg.cond", lambda: LA.cond(ember.ones(2, 3), "fro"), "square")
    raises(RuntimeError, "linalg.cond", lambda: LA.cond(a, 3), "invalid norm type")
    raises(RuntimeError, "linalg.multi_dot", lambda: LA.multi_dot([a]), "at least 2")
    raises(RuntimeError, "linalg.multi_dot", lambda: LA.multi_dot([a, ember.ones(2, 2)]))
    raises(RuntimeError, "linalg.cross", lambda: LA.cross(ember.ones(2, 2), ember.ones(2, 2)))
    raises(RuntimeError, "linalg.cross", lambda: LA.cross(ember.ones(3), ember.ones(2, 3)))
    raises(RuntimeError, "linalg.vecdot", lambda: LA.vecdot(a, a.double()), "same dtype")
    raises(TypeError, "linalg.matrix_power", lambda: LA.matrix_power(a, 1.5), "int")
    raises(RuntimeError, "linalg.pinv", lambda: LA.pinv(a, 0.1, atol=0.1), "rcond")


# --- generated input -------------------------------------------------------------------------


@settings(max_examples=40)
@given(
    batch=st.lists(st.integers(0, 3), max_size=2).map(tuple),
    n=st.integers(0, 6),
    k=st.integers(0, 3),
    dtype=st.sampled_from(FLOATS),
    layout=st.sampled_from(VIEW_LAYOUTS),
)
def test_solve_inv_svd_on_generated_shapes(
    batch: tuple[int, ...], n: int, k: int, dtype: Any, layout: str
) -> None:
    a = well_conditioned(batch, n, dtype, seed=n)
    b = rand((*batch, n, k), dtype, 1)
    close(LA.inv(tensor(a, layout)), np.linalg.inv(a) if n else a, dtype)
    if n:
        close(LA.solve(tensor(a, layout), tensor(b, layout)), np.linalg.solve(a, b), dtype)
        close(LA.svdvals(tensor(a, layout)), np.linalg.svd(a, compute_uv=False), dtype)
        close(LA.det(tensor(a, layout)), np.linalg.det(a), dtype)


PUBLIC = [getattr(LA, name) for name in LA.__all__ if callable(getattr(LA, name))] + [
    getattr(ember, name) for name in ember._linalg_legacy.__all__
]
JUNK: list[Any] = [*TENSOR_MAKERS, *SCALARS]
KEYWORDS = [
    None, "dim", "out", "ord", "driver", "left", "upper", "atol", "rtol", "rcond", "mode", "UPLO",
    "hermitian", "full_matrices", "check_errors", "pivot", "adjoint", "keepdim", "dtype", "offset",
    "n", "p", "some", "compute_uv", "tol", "dim1", "unpack_data",
]  # fmt: skip


def _junk(i: int) -> Any:
    value = JUNK[i]
    return value() if i < len(TENSOR_MAKERS) else value


@settings(max_examples=600)
@given(
    fn=st.sampled_from(PUBLIC),
    args=st.lists(st.integers(0, len(JUNK) - 1), max_size=4),
    kwarg=st.sampled_from(KEYWORDS),
    kwval=st.integers(0, len(JUNK) - 1),
)
def test_bad_arguments_raise_typed_errors(fn: Any, args: list[int], kwarg: Any, kwval: int) -> None:
    """Any mix of tensors and junk gives a result or a typed error naming the op, never a crash."""
    kwargs = {} if kwarg is None else {kwarg: _junk(kwval)}
    try:
        with deadline(f"{fn.__name__}"):
            fn(*(_junk(i) for i in args), **kwargs)
    except TypeError as e:
        # Python's own arity/keyword errors happen before ember sees the call.
        assert str(e).startswith("[") or EXEMPT_TYPE_ERRORS.search(str(e)), (fn.__name__, str(e))
    except (ValueError, IndexError, RuntimeError, NotImplementedError) as e:
        assert str(e).startswith("["), (fn.__name__, str(e))


@pytest.mark.parametrize("threads", [1, 3])
def test_large_single_system_split_over_threads(threads: int) -> None:
    """One big system splits its right-hand sides (and inv its identity) over the pool."""
    previous = ember.get_num_threads()
    ember.set_num_threads(threads)
    try:
        a = well_conditioned((), 150, ember.float64)
        b = rand((150, 200), ember.float64, 1)
        close(LA.inv(tensor(a)), np.linalg.inv(a), ember.float64)
        close(LA.solve(tensor(a), tensor(b)), np.linalg.solve(a, b), ember.float64)
        LU, pivots = LA.lu_factor(tensor(a))
        close(LA.lu_solve(LU, pivots, tensor(b)), np.linalg.solve(a, b), ember.float64)
        singular = ember.zeros(150, 150, dtype=ember.float64)
        assert LA.inv_ex(singular).info.item() == 1
    finally:
        ember.set_num_threads(previous)


@settings(max_examples=12, deadline=None)
@given(
    m=st.integers(64, 130),
    n=st.integers(64, 130),
    dtype=st.sampled_from([ember.float32, ember.float64]),
    threads=st.sampled_from([1, 2, 3]),
)
def test_svd_of_one_large_matrix_on_every_thread_count(
    m: int, n: int, dtype: Any, threads: int
) -> None:
    # One matrix with more threads than matrices takes gesdd's steps with the last one split
    # over the pool; one thread takes gesdd itself. Both must be an SVD of the input.
    rng = np.random.default_rng(m * 1000 + n)
    a_np = rng.standard_normal((m, n))
    a = ember.tensor(a_np, dtype=dtype)
    before = ember.get_num_threads()
    ember.set_num_threads(threads)
    try:
        U, S, Vh = LA.svd(a, full_matrices=False)
    finally:
        ember.set_num_threads(before)
    tol = 2e-5 if dtype == ember.float32 else 1e-12
    k = min(m, n)
    np.testing.assert_allclose(S.numpy(), np.linalg.svd(a_np, compute_uv=False), atol=tol * 10)
    np.testing.assert_allclose(U.mT.matmul(U).numpy(), np.eye(k), atol=tol)
    np.testing.assert_allclose(Vh.matmul(Vh.mT).numpy(), np.eye(k), atol=tol)
    recon = (U * S.unsqueeze(-2)).matmul(Vh).double().numpy()
    np.testing.assert_allclose(recon, a_np, atol=tol * 10 * max(1.0, float(np.abs(a_np).max())))


def test_svd_of_one_large_matrix_refuses_non_finite_input() -> None:
    before = ember.get_num_threads()
    ember.set_num_threads(2)
    try:
        a = ember.randn(80, 70, dtype=ember.float64)
        a[5, 6] = math.inf
        raises(LA.LinAlgError, "linalg.svd", lambda: LA.svd(a, full_matrices=False), "non-finite")
    finally:
        ember.set_num_threads(before)
