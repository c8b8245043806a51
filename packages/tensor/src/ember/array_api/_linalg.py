"""Linear algebra: the main namespace's functions and the ``linalg`` extension's."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, Literal

from ember.array_api import _linalg_complex as C
from ember.array_api._common import Array, E, accumulator_dtype, check_array, shape_of

Tolerance = float | Array | None


def _promoted(x1: Array, x2: Array, op: str) -> tuple[Any, Any]:
    """Both operands checked and cast to their promoted dtype (ember's products need one dtype)."""
    check_array(x1, op, "x1")
    check_array(x2, op, "x2")
    common = E.promote_types(x1.dtype, x2.dtype)
    return x1.to(common), x2.to(common)


def matmul(x1: Array, x2: Array, /) -> Array:
    """The matrix product, batched and broadcast over leading dims (1-D operands as vectors).

    Example:
        >>> matmul(ember.ones(2, 3), ember.ones(3)).shape
        ember.Size([2])
    """
    x1, x2 = _promoted(x1, x2, "matmul")
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("[matmul] 0-d operands are not allowed; use multiply")
    return E.matmul(x1, x2)  # type: ignore[no-any-return]


def matrix_transpose(x: Array, /) -> Array:
    """x with its last two axes swapped (a view).

    Example:
        >>> matrix_transpose(ember.zeros(4, 2, 3)).shape
        ember.Size([4, 3, 2])
    """
    check_array(x, "matrix_transpose")
    if x.ndim < 2:
        raise ValueError(f"[matrix_transpose] expected at least 2 dims, got shape {shape_of(x)}")
    transposed: Any = x.mT
    return transposed  # type: ignore[no-any-return]


def tensordot(
    x1: Array,
    x2: Array,
    /,
    *,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
) -> Array:
    """The sum of products over the last `axes` axes of x1 and the first of x2 (or given pairs).

    Example:
        >>> tensordot(ember.ones(2, 3), ember.ones(3, 4), axes=1).shape
        ember.Size([2, 4])
    """
    x1, x2 = _promoted(x1, x2, "tensordot")
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"[tensordot] axes must be non-negative, got {axes}")
        return E.tensordot(x1, x2, dims=axes)  # type: ignore[no-any-return]
    dims = ([int(a) for a in axes[0]], [int(a) for a in axes[1]])
    return E.tensordot(x1, x2, dims=dims)  # type: ignore[no-any-return]


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The dot product of vectors along `axis`, broadcast over the other axes (x1 conjugated).

    Example:
        >>> vecdot(ember.ones(2, 3), ember.ones(3))
        tensor([3., 3.])
    """
    x1, x2 = _promoted(x1, x2, "vecdot")
    if axis >= 0:
        raise ValueError(f"[vecdot] axis must be negative (counted from the end), got {axis}")
    if builtins.min(x1.ndim, x2.ndim) < -axis or x1.shape[axis] != x2.shape[axis]:
        # The reduced axis must match exactly: it does not broadcast.
        raise ValueError(
            f"[vecdot] axis {axis} must have one length in both arrays, got shapes "
            f"{shape_of(x1)} and {shape_of(x2)}"
        )
    x1, x2 = E.broadcast_tensors(x1, x2)
    if x1.is_floating_point():
        return E.linalg.vecdot(x1, x2, dim=axis)  # type: ignore[no-any-return]
    # Complex: x1 is conjugated. Integers: ember's vecdot is floating-only; the sum keeps the dtype.
    return E.sum(E.conj(x1) * x2, dim=axis, dtype=x1.dtype)  # type: ignore[no-any-return]


# --- the linalg extension ------------------------------------------------------------------


def cholesky(x: Array, /, *, upper: builtins.bool = False) -> Array:
    """The Cholesky factor of symmetric positive-definite matrices.

    Example:
        >>> cholesky(ember.eye(2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    if check_array(x, "cholesky").is_complex():
        return C.cholesky(x, upper)  # type: ignore[no-any-return]
    return E.linalg.cholesky(x, upper=upper)  # type: ignore[no-any-return]


def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """The cross product of 3-vectors along `axis`.

    Example:
        >>> cross(ember.tensor([1.0, 0, 0]), ember.tensor([0.0, 1, 0]))
        tensor([0., 0., 1.])
    """
    x1, x2 = _promoted(x1, x2, "cross")
    if x1.ndim != x2.ndim:  # the standard broadcasts; ember's cross needs equal ranks
        x1, x2 = E.broadcast_tensors(x1, x2)
    return E.linalg.cross(x1, x2, dim=axis)  # type: ignore[no-any-return]


def det(x: Array, /) -> Array:
    """The determinants of square matrices.

    Example:
        >>> det(ember.eye(2))
        tensor(1.)
    """
    return E.linalg.det(check_array(x, "det"))  # type: ignore[no-any-return]


def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """The diagonal `offset` of the last two axes.

    Example:
        >>> diagonal(ember.eye(2))
        tensor([1., 1.])
    """
    return E.linalg.diagonal(check_array(x, "diagonal"), offset=offset)  # type: ignore[no-any-return]


def eigh(x: Array, /) -> Any:
    """Eigenvalues (ascending) and eigenvectors of symmetric matrices.

    Example:
        >>> eigh(ember.eye(2)).eigenvalues
        tensor([1., 1.])
    """
    if check_array(x, "eigh").is_complex():
        return C.eigh(x)
    return E.linalg.eigh(x)


def eigvalsh(x: Array, /) -> Array:
    """The eigenvalues (ascending) of symmetric matrices.

    Example:
        >>> eigvalsh(ember.eye(2))
        tensor([1., 1.])
    """
    if check_array(x, "eigvalsh").is_complex():
        return C.eigvalsh(x)  # type: ignore[no-any-return]
    return E.linalg.eigvalsh(x)  # type: ignore[no-any-return]


def inv(x: Array, /) -> Array:
    """The inverses of square matrices.

    Example:
        >>> inv(2 * ember.eye(2))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.5000]])
    """
    return E.linalg.inv(check_array(x, "inv"))  # type: ignore[no-any-return]


def matrix_norm(
    x: Array,
    /,
    *,
    keepdims: builtins.bool = False,
    ord: int | float | Literal["fro", "nuc"] | None = "fro",
) -> Array:
    """The matrix norm of the last two axes (Frobenius by default).

    Example:
        >>> matrix_norm(ember.eye(2), ord=1)
        tensor(1.)
    """
    check_array(x, "matrix_norm")
    return E.linalg.matrix_norm(x, "fro" if ord is None else ord, keepdim=keepdims)  # type: ignore[no-any-return]


def matrix_power(x: Array, n: int, /) -> Array:
    """Square matrices raised to the integer power `n` (negative: of the inverse).

    Example:
        >>> matrix_power(2 * ember.eye(2), 3)[0, 0]
        tensor(8.)
    """
    if check_array(x, "matrix_power").is_complex() and isinstance(n, int) and n < 0:
        # ember.linalg.matrix_power's negative powers take real input only; inv takes complex.
        return E.linalg.matrix_power(E.linalg.inv(x), -n)  # type: ignore[no-any-return]
    return E.linalg.matrix_power(x, n)  # type: ignore[no-any-return]


def matrix_rank(x: Array, /, *, rtol: Tolerance = None) -> Array:
    """The number of singular values above ``rtol * largest`` (rtol defaults to eps * max(M, N)).

    Example:
        >>> matrix_rank(ember.eye(3))
        tensor(3)
    """
    if check_array(x, "matrix_rank").is_complex():
        return C.matrix_rank(x, rtol)  # type: ignore[no-any-return]
    return E.linalg.matrix_rank(x, rtol=rtol)  # type: ignore[no-any-return]


def outer(x1: Array, x2: Array, /) -> Array:
    """The outer product of two 1-D arrays.

    Example:
        >>> outer(ember.ones(2), ember.ones(3)).shape
        ember.Size([2, 3])
    """
    check_array(x1, "outer", "x1")
    check_array(x2, "outer", "x2")
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"[outer] expected 1-D arrays, got {shape_of(x1)}, {shape_of(x2)}")
    return E.outer(x1, x2)  # type: ignore[no-any-return]


def pinv(x: Array, /, *, rtol: Tolerance = None) -> Array:
    """The Moore-Penrose pseudo-inverse (singular values below ``rtol * largest`` dropped).

    Example:
        >>> pinv(2 * ember.eye(2))[0, 0]
        tensor(0.5000)
    """
    if check_array(x, "pinv").is_complex():
        return C.pinv(x, rtol)  # type: ignore[no-any-return]
    return E.linalg.pinv(x, rtol=rtol)  # type: ignore[no-any-return]


def qr(x: Array, /, *, mode: Literal["reduced", "complete"] = "reduced") -> Any:
    """The QR decomposition ``(Q, R)``.

    Example:
        >>> qr(ember.eye(2)).R.shape
        ember.Size([2, 2])
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"[qr] mode must be 'reduced' or 'complete', got {mode!r}")
    if check_array(x, "qr").is_complex():
        return C.qr(x, mode == "complete")
    return E.linalg.qr(x, mode=mode)


def slogdet(x: Array, /) -> Any:
    """The sign and log of the absolute determinant: ``(sign, logabsdet)``.

    Example:
        >>> slogdet(ember.eye(2)).sign
        tensor(1.)
    """
    if check_array(x, "slogdet").is_complex():
        return C.slogdet(x)
    return E.linalg.slogdet(x)


def solve(x1: Array, x2: Array, /) -> Array:
    """The solution X of ``x1 @ X = x2``.

    Example:
        >>> solve(2 * ember.eye(2), ember.ones(2))
        tensor([0.5000, 0.5000])
    """
    x1, x2 = _promoted(x1, x2, "solve")
    return E.linalg.solve(x1, x2)  # type: ignore[no-any-return]


def svd(x: Array, /, *, full_matrices: builtins.bool = True) -> Any:
    """The singular value decomposition ``(U, S, Vh)``, singular values descending.

    Example:
        >>> svd(ember.eye(2)).S
        tensor([1., 1.])
    """
    if check_array(x, "svd").is_complex():
        return C.svd(x, full_matrices)
    return E.linalg.svd(x, full_matrices=full_matrices)


def svdvals(x: Array, /) -> Array:
    """The singular values, descending.

    Example:
        >>> svdvals(ember.eye(2))
        tensor([1., 1.])
    """
    if check_array(x, "svdvals").is_complex():
        return C.svdvals(x)  # type: ignore[no-any-return]
    return E.linalg.svdvals(x)  # type: ignore[no-any-return]


def trace(x: Array, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of diagonal `offset` of the last two axes.

    Example:
        >>> trace(ember.eye(3))
        tensor(3.)
    """
    check_array(x, "trace")
    if x.ndim < 2:
        raise ValueError(f"[trace] expected at least 2 dims, got shape {shape_of(x)}")
    dtype = accumulator_dtype(x, dtype)
    return E.sum(E.linalg.diagonal(x, offset=offset), -1, dtype=dtype)  # type: ignore[no-any-return]


def vector_norm(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: builtins.bool = False,
    ord: int | float = 2,
) -> Array:
    """The vector norm over `axis` (every axis when None).

    Example:
        >>> vector_norm(ember.tensor([3.0, 4.0]))
        tensor(5.)
    """
    check_array(x, "vector_norm")
    return E.linalg.vector_norm(x, ord, axis, keepdims)  # type: ignore[no-any-return]
