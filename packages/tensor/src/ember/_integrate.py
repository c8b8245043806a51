"""The trapezoidal rule: ``trapezoid`` (alias ``trapz``) and ``cumulative_trapezoid``, over a
dim of samples spaced by ``dx`` or at the points ``x``; composed from native ops (autograd
records them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ember._linalg_helpers import N, check_int, check_tensor

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["cumulative_trapezoid", "trapezoid", "trapz"]


def _samples(y: object, dim: object, op: str) -> tuple[Any, int]:
    t: Any = check_tensor(y, op, "y")
    d = check_int(dim, op, "dim")
    if t.dtype == N.bool:
        raise RuntimeError(f"[{op}] received a bool input for `y`, but bool is not supported")
    if t.dim() == 0:
        raise IndexError(f"[{op}] Dimension specified as {d} but tensor has no dimensions")
    if not -t.dim() <= d < t.dim():
        raise IndexError(
            f"[{op}] Dimension out of range (expected to be in range of [{-t.dim()}, "
            f"{t.dim() - 1}], but got {d})"
        )
    return t, d % t.dim()


def _spacing(t: Any, x: object, dx: object, d: int, op: str) -> Any:
    """The widths of the intervals along d: a number, or a tensor that broadcasts against y."""
    if x is None:
        if dx is None:
            return 1.0
        if isinstance(dx, bool) or not isinstance(dx, (int, float)):
            raise TypeError(f"[{op}] argument 'dx' must be a number, not {type(dx).__name__}")
        return dx
    if dx is not None:
        raise TypeError(f"[{op}] pass either x or dx, not both")
    points: Any = check_tensor(x, op, "x")
    if points.dim() == 1:
        if points.shape[0] != t.shape[d]:
            raise RuntimeError(f"[{op}] There must be one `x` value for each sample point")
        # A 1-D x runs along dim d of y.
        points = points.reshape([-1 if i == d else 1 for i in range(t.dim())])
        return N.diff(points, dim=d)
    return N.diff(points, dim=points.dim() + d - t.dim())


def _floating(t: Any) -> Any:
    return t if t.is_floating_point() or t.is_complex() else t.to(N.get_default_dtype())


def trapezoid(
    y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1
) -> Tensor:
    """The integral of ``y`` along ``dim`` by the trapezoidal rule (samples ``dx`` apart or at
    the points ``x``); integers give the default float dtype.

    Example:
        >>> ember.trapezoid(ember.tensor([1.0, 2.0, 3.0]), ember.tensor([0.0, 1.0, 3.0]))
        tensor(6.5000)
    """
    op = "trapezoid"
    t, d = _samples(y, dim, op)
    width = _spacing(t, x, dx, d, op)
    n = t.shape[d]
    if n == 0:
        return cast("Tensor", _floating(t.sum(d)) * 0)
    if isinstance(width, (int, float)):
        # Equal widths: dx * (sum - (first + last) / 2) reads y once.
        ends = t.select(d, 0) + t.select(d, n - 1)
        return cast("Tensor", (_floating(t.sum(d)) - ends * 0.5) * width)
    pairs = t.narrow(d, 1, n - 1) + t.narrow(d, 0, n - 1)
    return cast("Tensor", (_floating(width * pairs) * 0.5).sum(d))


def trapz(y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1) -> Tensor:
    """Alias of :func:`ember.trapezoid` (torch's older name; ``dx`` defaults to 1).

    Example:
        >>> ember.trapz(ember.tensor([1.0, 2.0, 3.0]), dx=2)
        tensor(8.)
    """
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(
    y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1
) -> Tensor:
    """The running trapezoidal integral of ``y`` along ``dim``: one value fewer than ``y``.

    Example:
        >>> ember.cumulative_trapezoid(ember.tensor([1.0, 2.0, 3.0]))
        tensor([1.5000, 4.0000])
    """
    op = "cumulative_trapezoid"
    t, d = _samples(y, dim, op)
    width = _spacing(t, x, dx, d, op)
    n = t.shape[d]
    if n == 0:
        return cast("Tensor", _floating(t) * 0)
    pairs = _floating(t.narrow(d, 1, n - 1) + t.narrow(d, 0, n - 1)) * 0.5
    return cast("Tensor", (pairs * width).cumsum(d))
