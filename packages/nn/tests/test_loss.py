"""Losses against numpy formulas in float64, gradcheck, every reduction, torch's errors."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layers_helpers import RNG, check_grad, close, randn, t

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradgradcheck

REDUCTIONS = ["none", "mean", "sum"]


def reduce(loss: np.ndarray, reduction: str) -> Any:
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


def np_log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def np_softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


# --- elementwise regression losses ---------------------------------------------------------

ELEMENTWISE: dict[
    str, tuple[Callable[..., Any], Callable[[np.ndarray, np.ndarray], np.ndarray]]
] = {
    "mse": (F.mse_loss, lambda x, y: (x - y) ** 2),
    "l1": (F.l1_loss, lambda x, y: np.abs(x - y)),
    "smooth_l1": (
        lambda a, b, **k: F.smooth_l1_loss(a, b, beta=0.7, **k),
        lambda x, y: np.where(np.abs(x - y) < 0.7, 0.5 * (x - y) ** 2 / 0.7, np.abs(x - y) - 0.35),
    ),
    "huber": (
        lambda a, b, **k: F.huber_loss(a, b, delta=0.6, **k),
        lambda x, y: np.where(
            np.abs(x - y) <= 0.6, 0.5 * (x - y) ** 2, 0.6 * (np.abs(x - y) - 0.3)
        ),
    ),
    "soft_margin": (F.soft_margin_loss, lambda x, y: np_softplus(-y * x)),
    "hinge": (
        lambda a, b, **k: F.hinge_embedding_loss(a, b, margin=0.5, **k),
        lambda x, y: np.where(y == 1, x, np.maximum(0, 0.5 - x)),
    ),
    "poisson": (F.poisson_nll_loss, lambda x, y: np.exp(x) - y * x),
    "bce_logits": (
        F.binary_cross_entropy_with_logits,
        lambda x, y: -(y * -np_softplus(-x) + (1 - y) * -np_softplus(x)),
    ),
}


def _targets(name: str, shape: tuple[int, ...]) -> np.ndarray:
    if name in ("soft_margin", "hinge"):
        return np.where(RNG.random(shape) > 0.5, 1.0, -1.0)
    if name in ("poisson", "bce_logits"):
        return RNG.random(shape) * 2 if name == "poisson" else RNG.random(shape)
    return randn(*shape)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_elementwise_losses(name: str, reduction: str) -> None:
    fn, ref = ELEMENTWISE[name]
    x = randn(3, 5, scale=2.0)
    y = _targets(name, (3, 5))
    close(fn(t(x), t(y), reduction=reduction), reduce(ref(x, y), reduction))
    check_grad(lambda a: fn(a, t(y), reduction=reduction), x)


@pytest.mark.parametrize("name", ["mse", "l1", "smooth_l1", "huber"])
def test_target_gradient(name: str) -> None:
    fn, _ = ELEMENTWISE[name]
    check_grad(lambda a, b: fn(a, b), randn(4, 3), randn(4, 3))


def test_weighted_mse_l1_huber() -> None:
    x, y, w = randn(3, 4), randn(3, 4), RNG.random((3, 4)) + 0.1
    close(F.mse_loss(t(x), t(y), weight=t(w)), ((x - y) ** 2 * w).sum() / w.sum())
    close(F.l1_loss(t(x), t(y), weight=t(w), reduction="sum"), (np.abs(x - y) * w).sum())
    d = np.abs(x - y)
    hub = np.where(d <= 1, 0.5 * d**2, d - 0.5) * w
    close(F.huber_loss(t(x), t(y), weight=t(w)), hub.mean())
    with pytest.raises(ValueError, match="Weights and input must have the same size"):
        F.mse_loss(t(x), t(y), weight=t(w[0]))


def test_broadcasting_target_warns_with_torch_text() -> None:
    with pytest.warns(
        UserWarning, match=r"Using a target size \(ember.Size\(\[4\]\)\) that is different"
    ):
        out = F.mse_loss(t(randn(3, 4)), t(randn(4)))
    assert out.dim() == 0
    with (
        pytest.raises(RuntimeError),
        pytest.warns(UserWarning, match="different to the input size"),
    ):
        F.mse_loss(t(randn(3, 4)), t(randn(5)))


def test_legacy_size_average_and_reduce() -> None:
    x, y = randn(3, 2), randn(3, 2)
    with pytest.warns(
        UserWarning,
        match="size_average and reduce args will be deprecated, please use reduction='sum'",
    ):
        out = F.mse_loss(t(x), t(y), size_average=False)
    close(out, ((x - y) ** 2).sum())
    with pytest.warns(UserWarning, match="reduction='none'"):
        out = F.l1_loss(t(x), t(y), reduce=False)
    close(out, np.abs(x - y))
    with pytest.raises(ValueError, match="foo is not a valid value for reduction"):
        F.mse_loss(t(x), t(y), reduction="foo")


def test_smooth_l1_beta_zero_is_l1_and_negative_raises() -> None:
    x, y = randn(5), randn(5)
    close(F.smooth_l1_loss(t(x), t(y), beta=0.0), np.abs(x - y).mean())
    with pytest.raises(RuntimeError, match="negative values for beta"):
        F.smooth_l1_loss(t(x), t(y), beta=-1.0)


# --- nll / cross-entropy -------------------------------------------------------------------


def np_nll(
    logp: np.ndarray, target: np.ndarray, weight: np.ndarray | None, ignore: int, reduction: str
) -> Any:
    """logp [N, C, ...], target [N, ...]."""
    c = logp.shape[1]
    w = np.ones(c) if weight is None else weight
    valid = target != ignore
    safe = np.where(valid, target, 0)
    picked = np.take_along_axis(logp, safe[:, None], 1)[:, 0]
    wt = w[safe] * valid
    loss = -picked * wt
    if reduction == "mean":
        return loss.sum() / wt.sum()
    return reduce(loss, reduction)


def np_ce(
    x: np.ndarray,
    target: np.ndarray,
    weight: np.ndarray | None,
    ignore: int,
    reduction: str,
    eps: float,
) -> Any:
    logp = np_log_softmax(x, 1)
    c = x.shape[1]
    nll = np_nll(logp, target, weight, ignore, reduction)
    if eps == 0:
        return nll
    w = np.ones(c) if weight is None else weight
    valid = target != ignore
    wshape = [1, c] + [1] * (x.ndim - 2)
    smooth = -(logp * w.reshape(wshape)).sum(1) * valid
    if reduction == "mean":
        denom = (w[np.where(valid, target, 0)] * valid).sum()
        smooth_red = smooth.sum() / denom
    else:
        smooth_red = reduce(smooth, reduction)
    return (1 - eps) * nll + eps / c * smooth_red


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ignore", [-100, 2])
@pytest.mark.parametrize("smoothing", [0.0, 0.25])
def test_cross_entropy_class_indices(
    reduction: str, weighted: bool, ignore: int, smoothing: float
) -> None:
    x = randn(6, 4)
    target = np.array([0, 2, 3, 1, 2, 0])
    if ignore == -100:
        target[4] = -100
    w = RNG.random(4) + 0.5 if weighted else None
    kw: dict[str, Any] = dict(ignore_index=ignore, reduction=reduction, label_smoothing=smoothing)
    got = F.cross_entropy(t(x), t(target), weight=None if w is None else t(w), **kw)
    close(got, np_ce(x, target, w, ignore, reduction, smoothing))
    check_grad(lambda a: F.cross_entropy(a, t(target), weight=None if w is None else t(w), **kw), x)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_spatial(reduction: str) -> None:
    x = randn(2, 3, 4, 2)
    target = RNG.integers(0, 3, (2, 4, 2))
    target[0, 1, 1] = -100
    got = F.cross_entropy(t(x), t(target), reduction=reduction, label_smoothing=0.1)
    close(got, np_ce(x, target, None, -100, reduction, 0.1))
    check_grad(lambda a: F.cross_entropy(a, t(target), reduction=reduction), x)


def test_cross_entropy_unbatched() -> None:
    x = randn(5)
    close(F.cross_entropy(t(x), t(np.array(3))), -np_log_softmax(x[None], 1)[0, 3])
    p = RNG.random(5)
    p /= p.sum()
    close(F.cross_entropy(t(x), t(p)), -(np_log_softmax(x[None], 1)[0] * p).sum())
    assert F.cross_entropy(t(x), t(np.array(3)), reduction="none").dim() == 0


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_probabilities(reduction: str) -> None:
    x = randn(4, 5)
    p = RNG.random((4, 5))
    p /= p.sum(1, keepdims=True)
    w = RNG.random(5) + 0.5
    eps = 0.2
    ps = p * (1 - eps) + eps / 5
    ref = reduce(-(np_log_softmax(x, 1) * ps * w).sum(1), reduction)
    close(F.cross_entropy(t(x), t(p), weight=t(w), label_smoothing=eps, reduction=reduction), ref)
    check_grad(lambda a, b: F.cross_entropy(a, b, reduction=reduction), x, p)
    with pytest.raises(
        RuntimeError, match="ignore_index is not supported for floating point target"
    ):
        F.cross_entropy(t(x), t(p), ignore_index=1)


def test_cross_entropy_all_ignored_is_nan_like_torch() -> None:
    out = F.cross_entropy(t(randn(3, 4)), t(np.array([1, 1, 1])), ignore_index=1)
    assert math.isnan(float(out))


def test_cross_entropy_errors() -> None:
    x = t(randn(3, 5))
    with pytest.raises(IndexError, match=r"Target 7 is out of bounds\."):
        F.cross_entropy(x, t(np.array([0, 1, 7])))
    with pytest.raises(IndexError, match=r"Target -5 is out of bounds\."):
        F.cross_entropy(x, t(np.array([0, 1, -5])))
    with pytest.raises(
        ValueError, match=r"Expected input batch_size \(3\) to match target batch_size \(2\)"
    ):
        F.cross_entropy(x, t(np.array([0, 1])))
    with pytest.raises(
        RuntimeError, match="expected target dtype to be Long or Byte, but got Float"
    ):
        F.cross_entropy(x, t(np.array([0.0, 1.0, 2.0], dtype=np.float32)))
    with pytest.raises(RuntimeError, match="but got Int"):
        F.cross_entropy(x, t(np.array([0, 1, 2], dtype=np.int32)))
    with pytest.raises(
        RuntimeError, match=r"weight tensor should be defined either for all 5 classes"
    ):
        F.cross_entropy(x, t(np.array([0, 1, 2])), weight=t(np.ones(3)))
    with pytest.raises(RuntimeError, match=r"Expected target size \[3, 4\], got \[3, 5\]"):
        F.nll_loss(t(randn(3, 5, 4)), t(np.zeros((3, 5), dtype=np.int64)))
    with pytest.raises(RuntimeError, match=r"between 0\.0 and 1\.0\. Got: 1\.5"):
        F.cross_entropy(x, t(np.array([0, 1, 2])), label_smoothing=1.5)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss(reduction: str) -> None:
    logp = np_log_softmax(randn(5, 4), 1)
    target = np.array([0, 3, 1, 1, 2])
    w = RNG.random(4) + 0.1
    close(
        F.nll_loss(t(logp), t(target), weight=t(w), reduction=reduction),
        np_nll(logp, target, w, -100, reduction),
    )
    check_grad(lambda a: F.nll_loss(a, t(target), weight=t(w), reduction=reduction), logp)
    # uint8 targets are accepted (torch's Byte)
    close(F.nll_loss(t(logp), t(target.astype(np.uint8))), np_nll(logp, target, None, -100, "mean"))


# --- binary cross-entropy and friends ------------------------------------------------------


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_binary_cross_entropy(reduction: str) -> None:
    p = RNG.random((3, 4)) * 0.9 + 0.05
    y = RNG.random((3, 4))
    w = RNG.random(4) + 0.5
    ref = -(y * np.log(p) + (1 - y) * np.log(1 - p)) * w
    close(
        F.binary_cross_entropy(t(p), t(y), weight=t(w), reduction=reduction), reduce(ref, reduction)
    )
    check_grad(lambda a: F.binary_cross_entropy(a, t(y), reduction=reduction), p)
    # log terms are clamped at -100, as torch
    close(F.binary_cross_entropy(t(np.array([0.0])), t(np.array([1.0]))), 100.0)
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(t(p * 3), t(y))
    with pytest.raises(ValueError, match="Using a target size"):
        F.binary_cross_entropy(t(p), t(y[0]))


def test_bce_with_logits_pos_weight_and_stability() -> None:
    x = randn(3, 4, scale=30.0)
    y = RNG.random((3, 4))
    pw = RNG.random(4) + 0.5
    w = RNG.random((3, 4))
    lw = 1 + (pw - 1) * y
    ref = ((1 - y) * x + lw * np_softplus(-x)) * w
    got = F.binary_cross_entropy_with_logits(t(x), t(y), weight=t(w), pos_weight=t(pw))
    close(got, ref.mean())
    check_grad(
        lambda a, b: F.binary_cross_entropy_with_logits(a, t(y), pos_weight=b), randn(3, 4), pw
    )
    big = F.binary_cross_entropy_with_logits(
        t(np.array([1000.0, -1000.0])), t(np.array([0.0, 1.0])), reduction="none"
    )
    close(big, [1000.0, 1000.0])
    with pytest.raises(
        ValueError, match=r"Target size \(ember.Size\(\[4\]\)\) must be the same as input size"
    ):
        F.binary_cross_entropy_with_logits(t(x), t(y[0]))


@pytest.mark.parametrize("reduction", ["none", "sum", "batchmean", "mean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction: str, log_target: bool) -> None:
    x = np_log_softmax(randn(3, 4), 1)
    y = RNG.random((3, 4))
    y[0, 1] = 0.0
    if log_target:
        y = np.log(y + 0.1)
        ref = np.exp(y) * (y - x)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            ref = np.where(y > 0, y * np.log(np.where(y > 0, y, 1)), 0.0) - y * x
    expected = ref.sum() / 3 if reduction == "batchmean" else reduce(ref, reduction)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(F.kl_div(t(x), t(y), reduction=reduction, log_target=log_target), expected)
        check_grad(lambda a: F.kl_div(a, t(y), reduction=reduction, log_target=log_target), x)


def test_kl_div_mean_warns() -> None:
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        F.kl_div(t(randn(2, 2)), t(RNG.random((2, 2))))


def test_poisson_nll_full_and_linear() -> None:
    x = RNG.random((3, 4)) + 0.1
    y = RNG.random((3, 4)) * 4
    stirling = np.where(
        y > 1,
        y * np.log(np.where(y > 0, y, 1)) - y + 0.5 * np.log(2 * np.pi * np.where(y > 0, y, 1)),
        0,
    )
    ref = x - y * np.log(x + 1e-8) + stirling
    close(F.poisson_nll_loss(t(x), t(y), log_input=False, full=True, reduction="none"), ref)
    check_grad(lambda a: F.poisson_nll_loss(a, t(y), log_input=False), x)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_gaussian_nll(reduction: str) -> None:
    x, y = randn(4, 3), randn(4, 3)
    var = RNG.random((4, 3)) + 0.1
    ref = 0.5 * (np.log(var) + (x - y) ** 2 / var)
    close(F.gaussian_nll_loss(t(x), t(y), t(var), reduction=reduction), reduce(ref, reduction))
    close(
        F.gaussian_nll_loss(t(x), t(y), t(var), full=True, reduction=reduction),
        reduce(ref + 0.5 * np.log(2 * np.pi), reduction),
    )
    # homoscedastic: one variance per row, given as [4] or [4, 1]
    v1 = var[:, :1]
    ref1 = reduce(0.5 * (np.log(v1) + (x - y) ** 2 / v1), reduction)
    close(F.gaussian_nll_loss(t(x), t(y), t(v1[:, 0]), reduction=reduction), ref1)
    close(F.gaussian_nll_loss(t(x), t(y), t(v1), reduction=reduction), ref1)
    check_grad(lambda a, v: F.gaussian_nll_loss(a, t(y), v, reduction=reduction), x, var)
    with pytest.raises(ValueError, match="var has negative entry"):
        F.gaussian_nll_loss(t(x), t(y), t(-var))
    with pytest.raises(ValueError, match="var is of incorrect size"):
        F.gaussian_nll_loss(t(x), t(y), t(var[:2]))


# --- margin and embedding losses -----------------------------------------------------------


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cosine_embedding_and_margin_ranking(reduction: str) -> None:
    a, b = randn(4, 3), randn(4, 3)
    y = np.array([1.0, -1.0, 1.0, -1.0])
    cos = (a * b).sum(1) / np.sqrt(((a * a).sum(1) + 1e-12) * ((b * b).sum(1) + 1e-12))
    ref = np.where(y == 1, 1 - cos, np.maximum(0, cos - 0.1))
    close(
        F.cosine_embedding_loss(t(a), t(b), t(y), margin=0.1, reduction=reduction),
        reduce(ref, reduction),
    )
    check_grad(lambda p, q: F.cosine_embedding_loss(p, q, t(y), reduction=reduction), a, b)
    x1, x2 = randn(4), randn(4)
    ref2 = np.maximum(0, -y * (x1 - x2) + 0.2)
    close(
        F.margin_ranking_loss(t(x1), t(x2), t(y), margin=0.2, reduction=reduction),
        reduce(ref2, reduction),
    )
    check_grad(lambda p, q: F.margin_ranking_loss(p, q, t(y), margin=0.2), x1, x2)
    with pytest.raises(
        RuntimeError, match="margin_ranking_loss : All input tensors should have same dimension"
    ):
        F.margin_ranking_loss(t(x1), t(x2[None]), t(y))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin(reduction: str, p: int) -> None:
    x = randn(4, 5)
    target = np.array([3, 0, 4, 1])
    w = RNG.random(5) + 0.5
    z = np.maximum(0, 0.7 - x[np.arange(4), target][:, None] + x) ** p * w[target][:, None]
    z[np.arange(4), target] = 0
    ref = z.sum(1) / 5
    close(
        F.multi_margin_loss(t(x), t(target), p=p, margin=0.7, weight=t(w), reduction=reduction),
        reduce(ref, reduction),
    )
    check_grad(
        lambda a: F.multi_margin_loss(
            a, t(target), p=p, margin=0.7, weight=t(w), reduction=reduction
        ),
        x,
    )
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        F.multi_margin_loss(t(x), t(target), p=3)


def np_multilabel_margin(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    out = np.zeros(x.shape[0])
    for n in range(x.shape[0]):
        targets = []
        for v in y[n]:
            if v < 0:
                break
            targets.append(v)
        for j in targets:
            for i in range(x.shape[1]):
                if i not in targets:
                    out[n] += max(0.0, 1 - (x[n, j] - x[n, i]))
    return out / x.shape[1]


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin(reduction: str) -> None:
    x = randn(3, 4)
    y = np.array([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 0, 1, 2]])
    close(
        F.multilabel_margin_loss(t(x), t(y), reduction=reduction),
        reduce(np_multilabel_margin(x, y), reduction),
    )
    check_grad(lambda a: F.multilabel_margin_loss(a, t(y), reduction=reduction), x)
    close(F.multilabel_margin_loss(t(x[0]), t(y[0])), np_multilabel_margin(x[:1], y[:1])[0])


def test_multilabel_soft_margin() -> None:
    x, y, w = randn(3, 4), (RNG.random((3, 4)) > 0.5) * 1.0, RNG.random(4)
    sig = 1 / (1 + np.exp(-x))
    ref = (-(y * np.log(sig) + (1 - y) * np.log(1 - sig)) * w).mean(1)
    close(F.multilabel_soft_margin_loss(t(x), t(y), weight=t(w), reduction="none"), ref)
    check_grad(lambda a: F.multilabel_soft_margin_loss(a, t(y)), x)


@pytest.mark.parametrize("swap", [False, True])
def test_triplet_losses(swap: bool) -> None:
    a, p, n = randn(4, 3), randn(4, 3), randn(4, 3)

    def d(u: np.ndarray, v: np.ndarray, order: float = 2.0) -> np.ndarray:
        return (np.abs(u - v + 1e-6) ** order).sum(1) ** (1 / order)

    dn = np.minimum(d(a, n), d(p, n)) if swap else d(a, n)
    ref = np.maximum(d(a, p) - dn + 1.5, 0)
    close(F.triplet_margin_loss(t(a), t(p), t(n), margin=1.5, swap=swap, reduction="none"), ref)
    check_grad(lambda u, v, w: F.triplet_margin_loss(u, v, w, margin=1.5, swap=swap), a, p, n)
    got = F.triplet_margin_with_distance_loss(
        t(a), t(p), t(n), margin=1.5, swap=swap, reduction="sum"
    )
    close(got, ref.sum(), rtol=1e-9)

    def cos_dist(u: Any, v: Any) -> Any:
        return 1.0 - F.cosine_similarity(u, v)

    check_grad(
        lambda u, v, w: F.triplet_margin_with_distance_loss(u, v, w, distance_function=cos_dist),
        a,
        p,
        n,
    )
    with pytest.raises(ValueError, match="margin must be greater than 0"):
        F.triplet_margin_with_distance_loss(t(a), t(p), t(n), margin=0.0)


def test_float32_cross_entropy_matches_float64() -> None:
    x = randn(64, 10, scale=5.0)
    target = RNG.integers(0, 10, 64)
    got = F.cross_entropy(t(x.astype(np.float32)), t(target))
    assert got.dtype == ember.float32
    np.testing.assert_allclose(
        float(got), float(np_ce(x, target, None, -100, "mean", 0.0)), rtol=1e-5
    )


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    x = randn(6, 4)
    target = np.array([0, 2, 3, 1, -100, 0])
    w = RNG.random(4) + 0.5
    ours = F.cross_entropy(t(x), t(target), weight=t(w), label_smoothing=0.3)
    theirs = torch.nn.functional.cross_entropy(
        torch.from_numpy(x),
        torch.from_numpy(target),
        weight=torch.from_numpy(w),
        label_smoothing=0.3,
    )
    close(ours, theirs.numpy())


# --- modules -----------------------------------------------------------------------------------


def test_loss_modules_match_functional() -> None:
    x, y = randn(4, 5), randn(4, 5)
    idx = np.array([0, 3, 1, 4])
    pm = np.sign(randn(4, 5))
    p = RNG.random((4, 5)) * 0.9 + 0.05
    w = RNG.random(5) + 0.5
    pairs: list[tuple[Any, Any]] = [
        (nn.L1Loss(reduction="sum")(t(x), t(y)), F.l1_loss(t(x), t(y), reduction="sum")),
        (nn.MSELoss()(t(x), t(y)), F.mse_loss(t(x), t(y))),
        (nn.SmoothL1Loss(beta=0.5)(t(x), t(y)), F.smooth_l1_loss(t(x), t(y), beta=0.5)),
        (nn.HuberLoss(delta=0.5)(t(x), t(y)), F.huber_loss(t(x), t(y), delta=0.5)),
        (
            nn.CrossEntropyLoss(weight=t(w), label_smoothing=0.1, ignore_index=3)(t(x), t(idx)),
            F.cross_entropy(t(x), t(idx), weight=t(w), label_smoothing=0.1, ignore_index=3),
        ),
        (nn.NLLLoss(weight=t(w))(t(x), t(idx)), F.nll_loss(t(x), t(idx), weight=t(w))),
        (nn.BCELoss(weight=t(w))(t(p), t(p)), F.binary_cross_entropy(t(p), t(p), weight=t(w))),
        (
            nn.BCEWithLogitsLoss(pos_weight=t(w))(t(x), t(p)),
            F.binary_cross_entropy_with_logits(t(x), t(p), pos_weight=t(w)),
        ),
        (
            nn.KLDivLoss(reduction="batchmean", log_target=True)(t(x), t(y)),
            F.kl_div(t(x), t(y), reduction="batchmean", log_target=True),
        ),
        (nn.PoissonNLLLoss(full=True)(t(x), t(p)), F.poisson_nll_loss(t(x), t(p), full=True)),
        (
            nn.GaussianNLLLoss(full=True)(t(x), t(y), t(p)),
            F.gaussian_nll_loss(t(x), t(y), t(p), full=True),
        ),
        (nn.HingeEmbeddingLoss(0.5)(t(x), t(pm)), F.hinge_embedding_loss(t(x), t(pm), 0.5)),
        (nn.SoftMarginLoss()(t(x), t(pm)), F.soft_margin_loss(t(x), t(pm))),
        (
            nn.MultiLabelSoftMarginLoss(weight=t(w))(t(x), t(p)),
            F.multilabel_soft_margin_loss(t(x), t(p), weight=t(w)),
        ),
        (
            nn.CosineEmbeddingLoss(0.2)(t(x), t(y), t(pm[:, 0])),
            F.cosine_embedding_loss(t(x), t(y), t(pm[:, 0]), 0.2),
        ),
        (
            nn.MarginRankingLoss(0.2)(t(x[:, 0]), t(y[:, 0]), t(pm[:, 0])),
            F.margin_ranking_loss(t(x[:, 0]), t(y[:, 0]), t(pm[:, 0]), 0.2),
        ),
        (nn.MultiMarginLoss(p=2)(t(x), t(idx)), F.multi_margin_loss(t(x), t(idx), p=2)),
        (
            nn.MultiLabelMarginLoss()(t(x), t(np.array([[1, -1, 0, 0, 0]] * 4))),
            F.multilabel_margin_loss(t(x), t(np.array([[1, -1, 0, 0, 0]] * 4))),
        ),
        (nn.TripletMarginLoss(p=1)(t(x), t(y), t(p)), F.triplet_margin_loss(t(x), t(y), t(p), p=1)),
        (
            nn.TripletMarginWithDistanceLoss(swap=True)(t(x), t(y), t(p)),
            F.triplet_margin_with_distance_loss(t(x), t(y), t(p), swap=True),
        ),
    ]
    for got, expected in pairs:
        close(got, expected.numpy())


def test_loss_module_state_and_legacy_arguments() -> None:
    w = t(np.ones(3))
    assert list(nn.CrossEntropyLoss(weight=w).state_dict()) == ["weight"]
    assert list(nn.CrossEntropyLoss().state_dict()) == []
    assert list(nn.BCEWithLogitsLoss(pos_weight=w).state_dict()) == ["pos_weight"]
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        m = nn.MSELoss(size_average=False)
    assert m.reduction == "sum"
    assert repr(nn.CrossEntropyLoss()) == "CrossEntropyLoss()"
    with pytest.raises(ValueError, match="expected margin to be greater than 0"):
        nn.TripletMarginLoss(margin=0.0)
    with pytest.raises(ValueError, match="only p == 1 and p == 2 supported"):
        nn.MultiMarginLoss(p=3)


def test_cross_entropy_module_trains_with_gradients() -> None:
    logits = t(randn(8, 3), requires_grad=True)
    target = t(RNG.integers(0, 3, 8))
    loss = nn.CrossEntropyLoss()(logits, target)
    loss.backward()
    sm = np.exp(np_log_softmax(logits.detach().numpy(), 1))
    onehot = np.eye(3)[target.numpy()]
    close(logits.grad, (sm - onehot) / 8)


@pytest.mark.parametrize("smoothing", [0.0, 0.3])
@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_fast_path_gradients(reduction: str, smoothing: float) -> None:
    # Every target valid, no weight: the closed-form backward (softmax - smoothed onehot).
    x = randn(5, 4)
    target = np.array([0, 3, 1, 1, 2])
    kw: dict[str, Any] = dict(reduction=reduction, label_smoothing=smoothing)
    close(
        F.cross_entropy(t(x), t(target), **kw), np_ce(x, target, None, -100, reduction, smoothing)
    )
    check_grad(lambda a: F.cross_entropy(a, t(target), **kw), x)
    xs, ts = randn(2, 3, 4), RNG.integers(0, 3, (2, 4))
    close(F.cross_entropy(t(xs), t(ts), **kw), np_ce(xs, ts, None, -100, reduction, smoothing))
    check_grad(lambda a: F.cross_entropy(a, t(ts), **kw), xs)
    inputs = (t(x, requires_grad=True),)
    assert gradgradcheck(lambda a: F.cross_entropy(a, t(target), **kw), inputs)


def np_ctc(lp: np.ndarray, target: list[int], blank: int = 0) -> float:
    """-log p(target | lp) by the CTC forward recursion in float64 (lp: [T, C])."""
    ext = [blank]
    for c in target:
        ext += [c, blank]
    steps, labels = lp.shape[0], len(ext)
    alpha = np.full(labels, -np.inf)
    alpha[0] = lp[0, blank]
    if labels > 1:
        alpha[1] = lp[0, ext[1]]
    for step in range(1, steps):
        new = np.full(labels, -np.inf)
        for s in range(labels):
            terms = [alpha[s]] + ([alpha[s - 1]] if s > 0 else [])
            if s > 1 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(alpha[s - 2])
            new[s] = np.logaddexp.reduce(terms) + lp[step, ext[s]]
        alpha = new
    tail = alpha[-1] if labels == 1 else np.logaddexp(alpha[-1], alpha[-2])
    return float(-tail)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_ctc_loss(reduction: str) -> None:
    x = randn(7, 3, 4)
    lp = np_log_softmax(x, 2)
    targets = np.array([[1, 2, 2], [3, 1, 0], [2, 0, 0]])
    in_len, tg_len = [7, 6, 5], [3, 2, 1]
    per = np.array([np_ctc(lp[: in_len[n], n], list(targets[n, : tg_len[n]])) for n in range(3)])
    expected = {"none": per, "sum": per.sum(), "mean": (per / np.array(tg_len)).mean()}[reduction]
    got = F.ctc_loss(t(lp), t(targets), in_len, tg_len, reduction=reduction)
    close(got, expected, rtol=1e-9)
    # concatenated 1-D targets and length tensors give the same
    flat = np.concatenate([targets[n, : tg_len[n]] for n in range(3)])
    got_flat = nn.CTCLoss(reduction=reduction)(
        t(lp), t(flat), t(np.array(in_len)), t(np.array(tg_len))
    )
    close(got_flat, expected, rtol=1e-9)
    check_grad(lambda a: F.ctc_loss(a, t(targets), in_len, tg_len, reduction=reduction), lp)


def test_ctc_impossible_and_zero_infinity() -> None:
    lp = np_log_softmax(randn(3, 2, 3), 2)
    targets = np.array([[1, 1], [1, 1]])
    out = F.ctc_loss(t(lp), t(targets), [3, 2], [2, 2], reduction="none").numpy()
    assert math.isfinite(out[0]) and math.isinf(out[1])  # "1 1" needs 3 steps (1, blank, 1)
    zeroed = F.ctc_loss(t(lp), t(targets), [3, 2], [2, 2], reduction="none", zero_infinity=True)
    assert zeroed.numpy()[1] == 0.0


def test_nllloss2d_is_a_deprecated_alias() -> None:
    with pytest.warns(FutureWarning, match="`NLLLoss2d` has been deprecated"):
        m = nn.NLLLoss2d()
    x, target = np_log_softmax(randn(2, 3, 2, 2), 1), RNG.integers(0, 3, (2, 2, 2))
    close(m(t(x), t(target)), np_nll(x, target, None, -100, "mean"))


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 4),
    c=st.integers(1, 5),
    spatial=st.lists(st.integers(1, 3), max_size=2),
    smoothing=st.sampled_from([0.0, 0.2]),
    ignore_some=st.booleans(),
    reduction=st.sampled_from(REDUCTIONS),
)
def test_cross_entropy_any_shape_matches_numpy(
    n: int, c: int, spatial: list[int], smoothing: float, ignore_some: bool, reduction: str
) -> None:
    rng = np.random.default_rng(n * 100 + c * 10 + len(spatial))
    x = rng.standard_normal((n, c, *spatial))
    target = rng.integers(0, c, (n, *spatial))
    if ignore_some:
        target.reshape(-1)[0] = -100
    got = F.cross_entropy(t(x), t(target), reduction=reduction, label_smoothing=smoothing)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = np_ce(x, target, None, -100, reduction, smoothing)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-12)


@given(reduction=st.text(max_size=8).filter(lambda s: s not in ("none", "mean", "sum")))
def test_bad_reduction_strings_raise(reduction: str) -> None:
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.l1_loss(t(randn(2)), t(randn(2)), reduction=reduction)
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.cross_entropy(t(randn(2, 3)), t(np.array([0, 1])), reduction=reduction)
