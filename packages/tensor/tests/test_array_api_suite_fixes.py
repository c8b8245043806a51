"""Regressions from running data-apis/array-api-tests on ember.array_api (docs/array_api.md).

Each test pins a behaviour the standard's suite found missing: numpy 2.x is the oracle.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import assert_close, raises, to_numpy

xp: Any = ember.ones(1).__array_namespace__()
INF = math.inf


def signs(values: np.ndarray) -> list[float]:
    return [math.copysign(1.0, v) for v in values.tolist()]


@given(
    start=st.integers(-5, 5),
    stop=st.integers(-5, 5),
    step=st.integers(-3, 3).filter(lambda s: s != 0),
    dtype=st.sampled_from([None, xp.int8, xp.uint8, xp.float64]),
)
def test_arange_of_an_empty_range_is_empty(start: int, stop: int, step: int, dtype: Any) -> None:
    if dtype == xp.uint8 and min(start, stop) < 0:
        start, stop = abs(start), abs(stop)
    result = xp.arange(start, stop, step, dtype=dtype)
    expected = np.arange(start, stop, step)
    assert to_numpy(result).tolist() == expected.tolist()
    assert result.dtype == (xp.int64 if dtype is None else dtype)


def test_arange_empty_ranges_keep_their_dtype() -> None:
    assert xp.arange(1, 0, 1, dtype=xp.uint8).shape == (0,)
    assert xp.arange(1.5, 0).dtype == xp.float32 and xp.arange(2.0, 0).shape == (0,)
    assert xp.arange(0, 5, -1).shape == (0,)
    assert xp.arange(0, 0.0, -1).dtype == xp.float32  # a float bound: float even when empty
    assert xp.arange(3, 1, 1.5).dtype == xp.float32 and xp.arange(3, 1).dtype == xp.int64
    raises(TypeError, "arange", lambda: xp.arange(None), "int or a float")
    raises(TypeError, "arange", lambda: xp.arange(0, "5"), "stop")


@pytest.mark.parametrize("dtype", [xp.int8, xp.int16, xp.int32, xp.uint8, xp.int64])
def test_repeat_takes_counts_of_any_integer_dtype(dtype: Any) -> None:
    x = xp.asarray([[1, 2], [3, 4]])
    counts = xp.asarray([2, 0], dtype=dtype)
    expected = np.repeat(np.array([[1, 2], [3, 4]]), [2, 0], axis=1)
    assert to_numpy(xp.repeat(x, counts, axis=1)).tolist() == expected.tolist()
    assert xp.repeat(xp.asarray([], dtype=xp.bool), xp.asarray([], dtype=dtype)).shape == (0,)
    raises(TypeError, "repeat", lambda: xp.repeat(x, xp.asarray([1.0, 2.0]), axis=0), "integer")


def test_tensordot_vecdot_cross_promote_mixed_dtypes() -> None:
    a8, a16 = (
        xp.asarray([[1, 2], [3, 4]], dtype=xp.int8),
        xp.asarray([[5, 6], [7, 8]], dtype=xp.int16),
    )
    n8, n16 = np.array([[1, 2], [3, 4]], np.int8), np.array([[5, 6], [7, 8]], np.int16)
    assert_close(xp.tensordot(a8, a16), np.tensordot(n8, n16), dtype=xp.int16)
    assert_close(xp.linalg.tensordot(a8, a16, axes=((), ())), np.tensordot(n8, n16, axes=((), ())))
    assert_close(xp.vecdot(a8, a16), np.vecdot(n8, n16).astype(np.int16), dtype=xp.int16)
    assert xp.vecdot(a8, a8).dtype == xp.int8  # integer vecdot keeps the dtype (no int64 sum)
    f32 = xp.asarray([1.0, 0.0, 0.0])
    i64 = xp.asarray([[0, 1, 0], [0, 0, 1]])
    expected = np.cross(np.array([1.0, 0, 0], np.float32), np.array([[0, 1, 0], [0, 0, 1]]))
    assert_close(xp.linalg.cross(f32, i64), expected.astype(np.float32), dtype=xp.float32)
    empty = xp.linalg.cross(xp.zeros((0, 3), dtype=xp.uint8), xp.asarray([0, 0, 0], dtype=xp.uint8))
    assert empty.shape == (0, 3) and empty.dtype == xp.uint8


def test_vecdot_axis_does_not_broadcast() -> None:
    raises(ValueError, "vecdot", lambda: xp.vecdot(xp.ones((2, 1)), xp.ones((2, 3))), "axis -1")
    raises(ValueError, "vecdot", lambda: xp.vecdot(xp.ones(3), xp.ones((3, 2)), axis=-2), "axis -2")
    assert_close(xp.vecdot(xp.ones((2, 3)), xp.ones((1, 3))), np.full(2, 3.0, np.float32))


def test_floor_divide_with_one_infinite_operand() -> None:
    x1 = np.array([INF, INF, -INF, -INF, 1.0, 1.0, -1.0, -1.0, 7.0, INF, 0.0])
    x2 = np.array([1.0, -1.0, 1.0, -1.0, INF, -INF, INF, -INF, 2.0, INF, 0.0])
    # The standard's results: infinities for an infinite x1, signed zeros for an infinite x2.
    expected = np.array([INF, -INF, -INF, INF, 0.0, -0.0, -0.0, 0.0, 3.0, np.nan, np.nan])
    got = to_numpy(xp.floor_divide(xp.asarray(x1), xp.asarray(x2)))
    np.testing.assert_array_equal(got, expected)
    assert signs(got[4:8]) == signs(expected[4:8])
    assert to_numpy(xp.floor_divide(xp.asarray([INF, -3.0]), 2)).tolist() == [INF, -2.0]
    assert to_numpy(xp.floor_divide(xp.asarray([7, -7]), 2)).tolist() == [3, -4]


def test_remainder_zero_takes_the_divisor_sign() -> None:
    x1 = np.array([-0.0, 0.0, 4.0, -4.0, 5.5, -5.5])
    x2 = np.array([2.0, -2.0, -2.0, 2.0, -2.0, 2.0])
    got = to_numpy(xp.remainder(xp.asarray(x1), xp.asarray(x2)))
    expected = np.remainder(x1, x2)
    np.testing.assert_array_equal(got, expected)
    assert signs(got) == signs(expected)
    assert signs(to_numpy(xp.remainder(xp.asarray([-0.0, 0.0]), -3.0))) == [-1.0, -1.0]
    assert to_numpy(xp.remainder(xp.asarray([5, -5]), 3)).tolist() == [2, 1]


def test_to_device() -> None:
    x = xp.ones(2)
    assert x.to_device("cpu") is x and x.to_device(x.device) is x
    raises(ValueError, "to_device", lambda: x.to_device("cpu", stream=1), "stream")
    raises(RuntimeError, "to_device", lambda: x.to_device("cuda"), "CUDA")
    raises(TypeError, "to_device", lambda: x.to_device(1.5), "device")


def test_take_and_take_along_axis_count_negative_indices_from_the_end() -> None:
    a = np.array([[1, 2, 3], [4, 5, 6]])
    x = xp.asarray(a)
    for indices in ([-1, 0, -3], [2, -2]):
        got = xp.take(x, xp.asarray(indices), axis=1)
        assert to_numpy(got).tolist() == np.take(a, indices, axis=1).tolist()
    assert to_numpy(xp.take(xp.asarray([False, True]), xp.asarray([-1]))).tolist() == [True]
    picks = np.array([[-1], [-2]])
    expected = np.take_along_axis(a, picks, axis=-1)
    assert to_numpy(xp.take_along_axis(x, xp.asarray(picks), axis=-1)).tolist() == expected.tolist()
    raises(IndexError, "take", lambda: xp.take(x, xp.asarray([-4]), axis=1), "-4", "size 3")
    raises(IndexError, "take_along_axis", lambda: xp.take_along_axis(x, xp.asarray([[-3]]), axis=0))


def test_solve_promotes_eye_clamps_k_and_any_all_give_bool() -> None:
    x = xp.linalg.solve(xp.eye(2), xp.asarray([1.0, 2.0], dtype=xp.float64))
    assert x.dtype == xp.float64 and to_numpy(x).tolist() == [1.0, 2.0]
    assert xp.linalg.solve(xp.zeros((0, 0)), xp.zeros(0, dtype=xp.float64)).shape == (0,)
    for k in (2**63, -(2**70), 5, -5):
        assert to_numpy(xp.eye(3, 4, k=k)).tolist() == np.eye(3, 4, k=k).tolist()
    assert xp.eye(0, k=2**63).shape == (0, 0)
    for fn in (xp.any, xp.all):
        assert fn(xp.asarray(0, dtype=xp.uint8)).dtype == xp.bool
        assert fn(xp.asarray([[1, 0]], dtype=xp.uint8), axis=1).dtype == xp.bool
    assert not bool(xp.any(xp.asarray(0, dtype=xp.uint8)))
    assert bool(xp.all(xp.asarray([3, 200], dtype=xp.uint8)))
