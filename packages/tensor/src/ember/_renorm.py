"""``renorm``: rescales each slice along a dim whose p-norm exceeds ``maxnorm`` down to it,
composed from ``linalg.vector_norm`` and a multiply (autograd records both, so the gradient
includes the norm's dependence on the input, as torch's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ember._linalg_helpers import N, check_int, check_tensor
from ember.linalg import vector_norm

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["renorm"]


def _factor(input: object, p: float, dim: int, maxnorm: float, op: str) -> tuple[Any, Any]:
    x: Any = check_tensor(input, op, "input")
    d = check_int(dim, op, "dim")
    for name, value in (("p", p), ("maxnorm", maxnorm)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(
                f"[{op}] argument '{name}' must be a number, not {type(value).__name__}"
            )
    if x.dim() < 2:
        raise RuntimeError(f"[{op}] input needs at least 2 dimensions, got {x.dim()} dimensions")
    if not -x.dim() <= d < x.dim():
        raise IndexError(
            f"[{op}] Dimension out of range (expected to be in range of [{-x.dim()}, "
            f"{x.dim() - 1}], but got {d})"
        )
    if float(p) <= 0:
        raise RuntimeError(f"[{op}] non-positive-norm not supported")
    if float(maxnorm) < 0:
        raise RuntimeError(f"[{op}] expected maxnorm to be >= 0 but got {maxnorm}")
    if not (x.is_floating_point() or x.is_complex()):
        raise RuntimeError(
            f"[{op}] Expected a floating point or complex tensor as input. Got {x.dtype}"
        )
    d %= x.dim()
    others = [i for i in range(x.dim()) if i != d]
    if x.requires_grad:
        x = x.clone()  # renorm_ writes the input: autograd keeps this copy for the norm instead
    norm = vector_norm(x, float(p), others, True)
    # torch's factor: maxnorm / (norm + 1e-7) where the norm exceeds maxnorm, else 1.
    scale = N.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0).to(norm.dtype)
    return x, scale


def renorm(input: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """``input`` with every slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` scaled down
    to norm ``maxnorm`` (slices within it unchanged).

    Example:
        >>> ember.renorm(ember.tensor([[3.0, 4.0], [0.3, 0.4]]), 2, 0, 1.0)
        tensor([[0.6000, 0.8000],
                [0.3000, 0.4000]])
    """
    x, scale = _factor(input, p, dim, maxnorm, "renorm")
    return cast("Tensor", x * scale)


def renorm_(self: Tensor, p: float, dim: int, maxnorm: float) -> Tensor:
    """In-place :func:`ember.renorm`."""
    source, scale = _factor(self, p, dim, maxnorm, "renorm_")
    return cast("Tensor", cast(Any, self).copy_(source * scale))
