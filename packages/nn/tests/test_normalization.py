"""Normalization functions against numpy formulas in float64, gradcheck, running stats, errors."""

from __future__ import annotations

import numpy as np
import pytest
from layers_helpers import RNG, check_grad, close, randn, t

import ember
import ember.nn.functional as F


def np_bn(
    x: np.ndarray, w: np.ndarray | None, b: np.ndarray | None, eps: float = 1e-5
) -> np.ndarray:
    axes = (0, *tuple(range(2, x.ndim)))
    shape = [1, x.shape[1]] + [1] * (x.ndim - 2)
    y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (2, 3, 4, 4), (2, 3, 2, 2, 2)])
def test_batch_norm_training_and_running_stats(shape: tuple[int, ...]) -> None:
    x = randn(*shape, scale=2.0) + 1.5
    w, b = RNG.random(3) + 0.5, randn(3)
    rm, rv = t(np.zeros(3)), t(np.ones(3))
    close(F.batch_norm(t(x), rm, rv, t(w), t(b), training=True, momentum=0.2), np_bn(x, w, b))
    axes = (0, *tuple(range(2, x.ndim)))
    n = x.size // 3
    close(rm, 0.2 * x.mean(axes))
    close(rv, 0.8 + 0.2 * x.var(axes) * n / (n - 1))  # unbiased variance in the running average
    check_grad(lambda v, ww, bb: F.batch_norm(v, None, None, ww, bb, training=True), x, w, b)


def test_batch_norm_eval_uses_running_stats() -> None:
    x = randn(4, 3, 2)
    rm, rv, w = randn(3), RNG.random(3) + 0.5, randn(3)
    ref = (x - rm[:, None]) / np.sqrt(rv[:, None] + 1e-3) * w[:, None]
    close(F.batch_norm(t(x), t(rm), t(rv), t(w), None, training=False, eps=1e-3), ref)
    check_grad(lambda v, ww: F.batch_norm(v, t(rm), t(rv), ww, training=False), x, w)


def test_batch_norm_errors() -> None:
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        F.batch_norm(t(randn(1, 3)), None, None, training=True)
    with pytest.raises(RuntimeError, match="running_mean and running_var must be defined"):
        F.batch_norm(t(randn(2, 3)), None, None, training=False)
    with pytest.raises(RuntimeError, match=r"expected weight to have 3 elements.*got shape \[4\]"):
        F.batch_norm(t(randn(2, 3)), None, None, t(np.ones(4)), training=True)


@pytest.mark.parametrize("affine", [False, True])
def test_layer_norm(affine: bool) -> None:
    x = randn(3, 4, 5, scale=3.0)
    w, b = (randn(4, 5), randn(4, 5)) if affine else (None, None)
    m = x.mean((1, 2), keepdims=True)
    y = (x - m) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-5)
    if affine:
        y = y * w + b
    got = F.layer_norm(t(x), [4, 5], None if w is None else t(w), None if b is None else t(b))
    close(got, y)
    if affine:
        check_grad(lambda v, ww, bb: F.layer_norm(v, (4, 5), ww, bb), x, w, b)
        check_grad(lambda v, ww: F.layer_norm(v, 5, ww[0]), x, w)  # weight only, int shape
    else:
        check_grad(lambda v: F.layer_norm(v, [5]), x)
    with pytest.raises(
        RuntimeError,
        match=r"Given normalized_shape=\[4\], expected input with shape \[\*, 4\], but got "
        r"input of size\[3, 4, 5\]",
    ):
        F.layer_norm(t(x), [4])


def test_group_norm() -> None:
    x = randn(2, 6, 3, 2)
    w, b = RNG.random(6), randn(6)
    g = x.reshape(2, 3, -1)
    y = ((g - g.mean(2, keepdims=True)) / np.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    y = y * w[:, None, None] + b[:, None, None]
    close(F.group_norm(t(x), 3, t(w), t(b)), y)
    check_grad(lambda v, ww, bb: F.group_norm(v, 2, ww, bb), x, w, b)
    with pytest.raises(
        RuntimeError,
        match=r"divisible by num_groups, but got input of shape \[2, 6, 3, 2\] and num_groups=4",
    ):
        F.group_norm(t(x), 4)


def test_instance_norm_with_running_stats() -> None:
    x = randn(3, 2, 5) + 1.0
    w, b = RNG.random(2), randn(2)
    m, v = x.mean(2, keepdims=True), x.var(2, keepdims=True)
    ref = (x - m) / np.sqrt(v + 1e-5) * w[:, None] + b[:, None]
    rm, rv = t(np.zeros(2)), t(np.ones(2))
    close(F.instance_norm(t(x), rm, rv, t(w), t(b), momentum=0.1), ref)
    close(rm, 0.1 * m[..., 0].mean(0))
    close(rv, 0.9 + 0.1 * (v[..., 0] * 5 / 4).mean(0))
    check_grad(lambda a, ww, bb: F.instance_norm(a, weight=ww, bias=bb), x, w, b)
    # use_input_stats=False normalizes by the running statistics
    ref2 = (x - rm.numpy()[:, None]) / np.sqrt(rv.numpy()[:, None] + 1e-5)
    close(F.instance_norm(t(x), rm, rv, use_input_stats=False), ref2)
    with pytest.raises(ValueError, match="Expected more than 1 spatial element when training"):
        F.instance_norm(t(randn(2, 3, 1)))


def test_rms_norm() -> None:
    x = randn(3, 4, 5)
    w = randn(5)
    eps = np.finfo(np.float64).eps
    ref = x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w
    close(F.rms_norm(t(x), [5], t(w)), ref)
    close(F.rms_norm(t(x), [4, 5], eps=0.1), x / np.sqrt((x * x).mean((1, 2), keepdims=True) + 0.1))
    check_grad(lambda v, ww: F.rms_norm(v, [5], ww), x, w)
    x32 = (x * 1e-5).astype(np.float32)
    got = F.rms_norm(t(x32), [5]).numpy()
    eps32 = float(np.finfo(np.float32).eps)
    np.testing.assert_allclose(
        got, x32 / np.sqrt((x32 * x32).mean(-1, keepdims=True) + eps32), rtol=1e-5
    )


@pytest.mark.parametrize("size", [1, 2, 3, 5])
def test_local_response_norm(size: int) -> None:
    x = randn(2, 6, 3)
    sq = np.pad(x * x, ((0, 0), (size // 2, (size - 1) // 2), (0, 0)))
    window = np.stack([sq[:, c : c + size].sum(1) for c in range(6)], 1) / size
    ref = x / (2.0 + 0.3 * window) ** 0.6
    close(F.local_response_norm(t(x), size, alpha=0.3, beta=0.6, k=2.0), ref)
    check_grad(lambda v: F.local_response_norm(v, size, alpha=0.3, beta=0.6, k=2.0), x)
    with pytest.raises(
        ValueError, match=r"Expected 3D or higher dimensionality input \(got 2 dimensions\)"
    ):
        F.local_response_norm(t(randn(2, 3)), 2)


def test_float32_batch_norm_no_drift() -> None:
    x = (randn(32, 4, 8, 8) * 3 + 10).astype(np.float32)
    got = F.batch_norm(t(x), None, None, training=True).numpy()
    np.testing.assert_allclose(got, np_bn(x.astype(np.float64), None, None), atol=2e-4)
    assert F.batch_norm(t(x), None, None, training=True).dtype == ember.float32
