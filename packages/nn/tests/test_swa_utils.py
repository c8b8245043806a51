"""swa_utils: AveragedModel (SWA running mean, EMA, custom avg functions, buffers), SWALR's
lr sequence, update_bn's protocol."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import ember
from ember import nn, optim
from ember.optim.swa_utils import (
    SWALR,
    AveragedModel,
    get_ema_avg_fn,
    get_ema_multi_avg_fn,
    get_swa_avg_fn,
    update_bn,
)


def snapshots(model: nn.Module, n: int, seed: int = 0) -> list[list[np.ndarray]]:
    """Sets model's parameters to n random states, returning each state's arrays."""
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(n):
        arrays = []
        with ember.no_grad():
            for p in model.parameters():
                a = rng.standard_normal(tuple(p.shape)).astype(np.float32)
                p.copy_(ember.tensor(a))
                arrays.append(a)
        states.append(arrays)
    return states


def run_average(model: nn.Module, avg: AveragedModel, n: int) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(0)
    states = []
    for _ in range(n):
        arrays = []
        with ember.no_grad():
            for p in model.parameters():
                a = rng.standard_normal(tuple(p.shape)).astype(np.float32)
                p.copy_(ember.tensor(a))
                arrays.append(a)
        states.append(arrays)
        avg.update_parameters(model)
    return states


def test_swa_is_the_running_mean() -> None:
    model = nn.Linear(3, 2)
    swa = AveragedModel(model)
    states = run_average(model, swa, 5)
    assert int(swa.n_averaged) == 5
    for i, p in enumerate(swa.module.parameters()):
        want = np.mean([s[i] for s in states], axis=0)
        np.testing.assert_allclose(p.detach().numpy(), want, rtol=1e-5, atol=1e-6)
    x = ember.ones(4, 3)
    np.testing.assert_allclose(swa(x).detach().numpy(), swa.module(x).detach().numpy())


@pytest.mark.parametrize("multi", [True, False])
def test_ema(multi: bool) -> None:
    decay = 0.8
    model = nn.Linear(2, 2)
    kw: dict[str, Any] = (
        {"multi_avg_fn": get_ema_multi_avg_fn(decay)}
        if multi
        else {"avg_fn": get_ema_avg_fn(decay)}
    )
    ema = AveragedModel(model, **kw)
    states = run_average(model, ema, 4)
    for i, p in enumerate(ema.module.parameters()):
        want = states[0][i].astype(np.float64)
        for s in states[1:]:
            want = decay * want + (1 - decay) * s[i]
        np.testing.assert_allclose(p.detach().numpy(), want, rtol=1e-5, atol=1e-6)


def test_custom_avg_fn_and_swa_avg_fn() -> None:
    model = nn.Linear(2, 1)
    swa = AveragedModel(model, avg_fn=get_swa_avg_fn())
    states = run_average(model, swa, 3)
    for i, p in enumerate(swa.module.parameters()):
        np.testing.assert_allclose(
            p.detach().numpy(), np.mean([s[i] for s in states], axis=0), rtol=1e-5, atol=1e-6
        )


def test_original_model_is_copied_not_shared() -> None:
    model = nn.Linear(2, 2)
    swa = AveragedModel(model)
    with ember.no_grad():
        model.weight.fill_(3.0)
    assert not ember.equal(swa.module.weight, model.weight)


def test_bad_arguments() -> None:
    with pytest.raises(AssertionError, match="Only one of avg_fn and multi_avg_fn"):
        AveragedModel(nn.Linear(1, 1), avg_fn=get_swa_avg_fn(), multi_avg_fn=get_ema_multi_avg_fn())
    with pytest.raises(ValueError, match=r"Invalid decay value 1\.5 provided"):
        get_ema_multi_avg_fn(1.5)
    with pytest.raises(ValueError, match=r"Invalid decay value -0\.1 provided"):
        get_ema_avg_fn(-0.1)


class RunningMean(nn.Module):
    """BatchNorm's running-statistics protocol: momentum None means a cumulative average."""

    def __init__(self) -> None:
        super().__init__()
        self.momentum: float | None = 0.1
        self.register_buffer("running_mean", ember.zeros(1))
        self.register_buffer("num_batches_tracked", ember.tensor(0))

    def reset_running_stats(self) -> None:
        self.running_mean.zero_()
        self.num_batches_tracked.zero_()

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        if self.training:
            self.num_batches_tracked += 1
            m = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
            self.running_mean.mul_(1 - m).add_(x.mean().reshape(1), alpha=m)
        return x


def test_update_bn_recomputes_cumulative_statistics() -> None:
    model = nn.Sequential(RunningMean())
    model.eval()
    batches = [ember.full((4,), float(v)) for v in (1.0, 2.0, 6.0)]
    update_bn([(b, 0) for b in batches], model)
    bn = model[0]
    assert float(bn.running_mean) == pytest.approx(3.0)
    assert bn.momentum == 0.1 and not model.training
    update_bn(batches, nn.Linear(1, 1))  # no BN: nothing happens


def test_use_buffers_averages_buffers() -> None:
    model = nn.Sequential(RunningMean())
    swa = AveragedModel(model, use_buffers=True)
    for v in (2.0, 4.0):
        model[0].running_mean.fill_(v)
        swa.update_parameters(model)
    assert float(swa.module[0].running_mean) == pytest.approx(3.0)
    plain = AveragedModel(model)
    model[0].running_mean.fill_(7.0)
    plain.update_parameters(model)
    assert float(plain.module[0].running_mean) == 7.0


@pytest.mark.parametrize("strategy", ["cos", "linear"])
def test_swalr_sequence(strategy: str) -> None:
    p = ember.zeros(2, requires_grad=True)
    opt = optim.SGD([p], lr=1.0)
    sched = SWALR(opt, swa_lr=0.1, anneal_epochs=4, anneal_strategy=strategy)
    got = []
    for _ in range(7):
        got.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    anneal = (lambda t: (1 - math.cos(math.pi * t)) / 2) if strategy == "cos" else (lambda t: t)
    want = [0.1 * anneal(min(1, e / 4)) + 1.0 * (1 - anneal(min(1, e / 4))) for e in range(7)]
    np.testing.assert_allclose(got, want, rtol=1e-10)
    sd = sched.state_dict()
    assert "anneal_func" not in sd and sd["_anneal_strategy"] == strategy


def test_swalr_checks() -> None:
    opt = optim.SGD([ember.zeros(1, requires_grad=True)], lr=1.0)
    with pytest.raises(ValueError, match="anneal_strategy must be one of 'cos' or 'linear'"):
        SWALR(opt, swa_lr=0.1, anneal_strategy="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0"):
        SWALR(opt, swa_lr=0.1, anneal_epochs=-1)
