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


def qr(x: Array, complete: builtins.bool) -> QRResult:
    """``(Q, R)`` by Householder reflections ``I - 2 v v^H``, one per column."""
    m, n = x.shape[-2], x.shape[-1]
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
    r = E.triu(r)
    if complete:
        return QRResult(q, r)
    k = builtins.min(m, n)
    return QRResult(q[..., :, :k], r[..., :k, :])
