"""Embedding lookups of ``ember.nn.functional``: embedding, embedding_bag, one_hot.

A plain lookup is one ``index_select`` (its backward is a native ``index_add``); ``padding_idx``
and ``scale_grad_by_freq`` go through a small custom backward that edits the weight gradient.
"""

from __future__ import annotations

from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.autograd import Function
from ember.nn._functional._checks import check_optional_tensors, check_tensor, check_tensors

__all__ = ["embedding", "embedding_bag", "one_hot"]


class _EmbeddingLookup(Function):
    """Row lookup whose weight gradient skips ``padding_idx`` and can be scaled by frequency."""

    @staticmethod
    def forward(ctx: Any, weight: Tensor, indices: Tensor, padding_idx: int, scale: bool) -> Tensor:
        ctx.save_for_backward(indices)
        ctx.rows = weight.size(0)
        ctx.padding_idx = padding_idx
        ctx.scale = scale
        return weight.index_select(0, indices)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple[Tensor, None, None, None]:
        (indices,) = ctx.saved_tensors
        if ctx.scale:
            counts = ember.bincount(indices, minlength=ctx.rows)
            grad = grad / counts.index_select(0, indices).unsqueeze(1).to(grad.dtype)
        grad_weight = ember.zeros([ctx.rows, grad.size(1)], dtype=grad.dtype)
        grad_weight = ember.index_add(grad_weight, 0, indices, grad)
        if ctx.padding_idx >= 0:
            grad_weight[ctx.padding_idx] = 0.0
        return grad_weight, None, None, None


def _check_indices(fname: str, input: Tensor) -> None:
    check_tensor(input, "input", fname)
    if input.dtype not in (ember.int64, ember.int32):
        raise RuntimeError(
            f"{fname}: Expected tensor for argument #1 'indices' to have one of the following "
            f"scalar types: Long, Int; but got {input.dtype} instead"
        )


def _padding_index(padding_idx: int | None, rows: int) -> int:
    if padding_idx is None:
        return -1
    if padding_idx >= rows or padding_idx < -rows:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx + rows if padding_idx < 0 else padding_idx


def _renorm_(weight: Tensor, indices: Tensor, max_norm: float, norm_type: float) -> None:
    # Rescales, in place and outside autograd, the referenced rows whose norm exceeds max_norm.
    with no_grad():
        rows = ember.unique(indices.reshape(-1))
        norms = ember.linalg.vector_norm(weight.index_select(0, rows), norm_type, dim=1)
        scale = ember.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight.index_copy_(0, rows, weight.index_select(0, rows) * scale.unsqueeze(1))


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """Looks up rows of ``weight`` for the integer indices in ``input``.

    Example:
        >>> F.embedding(ember.tensor([1, 0]), ember.tensor([[0.0, 1.0], [2.0, 3.0]]))
        tensor([[2., 3.],
                [0., 1.]])
    """
    check_tensors("embedding", weight=weight)
    _check_indices("embedding", input)
    if weight.dim() != 2:
        raise RuntimeError(f"embedding: 'weight' must be 2-D, got shape {list(weight.size())}")
    if sparse:
        raise NotImplementedError(
            "embedding: sparse=True (sparse gradients) is not supported by ember; use "
            "sparse=False (dense gradients)"
        )
    pad = _padding_index(padding_idx, weight.size(0))
    if max_norm is not None:
        _renorm_(weight, input, max_norm, norm_type)
    flat = input.reshape(-1)
    if pad < 0 and not scale_grad_by_freq:
        rows = weight.index_select(0, flat)
    else:
        rows = _EmbeddingLookup.apply(weight, flat, pad, scale_grad_by_freq)
    return rows.reshape([*list(input.size()), weight.size(1)])


def _bag_layout(
    input: Tensor, offsets: Tensor | None, include_last_offset: bool
) -> tuple[Tensor, Tensor, int]:
    """Flat indices, the bag of every index, and the number of bags."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a "
                "mini-batch of fixed length sequences. However, found offsets of type "
                f"{type(offsets).__name__}"
            )
        bags, length = input.size()
        return input.reshape(-1), ember.arange(bags).repeat_interleave(length), bags
    if input.dim() != 1:
        raise ValueError(
            f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}"
        )
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if offsets.dim() != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    starts = offsets.long()
    if include_last_offset:
        if starts.numel() < 1:
            raise RuntimeError("embedding_bag: include_last_offset needs at least one offset")
        starts = starts[:-1]
    if starts.numel() and int(starts[0]) != 0:
        raise RuntimeError(
            f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
            f"from position 0. However, got {int(starts[0])}"
        )
    n = input.size(0)
    bag_of = ember.searchsorted(starts, ember.arange(n), right=True) - 1
    if include_last_offset and offsets.numel():
        end = int(offsets[-1])
        if end < n:
            input, bag_of = input[:end], bag_of[:end]
    return input, bag_of, starts.numel()


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets: Tensor | None = None,
    max_norm: float | None = None,
    norm_type: float = 2,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Tensor | None = None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """Sums, averages or maxes bags of embeddings without materializing each lookup's rows.

    Example:
        >>> w = ember.tensor([[1.0], [2.0], [4.0]])
        >>> F.embedding_bag(ember.tensor([0, 1, 2]), w, ember.tensor([0, 2]), mode="sum")
        tensor([[3.],
                [4.]])
    """
    check_tensors("embedding_bag", weight=weight)
    check_optional_tensors("embedding_bag", offsets=offsets, per_sample_weights=per_sample_weights)
    _check_indices("embedding_bag", input)
    if weight.dim() != 2:
        raise ValueError(
            f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if sparse:
        raise NotImplementedError("embedding_bag: sparse=True is not supported by ember")
    if per_sample_weights is not None:
        if per_sample_weights.shape != input.shape:
            raise ValueError(
                f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, "
                f"then it must have the same shape as the input ({input.shape})"
            )
        if mode != "sum":
            raise NotImplementedError(
                "embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                "GitHub."
            )
    pad = _padding_index(padding_idx, weight.size(0))
    if max_norm is not None:
        _renorm_(weight, input, max_norm, norm_type)
    flat, bag_of, bags = _bag_layout(input, offsets, include_last_offset)
    psw = per_sample_weights.reshape(-1)[: flat.numel()] if per_sample_weights is not None else None
    if pad >= 0:
        keep = flat != pad
        flat, bag_of = flat[keep], bag_of[keep]
        psw = psw[keep] if psw is not None else None
    dim = weight.size(1)
    if scale_grad_by_freq:
        rows = _EmbeddingLookup.apply(weight, flat, -1, True)
    else:
        rows = weight.index_select(0, flat)
    if psw is not None:
        rows = rows * psw.unsqueeze(1)
    zeros = ember.zeros([bags, dim], dtype=weight.dtype)
    if mode == "max":
        index = bag_of.unsqueeze(1).expand(bag_of.size(0), dim)
        return ember.scatter_reduce(zeros, 0, index, rows, "amax", include_self=False)
    out = ember.index_add(zeros, 0, bag_of, rows)
    if mode == "mean":
        counts = ember.bincount(bag_of, minlength=bags).clamp(min=1)
        out = out / counts.unsqueeze(1).to(out.dtype)
    return out


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 one-hot encoding with a new last dimension of size ``num_classes``.

    Example:
        >>> F.one_hot(ember.tensor([0, 2]))
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    if not isinstance(tensor, Tensor) or tensor.dtype != ember.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() == 0:
        if num_classes < 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        return ember.zeros([*list(tensor.size()), num_classes], dtype=ember.int64)
    lo, hi = (int(v) for v in ember.aminmax(tensor))
    if lo < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = hi + 1
    elif hi >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = ember.zeros([*list(tensor.size()), num_classes], dtype=ember.int64)
    return out.scatter_(-1, tensor.unsqueeze(-1), 1)
