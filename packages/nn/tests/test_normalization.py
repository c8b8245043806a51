"""Normalization functions against numpy formulas in float64, gradcheck, running stats, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from layers_helpers import RNG, check_grad, close, randn, t

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradgradcheck


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


# --- modules -----------------------------------------------------------------------------------


def test_batchnorm_module_state_and_running_stats() -> None:
    m = nn.BatchNorm2d(3, momentum=0.3).double()
    assert list(m.state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    assert (
        repr(m) == "BatchNorm2d(3, eps=1e-05, momentum=0.3, affine=True, bias=True, "
        "track_running_stats=True)"
    )
    x = randn(4, 3, 2, 2) * 2 + 1
    close(m(t(x)), np_bn(x, np.ones(3), np.zeros(3)))
    assert int(m.num_batches_tracked) == 1
    n = x.size // 3
    close(m.running_mean, 0.3 * x.mean((0, 2, 3)))
    close(m.running_var, 0.7 + 0.3 * x.var((0, 2, 3)) * n / (n - 1))
    m.eval()
    rm, rv = m.running_mean.numpy(), m.running_var.numpy()
    ref = (x - rm[:, None, None]) / np.sqrt(rv[:, None, None] + 1e-5)
    close(m(t(x)), ref)
    assert int(m.num_batches_tracked) == 1  # eval does not count batches


def test_batchnorm_momentum_none_is_cumulative_average() -> None:
    m = nn.BatchNorm1d(2, momentum=None).double()
    batches = [randn(5, 2) + k for k in range(3)]
    for b in batches:
        m(t(b))
    close(m.running_mean, np.mean([b.mean(0) for b in batches], 0))
    close(m.running_var, np.mean([b.var(0, ddof=1) for b in batches], 0))
    assert int(m.num_batches_tracked) == 3


def test_batchnorm_without_running_stats_uses_batch_stats_in_eval() -> None:
    m = nn.BatchNorm1d(3, affine=False, track_running_stats=False).eval()
    assert list(m.state_dict()) == []
    x = randn(6, 3, 4)
    close(m(t(x)), np_bn(x, None, None))
    assert nn.BatchNorm1d(3, bias=False).bias is None
    assert next(iter(nn.BatchNorm1d(3, bias=False).state_dict())) == "weight"


def test_batchnorm_input_checks_and_gradients() -> None:
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        nn.BatchNorm2d(3)(t(randn(2, 3, 4)))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.BatchNorm1d(3)(t(randn(2, 3, 4, 4)))
    with pytest.raises(ValueError, match=r"expected 5D input"):
        nn.BatchNorm3d(3)(t(randn(2, 3, 4, 4)))
    m = nn.BatchNorm1d(3).double()
    x = t(randn(5, 3), requires_grad=True)
    m(x).sum().backward()
    close(m.bias.grad, np.full(3, 5.0))
    close(x.grad, np.zeros((5, 3)), atol=1e-9)  # the mean of a normalized batch has no slope


def test_batchnorm_load_state_dict_and_old_checkpoints() -> None:
    a = nn.BatchNorm1d(3)
    a(t(randn(4, 3).astype(np.float32)))
    b = nn.BatchNorm1d(3)
    b.load_state_dict(a.state_dict())
    close(b.running_mean, a.running_mean.numpy())
    old = {k: v for k, v in a.state_dict().items() if k != "num_batches_tracked"}
    c = nn.BatchNorm1d(3)
    result = c.load_state_dict(old)
    assert result.missing_keys == [] and result.unexpected_keys == []


def test_sync_batchnorm_is_batchnorm_on_one_process() -> None:
    net = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3, momentum=0.2))
    x = t(randn(6, 3).astype(np.float32))
    net[1](net[0](x))  # one training step of running statistics
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(net)
    assert type(converted[1]).__name__ == "SyncBatchNorm"
    sync = converted[1]
    assert sync.momentum == 0.2 and sync.running_mean is net[1].running_mean
    y = nn.SyncBatchNorm(3).double()(t(randn(4, 3, 2)))
    assert tuple(y.shape) == (4, 3, 2)
    assert list(nn.SyncBatchNorm(3).state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]


def test_instance_norm_modules() -> None:
    m = nn.InstanceNorm2d(3)
    assert list(m.state_dict()) == []
    assert (
        repr(m) == "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, "
        "track_running_stats=False)"
    )
    x = randn(2, 3, 4, 4)
    m2 = nn.InstanceNorm2d(3, affine=True, track_running_stats=True).double()
    assert list(m2.state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    ref = (x - x.mean((2, 3), keepdims=True)) / np.sqrt(x.var((2, 3), keepdims=True) + 1e-5)
    close(m2(t(x)), ref)
    close(nn.InstanceNorm2d(3).double()(t(x[0])), ref[0])  # unbatched (C, H, W)
    m2.eval()
    rm = m2.running_mean.numpy()
    assert not np.allclose(rm, 0)
    with pytest.warns(UserWarning, match="does not match num_features"):
        nn.InstanceNorm1d(4)(t(randn(2, 3, 5)))
    with pytest.raises(ValueError, match="to match num_features"):
        nn.InstanceNorm1d(4, affine=True)(t(randn(2, 3, 5)))
    with pytest.raises(ValueError, match=r"expected 2D or 3D input \(got 4D input\)"):
        nn.InstanceNorm1d(3)(t(randn(2, 3, 5, 1)))


def test_layer_group_rms_lrn_modules() -> None:
    x = randn(2, 4, 6)
    ln = nn.LayerNorm(6).double()
    assert repr(ln) == "LayerNorm((6,), eps=1e-05, elementwise_affine=True, bias=True)"
    assert list(ln.state_dict()) == ["weight", "bias"]
    close(ln(t(x)), F.layer_norm(t(x), [6]).numpy())
    assert list(nn.LayerNorm([4, 6], bias=False).state_dict()) == ["weight"]
    assert list(nn.LayerNorm(6, elementwise_affine=False).state_dict()) == []
    gn = nn.GroupNorm(2, 4).double()
    assert repr(gn) == "GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)"
    close(gn(t(x)), F.group_norm(t(x), 2).numpy())
    with pytest.raises(
        ValueError, match=r"num_channels \(4\) must be divisible by num_groups \(3\)"
    ):
        nn.GroupNorm(3, 4)
    rms = nn.RMSNorm([6]).double()
    assert repr(rms) == "RMSNorm((6,), eps=None, elementwise_affine=True)"
    close(rms(t(x)), F.rms_norm(t(x), [6]).numpy())
    lrn = nn.LocalResponseNorm(2)
    assert repr(lrn) == "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)"
    close(lrn(t(x)), F.local_response_norm(t(x), 2).numpy())
    check_grad(lambda v: nn.LayerNorm(6, elementwise_affine=False)(v), x)


def test_against_torch_batchnorm() -> None:
    torch = pytest.importorskip("torch")
    x = randn(4, 3, 5)
    ours = nn.BatchNorm1d(3, momentum=None).double()
    theirs = torch.nn.BatchNorm1d(3, momentum=None).double()
    for _ in range(2):
        ours(t(x))
        theirs(torch.from_numpy(x))
    close(ours.running_var, theirs.running_var.numpy())


def test_layer_norm_double_backward() -> None:
    x, w, b = randn(3, 4), randn(4), randn(4)
    inputs = tuple(t(a, requires_grad=True) for a in (x, w, b))
    assert gradgradcheck(lambda v, ww, bb: F.layer_norm(v, [4], ww, bb), inputs)


@pytest.mark.parametrize(
    ("lazy", "plain", "shape"),
    [
        (nn.LazyBatchNorm1d, nn.BatchNorm1d, (4, 3)),
        (nn.LazyBatchNorm2d, nn.BatchNorm2d, (2, 3, 2, 2)),
        (nn.LazyBatchNorm3d, nn.BatchNorm3d, (2, 3, 1, 2, 2)),
        (nn.LazyInstanceNorm1d, nn.InstanceNorm1d, (2, 3, 5)),
        (nn.LazyInstanceNorm2d, nn.InstanceNorm2d, (2, 3, 2, 2)),
        (nn.LazyInstanceNorm3d, nn.InstanceNorm3d, (1, 3, 2, 2, 2)),
    ],
)
def test_lazy_norms_infer_num_features(lazy: Any, plain: Any, shape: tuple[int, ...]) -> None:
    m = lazy()
    x = t(randn(*shape).astype(np.float32))
    y = m(x)
    assert type(m) is plain and m.num_features == 3
    close(
        y, plain(3, affine=True, track_running_stats=True)(x).detach().numpy(), rtol=1e-5, atol=1e-6
    )
    assert list(m.state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    # loading a checkpoint materializes the state from it, keeping the loaded statistics
    sd = plain(3, affine=True, track_running_stats=True).state_dict()
    sd["running_mean"].fill_(2.0)
    fresh = lazy()
    fresh.load_state_dict(sd)
    fresh.eval()
    fresh(x)
    close(fresh.running_mean, np.full(3, 2.0))
