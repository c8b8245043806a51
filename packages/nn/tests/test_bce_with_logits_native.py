"""The one-pass native binary_cross_entropy_with_logits (forward and backward) against numpy in
float64, against ember's own composite path, gradcheck/gradgradcheck, and its bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.nn.functional as F
from ember.autograd import gradcheck, gradgradcheck
from ember_core import _C

REDUCTIONS = ["none", "mean", "sum"]


def np_bce_logits(x: Any, t: Any, w: Any = None, pw: Any = None) -> Any:
    lw = 1.0 if pw is None else 1.0 + (pw - 1.0) * t
    loss = (1.0 - t) * x + lw * (np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0.0))
    return loss if w is None else loss * w


def reduce(loss: Any, reduction: str) -> Any:
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


@settings(max_examples=25)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3),
    reduction=st.sampled_from(REDUCTIONS),
    with_weight=st.booleans(),
    with_pos_weight=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_values_match_numpy(
    shape: list[int], reduction: str, with_weight: bool, with_pos_weight: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 30  # large logits: the stable form must not overflow
    t = rng.uniform(0, 1, shape)
    w = rng.uniform(0.1, 2, shape[-1:]) if with_weight else None
    pw = rng.uniform(0.1, 3, shape[-1:]) if with_pos_weight else None
    got = _C._nn_binary_cross_entropy_with_logits(
        ember.from_numpy(x),
        ember.from_numpy(t),
        None if w is None else ember.from_numpy(w),
        None if pw is None else ember.from_numpy(pw),
        reduction,
    )
    np.testing.assert_allclose(got.numpy(), reduce(np_bce_logits(x, t, w, pw), reduction), 1e-12)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_gradients_of_input_and_target(reduction: str) -> None:
    x = ember.randn(4, 3, dtype=ember.float64, requires_grad=True)
    t = ember.rand(4, 3, dtype=ember.float64, requires_grad=True)
    w = ember.rand(3, dtype=ember.float64) + 0.5
    pw = ember.rand(4, 1, dtype=ember.float64) + 0.5

    def f(x: ember.Tensor, t: ember.Tensor) -> ember.Tensor:
        return F.binary_cross_entropy_with_logits(
            x, t, weight=w, pos_weight=pw, reduction=reduction
        )

    assert f(x, t).grad_fn is not None
    assert f(x, t).grad_fn.name() == "NnBinaryCrossEntropyWithLogitsBackward0"
    assert gradcheck(f, (x, t))
    assert gradgradcheck(f, (x, t))


def test_native_backward_equals_the_composite_gradient() -> None:
    x = ember.randn(64, 8, requires_grad=True)
    t = (ember.rand(64, 8) > 0.5).float()
    F.binary_cross_entropy_with_logits(x, t).backward()
    native = x.grad
    xs, ts = x.detach().double().numpy(), t.double().numpy()
    expected = (1 / (1 + np.exp(-xs)) - ts) / xs.size
    assert native is not None
    np.testing.assert_allclose(native.numpy(), expected, rtol=1e-5, atol=1e-9)


def test_fallbacks_keep_torch_behaviour() -> None:
    # float16 and a weight that requires grad take the composite path: same values, and the
    # weight gets its gradient.
    x = ember.randn(3, 2, dtype=ember.float64)
    t = ember.rand(3, 2, dtype=ember.float64)
    w = ember.rand(2, dtype=ember.float64, requires_grad=True)
    loss = F.binary_cross_entropy_with_logits(x, t, weight=w)
    loss.backward()
    assert w.grad is not None and w.grad.shape == (2,)
    half = F.binary_cross_entropy_with_logits(x.half(), t.half())
    assert half.dtype == ember.float16
    np.testing.assert_allclose(
        half.float().item(), np_bce_logits(x.numpy(), t.numpy()).mean(), rtol=1e-2
    )


def test_bad_input_names_the_op() -> None:
    x, t = ember.randn(3, 2), ember.rand(3, 2)
    with pytest.raises(ValueError, match="Target size"):
        _C._nn_binary_cross_entropy_with_logits(x, ember.rand(3))
    with pytest.raises(ValueError, match="max is not a valid value for reduction"):
        _C._nn_binary_cross_entropy_with_logits(x, t, None, None, "max")
    with pytest.raises(TypeError, match="float32 or float64"):
        _C._nn_binary_cross_entropy_with_logits(x.long(), t.long())
    with pytest.raises(TypeError, match="expected weight of dtype"):
        _C._nn_binary_cross_entropy_with_logits(x, t, ember.ones(2, dtype=ember.float64))
    with pytest.raises(RuntimeError, match="broadcast"):
        _C._nn_binary_cross_entropy_with_logits(x, t, ember.ones(4))
    with pytest.raises(RuntimeError, match="1-element grad_output"):
        _C._nn_binary_cross_entropy_with_logits_backward(ember.ones(2), x, t)
    with pytest.raises(ValueError, match="Target size"):
        F.binary_cross_entropy_with_logits(x, ember.rand(2, 3))


def test_empty_input_mean_is_nan_as_in_torch() -> None:
    got = F.binary_cross_entropy_with_logits(ember.zeros(0), ember.zeros(0))
    assert got.shape == () and bool(got.isnan())
    assert F.binary_cross_entropy_with_logits(ember.zeros(0), ember.zeros(0), reduction="sum") == 0
