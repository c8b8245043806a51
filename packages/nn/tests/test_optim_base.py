"""The Optimizer base class: param groups and their checks, hooks, zero_grad, state_dict layout
(torch's: parameter indices, 'step' as a float32 0-d tensor) and bitwise resume."""

from __future__ import annotations

import io
import warnings
from typing import Any

import numpy as np
import pytest

import ember
from ember import optim
from ember.optim.optimizer import (
    _deepcopy,
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
    required,
)


def leaves(n: int = 3, size: int = 4, dtype: Any = ember.float64) -> list[ember.Tensor]:
    rng = np.random.default_rng(0)
    return [
        ember.tensor(rng.standard_normal(size), dtype=dtype, requires_grad=True) for _ in range(n)
    ]


def set_grads(params: list[ember.Tensor], seed: int) -> None:
    rng = np.random.default_rng(seed)
    for p in params:
        p.grad = ember.tensor(rng.standard_normal(tuple(p.shape)), dtype=p.dtype)


class TestParamGroups:
    def test_groups_and_defaults(self) -> None:
        a, b, c = leaves()
        opt = optim.SGD([{"params": [a, b]}, {"params": c, "lr": 0.5}], lr=0.1, momentum=0.9)
        assert len(opt.param_groups) == 2
        assert opt.param_groups[0]["lr"] == 0.1 and opt.param_groups[1]["lr"] == 0.5
        assert opt.param_groups[1]["params"] == [c] or opt.param_groups[1]["params"][0] is c
        assert opt.param_groups[1]["momentum"] == 0.9
        assert opt.defaults["lr"] == 0.1

    def test_bad_params(self) -> None:
        a, b, _ = leaves()
        with pytest.raises(TypeError, match=r"iterable of Tensors or dicts, but got ember\.Tensor"):
            optim.SGD(a)
        with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
            optim.SGD([])
        with pytest.raises(TypeError, match="ordering of tensors in sets"):
            optim.SGD([{"params": {a}}])
        with pytest.raises(
            TypeError, match="optimizer can only optimize Tensors, but one of the params is int"
        ):
            optim.SGD([a, 3])  # type: ignore[list-item]
        with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
            optim.SGD([a * 2])
        with pytest.raises(
            ValueError, match="some parameters appear in more than one parameter group"
        ):
            optim.SGD([{"params": [a]}, {"params": [a, b]}])
        with pytest.raises(TypeError, match="param_group must be a dict"):
            optim.SGD([a]).add_param_group([b])  # type: ignore[arg-type]
        with pytest.warns(UserWarning, match="duplicate parameters"):
            optim.SGD([a, a])

    def test_named_params(self) -> None:
        a, b, c = leaves()
        opt = optim.Adam([("w", a), ("b", b)])
        assert opt.param_groups[0]["param_names"] == ["w", "b"]
        with pytest.raises(ValueError, match="Some param names are missing"):
            optim.Adam([("w", a), b])  # type: ignore[list-item]
        with pytest.raises(ValueError, match="cannot add param group without names"):
            opt.add_param_group({"params": [c]})
        assert opt.state_dict()["param_groups"][0]["param_names"] == ["w", "b"]

    def test_required_default(self) -> None:
        class Needs(optim.Optimizer):
            def __init__(self, params: Any) -> None:
                super().__init__(params, {"lr": required})

            def step(self, closure: Any = None) -> None:
                return None

        (a,) = leaves(1)
        with pytest.raises(
            ValueError, match="didn't specify a value of required optimization parameter lr"
        ):
            Needs([a])
        assert Needs([{"params": [a], "lr": 1.0}]).param_groups[0]["lr"] == 1.0

    @pytest.mark.parametrize(
        "ctor, msg",
        [
            (lambda p: optim.SGD(p, lr=-1), "Invalid learning rate: -1"),
            (lambda p: optim.SGD(p, momentum=-0.1), "Invalid momentum value: -0.1"),
            (lambda p: optim.SGD(p, nesterov=True), "Nesterov momentum requires a momentum"),
            (lambda p: optim.Adam(p, betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
            (lambda p: optim.Adam(p, eps=-1), "Invalid epsilon value: -1"),
            (lambda p: optim.Adam(p, weight_decay=-1), "Invalid weight_decay value: -1"),
            (lambda p: optim.RMSprop(p, alpha=-1), "Invalid alpha value: -1"),
            (lambda p: optim.Adagrad(p, lr_decay=-1), "Invalid lr_decay value: -1"),
            (lambda p: optim.Adadelta(p, rho=2), "Invalid rho value: 2"),
            (lambda p: optim.NAdam(p, momentum_decay=-1), "Invalid momentum_decay value: -1"),
            (lambda p: optim.Rprop(p, etas=(1.5, 1.2)), "Invalid eta values: 1.5, 1.2"),
            (lambda p: optim.SGD(p, lr=ember.tensor([0.1, 0.2])), "Tensor lr must be 1-element"),
        ],
    )
    def test_hyperparameter_checks(self, ctor: Any, msg: str) -> None:
        with pytest.raises(ValueError, match=msg):
            ctor(leaves(1))

    def test_unsupported_flags(self) -> None:
        with pytest.raises(NotImplementedError, match="differentiable=True"):
            optim.Adam(leaves(1), differentiable=True)
        with pytest.raises(NotImplementedError, match="capturable=True"):
            optim.Adam(leaves(1), capturable=True)
        with pytest.raises(NotImplementedError, match="no sparse tensors"):
            optim.SparseAdam(leaves(1))

    def test_tensor_lr(self) -> None:
        (a,) = leaves(1)
        start = a.detach().clone()
        opt = optim.SGD([a], lr=ember.tensor(0.5))
        a.grad = ember.ones(4, dtype=a.dtype)
        opt.step()
        np.testing.assert_allclose(a.detach().numpy(), start.numpy() - 0.5)


class TestHooksAndZeroGrad:
    def test_step_hooks(self) -> None:
        params = leaves()
        opt = optim.SGD(params, lr=0.1)
        calls: list[str] = []
        h1 = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append("pre"))
        h2 = opt.register_step_post_hook(lambda o, args, kwargs: calls.append("post"))
        g1 = register_optimizer_step_pre_hook(lambda o, args, kwargs: calls.append("gpre"))
        g2 = register_optimizer_step_post_hook(lambda o, args, kwargs: calls.append("gpost"))
        set_grads(params, 0)
        opt.step()
        assert calls == ["gpre", "pre", "post", "gpost"]
        for h in (h1, h2, g1, g2):
            h.remove()
        opt.step()
        assert len(calls) == 4

    def test_pre_hook_can_replace_args_and_bad_return_raises(self) -> None:
        params = leaves()
        opt = optim.SGD(params, lr=0.1)
        seen: list[Any] = []

        def closure() -> float:
            seen.append(1)
            return 1.0

        h = opt.register_step_pre_hook(lambda o, args, kwargs: (args, {"closure": closure}))
        set_grads(params, 0)
        assert opt.step() == 1.0 and seen == [1]
        h.remove()
        opt.register_step_pre_hook(lambda o, args, kwargs: 5)
        with pytest.raises(RuntimeError, match="must return None or a tuple"):
            opt.step()

    def test_state_dict_hooks(self) -> None:
        params = leaves()
        opt = optim.Adam(params)
        order: list[str] = []
        opt.register_state_dict_pre_hook(lambda o: order.append("pre"))
        opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
        opt.register_load_state_dict_pre_hook(lambda o, sd: order.append("lpre"))
        opt.register_load_state_dict_post_hook(lambda o: order.append("lpost"), prepend=True)
        sd = opt.state_dict()
        assert sd["extra"] == 1 and order == ["pre"]
        opt.load_state_dict(sd)
        assert order == ["pre", "lpre", "lpost"]

    def test_zero_grad(self) -> None:
        params = leaves()
        opt = optim.SGD(params, lr=0.1)
        set_grads(params, 0)
        opt.zero_grad(set_to_none=False)
        assert all(ember.equal(p.grad, ember.zeros_like(p)) for p in params)
        opt.zero_grad()
        assert all(p.grad is None for p in params)

    def test_closure_runs_with_grad_enabled(self) -> None:
        (a,) = leaves(1)
        opt = optim.SGD([a], lr=0.1)

        def closure() -> ember.Tensor:
            opt.zero_grad()
            loss = (a * a).sum()
            loss.backward()
            return loss

        loss = opt.step(closure)
        assert isinstance(loss, ember.Tensor) and a.grad is not None

    def test_repr(self) -> None:
        text = repr(optim.SGD(leaves(1), lr=0.1))
        assert text.startswith("SGD (\nParameter Group 0\n") and "    lr: 0.1\n" in text


ALL = [
    (optim.SGD, {"lr": 0.1, "momentum": 0.9}),
    (optim.Adam, {"lr": 0.01, "amsgrad": True}),
    (optim.AdamW, {"lr": 0.01}),
    (optim.RMSprop, {"lr": 0.01, "momentum": 0.9, "centered": True}),
    (optim.Adagrad, {"lr": 0.1}),
    (optim.Adadelta, {}),
    (optim.Adamax, {}),
    (optim.NAdam, {}),
    (optim.RAdam, {}),
    (optim.ASGD, {"t0": 3}),
    (optim.Rprop, {}),
]

STATE_KEYS = {
    "SGD": {"momentum_buffer"},
    "Adam": {"step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"},
    "AdamW": {"step", "exp_avg", "exp_avg_sq"},
    "RMSprop": {"step", "square_avg", "momentum_buffer", "grad_avg"},
    "Adagrad": {"step", "sum"},
    "Adadelta": {"step", "square_avg", "acc_delta"},
    "Adamax": {"step", "exp_avg", "exp_inf"},
    "NAdam": {"step", "mu_product", "exp_avg", "exp_avg_sq"},
    "RAdam": {"step", "exp_avg", "exp_avg_sq"},
    "ASGD": {"step", "eta", "mu", "ax"},
    "Rprop": {"step", "prev", "step_size"},
}


@pytest.mark.parametrize("opt_cls, kwargs", ALL, ids=[c.__name__ for c, _ in ALL])
def test_state_dict_layout(opt_cls: type, kwargs: dict[str, Any]) -> None:
    a, b, c = leaves()
    opt = opt_cls([{"params": [a, b]}, {"params": [c]}], **kwargs)
    set_grads([a, b, c], 0)
    opt.step()
    sd = opt.state_dict()
    assert set(sd) == {"state", "param_groups"}
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2]]
    assert set(sd["state"]) == {0, 1, 2}
    assert set(sd["state"][0]) == STATE_KEYS[opt_cls.__name__]
    if "step" in sd["state"][0]:
        step = sd["state"][0]["step"]
        assert isinstance(step, ember.Tensor) and step.dtype == ember.float32 and step.dim() == 0
        assert float(step) == 1.0
    for key in set(sd["param_groups"][0]) - {"params"}:
        assert sd["param_groups"][0][key] == opt.param_groups[0][key]


@pytest.mark.parametrize("opt_cls, kwargs", ALL, ids=[c.__name__ for c, _ in ALL])
@pytest.mark.parametrize("via_save", [False, True])
def test_resume_is_bitwise(opt_cls: type, kwargs: dict[str, Any], via_save: bool) -> None:
    # float32 as in torch's own resume tests: load_state_dict casts float state such as NAdam's
    # mu_product to the parameter's dtype (torch's policy), which float32 params leave unchanged.
    k, n = 4, 9
    ref = leaves(dtype=ember.float32)
    opt = opt_cls(ref, **kwargs)
    for i in range(n):
        set_grads(ref, i)
        opt.step()

    run = leaves(dtype=ember.float32)
    opt1 = opt_cls(run, **kwargs)
    for i in range(k):
        set_grads(run, i)
        opt1.step()
    if via_save:
        buf = io.BytesIO()
        ember.save({"params": [p.detach() for p in run], "opt": opt1.state_dict()}, buf)
        buf.seek(0)
        ckpt = ember.load(buf)
    else:
        ckpt = _deepcopy({"params": [p.detach() for p in run], "opt": opt1.state_dict()})
    resumed = [ember.tensor(p.numpy(), requires_grad=True) for p in ckpt["params"]]
    opt2 = opt_cls(resumed, **kwargs)
    opt2.load_state_dict(ckpt["opt"])
    for i in range(k, n):
        set_grads(resumed, i)
        opt2.step()
    for x, y in zip(ref, resumed, strict=True):
        assert ember.equal(x, y)


def test_load_state_dict_errors() -> None:
    a, b, c = leaves()
    sd = optim.SGD([a, b], lr=0.1).state_dict()
    with pytest.raises(ValueError, match="different number of parameter groups"):
        optim.SGD([{"params": [a]}, {"params": [b]}]).load_state_dict(sd)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        optim.SGD([a, b, c]).load_state_dict(sd)


def test_load_casts_state_to_param_dtype_but_keeps_step() -> None:
    a = ember.ones(3, requires_grad=True)
    opt = optim.Adam([a])
    a.grad = ember.ones(3)
    opt.step()
    sd = _deepcopy(opt.state_dict())
    b = ember.ones(3, dtype=ember.float64, requires_grad=True)
    opt2 = optim.Adam([b])
    opt2.load_state_dict(sd)
    assert opt2.state[b]["exp_avg"].dtype == ember.float64
    assert opt2.state[b]["step"].dtype == ember.float32


def test_scheduler_and_optimizer_warnings_free_loop() -> None:
    params = leaves()
    opt = optim.SGD(params, lr=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for i in range(3):
            set_grads(params, i)
            opt.step()
