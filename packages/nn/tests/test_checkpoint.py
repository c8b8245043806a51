"""ember.utils.checkpoint: gradients equal the plain run, RNG replayed, sequential, errors."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.nn as nn
from ember.utils.checkpoint import CheckpointError, checkpoint, checkpoint_sequential


class NoisyBlock(nn.Module):
    """Linear -> tanh -> multiply by a random mask drawn inside forward (dropout-like)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 4, dtype=ember.float64)

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        mask = (ember.rand(*x.shape, dtype=ember.float64) > 0.3).to(ember.float64)
        return self.fc(x).tanh() * mask


def _grads(model: nn.Module, x: ember.Tensor, use_ckpt: bool, reentrant: bool) -> list[np.ndarray]:
    model.zero_grad()
    x = x.detach().requires_grad_(True)
    ember.manual_seed(123)
    y = checkpoint(model, x, use_reentrant=reentrant) if use_ckpt else model(x)
    (y * y).sum().backward()
    return [x.grad.numpy(), *[p.grad.numpy() for p in model.parameters()]]


@pytest.mark.parametrize("reentrant", [True, False])
def test_gradients_equal_plain_run_with_random_ops(reentrant: bool) -> None:
    model = NoisyBlock()
    x = ember.randn(3, 4, dtype=ember.float64)
    plain = _grads(model, x, False, reentrant)
    ckpt = _grads(model, x, True, reentrant)
    for a, b in zip(plain, ckpt, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_without_preserved_rng_the_recomputation_differs() -> None:
    model = NoisyBlock()
    x = ember.randn(64, 4, dtype=ember.float64, requires_grad=True)
    ember.manual_seed(1)
    ref = model(x)
    (ref * ref).sum().backward()
    expected = x.grad.clone()
    x.grad = None
    ember.manual_seed(1)
    y = checkpoint(model, x, use_reentrant=False, preserve_rng_state=False)
    (y * y).sum().backward()
    assert not np.allclose(x.grad.numpy(), expected.numpy())


def test_rng_state_after_backward_is_the_callers() -> None:
    model = NoisyBlock()
    x = ember.randn(2, 4, dtype=ember.float64, requires_grad=True)
    y = checkpoint(model, x, use_reentrant=False)
    state = ember.get_rng_state()
    y.sum().backward()
    np.testing.assert_array_equal(ember.get_rng_state().numpy(), state.numpy())


def test_non_reentrant_output_requires_grad_without_grad_inputs_and_kwargs() -> None:
    lin = nn.Linear(3, 2)

    def fn(x, *, scale):
        return lin(x) * scale

    x = ember.randn(4, 3)  # does not require grad
    y = checkpoint(fn, x, scale=2.0, use_reentrant=False)
    assert y.requires_grad
    y.sum().backward()
    np.testing.assert_allclose(
        lin.weight.grad.numpy(), 2 * np.tile(x.numpy().sum(0), (2, 1)), rtol=1e-5
    )
    with pytest.raises(ValueError, match="Unexpected keyword arguments: scale"):
        checkpoint(fn, x, scale=2.0, use_reentrant=True)
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        checkpoint(lin, x, use_reentrant=True)


def test_use_reentrant_must_be_explicit_warning_and_forward_values() -> None:
    lin = nn.Linear(3, 2)
    x = ember.randn(2, 3, requires_grad=True)
    with pytest.warns(UserWarning, match="use_reentrant parameter should be passed explicitly"):
        y = checkpoint(lin, x)
    np.testing.assert_array_equal(y.detach().numpy(), lin(x).detach().numpy())
    with pytest.raises(ValueError, match="only supported when use_reentrant=False"):
        checkpoint(lin, x, use_reentrant=True, debug=True)


def test_determinism_check_detects_changed_shapes() -> None:
    calls = {"n": 0}

    def flaky(x):
        calls["n"] += 1
        return x * 2 if calls["n"] == 1 else ember.cat([x, x]) * 2

    x = ember.ones(2, requires_grad=True)
    y = checkpoint(flaky, x, use_reentrant=False)
    with pytest.raises(CheckpointError, match="different metadata"):
        y.sum().backward()


def test_checkpoint_sequential_matches_plain() -> None:
    model = nn.Sequential(*[nn.Linear(3, 3, dtype=ember.float64) for _ in range(4)])
    x = ember.randn(2, 3, dtype=ember.float64, requires_grad=True)
    model(x).sum().backward()
    expected = [x.grad.clone(), *[p.grad.clone() for p in model.parameters()]]
    model.zero_grad()
    x.grad = None
    out = checkpoint_sequential(model, 2, x, use_reentrant=False)
    out.sum().backward()
    got = [x.grad, *[p.grad for p in model.parameters()]]
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-12)
