"""Every optimizer's trajectory over 12 steps against a numpy reference of torch's documented
update rule, with every option combination (float64, so the comparison is tight)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from optim_test_helpers import (
    adadelta_ref,
    adagrad_ref,
    adam_ref,
    adamax_ref,
    adamw_ref,
    asgd_ref,
    gradient_sequence,
    initial_params,
    nadam_ref,
    radam_ref,
    rmsprop_ref,
    rprop_ref,
    run_ember,
    run_numpy,
    sgd_ref,
)

import ember
from ember import optim

SHAPES = [(3, 4), (5,), ()]
STEPS = 12


def grid(**axes: list[Any]) -> list[dict[str, Any]]:
    keys = list(axes)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*axes.values())]


def sgd_cases() -> list[dict[str, Any]]:
    cases = []
    for c in grid(
        momentum=[0, 0.9],
        dampening=[0, 0.3],
        weight_decay=[0, 0.1],
        nesterov=[False, True],
        maximize=[False, True],
        foreach=[None, False],
    ):
        if c["nesterov"] and (c["momentum"] == 0 or c["dampening"] != 0):
            continue
        cases.append(dict(lr=0.05, **c))
    return cases


CASES = [
    (optim.SGD, sgd_ref, sgd_cases()),
    (
        optim.Adam,
        adam_ref,
        [
            dict(lr=0.01, **c)
            for c in grid(
                weight_decay=[0, 0.1],
                amsgrad=[False, True],
                maximize=[False, True],
                decoupled_weight_decay=[False, True],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.AdamW,
        adamw_ref,
        [
            dict(lr=0.01, betas=(0.8, 0.99), **c)
            for c in grid(
                weight_decay=[0, 0.05],
                amsgrad=[False, True],
                maximize=[False, True],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.RMSprop,
        rmsprop_ref,
        [
            dict(lr=0.01, **c)
            for c in grid(
                momentum=[0, 0.9],
                centered=[False, True],
                weight_decay=[0, 0.1],
                maximize=[False, True],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.Adagrad,
        adagrad_ref,
        [
            dict(lr=0.1, **c)
            for c in grid(
                lr_decay=[0, 0.01],
                weight_decay=[0, 0.1],
                initial_accumulator_value=[0, 0.5],
                maximize=[False, True],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.Adadelta,
        adadelta_ref,
        [
            dict(**c)
            for c in grid(
                lr=[1.0, 0.5],
                rho=[0.9, 0.5],
                weight_decay=[0, 0.1],
                maximize=[False, True],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.Adamax,
        adamax_ref,
        [
            dict(lr=0.01, **c)
            for c in grid(
                weight_decay=[0, 0.1],
                maximize=[False, True],
                betas=[(0.9, 0.999), (0.5, 0.9)],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.NAdam,
        nadam_ref,
        [
            dict(lr=0.01, **c)
            for c in grid(
                weight_decay=[0, 0.1],
                decoupled_weight_decay=[False, True],
                maximize=[False, True],
                momentum_decay=[4e-3, 0.1],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.RAdam,
        radam_ref,
        [
            dict(lr=0.01, **c)
            for c in grid(
                weight_decay=[0, 0.1],
                decoupled_weight_decay=[False, True],
                maximize=[False, True],
                betas=[(0.9, 0.999), (0.9, 0.5)],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.ASGD,
        asgd_ref,
        [
            dict(lr=0.05, **c)
            for c in grid(
                lambd=[1e-4, 0.1],
                alpha=[0.75],
                t0=[1e6, 4],
                weight_decay=[0, 0.1],
                maximize=[False, True],
                foreach=[None, False],
            )
        ],
    ),
    (
        optim.Rprop,
        rprop_ref,
        [
            dict(**c)
            for c in grid(
                lr=[0.01, 0.1],
                etas=[(0.5, 1.2), (0.3, 1.5)],
                step_sizes=[(1e-6, 50), (1e-3, 0.05)],
                maximize=[False, True],
                foreach=[None, False],
            )
        ],
    ),
]

PARAMS = [
    pytest.param(cls, ref, kw, id=f"{cls.__name__}-{i}")
    for cls, ref, cases in CASES
    for i, kw in enumerate(cases)
]


@pytest.mark.parametrize("opt_cls, ref, kwargs", PARAMS)
def test_trajectory_matches_reference(opt_cls: type, ref: Any, kwargs: dict[str, Any]) -> None:
    p0 = initial_params(SHAPES)
    grads = gradient_sequence(SHAPES, STEPS)
    ours, _ = run_ember(opt_cls, kwargs, p0, grads)
    ref_kwargs = {k: v for k, v in kwargs.items() if k != "foreach"}
    expected = run_numpy(ref, ref_kwargs, p0, grads)
    for got, want in zip(ours, expected, strict=True):
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("opt_cls", [optim.SGD, optim.Adam, optim.RMSprop, optim.Rprop])
def test_float32_trajectory_close_to_float64_reference(opt_cls: type) -> None:
    kwargs: dict[str, Any] = {"lr": 0.01}
    if opt_cls is optim.SGD:
        kwargs["momentum"] = 0.9
    ref = {
        optim.SGD: sgd_ref,
        optim.Adam: adam_ref,
        optim.RMSprop: rmsprop_ref,
        optim.Rprop: rprop_ref,
    }[opt_cls]
    p0 = initial_params(SHAPES)
    grads = gradient_sequence(SHAPES, STEPS)
    ours, _ = run_ember(opt_cls, kwargs, p0, grads, dtype=ember.float32)
    expected = run_numpy(ref, kwargs, p0, grads)
    for got, want in zip(ours, expected, strict=True):
        assert got.dtype == ember.float32
        np.testing.assert_allclose(got.detach().numpy(), want, rtol=1e-4, atol=1e-5)


def test_params_without_grad_are_skipped() -> None:
    a = ember.ones(3, requires_grad=True)
    b = ember.ones(3, requires_grad=True)
    opt = optim.Adam([a, b], lr=0.1)
    a.grad = ember.ones(3)
    opt.step()
    assert ember.equal(b, ember.ones(3))
    assert b not in opt.state and a in opt.state
    assert not ember.equal(a, ember.ones(3))
