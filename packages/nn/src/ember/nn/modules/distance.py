"""Distance modules of ``ember.nn``: PairwiseDistance and CosineSimilarity."""

from __future__ import annotations

from ember._tensor import Tensor
from ember.nn._functional import distance as D
from ember.nn.modules.module import Module

__all__ = ["CosineSimilarity", "PairwiseDistance"]


class PairwiseDistance(Module):
    """p-norm of ``x1 - x2 + eps`` over the last dimension.

    Example:
        >>> nn.PairwiseDistance()(ember.tensor([[3.0, 0.0]]), ember.tensor([[0.0, 4.0]]))
        tensor([5.0000])
    """

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return D.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """Cosine similarity along ``dim``.

    Example:
        >>> nn.CosineSimilarity()(ember.tensor([[1.0, 0.0]]), ember.tensor([[1.0, 0.0]]))
        tensor([1.])
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return D.cosine_similarity(x1, x2, self.dim, self.eps)
