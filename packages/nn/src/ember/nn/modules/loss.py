"""Loss modules of ``ember.nn`` (torch 2.13 names, arguments and buffers).

Each module keeps its ``reduction`` (legacy ``size_average``/``reduce`` mapped with torch's
warning) and calls the function of the same name in ``ember.nn.functional``. Class weights are
registered as buffers, as torch does, so ``.to()`` and ``state_dict`` carry them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

from ember._tensor import Tensor
from ember.nn._functional import _reduction, loss_ctc
from ember.nn._functional import distance as D
from ember.nn._functional import loss as L
from ember.nn._functional import loss_margin as M
from ember.nn.modules.module import Module

__all__ = [
    "BCELoss",
    "BCEWithLogitsLoss",
    "CTCLoss",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "GaussianNLLLoss",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "KLDivLoss",
    "L1Loss",
    "MSELoss",
    "MarginRankingLoss",
    "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "NLLLoss",
    "NLLLoss2d",
    "PoissonNLLLoss",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
]


class _Loss(Module):
    reduction: str

    def __init__(
        self, size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean"
    ) -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = _reduction.legacy_get_string(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    weight: Tensor | None

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    """Mean absolute error.

    Example:
        >>> nn.L1Loss()(ember.tensor([1.0, -2.0]), ember.zeros(2))
        tensor(1.5000)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean squared error.

    Example:
        >>> nn.MSELoss()(ember.tensor([1.0, 2.0]), ember.zeros(2))
        tensor(2.5000)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices given log-probabilities.

    Example:
        >>> nn.NLLLoss()(ember.tensor([[-1.0, -2.0]]), ember.tensor([1]))
        tensor(2.)
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.nll_loss(
            input, target, self.weight, ignore_index=self.ignore_index, reduction=self.reduction
        )


class NLLLoss2d(NLLLoss):
    """Deprecated alias of :class:`NLLLoss` (warns as torch does).

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     loss = nn.NLLLoss2d()
        >>> loss(ember.tensor([[-1.0, -2.0]]), ember.tensor([1]))
        tensor(2.)
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        warnings.warn(
            "`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in "
            "replacement and see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more "
            "details.",
            FutureWarning,
            stacklevel=2,
        )
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross-entropy of logits against class indices or class probabilities.

    Example:
        >>> nn.CrossEntropyLoss()(ember.zeros(1, 2), ember.tensor([1]))
        tensor(0.6931)
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        ignore_index: int = -100,
        reduce: bool | None = None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class BCELoss(_WeightedLoss):
    """Binary cross-entropy of probabilities.

    Example:
        >>> nn.BCELoss()(ember.tensor([0.5]), ember.tensor([1.0]))
        tensor(0.6931)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Sigmoid + binary cross-entropy, numerically stable; ``pos_weight`` weighs positives.

    Example:
        >>> nn.BCEWithLogitsLoss()(ember.tensor([0.0]), ember.tensor([1.0]))
        tensor(0.6931)
    """

    weight: Tensor | None
    pos_weight: Tensor | None

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.binary_cross_entropy_with_logits(
            input, target, self.weight, pos_weight=self.pos_weight, reduction=self.reduction
        )


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence (``reduction='batchmean'`` gives the mathematical KL).

    Example:
        >>> nn.KLDivLoss(reduction="batchmean")(ember.zeros(1, 2), ember.tensor([[1.0, 0.0]]))
        tensor(0.)
    """

    def __init__(
        self,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        log_target: bool = False,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class SmoothL1Loss(_Loss):
    """Smooth L1 (quadratic below ``beta``).

    Example:
        >>> nn.SmoothL1Loss()(ember.tensor([0.5]), ember.zeros(1))
        tensor(0.1250)
    """

    def __init__(
        self,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
        beta: float = 1.0,
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Huber loss (quadratic below ``delta``, linear above).

    Example:
        >>> nn.HuberLoss()(ember.tensor([3.0]), ember.zeros(1))
        tensor(2.5000)
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return L.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class PoissonNLLLoss(_Loss):
    """Poisson negative log-likelihood.

    Example:
        >>> nn.PoissonNLLLoss()(ember.zeros(1), ember.ones(1))
        tensor(1.)
    """

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        size_average: bool | None = None,
        eps: float = 1e-8,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return L.poisson_nll_loss(
            log_input, target, self.log_input, self.full, eps=self.eps, reduction=self.reduction
        )


class GaussianNLLLoss(_Loss):
    """Gaussian negative log-likelihood with a predicted variance.

    Example:
        >>> nn.GaussianNLLLoss()(ember.zeros(1), ember.zeros(1), ember.ones(1))
        tensor(0.)
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        return L.gaussian_nll_loss(
            input, target, var, full=self.full, eps=self.eps, reduction=self.reduction
        )


class HingeEmbeddingLoss(_Loss):
    """x for target 1, max(0, margin - x) for target -1.

    Example:
        >>> nn.HingeEmbeddingLoss()(ember.tensor([0.3]), ember.tensor([-1.0]))
        tensor(0.7000)
    """

    def __init__(
        self,
        margin: float = 1.0,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return M.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """Multi-label hinge loss over class-index targets ended by -1.

    Example:
        >>> nn.MultiLabelMarginLoss()(ember.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                           ember.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return M.multilabel_margin_loss(input, target, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """log(1 + exp(-y x)).

    Example:
        >>> nn.SoftMarginLoss()(ember.zeros(1), ember.ones(1))
        tensor(0.6931)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return M.soft_margin_loss(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """One-vs-all logistic loss averaged over classes.

    Example:
        >>> nn.MultiLabelSoftMarginLoss()(ember.zeros(1, 2), ember.tensor([[1.0, 0.0]]))
        tensor(0.6931)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return M.multilabel_soft_margin_loss(
            input, target, weight=self.weight, reduction=self.reduction
        )


class CosineEmbeddingLoss(_Loss):
    """1 - cos for similar pairs (target 1), max(0, cos - margin) for dissimilar ones.

    Example:
        >>> nn.CosineEmbeddingLoss()(ember.ones(1, 2), ember.ones(1, 2), ember.ones(1))
        tensor(0.)
    """

    def __init__(
        self,
        margin: float = 0.0,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return M.cosine_embedding_loss(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class MarginRankingLoss(_Loss):
    """max(0, -y (x1 - x2) + margin).

    Example:
        >>> nn.MarginRankingLoss()(ember.ones(1), ember.zeros(1), ember.ones(1))
        tensor(0.)
    """

    def __init__(
        self,
        margin: float = 0.0,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return M.margin_ranking_loss(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class MultiMarginLoss(_WeightedLoss):
    """Multi-class hinge loss (p = 1 or 2).

    Example:
        >>> nn.MultiMarginLoss()(ember.tensor([[0.1, 0.2, 0.4, 0.8]]), ember.tensor([3]))
        tensor(0.3250)
    """

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(
                f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D "
                "instead"
            )
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return M.multi_margin_loss(
            input,
            target,
            p=self.p,
            margin=self.margin,
            weight=self.weight,
            reduction=self.reduction,
        )


class TripletMarginLoss(_Loss):
    """max(d(a, p) - d(a, n) + margin, 0) with the p-norm distance.

    Example:
        >>> a = ember.zeros(1, 2)
        >>> nn.TripletMarginLoss()(a, a, a + 3.0)
        tensor(0.)
    """

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        eps: float = 1e-6,
        swap: bool = False,
        size_average: bool | None = None,
        reduce: bool | None = None,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead"
            )
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return M.triplet_margin_loss(
            anchor,
            positive,
            negative,
            margin=self.margin,
            p=self.p,
            eps=self.eps,
            swap=self.swap,
            reduction=self.reduction,
        )


class TripletMarginWithDistanceLoss(_Loss):
    """Triplet margin loss with any distance function (default: pairwise distance).

    Example:
        >>> a = ember.zeros(1, 2)
        >>> nn.TripletMarginWithDistanceLoss()(a, a, a + 3.0)
        tensor(0.)
    """

    def __init__(
        self,
        *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ) -> None:
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(
                "TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                f"{margin} instead"
            )
        self.distance_function = (
            distance_function if distance_function is not None else D.pairwise_distance
        )
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return M.triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=self.distance_function,
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )


class CTCLoss(_Loss):
    """Connectionist temporal classification loss over (T, N, C) log-probabilities.

    Example:
        >>> lp = ember.randn(5, 1, 3).log_softmax(2)
        >>> nn.CTCLoss()(lp, ember.tensor([[1, 2]]), [5], [2]).dim()
        0
    """

    def __init__(
        self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False
    ) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(
        self,
        log_probs: Tensor,
        targets: Tensor,
        input_lengths: Tensor | Sequence[int],
        target_lengths: Tensor | Sequence[int],
    ) -> Tensor:
        return loss_ctc.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            self.blank,
            self.reduction,
            self.zero_infinity,
        )
