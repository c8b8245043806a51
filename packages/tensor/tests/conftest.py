"""Shared test helpers for ember-tensor: numpy is the oracle for values."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

import ember

# The hypothesis profile lives in the repository's root conftest.py (shared by every package).

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

# Every ember dtype, numpy's first, then bfloat16 (which numpy lacks).
ALL_DTYPES = (*NUMPY_DTYPES, ember.bfloat16)
FLOAT_DTYPES = (ember.float16, ember.bfloat16, ember.float32, ember.float64)
INT_DTYPES = (ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64)

# Relative/absolute tolerances per dtype (torch.testing's defaults).
TOLERANCES = {
    ember.float16: (1e-3, 1e-5),
    ember.bfloat16: (1.6e-2, 1e-5),
    ember.float32: (1.3e-6, 1e-5),
    ember.float64: (1e-7, 1e-7),
}


def to_numpy(t: ember.Tensor) -> np.ndarray:
    """A copy of an ember tensor as a numpy array (bfloat16 widened to float32)."""
    t = t.detach()  # numpy() refuses tensors that require grad, as torch
    if t.dtype == ember.bfloat16:
        t = t.float()
    return np.array(t.resolve_conj().numpy(), copy=True)  # numpy() refuses conjugate views


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


def np_dtype(dtype: Any) -> Any:
    """The numpy dtype that holds an ember dtype's values (bfloat16 as float32)."""
    return np.float32 if dtype == ember.bfloat16 else NUMPY_DTYPES[dtype]


def shapes(
    min_side: int = 0, max_side: int = 4, min_dims: int = 0, max_dims: int = 4
) -> st.SearchStrategy[tuple[int, ...]]:
    """Hypothesis strategy for shapes of min_dims..max_dims sides, each in min_side..max_side."""
    sides = st.lists(st.integers(min_side, max_side), min_size=min_dims, max_size=max_dims)
    return sides.map(tuple)


# The memory layouts numpy_array builds.
VIEW_LAYOUTS = ["contiguous", "transposed", "strided", "negative"]


def numpy_array(shape: tuple[int, ...], layout: str = "contiguous") -> np.ndarray:
    """Distinct values of `shape` laid out in memory as `layout` (views of a bigger buffer)."""
    n = math.prod(shape)
    if layout == "transposed" and len(shape) >= 2:
        return np.arange(n, dtype=np.float64).reshape(shape[::-1]).T
    if layout == "strided" and len(shape) >= 1:
        base = np.arange(2 * n, dtype=np.float64).reshape((*shape[:-1], 2 * shape[-1]))
        return base[..., ::2]
    if layout == "negative" and len(shape) >= 1:
        return np.arange(n, dtype=np.float64).reshape(shape)[::-1]
    return np.arange(n, dtype=np.float64).reshape(shape)


def with_layout(x: np.ndarray, layout: str) -> np.ndarray:
    """A copy of x in a fresh buffer laid out as one of VIEW_LAYOUTS (numpy's .T for transposed)."""
    if layout == "transposed" and x.ndim >= 2:
        return np.ascontiguousarray(x.T).T
    if layout == "strided" and x.ndim >= 1:
        wide = np.zeros((*x.shape[:-1], 2 * x.shape[-1]), x.dtype)
        wide[..., ::2] = x
        return wide[..., ::2]
    if layout == "negative" and x.ndim >= 1:
        return np.array(x[::-1], copy=True)[::-1]
    return x.copy(order="C")


def tensor(shape: tuple[int, ...], dtype: Any = ember.float32) -> ember.Tensor:
    """A contiguous ember tensor of `shape` holding 0, 1, 2, ... in `dtype`."""
    t = ember.from_numpy(np.arange(math.prod(shape), dtype=np.float64).reshape(shape))
    return t._to_dtype(dtype)


def raises(exc: type[Exception], op: str, fn: Callable[[], Any], *words: str) -> None:
    """Asserts fn() raises exc with a message that starts with [op] and contains every word."""
    with pytest.raises(exc) as info:
        fn()
    message = str(info.value)
    assert message.startswith(f"[{op}]"), message
    for word in words:
        assert word in message, (word, message)


def check_index_outcome(x: ember.Tensor, items: list[object], put: bool) -> None:
    """Reads or assigns x[items]: either it works or it raises a typed `[index]` error."""
    try:
        if put:
            x[tuple(items)] = 1.0
        else:
            x[tuple(items)]
    except (IndexError, ValueError, TypeError, RuntimeError) as e:
        assert str(e).startswith("[index]"), (items, str(e))


def autograd_installed() -> bool:
    """Whether ember-autograd is installed (these tests also run from ember-tensor alone)."""
    try:
        import ember.autograd  # noqa: F401
    except ModuleNotFoundError:
        return False
    return True
