"""Forward (pre-)hooks, full backward (pre-)hooks and global module hooks.

Gradient values in the backward-hook tests were checked against PyTorch 2.13 on the same model
and follow from the closed form: for y = x Wᵀ + b and L = sum(y * c), dL/dx = c W.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ember
import ember.nn as nn
from ember.nn.modules import module as module_mod


def _fixed_linear() -> nn.Linear:
    lin = nn.Linear(3, 2)
    with ember.no_grad():
        lin.weight.copy_(ember.arange(6.0).reshape(2, 3) / 10)
        lin.bias.fill_(0.5)
    return lin


def test_forward_pre_hook_replaces_args_and_kwargs() -> None:
    m = nn.Identity()
    h = m.register_forward_pre_hook(lambda mod, args: args[0] * 2)  # one value becomes (value,)
    assert m(ember.ones(1)).item() == 2.0
    h.remove()
    assert m(ember.ones(1)).item() == 1.0

    class Scale(nn.Module):
        def forward(self, x, *, factor=1.0):
            return x * factor

    s = Scale()
    s.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": 3.0}), with_kwargs=True)
    assert s(ember.ones(1), factor=2.0).item() == 3.0
    bad = Scale()
    bad.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
    with pytest.raises(RuntimeError, match="forward pre-hook must return None or a tuple"):
        bad(ember.ones(1))


def test_forward_hook_order_prepend_kwargs_and_replacement() -> None:
    m = nn.Identity()
    order: list[str] = []
    m.register_forward_hook(lambda mod, args, out: order.append("a"))
    m.register_forward_hook(lambda mod, args, out: order.append("b"), prepend=True)
    m.register_forward_hook(
        lambda mod, args, kwargs, out: order.append(f"kw:{sorted(kwargs)}"), with_kwargs=True
    )
    m.register_forward_hook(lambda mod, args, out: out + 10)
    assert m(ember.zeros(1)).item() == 10.0
    assert order == ["b", "a", "kw:[]"]
    pre_order: list[int] = []
    m.register_forward_pre_hook(lambda mod, args: pre_order.append(1))
    m.register_forward_pre_hook(lambda mod, args: pre_order.append(0), prepend=True)
    m(ember.zeros(1))
    assert pre_order == [0, 1]


def test_always_call_hook_runs_when_forward_raises() -> None:
    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    m = Boom()
    calls: list[str] = []
    m.register_forward_hook(lambda mod, args, out: calls.append("always"), always_call=True)
    m.register_forward_hook(lambda mod, args, out: calls.append("normal"))
    with pytest.raises(ValueError, match="boom"):
        m(ember.ones(1))
    assert calls == ["always"]


def test_hook_handle_is_a_context_manager() -> None:
    m = nn.Identity()
    with m.register_forward_hook(lambda mod, args, out: out * 0):
        assert m(ember.ones(1)).item() == 0.0
    assert m(ember.ones(1)).item() == 1.0
    assert len(m._forward_hooks) == 0


def test_full_backward_hooks_see_torch_gradients() -> None:
    lin = _fixed_linear()
    rec: list[tuple] = []
    lin.register_full_backward_pre_hook(lambda m, go: rec.append(("pre", go[0].tolist())))
    lin.register_full_backward_hook(
        lambda m, gi, go: rec.append(("full", gi[0].tolist(), go[0].tolist()))
    )
    x = ember.ones(1, 3, requires_grad=True)
    (lin(x) * ember.tensor([[2.0, 3.0]])).sum().backward()
    assert rec[0] == ("pre", [[2.0, 3.0]])
    assert rec[1][0] == "full" and rec[1][2] == [[2.0, 3.0]]
    expected = np.array([[2.0, 3.0]]) @ (np.arange(6.0).reshape(2, 3) / 10)  # [0.9, 1.4, 1.9]
    np.testing.assert_allclose(rec[1][1], expected, rtol=1e-6)
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)
    # The parameters' gradients are unaffected by the identity wrappers.
    np.testing.assert_allclose(lin.weight.grad.numpy(), [[2.0] * 3, [3.0] * 3])


def test_backward_hooks_replace_gradients() -> None:
    lin = _fixed_linear()
    lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0 + 7,))
    x = ember.ones(1, 3, requires_grad=True)
    lin(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[7.0, 7.0, 7.0]])

    lin2 = _fixed_linear()
    lin2.register_full_backward_pre_hook(lambda m, go: (go[0] * 0,))
    x2 = ember.ones(1, 3, requires_grad=True)
    lin2(x2).sum().backward()
    np.testing.assert_array_equal(x2.grad.numpy(), [[0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(lin2.weight.grad.numpy(), np.zeros((2, 3)))

    lin3 = _fixed_linear()
    lin3.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="invalid number of grad_input"):
        lin3(ember.ones(1, 3, requires_grad=True)).sum().backward()


def test_full_backward_hook_without_input_grad_warns_and_gets_none() -> None:
    lin = _fixed_linear()
    rec: list[tuple] = []
    lin.register_full_backward_hook(lambda m, gi, go: rec.append((gi, go[0].tolist())))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (lin(ember.ones(1, 3)) * 2).sum().backward()
    assert rec == [((None,), [[2.0, 2.0]])]
    assert any("no inputs require gradients" in str(w.message) for w in caught)


def test_full_and_legacy_backward_hooks_exclusive() -> None:
    lin = nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda m, gi, go: None)
    with pytest.raises(RuntimeError, match="Cannot use both regular backward hooks"):
        lin.register_backward_hook(lambda m, gi, go: None)


def test_backward_hooks_with_tuple_output_module() -> None:
    class Split(nn.Module):
        def forward(self, x):
            return x * 2, x * 3

    m = Split()
    seen: list[list[float]] = []
    m.register_full_backward_hook(lambda mod, gi, go: seen.append([g.sum().item() for g in go]))
    x = ember.ones(2, requires_grad=True)
    a, b = m(x)
    (a + b).sum().backward()
    assert seen == [[2.0, 2.0]]
    np.testing.assert_array_equal(x.grad.numpy(), [5.0, 5.0])


def test_global_hooks() -> None:
    calls: list[str] = []
    h1 = module_mod.register_module_forward_pre_hook(
        lambda m, a: calls.append("pre:" + type(m).__name__)
    )
    h2 = module_mod.register_module_forward_hook(
        lambda m, a, o: calls.append("post:" + type(m).__name__)
    )
    h3 = module_mod.register_module_full_backward_hook(
        lambda m, gi, go: calls.append("bw:" + type(m).__name__)
    )
    try:
        seq = nn.Sequential(nn.Identity())
        seq(ember.ones(1, requires_grad=True)).sum().backward()
    finally:
        h1.remove()
        h2.remove()
        h3.remove()
    assert calls[:4] == ["pre:Sequential", "pre:Identity", "post:Identity", "post:Sequential"]
    assert sorted(calls[4:]) == ["bw:Identity", "bw:Sequential"]
    calls.clear()
    nn.Identity()(ember.ones(1))
    assert calls == []
    from ember.nn.modules import _global_hooks

    _global_hooks._global_is_full_backward_hook = None


def test_registration_hooks() -> None:
    seen: list[tuple[str, str]] = []
    handles = [
        module_mod.register_module_parameter_registration_hook(
            lambda m, n, p: seen.append(("param", n))
        ),
        module_mod.register_module_module_registration_hook(
            lambda m, n, s: seen.append(("module", n))
        ),
        module_mod.register_module_buffer_registration_hook(
            lambda m, n, b: seen.append(("buffer", n))
        ),
    ]
    try:
        m = nn.Module()
        m.w = nn.Parameter(ember.ones(1))
        m.sub = nn.Identity()
        m.register_buffer("b", ember.ones(1))
    finally:
        for h in handles:
            h.remove()
    assert seen == [("param", "w"), ("module", "sub"), ("buffer", "b")]
