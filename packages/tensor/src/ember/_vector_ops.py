"""Top-level functions over pairs of tensors and complex numbers that torch has beside its
native ops: ``inner``, ``dist``, ``polar`` and ``isreal``, composed from ember's native ops (so
autograd differentiates them through those ops' rules, complex values included)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from ember._linalg_helpers import N, check_tensor
from ember._linalg_helpers import out as write_out
from ember_core import _C

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["dist", "inner", "isreal", "polar"]

_FLOATS = (_C.float32, _C.float64)


def _check_broadcast(a: Any, b: Any, op: str) -> None:
    """RuntimeError naming ``op`` (not the inner arithmetic op) when a and b do not broadcast."""
    try:
        N.broadcast_shapes(a.shape, b.shape)
    except RuntimeError as error:
        raise RuntimeError(f"[{op}] {str(error).split('] ', 1)[-1]}") from None


def inner(input: Tensor, other: Tensor, *, out: object = None) -> Tensor:
    """Inner product over the last dims: ``sum(input[..., k] * other[..., k])`` for every pair of
    leading positions (no conjugation, as torch; a 0-d operand multiplies).

    The result has shape ``input.shape[:-1] + other.shape[:-1]``.

    Example:
        >>> ember.inner(ember.tensor([1.0, 2.0]), ember.tensor([[3.0, 4.0], [5.0, 6.0]]))
        tensor([11., 17.])
    """
    op = "inner"
    a: Any = check_tensor(input, op, "input")
    b: Any = check_tensor(other, op, "other")
    if a.dim() == 0 or b.dim() == 0:
        return cast("Tensor", write_out(a * b, out, op))
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"[{op}] both inputs should have same dtype, got {a.dtype} and {b.dtype}"
        )
    if a.shape[-1] != b.shape[-1]:
        raise RuntimeError(
            f"[{op}] the last dimension must match on both input tensors but got shapes "
            f"{list(a.shape)} and {list(b.shape)}"
        )
    n = a.shape[-1]
    # One matrix product of the flattened leading dims (cgemm/zgemm for complex).
    rows_a, rows_b = math.prod(a.shape[:-1]), math.prod(b.shape[:-1])
    product = a.reshape(rows_a, n) @ b.reshape(rows_b, n).transpose(0, 1)
    result = product.reshape(tuple(a.shape[:-1]) + tuple(b.shape[:-1]))
    return cast("Tensor", write_out(result, out, op))


def dist(input: Tensor, other: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` (broadcast together); real for complex inputs.

    Example:
        >>> ember.dist(ember.tensor([1.0, 1.0]), ember.tensor([4.0, 5.0]))
        tensor(5.)
    """
    op = "dist"
    a: Any = check_tensor(input, op, "input")
    b: Any = check_tensor(other, op, "other")
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"[{op}] argument 'p' must be a number, not {type(p).__name__}")
    _check_broadcast(a, b, op)
    diff = a - b
    if not (diff.is_floating_point() or diff.is_complex()):
        raise RuntimeError(
            f"[{op}] input dtype should be either floating point or complex. Got {diff.dtype} "
            "instead."
        )
    return cast("Tensor", N.norm(diff, float(p), None, False))


def polar(abs: Tensor, angle: Tensor, *, out: object = None) -> Tensor:
    """The complex tensor ``abs * (cos(angle) + i sin(angle))`` (broadcast together).

    ``abs`` and ``angle`` must both be float32 (complex64 result) or both float64 (complex128).

    Example:
        >>> ember.polar(ember.tensor([2.0]), ember.tensor([0.0]))
        tensor([2.+0.j])
    """
    op = "polar"
    r: Any = check_tensor(abs, op, "abs")
    theta: Any = check_tensor(angle, op, "angle")
    if r.dtype in (_C.float16, _C.bfloat16) and r.dtype == theta.dtype:
        raise NotImplementedError(f"[{op}] not implemented for {r.dtype}")
    if r.dtype not in _FLOATS or theta.dtype not in _FLOATS:
        raise RuntimeError(
            f"[{op}] expected both inputs to be float32 or float64 tensors, but got "
            f"{r.dtype} and {theta.dtype}"
        )
    if r.dtype != theta.dtype:
        raise RuntimeError(
            f"[{op}] expected abs and angle of the same dtype, but got {r.dtype} and {theta.dtype}"
        )
    _check_broadcast(r, theta, op)
    return cast("Tensor", N.complex(r * theta.cos(), r * theta.sin(), out=out))


def isreal(input: Tensor) -> Tensor:
    """A bool tensor: True where the element's imaginary part is 0 (everywhere for real dtypes).

    Example:
        >>> ember.isreal(ember.tensor([1 + 0j, 2j]))
        tensor([ True, False])
    """
    x: Any = check_tensor(input, "isreal", "input")
    if not x.is_complex():
        return cast("Tensor", N.ones_like(x, dtype=_C.bool))
    return cast("Tensor", N.imag(x) == 0)
