"""``gradient``: numpy's and torch's finite-difference estimate of the derivative along each dim
(second-order central differences inside, first- or second-order one-sided ones at the edges,
uniform spacings or sample coordinates), composed from narrow/arithmetic/cat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ember._linalg_helpers import N, check_tensor

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["gradient"]

_OP = "gradient"


def _dims(x: Any, dim: int | Sequence[int] | None) -> list[int]:
    if dim is None:
        return list(range(x.dim()))
    dims = [dim] if isinstance(dim, int) else list(dim)
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"[{_OP}] argument 'dim' must be int or tuple of ints")
        if not -x.dim() <= d < x.dim():
            raise IndexError(
                f"[{_OP}] Dimension out of range (expected to be in range of [{-x.dim()}, "
                f"{x.dim() - 1}], but got {d})"
            )
    return [d % x.dim() for d in dims]


def _spacings(spacing: object, count: int, given_dim: bool, ndim: int) -> list[Any]:
    if isinstance(spacing, (int, float)) and not isinstance(spacing, bool):
        return [spacing] * count
    if isinstance(spacing, N.TensorBase):
        raise TypeError(f"[{_OP}] spacing must be a number or a list/tuple, not a Tensor")
    if not isinstance(spacing, (list, tuple)):
        raise TypeError(f"[{_OP}] spacing must be a number or a list/tuple, not {spacing!r}")
    if len(spacing) != count:
        where = (
            f"'len(dim) = {count}'"
            if given_dim
            else f"'self.dim() = {ndim}', since dim argument was not given"
        )
        raise RuntimeError(
            f"[{_OP}] torch.gradient expected spacing to be unspecified, a scalar, or a list of "
            f"length equal to {where}, but got a list of length {len(spacing)}"
        )
    return list(spacing)


def _along(x: Any, d: int, h: Any, edge_order: int) -> Any:
    """The derivative estimate along dim d: h a number (uniform spacing) or 1-D coordinates."""
    n = x.shape[d]

    def part(start: int, length: int) -> Any:
        return x.narrow(d, start, length)

    def line(t: Any) -> Any:  # a 1-D tensor along dim d, broadcasting against x
        return t.reshape([-1 if i == d else 1 for i in range(x.dim())])

    if not isinstance(h, N.TensorBase):
        inner = (part(2, n - 2) - part(0, n - 2)) / (2.0 * h)
        if edge_order == 1:
            first = (part(1, 1) - part(0, 1)) / h
            last = (part(n - 1, 1) - part(n - 2, 1)) / h
        else:
            first = (-1.5 * part(0, 1) + 2.0 * part(1, 1) - 0.5 * part(2, 1)) / h
            last = (0.5 * part(n - 3, 1) - 2.0 * part(n - 2, 1) + 1.5 * part(n - 1, 1)) / h
        return N.cat([first, inner, last], d)
    if h.dim() != 1 or h.shape[0] != n:
        raise RuntimeError(
            f"[{_OP}] torch.gradient expected each tensor in spacing to be 1-D with the size of "
            f"its dim ({n}), but got shape {list(h.shape)}"
        )
    coords = h if h.is_floating_point() else h.to(N.get_default_dtype())
    dx = coords[1:] - coords[:-1]
    left, right = dx[:-1], dx[1:]  # numpy's hd (before each point) and hs (after it)
    a = line(-right / (left * (left + right)))
    b = line((right - left) / (left * right))
    c = line(left / (right * (left + right)))
    inner = a * part(0, n - 2) + b * part(1, n - 2) + c * part(2, n - 2)
    if edge_order == 1:
        first = (part(1, 1) - part(0, 1)) / line(dx[:1])
        last = (part(n - 1, 1) - part(n - 2, 1)) / line(dx[-1:])
    else:
        h1, h2 = dx[0:1], dx[1:2]
        first = (
            line(-(2 * h1 + h2) / (h1 * (h1 + h2))) * part(0, 1)
            + line((h1 + h2) / (h1 * h2)) * part(1, 1)
            + line(-h1 / (h2 * (h1 + h2))) * part(2, 1)
        )
        h1, h2 = dx[-2:-1], dx[-1:]
        last = (
            line(h2 / (h1 * (h1 + h2))) * part(n - 3, 1)
            + line(-(h2 + h1) / (h1 * h2)) * part(n - 2, 1)
            + line((2 * h2 + h1) / (h2 * (h1 + h2))) * part(n - 1, 1)
        )
    return N.cat([first, inner, last], d)


def gradient(
    input: Tensor,
    *,
    spacing: float | Sequence[float] | Sequence[Tensor] = 1,
    dim: int | Sequence[int] | None = None,
    edge_order: int = 1,
) -> tuple[Tensor, ...]:
    """The derivative of ``input`` estimated by finite differences along each dim in ``dim``
    (every dim by default): one tensor per dim, as ``numpy.gradient``.

    ``spacing`` is the distance between samples (one number, or one per dim) or, per dim, the
    1-D coordinates of the samples.

    Example:
        >>> ember.gradient(ember.tensor([1.0, 4.0, 9.0, 16.0, 25.0]))
        (tensor([3., 4., 6., 8., 9.]),)
    """
    x: Any = check_tensor(input, _OP, "input")
    if edge_order not in (1, 2) or isinstance(edge_order, bool):
        raise RuntimeError(f"[{_OP}] torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = _dims(x, dim)
    steps = _spacings(spacing, len(dims), dim is not None, x.dim())
    if any(x.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError(
            f"[{_OP}] torch.gradient expected each dimension size to be at least edge_order+1"
        )
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(N.get_default_dtype())
    return tuple(_along(x, d, h, edge_order) for d, h in zip(dims, steps, strict=True))
