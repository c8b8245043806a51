"""Shape functions torch has beside its native ops: ``ravel``, ``row_stack``, ``resolve_neg``,
``is_neg``, ``chain_matmul``, ``unravel_index`` and ``vander``, composed from ember's native ops
(autograd records the ops they call, so they need no derivative rule of their own)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, cast

from ember._linalg_composite import multi_dot
from ember._linalg_helpers import N, check_tensor
from ember._linalg_helpers import out as write_out
from ember_core import _C

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ember._tensor import Tensor

__all__ = [
    "chain_matmul",
    "is_neg",
    "ravel",
    "resolve_neg",
    "row_stack",
    "unravel_index",
    "vander",
]


def ravel(input: Tensor) -> Tensor:
    """The elements as one contiguous 1-D tensor: a view of a contiguous input, else a copy.

    Example:
        >>> ember.ravel(ember.tensor([[1, 2], [3, 4]]))
        tensor([1, 2, 3, 4])
    """
    x: Any = check_tensor(input, "ravel", "input")
    # torch's definition (contiguous().view(-1)): a strided 1-D input is copied, not viewed.
    return cast("Tensor", x.contiguous().view(-1))


def row_stack(tensors: tuple[Tensor, ...] | list[Tensor], *, out: Tensor | None = None) -> Tensor:
    """Alias of :func:`ember.vstack`: joins tensors along dim 0 after making each at least 2-d.

    Example:
        >>> ember.row_stack([ember.tensor([1, 2]), ember.tensor([3, 4])]).tolist()
        [[1, 2], [3, 4]]
    """
    return cast("Tensor", N.vstack(tensors, out=out))


def is_neg(input: Tensor) -> bool:
    """Whether ``input`` is a lazy negative view: always False (ember never makes them).

    Example:
        >>> ember.is_neg(ember.tensor([1.0]))
        False
    """
    check_tensor(input, "is_neg", "input")
    return False


def resolve_neg(input: Tensor) -> Tensor:
    """``input`` itself: ember has no negative views, so there is no negation to materialize.

    Example:
        >>> x = ember.tensor([1.0])
        >>> ember.resolve_neg(x) is x
        True
    """
    return cast("Tensor", check_tensor(input, "resolve_neg", "input"))


def chain_matmul(*matrices: Tensor, out: Tensor | None = None) -> Tensor:
    """The product of N 2-D matrices in the cheapest order (deprecated: linalg.multi_dot).

    Example:
        >>> ember.chain_matmul(ember.ones(2, 3), ember.ones(3, 4), ember.ones(4, 1)).tolist()
        [[12.0], [12.0]]
    """
    op = "chain_matmul"
    warnings.warn(
        "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
        "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
        "multiple parameters.",
        UserWarning,
        stacklevel=2,
    )
    if not matrices:
        raise RuntimeError(f"[{op}] Expected one or more matrices")
    checked: Sequence[Any] = [check_tensor(m, op, f"matrices[{i}]") for i, m in enumerate(matrices)]
    for m in checked:
        if m.dim() != 2:
            raise RuntimeError(f"[{op}] Tensor dimension is {m.dim()}, expected 2 instead.")
    # One matrix is copied (as torch); multi_dot orders a chain by its matrix-chain cost.
    result = checked[0].clone() if len(checked) == 1 else multi_dot(list(checked))
    return cast("Tensor", write_out(result, out, op))


def unravel_index(indices: Tensor, shape: int | Sequence[int]) -> tuple[Tensor, ...]:
    """The coordinates in a tensor of ``shape`` of flat (row-major) ``indices``, one int64
    tensor per dim; indices wrap around modulo the size, as torch's.

    Example:
        >>> ember.unravel_index(ember.tensor([5, 11]), (3, 4))
        (tensor([1, 2]), tensor([1, 3]))
    """
    op = "unravel_index"
    flat: Any = check_tensor(indices, op, "indices")
    if flat.is_floating_point() or flat.is_complex() or flat.dtype == N.bool:
        raise TypeError(f"[{op}] expected 'indices' to be integer dtype, but got {flat.dtype}")
    sizes = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(isinstance(s, bool) or not isinstance(s, int) for s in sizes):
        raise TypeError(f"[{op}] expected 'shape' to be int or sequence of ints, got {shape!r}")
    if any(s < 0 for s in sizes):
        raise ValueError(f"[{op}] 'shape' cannot have negative values, but got {tuple(sizes)}")
    if 0 in sizes:
        raise RuntimeError(f"[{op}] 'shape' cannot have a zero size, but got {tuple(sizes)}")
    rest = flat.to(N.int64)
    coords = []
    for size in reversed(sizes):
        coords.append(N.remainder(rest, size))  # floor semantics: -1 is the last coordinate
        rest = N.div(rest, size, rounding_mode="floor")
    return tuple(reversed(coords))


def vander(x: Tensor, N: int | None = None, increasing: bool = False) -> Tensor:
    """The Vandermonde matrix of a 1-D ``x``: columns ``x ** (N-1), ..., x, 1`` (reversed when
    ``increasing``); integer and bool inputs give int64.

    Example:
        >>> ember.vander(ember.tensor([1, 2, 3]), N=3)
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    op = "vander"
    t: Any = check_tensor(x, op, "x")
    if t.dim() != 1:
        raise RuntimeError(f"[{op}] x must be a one-dimensional tensor.")
    columns = t.shape[0] if N is None else N
    if isinstance(columns, bool) or not isinstance(columns, int):
        raise TypeError(f"[{op}] argument 'N' must be int, not {type(columns).__name__}")
    if columns < 0:
        raise RuntimeError(f"[{op}] N must be non-negative.")
    if not (t.is_floating_point() or t.is_complex()):
        t = t.to(_C.int64)
    ones: Any = _C.ones((t.shape[0], min(columns, 1)), dtype=t.dtype)
    result = ones
    if columns > 1:
        # Running products, as torch: x**k by k - 1 multiplications, exact for integers.
        powers = t.unsqueeze(1).expand(t.shape[0], columns - 1).cumprod(1)
        result = _C.cat([ones, powers], 1)
    return cast("Tensor", result if increasing else result.flip(1))
