"""ember.linalg's composite functions: norms, condition numbers, ranks, pseudo-inverses, matrix
powers, chained products, cross and dot products, written with ember's tensor ops over the
LAPACK-backed factorizations (see ember/linalg.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

from ember._dtype import finfo
from ember._linalg_helpers import (
    N,
    check_bool,
    check_float,
    check_int,
    check_matrix,
    check_tensor,
)
from ember._linalg_helpers import out as write_out
from ember._tensor import Tensor
from ember_core import _C

Tolerance = float | Tensor | None


# --- norms -------------------------------------------------------------------------------------


def _wrap_dim(d: object, ndim: int, op: str) -> int:
    d = check_int(d, op, "dim")
    n = max(ndim, 1)
    if not -n <= d < n:
        raise IndexError(
            f"[{op}] Dimension out of range (expected to be in range of [{-n}, {n - 1}], but "
            f"got {d})"
        )
    return d % n


def _check_norm_dtype(x: Any, dtype: object, op: str) -> None:
    """torch's rule for `dtype=`: a floating dtype the input converts to without narrowing (a
    complex one for complex input: the norm is computed in it, the result is real)."""
    if x.is_complex():
        if dtype not in (_C.complex64, _C.complex128):
            raise RuntimeError(
                f"[{op}] dtype should be complex for complex inputs, but got {dtype}"
            )
    elif not isinstance(dtype, _C.dtype) or dtype not in (
        _C.float16,
        _C.bfloat16,
        _C.float32,
        _C.float64,
    ):
        raise RuntimeError(f"[{op}] dtype should be floating point, but got {dtype}")
    if N.promote_types(x.dtype, dtype) != dtype:
        raise RuntimeError(
            f"[{op}] the dtype of the input ({x.dtype}) should be convertible without narrowing "
            f"to the specified dtype ({dtype})"
        )


def vector_norm(
    x: Tensor,
    ord: float = 2,
    dim: int | Sequence[int] | None = None,
    keepdim: bool = False,
    *,
    dtype: object = None,
    out: object = None,
) -> Tensor:
    """Vector ``ord``-norm over ``dim`` (every element when None): ``sum(|x|^ord)^(1/ord)``.

    ``ord`` may be any number: ``inf``/``-inf`` give max/min ``|x|``, 0 counts non-zeros.

    Example:
        >>> ember.linalg.vector_norm(ember.tensor([3.0, -4.0]))
        tensor(5.)
    """
    op = "linalg.vector_norm"
    t: Any = check_tensor(x, op, "x")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise TypeError(f"[{op}] argument 'ord' must be a number, not {type(ord).__name__}")
    if not (t.is_floating_point() or t.is_complex()):
        raise TypeError(f"[{op}] Expected a floating point tensor as input. Got {t.dtype}")
    check_bool(keepdim, op, "keepdim")
    if dtype is not None:
        _check_norm_dtype(t, dtype, op)
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        dims = list(range(t.dim()))
    elif isinstance(dim, (tuple, list)):
        dims = [_wrap_dim(d, t.dim(), op) for d in dim]
    else:
        dims = [_wrap_dim(dim, t.dim(), op)]
    reduced = math.prod(t.shape[d] for d in dims) if t.dim() else 1
    kept = math.prod(s for i, s in enumerate(t.shape) if i not in dims)
    if reduced == 0 and kept > 0 and (ord < 0 or ord == math.inf):
        raise RuntimeError(
            f"[{op}] cannot compute the {ord} norm on an empty tensor because the operation "
            "does not have an identity"
        )
    result = N.norm(t, float(ord), dim, keepdim, dtype=dtype)
    return cast(Tensor, write_out(result, out, op))


def _matrix_dims(dim: object, ndim: int, op: str) -> tuple[int, int]:
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        raise RuntimeError(f"[{op}] dim must be a 2-tuple. Got {dim}")
    d0, d1 = (_wrap_dim(d, ndim, op) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"[{op}] dims must be different. Got ({dim[0]}, {dim[1]})")
    return d0, d1


def _drop_dims(shape: Sequence[int], d0: int, d1: int, keepdim: bool) -> tuple[int, ...]:
    if keepdim:
        return tuple(1 if i in (d0, d1) else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in (d0, d1))


def _singular_value_norm(A: Any, d0: int, d1: int, keepdim: bool, kind: str, op: str) -> Any:
    """'sum' (nuclear), 'amax' (2) or 'amin' (-2) of the singular values over dims (d0, d1)."""
    check_float(A, op)
    s = N._linalg_svd(N.movedim(A, (d0, d1), (-2, -1)), False, False, op)[1]
    r = getattr(s, kind)(-1)
    if keepdim:
        r = r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1))
    return r


def matrix_norm(
    A: Tensor,
    ord: float | str = "fro",
    dim: tuple[int, int] = (-2, -1),
    keepdim: bool = False,
    *,
    dtype: object = None,
    out: object = None,
) -> Tensor:
    """Matrix norm over the two dims ``dim``: ``'fro'``, ``'nuc'``, ``inf``, ``-inf``, 1, -1, 2, -2.

    ``inf``/``1`` are the largest absolute row/column sums (``-inf``/``-1`` the smallest),
    ``2``/``-2`` the largest/smallest singular value, ``'nuc'`` their sum.

    Example:
        >>> ember.linalg.matrix_norm(ember.tensor([[1.0, -2.0], [3.0, 4.0]]), ord=1)
        tensor(6.)
    """
    op = "linalg.matrix_norm"
    a: Any = check_tensor(A, op)
    check_matrix(a, op)
    d0, d1 = _matrix_dims(dim, a.dim(), op)
    check_bool(keepdim, op, "keepdim")
    if dtype is not None:
        _check_norm_dtype(a, dtype, op)
        a = a.to(dtype)
    if not (a.is_floating_point() or a.is_complex()):
        raise TypeError(f"[{op}] Expected a floating point tensor as input. Got {a.dtype}")
    numeric = not isinstance(ord, str) and not isinstance(ord, bool)
    if not isinstance(ord, (str, int, float)) or isinstance(ord, bool):
        raise TypeError(f"[{op}] argument 'ord' must be a str or a number, got {ord!r:.60}")
    if ord == "fro":
        result = vector_norm(a, 2, (d0, d1), keepdim)
    elif ord == "nuc" or (numeric and ord in (2, -2)):
        if a.shape[d0] == 0 or a.shape[d1] == 0:
            check_float(a, op)
            result = N.zeros(_drop_dims(a.shape, d0, d1, keepdim), dtype=a.dtype)
        else:
            kind = "sum" if ord == "nuc" else "amax" if ord == 2 else "amin"
            result = _singular_value_norm(a, d0, d1, keepdim, kind, op)
    elif numeric and ord in (1, -1, math.inf, -math.inf):
        if a.shape[d0] == 0 or a.shape[d1] == 0:
            result = N.zeros(_drop_dims(a.shape, d0, d1, keepdim), dtype=a.dtype)
        else:
            # inf: the largest row sum (sum along the columns, max over rows); 1: the transpose.
            sum_dim, ext_dim = (d1, d0) if abs(ord) == math.inf else (d0, d1)
            sums = a.abs().sum(dim=sum_dim, keepdim=True)
            result = sums.amax(ext_dim, keepdim=True) if ord > 0 else sums.amin(ext_dim, True)
            if not keepdim:
                result = result.squeeze((d0, d1))
    else:
        raise RuntimeError(f"[{op}] Order {ord} not supported.")
    return cast(Tensor, write_out(result, out, op))


def norm(
    A: Tensor,
    ord: float | str | None = None,
    dim: int | Sequence[int] | None = None,
    keepdim: bool = False,
    *,
    out: object = None,
    dtype: object = None,
) -> Tensor:
    """Vector or matrix norm, as torch.linalg.norm.

    With ``dim`` of one dim (or a 1-D input) a vector norm, with two dims (or a 2-D input) a matrix
    norm; with neither ``dim`` nor ``ord`` the 2-norm of the flattened input.

    Example:
        >>> ember.linalg.norm(ember.tensor([[1.0, 2.0], [2.0, 4.0]]))
        tensor(5.)
    """
    op = "linalg.norm"
    a: Any = check_tensor(A, op)
    if isinstance(dim, int) and not isinstance(dim, bool):
        dim = (dim,)
    if dim is not None and not isinstance(dim, (tuple, list)):
        raise TypeError(f"[{op}] argument 'dim' must be int or a tuple of ints, not {type(dim)}")
    if dim is not None and len(dim) not in (1, 2):
        raise RuntimeError(f"[{op}] If dim is specified, it must be of length 1 or 2. Got {dim}")
    if isinstance(ord, str):
        mdim = (-2, -1) if dim is None else tuple(dim)
        result = matrix_norm(a, ord, cast("tuple[int, int]", mdim), keepdim, dtype=dtype)
    elif dim is None and ord is not None:
        if a.dim() not in (1, 2):
            raise RuntimeError(
                f"[{op}] If dim is not specified but ord is, the input must be 1D or 2D. "
                f"Got {a.dim()}D."
            )
        result = (
            vector_norm(a, ord, None, keepdim, dtype=dtype)
            if a.dim() == 1
            else matrix_norm(a, ord, (-2, -1), keepdim, dtype=dtype)
        )
    elif dim is not None and len(dim) == 2:
        mdim = cast("tuple[int, int]", tuple(dim))
        result = matrix_norm(a, "fro" if ord is None else ord, mdim, keepdim, dtype=dtype)
    else:
        result = vector_norm(a, 2 if ord is None else ord, dim, keepdim, dtype=dtype)
    return cast(Tensor, write_out(result, out, op))


def cond(A: Tensor, p: float | str | None = None, *, out: object = None) -> Tensor:
    """Condition number of matrices in the matrix norm ``p`` (None: the 2-norm, by the SVD).

    ``p`` of None, 2 or -2 works for any shape; ``'fro'``, ``'nuc'``, ``inf``, ``-inf``, 1 and -1
    need square matrices and give ``inf`` for singular ones.

    Example:
        >>> ember.linalg.cond(ember.tensor([[2.0, 0.0], [0.0, 0.5]]))
        tensor(4.)
    """
    op = "linalg.cond"
    a: Any = check_tensor(A, op)
    check_matrix(a, op)
    check_float(a, op)
    numeric = p is None or (not isinstance(p, (str, bool)) and isinstance(p, (int, float)))
    batch = tuple(a.shape[:-2])
    if numeric and p in (None, 2, -2):
        if min(a.shape[-2:]) == 0:
            return cast(Tensor, write_out(N.zeros(batch, dtype=a.dtype), out, op))
        s = N._linalg_svd(a, False, False, op)[1]
        result = s.amax(-1) / s.amin(-1) if p != -2 else s.amin(-1) / s.amax(-1)
    elif p in ("fro", "nuc") or (numeric and p in (1, -1, math.inf, -math.inf)):
        check_matrix(a, op, square=True)
        if a.shape[-1] == 0:
            return cast(Tensor, write_out(N.zeros(batch, dtype=a.dtype), out, op))
        inverse, info = N._linalg_inv_ex(a, False, op)
        result = matrix_norm(a, p) * matrix_norm(inverse, p)
        # a singular matrix has an infinite condition number (its "inverse" is garbage).
        result = N.where(info > 0, math.inf, result)
    else:
        raise RuntimeError(f"[{op}] got an invalid norm type: {p}")
    return cast(Tensor, write_out(result, out, op))


# --- ranks and pseudo-inverses -----------------------------------------------------------------


def _tolerance_tensor(value: object, dtype: Any, name: str, op: str) -> Any:
    """A float or tensor tolerance as a tensor that broadcasts against (*, 1) maxima."""
    if isinstance(value, _C.TensorBase):
        return cast(Any, value).to(dtype).unsqueeze(-1)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"[{op}] argument '{name}' must be a float or Tensor, not {type(value)}")
    return N.full((), float(value), dtype=dtype)


def _threshold(s_max: Any, atol: Tolerance, rtol: Tolerance, shape: Any, op: str) -> Any:
    """max(atol, rtol * s_max) with torch's defaults: rtol = eps * max(m, n) unless atol > 0."""
    dtype = s_max.dtype
    default = finfo(dtype).eps * max(shape[-2], shape[-1])
    if rtol is None:
        if atol is None:
            rtol_t = N.full((), default, dtype=dtype)
        else:
            rtol_t = (_tolerance_tensor(atol, dtype, "atol", op) <= 0).to(dtype) * default
    else:
        rtol_t = _tolerance_tensor(rtol, dtype, "rtol", op)
    atol_t = _tolerance_tensor(0.0 if atol is None else atol, dtype, "atol", op)
    return N.maximum(atol_t, rtol_t * s_max)


def _legacy_tolerance(
    legacy: object, atol: Tolerance, rtol: Tolerance, name: str, op: str
) -> tuple[Tolerance, Tolerance]:
    """torch's older positional tolerance (rcond, tol) as atol/rtol."""
    if legacy is None:
        return atol, rtol
    if atol is not None or rtol is not None:
        raise RuntimeError(f"[{op}] {name} cannot be given together with atol or rtol")
    return (0.0, cast(Tolerance, legacy)) if name == "rcond" else (cast(Tolerance, legacy), 0.0)


def pinv(
    A: Tensor,
    rcond: float | Tensor | None = None,
    hermitian: bool = False,
    *,
    atol: Tolerance = None,
    rtol: Tolerance = None,
    out: object = None,
) -> Tensor:
    """Moore-Penrose pseudo-inverse: singular values below ``max(atol, rtol * s_max)`` count as 0.

    ``rtol`` defaults to ``eps * max(m, n)`` (0 when ``atol`` > 0); ``rcond`` is the older name of
    ``rtol``. ``hermitian=True`` uses the symmetric eigendecomposition of the lower triangle.

    Example:
        >>> ember.linalg.pinv(ember.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    op = "linalg.pinv"
    a: Any = check_tensor(A, op)
    check_matrix(a, op, square=check_bool(hermitian, op, "hermitian"))
    check_float(a, op)
    atol, rtol = _legacy_tolerance(rcond, atol, rtol, "rcond", op)
    m, n = a.shape[-2:]
    if min(m, n) == 0:
        result = N.zeros((*a.shape[:-2], n, m), dtype=a.dtype)
    elif hermitian:
        w, Q = N._linalg_eigh(a, "L", True, op)
        abs_w = w.abs()
        keep = abs_w > _threshold(abs_w.amax(-1, keepdim=True), atol, rtol, a.shape, op)
        result = (Q * N.where(keep, w.reciprocal(), 0.0).unsqueeze(-2)) @ Q.mT
    else:
        u, s, vh = N._linalg_svd(a, False, True, op)
        keep = s > _threshold(s.amax(-1, keepdim=True), atol, rtol, a.shape, op)
        result = (vh.mT * N.where(keep, s.reciprocal(), 0.0).unsqueeze(-2)) @ u.mT
    return cast(Tensor, write_out(result, out, op))


def matrix_rank(
    A: Tensor,
    tol: float | Tensor | None = None,
    hermitian: bool = False,
    *,
    atol: Tolerance = None,
    rtol: Tolerance = None,
    out: object = None,
) -> Tensor:
    """Numerical rank: the singular values above ``max(atol, rtol * s_max)`` (int64).

    Tolerances default as in :func:`pinv`; ``tol`` is the older name of ``atol`` (with rtol 0).

    Example:
        >>> ember.linalg.matrix_rank(ember.tensor([[1.0, 2.0], [2.0, 4.0]]))
        tensor(1)
    """
    op = "linalg.matrix_rank"
    a: Any = check_tensor(A, op)
    check_matrix(a, op, square=check_bool(hermitian, op, "hermitian"))
    check_float(a, op)
    atol, rtol = _legacy_tolerance(tol, atol, rtol, "tol", op)
    if min(a.shape[-2:]) == 0:
        result = N.zeros(tuple(a.shape[:-2]), dtype=_C.int64)
    else:
        if hermitian:
            s = N._linalg_eigh(a, "L", False, op)[0].abs()
        else:
            s = N._linalg_svd(a, False, False, op)[1]
        result = (s > _threshold(s.amax(-1, keepdim=True), atol, rtol, a.shape, op)).sum(-1)
    return cast(Tensor, write_out(result, out, op))


# --- products ----------------------------------------------------------------------------------


def _fresh(x: Any) -> Any:
    """A new contiguous copy of x."""
    y = N.empty(tuple(x.shape), dtype=x.dtype)
    y.copy_(x)
    return y


def matrix_power(A: Tensor, n: int, *, out: object = None) -> Tensor:
    """``A`` to the integer power ``n`` by repeated squaring; negative powers invert ``A`` first.

    Example:
        >>> ember.linalg.matrix_power(ember.tensor([[1.0, 1.0], [0.0, 1.0]]), 3)
        tensor([[1., 3.],
                [0., 1.]])
    """
    op = "linalg.matrix_power"
    a: Any = check_tensor(A, op)
    n = check_int(n, op, "n")
    check_matrix(a, op, square=True)
    if n == 0:
        result = N.eye(a.shape[-1], dtype=a.dtype).expand(a.shape).contiguous()
        return cast(Tensor, write_out(result, out, op))
    if n < 0:
        check_float(a, "linalg.inv")
        a, n = N._linalg_inv_ex(a, True, "linalg.inv")[0], -n
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    result = _fresh(result) if result is a else result
    return cast(Tensor, write_out(result, out, op))


def _chain_order(dims: list[int]) -> list[list[int]]:
    """The cheapest parenthesization of a matrix chain (dims[i] x dims[i + 1] matrices)."""
    n = len(dims) - 1
    cost: list[list[float]] = [[0.0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def multi_dot(tensors: Sequence[Tensor], *, out: object = None) -> Tensor:
    """Product of a chain of matrices in the cheapest order; the first/last may be vectors.

    Example:
        >>> ember.linalg.multi_dot([ember.ones(3), ember.ones(3, 4), ember.ones(4)])
        tensor(12.)
    """
    op = "linalg.multi_dot"
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"[{op}] expected a list of tensors, got {type(tensors).__name__}")
    if len(tensors) < 2:
        raise RuntimeError(f"[{op}] expected at least 2 tensors but got {len(tensors)}")
    mats = [check_tensor(t, op, f"tensors[{i}]") for i, t in enumerate(tensors)]
    last = len(mats) - 1
    for i, t in enumerate(mats):
        if t.dtype != mats[0].dtype:
            raise RuntimeError(
                f"[{op}] all tensors must have the same dtype but tensor 0 is {mats[0].dtype} "
                f"and tensor {i} is {t.dtype}"
            )
        allowed = (1, 2) if i in (0, last) else (2,)
        if t.dim() not in allowed:
            which = "first" if i == 0 else "last" if i == last else f"tensor {i}"
            need = "1D or 2D" if i in (0, last) else "2D"
            raise RuntimeError(f"[{op}] {which} tensor must be {need} but got {t.dim()}D")
    row_vector, col_vector = mats[0].dim() == 1, mats[last].dim() == 1
    if row_vector:
        mats[0] = mats[0].unsqueeze(0)
    if col_vector:
        mats[last] = mats[last].unsqueeze(-1)
    for i in range(last):
        if mats[i].shape[1] != mats[i + 1].shape[0]:
            raise RuntimeError(
                f"[{op}] tensors {i} and {i + 1} with shapes {tuple(mats[i].shape)} and "
                f"{tuple(mats[i + 1].shape)} cannot be multiplied"
            )
    split = _chain_order([mats[0].shape[0], *(m.shape[1] for m in mats)])

    def product(i: int, j: int) -> Any:
        return mats[i] if i == j else product(i, split[i][j]) @ product(split[i][j] + 1, j)

    result = product(0, last)
    if row_vector:
        result = result.squeeze(0)
    if col_vector:
        result = result.squeeze(-1)
    return cast(Tensor, write_out(result, out, op))


def _broadcast_ndim(a: Any, b: Any, op: str) -> int:
    try:
        return len(N.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    except RuntimeError:
        raise RuntimeError(
            f"[{op}] the shapes {tuple(a.shape)} and {tuple(b.shape)} cannot be broadcast together"
        ) from None


def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: object = None) -> Tensor:
    """Cross product of 3-vectors along ``dim``; the other dims broadcast.

    Example:
        >>> ember.linalg.cross(ember.tensor([1.0, 0.0, 0.0]), ember.tensor([0.0, 1.0, 0.0]))
        tensor([0., 0., 1.])
    """
    op = "linalg.cross"
    a, b = check_tensor(input, op, "input"), check_tensor(other, op, "other")
    if a.dim() != b.dim():
        raise RuntimeError(f"[{op}] inputs must have the same number of dimensions.")
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"[{op}] expected input and other to have the same dtype, got {a.dtype} and {b.dtype}"
        )
    if a.dtype == _C.bool:
        raise TypeError(f"[{op}] not supported for dtype {a.dtype}")
    d = _wrap_dim(dim, _broadcast_ndim(a, b, op), op)
    if a.dim() == 0 or a.shape[d] != 3 or b.shape[d] != 3:
        sizes = (a.shape[d], b.shape[d]) if a.dim() else (1, 1)
        raise RuntimeError(
            f"[{op}] inputs dimension {dim} must have length 3. Got {sizes[0]} and {sizes[1]}"
        )
    a0, a1, a2 = (a.select(d, i) for i in range(3))
    b0, b1, b2 = (b.select(d, i) for i in range(3))
    parts = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    return cast(Tensor, write_out(N.stack(parts, d), out, op))


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out: object = None) -> Tensor:
    """Dot product of vectors along ``dim``; the other dims broadcast.

    Example:
        >>> ember.linalg.vecdot(ember.tensor([[1.0, 2.0], [3.0, 4.0]]), ember.tensor([1.0, 1.0]))
        tensor([3., 7.])
    """
    op = "linalg.vecdot"
    a, b = check_tensor(x, op, "x"), check_tensor(y, op, "y")
    if not a.is_floating_point():
        raise TypeError(f"[{op}] Expected a floating point tensor as input. Got {a.dtype}")
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"[{op}] Expected x and y to have the same dtype, but found x of type {a.dtype} and "
            f"y of type {b.dtype} instead"
        )
    d = _wrap_dim(dim, _broadcast_ndim(a, b, op), op)
    return cast(Tensor, write_out((a * b).sum(d), out, op))


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """View of the ``offset`` diagonal of the matrices in dims ``(dim1, dim2)`` (last dim).

    Example:
        >>> ember.linalg.diagonal(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
        tensor([1., 4.])
    """
    check_tensor(A, "linalg.diagonal")
    return cast(Tensor, N.diagonal(A, offset, dim1, dim2))
