"""Regression and classification losses of ``ember.nn.functional`` (torch 2.13 semantics).

Built from large native ops. Cross-entropy with class-index targets is one native pass
(``_C._nn_cross_entropy``: log_softmax, NLL with weight, ignore_index, label smoothing and the
reduction; its backward is one pass too); nll_loss is one ``gather``, its class mask for
``ignore_index`` and the bounds check computed only when the targets need them.
"""

from __future__ import annotations

import math
import warnings
from typing import cast

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional._checks import check_optional_tensors, check_tensors
from ember_core import _C

from . import _reduction

__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "gaussian_nll_loss",
    "huber_loss",
    "kl_div",
    "l1_loss",
    "mse_loss",
    "nll_loss",
    "poisson_nll_loss",
    "smooth_l1_loss",
]

# torch's scalar-type names, used in its dtype error messages.
_TORCH_NAMES: dict[object, str] = {
    ember.float32: "Float",
    ember.float64: "Double",
    ember.float16: "Half",
    ember.bfloat16: "BFloat16",
    ember.int32: "Int",
    ember.int16: "Short",
    ember.int8: "Char",
    ember.bool: "Bool",
    ember.uint8: "Byte",
    ember.int64: "Long",
}


def _size_warning(input: Tensor, target: Tensor) -> None:
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}). This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )


def _weighted(loss: Tensor, weight: Tensor | None, input: Tensor, reduction: str) -> Tensor:
    # torch's weighted mse/l1: 'mean' divides by the weights' sum.
    if weight is None:
        return _reduction.apply(loss, reduction)
    if weight.shape != input.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "mean":
        return loss.sum() / weight.sum()
    return _reduction.apply(loss, reduction)


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean squared error, optionally weighted elementwise.

    Example:
        >>> F.mse_loss(ember.tensor([1.0, 2.0]), ember.tensor([0.0, 0.0]))
        tensor(2.5000)
    """
    check_tensors("mse_loss", input=input, target=target)
    check_optional_tensors("mse_loss", weight=weight)
    _size_warning(input, target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    diff = input - target
    return _weighted(diff * diff, weight, input, reduction)


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean absolute error, optionally weighted elementwise.

    Example:
        >>> F.l1_loss(ember.tensor([1.0, -2.0]), ember.tensor([0.0, 0.0]))
        tensor(1.5000)
    """
    check_tensors("l1_loss", input=input, target=target)
    check_optional_tensors("l1_loss", weight=weight)
    _size_warning(input, target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    return _weighted((input - target).abs(), weight, input, reduction)


def _huber(diff: Tensor, delta: float) -> Tensor:
    # 0.5 c^2 + delta (|d| - c) with c = min(|d|, delta): quadratic inside, linear outside.
    a = diff.abs()
    c = a.clamp(max=delta)
    return c * c * 0.5 + (a - c) * delta


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """Smooth L1: 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta.

    Example:
        >>> F.smooth_l1_loss(ember.tensor([0.5, 3.0]), ember.tensor([0.0, 0.0]))
        tensor(1.3125)
    """
    check_tensors("smooth_l1_loss", input=input, target=target)
    _size_warning(input, target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    diff = input - target
    if beta == 0.0:
        return _reduction.apply(diff.abs(), reduction)
    return _reduction.apply(_huber(diff, beta) * (1.0 / beta), reduction)


def huber_loss(
    input: Tensor,
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """Huber loss: 0.5 d^2 where |d| <= delta, else delta (|d| - 0.5 delta).

    Example:
        >>> F.huber_loss(ember.tensor([0.5, 3.0]), ember.tensor([0.0, 0.0]))
        tensor(1.3125)
    """
    check_tensors("huber_loss", input=input, target=target)
    check_optional_tensors("huber_loss", weight=weight)
    _size_warning(input, target)
    _reduction.check(reduction)
    if delta <= 0:
        raise RuntimeError(
            f"huber_loss does not support non-positive values for delta, got {delta}."
        )
    loss = _huber(input - target, delta)
    if weight is not None:
        if weight.shape != input.shape:
            raise ValueError("Weights and input must have the same size.")
        loss = loss * weight
    return _reduction.apply(loss, reduction)


# --- negative log-likelihood and cross-entropy -----------------------------------------------


def _class_weight(weight: Tensor | None, classes: int) -> Tensor | None:
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(
            f"weight tensor should be defined either for all {classes} classes or no classes but "
            f"got weight tensor of shape: {list(weight.size())}"
        )
    return weight


def _check_index_target(fname: str, input: Tensor, target: Tensor) -> None:
    if target.dtype not in (ember.int64, ember.uint8):
        name = _TORCH_NAMES.get(target.dtype, str(target.dtype))
        raise RuntimeError(f"{fname}: expected target dtype to be Long or Byte, but got {name}")
    if input.dim() < 1:
        raise ValueError(f"{fname}: expected input with at least 1 dimension, got a 0-d tensor")
    if input.dim() == 1:
        if target.dim() > 1 or target.numel() != 1:
            raise ValueError(
                f"{fname}: expected a 0-d target for an unbatched input of shape "
                f"{list(input.size())}, got target of shape {list(target.size())}"
            )
        return
    if target.dim() == 0 or target.size(0) != input.size(0):
        got = target.size(0) if target.dim() else 0
        raise ValueError(
            f"Expected input batch_size ({input.size(0)}) to match target batch_size ({got})."
        )
    if input.dim() == 2 and target.dim() != 1:
        raise RuntimeError(
            f"{fname}: 0D or 1D target tensor expected, multi-target not supported "
            f"(input {list(input.size())}, target {list(target.size())})"
        )
    expected = [input.size(0), *list(input.size()[2:])]
    if list(target.size()) != expected:
        raise RuntimeError(f"Expected target size {expected}, got {list(target.size())}")


def _nll_terms(
    logp: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int
) -> tuple[Tensor, Tensor | None, Tensor | None]:
    """Per-element ``-w[t] * logp[t]`` for batched ``logp`` [N, C, ...] and targets [N, ...].

    Returns (loss, valid mask or None when every target is valid, picked class weights or None).
    """
    classes = logp.size(1)
    t = target.long() if target.dtype != ember.int64 else target
    mask: Tensor | None = None
    if t.numel():
        lo, hi = (int(v) for v in ember.aminmax(t))
        if lo < 0 or hi >= classes or lo <= ignore_index <= hi:
            mask = t != ignore_index
            bad = ((t < 0) | (t >= classes)) & mask
            if bool(bad.any()):
                value = int(t[bad][0])
                raise IndexError(f"Target {value} is out of bounds.")
            if bool(mask.all()):
                mask = None
            else:
                t = t.masked_fill(~mask, 0)
    picked = logp.gather(1, t.unsqueeze(1)).squeeze(1)
    w: Tensor | None = None
    if weight is not None:
        w = ember.take(weight, t)
        if mask is not None:
            w = w * mask
        return -picked * w, mask, w
    if mask is not None:
        return ember.where(mask, -picked, 0.0), mask, None
    return -picked, None, None


def _reduce_nll(loss: Tensor, mask: Tensor | None, w: Tensor | None, reduction: str) -> Tensor:
    if reduction == "mean":
        if w is not None:
            return loss.sum() / w.sum()
        if mask is not None:
            return loss.sum() / mask.sum()
        return loss.mean()
    return _reduction.apply(loss, reduction)


def _batched(input: Tensor, target: Tensor) -> tuple[Tensor, Tensor, bool]:
    if input.dim() == 1:
        return input.unsqueeze(0), target.reshape([1]), True
    return input, target, False


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Negative log-likelihood of class-index targets given log-probabilities [N, C, d1, ...].

    Example:
        >>> F.nll_loss(ember.tensor([[-1.0, -2.0]]), ember.tensor([1]))
        tensor(2.)
    """
    check_tensors("nll_loss", input=input, target=target)
    check_optional_tensors("nll_loss", weight=weight)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    _check_index_target("nll_loss", input, target)
    x, t, unbatched = _batched(input, target)
    weight = _class_weight(weight, x.size(1))
    loss, mask, w = _nll_terms(x, t, weight, ignore_index)
    if unbatched and reduction == "none":
        return loss.squeeze(0)
    return _reduce_nll(loss, mask, w, reduction)


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    ignore_index: int = -100,
    reduce: bool | None = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Cross-entropy between logits [N, C, d1, ...] (or [C]) and class indices or probabilities.

    Example:
        >>> F.cross_entropy(ember.tensor([[0.0, 0.0]]), ember.tensor([1]))
        tensor(0.6931)
    """
    check_tensors("cross_entropy", input=input, target=target)
    check_optional_tensors("cross_entropy", weight=weight)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    if input.dim() < 1:
        raise ValueError(
            "cross_entropy: expected input with at least 1 dimension, got a 0-d tensor"
        )
    class_dim = 0 if input.dim() == 1 else 1
    classes = input.size(class_dim)
    weight = _class_weight(weight, classes)
    if target.is_floating_point() and target.shape == input.shape:
        logp = ember.log_softmax(input, class_dim)
        return _cross_entropy_probs(logp, target, weight, ignore_index, reduction, label_smoothing)
    _check_index_target("cross_entropy", input, target)
    x, t, unbatched = _batched(input, target)
    if x.dtype not in (ember.float32, ember.float64, ember.float16, ember.bfloat16):
        raise NotImplementedError(
            f"cross_entropy: not implemented for {x.dtype} logits of shape {list(input.size())}"
        )
    t = t.long() if t.dtype != ember.int64 else t
    loss = _C._nn_cross_entropy(x, t, weight, reduction, ignore_index, label_smoothing)[0]
    return loss.squeeze(0) if unbatched and reduction == "none" else loss


def _cross_entropy_probs(
    logp: Tensor,
    target: Tensor,
    weight: Tensor | None,
    ignore_index: int,
    reduction: str,
    label_smoothing: float,
) -> Tensor:
    if ignore_index >= 0:
        raise RuntimeError("ignore_index is not supported for floating point target")
    class_dim = 0 if logp.dim() == 1 else 1
    classes = logp.size(class_dim)
    if label_smoothing > 0:
        target = target * (1.0 - label_smoothing) + label_smoothing / classes
    prod = logp * target
    if weight is not None:
        prod = prod * weight.reshape([classes] + [1] * (logp.dim() - class_dim - 1))
    loss = -prod.sum(class_dim)
    return _reduction.apply(loss, reduction)


# --- binary cross-entropy ----------------------------------------------------------------------


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Binary cross-entropy of probabilities (log terms clamped at -100, as torch).

    Example:
        >>> F.binary_cross_entropy(ember.tensor([0.5]), ember.tensor([1.0]))
        tensor(0.6931)
    """
    check_tensors("binary_cross_entropy", input=input, target=target)
    check_optional_tensors("binary_cross_entropy", weight=weight)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({input.shape}) is deprecated. Please ensure they have the same size."
        )
    if input.numel():
        lo, hi = (float(v) for v in ember.aminmax(input.detach()))
        if lo < 0 or hi > 1 or math.isnan(lo) or math.isnan(hi):
            raise RuntimeError("all elements of input should be between 0 and 1")
    log_p = ember.log(input).clamp(min=-100.0)
    log_q = ember.log1p(-input).clamp(min=-100.0)
    loss = -(target * (log_p - log_q) + log_q)
    if weight is not None:
        loss = loss * weight
    return _reduction.apply(loss, reduction)


def _fused_bce_applies(
    input: Tensor, target: Tensor, weight: Tensor | None, pos_weight: Tensor | None
) -> bool:
    """Whether the one-pass native kernel computes this call: float32/float64 operands of one
    dtype, and no gradient asked of weight or pos_weight (the kernel's rule has none; the
    composite below gives them)."""
    dtype = input.dtype
    if dtype not in (ember.float32, ember.float64) or target.dtype != dtype:
        return False
    for extra in (weight, pos_weight):
        if extra is not None and (
            extra.dtype != dtype or extra.requires_grad or not _broadcasts_to(extra, input)
        ):
            return False
    return True


def _broadcasts_to(t: Tensor, like: Tensor) -> bool:
    if t.dim() > like.dim():
        return False
    return all(a in (1, b) for a, b in zip(t.shape[::-1], like.shape[::-1], strict=False))


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """Sigmoid + binary cross-entropy in one numerically stable expression.

    Example:
        >>> F.binary_cross_entropy_with_logits(ember.tensor([0.0]), ember.tensor([1.0]))
        tensor(0.6931)
    """
    check_tensors("binary_cross_entropy_with_logits", input=input, target=target)
    check_optional_tensors("binary_cross_entropy_with_logits", weight=weight, pos_weight=pos_weight)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({input.shape})"
        )
    if _fused_bce_applies(input, target, weight, pos_weight):
        return _C._nn_binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)
    # log(1 + exp(-|x|)) + max(-x, 0) = softplus(-x), evaluated without overflow.
    soft_neg = ember.log1p(ember.exp(-input.abs())) + (-input).clamp(min=0.0)
    if pos_weight is None:
        loss = (1.0 - target) * input + soft_neg
    else:
        log_weight = (pos_weight - 1.0) * target + 1.0
        loss = (1.0 - target) * input + log_weight * soft_neg
    if weight is not None:
        loss = loss * weight
    return _reduction.apply(loss, reduction)


# --- distributions -----------------------------------------------------------------------------


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: bool | None = None,
    reduce: bool | None = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Kullback-Leibler divergence with ``input`` given as log-probabilities.

    Example:
        >>> q = ember.tensor([[0.5, 0.5]])
        >>> F.kl_div(q.log(), q, reduction="batchmean")
        tensor(0.)
    """
    check_tensors("kl_div", input=input, target=target)
    if size_average is not None or reduce is not None:
        reduction = _reduction.legacy_get_string(size_average, reduce)
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support "
            "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
            "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
            "major release.",
            stacklevel=2,
        )
    if reduction != "batchmean":
        _reduction.check(reduction)
    if log_target:
        loss = ember.exp(target) * (target - input)
    else:
        loss = ember.xlogy(target, target) - target * input
    if reduction == "batchmean":
        total = loss.sum()
        return cast(Tensor, total / input.size(0) if input.dim() != 0 else total)
    return _reduction.apply(loss, reduction)


def poisson_nll_loss(
    input: Tensor,
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average: bool | None = None,
    eps: float = 1e-8,
    reduce: bool | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Poisson negative log-likelihood (optionally with the Stirling term).

    Example:
        >>> F.poisson_nll_loss(ember.tensor([0.0]), ember.tensor([1.0]))
        tensor(1.)
    """
    check_tensors("poisson_nll_loss", input=input, target=target)
    reduction = _reduction.resolve(size_average, reduce, reduction)
    if log_input:
        loss = ember.exp(input) - target * input
    else:
        loss = input - target * ember.log(input + eps)
    if full:
        stirling = target * ember.log(target) - target + ember.log(target * (2 * math.pi)) * 0.5
        loss = loss + ember.where(target > 1, stirling, 0.0)
    return _reduction.apply(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,
    target: Tensor,
    var: Tensor | float,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """Gaussian negative log-likelihood with predicted variance ``var``.

    Example:
        >>> F.gaussian_nll_loss(ember.tensor([0.0]), ember.tensor([0.0]), ember.tensor([1.0]))
        tensor(0.)
    """
    check_tensors("gaussian_nll_loss", input=input, target=target)
    if not isinstance(var, (Tensor, int, float)):
        raise TypeError(
            f"gaussian_nll_loss(): argument 'var' must be Tensor or float, not {type(var).__name__}"
        )
    if isinstance(var, (int, float)):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        variance = ember.full_like(input, float(var))
    else:
        variance = var
        if bool((variance < 0).any()):
            raise ValueError("var has negative entry/entries")
    in_shape, var_shape = list(input.size()), list(variance.size())
    if var_shape != in_shape:
        if in_shape[:-1] == var_shape:
            variance = variance.unsqueeze(-1)
        elif not (
            len(in_shape) == len(var_shape)
            and sum(v for i, v in zip(in_shape, var_shape, strict=True) if i != v) == 1
        ):
            raise ValueError(f"var is of incorrect size (input {in_shape}, var {var_shape})")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    # Clamp without cutting the gradient: the clamp is done on a copy outside autograd.
    variance = variance.clone()
    with no_grad():
        variance.clamp_(min=eps)
    diff = input - target
    loss = (ember.log(variance) + diff * diff / variance) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduction.apply(loss, reduction)
