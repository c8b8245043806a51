"""Derivatives of the LAPACK-backed linalg natives (``_C._linalg_inv_ex``, ``_linalg_svd``, ...).

ember.linalg's public functions call these private natives, so their rules make inv, solve, det,
cholesky, qr, svd, eigh, lstsq and the LU family differentiable, and the composites built on them
(norms, pinv, cond, matrix_power) through them. The formulas are torch's (FunctionsManual.cpp),
real case; every one is written with recorded ops, so the gradients are differentiable again.
Outputs such as LAPACK's ``info`` and the pivots carry no gradient (``outputs=``).
"""

from __future__ import annotations

from typing import Any

import ember
from ember._dtype import finfo
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import conj
from ember_core import _C


def _solve(A: Any, B: Any, left: bool = True) -> Any:
    """``A^-1 B`` (``B A^-1`` when not left) through the recorded native, without error checks."""
    return _C._linalg_solve_ex(A, B, left, False, "linalg.solve")[0]


def _eye_like(A: Any) -> Any:
    return ember.eye(A.shape[-1], dtype=A.dtype)


def _is_zero(g: Any) -> bool:
    """An output gradient that is all zeros: the engine's stand-in for an unused output."""
    return g.numel() == 0 or not bool(g.any())


# --- inverse, solve, determinants ----------------------------------------------------------------


def _inv(g: Any, inverse: Any) -> Any:
    """d(A^-1) = -A^-1 dA A^-1, so gA = -A^-H g A^-H (A^-T for real A)."""
    inverse_t = inverse.mH
    return -(inverse_t @ (g @ inverse_t))


def _is_vector_rhs(A_shape: Any, B_shape: Any) -> bool:
    """torch's rule: B is a batch of vectors when 1-D or A's shape without its last dim."""
    return len(B_shape) == 1 or tuple(B_shape) == tuple(A_shape[:-1])


def _solve_B(g: Any, a: Any) -> Any:
    """X = A^-1 B gives gB = A^-H gX; X = B A^-1 gives gB = gX A^-H (^-T for real A)."""
    return _solve(a.A.mH, g[0], a.left)


def _solve_A(g: Any, a: Any) -> Any:
    gB = _solve_B(g, a)
    X = a.result[0]
    if not a.left:
        return -(X.mH @ gB)
    if _is_vector_rhs(a.A.shape, a.B_shape):
        return -(gB.unsqueeze(-1) * conj(X).unsqueeze(-2))
    return -(gB @ X.mH)


def _prod_of_others(s: Any) -> Any:
    """``prod_{j != i} s_j`` along the last dim, without dividing (s may hold zeros)."""
    ones = ember.ones_like(s.narrow(-1, 0, 1))
    n = s.shape[-1]
    if n == 1:
        return ones
    left = ember.cat([ones, s.narrow(-1, 0, n - 1)], -1).cumprod(-1)
    right = ember.cat([s.narrow(-1, 1, n - 1), ones], -1).flip(-1).cumprod(-1).flip(-1)
    return left * right


def _det(g: Any, A: Any, det: Any) -> Any:
    """The cofactor matrix g conj(det(A)) A^-H by a solve (A^-T for real A); singular and
    ill-conditioned matrices (where A^-1 does not exist or loses most digits) take it from the
    SVD: det = det(U) det(Vh) prod(S), whose product rule needs no division (real A only: the
    SVD does not take complex input yet)."""
    if A.numel() == 0:
        return ember.zeros_like(A)
    eye = _eye_like(A)
    scale = (g * conj(det)).unsqueeze(-1).unsqueeze(-1)
    inverse_t = _solve(A.mH, eye)
    # cond_F(A) = |A| |A^-1| (nan or inf when singular); the solve keeps half the digits or more.
    cond = A.detach().abs().norm(dim=(-2, -1)) * inverse_t.detach().abs().norm(dim=(-2, -1))
    singular = ~(cond * finfo(A.dtype).eps ** 0.5 < 1)
    if not bool(singular.any()):
        return scale * inverse_t
    # Each branch sees harmless matrices where the other is used: the gradient of the unused
    # branch is zero but must not be 0 * nan (a singular solve, or svd with repeated values).
    mask = singular.unsqueeze(-1).unsqueeze(-1)
    by_solve = scale * _solve(ember.where(mask, eye, A).mH, eye)
    distinct = ember.arange(1, A.shape[-1] + 1, dtype=A.dtype).diag_embed()
    U, S, Vh = _C._linalg_svd(ember.where(mask, A, distinct), False, True, "linalg.det")
    alpha = _C._linalg_det(U, "linalg.det") * _C._linalg_det(Vh, "linalg.det") * g
    D = _prod_of_others(S) * alpha.unsqueeze(-1)
    by_svd = (U * D.unsqueeze(-2)) @ Vh
    return ember.where(mask, by_svd, by_solve)


def _slogdet(g: Any, A: Any) -> Any:
    """d log|det A| = tr(A^-1 dA): gA = g A^-T (inf/nan for singular A, as in torch)."""
    g_logabsdet = g[1].unsqueeze(-1).unsqueeze(-1)
    return _solve(A.mT, g_logabsdet * _eye_like(A))


# --- Cholesky, QR ------------------------------------------------------------------------------


def _cholesky(g: Any, L: Any, upper: bool) -> Any:
    """gA = L^-T Phi(L^T gL) L^-1 with Phi taking the lower triangle, diagonal halved
    (symmetrized, since only one triangle of A is read)."""
    gL = g[0]
    if upper:
        L, gL = L.mT, gL.mT
    phi = (L.mT @ gL).tril()
    phi = 0.5 * (phi + phi.tril(-1).mT)
    return _solve(L, _solve(L.mT, phi), left=False)


def _qr_tall(gQ: Any, gR: Any, Q: Any, R: Any) -> Any:
    """m >= n: gA = [gQ + Q copyltu(M)] R^-T with M = R gR^T - gQ^T Q."""
    M = R @ gR.mT - gQ.mT @ Q
    copyltu = M.tril() + M.tril(-1).mT
    return _solve(R.mT, gQ + Q @ copyltu, left=False)


def _qr(g: Any, a: Any) -> Any:
    gQ, gR = g
    Q, R = a.result
    if a.mode == "r":
        raise RuntimeError(
            "[linalg.qr] The derivative of linalg.qr depends on Q, which is not computed when "
            "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
            "differentiate through linalg.qr."
        )
    m, n = a.A_shape[-2], a.A_shape[-1]
    if a.mode == "complete" and m > n:
        raise RuntimeError(
            "[linalg.qr] The QR decomposition is not differentiable when mode='complete' and "
            f"nrows > ncols (got {m} x {n} matrices)."
        )
    if m >= n:
        return _qr_tall(gQ, gR, Q, R)
    # Wide: A = [X | Y] with X = Q U square and Y = Q V; Y's gradient reaches X through Q.
    U, V = R.narrow(-1, 0, m), R.narrow(-1, m, n - m)
    gU, gV = gR.narrow(-1, 0, m), gR.narrow(-1, m, n - m)
    gX = _qr_tall(gQ + (Q @ V) @ gV.mT, gU, Q, U)
    return ember.cat([gX, Q @ gV], -1)


# --- SVD, eigh ---------------------------------------------------------------------------------


def _svd(g: Any, a: Any) -> Any:
    """torch's svd_backward: gauge-invariant losses only (the phases of U/V are arbitrary)."""
    gU, gS, gVh = g
    U, S, Vh = a.result
    if not a.compute_uv:  # svdvals: U and V were not computed, the S-only formula needs them
        U, _, Vh = _C._linalg_svd(a.A, False, True, "linalg.svd")
    k = S.shape[-1]
    if a.full_matrices and a.compute_uv:
        # Only the first k columns of U (rows of Vh) are determined by A.
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
        gU, gVh = gU.narrow(-1, 0, k), gVh.narrow(-2, 0, k)
    m, n = a.A_shape[-2], a.A_shape[-1]
    use_U = a.compute_uv and not _is_zero(gU)
    use_V = a.compute_uv and not _is_zero(gVh)
    if not use_U and not use_V:
        return U @ (gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)) @ Vh
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + ember.eye(k, dtype=S.dtype)
    inner = gS.diag_embed()
    if use_U:
        UhgU = U.mT @ gU
        inner = inner + (UhgU - UhgU.mT) * S.unsqueeze(-2) / E
    if use_V:
        VhgV = Vh @ gVh.mT
        inner = inner + S.unsqueeze(-1) * (VhgV - VhgV.mT) / E
    if m > n and use_U:
        # gA = [U inner + (I - U U^T) gU S^-1] Vh
        gUSinv = gU / S.unsqueeze(-2)
        return (U @ inner + gUSinv - U @ (U.mT @ gUSinv)) @ Vh
    if m < n and use_V:
        # gA = U [inner Vh + S^-1 gVh (I - V Vh)]
        SinvgVh = gVh / S.unsqueeze(-1)
        return U @ (inner @ Vh + SinvgVh - (SinvgVh @ Vh.mT) @ Vh)
    return U @ (inner @ Vh)


def _eigh(g: Any, a: Any) -> Any:
    """gA = V (skew(V^T gV) / E + diag(gL)) V^T, E_ij = L_j - L_i (symmetric, like torch's)."""
    gL, gV = g
    L, V = a.result
    if not a.compute_v:  # eigvalsh: the eigenvectors were not computed
        V = _C._linalg_eigh(a.A, a.UPLO, True, "linalg.eigh")[1]
    if not a.compute_v or _is_zero(gV):
        return (V * gL.unsqueeze(-2)) @ V.mT
    VhgV = V.mT @ gV
    VhgV = 0.5 * (VhgV - VhgV.mT)
    E = L.unsqueeze(-2) - L.unsqueeze(-1) + ember.eye(L.shape[-1], dtype=L.dtype)
    return V @ ((VhgV / E + gL.diag_embed()) @ V.mT)


def _eig(g: Any, a: Any) -> Any:
    """torch's linalg_eig_backward: gA = V^{-H} (diag(gL) + P(V^H gV) / conj(E)) V^H, with
    E_ij = L_j - L_i and P removing what normalising each eigenvector fixes (V's columns have
    norm 1, so only the part of V^H gV off the real diagonal carries information)."""
    gL, gV = g
    L, V = a.result
    if not a.compute_v:  # eigvals: the eigenvectors were not computed
        V = _C._linalg_eig(a.A, True, "linalg.eig")[1]
    Vh = V.mH
    if not a.compute_v or _is_zero(gV):
        return _solve(Vh, gL.unsqueeze(-1) * Vh)
    VhgV = Vh @ gV
    diagonal = VhgV.diagonal(0, -2, -1)
    # An eigenvector is defined up to a phase e^{i phi}; a loss that depends on it has no gradient.
    if not bool((diagonal.imag.abs() <= 1e-2 + 1e-2 * diagonal.abs()).all()):
        raise RuntimeError(
            "[linalg_eig_backward] The eigenvectors in the complex case are specified up to "
            "multiplication by e^{i phi}. The specified loss function depends on this quantity, "
            "so it is ill-defined."
        )
    VhgV = VhgV - Vh @ (V * diagonal.real.unsqueeze(-2))
    Lconj = L.conj()
    n = L.shape[-1]
    E = Lconj.unsqueeze(-2) - Lconj.unsqueeze(-1) + ember.eye(n, dtype=L.dtype)
    inner = VhgV / E
    inner = inner - inner.diagonal(0, -2, -1).diag_embed() + gL.diag_embed()
    return _solve(Vh, inner @ Vh)


# --- least squares -----------------------------------------------------------------------------


def _pinv_backward(g: Any, pinvA: Any, A: Any) -> Any:
    """Gradient through A -> pinv(A) (constant rank), torch's pinv_backward."""
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gh = pinvA.mT, g.mT
    if m <= n:
        K = gh @ pinvA
        KpinvAh = K @ pinvAh
        return -(pinvA @ K).mT + KpinvAh - (A @ pinvA) @ KpinvAh + (pinvAh @ pinvA) @ (gh - K @ A)
    K = pinvA @ gh
    pinvAhK = pinvAh @ K
    return -(K @ pinvA).mT + (gh - A @ K) @ pinvA @ pinvAh + pinvAhK - pinvAhK @ pinvA @ A


def _lstsq_grads(g: Any, a: Any, for_A: bool) -> Any:
    """torch's lstsq_backward: the solution as X = pinv(A) B, and the squared residuals
    |A X - B|^2 (given when m > n), whose X-dependence vanishes at the optimum."""
    gX, g_residuals = g[0], g[1]
    A, B, X = a.A, a.B, a.result[0]
    vector = _is_vector_rhs(A.shape, B.shape)
    if vector:
        gX, B, X = gX.unsqueeze(-1), B.unsqueeze(-1), X.unsqueeze(-1)
    grad = None
    if not _is_zero(gX):
        pinvA = ember.linalg.pinv(A)
        grad = _pinv_backward(gX @ B.mT, pinvA, A) if for_A else pinvA.mT @ gX
    if not _is_zero(g_residuals):
        weighted = 2 * g_residuals.unsqueeze(-2) * (A @ X - B)
        term = weighted @ X.mT if for_A else -weighted
        grad = term if grad is None else grad + term
    if grad is None:
        return ember.zeros_like(a.A if for_A else a.B)
    return grad.squeeze(-1) if vector and not for_A else grad


# --- LU ----------------------------------------------------------------------------------------


def _lu_factor(g: Any, a: Any) -> Any:
    """torch's linalg_lu_backward for A = P L U (square, wide and tall)."""
    LU, pivots = a.result[0], a.result[1]
    P, L, U = _C._lu_unpack(LU, pivots, True, a.pivot, "linalg.lu_factor")
    grad = g[0]
    m, n = LU.shape[-2], LU.shape[-1]
    k = min(m, n)
    gL, gU = grad.narrow(-1, 0, k).tril(-1), grad.narrow(-2, 0, k).triu()
    if m == n:
        gA = (L.mT @ gL).tril(-1) + (gU @ U.mT).triu()
        gA = _solve(L.mT, _solve(U.mT, gA, left=False))
    elif m < n:
        U1, gU1, gU2 = U.narrow(-1, 0, k), gU.narrow(-1, 0, k), gU.narrow(-1, k, n - k)
        gA = _solve(U1.mT, (L.mT @ gL - gU @ U.mT).tril(-1), left=False)
        gA = _solve(L.mT, ember.cat([gA + gU1, gU2], -1))
    else:
        L1, gL1, gL2 = L.narrow(-2, 0, k), gL.narrow(-2, 0, k), gL.narrow(-2, k, m - k)
        gA = _solve(L1.mT, (gU @ U.mT - L.mT @ gL).triu())
        gA = _solve(U.mT, ember.cat([gA + gL1, gL2], -2), left=False)
    return P @ gA if a.pivot else gA


def _lu_unpack(g: Any, a: Any) -> Any:
    """L and U are the strict lower and the upper triangles of LU: their gradients go back there."""
    _, gL, gU = g
    m, n = a.LU_shape[-2], a.LU_shape[-1]
    if not a.unpack_data:
        return ember.zeros(a.LU_shape, dtype=gL.dtype)
    gL, gU = gL.tril(-1), gU.triu()
    if m > n:
        gU = ember.cat([gU, ember.zeros((*gU.shape[:-2], m - n, n), dtype=gU.dtype)], -2)
    elif m < n:
        gL = ember.cat([gL, ember.zeros((*gL.shape[:-2], m, n - m), dtype=gL.dtype)], -1)
    return gL + gU


def _lu_solve_B(g: Any, a: Any) -> Any:
    """X = A^-1 B (left), A^-T B (adjoint), B A^-1, B A^-T: gB solves with the other transpose."""
    return _C._linalg_lu_solve(a.LU, a.pivots, g, a.left, not a.adjoint, "linalg.lu_solve")


def _lu_solve_LU(g: Any, a: Any) -> Any:
    """gA of the solve for A = P L U, then through the unpacking: gL = P^T gA U^T,
    gU = L^T P^T gA, and LU holds L's strict lower and U's upper triangle."""
    X, gB = a.result, _lu_solve_B(g, a)
    if a.left:
        gA = -(gB @ X.mT) if not a.adjoint else -(X @ gB.mT)
    else:
        gA = -(X.mT @ gB) if not a.adjoint else -(gB.mT @ X)
    P, L, U = _C._lu_unpack(a.LU, a.pivots, True, True, "linalg.lu_solve")
    PtgA = P.mT @ gA
    return (PtgA @ U.mT).tril(-1) + (L.mT @ PtgA).triu()


RULES: dict[str, Rule] = {
    "_linalg_inv_ex": Rule(outputs=(0,), A=lambda g, a: _inv(g[0], a.result[0])),
    "_linalg_solve_ex": Rule(outputs=(0,), A=_solve_A, B=_solve_B),
    "_linalg_det": Rule(A=lambda g, a: _det(g, a.A, a.result)),
    # The sign of a real determinant is piecewise constant: only logabsdet carries gradients.
    "_linalg_slogdet": Rule(outputs=(1,), A=lambda g, a: _slogdet(g, a.A)),
    "_linalg_cholesky_ex": Rule(
        outputs=(0,),
        A=lambda g, a: _cholesky(g, a.result[0], a.upper),
    ),
    "_linalg_qr": Rule(A=_qr),
    "_linalg_svd": Rule(A=_svd),
    "_linalg_eigh": Rule(A=_eigh),
    "_linalg_eig": Rule(A=_eig),
    "_linalg_lstsq": Rule(
        outputs=(0, 1),
        A=lambda g, a: _lstsq_grads(g, a, True),
        B=lambda g, a: _lstsq_grads(g, a, False),
    ),
    "_linalg_lu_factor_ex": Rule(outputs=(0,), A=_lu_factor),
    "_linalg_lu_solve": Rule(LU=_lu_solve_LU, B=_lu_solve_B),
    "_lu_unpack": Rule(outputs=(1, 2), LU=_lu_unpack),
}
