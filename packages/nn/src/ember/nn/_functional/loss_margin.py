"""Margin, ranking and embedding losses of ``ember.nn.functional`` (torch 2.13 semantics)."""

from __future__ import annotations

from collections.abc import Callable

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_optional_tensors, check_tensors

from . import _reduction
from .activation import logsigmoid, softplus
from .distance import pairwise_distance

__all__ = [
    "cosine_embedding_loss",
    "hinge_embedding_loss",
    "margin_ranking_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "soft_margin_loss",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """1 - cos(x1, x2) for target 1, max(0, cos(x1, x2) - margin) for target -1.

    Example:
        >>> F.cosine_embedding_loss(ember.tensor([[1.0, 0.0]]), ember.tensor([[1.0, 0.0]]),
        ...                         ember.tensor([1.0]))
        tensor(0.)
    """
    check_tensors("cosine_embedding_loss", input1=input1, input2=input2, target=target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() not in (1, 2):
        raise RuntimeError(
            f"cosine_embedding_loss: expected 1D or 2D inputs of the same dimension, got "
            f"input1 {list(input1.size())} and input2 {list(input2.size())}"
        )
    if input1.dim() != target.dim() + 1:
        raise RuntimeError(
            f"cosine_embedding_loss: {target.dim()}D target tensor expected for "
            f"{input1.dim()}D inputs, got target of shape {list(target.size())}"
        )
    dim = input1.dim() - 1
    eps = 1e-12
    prod = (input1 * input2).sum(dim)
    mag = ((input1 * input1).sum(dim) + eps) * ((input2 * input2).sum(dim) + eps)
    cos = prod / mag.sqrt()
    pos = ember.where(target == 1, 1.0 - cos, 0.0)
    neg = ember.where(target == -1, (cos - margin).clamp(min=0.0), 0.0)
    return _reduction.apply(pos + neg, reduction)


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """max(0, -y (x1 - x2) + margin).

    Example:
        >>> F.margin_ranking_loss(ember.tensor([1.0]), ember.tensor([2.0]), ember.tensor([1.0]))
        tensor(1.)
    """
    check_tensors("margin_ranking_loss", input1=input1, input2=input2, target=target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if not input1.dim() == input2.dim() == target.dim():
        raise RuntimeError(
            "margin_ranking_loss : All input tensors should have same dimension but got sizes: "
            f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} "
        )
    loss = (-target * (input1 - input2) + margin).clamp(min=0.0)
    return _reduction.apply(loss, reduction)


def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """x where target is 1, max(0, margin - x) where target is -1.

    Example:
        >>> F.hinge_embedding_loss(ember.tensor([0.3, 2.0]), ember.tensor([-1.0, 1.0]))
        tensor(1.3500)
    """
    check_tensors("hinge_embedding_loss", input=input, target=target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    margin_part = ember.where(target != 1, (margin - input).clamp(min=0.0), 0.0)
    self_part = ember.where(target != -1, input, 0.0)
    return _reduction.apply(margin_part + self_part, reduction)


def soft_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """log(1 + exp(-y x)), evaluated stably.

    Example:
        >>> F.soft_margin_loss(ember.tensor([0.0]), ember.tensor([1.0]))
        tensor(0.6931)
    """
    check_tensors("soft_margin_loss", input=input, target=target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    return _reduction.apply(softplus(-target * input), reduction)


def multilabel_soft_margin_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """One-vs-all logistic loss averaged over the classes (last dim).

    Example:
        >>> F.multilabel_soft_margin_loss(ember.tensor([[0.0, 0.0]]), ember.tensor([[1.0, 0.0]]))
        tensor(0.6931)
    """
    check_tensors("multilabel_soft_margin_loss", input=input, target=target)
    check_optional_tensors("multilabel_soft_margin_loss", weight=weight)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.size(class_dim)
    return _reduction.apply(loss, reduction)


def _batched_index_input(
    fname: str, input: Tensor, target: Tensor, target_ndim_offset: int
) -> tuple[Tensor, Tensor, bool]:
    if input.dim() not in (1, 2) or (input.numel() == 0 and input.dim() == 1):
        raise RuntimeError(
            f"{fname}: Expected non-empty vector or matrix with optional 0-dim batch size, but "
            f"got: {list(input.size())}"
        )
    if input.dim() == 1:
        return input.unsqueeze(0), target.reshape([1, -1] if target_ndim_offset else [1]), True
    return input, target, False


def multi_margin_loss(
    input: Tensor,
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-class hinge loss: sum over i != y of max(0, margin - x[y] + x[i])^p / C.

    Example:
        >>> F.multi_margin_loss(ember.tensor([[0.1, 0.2, 0.4, 0.8]]), ember.tensor([3]))
        tensor(0.3250)
    """
    check_tensors("multi_margin_loss", input=input, target=target)
    check_optional_tensors("multi_margin_loss", weight=weight)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    x, t, unbatched = _batched_index_input("multi_margin_loss", input, target, 0)
    n, classes = x.size()
    if t.dim() > 1 or t.numel() != n:
        raise RuntimeError(
            f"multi_margin_loss: inconsistent target size: {list(target.size())} for input of "
            f"size: {list(input.size())}"
        )
    t = t.reshape([n]).long()
    if t.numel() and (int(t.min()) < 0 or int(t.max()) >= classes):
        raise IndexError(f"multi_margin_loss: target out of range for {classes} classes")
    xy = x.gather(1, t.unsqueeze(1))
    z = (x - xy + margin).clamp(min=0.0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * ember.take(weight, t).unsqueeze(1)
    is_target = ember.arange(classes).unsqueeze(0) == t.unsqueeze(1)
    loss = ember.where(is_target, 0.0, z).sum(1) / classes
    if unbatched:
        loss = loss.squeeze(0)
    return _reduction.apply(loss, reduction)


def multilabel_margin_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Multi-label hinge loss; ``target`` lists class indices, ended by the first -1.

    Example:
        >>> F.multilabel_margin_loss(ember.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                          ember.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
    check_tensors("multilabel_margin_loss", input=input, target=target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    x, t, unbatched = _batched_index_input("multilabel_margin_loss", input, target, 1)
    if t.shape != x.shape:
        raise RuntimeError(
            f"multilabel_margin_loss: inconsistent target size: {list(target.size())} for input "
            f"of size: {list(input.size())}"
        )
    n, classes = x.size()
    t = t.long()
    # A target position counts while no -1 has been seen before it (cumulative product).
    valid = (t >= 0).long().cumprod(1).bool()
    if bool(((t >= classes) & valid).any()):
        raise IndexError(f"multilabel_margin_loss: target out of range for {classes} classes")
    safe = t.masked_fill(~valid, 0)
    hits = ember.zeros(n, classes, dtype=ember.int64).scatter_add_(1, safe, valid.long())
    is_target = hits > 0
    xy = x.gather(1, safe)  # [N, C] values at the target classes
    hinge = (x.unsqueeze(1) - xy.unsqueeze(2) + 1.0).clamp(min=0.0)  # [N, j, i]
    keep = valid.unsqueeze(2) & ~is_target.unsqueeze(1)
    loss = ember.where(keep, hinge, 0.0).sum([1, 2]) / classes
    if unbatched:
        loss = loss.squeeze(0)
    return _reduction.apply(loss, reduction)


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """max(d(a, p) - d(a, n) + margin, 0) with the pairwise p-norm distance.

    Example:
        >>> a = ember.tensor([[0.0, 0.0]])
        >>> F.triplet_margin_loss(a, a, a + 3.0)
        tensor(0.)
    """
    check_tensors("triplet_margin_loss", anchor=anchor, positive=positive, negative=negative)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if not dims[0] == dims[1] == dims[2] or dims[0] not in (1, 2):
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions (1D or 2D), but got: anchor {dims[0]}D, positive {dims[1]}D, and "
            f"negative {dims[2]}D inputs"
        )
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = ember.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduction.apply((d_pos - d_neg + margin).clamp(min=0.0), reduction)


def triplet_margin_with_distance_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    *,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
) -> Tensor:
    """Triplet margin loss with any distance function (default: pairwise_distance).

    Example:
        >>> a = ember.tensor([[0.0, 0.0]])
        >>> F.triplet_margin_with_distance_loss(a, a, a + 3.0)
        tensor(0.)
    """
    check_tensors(
        "triplet_margin_with_distance_loss", anchor=anchor, positive=positive, negative=negative
    )
    _reduction.check(reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if not dims[0] == dims[1] == dims[2]:
        raise RuntimeError(
            "The anchor, positive, and negative tensors are expected to have the same number "
            f"of dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
            f"{dims[2]}D inputs"
        )
    dist = distance_function if distance_function is not None else pairwise_distance
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = ember.minimum(d_neg, dist(positive, negative))
    return _reduction.apply((d_pos - d_neg + margin).clamp(min=0.0), reduction)
