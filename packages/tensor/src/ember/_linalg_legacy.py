"""The top-level linalg functions torch keeps beside torch.linalg (``ember.det``, ``ember.svd``,
``ember.qr``, ...), some with their older signatures: ``svd(some=)`` returning ``V`` rather
than ``Vh``, ``qr(some=)``, ``cholesky(upper)`` positional, ``cross`` choosing the first dim of
size 3."""

from __future__ import annotations

import math
from typing import cast

from ember import linalg
from ember._linalg_helpers import RT, N, check_bool, check_tensor
from ember._linalg_helpers import out as write_out
from ember._tensor import Tensor

__all__ = [
    "cholesky",
    "cross",
    "det",
    "inverse",
    "logdet",
    "lu_unpack",
    "matrix_power",
    "pinverse",
    "qr",
    "slogdet",
    "svd",
]


def det(input: Tensor) -> Tensor:
    """Determinant of square matrices (see :func:`ember.linalg.det`).

    Example:
        >>> ember.det(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(-2.)
    """
    return linalg.det(input)


def slogdet(input: Tensor) -> tuple[Tensor, Tensor]:
    """Sign and log absolute value of the determinant (see :func:`ember.linalg.slogdet`).

    Example:
        >>> ember.slogdet(ember.tensor([[2.0, 0.0], [0.0, 3.0]])).logabsdet
        tensor(1.7918)
    """
    return cast("tuple[Tensor, Tensor]", RT.slogdet(*N._linalg_slogdet(input, "linalg.slogdet")))


def logdet(input: Tensor) -> Tensor:
    """Natural log of the determinant: ``nan`` when it is negative, ``-inf`` when it is zero.

    Example:
        >>> ember.logdet(ember.tensor([[2.0, 0.0], [0.0, 3.0]]))
        tensor(1.7918)
    """
    sign, logabsdet = N._linalg_slogdet(input, "logdet")
    return cast(Tensor, N.where(sign < 0, math.nan, logabsdet))


def inverse(input: Tensor, *, out: object = None) -> Tensor:
    """Inverse of square matrices (see :func:`ember.linalg.inv`).

    Example:
        >>> ember.inverse(ember.tensor([[4.0, 7.0], [2.0, 6.0]]))
        tensor([[ 0.6000, -0.7000],
                [-0.2000,  0.4000]])
    """
    return linalg.inv(input, out=out)


def cholesky(input: Tensor, upper: bool = False, *, out: object = None) -> Tensor:
    """Cholesky factor, lower (or upper) triangular (see :func:`ember.linalg.cholesky`).

    Example:
        >>> ember.cholesky(ember.tensor([[4.0, 2.0], [2.0, 3.0]]))
        tensor([[2.0000, 0.0000],
                [1.0000, 1.4142]])
    """
    op = "cholesky"
    L = N._linalg_cholesky_ex(input, check_bool(upper, op, "upper"), True, op)[0]
    return cast(Tensor, write_out(L, out, op))


def svd(
    input: Tensor, some: bool = True, compute_uv: bool = True, *, out: object = None
) -> tuple[Tensor, Tensor, Tensor]:
    """torch.svd: ``(U, S, V)`` with ``input = U @ diag(S) @ V.mT`` (note ``V``, not ``Vh``).

    ``some=False`` gives full ``U`` and ``V``; without ``compute_uv``, ``U`` and ``V`` are zero
    matrices of the full shapes.

    Example:
        >>> U, S, V = ember.svd(ember.tensor([[3.0, 0.0], [0.0, -2.0]]))
        >>> S
        tensor([3., 2.])
    """
    op = "svd"
    A = check_tensor(input, op)
    full = not check_bool(some, op, "some")
    if check_bool(compute_uv, op, "compute_uv"):
        U, S, Vh = N._linalg_svd(A, full, True, op)
        V = Vh.mT.contiguous()
    else:
        S = N._linalg_svd(A, False, False, op)[1]
        m, n = A.shape[-2:]
        U = N.zeros((*A.shape[:-2], m, m), dtype=A.dtype)
        V = N.zeros((*A.shape[:-2], n, n), dtype=A.dtype)
    return cast("tuple[Tensor, Tensor, Tensor]", write_out(RT.svd(U, S, V), out, op))


def qr(input: Tensor, some: bool = True, *, out: object = None) -> tuple[Tensor, Tensor]:
    """torch.qr: reduced QR when ``some`` (the default), complete otherwise.

    Example:
        >>> ember.qr(ember.tensor([[3.0, 1.0], [4.0, 2.0]])).R
        tensor([[-5.0000, -2.2000],
                [ 0.0000,  0.4000]])
    """
    op = "qr"
    mode = "reduced" if check_bool(some, op, "some") else "complete"
    return cast("tuple[Tensor, Tensor]", write_out(RT.qr(*N._linalg_qr(input, mode, op)), out, op))


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    """Pseudo-inverse with singular values below ``rcond * s_max`` dropped (see linalg.pinv).

    Example:
        >>> ember.pinverse(ember.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    return linalg.pinv(input, rtol=rcond)


def matrix_power(input: Tensor, n: int) -> Tensor:
    """``input`` to the integer power ``n`` (see :func:`ember.linalg.matrix_power`).

    Example:
        >>> ember.matrix_power(ember.tensor([[1.0, 1.0], [0.0, 1.0]]), 2)
        tensor([[1., 2.],
                [0., 1.]])
    """
    return linalg.matrix_power(input, n)


def cross(input: Tensor, other: Tensor, dim: int | None = None, *, out: object = None) -> Tensor:
    """Cross product along ``dim``; without ``dim``, along the first dim of size 3 (torch.cross).

    Example:
        >>> ember.cross(ember.tensor([1.0, 0.0, 0.0]), ember.tensor([0.0, 1.0, 0.0]))
        tensor([0., 0., 1.])
    """
    op = "cross"
    if dim is None:
        shape = check_tensor(input, op, "input").shape
        sizes = [i for i, s in enumerate(shape) if s == 3]
        if not sizes:
            raise RuntimeError(f"[{op}] no dimension of size 3 in input of shape {tuple(shape)}")
        dim = sizes[0]
    return linalg.cross(input, other, dim=dim, out=out)


def lu_unpack(
    LU_data: Tensor,
    LU_pivots: Tensor,
    unpack_data: bool = True,
    unpack_pivots: bool = True,
    *,
    out: object = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """``(P, L, U)`` from linalg.lu_factor's compact ``(LU, pivots)``: ``A = P @ L @ U``.

    Example:
        >>> LU, pivots = ember.linalg.lu_factor(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> P, L, U = ember.lu_unpack(LU, pivots)
        >>> P @ L @ U
        tensor([[1., 2.],
                [3., 4.]])
    """
    op = "lu_unpack"
    data = check_bool(unpack_data, op, "unpack_data")
    pivots = check_bool(unpack_pivots, op, "unpack_pivots")
    result = RT.lu_unpack(*N._lu_unpack(LU_data, LU_pivots, data, pivots, op))
    return cast("tuple[Tensor, Tensor, Tensor]", write_out(result, out, op))
