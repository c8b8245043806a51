"""lr schedulers: lr sequences against closed forms, torch's warnings, state_dict round trips,
ReduceLROnPlateau's modes, OneCycleLR/CyclicLR, the composite schedulers."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ember
from ember import optim
from ember.optim import lr_scheduler as sch

BASE = 0.1


def make_opt(lr: float = BASE, groups: int = 1, **kw: Any) -> optim.Optimizer:
    ps = [
        {"params": [ember.zeros(2, requires_grad=True)], "lr": lr * (i + 1)} for i in range(groups)
    ]
    return optim.SGD(ps, lr=lr, **kw)


def lrs(opt: optim.Optimizer, sched: Any, n: int, group: int = 0) -> list[float]:
    out = []
    for _ in range(n):
        out.append(opt.param_groups[group]["lr"])
        opt.step()
        sched.step()
    return out


CLOSED_FORMS: list[tuple[str, Callable[[Any], Any], Callable[[int], float]]] = [
    ("StepLR", lambda o: sch.StepLR(o, step_size=3, gamma=0.5), lambda e: BASE * 0.5 ** (e // 3)),
    (
        "MultiStepLR",
        lambda o: sch.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.1),
        lambda e: BASE * 0.1 ** sum(m <= e for m in [2, 5, 5, 9]),
    ),
    (
        "ConstantLR",
        lambda o: sch.ConstantLR(o, factor=0.25, total_iters=4),
        lambda e: BASE * (0.25 if e < 4 else 1.0),
    ),
    (
        "LinearLR",
        lambda o: sch.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=6),
        lambda e: BASE * (0.2 + 0.7 * min(e, 6) / 6),
    ),
    ("ExponentialLR", lambda o: sch.ExponentialLR(o, gamma=0.8), lambda e: BASE * 0.8**e),
    (
        "PolynomialLR",
        lambda o: sch.PolynomialLR(o, total_iters=7, power=2.0),
        lambda e: BASE * (1 - min(e, 7) / 7) ** 2,
    ),
    (
        "CosineAnnealingLR",
        lambda o: sch.CosineAnnealingLR(o, T_max=6, eta_min=0.01),
        lambda e: 0.01 + (BASE - 0.01) * (1 + math.cos(math.pi * e / 6)) / 2,
    ),
    ("LambdaLR", lambda o: sch.LambdaLR(o, lambda e: 1 / (e + 1)), lambda e: BASE / (e + 1)),
    ("MultiplicativeLR", lambda o: sch.MultiplicativeLR(o, lambda e: 0.9), lambda e: BASE * 0.9**e),
    (
        "CosineAnnealingWarmRestarts",
        lambda o: sch.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.0),
        lambda e: (
            BASE * (1 + math.cos(math.pi * _sgdr_tcur(e, 3, 2)[0] / _sgdr_tcur(e, 3, 2)[1])) / 2
        ),
    ),
]


def _sgdr_tcur(e: int, t0: int, mult: int) -> tuple[int, int]:
    t_i = t0
    while e >= t_i:
        e -= t_i
        t_i *= mult
    return e, t_i


@pytest.mark.parametrize("name, make, closed", CLOSED_FORMS, ids=[c[0] for c in CLOSED_FORMS])
def test_lr_sequence_matches_closed_form(name: str, make: Any, closed: Any) -> None:
    opt = make_opt()
    sched = make(opt)
    got = lrs(opt, sched, 25)
    np.testing.assert_allclose(got, [closed(e) for e in range(25)], rtol=1e-10, atol=1e-14)
    assert sched.get_last_lr() == [opt.param_groups[0]["lr"]]
    assert sched.last_epoch == 25


def test_cosine_continues_past_t_max() -> None:
    opt = make_opt()
    sched = sch.CosineAnnealingLR(opt, T_max=4)
    got = lrs(opt, sched, 13)
    want = [BASE * (1 + math.cos(math.pi * e / 4)) / 2 for e in range(13)]
    np.testing.assert_allclose(got, want, atol=1e-12)


def test_per_group_base_lrs() -> None:
    opt = make_opt(groups=2)
    sched = sch.StepLR(opt, step_size=2, gamma=0.5)
    lrs(opt, sched, 4)
    assert sched.base_lrs == [BASE, 2 * BASE]
    np.testing.assert_allclose(sched.get_last_lr(), [BASE * 0.25, 2 * BASE * 0.25])


def test_step_before_optimizer_step_warns() -> None:
    opt = make_opt()
    sched = sch.StepLR(opt, step_size=2)
    with pytest.warns(
        UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before `optimizer.step\(\)`"
    ):
        sched.step()


def test_no_warning_in_the_right_order() -> None:
    opt = make_opt()
    sched = sch.ExponentialLR(opt, gamma=0.9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()


def test_overridden_optimizer_step_warns() -> None:
    opt = make_opt()
    sched = sch.StepLR(opt, step_size=2)
    opt.step = lambda closure=None: None  # type: ignore[method-assign]
    with pytest.warns(UserWarning, match=r"Seems like `optimizer.step\(\)` has been overridden"):
        sched.step()


def test_epoch_argument_is_deprecated_and_uses_closed_form() -> None:
    opt = make_opt()
    sched = sch.StepLR(opt, step_size=3, gamma=0.5)
    opt.step()
    with pytest.warns(
        UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"
    ):
        sched.step(7)
    assert sched.last_epoch == 7
    assert opt.param_groups[0]["lr"] == pytest.approx(BASE * 0.25)


def test_get_lr_outside_step_warns() -> None:
    sched = sch.StepLR(make_opt(), step_size=3)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()


def test_state_dict_round_trip() -> None:
    opt = make_opt()
    sched = sch.MultiStepLR(opt, milestones=[3, 6], gamma=0.5)
    lrs(opt, sched, 4)
    sd = sched.state_dict()
    assert "optimizer" not in sd and sd["last_epoch"] == 4 and sd["base_lrs"] == [BASE]
    opt2 = make_opt()
    opt2.load_state_dict(opt.state_dict())
    sched2 = sch.MultiStepLR(opt2, milestones=[1], gamma=0.9)
    sched2.load_state_dict(sd)
    opt2.param_groups[0]["lr"] = opt.param_groups[0]["lr"]
    assert lrs(opt, sched, 5) == lrs(opt2, sched2, 5)


def test_lambda_state_dict_keeps_callable_objects_state() -> None:
    class Fn:
        def __init__(self) -> None:
            self.k = 2.0

        def __call__(self, e: int) -> float:
            return self.k

    opt = make_opt()
    sched = sch.LambdaLR(opt, [Fn()])
    sd = sched.state_dict()
    assert sd["lr_lambdas"] == [{"k": 2.0}]
    sd["lr_lambdas"] = [{"k": 3.0}]
    sched.load_state_dict(sd)
    assert sched.lr_lambdas[0].k == 3.0  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="Expected 1 lr_lambdas, but got 2"):
        sch.LambdaLR(opt, [Fn(), Fn()])


def test_resume_with_last_epoch_needs_initial_lr() -> None:
    with pytest.raises(
        KeyError, match="param 'initial_lr' is not specified in param_groups\\[0\\]"
    ):
        sch.StepLR(make_opt(), step_size=2, last_epoch=3)


def test_not_an_optimizer() -> None:
    with pytest.raises(TypeError, match="int is not an Optimizer"):
        sch.StepLR(3, step_size=2)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "ctor, msg",
    [
        (lambda o: sch.ConstantLR(o, factor=2), "Constant multiplicative factor"),
        (lambda o: sch.LinearLR(o, start_factor=0), "Starting multiplicative factor"),
        (lambda o: sch.LinearLR(o, end_factor=2), "Ending multiplicative factor"),
        (lambda o: sch.CosineAnnealingWarmRestarts(o, T_0=0), "Expected positive integer T_0"),
        (lambda o: sch.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0), "Expected integer T_mult"),
        (lambda o: sch.ReduceLROnPlateau(o, factor=1.0), "Factor should be < 1.0."),
        (lambda o: sch.ReduceLROnPlateau(o, mode="median"), "mode median is unknown!"),
        (lambda o: sch.ReduceLROnPlateau(o, threshold_mode="x"), "threshold mode x is unknown!"),
        (lambda o: sch.OneCycleLR(o, max_lr=1.0), "You must define either total_steps"),
        (
            lambda o: sch.OneCycleLR(o, max_lr=1.0, total_steps=0),
            "Expected positive integer total_steps",
        ),
        (
            lambda o: sch.OneCycleLR(o, max_lr=1.0, total_steps=5, anneal_strategy="x"),
            "anneal_strategy must be one of",
        ),
        (lambda o: sch.CyclicLR(o, 0.1, 1.0, mode="x"), "mode is invalid and scale_fn is None"),
        (
            lambda o: sch.OneCycleLR(o, max_lr=[1.0, 2.0], total_steps=5),
            "max_lr must have the same length",
        ),
    ],
)
def test_constructor_checks(ctor: Any, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        ctor(make_opt(momentum=0.9))


class TestReduceLROnPlateau:
    def test_min_rel(self) -> None:
        opt = make_opt()
        sched = sch.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2)
        seq = []
        for m in [1.0, 0.9, 0.9, 0.9, 0.9, 0.8, 0.8, 0.8, 0.8]:
            sched.step(m)
            seq.append(opt.param_groups[0]["lr"])
        # Improvements at epochs 1, 2 and 6; three bad epochs in a row (> patience) halve the lr.
        assert seq == pytest.approx([0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.025])

    def test_max_abs_cooldown_min_lr(self) -> None:
        opt = make_opt()
        sched = sch.ReduceLROnPlateau(
            opt,
            mode="max",
            factor=0.1,
            patience=0,
            threshold=0.5,
            threshold_mode="abs",
            cooldown=1,
            min_lr=0.002,
        )
        seq = []
        for m in [1.0, 1.2, 1.3, 2.0, 2.1, 2.2, 2.3]:
            sched.step(m)
            seq.append(opt.param_groups[0]["lr"])
        # 1.2 and 1.3 do not beat 1.0 + 0.5: reduce, cooldown one epoch, reduce again (to min_lr).
        assert seq == pytest.approx([0.1, 0.01, 0.01, 0.01, 0.002, 0.002, 0.002])
        assert sched.get_last_lr() == [pytest.approx(0.002)]

    def test_rel_max_and_state_dict(self) -> None:
        opt = make_opt()
        sched = sch.ReduceLROnPlateau(opt, mode="max", threshold=0.1, patience=0)
        sched.step(1.0)
        sched.step(1.05)  # not 10% better
        assert opt.param_groups[0]["lr"] == pytest.approx(0.01)
        sd = sched.state_dict()
        other = sch.ReduceLROnPlateau(make_opt())
        other.load_state_dict(sd)
        assert other.mode == "max" and other.best == 1.0 and other.num_bad_epochs == 0

    def test_min_lr_list_length(self) -> None:
        with pytest.raises(ValueError, match="expected 1 min_lrs, got 2"):
            sch.ReduceLROnPlateau(make_opt(), min_lr=[0.1, 0.2])


def test_one_cycle_closed_form() -> None:
    opt = make_opt(momentum=0.9)
    total, max_lr, pct = 20, 1.0, 0.25
    sched = sch.OneCycleLR(opt, max_lr=max_lr, total_steps=total, pct_start=pct)
    init, low = max_lr / 25, max_lr / 25 / 1e4
    up_end = pct * total - 1

    def cos(a: float, b: float, t: float) -> float:
        return b + (a - b) / 2 * (math.cos(math.pi * t) + 1)

    want, want_m = [], []
    for s in range(total):
        if s <= up_end:
            want.append(cos(init, max_lr, s / up_end))
            want_m.append(cos(0.95, 0.85, s / up_end))
        else:
            t = (s - up_end) / (total - 1 - up_end)
            want.append(cos(max_lr, low, t))
            want_m.append(cos(0.85, 0.95, t))
    got, got_m = [], []
    for _ in range(total):
        got.append(opt.param_groups[0]["lr"])
        got_m.append(opt.param_groups[0]["momentum"])
        opt.step()
        sched.step()
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(got_m, want_m, rtol=1e-12)
    with pytest.raises(ValueError, match="Tried to step 21 times"):
        sched.step()


def test_one_cycle_three_phase_linear_and_betas() -> None:
    opt = optim.Adam([ember.zeros(2, requires_grad=True)])
    sched = sch.OneCycleLR(
        opt,
        max_lr=0.5,
        epochs=2,
        steps_per_epoch=5,
        pct_start=0.3,
        anneal_strategy="linear",
        three_phase=True,
    )
    got = []
    for _ in range(10):
        got.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    init = 0.5 / 25
    # Phases end at steps 2, 4 and 9: up to max_lr, back to initial, down to min_lr.
    np.testing.assert_allclose(got[:5], [init, (init + 0.5) / 2, 0.5, (init + 0.5) / 2, init])
    assert got[9] == pytest.approx(init / 1e4)
    assert opt.param_groups[0]["betas"][0] == pytest.approx(0.95)


@pytest.mark.parametrize("mode", ["triangular", "triangular2", "exp_range"])
def test_cyclic_lr(mode: str) -> None:
    opt = make_opt(momentum=0.9)
    sched = sch.CyclicLR(
        opt, base_lr=0.1, max_lr=1.0, step_size_up=4, step_size_down=2, mode=mode, gamma=0.9
    )
    got, mom = [], []
    for _ in range(18):
        got.append(opt.param_groups[0]["lr"])
        mom.append(opt.param_groups[0]["momentum"])
        opt.step()
        sched.step()
    want, want_m = [], []
    for it in range(18):
        cycle = it // 6 + 1
        x = it % 6
        frac = x / 4 if x <= 4 else (6 - x) / 2
        scale = {"triangular": 1.0, "triangular2": 1 / 2 ** (cycle - 1), "exp_range": 0.9**it}[mode]
        want.append(0.1 + 0.9 * frac * scale)
        want_m.append(0.9 - 0.1 * frac * scale)
    np.testing.assert_allclose(got, want, rtol=1e-10)
    np.testing.assert_allclose(mom, want_m, rtol=1e-10)


def test_cyclic_needs_momentum() -> None:
    opt = optim.Adagrad([ember.zeros(2, requires_grad=True)])
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        sch.CyclicLR(opt, 0.1, 1.0)
    sch.CyclicLR(opt, 0.1, 1.0, cycle_momentum=False)


def test_sequential_lr() -> None:
    opt = make_opt()
    warm = sch.LinearLR(opt, start_factor=0.1, total_iters=3)
    decay = sch.ExponentialLR(opt, gamma=0.5)
    sched = sch.SequentialLR(opt, [warm, decay], milestones=[3])
    got = lrs(opt, sched, 7)
    want = [BASE * (0.1 + 0.9 * e / 3) for e in range(3)] + [BASE * 0.5**e for e in range(4)]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    sd = sched.state_dict()
    assert len(sd["_schedulers"]) == 2 and sd["_schedulers"][1]["gamma"] == 0.5
    with pytest.raises(ValueError, match="expects number of schedulers provided to be one more"):
        sch.SequentialLR(opt, [warm, decay], milestones=[])
    with pytest.raises(ValueError, match="does not support `ReduceLROnPlateau`"):
        sch.SequentialLR(opt, [warm, sch.ReduceLROnPlateau(opt)], milestones=[2])


def test_chained_scheduler() -> None:
    opt = make_opt()
    a = sch.ConstantLR(opt, factor=0.5, total_iters=2)
    b = sch.ExponentialLR(opt, gamma=0.9)
    sched = sch.ChainedScheduler([a, b])
    got = lrs(opt, sched, 5)
    want = [BASE * (0.5 if e < 2 else 1.0) * 0.9**e for e in range(5)]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    other = make_opt()
    with pytest.raises(ValueError, match="expects all schedulers to belong to the same optimizer"):
        sch.ChainedScheduler([a, sch.ExponentialLR(other, gamma=0.9)])


def test_tensor_lr_is_filled_in_place() -> None:
    lr = ember.tensor(0.1)
    opt = optim.SGD([ember.zeros(2, requires_grad=True)], lr=lr)
    sched = sch.StepLR(opt, step_size=1, gamma=0.5)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr
    assert float(lr) == pytest.approx(0.05)
    last = sched.get_last_lr()[0]
    assert isinstance(last, ember.Tensor) and last is not lr


def test_matches_torch_sequences() -> None:
    torch = pytest.importorskip("torch")
    cases = [
        ("CosineAnnealingWarmRestarts", dict(T_0=3, T_mult=2, eta_min=0.01)),
        ("OneCycleLR", dict(max_lr=1.0, total_steps=30)),
        ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2")),
        ("PolynomialLR", dict(total_iters=5, power=0.5)),
        ("LinearLR", dict(start_factor=0.3, total_iters=4)),
    ]
    for name, kw in cases:
        tp = torch.zeros(2, requires_grad=True)
        topt = torch.optim.SGD([tp], lr=BASE, momentum=0.9)
        tsched = getattr(torch.optim.lr_scheduler, name)(topt, **kw)
        eopt = make_opt(momentum=0.9)
        esched = getattr(sch, name)(eopt, **kw)
        want = lrs(topt, tsched, 30)  # type: ignore[arg-type]
        got = lrs(eopt, esched, 30)
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=name)
