"""Test helpers for ember-autograd's own tests.

ember-autograd's tests must run from its wheel alone (the release check installs each distribution
by itself), so they cannot import ember-tensor's test helpers; these are the few they need.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

import ember

# Default tolerances by dtype for comparisons with a float64 numpy oracle.
_TOLERANCES = {ember.float32: (1e-5, 1e-6), ember.float64: (1e-10, 1e-12)}


def assert_close(
    actual: ember.Tensor,
    expected: Any,
    *,
    dtype: object = None,
    rtol: float | None = None,
    atol: float | None = None,
) -> None:
    """Asserts an ember result matches a numpy oracle in shape, dtype and values."""
    assert isinstance(actual, ember.Tensor), f"expected an ember.Tensor, got {type(actual)}"
    expected = np.asarray(expected)
    assert tuple(actual.shape) == expected.shape, (tuple(actual.shape), expected.shape)
    if dtype is not None:
        assert actual.dtype == dtype, (actual.dtype, dtype)
    default_rtol, default_atol = _TOLERANCES.get(actual.dtype, (0.0, 0.0))
    np.testing.assert_allclose(
        actual.detach().numpy(),
        expected,
        rtol=default_rtol if rtol is None else rtol,
        atol=default_atol if atol is None else atol,
        equal_nan=True,
    )


def shapes(
    min_side: int = 0, max_side: int = 4, min_dims: int = 0, max_dims: int = 4
) -> st.SearchStrategy[tuple[int, ...]]:
    """Hypothesis strategy for shapes of min_dims..max_dims sides, each in min_side..max_side."""
    sides = st.lists(st.integers(min_side, max_side), min_size=min_dims, max_size=max_dims)
    return sides.map(tuple)


def raises(exc: type[Exception], op: str, fn: Callable[[], Any], *words: str) -> None:
    """Asserts fn() raises exc with a message that starts with [op] and contains every word."""
    with pytest.raises(exc) as info:
        fn()
    message = str(info.value)
    assert message.startswith(f"[{op}]"), message
    for word in words:
        assert word in message, (word, message)
