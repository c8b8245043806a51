"""Embedding modules of ``ember.nn``: Embedding and EmbeddingBag (with ``from_pretrained``)."""

from __future__ import annotations

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional import sparse as S
from ember.nn._functional._checks import AssertionValueError
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter

__all__ = ["Embedding", "EmbeddingBag"]


def _check_padding(padding_idx: int | None, num_embeddings: int) -> int | None:
    if padding_idx is None:
        return None
    if padding_idx > 0 and padding_idx >= num_embeddings:
        # torch asserts here: AssertionValueError is a ValueError and an AssertionError.
        raise AssertionValueError("Padding_idx must be within num_embeddings")
    if padding_idx < 0:
        if padding_idx < -num_embeddings:
            raise AssertionValueError("Padding_idx must be within num_embeddings")
        padding_idx = num_embeddings + padding_idx
    return padding_idx


def _no_sparse(name: str, sparse: bool) -> None:
    if sparse:
        raise NotImplementedError(
            f"{name}: sparse=True (sparse gradients) is not supported by ember; use "
            "sparse=False (dense gradients)"
        )


def _initial_weight(
    name: str,
    num_embeddings: int,
    embedding_dim: int,
    weight: Tensor | None,
    freeze: bool,
    device: object,
    dtype: ember.dtype | None,
) -> tuple[Parameter, bool]:
    """The weight parameter and whether it still needs the default N(0, 1) initialization."""
    if weight is None:
        data = ember.empty([num_embeddings, embedding_dim], device=device, dtype=dtype)
        return Parameter(data, requires_grad=not freeze), True
    if list(weight.size()) != [num_embeddings, embedding_dim]:
        raise AssertionValueError("Shape of weight does not match num_embeddings and embedding_dim")
    return Parameter(weight, requires_grad=not freeze), False


class Embedding(Module):
    """A lookup table of ``num_embeddings`` vectors of size ``embedding_dim``.

    Rows are initialised from N(0, 1); the ``padding_idx`` row is zero and gets no gradient.

    Example:
        >>> emb = nn.Embedding(10, 3, padding_idx=0)
        >>> emb(ember.tensor([[0, 2], [4, 9]])).shape
        ember.Size([2, 2, 3])
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: object = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        _no_sparse("Embedding", sparse)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.padding_idx = _check_padding(padding_idx, num_embeddings)
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        self.weight, fresh = _initial_weight(
            "Embedding", num_embeddings, embedding_dim, _weight, _freeze, device, dtype
        )
        if fresh:
            self.reset_parameters()

    def reset_parameters(self) -> None:
        """Rows from N(0, 1); the padding row zero."""
        with no_grad():
            self.weight.normal_(0.0, 1.0)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            with no_grad():
                self.weight[self.padding_idx].fill_(0.0)

    def forward(self, input: Tensor) -> Tensor:
        return S.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An Embedding whose weight is ``embeddings`` (frozen unless ``freeze=False``).

        Example:
            >>> emb = nn.Embedding.from_pretrained(ember.tensor([[1.0, 2.0], [3.0, 4.0]]))
            >>> emb(ember.tensor([1])), emb.weight.requires_grad
            (tensor([[3., 4.]]), False)
        """
        if embeddings.dim() != 2:
            raise AssertionValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.size()
        return cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            _freeze=freeze,
            padding_idx=padding_idx,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            sparse=sparse,
        )


class EmbeddingBag(Module):
    """Sums, averages or maxes bags of embeddings (bags given by ``offsets`` or 2-D input).

    Example:
        >>> bag = nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag(ember.tensor([1, 2, 4, 5]), ember.tensor([0, 2])).shape
        ember.Size([2, 3])
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Tensor | None = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device: object = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        _no_sparse("EmbeddingBag", sparse)
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.padding_idx = _check_padding(padding_idx, num_embeddings)
        self.weight, fresh = _initial_weight(
            "EmbeddingBag", num_embeddings, embedding_dim, _weight, False, device, dtype
        )
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset
        if fresh:
            self.reset_parameters()

    def reset_parameters(self) -> None:
        """Rows from N(0, 1); the padding row zero."""
        with no_grad():
            self.weight.normal_(0.0, 1.0)
            if self.padding_idx is not None:
                self.weight[self.padding_idx].fill_(0.0)

    def forward(
        self,
        input: Tensor,
        offsets: Tensor | None = None,
        per_sample_weights: Tensor | None = None,
    ) -> Tensor:
        return S.embedding_bag(
            input,
            self.weight,
            offsets,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.mode,
            self.sparse,
            per_sample_weights,
            self.include_last_offset,
            self.padding_idx,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
    ) -> EmbeddingBag:
        """An EmbeddingBag whose weight is ``embeddings`` (frozen unless ``freeze=False``).

        Example:
            >>> bag = nn.EmbeddingBag.from_pretrained(ember.tensor([[1.0], [3.0]]))
            >>> bag(ember.tensor([[0, 1]]))
            tensor([[2.]])
        """
        if embeddings.dim() != 2:
            raise AssertionValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.size()
        bag = cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            mode=mode,
            sparse=sparse,
            include_last_offset=include_last_offset,
            padding_idx=padding_idx,
        )
        bag.weight.requires_grad_(not freeze)
        return bag
