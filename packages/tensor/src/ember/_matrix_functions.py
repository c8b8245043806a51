"""``linalg.matrix_exp`` and ``linalg.solve_triangular``, composed of recorded ops (matmul,
solve, tril/triu), so autograd differentiates them without rules of their own."""

from __future__ import annotations

import math
from typing import Any

from ember._linalg_helpers import check_bool, check_matrix, check_tensor
from ember._linalg_helpers import out as _out
from ember_core import _C

__all__ = ["matrix_exp", "solve_triangular"]

# Higham (2005), "The scaling and squaring method for the matrix exponential revisited":
# the [13/13] Pade coefficients and the 1-norm bound up to which no scaling is needed.
_PADE13 = (
    64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
    129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
    40840800.0, 960960.0, 16380.0, 182.0, 1.0,
)  # fmt: skip
_THETA13 = 5.371920351148152


def _check_float_or_complex(A: Any, op: str) -> None:
    if A.dtype in (_C.float16, _C.bfloat16):
        raise TypeError(f"[{op}] Low precision dtypes not supported. Got {A.dtype}")
    if not (A.is_floating_point() or A.is_complex()):
        raise RuntimeError(
            f"[{op}] Expected a floating point or complex tensor as input. Got {A.dtype}"
        )


def matrix_exp(A: Any) -> Any:
    """The matrix exponential ``sum_k A^k / k!`` of each square matrix in ``A`` (..., n, n):
    scaling and squaring with a [13/13] Pade approximant (Higham 2005).

    Example:
        >>> ember.linalg.matrix_exp(ember.tensor([[0.0, 1.0], [0.0, 0.0]]))
        tensor([[1., 1.],
                [0., 1.]])
    """
    op = "linalg.matrix_exp"
    A = check_tensor(A, op)
    check_matrix(A, op, square=True)
    _check_float_or_complex(A, op)
    n = A.shape[-1]
    if A.numel() == 0:
        return A.clone()
    norm = float(A.detach().abs().sum(-2).amax().item())  # the largest 1-norm in the batch
    if not math.isfinite(norm):
        return A + _C.full([], math.nan, dtype=A.dtype)  # propagates nan/inf as torch
    squarings = max(0, math.ceil(math.log2(norm / _THETA13))) if norm > _THETA13 else 0
    if squarings:
        A = A / (2.0**squarings)
    b = _PADE13
    eye = _C.eye(n, dtype=A.dtype)
    A2 = A @ A
    A4 = A2 @ A2
    A6 = A4 @ A2
    U = A @ (A6 @ (b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 + b[3] * A2
             + b[1] * eye)  # fmt: skip
    V = A6 @ (b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 + b[2] * A2 + b[0] * eye
    from ember import linalg

    R = linalg.solve(V - U, V + U)
    for _ in range(squarings):
        R = R @ R
    return R


def solve_triangular(
    A: Any,
    B: Any,
    *,
    upper: bool | None = None,
    left: bool = True,
    unitriangular: bool = False,
    out: object = None,
) -> Any:
    """The solution ``X`` of ``A X = B`` (``X A = B`` when not ``left``) for triangular ``A``:
    only its upper (``upper=True``) or lower triangle is read, and with ``unitriangular`` its
    diagonal is taken as ones. Batches broadcast.

    Example:
        >>> A = ember.tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> ember.linalg.solve_triangular(A, ember.tensor([[3.0], [4.0]]), upper=True)
        tensor([[1.],
                [1.]])
    """
    op = "linalg.solve_triangular"
    A, B = check_tensor(A, op), check_tensor(B, op, "B")
    if upper is None:  # required, as in torch (a default only to name the op in the error)
        raise TypeError(f"[{op}] missing the required keyword argument 'upper'")
    upper = check_bool(upper, op, "upper")
    left = check_bool(left, op, "left")
    unitriangular = check_bool(unitriangular, op, "unitriangular")
    check_matrix(A, op, square=True)
    check_matrix(B, op)
    _check_float_or_complex(A, op)
    T = A.triu() if upper else A.tril()
    if unitriangular:
        T = (T.triu(1) if upper else T.tril(-1)) + _C.eye(A.shape[-1], dtype=A.dtype)
    from ember import linalg

    X = linalg.solve(T, B, left=left)
    return _out(X, out, op)
