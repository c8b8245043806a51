"""The native dropout (``_C._nn_dropout`` / ``_nn_dropout_backward``) behind F.dropout.

Oracles: the keep bits are bernoulli_(1 - p)'s draws from the same seed (so the native path
drops exactly the elements the composite path dropped), values against numpy, gradients by
gradcheck with a fixed seed, torch's NaN semantics for dropped elements.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
import ember.nn.functional as F
from ember.autograd import gradcheck, gradgradcheck
from ember_core import _C

FLOATS = [ember.float32, ember.float64, ember.bfloat16, ember.float16]


def _bits(mask: ember.Tensor, n: int) -> np.ndarray:
    return np.unpackbits(mask.numpy(), bitorder="little")[:n].astype(bool)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("p", [0.0, 0.2, 0.5, 0.9])
def test_mask_is_bernoullis_draw_and_values_scale(dtype: ember.dtype, p: float) -> None:
    x = ember.randn(37, 11).to(dtype)
    ember.manual_seed(3)
    out, mask = _C._nn_dropout(x, p)
    ember.manual_seed(3)
    keep = ember.empty(x.shape).bernoulli_(1.0 - p).numpy().astype(bool)
    bits = _bits(mask, x.numel()).reshape(x.shape)
    np.testing.assert_array_equal(bits, keep)
    assert mask.dtype == ember.uint8 and tuple(mask.shape) == ((x.numel() + 7) // 8,)
    tail = np.unpackbits(mask.numpy(), bitorder="little")[x.numel() :]
    assert not tail.any()  # the padding bits of the last byte are 0
    scale = ember.tensor(1.0 / (1.0 - p)).to(dtype).double().item()
    want = np.where(keep, x.double().numpy() * scale, 0.0)
    rtol = 1e-2 if dtype.itemsize == 2 else 1e-6
    np.testing.assert_allclose(out.double().numpy(), want, rtol=rtol)
    assert out.dtype == dtype


def test_functional_matches_the_composite_path() -> None:
    x = ember.randn(64, 33)
    ember.manual_seed(7)
    native = F.dropout(x, 0.3)
    ember.manual_seed(7)
    composite = x * ember.empty(x.shape).bernoulli_(0.7).mul_(1.0 / 0.7)
    np.testing.assert_array_equal(native.numpy(), composite.numpy())
    assert native.grad_fn is None  # nothing requires grad


def test_strided_input_drops_the_same_elements_as_its_contiguous_copy() -> None:
    x = ember.randn(20, 30).t()
    ember.manual_seed(1)
    a = F.dropout(x, 0.5)
    ember.manual_seed(1)
    b = F.dropout(x.contiguous(), 0.5)
    np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_dropped_nan_and_inf_give_nan_as_in_torch() -> None:
    x = ember.tensor([float("nan"), float("inf")] * 32)
    ember.manual_seed(0)
    out, mask = _C._nn_dropout(x, 0.5)
    keep = _bits(mask, x.numel())
    values = out.numpy()
    assert np.isnan(values[~keep]).all()
    assert (np.isinf(values[keep]) | np.isnan(values[keep])).all()


def test_backward_uses_the_forward_mask() -> None:
    x = ember.randn(500, requires_grad=True)
    y = F.dropout(x, 0.4)
    (y * ember.arange(500.0)).sum().backward()
    kept = y.detach().numpy() != 0
    assert x.grad is not None
    want = np.where(kept, np.arange(500.0) / 0.6, 0.0)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6)


def _seeded_dropout(x: ember.Tensor) -> ember.Tensor:
    ember.manual_seed(11)  # gradcheck evaluates many times: the same mask each time
    return F.dropout(x, 0.35)


def test_gradcheck_and_gradgradcheck() -> None:
    x = ember.randn(6, 5, dtype=ember.float64, requires_grad=True)
    assert gradcheck(_seeded_dropout, (x,))
    assert gradgradcheck(_seeded_dropout, (x,))


def test_bad_arguments_raise_typed_errors() -> None:
    with pytest.raises(RuntimeError, match=r"nn_dropout\] dropout probability must be in \[0, 1\)"):
        _C._nn_dropout(ember.ones(3), 1.0)
    with pytest.raises(NotImplementedError, match="nn_dropout"):
        _C._nn_dropout(ember.ones(3, dtype=ember.int64), 0.5)
    with pytest.raises(RuntimeError, match="expected a uint8 mask of 1 bytes"):
        _C._nn_dropout_backward(ember.ones(3), ember.zeros(2, dtype=ember.uint8), 0.5)
    with pytest.raises(TypeError, match="nn_dropout"):
        _C._nn_dropout("x", 0.5)  # type: ignore[arg-type]


@given(
    shape=st.lists(st.integers(0, 9), min_size=0, max_size=3),
    p=st.floats(0.0, 0.99),
    seed=st.integers(0, 2**32),
)
def test_any_shape_keeps_about_one_minus_p_and_is_reproducible(
    shape: list[int], p: float, seed: int
) -> None:
    x = ember.ones(shape)
    ember.manual_seed(seed)
    a, mask_a = _C._nn_dropout(x, p)
    ember.manual_seed(seed)
    b, mask_b = _C._nn_dropout(x, p)
    assert tuple(a.shape) == tuple(shape)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(mask_a.numpy(), mask_b.numpy())
    kept = _bits(mask_a, x.numel())
    np.testing.assert_array_equal(a.numpy().reshape(-1) != 0, kept)
