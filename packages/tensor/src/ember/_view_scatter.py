"""``select_scatter``, ``slice_scatter`` and ``diagonal_scatter``: a copy of ``input`` with one
view of it (select / slice / diagonal) overwritten by ``src``. Each is a clone and a ``copy_``
into the view, so autograd's view-write rule (torch's CopySlices) gives both gradients."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ember._linalg_helpers import check_int, check_tensor

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["diagonal_scatter", "select_scatter", "slice_scatter"]


def _scatter(op: str, input: object, src: object, view: Callable[[Any], Any]) -> Tensor:
    x: Any = check_tensor(input, op, "input")
    s: Any = check_tensor(src, op, "src")
    result = x.clone()
    target = view(result)
    if tuple(target.shape) != tuple(s.shape):
        raise RuntimeError(
            f"[{op}] expected src to have a size equal to the slice of self. src size = "
            f"{list(s.shape)}, slice size = {list(target.shape)}"
        )
    target.copy_(s)
    return cast("Tensor", result)


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` whose ``input.select(dim, index)`` is ``src``.

    Example:
        >>> ember.select_scatter(ember.zeros(2, 2), ember.ones(2), 0, 1).tolist()
        [[0.0, 0.0], [1.0, 1.0]]
    """
    op = "select_scatter"
    d, i = check_int(dim, op, "dim"), check_int(index, op, "index")
    return _scatter(op, input, src, lambda t: t.select(d, i))


def slice_scatter(
    input: Tensor,
    src: Tensor,
    dim: int = 0,
    start: int | None = None,
    end: int | None = None,
    step: int = 1,
) -> Tensor:
    """A copy of ``input`` whose slice ``start:end:step`` along ``dim`` is ``src``.

    Example:
        >>> ember.slice_scatter(ember.zeros(4), ember.ones(2), start=0, step=2).tolist()
        [1.0, 0.0, 1.0, 0.0]
    """
    op = "slice_scatter"
    d, k = check_int(dim, op, "dim"), check_int(step, op, "step")
    bounds = [
        None if b is None else check_int(b, op, name)
        for b, name in ((start, "start"), (end, "end"))
    ]
    if k <= 0:
        raise RuntimeError(f"[{op}] slice step must be positive")

    def view(t: Any) -> Any:
        if not -max(t.dim(), 1) <= d < max(t.dim(), 1):
            raise IndexError(
                f"[{op}] Dimension out of range (expected to be in range of "
                f"[{-max(t.dim(), 1)}, {max(t.dim(), 1) - 1}], but got {d})"
            )
        index = [slice(None)] * t.dim()
        index[d] = slice(bounds[0], bounds[1], k)
        return t[tuple(index)]

    return _scatter(op, input, src, view)


def diagonal_scatter(
    input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1
) -> Tensor:
    """A copy of ``input`` whose ``input.diagonal(offset, dim1, dim2)`` is ``src``.

    Example:
        >>> ember.diagonal_scatter(ember.zeros(2, 2), ember.ones(2)).tolist()
        [[1.0, 0.0], [0.0, 1.0]]
    """
    op = "diagonal_scatter"
    o = check_int(offset, op, "offset")
    d1, d2 = check_int(dim1, op, "dim1"), check_int(dim2, op, "dim2")
    return _scatter(op, input, src, lambda t: t.diagonal(o, d1, d2))
