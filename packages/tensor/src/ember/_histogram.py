"""``histogram`` and ``histogramdd``: bin edges, a binary search per value, one weighted count.

(``histc``, the fixed-range counter, is native.) Values outside the range are dropped; the last
bin includes its right edge, as in torch and numpy.
"""

from __future__ import annotations

import builtins
from typing import Any, NamedTuple

from ember._dtype import is_tensor
from ember_core import _C

__all__ = ["histogram", "histogramdd"]


class histogram_return(NamedTuple):
    """The result of :func:`ember.histogram`: ``(hist, bin_edges)``."""

    hist: Any
    bin_edges: Any


class histogramdd_return(NamedTuple):
    """The result of :func:`ember.histogramdd`: ``(hist, bin_edges)``, one edge tensor per dim."""

    hist: Any
    bin_edges: list[Any]


def _check_float(x: Any, op: str, name: str) -> None:
    if not is_tensor(x):
        raise TypeError(f"[{op}] {name} must be a Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise RuntimeError(f"[{op}] {name} must be a floating point tensor, got {x.dtype}")


def _edges(column: Any, bins: Any, rng: Any, op: str) -> Any:
    """The bin edges along one dim: given, or ``bins + 1`` evenly from the range."""
    if is_tensor(bins):
        if bins.dim() != 1 or bins.numel() < 2:
            raise RuntimeError(f"[{op}] bins must be a 1-d tensor of at least 2 edges")
        if bool((bins[1:] < bins[:-1]).any().item()):
            raise RuntimeError(f"[{op}] bin edges must be non-decreasing")
        return bins.to(column.dtype)
    if not isinstance(bins, int) or isinstance(bins, bool) or bins <= 0:
        raise RuntimeError(f"[{op}] bins must be a positive int or a tensor of edges, got {bins!r}")
    if rng is not None:
        if not isinstance(rng, (list, tuple)):
            raise TypeError(f"[{op}] range must be a pair of numbers, got {rng!r:.60}")
        if len(rng) != 2:  # torch's wording and type for a wrong-length range
            raise RuntimeError(f"[{op}] range should have 2 elements, but got {len(rng)}")
        try:
            lo, hi = float(rng[0]), float(rng[1])
        except (TypeError, ValueError, IndexError):
            raise TypeError(f"[{op}] range must be a pair of numbers, got {rng!r:.60}") from None
    elif column.numel() == 0:
        lo, hi = 0.0, 0.0
    else:
        lo, hi = float(column.min().item()), float(column.max().item())
    if lo > hi:
        raise RuntimeError(f"[{op}] max must be larger than min, got range ({lo}, {hi})")
    if lo == hi:  # as numpy and torch: a one-value range widens by 0.5 on each side
        lo, hi = lo - 0.5, hi + 0.5
    if not (abs(lo) < float("inf") and abs(hi) < float("inf")):
        raise RuntimeError(f"[{op}] range of [{lo}, {hi}] is not finite")
    return _C.linspace(lo, hi, bins + 1, dtype=column.dtype)


def _bin_index(column: Any, edges: Any) -> tuple[Any, Any]:
    """Each value's bin and whether it lies in [first edge, last edge]."""
    nbins = edges.numel() - 1
    index = _C.searchsorted(edges, column.contiguous(), right=True) - 1
    index = index.masked_fill(column == edges[-1], nbins - 1)  # the last bin is closed
    inside = (column >= edges[0]) & (column <= edges[-1])
    return index.clamp(0, nbins - 1), inside


def _count(flat_index: Any, inside: Any, weight: Any, size: int, dtype: Any) -> Any:
    w = _C.ones(list(flat_index.shape), dtype=dtype) if weight is None else weight.to(dtype)
    w = w.masked_fill(inside.logical_not(), 0)
    return _C.zeros(size, dtype=dtype).index_add_(0, flat_index, w)


def _density(hist: Any, edges: list[Any]) -> Any:
    total = hist.sum()
    for d, e in enumerate(edges):
        shape = [1] * len(edges)
        shape[d] = e.numel() - 1
        hist = hist / (e[1:] - e[:-1]).reshape(shape)
    return hist / total


def histogram(
    input: Any, bins: Any = 100, *, range: Any = None, weight: Any = None, density: bool = False
) -> histogram_return:
    """The histogram of ``input``'s values: ``bins`` equal bins over ``range`` (default: the
    values' min and max) or the given edges; ``weight`` weighs each value; ``density`` normalizes
    the result to integrate to 1.

    Example:
        >>> ember.histogram(ember.tensor([1.0, 2.0, 1.0]), bins=4, range=(0.0, 3.0)).hist
        tensor([0., 2., 1., 0.])
    """
    _check_float(input, "histogram", "input")
    flat = input.reshape(-1)
    if weight is not None:
        _check_float(weight, "histogram", "weight")
        if list(weight.shape) != list(input.shape):
            raise RuntimeError("[histogram] weight must have the same shape as input")
        weight = weight.reshape(-1)
    edges = _edges(flat, bins, range, "histogram")
    index, inside = _bin_index(flat, edges)
    hist = _count(index, inside, weight, edges.numel() - 1, input.dtype)
    if density:
        hist = _density(hist, [edges])
    return histogram_return(hist, edges)


def histogramdd(
    input: Any, bins: Any = 10, *, range: Any = None, weight: Any = None, density: bool = False
) -> histogramdd_return:
    """The D-dimensional histogram of the points ``input[..., :D]`` (last dim: coordinates).

    ``bins`` is an int, one int per dim, or one edge tensor per dim; ``range`` is a flat list
    ``[lo0, hi0, lo1, hi1, ...]``.

    Example:
        >>> ember.histogramdd(ember.tensor([[0.0, 0.0], [1.0, 1.0]]), bins=2).hist
        tensor([[1., 0.],
                [0., 1.]])
    """
    _check_float(input, "histogramdd", "input")
    if input.dim() < 1:
        raise RuntimeError("[histogramdd] input must have at least one dim (the coordinates)")
    dims = input.shape[-1]
    points = input.reshape(-1, dims)
    if isinstance(bins, int) and not isinstance(bins, bool):
        bins = [bins] * dims
    if not isinstance(bins, (list, tuple)):
        raise TypeError(f"[histogramdd] bins must be an int or a sequence, got {bins!r:.60}")
    bins = list(bins)
    if len(bins) != dims:
        raise RuntimeError(
            f"[histogramdd] expected {dims} bin specs (one per dim), got {len(bins)}"
        )
    if range is not None and not isinstance(range, (list, tuple)):
        raise TypeError(f"[histogramdd] range must be a list of floats, not {type(range).__name__}")
    if range is not None and len(range) != 2 * dims:
        raise RuntimeError(f"[histogramdd] range must have {2 * dims} values, got {len(range)}")
    if weight is not None:
        _check_float(weight, "histogramdd", "weight")
        if list(weight.shape) != list(input.shape[:-1]):
            raise RuntimeError(
                "[histogramdd] weight must have the shape of input without its last dim"
            )
        weight = weight.reshape(-1)
    edges, flat_index, inside, sizes = [], None, None, []
    for d in builtins.range(dims):
        column = points[:, d]
        rng = None if range is None else (range[2 * d], range[2 * d + 1])
        e = _edges(column, bins[d], rng, "histogramdd")
        index, ok = _bin_index(column, e)
        edges.append(e)
        sizes.append(e.numel() - 1)
        flat_index = index if flat_index is None else flat_index * sizes[-1] + index
        inside = ok if inside is None else inside & ok
    total = 1
    for s in sizes:
        total *= s
    hist = _count(flat_index, inside, weight, total, input.dtype).reshape(sizes)
    if density:
        hist = _density(hist, edges)
    return histogramdd_return(hist, edges)
