"""The native fused steps (ember._C._fused_adam_, _fused_sgd_, _fused_rmsprop_, ...) against the
op-by-op reference path (foreach=False): same parameters and state, bit for bit, and their
argument checks."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from optim_test_helpers import gradient_sequence, initial_params, run_ember

import ember
from ember import optim

SHAPES = [(70000,), (33, 7), (1,), (0,)]  # one tensor spans several native blocks


def _compare(opt_cls: type, kwargs: dict[str, Any], dtype: Any) -> None:
    p0 = initial_params(SHAPES, seed=3)
    grads = gradient_sequence(SHAPES, 10, seed=4)
    fused, opt_f = run_ember(opt_cls, {**kwargs, "foreach": None}, p0, grads, dtype)
    ref, opt_r = run_ember(opt_cls, {**kwargs, "foreach": False}, p0, grads, dtype)
    for a, b in zip(fused, ref, strict=True):
        # Bitwise: the kernel repeats the reference's operations and FMA contractions.
        assert ember.equal(a, b), float((a - b).abs().max())
    for pa, pb in zip(fused, ref, strict=True):
        sa, sb = opt_f.state[pa], opt_r.state[pb]
        assert sa.keys() == sb.keys()
        for k in sa:
            assert ember.equal(sa[k], sb[k]), k


ADAM_CASES = [
    dict(zip(("weight_decay", "amsgrad", "maximize", "decoupled_weight_decay"), v, strict=True))
    for v in itertools.product([0, 0.1], [False, True], [False, True], [False, True])
]


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64])
@pytest.mark.parametrize("kwargs", ADAM_CASES)
def test_fused_adam_equals_reference(kwargs: dict[str, Any], dtype: Any) -> None:
    _compare(optim.Adam, {"lr": 0.01, **kwargs}, dtype)


SGD_CASES = [
    dict(momentum=m, dampening=d, weight_decay=w, nesterov=n, maximize=x)
    for m, d, w, n, x in itertools.product(
        [0, 0.9], [0, 0.2], [0, 0.1], [False, True], [False, True]
    )
    if not (n and (m == 0 or d != 0))
]


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64])
@pytest.mark.parametrize("kwargs", SGD_CASES)
def test_fused_sgd_equals_reference(kwargs: dict[str, Any], dtype: Any) -> None:
    _compare(optim.SGD, {"lr": 0.05, **kwargs}, dtype)


def _grid(**axes: list[Any]) -> list[dict[str, Any]]:
    return [dict(zip(axes, v, strict=True)) for v in itertools.product(*axes.values())]


# Every option of every other optimizer; ASGD's t0=4 starts averaging within the 10 steps, and
# RAdam's beta2=0.5 rectifies from its first steps (rho_t > 5) while 0.999 never does.
OTHER_CASES = [
    (optim.RMSprop, dict(lr=0.01, alpha=0.9, **c))
    for c in _grid(
        momentum=[0, 0.9], centered=[False, True], weight_decay=[0, 0.1], maximize=[False, True]
    )
]
OTHER_CASES += [
    (optim.Adagrad, dict(lr=0.1, **c))
    for c in _grid(
        lr_decay=[0, 0.01],
        weight_decay=[0, 0.1],
        initial_accumulator_value=[0, 0.5],
        maximize=[False, True],
    )
]
OTHER_CASES += [
    (optim.Adadelta, dict(lr=0.5, **c))
    for c in _grid(rho=[0.9, 0.5], weight_decay=[0, 0.1], maximize=[False, True])
]
OTHER_CASES += [
    (optim.Adamax, dict(lr=0.01, **c))
    for c in _grid(weight_decay=[0, 0.1], maximize=[False, True], betas=[(0.9, 0.999), (0.5, 0.9)])
]
OTHER_CASES += [
    (optim.NAdam, dict(lr=0.01, **c))
    for c in _grid(
        weight_decay=[0, 0.1],
        decoupled_weight_decay=[False, True],
        maximize=[False, True],
        momentum_decay=[4e-3, 0.1],
    )
]
OTHER_CASES += [
    (optim.RAdam, dict(lr=0.01, **c))
    for c in _grid(
        weight_decay=[0, 0.1],
        decoupled_weight_decay=[False, True],
        maximize=[False, True],
        betas=[(0.9, 0.999), (0.9, 0.5)],
    )
]
OTHER_CASES += [
    (optim.ASGD, dict(lr=0.05, **c))
    for c in _grid(lambd=[1e-4, 0.1], t0=[1e6, 4], weight_decay=[0, 0.1], maximize=[False, True])
]
OTHER_CASES += [
    (optim.Rprop, dict(**c))
    for c in _grid(
        lr=[0.01, 0.1],
        etas=[(0.5, 1.2), (0.3, 1.5)],
        step_sizes=[(1e-6, 50), (1e-3, 0.05)],
        maximize=[False, True],
    )
]


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64])
@pytest.mark.parametrize(
    "opt_cls, kwargs",
    OTHER_CASES,
    ids=[f"{c.__name__}-{i}" for i, (c, _) in enumerate(OTHER_CASES)],
)
def test_other_fused_steps_equal_reference(
    opt_cls: type, kwargs: dict[str, Any], dtype: Any
) -> None:
    _compare(opt_cls, kwargs, dtype)


def test_rprop_fused_handles_zero_and_sign_changes() -> None:
    # Gradients that vanish and flip sign exercise every branch of Rprop's step-size rule.
    p0 = [np.array([1.0, -2.0, 0.5, 0.0, 3.0])]
    seq = [[np.array(g)] for g in ([1.0, -1.0, 0.0, 2.0, 1.0], [-1.0, -1.0, 1.0, 0.0, 1.0])]
    seq += [[np.array([1.0, 0.0, -1.0, 2.0, -1.0])]] * 3
    a, _ = run_ember(optim.Rprop, {"lr": 0.1}, p0, seq, ember.float32)
    b, _ = run_ember(optim.Rprop, {"lr": 0.1, "foreach": False}, p0, seq, ember.float32)
    assert ember.equal(a[0], b[0])


def test_other_fused_steps_take_one_native_call(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = ember._C._fused_rmsprop_

    def spy(params: Any, *args: Any, **kwargs: Any) -> None:
        calls.append(len(params))
        real(params, *args, **kwargs)

    monkeypatch.setattr(ember._C, "_fused_rmsprop_", spy)
    ps = [ember.ones(3, requires_grad=True) for _ in range(5)]
    opt = optim.RMSprop(ps, lr=0.1, momentum=0.5, centered=True)
    for p in ps:
        p.grad = ember.ones(3)
    opt.step()
    assert calls == [5]


def test_adamw_fused_equals_reference() -> None:
    _compare(optim.AdamW, {"lr": 0.01, "weight_decay": 0.05, "amsgrad": True}, ember.float32)


def test_mixed_dtypes_are_grouped() -> None:
    a = ember.ones(4, requires_grad=True)
    b = ember.ones(4, dtype=ember.float64, requires_grad=True)
    opt = optim.Adam([a, b], lr=0.1)
    a.grad = ember.full((4,), 0.5)
    b.grad = ember.full((4,), 0.5, dtype=ember.float64)
    opt.step()
    # First Adam step moves every element by lr (the bias-corrected ratio m/sqrt(v) is 1).
    np.testing.assert_allclose(a.detach().numpy(), 0.9, rtol=1e-6)
    np.testing.assert_allclose(b.detach().numpy(), 0.9 + 0.1 * 1e-8 / 0.5, rtol=1e-12)
    assert float(opt.state[a]["step"]) == 1.0 and float(opt.state[b]["step"]) == 1.0


def test_non_contiguous_and_half_params_use_the_reference_path() -> None:
    base = ember.ones(4, 4)
    p = base[:, 0].clone().requires_grad_(True)
    h = ember.ones(3, dtype=ember.float16, requires_grad=True)
    opt = optim.SGD([p, h], lr=0.5, momentum=0.9)
    p.grad = ember.ones(4)
    h.grad = ember.ones(3, dtype=ember.float16)
    opt.step()
    assert ember.equal(h, ember.full((3,), 0.5, dtype=ember.float16))
    with pytest.raises(RuntimeError, match="fused=True"):
        o = optim.Adam([h], fused=True)
        o.step()


def test_fused_and_foreach_together_raise() -> None:
    with pytest.raises(RuntimeError, match="`fused` and `foreach` cannot be `True` together"):
        optim.Adam([ember.ones(2, requires_grad=True)], fused=True, foreach=True)


def test_native_argument_checks() -> None:
    p = [ember.ones(3)]
    g = [ember.ones(3)]
    step = [ember.tensor(0.0)]
    kw = dict(
        lr=0.1,
        beta1=0.9,
        beta2=0.999,
        weight_decay=0.0,
        eps=1e-8,
        amsgrad=False,
        maximize=False,
        decoupled=False,
    )
    with pytest.raises(ValueError, match=r"_fused_adam_.*exp_avgs"):
        ember._C._fused_adam_(p, g, [], [ember.zeros(3)], [], step, **kw)
    with pytest.raises(ValueError, match=r"_fused_adam_.*shape"):
        ember._C._fused_adam_(
            p, [ember.ones(4)], [ember.zeros(3)], [ember.zeros(3)], [], step, **kw
        )
    with pytest.raises(TypeError, match=r"_fused_adam_.*float32 and float64"):
        ember._C._fused_adam_([ember.ones(3, dtype=ember.int64)], g, g, g, [], step, **kw)
    with pytest.raises(TypeError, match=r"_fused_adam_.*dtype"):
        ember._C._fused_adam_(
            p,
            [ember.ones(3, dtype=ember.float64)],
            [ember.zeros(3)],
            [ember.zeros(3)],
            [],
            step,
            **kw,
        )
    with pytest.raises(ValueError, match=r"_fused_sgd_.*contiguous"):
        ember._C._fused_sgd_(
            [ember.ones(3, 2).t()],
            [ember.ones(2, 3)],
            [],
            [],
            lr=0.1,
            momentum=0.0,
            dampening=0.0,
            weight_decay=0.0,
            nesterov=False,
            maximize=False,
        )
    with pytest.raises(TypeError, match=r"_fused_sgd_.*list"):
        ember._C._fused_sgd_(
            ember.ones(3),
            g,
            [],
            [],
            lr=0.1,
            momentum=0.0,
            dampening=0.0,
            weight_decay=0.0,
            nesterov=False,
            maximize=False,
        )


def test_fused_step_bumps_versions() -> None:
    p = ember.ones(3)
    v0 = p._version
    ember._C._fused_sgd_(
        [p],
        [ember.ones(3)],
        [],
        [],
        lr=0.5,
        momentum=0.0,
        dampening=0.0,
        weight_decay=0.0,
        nesterov=False,
        maximize=False,
    )
    assert p._version > v0
    assert ember.equal(p, ember.full((3,), 0.5))


def test_other_native_argument_checks() -> None:
    p, g, step = [ember.ones(3)], [ember.ones(3)], [ember.tensor(0.0)]
    rms = dict(lr=0.1, alpha=0.9, eps=1e-8, weight_decay=0.0, centered=False, maximize=False)
    with pytest.raises(ValueError, match=r"_fused_rmsprop_.*momentum_buffers"):
        ember._C._fused_rmsprop_(p, g, [ember.zeros(3)], [], [], step, momentum=0.9, **rms)
    with pytest.raises(ValueError, match=r"_fused_adagrad_.*state_steps"):
        ember._C._fused_adagrad_(
            p,
            g,
            [ember.zeros(3)],
            [],
            lr=0.1,
            lr_decay=0.0,
            weight_decay=0.0,
            eps=1e-10,
            maximize=False,
        )
    with pytest.raises(TypeError, match=r"_fused_nadam_.*mu_products.*float32 or float64"):
        ember._C._fused_nadam_(
            p,
            g,
            [ember.zeros(3)],
            [ember.zeros(3)],
            [ember.tensor(1)],
            step,
            lr=0.1,
            beta1=0.9,
            beta2=0.999,
            eps=1e-8,
            weight_decay=0.0,
            momentum_decay=4e-3,
            decoupled=False,
            maximize=False,
        )
    with pytest.raises(ValueError, match=r"_fused_asgd_.*axs.*shape"):
        ember._C._fused_asgd_(
            p,
            g,
            [ember.zeros(2)],
            [ember.tensor(1.0)],
            [ember.tensor(0.1)],
            step,
            lr=0.1,
            lambd=1e-4,
            alpha=0.75,
            t0=1e6,
            weight_decay=0.0,
            maximize=False,
        )
    with pytest.raises(TypeError, match=r"_fused_rprop_.*prevs.*dtype"):
        ember._C._fused_rprop_(
            p,
            g,
            [ember.zeros(3, dtype=ember.float64)],
            [ember.zeros(3)],
            step,
            etaminus=0.5,
            etaplus=1.2,
            step_size_min=1e-6,
            step_size_max=50.0,
            maximize=False,
        )
    # A failed check leaves the step counters alone.
    assert float(step[0]) == 0.0
