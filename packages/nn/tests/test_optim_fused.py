"""The native fused steps (ember._C._fused_adam_/_fused_sgd_) against the op-by-op reference
path (foreach=False): same parameters and state, bit for bit, and their argument checks."""

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
