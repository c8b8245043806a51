"""Gradients of ember.linalg: the LAPACK natives' rules and the composites built on them.

Finite differences (gradcheck) are the oracle, plus numpy for closed forms (the cofactor matrix of
a singular matrix). Decompositions with arbitrary signs (svd, eigh) are checked through functions
of their outputs that do not depend on those signs; inputs are small, float64, well-conditioned,
and symmetric (as ``X + X.mT``) where the op reads one triangle only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ember
from ember.autograd import gradcheck, gradgradcheck
from ember.autograd._registry import classify, dispatch_names

L = ember.linalg
F64 = ember.float64


def rand(*shape: int, seed: int, shift: float = 0.0) -> ember.Tensor:
    """Random float64 leaf; ``shift`` adds shift * I to square matrices (well-conditioned)."""
    x = np.random.default_rng(seed).standard_normal(shape)
    if shift:
        x = x + shift * np.eye(shape[-1])
    return ember.tensor(x, dtype=F64, requires_grad=True)


def sym(x: ember.Tensor) -> ember.Tensor:
    return x + x.mT


def spd(x: ember.Tensor) -> ember.Tensor:
    return x @ x.mT + ember.eye(x.shape[-1], dtype=F64)


def lu_solve(A: Any, B: Any, **kw: Any) -> Any:
    LU, pivots = L.lu_factor(A)
    return L.lu_solve(LU, pivots, B, **kw)


def uv(result: Any) -> tuple[Any, Any]:
    """Sign-invariant functions of an SVD: the product U_k S Vh_k and S."""
    U, S, Vh = result
    k = S.shape[-1]
    return (U[..., :k] * S.unsqueeze(-2)) @ Vh[..., :k, :], S


# name -> (function, inputs)
CASES: dict[str, tuple[Callable[..., Any], tuple[ember.Tensor, ...]]] = {
    "inv": (L.inv, (rand(2, 3, 3, seed=0, shift=3),)),
    "inv_ex": (lambda A: L.inv_ex(A).inverse, (rand(3, 3, seed=1, shift=3),)),
    "solve": (L.solve, (rand(2, 3, 3, seed=2, shift=3), rand(2, 3, 2, seed=3))),
    "solve_vector": (L.solve, (rand(2, 3, 3, seed=4, shift=3), rand(2, 3, seed=5))),
    "solve_broadcast": (L.solve, (rand(3, 3, seed=6, shift=3), rand(2, 3, 2, seed=7))),
    "solve_right": (
        lambda A, B: L.solve(A, B, left=False),
        (rand(2, 3, 3, seed=8, shift=3), rand(2, 2, 3, seed=9)),
    ),
    "solve_ex": (
        lambda A, B: L.solve_ex(A, B).result,
        (rand(3, 3, seed=10, shift=3), rand(3, seed=11)),
    ),
    "det": (L.det, (rand(2, 3, 3, seed=12),)),
    "det_1x1": (L.det, (rand(2, 1, 1, seed=13),)),
    "det_legacy": (ember.det, (rand(3, 3, seed=14),)),
    "slogdet": (lambda A: L.slogdet(A).logabsdet, (rand(2, 3, 3, seed=15, shift=3),)),
    "logdet": (lambda A: ember.logdet(spd(A)), (rand(3, 3, seed=16),)),
    "cholesky": (lambda X: L.cholesky(spd(X)), (rand(2, 3, 3, seed=17),)),
    "cholesky_upper": (lambda X: L.cholesky(spd(X), upper=True), (rand(3, 3, seed=18),)),
    "cholesky_ex": (lambda X: L.cholesky_ex(spd(X)).L, (rand(3, 3, seed=19),)),
    "qr_tall": (L.qr, (rand(2, 4, 3, seed=20),)),
    "qr_square": (L.qr, (rand(3, 3, seed=21),)),
    "qr_wide": (L.qr, (rand(2, 3, 4, seed=22),)),
    "qr_complete_wide": (lambda A: L.qr(A, mode="complete"), (rand(2, 4, seed=23),)),
    "qr_legacy": (ember.qr, (rand(3, 2, seed=24),)),
    "svd_tall": (lambda A: uv(L.svd(A, full_matrices=False)), (rand(2, 4, 3, seed=25),)),
    "svd_wide": (lambda A: uv(L.svd(A, full_matrices=False)), (rand(2, 3, 4, seed=26),)),
    "svd_full": (lambda A: uv(L.svd(A)), (rand(4, 3, seed=27),)),
    "svd_full_wide": (lambda A: uv(L.svd(A)), (rand(2, 4, seed=28),)),
    "svd_u_squared": (lambda A: L.svd(A, full_matrices=False).U ** 2, (rand(4, 3, seed=29),)),
    "svd_vh_squared": (lambda A: L.svd(A, full_matrices=False).Vh ** 2, (rand(3, 4, seed=30),)),
    "svdvals": (L.svdvals, (rand(2, 3, 4, seed=31),)),
    "svd_legacy": (lambda A: ember.svd(A).S, (rand(3, 3, seed=32),)),
    "eigh": (lambda X: L.eigh(sym(X)).eigenvalues, (rand(2, 3, 3, seed=33),)),
    "eigh_vectors": (lambda X: L.eigh(sym(X)).eigenvectors ** 2, (rand(2, 3, 3, seed=34),)),
    "eigh_upper": (
        lambda X: (lambda r: (r[0], r[1] ** 2))(L.eigh(sym(X), UPLO="U")),
        (rand(3, 3, seed=35),),
    ),
    "eigvalsh": (lambda X: L.eigvalsh(sym(X)), (rand(3, 3, seed=36),)),
    "lstsq_tall": (
        lambda A, B: L.lstsq(A, B).solution,
        (rand(2, 5, 3, seed=37), rand(2, 5, 2, seed=38)),
    ),
    "lstsq_square": (
        lambda A, B: L.lstsq(A, B).solution,
        (rand(3, 3, seed=39, shift=3), rand(3, 2, seed=40)),
    ),
    "lstsq_wide": (lambda A, B: L.lstsq(A, B).solution, (rand(2, 4, seed=41), rand(2, 1, seed=42))),
    "lstsq_vector": (lambda A, B: L.lstsq(A, B).solution, (rand(4, 2, seed=43), rand(4, seed=44))),
    "lstsq_residuals": (
        lambda A, B: L.lstsq(A, B, driver="gelsd")[:2],
        (rand(2, 5, 3, seed=86), rand(2, 5, 2, seed=87)),
    ),
    "lstsq_residuals_vector": (
        lambda A, B: L.lstsq(A, B, driver="gelss").residuals,
        (rand(4, 2, seed=88), rand(4, seed=89)),
    ),
    "lu_factor": (lambda A: L.lu_factor(A).LU, (rand(2, 3, 3, seed=45),)),
    "lu_factor_tall": (lambda A: L.lu_factor(A).LU, (rand(4, 3, seed=46),)),
    "lu_factor_wide": (lambda A: L.lu_factor(A).LU, (rand(3, 4, seed=47),)),
    "lu_factor_ex": (lambda A: L.lu_factor_ex(A).LU, (rand(3, 3, seed=48),)),
    "lu": (lambda A: L.lu(A)[1:], (rand(2, 4, 3, seed=49),)),
    "lu_wide": (lambda A: L.lu(A)[1:], (rand(3, 4, seed=50),)),
    "lu_solve": (lu_solve, (rand(2, 3, 3, seed=51, shift=3), rand(2, 3, 2, seed=52))),
    "lu_solve_adjoint": (
        lambda A, B: lu_solve(A, B, adjoint=True),
        (rand(3, 3, seed=53, shift=3), rand(3, 2, seed=54)),
    ),
    "lu_solve_right": (
        lambda A, B: lu_solve(A, B, left=False),
        (rand(3, 3, seed=55, shift=3), rand(2, 3, seed=56)),
    ),
    "lu_solve_right_adjoint": (
        lambda A, B: lu_solve(A, B, left=False, adjoint=True),
        (rand(3, 3, seed=57, shift=3), rand(2, 3, seed=58)),
    ),
    # Composites: differentiable through the natives and tensor ops they call.
    "pinv": (L.pinv, (rand(2, 4, 3, seed=59),)),
    "pinv_hermitian": (lambda X: L.pinv(spd(X), hermitian=True), (rand(3, 3, seed=60),)),
    "pinverse": (ember.pinverse, (rand(3, 4, seed=61),)),
    "cond": (L.cond, (rand(2, 3, 3, seed=62, shift=2),)),
    "cond_fro": (lambda A: L.cond(A, "fro"), (rand(3, 3, seed=63, shift=2),)),
    "matrix_norm_nuc": (lambda A: L.matrix_norm(A, "nuc"), (rand(2, 3, 4, seed=64),)),
    "matrix_norm_2": (lambda A: L.matrix_norm(A, 2), (rand(3, 4, seed=65),)),
    "matrix_norm_-2": (lambda A: L.matrix_norm(A, -2), (rand(4, 3, seed=66),)),
    "norm_fro": (L.norm, (rand(3, 3, seed=67),)),
    "matrix_power_3": (lambda A: L.matrix_power(A, 3), (rand(2, 3, 3, seed=68),)),
    "matrix_power_-2": (lambda A: L.matrix_power(A, -2), (rand(3, 3, seed=69, shift=3),)),
    "matrix_power_1": (lambda A: L.matrix_power(A, 1), (rand(3, 3, seed=70),)),
    "cond_-2": (lambda A: L.cond(A, -2), (rand(3, 3, seed=90, shift=2),)),
    "cond_nuc": (lambda A: L.cond(A, "nuc"), (rand(3, 3, seed=91, shift=2),)),
    "cond_inf": (lambda A: L.cond(A, float("inf")), (rand(3, 3, seed=92, shift=2),)),
    "vector_norm_3": (lambda x: L.vector_norm(x, 3, dim=-1), (rand(2, 3, seed=93),)),
    "matrix_norm_inf": (lambda A: L.matrix_norm(A, float("inf")), (rand(2, 3, 3, seed=94),)),
    "norm_nuc": (lambda A: L.norm(A, "nuc"), (rand(3, 3, seed=95),)),
    "pinv_rtol": (lambda A: L.pinv(A, rtol=0.1), (rand(3, 4, seed=96),)),
    "vecdot": (L.vecdot, (rand(2, 3, seed=97), rand(3, seed=98))),
    "inverse_legacy": (ember.inverse, (rand(3, 3, seed=99, shift=3),)),
    "cholesky_legacy": (lambda X: ember.cholesky(spd(X), upper=True), (rand(3, 3, seed=100),)),
    "svd_legacy_no_uv": (lambda A: ember.svd(A, compute_uv=False).S, (rand(3, 4, seed=101),)),
    "lu_unpack_legacy": (lambda A: ember.lu_unpack(*L.lu_factor(A))[1:], (rand(3, 3, seed=102),)),
    "cross": (L.cross, (rand(2, 3, seed=103), rand(2, 3, seed=104))),
    "cross_legacy": (ember.cross, (rand(2, 3, seed=106), rand(2, 3, seed=107))),
    "diagonal": (lambda A: L.diagonal(A, offset=1), (rand(2, 3, 3, seed=105),)),
    "multi_dot": (
        lambda a, b, c: L.multi_dot([a, b, c]),
        (rand(3, seed=71), rand(3, 4, seed=72), rand(4, 2, seed=73)),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck(name: str) -> None:
    fn, inputs = CASES[name]
    assert gradcheck(fn, inputs)


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradgradcheck(name: str) -> None:
    fn, inputs = CASES[name]
    assert gradgradcheck(fn, inputs)


def test_cholesky_and_eigh_gradients_are_symmetric() -> None:
    # Only one triangle is read; torch returns the symmetric gradient, and so do we.
    A = spd(rand(3, 3, seed=85)).detach().requires_grad_()
    g = ember.tensor(np.random.default_rng(0).standard_normal((3, 3)), dtype=F64)
    (L.cholesky(A) * g).sum().backward()
    np.testing.assert_allclose(A.grad.numpy(), A.grad.numpy().T, atol=1e-12)
    B = A.detach().requires_grad_()
    (L.eigh(B).eigenvectors ** 2 * g).sum().backward()
    np.testing.assert_allclose(B.grad.numpy(), B.grad.numpy().T, atol=1e-12)


def test_lu_unpack_gradcheck() -> None:
    # lu_unpack on its own: L and U are triangles of one tensor, P carries no gradient.
    for shape in ((3, 3), (4, 3), (3, 4)):
        with ember.no_grad():
            LU, pivots = L.lu_factor(rand(*shape, seed=80))
        LU.requires_grad_()
        assert gradcheck(lambda t, p=pivots: ember.lu_unpack(t, p)[1:], (LU,))


def test_det_of_singular_matrices_is_the_cofactor_matrix() -> None:
    # Rank n-1: the gradient is the cofactor matrix (nonzero); rank n-2: it is zero.
    A = ember.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], dtype=F64)
    A.requires_grad_()
    L.det(A).backward()
    a = A.detach().numpy()
    cofactor = np.array(
        [
            [np.linalg.det(np.delete(np.delete(a, i, 0), j, 1)) * (-1) ** (i + j) for j in range(3)]
            for i in range(3)
        ]
    )
    np.testing.assert_allclose(A.grad.numpy(), cofactor, atol=1e-12)
    rank1 = ember.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]], dtype=F64)
    assert gradcheck(L.det, (rank1.requires_grad_(),))
    assert gradcheck(L.det, (A.detach().requires_grad_(),))
    # Second derivatives too, next to a nonsingular matrix in the same batch. Small steps keep
    # the finite differences on the singular side (nearly singular matrices use the SVD too).
    batch = ember.stack([A.detach(), 2 * ember.eye(3, dtype=F64) + 0.1 * A.detach()])
    assert gradgradcheck(L.det, (batch.requires_grad_(),), eps=1e-9)


def test_det_gradient_matches_numpy() -> None:
    A = rand(2, 4, 4, seed=81)
    L.det(A).sum().backward()
    a = A.detach().numpy()
    expected = np.linalg.det(a)[:, None, None] * np.linalg.inv(a).transpose(0, 2, 1)
    np.testing.assert_allclose(A.grad.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_non_differentiable_outputs() -> None:
    A = rand(2, 3, 3, seed=82, shift=3)
    assert not L.inv_ex(A).info.requires_grad
    assert not L.solve_ex(A, A).info.requires_grad
    assert not L.slogdet(A).sign.requires_grad
    assert not L.lu_factor_ex(A).pivots.requires_grad
    assert not L.lu(A).P.requires_grad
    assert not L.cholesky_ex(spd(A)).info.requires_grad
    assert L.inv(A).grad_fn.name() == "LinalgInvExBackward0"
    assert L.svd(A).U.grad_fn.name() == "LinalgSvdBackward0"


def test_no_linalg_native_is_missing() -> None:
    names = [n for n in dispatch_names() if n.startswith(("_linalg_", "_lu_"))]
    assert "_linalg_inv_ex" in names
    # _linalg_copy_out (out=) is refused before it runs, as torch refuses out= with grad.
    skip = ("_linalg_copy_out",)
    missing = [n for n in names if classify(n) == "missing" and n not in skip]
    assert missing == []


def test_qr_refusals_at_backward() -> None:
    A = rand(4, 3, seed=83)
    R = L.qr(A, mode="r").R
    with pytest.raises(RuntimeError, match=r"^\[linalg.qr\] .*mode='r'"):
        R.sum().backward()
    Q = L.qr(A, mode="complete").Q
    with pytest.raises(RuntimeError, match=r"^\[linalg.qr\] .*mode='complete'"):
        Q.sum().backward()


def test_out_with_grad_is_refused() -> None:
    A = rand(3, 3, seed=84, shift=3)
    out = ember.empty(3, 3, dtype=F64)
    with pytest.raises(RuntimeError, match=r"^\[linalg.inv\] functions with out="):
        L.inv(A, out=out)
    with pytest.raises(RuntimeError, match=r"^\[linalg.qr\] functions with out="):
        L.qr(A, out=(ember.empty(0, dtype=F64), ember.empty(0, dtype=F64)))
    leaf = ember.empty(3, 3, dtype=F64).requires_grad_()
    with pytest.raises(RuntimeError, match=r"^\[linalg.det\] functions with out="):
        L.det(A.detach(), out=leaf)
    with ember.no_grad():
        assert L.inv(A, out=out) is out
    np.testing.assert_allclose(out.numpy(), np.linalg.inv(A.detach().numpy()))


def test_svdvals_with_repeated_singular_values_is_finite() -> None:
    # Only S is used: the U/V terms (which divide by s_i^2 - s_j^2) must not be formed.
    A = ember.eye(3, dtype=F64).requires_grad_()
    L.svdvals(A).sum().backward()
    np.testing.assert_allclose(A.grad.numpy(), np.eye(3))
    B = ember.eye(3, dtype=F64).requires_grad_()
    L.eigvalsh(B).sum().backward()
    np.testing.assert_allclose(B.grad.numpy(), np.eye(3))


@settings(max_examples=15, deadline=None)
@given(
    batch_a=st.sampled_from([(), (1,), (2,)]),
    batch_b=st.sampled_from([(), (2,), (1, 2)]),
    n=st.integers(1, 4),
    k=st.integers(1, 3),
    left=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_solve_gradient_matches_numpy(
    batch_a: tuple[int, ...],
    batch_b: tuple[int, ...],
    n: int,
    k: int,
    left: bool,
    seed: int,
) -> None:
    # Broadcast batches sum back to each input's shape; values from the closed form in numpy.
    A = rand(*batch_a, n, n, seed=seed, shift=n + 2)
    b_shape = (*batch_b, *((n, k) if left else (k, n)))
    # B of A's shape less one dim is a batch of vectors (left=False refuses it, as torch): the
    # vector case has its own gradcheck cases.
    assume(b_shape != (*batch_a, n))
    B = rand(*b_shape, seed=seed + 1)
    X = L.solve(A, B, left=left)
    g = np.random.default_rng(seed + 2).standard_normal(tuple(X.shape))
    X.backward(ember.tensor(g, dtype=F64))
    a, x = A.detach().numpy(), X.detach().numpy()
    a_t = np.swapaxes(a, -1, -2)
    gb = (
        np.linalg.solve(a_t, g)
        if left
        else np.swapaxes(np.linalg.solve(a, np.swapaxes(g, -1, -2)), -1, -2)
    )
    ga = -gb @ np.swapaxes(x, -1, -2) if left else -np.swapaxes(x, -1, -2) @ gb
    assert tuple(A.grad.shape) == tuple(A.shape) and tuple(B.grad.shape) == tuple(B.shape)
    lead_a = ga.ndim - a.ndim
    ga = ga.sum(axis=tuple(range(lead_a))) if lead_a else ga
    ga = ga.sum(
        axis=tuple(i for i, s in enumerate(a.shape) if s == 1 and ga.shape[i] != 1), keepdims=True
    )
    lead_b = gb.ndim - len(B.shape)
    gb = gb.sum(axis=tuple(range(lead_b))) if lead_b else gb
    gb = gb.sum(
        axis=tuple(i for i, s in enumerate(B.shape) if s == 1 and gb.shape[i] != 1), keepdims=True
    )
    np.testing.assert_allclose(A.grad.numpy(), ga, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(B.grad.numpy(), gb, rtol=1e-9, atol=1e-11)


def _phase_fixed(V: ember.Tensor) -> ember.Tensor:
    """Eigenvectors with their first component made real and positive: eig's V is defined only
    up to a phase per column, so gradients are checked on this phase-free form (as torch's)."""
    first = V[..., :1, :]
    return V * (first.conj() / first.abs())


def crand(*shape: int, seed: int) -> ember.Tensor:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return ember.tensor(x, dtype=ember.complex128, requires_grad=True)


@pytest.mark.parametrize("make", [lambda: rand(4, 4, seed=91), lambda: crand(3, 3, seed=92)])
def test_eigvals_gradcheck(make: Callable[[], ember.Tensor]) -> None:
    A = make()
    assert gradcheck(L.eigvals, [A])
    assert gradgradcheck(L.eigvals, [A])


@pytest.mark.parametrize(
    "make",
    [lambda: rand(4, 4, seed=93), lambda: crand(3, 3, seed=94), lambda: rand(2, 3, 3, seed=95)],
)
def test_eig_gradcheck(make: Callable[[], ember.Tensor]) -> None:
    def eig(A: ember.Tensor) -> tuple[ember.Tensor, ember.Tensor]:
        w, V = L.eig(A)
        return w, _phase_fixed(V)

    A = make()
    assert gradcheck(eig, [A])
    assert gradgradcheck(eig, [A])


def test_eig_gradient_of_real_input_is_real_and_matches_the_trace() -> None:
    A = rand(4, 4, seed=96)
    L.eigvals(A).sum().real.backward()  # the sum of the eigenvalues is the trace
    assert A.grad is not None and A.grad.dtype == F64
    np.testing.assert_allclose(A.grad.numpy(), np.eye(4), atol=1e-10)


def test_eig_loss_depending_on_the_eigenvector_phase_is_refused() -> None:
    A = crand(3, 3, seed=97)
    _, V = L.eig(A)
    with pytest.raises(RuntimeError, match=r"^\[linalg_eig_backward\] .*e\^\{i phi\}"):
        V.imag.sum().backward()


COMPLEX_LU_CASES: list[tuple[str, Callable[..., Any], list[tuple[int, ...]]]] = [
    ("inv", L.inv, [(3, 3)]),
    ("inv_batched", L.inv, [(2, 3, 3)]),
    ("det", L.det, [(3, 3)]),
    ("solve", L.solve, [(3, 3), (3, 2)]),
    ("solve_vector", L.solve, [(3, 3), (3,)]),
    ("solve_right", lambda A, B: L.solve(A, B, left=False), [(3, 3), (2, 3)]),
]


@pytest.mark.parametrize(
    ("fn", "shapes"), [c[1:] for c in COMPLEX_LU_CASES], ids=[c[0] for c in COMPLEX_LU_CASES]
)
def test_complex_lu_family_gradcheck(fn: Callable[..., Any], shapes: list[tuple[int, ...]]) -> None:
    inputs = [crand(*s, seed=100 + k) for k, s in enumerate(shapes)]
    assert gradcheck(fn, inputs)
    assert gradgradcheck(fn, inputs)
