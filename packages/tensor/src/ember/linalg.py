"""``ember.linalg``: torch.linalg's functions over ember tensors.

Decompositions and solvers (LU, Cholesky, QR, SVD, eig, eigh, least squares, inverses,
determinants) run LAPACK from the OpenBLAS that ember already uses for matrix products, one matrix
per thread of ember's pool. Every function takes float32/float64 matrices in the last two dims,
batched over the leading ones, and returns new contiguous tensors; eig, eigvals, det, inv and
solve also take complex64/complex128. Norms, ranks, pseudo-inverses, powers and the
other composites are written here with ember's tensor ops.

Singular and non-positive-definite inputs raise :class:`LinAlgError` (a ``RuntimeError``); the
``_ex`` variants return LAPACK's ``info`` per matrix instead. ``eig``/``eigvals`` also take complex
matrices and always return complex results.
"""

from __future__ import annotations

from typing import cast

from ember._linalg_composite import (
    cond,
    cross,
    diagonal,
    matrix_norm,
    matrix_power,
    matrix_rank,
    multi_dot,
    norm,
    pinv,
    vecdot,
    vector_norm,
)
from ember._linalg_helpers import RT as _RT
from ember._linalg_helpers import N as _N
from ember._linalg_helpers import check_bool as _check_bool
from ember._linalg_helpers import check_uplo as _check_uplo
from ember._linalg_helpers import out as _out
from ember._matrix_functions import matrix_exp, solve_triangular
from ember._tensor import Tensor
from ember_core import _C

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "inv_ex",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_triangular",
    "solve_ex",
    "svd",
    "svdvals",
    "vecdot",
    "vector_norm",
]

LinAlgError: type[RuntimeError] = _C._LinAlgError
"""Raised for singular or non-positive-definite inputs and when an algorithm does not converge."""

matmul = _C.matmul


# --- factorizations and solvers (LAPACK) -----------------------------------------------------


def cholesky_ex(
    A: Tensor, *, upper: bool = False, check_errors: bool = False, out: object = None
) -> tuple[Tensor, Tensor]:
    """Cholesky factor of symmetric positive-definite matrices, and LAPACK's info per matrix.

    ``info`` is 0 on success, else the order of the leading minor that is not positive-definite.

    Example:
        >>> L, info = ember.linalg.cholesky_ex(ember.tensor([[4.0, 2.0], [2.0, 3.0]]))
        >>> L
        tensor([[2.0000, 0.0000],
                [1.0000, 1.4142]])
    """
    op = "linalg.cholesky_ex"
    up, check = _check_bool(upper, op, "upper"), _check_bool(check_errors, op, "check_errors")
    result = _RT.linalg_cholesky_ex(*_N._linalg_cholesky_ex(A, up, check, op))
    return cast("tuple[Tensor, Tensor]", _out(result, out, op))


def cholesky(A: Tensor, *, upper: bool = False, out: object = None) -> Tensor:
    """Cholesky factor ``L`` with ``A = L @ L.mT`` (or ``U`` with ``A = U.mT @ U`` when upper).

    Only the lower (upper) triangle of ``A`` is read. Raises :class:`LinAlgError` when a matrix is
    not positive-definite.

    Example:
        >>> ember.linalg.cholesky(ember.tensor([[4.0, 2.0], [2.0, 3.0]]), upper=True)
        tensor([[2.0000, 1.0000],
                [0.0000, 1.4142]])
    """
    op = "linalg.cholesky"
    L = _N._linalg_cholesky_ex(A, _check_bool(upper, op, "upper"), True, op)[0]
    return cast(Tensor, _out(L, out, op))


def inv_ex(A: Tensor, *, check_errors: bool = False, out: object = None) -> tuple[Tensor, Tensor]:
    """Inverse of square matrices and LAPACK's info (the 1-based index of a zero pivot, else 0).

    Example:
        >>> ember.linalg.inv_ex(ember.tensor([[4.0, 7.0], [2.0, 6.0]])).inverse
        tensor([[ 0.6000, -0.7000],
                [-0.2000,  0.4000]])
    """
    op = "linalg.inv_ex"
    check = _check_bool(check_errors, op, "check_errors")
    result = _RT.linalg_inv_ex(*_N._linalg_inv_ex(A, check, op))
    return cast("tuple[Tensor, Tensor]", _out(result, out, op))


def inv(A: Tensor, *, out: object = None) -> Tensor:
    """Inverse of square matrices; raises :class:`LinAlgError` for a singular one.

    Example:
        >>> ember.linalg.inv(ember.tensor([[4.0, 7.0], [2.0, 6.0]]))
        tensor([[ 0.6000, -0.7000],
                [-0.2000,  0.4000]])
    """
    op = "linalg.inv"
    return cast(Tensor, _out(_N._linalg_inv_ex(A, True, op)[0], out, op))


def det(A: Tensor, *, out: object = None) -> Tensor:
    """Determinant of square matrices (1 for 0 x 0 ones), from an LU factorization.

    Example:
        >>> ember.linalg.det(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor(-2.)
    """
    op = "linalg.det"
    return cast(Tensor, _out(_N._linalg_det(A, op), out, op))


def slogdet(A: Tensor, *, out: object = None) -> tuple[Tensor, Tensor]:
    """Sign and natural log of the absolute value of the determinant (sign 0 and -inf if singular).

    Example:
        >>> ember.linalg.slogdet(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        linalg_slogdet(sign=tensor(-1.), logabsdet=tensor(0.6931))
    """
    op = "linalg.slogdet"
    result = _RT.linalg_slogdet(*_N._linalg_slogdet(A, op))
    return cast("tuple[Tensor, Tensor]", _out(result, out, op))


def solve_ex(
    A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False, out: object = None
) -> tuple[Tensor, Tensor]:
    """Solution of ``A X = B`` (``X A = B`` when not left) and LAPACK's info per matrix.

    ``B`` is a batch of vectors when it is 1-D or has ``A``'s shape without its last dim; batch
    dims broadcast.

    Example:
        >>> A = ember.tensor([[2.0, 0.0], [0.0, 4.0]])
        >>> ember.linalg.solve_ex(A, ember.tensor([2.0, 2.0])).result
        tensor([1.0000, 0.5000])
    """
    op = "linalg.solve_ex"
    lf, check = _check_bool(left, op, "left"), _check_bool(check_errors, op, "check_errors")
    result = _RT.linalg_solve_ex(*_N._linalg_solve_ex(A, B, lf, check, op))
    return cast("tuple[Tensor, Tensor]", _out(result, out, op))


def solve(A: Tensor, B: Tensor, *, left: bool = True, out: object = None) -> Tensor:
    """Solution of ``A X = B`` (``X A = B`` when not left); raises :class:`LinAlgError` if singular.

    Example:
        >>> A = ember.tensor([[2.0, 0.0], [0.0, 4.0]])
        >>> ember.linalg.solve(A, ember.tensor([[2.0], [2.0]]))
        tensor([[1.0000],
                [0.5000]])
    """
    op = "linalg.solve"
    X = _N._linalg_solve_ex(A, B, _check_bool(left, op, "left"), True, op)[0]
    return cast(Tensor, _out(X, out, op))


def lu_factor_ex(
    A: Tensor, *, pivot: bool = True, check_errors: bool = False, out: object = None
) -> tuple[Tensor, Tensor, Tensor]:
    """Compact LU factorization with partial pivoting, and LAPACK's info per matrix.

    Returns ``(LU, pivots, info)``: ``L`` (unit diagonal) and ``U`` packed in one matrix, the
    1-based row swaps (int32) and 0 or the 1-based index of a zero pivot of ``U``.

    Example:
        >>> ember.linalg.lu_factor_ex(ember.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
        tensor([2, 2], dtype=ember.int32)
    """
    op = "linalg.lu_factor_ex"
    piv, check = _check_bool(pivot, op, "pivot"), _check_bool(check_errors, op, "check_errors")
    result = _RT.linalg_lu_factor_ex(*_N._linalg_lu_factor_ex(A, piv, check, op))
    return cast("tuple[Tensor, Tensor, Tensor]", _out(result, out, op))


def lu_factor(A: Tensor, *, pivot: bool = True, out: object = None) -> tuple[Tensor, Tensor]:
    """Compact LU factorization ``(LU, pivots)``; raises :class:`LinAlgError` for a zero pivot.

    Example:
        >>> LU, pivots = ember.linalg.lu_factor(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> ember.linalg.lu_solve(LU, pivots, ember.tensor([[5.0], [11.0]]))
        tensor([[1.],
                [2.]])
    """
    op = "linalg.lu_factor"
    LU, pivots, _ = _N._linalg_lu_factor_ex(A, _check_bool(pivot, op, "pivot"), True, op)
    return cast("tuple[Tensor, Tensor]", _out(_RT.linalg_lu_factor(LU, pivots), out, op))


def lu(A: Tensor, *, pivot: bool = True, out: object = None) -> tuple[Tensor, Tensor, Tensor]:
    """LU factorization ``A = P @ L @ U`` as separate matrices (singular inputs allowed).

    Example:
        >>> P, L, U = ember.linalg.lu(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        >>> P @ L @ U
        tensor([[1., 2.],
                [3., 4.]])
    """
    op = "linalg.lu"
    LU, pivots, _ = _N._linalg_lu_factor_ex(A, _check_bool(pivot, op, "pivot"), False, op)
    result = _RT.linalg_lu(*_N._lu_unpack(LU, pivots, True, True, op))
    return cast("tuple[Tensor, Tensor, Tensor]", _out(result, out, op))


def lu_solve(
    LU: Tensor,
    pivots: Tensor,
    B: Tensor,
    *,
    left: bool = True,
    adjoint: bool = False,
    out: object = None,
) -> Tensor:
    """Solves ``A X = B`` (``X A = B`` when not left, with ``A^T`` when adjoint) from lu_factor.

    Example:
        >>> LU, pivots = ember.linalg.lu_factor(ember.tensor([[2.0, 0.0], [0.0, 4.0]]))
        >>> ember.linalg.lu_solve(LU, pivots, ember.tensor([[2.0], [2.0]]))
        tensor([[1.0000],
                [0.5000]])
    """
    op = "linalg.lu_solve"
    lf, adj = _check_bool(left, op, "left"), _check_bool(adjoint, op, "adjoint")
    return cast(Tensor, _out(_N._linalg_lu_solve(LU, pivots, B, lf, adj, op), out, op))


def qr(A: Tensor, mode: str = "reduced", *, out: object = None) -> tuple[Tensor, Tensor]:
    """QR decomposition ``A = Q @ R``; mode ``'reduced'``, ``'complete'`` or ``'r'`` (Q empty).

    Example:
        >>> Q, R = ember.linalg.qr(ember.tensor([[3.0, 1.0], [4.0, 2.0]]))
        >>> R
        tensor([[-5.0000, -2.2000],
                [ 0.0000,  0.4000]])
    """
    op = "linalg.qr"
    if not isinstance(mode, str):
        raise TypeError(f"[{op}] argument 'mode' must be str, not {type(mode).__name__}")
    result = _RT.linalg_qr(*_N._linalg_qr(A, mode, op))
    return cast("tuple[Tensor, Tensor]", _out(result, out, op))


def _check_driver(driver: object, op: str) -> None:
    if driver is not None:
        raise RuntimeError(
            f"[{op}] keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER "
            "backend."
        )


def svd(
    A: Tensor, full_matrices: bool = True, *, driver: str | None = None, out: object = None
) -> tuple[Tensor, Tensor, Tensor]:
    """Singular value decomposition ``A = U @ diag(S) @ Vh``, singular values descending.

    ``full_matrices=False`` gives the reduced form (``U``: m x k, ``Vh``: k x n, k = min(m, n)).

    Example:
        >>> ember.linalg.svd(ember.tensor([[3.0, 0.0], [0.0, -2.0]])).S
        tensor([3., 2.])
    """
    op = "linalg.svd"
    _check_driver(driver, op)
    full = _check_bool(full_matrices, op, "full_matrices")
    result = _RT.linalg_svd(*_N._linalg_svd(A, full, True, op))
    return cast("tuple[Tensor, Tensor, Tensor]", _out(result, out, op))


def svdvals(A: Tensor, *, driver: str | None = None, out: object = None) -> Tensor:
    """Singular values, descending.

    Example:
        >>> ember.linalg.svdvals(ember.tensor([[3.0, 0.0], [0.0, -2.0]]))
        tensor([3., 2.])
    """
    op = "linalg.svdvals"
    _check_driver(driver, op)
    return cast(Tensor, _out(_N._linalg_svd(A, False, False, op)[1], out, op))


def eigh(A: Tensor, UPLO: str = "L", *, out: object = None) -> tuple[Tensor, Tensor]:
    """Eigenvalues (ascending) and eigenvectors (columns) of symmetric matrices.

    Only the ``UPLO`` (``'L'`` or ``'U'``) triangle of ``A`` is read.

    Example:
        >>> ember.linalg.eigh(ember.tensor([[2.0, 1.0], [1.0, 2.0]])).eigenvalues
        tensor([1., 3.])
    """
    op = "linalg.eigh"
    result = _RT.linalg_eigh(*_N._linalg_eigh(A, _check_uplo(UPLO, op), True, op))
    return cast("tuple[Tensor, Tensor]", _out(result, out, op))


def eigvalsh(A: Tensor, UPLO: str = "L", *, out: object = None) -> Tensor:
    """Eigenvalues (ascending) of symmetric matrices, from their ``UPLO`` triangle.

    Example:
        >>> ember.linalg.eigvalsh(ember.tensor([[2.0, 1.0], [1.0, 2.0]]))
        tensor([1., 3.])
    """
    op = "linalg.eigvalsh"
    w = _N._linalg_eigh(A, _check_uplo(UPLO, op), False, op)[0]
    return cast(Tensor, _out(w, out, op))


def _eig_out(result: object, out: object, op: str, names: tuple[str, ...]) -> object:
    """out= for eig/eigvals, torch's rule: any complex dtype takes the result (cast to it)."""
    if out is None:
        return result
    results = result if isinstance(result, tuple) else (result,)
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    if isinstance(result, tuple) and (not isinstance(out, (tuple, list)) or len(outs) != 2):
        raise TypeError(f"[{op}] argument 'out' must be a tuple of {len(result)} tensors")
    cast_results = []
    for o, r, name in zip(outs, results, names, strict=False):
        dtype = getattr(o, "dtype", None)
        if dtype is not None and not dtype.is_complex:
            raise RuntimeError(
                f"[{op}] Expected {name} to be safely castable from {r.dtype} dtype, but got "
                f"{name} with dtype {dtype}"
            )
        cast_results.append(r if dtype is None or dtype == r.dtype else r.to(dtype))
    if isinstance(result, tuple):
        return _out(type(result)(*cast_results), out, op)
    return _out(cast_results[0], out, op)


def eig(A: Tensor, *, out: object = None) -> tuple[Tensor, Tensor]:
    """Eigenvalues and eigenvectors (columns) of general square matrices, as complex tensors.

    Results are complex64 for float32/complex64 input and complex128 for float64/complex128, in
    LAPACK's (geev's) order; each eigenvector has norm 1 and its largest component real. Matrices
    holding infs or NaNs raise ``RuntimeError``; a QR iteration that does not converge raises
    :class:`LinAlgError`. Use :func:`eigh` for symmetric matrices (real, sorted results).

    Example:
        >>> ember.linalg.eig(ember.tensor([[0.0, -1.0], [1.0, 0.0]])).eigenvalues
        tensor([0.+1.j, 0.-1.j])
    """
    op = "linalg.eig"
    result = _RT.linalg_eig(*_N._linalg_eig(A, True, op))
    names = ("eigenvalues", "eigenvectors")
    return cast("tuple[Tensor, Tensor]", _eig_out(result, out, op, names))


def eigvals(A: Tensor, *, out: object = None) -> Tensor:
    """Eigenvalues of general square matrices (complex, in LAPACK's order; see :func:`eig`).

    Example:
        >>> ember.linalg.eigvals(ember.tensor([[2.0, 1.0], [0.0, 3.0]]))
        tensor([2.+0.j, 3.+0.j])
    """
    op = "linalg.eigvals"
    w = _N._linalg_eig(A, False, op)[0]
    return cast(Tensor, _eig_out(w, out, op, ("eigenvalues",)))


def lstsq(
    A: Tensor, B: Tensor, rcond: float | None = None, *, driver: str | None = None
) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Least-squares solution of ``A X = B``: ``(solution, residuals, rank, singular_values)``.

    ``driver`` is ``'gelsy'`` (the default on CPU, as in torch), ``'gelsd'``, ``'gelss'`` or
    ``'gels'`` (full rank assumed). ``rank`` comes from all but gels, ``singular_values`` from
    gelsd/gelss; ``residuals`` (squared) when m > n, every matrix has full rank and the driver is
    not gelsy. Fields a driver does not give are empty tensors.

    Example:
        >>> A = ember.tensor([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
        >>> ember.linalg.lstsq(A, ember.tensor([[1.0], [2.0], [3.0]]), driver="gelsd").residuals
        tensor([9.])
    """
    op = "linalg.lstsq"
    if rcond is not None and (isinstance(rcond, bool) or not isinstance(rcond, (int, float))):
        raise TypeError(f"[{op}] argument 'rcond' must be float, not {type(rcond).__name__}")
    if driver is not None and not isinstance(driver, str):
        raise TypeError(f"[{op}] argument 'driver' must be str, not {type(driver).__name__}")
    result = _N._linalg_lstsq(A, B, rcond, "gelsy" if driver is None else driver, op)
    return cast("tuple[Tensor, Tensor, Tensor, Tensor]", _RT.linalg_lstsq(*result))
