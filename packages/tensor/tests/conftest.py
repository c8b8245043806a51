"""Shared test helpers for ember-tensor: numpy is the oracle for values."""

from __future__ import annotations

import os

import numpy as np
from hypothesis import HealthCheck, settings

import ember

settings.register_profile(
    "ember",
    max_examples=int(os.environ.get("EMBER_HYPOTHESIS_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ember")

# numpy dtype for each ember dtype that numpy has.
NUMPY_DTYPES = {
    ember.bool: np.bool_,
    ember.uint8: np.uint8,
    ember.int8: np.int8,
    ember.int16: np.int16,
    ember.int32: np.int32,
    ember.int64: np.int64,
    ember.float16: np.float16,
    ember.float32: np.float32,
    ember.float64: np.float64,
}

# Relative/absolute tolerances per dtype (torch.testing's defaults).
TOLERANCES = {
    ember.float16: (1e-3, 1e-5),
    ember.bfloat16: (1.6e-2, 1e-5),
    ember.float32: (1.3e-6, 1e-5),
    ember.float64: (1e-7, 1e-7),
}


def to_numpy(t: ember.Tensor) -> np.ndarray:
    """A copy of an ember tensor as a numpy array (bfloat16 widened to float32)."""
    if t.dtype == ember.bfloat16:
        t = t.float()
    return np.array(t.numpy(), copy=True)


def assert_close(
    actual: ember.Tensor,
    expected: np.ndarray,
    *,
    dtype: object = None,
    rtol: float | None = None,
    atol: float | None = None,
    check_dtype: bool = True,
) -> None:
    """Asserts an ember result matches a numpy oracle in shape, dtype and values."""
    assert isinstance(actual, ember.Tensor), f"expected an ember.Tensor, got {type(actual)}"
    expected = np.asarray(expected)
    assert tuple(actual.shape) == expected.shape, (tuple(actual.shape), expected.shape)
    if check_dtype and dtype is not None:
        assert actual.dtype == dtype, (actual.dtype, dtype)
    got = to_numpy(actual)
    default_rtol, default_atol = TOLERANCES.get(actual.dtype, (0.0, 0.0))
    np.testing.assert_allclose(
        got,
        expected.astype(got.dtype) if got.dtype != np.bool_ else expected,
        rtol=default_rtol if rtol is None else rtol,
        atol=default_atol if atol is None else atol,
        equal_nan=True,
    )
