"""Distance functions of ``ember.nn.functional``: pairwise_distance, cosine_similarity, pdist."""

from __future__ import annotations

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensors

__all__ = ["cosine_similarity", "pairwise_distance", "pdist"]


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """p-norm of ``x1 - x2 + eps`` over the last dimension (inputs broadcast).

    Example:
        >>> F.pairwise_distance(ember.tensor([[3.0, 0.0]]), ember.tensor([[0.0, 4.0]]))
        tensor([5.])
    """
    check_tensors("pairwise_distance", x1=x1, x2=x2)
    for name, t in (("x1", x1), ("x2", x2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"pairwise_distance(): argument '{name}' must be Tensor")
    try:
        ember.broadcast_shapes(x1.shape, x2.shape)
    except RuntimeError as exc:
        raise RuntimeError(
            f"pairwise_distance: x1 of shape {list(x1.size())} and x2 of shape "
            f"{list(x2.size())} are not broadcastable"
        ) from exc
    dims = max(x1.dim(), x2.dim())
    diff = x1 - x2 + eps
    if dims == 0:
        return diff.abs()
    return ember.linalg.vector_norm(diff, p, dim=dims - 1, keepdim=keepdim)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """x1 . x2 / (max(||x1||, eps) * max(||x2||, eps)) along ``dim`` (inputs broadcast).

    Example:
        >>> F.cosine_similarity(ember.tensor([[1.0, 0.0]]), ember.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """
    check_tensors("cosine_similarity", x1=x1, x2=x2)
    try:
        shape = ember.broadcast_shapes(x1.shape, x2.shape)
    except RuntimeError as exc:
        raise RuntimeError(
            f"cosine_similarity: x1 of shape {list(x1.size())} and x2 of shape "
            f"{list(x2.size())} are not broadcastable"
        ) from exc
    ndim = len(shape)
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
            f"{max(ndim, 1) - 1}], but got {dim})"
        )
    n1 = ember.linalg.vector_norm(x1, 2, dim=dim, keepdim=True).clamp(min=eps)
    n2 = ember.linalg.vector_norm(x2, 2, dim=dim, keepdim=True).clamp(min=eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def pdist(input: Tensor, p: float = 2.0) -> Tensor:
    """p-norm distances between the rows of a 2-D input, upper triangle as one vector.

    Example:
        >>> F.pdist(ember.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 4.0]]))
        tensor([5., 4., 3.])
    """
    check_tensors("pdist", input=input)
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if p < 0:
        raise RuntimeError(f"pdist only supports non-negative p values, got {p}")
    n = input.size(0)
    rows = ember.triu_indices(n, n, 1)
    diff = input.index_select(0, rows[0]) - input.index_select(0, rows[1])
    return ember.linalg.vector_norm(diff, p, dim=1)
