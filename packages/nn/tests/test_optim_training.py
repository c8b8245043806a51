"""Optimizers on nn.Parameter / nn.Linear through autograd: a regression fits, the state is keyed
by the Parameter objects, and named_parameters() gives param_names (torch's behaviour)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import ember
from ember import nn, optim

CASES = [
    (optim.SGD, {"lr": 0.1, "momentum": 0.9}),
    (optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True, "foreach": False}),
    (optim.Adam, {"lr": 0.05}),
    (optim.AdamW, {"lr": 0.05, "weight_decay": 1e-4, "amsgrad": True}),
    (optim.RMSprop, {"lr": 0.01}),
    (optim.NAdam, {"lr": 0.05}),
    (optim.RAdam, {"lr": 0.05}),
    (optim.Adamax, {"lr": 0.05}),
    (optim.Adagrad, {"lr": 0.3}),
]


def data() -> tuple[ember.Tensor, ember.Tensor, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 3)).astype(np.float32)
    w = np.array([[1.5], [-2.0], [0.5]], dtype=np.float32)
    return ember.tensor(x), ember.tensor(x @ w + 0.25), w


@pytest.mark.parametrize(
    "opt_cls, kwargs", CASES, ids=[f"{c.__name__}-{i}" for i, (c, _) in enumerate(CASES)]
)
def test_linear_regression_fits(opt_cls: type, kwargs: dict[str, Any]) -> None:
    x, y, w = data()
    ember.manual_seed(0)  # the initial weights, independent of which tests ran before
    model = nn.Linear(3, 1)
    opt = opt_cls(model.parameters(), **kwargs)
    # 600 steps: RMSprop's steps shrink as its squared-gradient average lags (300 left 2 of 30
    # initialisations outside the tolerance).
    for _ in range(600):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    np.testing.assert_allclose(model.weight.detach().numpy(), w.T, atol=0.05)
    np.testing.assert_allclose(model.bias.detach().numpy(), [0.25], atol=0.05)
    assert all(isinstance(k, nn.Parameter) for k in opt.state)


def test_named_parameters_and_state_dict() -> None:
    model = nn.Linear(2, 2)
    opt = optim.Adam(model.named_parameters())
    assert opt.param_groups[0]["param_names"] == ["weight", "bias"]
    model(ember.ones(1, 2)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sd["param_groups"][0]["params"] == [0, 1]
    assert sd["state"][0]["exp_avg"].shape == model.weight.shape


def test_frozen_parameters_are_not_touched() -> None:
    model = nn.Linear(2, 1)
    model.bias.requires_grad_(False)
    bias = model.bias.detach().clone()
    opt = optim.SGD(model.parameters(), lr=0.5)
    model(ember.ones(4, 2)).sum().backward()
    opt.step()
    assert ember.equal(model.bias.detach(), bias)
