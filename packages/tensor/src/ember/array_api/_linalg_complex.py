"""Complex inputs for the ``linalg`` functions whose ember.linalg kernels are real-only.

Most go through the real embedding ``phi(B + iC) = [[B, -C], [C, B]]``: it keeps sums, products
and adjoints, so its singular values and (Hermitian) eigenvalues are A's, each twice, and
``det(phi(A)) = |det(A)|**2``. Cholesky and QR are short column loops over ember ops.
"""

from __future__ import annotations

import builtins
from typing import Any, NamedTuple

from ember.array_api._common import Array, E

Tolerance = float | Array | None


class EighResult(NamedTuple):
    """``eigh``'s result for complex input (the fields of ember.linalg.eigh's)."""

    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    """``qr``'s result for complex input."""

    Q: Any
    R: Any


class SVDResult(NamedTuple):
    """``svd``'s result for complex input."""

    U: Any
    S: Any
    Vh: Any


class SlogdetResult(NamedTuple):
    """``slogdet``'s result for complex input."""

    sign: Any
    logabsdet: Any


def embed(x: Array) -> Any:
    """The real ``(..., 2M, 2N)`` embedding of a complex ``(..., M, N)`` stack."""
    real, imag = E.real(x), E.imag(x)
    return E.cat([E.cat([real, -imag], -1), E.cat([imag, real], -1)], -2)


def _default_rtol(x: Array, rtol: Tolerance) -> Any:
    """The standard's default cutoff for an M x N matrix (not for its 2M x 2N embedding)."""
    if rtol is not None:
        return rtol
    return E.finfo(E.real(x).dtype).eps * builtins.max(x.shape[-2], x.shape[-1])


def _lower_hermitian(x: Array) -> Any:
    """The Hermitian matrix that x's lower triangle defines (the upper one is ignored)."""
    lower = E.tril(x, -1)
    diagonal = E.diag_embed(E.real(E.diagonal(x, 0, -2, -1)).to(x.dtype))
    return lower + diagonal + E.conj(lower.mT).resolve_conj()


def pinv(x: Array, rtol: Tolerance) -> Any:
    """The pseudo-inverse: pinv(phi(A)) is phi(pinv(A))."""
    m, n = x.shape[-2], x.shape[-1]
    inverse = E.linalg.pinv(embed(x), rtol=_default_rtol(x, rtol))
    return E.complex(inverse[..., :n, :m], inverse[..., n:, :m])


def svdvals(x: Array) -> Any:
    """The singular values, descending: phi(A) has each of them twice."""
    return E.linalg.svdvals(embed(x))[..., 0::2]


def matrix_rank(x: Array, rtol: Tolerance) -> Any:
    """The rank: phi(A)'s is twice A's, with the same largest singular value."""
    return E.linalg.matrix_rank(embed(x), rtol=_default_rtol(x, rtol)) // 2


def eigvalsh(x: Array) -> Any:
    """The eigenvalues of the Hermitian matrices x's lower triangles define, ascending."""
    return E.linalg.eigvalsh(embed(_lower_hermitian(x)))[..., 0::2]


def eigh(x: Array) -> EighResult:
    """Eigenvalues (ascending) and orthonormal eigenvectors of Hermitian matrices.

    The general complex eigensolver gives eigenvectors; sorted by eigenvalue, a QR makes them
    orthonormal inside each (contiguous) cluster of equal eigenvalues and keeps them otherwise.
    """
    hermitian = _lower_hermitian(x)
    values = eigvalsh(hermitian)
    if x.shape[-1] == 0:
        return EighResult(values, E.zeros_like(x))
    guesses, vectors = E.linalg.eig(hermitian)
    order = E.argsort(E.real(guesses), dim=-1, stable=True)
    vectors = E.take_along_dim(vectors, order.unsqueeze(-2).expand(vectors.shape), dim=-1)
    q, r = qr(vectors, complete=False)
    # A column's phase is free: make R's diagonal positive so each column keeps eig's direction.
    diagonal = E.diagonal(r, 0, -2, -1)
    magnitude = E.abs(diagonal)
    phase = E.where(magnitude == 0, E.ones_like(diagonal), diagonal / magnitude)
    return EighResult(values, (q * phase.unsqueeze(-2)).to(x.dtype))


def slogdet(x: Array) -> SlogdetResult:
    """``(sign, logabsdet)``: log|det A| is half phi(A)'s; the sign is the phase of det(A / c)
    for c = |det A| ** (1/n), which stays finite where det(A) itself would overflow."""
    n = x.shape[-1]
    logabsdet = E.linalg.slogdet(embed(x)).logabsdet / 2
    if n == 0:
        return SlogdetResult(E.ones(tuple(x.shape[:-2]), dtype=x.dtype), logabsdet)
    scale = E.exp(logabsdet / n)
    finite = E.isfinite(logabsdet)
    safe_scale = E.where(finite & (scale > 0), scale, E.ones_like(scale))
    det = E.linalg.det(x / safe_scale[..., None, None].to(x.dtype))
    magnitude = E.abs(det)
    sign = E.where(magnitude == 0, E.zeros_like(det), det / magnitude)
    return SlogdetResult(E.where(logabsdet == -E.inf, E.zeros_like(sign), sign), logabsdet)


def cholesky(x: Array, upper: builtins.bool) -> Any:
    """The lower (or upper, its adjoint) Cholesky factor of Hermitian positive-definite matrices,
    column by column from x's lower triangle."""
    n = x.shape[-1]
    rows = E.arange(n)
    columns: list[Any] = []
    for j in range(n):
        column = x[..., :, j]
        if columns:
            done = E.stack(columns, -1)  # (..., n, j)
            column = column - (done @ E.conj(done[..., j, :]).unsqueeze(-1)).squeeze(-1)
        pivot = E.real(column[..., j])
        if not builtins.bool(E.all(pivot > 0)):
            raise E.linalg.LinAlgError(  # ember's (and torch's) error for the real case
                f"[linalg.cholesky] the input is not positive-definite (the leading minor of "
                f"order {j + 1} is not positive-definite)"
            )
        root = E.sqrt(pivot).to(x.dtype)
        columns.append(E.where(rows < j, E.zeros_like(column), column / root.unsqueeze(-1)))
    factor = E.stack(columns, -1) if columns else E.zeros_like(x)
    return E.conj(factor.mT).resolve_conj() if upper else factor


def _scaled(x: Array) -> tuple[Any, Any]:
    """``(x / s, s)`` with s each matrix's largest magnitude (1 for zero matrices): the column
    norms below then cannot overflow (ember's vector_norm does not rescale)."""
    if x.numel() == 0:
        return x, E.ones((*x.shape[:-2], 1, 1), dtype=E.real(x).dtype)
    scale = E.amax(E.abs(x), dim=(-2, -1), keepdim=True)
    scale = E.where((scale > 0) & E.isfinite(scale), scale, E.ones_like(scale))
    return x / scale.to(x.dtype), scale


def qr(x: Array, complete: builtins.bool) -> QRResult:
    """``(Q, R)`` by Householder reflections ``I - 2 v v^H``, one per column."""
    m, n = x.shape[-2], x.shape[-1]
    x, scale = _scaled(x)
    r = x.clone()
    q = E.eye(m, dtype=x.dtype).expand((*x.shape[:-2], m, m)).clone()
    for j in range(builtins.min(m - 1, n)):
        column = r[..., j:, j]
        head = column[..., 0]
        magnitude = E.abs(head)
        phase = E.where(magnitude == 0, E.ones_like(head), head / magnitude)
        alpha = -phase * E.linalg.vector_norm(column, dim=-1).to(x.dtype)
        v = E.cat([(head - alpha).unsqueeze(-1), column[..., 1:]], -1)
        length = E.linalg.vector_norm(v, dim=-1, keepdim=True)
        v = E.where(length == 0, E.zeros_like(v), v / E.where(length == 0, 1, length).to(x.dtype))
        block = r[..., j:, :]
        r = E.cat(
            [r[..., :j, :], block - 2 * v.unsqueeze(-1) * (E.conj(v).unsqueeze(-2) @ block)], -2
        )
        tail = q[..., :, j:]
        q = E.cat(
            [q[..., :, :j], tail - 2 * (tail @ v.unsqueeze(-1)) * E.conj(v).unsqueeze(-2)], -1
        )
    r = E.triu(r) * scale.to(x.dtype)
    if complete:
        return QRResult(q, r)
    k = builtins.min(m, n)
    return QRResult(q[..., :, :k], r[..., :k, :])


def _round_robin(n: int) -> list[tuple[list[int], list[int]]]:
    """The n - 1 (n even) rounds of disjoint column pairs that meet every pair once."""
    players = list(range(n + n % 2))
    rounds = []
    for _ in range(len(players) - 1):
        half = len(players) // 2
        pairs = [(players[i], players[-1 - i]) for i in range(half)]
        pairs = [(p, q) for p, q in pairs if q < n and p < n]
        if pairs:
            rounds.append(([p for p, _ in pairs], [q for _, q in pairs]))
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _jacobi(a: Any) -> tuple[Any, Any]:
    """Rotates a's columns until they are orthogonal: returns ``(a V, V)`` with V unitary."""
    n = a.shape[-1]
    real_dtype = E.real(a).dtype
    eps = E.finfo(real_dtype).eps
    v = E.eye(n, dtype=a.dtype).expand((*a.shape[:-2], n, n)).clone()
    a = a.clone()
    rounds = _round_robin(n)
    for _ in range(60):  # quadratic convergence: a handful of sweeps in practice
        worst = 0.0
        for p_list, q_list in rounds:
            p, q = E.tensor(p_list, dtype=E.int64), E.tensor(q_list, dtype=E.int64)
            ap, aq = a[..., p], a[..., q]
            alpha = E.sum(E.square(E.abs(ap)), dim=-2)
            beta = E.sum(E.square(E.abs(aq)), dim=-2)
            gamma = E.sum(E.conj(ap) * aq, dim=-2)
            magnitude = E.abs(gamma)
            scale = E.sqrt(alpha * beta)
            rotate = magnitude > eps * scale
            if builtins.bool(E.any(rotate)):
                worst = builtins.max(worst, float(E.max(E.where(rotate, magnitude / scale, 0))))
            safe = E.where(rotate, magnitude, E.ones_like(magnitude))
            zeta = E.where(rotate, (beta - alpha) / (2 * safe), E.zeros_like(safe))
            sign = E.where(zeta >= 0, E.ones_like(zeta), -E.ones_like(zeta))
            t = E.where(rotate, sign / (E.abs(zeta) + E.hypot(E.ones_like(zeta), zeta)), 0)
            c = (1 / E.sqrt(1 + t * t)).to(a.dtype).unsqueeze(-2)
            s = c * t.to(a.dtype).unsqueeze(-2)
            phase = E.where(rotate, gamma / safe.to(a.dtype), E.ones_like(gamma))
            turn = E.conj(phase).unsqueeze(-2)
            for m in (a, v):
                mp, mq = m[..., p], m[..., q] * turn
                m[..., p] = c * mp - s * mq
                m[..., q] = s * mp + c * mq
        if worst <= n * eps:
            break
    return a, v


def svd(x: Array, full_matrices: builtins.bool) -> SVDResult:
    """``(U, S, Vh)`` with S descending: one-sided Jacobi makes ``A V``'s columns orthogonal (their
    norms are S), then a QR of ``A V`` gives U (completed to a square U when `full_matrices`)."""
    m, n = x.shape[-2], x.shape[-1]
    if m < n:  # A^H = U' S V'^H, so A = V' S U'^H
        u, s, vh = svd(E.conj(x.mT).resolve_conj(), full_matrices)
        return SVDResult(E.conj(vh.mT).resolve_conj(), s, E.conj(u.mT).resolve_conj())
    batch = tuple(x.shape[:-2])
    if n == 0:
        u = E.eye(m, dtype=x.dtype).expand((*batch, m, m)) if full_matrices else x[..., :, :0]
        return SVDResult(u.clone(), E.zeros((*batch, 0), dtype=E.real(x).dtype), x[..., :0, :0])
    scaled, scale = _scaled(x)
    rotated, v = _jacobi(scaled)
    rotated = rotated * scale.to(x.dtype)
    values = E.linalg.vector_norm(rotated / scale.to(x.dtype), dim=-2) * scale[..., 0]
    order = E.argsort(values, dim=-1, descending=True, stable=True)
    values = E.take_along_dim(values, order, dim=-1)
    columns = order.unsqueeze(-2)
    rotated = E.take_along_dim(rotated, columns.expand(rotated.shape), dim=-1)
    v = E.take_along_dim(v, columns.expand(v.shape), dim=-1)
    q, r = qr(rotated, complete=full_matrices)
    diagonal = E.diagonal(r, 0, -2, -1)
    size = E.abs(diagonal)
    phase = E.where(size == 0, E.ones_like(diagonal), diagonal / E.where(size == 0, 1, size))
    if full_matrices:
        phase = E.cat([phase, E.ones((*batch, m - n), dtype=x.dtype)], -1)
    return SVDResult(q * phase.unsqueeze(-2), values, E.conj(v.mT).resolve_conj())
