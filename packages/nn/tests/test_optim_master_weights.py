"""float32 master weights for bfloat16/float16 parameters (``master_weights=True`` on every
optimizer with a fused step): the master follows the float32 trajectory bit for bit, the
parameter is the master rounded, small updates accumulate, and checkpoints resume bitwise."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

import ember
from ember import optim

CASES = [
    (optim.Adam, {"lr": 1e-3}),
    (optim.Adam, {"lr": 1e-3, "amsgrad": True, "weight_decay": 0.1}),
    (optim.AdamW, {"lr": 1e-3}),
    (optim.SGD, {"lr": 1e-3, "momentum": 0.9, "nesterov": True}),
    (optim.SGD, {"lr": 1e-3}),
    (optim.RMSprop, {"lr": 1e-3, "momentum": 0.9, "centered": True}),
    (optim.RMSprop, {"lr": 1e-3}),
    (optim.Adagrad, {"lr": 1e-2, "lr_decay": 1e-3}),
    (optim.Adadelta, {"lr": 1.0, "weight_decay": 0.1}),
    (optim.Adamax, {"lr": 2e-3}),
    (optim.NAdam, {"lr": 2e-3, "decoupled_weight_decay": True, "weight_decay": 0.1}),
    (optim.RAdam, {"lr": 1e-3}),
    (optim.ASGD, {"lr": 1e-2, "t0": 3}),
    (optim.Rprop, {"lr": 1e-2}),
]


def _grads(n: int, shape: tuple[int, ...], seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(np.float32) for _ in range(n)]


@pytest.mark.parametrize("low", [ember.bfloat16, ember.float16])
@pytest.mark.parametrize("foreach", [None, False])
@pytest.mark.parametrize("opt_cls, kwargs", CASES)
def test_master_follows_the_float32_trajectory(
    opt_cls: type, kwargs: dict[str, Any], foreach: bool | None, low: Any
) -> None:
    rng = np.random.default_rng(0)
    start = ember.tensor(rng.standard_normal((70000,)).astype(np.float32)).to(dtype=low)
    p = start.clone().requires_grad_(True)
    ref = start.to(dtype=ember.float32).requires_grad_(True)
    opt = opt_cls([p], master_weights=True, foreach=foreach, **kwargs)
    opt_ref = opt_cls([ref], foreach=foreach, **kwargs)
    for g in _grads(10, (70000,), 1):
        grad = ember.tensor(g).to(dtype=low)
        p.grad = grad
        ref.grad = grad.to(dtype=ember.float32)  # the low-precision gradient, cast exactly
        opt.step()
        opt_ref.step()
    master = opt.state[p]["master_param"]
    assert master.dtype == ember.float32
    assert ember.equal(master, ref.detach())
    assert p.dtype == low and ember.equal(p.detach(), ref.detach().to(dtype=low))
    for key, value in opt.state[p].items():
        if key not in ("step", "master_param"):
            assert value.dtype == ember.float32, key
            assert ember.equal(value, opt_ref.state[ref][key]), key


def test_small_updates_accumulate_only_with_master_weights() -> None:
    # bfloat16 has 8 significant bits: 1 - 1e-3 rounds back to 1, so a plain step is lost.
    plain = ember.ones(4, dtype=ember.bfloat16, requires_grad=True)
    kept = ember.ones(4, dtype=ember.bfloat16, requires_grad=True)
    opt_plain = optim.SGD([plain], lr=1e-3)
    opt_kept = optim.SGD([kept], lr=1e-3, master_weights=True)
    for _ in range(20):
        plain.grad = ember.ones(4, dtype=ember.bfloat16)
        kept.grad = ember.ones(4, dtype=ember.bfloat16)
        opt_plain.step()
        opt_kept.step()
    assert ember.equal(plain.detach(), ember.ones(4, dtype=ember.bfloat16))
    master = opt_kept.state[kept]["master_param"]
    np.testing.assert_allclose(master.numpy(), 1 - 20e-3, rtol=1e-6)
    np.testing.assert_allclose(kept.detach().float().numpy(), 0.98, atol=4e-3)


def test_float32_params_are_untouched_by_the_flag() -> None:
    a = ember.ones(3, requires_grad=True)
    opt = optim.Adam([a], lr=0.1, master_weights=True)
    a.grad = ember.ones(3)
    opt.step()
    assert "master_param" not in opt.state[a]
    np.testing.assert_allclose(a.detach().numpy(), 0.9, rtol=1e-6)


@pytest.mark.parametrize("opt_cls, kwargs", [CASES[1], CASES[3], CASES[5], CASES[11], CASES[13]])
def test_resume_keeps_float32_state_and_is_bitwise(opt_cls: type, kwargs: dict[str, Any]) -> None:
    grads = _grads(8, (5, 3), 2)

    def fresh() -> ember.Tensor:
        return ember.linspace(-1, 1, 15).reshape(5, 3).to(dtype=ember.bfloat16).requires_grad_()

    ref = fresh()
    opt = opt_cls([ref], master_weights=True, **kwargs)
    for g in grads:
        ref.grad = ember.tensor(g).to(dtype=ember.bfloat16)
        opt.step()
    run = fresh()
    opt1 = opt_cls([run], master_weights=True, **kwargs)
    for g in grads[:3]:
        run.grad = ember.tensor(g).to(dtype=ember.bfloat16)
        opt1.step()
    buf = io.BytesIO()
    ember.save({"p": run.detach(), "opt": opt1.state_dict()}, buf)
    buf.seek(0)
    ckpt = ember.load(buf)
    resumed = ckpt["p"].clone().requires_grad_(True)
    opt2 = opt_cls([resumed], master_weights=True, **kwargs)
    opt2.load_state_dict(ckpt["opt"])
    assert opt2.state[resumed]["master_param"].dtype == ember.float32
    for g in grads[3:]:
        resumed.grad = ember.tensor(g).to(dtype=ember.bfloat16)
        opt2.step()
    assert ember.equal(resumed.detach(), ref.detach())
    assert ember.equal(opt2.state[resumed]["master_param"], opt.state[ref]["master_param"])


@pytest.mark.parametrize("opt_cls", sorted({c for c, _ in CASES}, key=lambda c: c.__name__))
def test_master_weights_must_be_a_bool(opt_cls: type) -> None:
    with pytest.raises(TypeError, match="master_weights must be a bool"):
        opt_cls([ember.ones(2, requires_grad=True)], master_weights="yes")
