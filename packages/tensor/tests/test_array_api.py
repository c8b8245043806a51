"""ember.array_api against numpy 2.x, which implements the Array API standard 2024.12 itself.

Each table row names a standard function; it runs on ember arrays and on numpy arrays of the same
values, and the results must agree in shape, dtype (where the standard fixes it) and values.
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import assert_close, raises, shapes, to_numpy

xp: Any = ember.ones(1).__array_namespace__()
RNG = np.random.default_rng(0)

# The standard's dtypes that ember has, with numpy's.
DTYPE_PAIRS = [
    (xp.bool, np.bool_),
    (xp.int8, np.int8),
    (xp.int16, np.int16),
    (xp.int32, np.int32),
    (xp.int64, np.int64),
    (xp.uint8, np.uint8),
    (xp.float32, np.float32),
    (xp.float64, np.float64),
]
FLOATS = [(xp.float32, np.float32), (xp.float64, np.float64)]
INTS = [
    (xp.int8, np.int8),
    (xp.int32, np.int32),
    (xp.int64, np.int64),
    (xp.uint8, np.uint8),
    (xp.uint16, np.uint16),
    (xp.uint32, np.uint32),
    (xp.uint64, np.uint64),
]
LAYOUTS = ["contiguous", "transposed", "zero_d", "empty"]


def values(low: float, high: float, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Random values in [low, high] as `dtype` (integers rounded)."""
    raw = RNG.uniform(low, high, size=shape)
    if np.issubdtype(dtype, np.integer):
        raw = np.round(raw)
    return np.asarray(raw.astype(dtype))


def both(a: np.ndarray, layout: str = "contiguous") -> tuple[Any, np.ndarray]:
    """The ember array and the numpy array for the values of `a` laid out as `layout`."""
    if layout == "transposed" and a.ndim == 2:
        return ember.from_numpy(np.ascontiguousarray(a.T)).mT, a
    return ember.from_numpy(np.array(a, order="C")), a


def shape_of(layout: str) -> tuple[int, ...]:
    return {"contiguous": (3, 4), "transposed": (4, 3), "zero_d": (), "empty": (0, 3)}[layout]


def check(actual: Any, expected: Any, *, check_dtype: bool = True) -> None:
    """Compares an ember result (array or tuple of arrays) with numpy's."""
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for a, e in zip(actual, expected, strict=True):
            check(a, e, check_dtype=check_dtype)
        return
    expected = np.asarray(expected)
    assert_close(actual, expected, check_dtype=False)
    if check_dtype:
        assert to_numpy(actual).dtype == expected.dtype, (actual.dtype, expected.dtype)


# --- element-wise ------------------------------------------------------------------------

# (name, low, high, dtypes): inputs drawn from the function's domain.
UNARY = [
    ("abs", -5, 5, FLOATS + INTS[:3]),
    ("acos", -1, 1, FLOATS),
    ("acosh", 1, 5, FLOATS),
    ("asin", -1, 1, FLOATS),
    ("asinh", -5, 5, FLOATS),
    ("atan", -5, 5, FLOATS),
    ("atanh", -0.99, 0.99, FLOATS),
    ("bitwise_invert", -50, 50, INTS[:3]),
    ("ceil", -5, 5, FLOATS + INTS),
    ("cos", -5, 5, FLOATS),
    ("cosh", -5, 5, FLOATS),
    ("exp", -5, 5, FLOATS),
    ("expm1", -5, 5, FLOATS),
    ("floor", -5, 5, FLOATS + INTS),
    ("isfinite", -5, 5, FLOATS + INTS),
    ("isinf", -5, 5, FLOATS),
    ("isnan", -5, 5, FLOATS),
    ("log", 0.1, 5, FLOATS),
    ("log1p", -0.5, 5, FLOATS),
    ("log2", 0.1, 5, FLOATS),
    ("log10", 0.1, 5, FLOATS),
    ("negative", -5, 5, FLOATS + INTS[:3]),
    ("positive", -5, 5, FLOATS + INTS),
    ("reciprocal", 0.5, 5, FLOATS),
    ("round", -5, 5, FLOATS + INTS),
    ("sign", -5, 5, FLOATS + INTS[:3]),
    ("signbit", -5, 5, FLOATS),
    ("sin", -5, 5, FLOATS),
    ("sinh", -5, 5, FLOATS),
    ("sqrt", 0, 5, FLOATS),
    ("square", -5, 5, FLOATS + INTS[:3]),
    ("tan", -1.5, 1.5, FLOATS),
    ("tanh", -5, 5, FLOATS),
    ("trunc", -5, 5, FLOATS + INTS),
    ("conj", -5, 5, FLOATS),
    ("real", -5, 5, FLOATS),
]
UNARY_CASES = [
    pytest.param(name, lo, hi, pair, layout, id=f"{name}-{pair[0]}-{layout}")
    for name, lo, hi, dtypes in UNARY
    for pair in dtypes
    for layout in LAYOUTS
    if layout != "transposed" or pair[0] == xp.float32
]


@pytest.mark.parametrize(("name", "low", "high", "pair", "layout"), UNARY_CASES)
def test_unary_matches_numpy(name: str, low: float, high: float, pair: Any, layout: str) -> None:
    x, a = both(values(low, high, shape_of(layout), pair[1]), layout)
    check(getattr(xp, name)(x), getattr(np, name)(a))


def test_unary_special_values() -> None:
    special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5], np.float64)
    x = ember.from_numpy(special)
    for name in ("sign", "signbit", "round", "abs", "isnan", "isinf", "isfinite", "sqrt"):
        with np.errstate(invalid="ignore"):
            expected = getattr(np, name)(special)
        check(getattr(xp, name)(x), expected)
    # -0.0 and -nan keep their sign bit through sign().
    assert to_numpy(xp.signbit(xp.sign(x))).tolist() == np.signbit(np.sign(special)).tolist()
    check(xp.logical_not(ember.tensor([True, False])), np.array([False, True]))
    check(xp.imag(x), np.zeros_like(special))


# (name, (low, high) of x1, (low, high) of x2, dtypes)
BINARY = [
    ("add", (-5, 5), (-5, 5), FLOATS + INTS),
    ("atan2", (-5, 5), (-5, 5), FLOATS),
    ("bitwise_and", (-50, 50), (-50, 50), INTS[:3]),
    ("bitwise_or", (-50, 50), (-50, 50), INTS[:3]),
    ("bitwise_xor", (-50, 50), (-50, 50), INTS[:3]),
    ("bitwise_left_shift", (-50, 50), (0, 5), INTS[1:3]),
    ("bitwise_right_shift", (-50, 50), (0, 5), INTS[1:3]),
    ("copysign", (-5, 5), (-5, 5), FLOATS),
    ("divide", (-5, 5), (0.5, 5), FLOATS),
    ("equal", (-2, 2), (-2, 2), FLOATS + INTS),
    ("floor_divide", (-20, 20), (1, 5), FLOATS + INTS[:3]),
    ("greater", (-2, 2), (-2, 2), FLOATS + INTS),
    ("greater_equal", (-2, 2), (-2, 2), FLOATS + INTS),
    ("hypot", (-5, 5), (-5, 5), FLOATS),
    ("less", (-2, 2), (-2, 2), FLOATS + INTS),
    ("less_equal", (-2, 2), (-2, 2), FLOATS + INTS),
    ("logaddexp", (-5, 5), (-5, 5), FLOATS),
    ("maximum", (-5, 5), (-5, 5), FLOATS + INTS),
    ("minimum", (-5, 5), (-5, 5), FLOATS + INTS),
    ("multiply", (-5, 5), (-5, 5), FLOATS + INTS[:3]),
    ("nextafter", (-5, 5), (-5, 5), FLOATS),
    ("not_equal", (-2, 2), (-2, 2), FLOATS + INTS),
    ("pow", (0.5, 3), (-2, 2), FLOATS),
    ("pow", (-3, 3), (0, 3), INTS[1:3]),
    ("remainder", (-20, 20), (1, 5), FLOATS + INTS[:3]),
    ("subtract", (-5, 5), (-5, 5), FLOATS + INTS[:3]),
]
BINARY_CASES = [
    pytest.param(name, r1, r2, pair, id=f"{name}-{pair[0]}")
    for name, r1, r2, dtypes in BINARY
    for pair in dtypes
]


@pytest.mark.parametrize(("name", "r1", "r2", "pair"), BINARY_CASES)
def test_binary_matches_numpy(name: str, r1: Any, r2: Any, pair: Any) -> None:
    fn, np_fn = getattr(xp, name), getattr(np, name)
    # Broadcasting (3, 1) against (4,), then one transposed operand.
    x1, a1 = both(values(*r1, (3, 1), pair[1]))
    x2, a2 = both(values(*r2, (4,), pair[1]))
    check(fn(x1, x2), np_fn(a1, a2))
    y1, b1 = both(values(*r1, (3, 4), pair[1]), "transposed")
    y2, b2 = both(values(*r2, (3, 4), pair[1]))
    check(fn(y1, y2), np_fn(b1, b2))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "less", "pow"])
@pytest.mark.parametrize("pair", [FLOATS[0], INTS[0]], ids=str)
def test_binary_python_scalars(name: str, pair: Any) -> None:
    x, a = both(values(0, 5, (5,), pair[1]))
    check(getattr(xp, name)(x, 2), getattr(np, name)(a, 2))
    check(getattr(xp, name)(2, x), getattr(np, name)(2, a))
    # A float scalar with an int array: the values agree, the dtype is ember's default float.
    check(getattr(xp, name)(x, 1.5), getattr(np, name)(a, 1.5), check_dtype=False)


def test_nextafter_steps_one_ulp() -> None:
    a = np.array([0.0, -0.0, 1.0, -1.0, 1e-40, np.inf, np.nan, 3.0], np.float32)
    b = np.array([1.0, -1.0, 2.0, -2.0, 0.0, 0.0, 1.0, 3.0], np.float32)
    got = to_numpy(xp.nextafter(ember.from_numpy(a), ember.from_numpy(b)))
    np.testing.assert_array_equal(got, np.nextafter(a, b))


@pytest.mark.parametrize("pair", FLOATS + INTS, ids=str)
def test_clip(pair: Any) -> None:
    x, a = both(values(-10, 10, (3, 4), pair[1]))
    check(xp.clip(x, 1, 5), np.clip(a, 1, 5))
    low = 2 if a.dtype.kind == "u" else -2  # a bound outside x's dtype is unspecified
    check(xp.clip(x, min=low), np.clip(a, low, None))
    check(xp.clip(x, max=3), np.clip(a, None, 3))
    lo, b = both(values(-3, 0, (4,), pair[1]))
    check(xp.clip(x, lo, 4), np.clip(a, b, 4))
    check(xp.clip(x), a)


# --- creation ----------------------------------------------------------------------------


def test_creation_matches_numpy() -> None:
    check(xp.arange(5), np.arange(5))
    check(xp.arange(1, 10, 3), np.arange(1, 10, 3))
    check(xp.arange(0.0, 1.0, 0.25), np.arange(0.0, 1.0, 0.25, dtype=np.float32))
    check(xp.zeros((2, 3), dtype=xp.int32), np.zeros((2, 3), np.int32))
    check(xp.ones(4), np.ones(4, np.float32))
    check(xp.full((2,), 7), np.full((2,), 7))
    check(xp.full((2,), True), np.full((2,), True))
    check(xp.full(3, 1.5, dtype=xp.float64), np.full(3, 1.5))
    assert xp.empty((2, 0)).shape == (2, 0)
    for k in (-2, -1, 0, 1, 3):
        check(xp.eye(3, 4, k=k), np.eye(3, 4, k=k, dtype=np.float32))
    check(xp.eye(2, dtype=xp.int8), np.eye(2, dtype=np.int8))
    check(xp.linspace(0, 1, 5), np.linspace(0, 1, 5, dtype=np.float32))
    check(
        xp.linspace(0, 1, 4, endpoint=False), np.linspace(0, 1, 4, endpoint=False, dtype=np.float32)
    )
    check(xp.linspace(2, 3, 1, dtype=xp.float64), np.linspace(2, 3, 1))
    x, a = both(values(-5, 5, (2, 3, 4), np.float64))
    for k in (-1, 0, 2):
        check(xp.tril(x, k=k), np.tril(a, k=k))
        check(xp.triu(x, k=k), np.triu(a, k=k))
    for fn in ("zeros_like", "ones_like", "empty_like"):
        assert getattr(xp, fn)(x).shape == x.shape and getattr(xp, fn)(x).dtype == x.dtype
    check(xp.full_like(x, 2, dtype=xp.int16), np.full_like(a, 2, dtype=np.int16))
    for indexing in ("xy", "ij"):
        grids = xp.meshgrid(xp.arange(2), xp.arange(3), xp.arange(4), indexing=indexing)
        expected = np.meshgrid(np.arange(2), np.arange(3), np.arange(4), indexing=indexing)
        check(tuple(grids), tuple(expected))
    assert xp.meshgrid() == []


def test_asarray_copy_semantics() -> None:
    check(xp.asarray([[1, 2], [3, 4]]), np.asarray([[1, 2], [3, 4]]))
    check(xp.asarray(2.5), np.asarray(2.5, np.float32))
    check(xp.asarray(True), np.asarray(True))
    check(xp.asarray([1, 2], dtype=xp.float64), np.asarray([1, 2], np.float64))
    x = xp.arange(3)
    assert xp.asarray(x) is x
    copied = xp.asarray(x, copy=True)
    copied[0] = 9
    assert x[0].item() == 0
    a = np.arange(3.0)
    shared = xp.asarray(a, copy=False)
    a[0] = 5.0
    assert shared[0].item() == 5.0
    assert xp.from_dlpack(a)[0].item() == 5.0
    assert xp.from_dlpack(a, copy=True).data_ptr() != shared.data_ptr()
    raises(ValueError, "asarray", lambda: xp.asarray([1, 2], copy=False), "copy=False")
    raises(ValueError, "asarray", lambda: xp.asarray(x, dtype=xp.int8, copy=False), "copies")


# --- data types --------------------------------------------------------------------------


def test_isdtype_matches_numpy() -> None:
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating", "numeric"]
    for ours, theirs in DTYPE_PAIRS:
        for kind in kinds:
            assert xp.isdtype(ours, kind) == np.isdtype(np.dtype(theirs), kind), (ours, kind)
        assert xp.isdtype(ours, ("bool", "real floating")) == np.isdtype(
            np.dtype(theirs), ("bool", "real floating")
        )
    raises(ValueError, "isdtype", lambda: xp.isdtype(xp.int8, "floating"), "unknown kind")


def test_result_type_and_can_cast_match_numpy_within_kinds() -> None:
    # Mixed integer/float promotion is implementation-defined in the standard: not compared.
    def kind(d: Any) -> str:
        return "b" if d == xp.bool else ("f" if xp.isdtype(d, "real floating") else "i")

    for d1, n1 in DTYPE_PAIRS:
        for d2, n2 in DTYPE_PAIRS:
            if kind(d1) != kind(d2):
                continue
            expected = np.result_type(n1, n2)
            assert to_numpy(xp.ones(1, dtype=xp.result_type(d1, d2))).dtype == expected
            assert xp.can_cast(d1, d2) == np.can_cast(n1, n2), (d1, d2)
    assert xp.result_type(xp.ones(2, dtype=xp.int8), 3) == xp.int8
    assert xp.result_type(xp.int8, 3.5) == xp.float32
    assert xp.result_type(xp.bool, 1) == xp.int64
    assert xp.can_cast(xp.ones(1, dtype=xp.int8), xp.int16)
    raises(ValueError, "result_type", lambda: xp.result_type(1, 2.0), "at least one")


def test_finfo_iinfo_match_numpy() -> None:
    for ours, theirs in FLOATS:
        got, expected = xp.finfo(ours), np.finfo(theirs)
        assert (got.bits, got.eps, got.max, got.min) == (
            expected.bits,
            float(expected.eps),
            float(expected.max),
            float(expected.min),
        )
        assert got.smallest_normal == float(expected.smallest_normal)
        assert got.dtype == ours and xp.finfo(xp.ones(1, dtype=ours)).dtype == ours
    for ours, theirs in [*INTS, (xp.int16, np.int16)]:
        info, expected_i = xp.iinfo(ours), np.iinfo(theirs)
        assert (info.bits, info.min, info.max) == (expected_i.bits, expected_i.min, expected_i.max)
    raises(TypeError, "finfo", lambda: xp.finfo(xp.int8), "floating-point")
    raises(TypeError, "iinfo", lambda: xp.iinfo(xp.float32), "integer")


def test_astype() -> None:
    x, a = both(values(-5, 5, (2, 3), np.float32))
    check(xp.astype(x, xp.int32), a.astype(np.int32))
    assert xp.astype(x, xp.float32, copy=False) is x
    assert xp.astype(x, xp.float32).data_ptr() != x.data_ptr()


# --- statistical and utility -------------------------------------------------------------

AXES = [None, 0, -1, (0, 2), (), (0, 1, 2)]


@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("name", ["max", "min", "sum", "prod", "mean", "all", "any"])
def test_reductions_match_numpy(name: str, axis: Any, keepdims: bool) -> None:
    x, a = both(values(-2, 2, (2, 3, 4), np.float64))
    check(
        getattr(xp, name)(x, axis=axis, keepdims=keepdims),
        getattr(np, name)(a, axis=axis, keepdims=keepdims),
    )


@pytest.mark.filterwarnings("ignore:Degrees of freedom")  # numpy's warning for N - correction <= 0
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("correction", [0, 1, 1.5])
@pytest.mark.parametrize("name", ["std", "var"])
def test_std_var_correction(name: str, axis: Any, correction: float) -> None:
    x, a = both(values(-2, 2, (2, 3, 4), np.float32))
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = getattr(np, name)(a, axis=axis, correction=correction, keepdims=True)
    check(getattr(xp, name)(x, axis=axis, correction=correction, keepdims=True), expected)


@pytest.mark.parametrize("pair", [*INTS, (xp.bool, np.bool_)], ids=str)
def test_sum_prod_dtypes(pair: Any) -> None:
    # Integer sums and products accumulate in the default integer dtype (int64), unsigned ones
    # in uint64, as numpy and the standard do.
    x, a = both(values(0, 3, (3, 4), pair[1]))
    acc = np.uint64 if a.dtype.kind == "u" else np.int64
    check(xp.sum(x, axis=0), np.sum(a, axis=0, dtype=acc))
    check(xp.prod(x, axis=(0, 1)), np.prod(a, axis=(0, 1), dtype=acc))
    check(xp.sum(x, dtype=xp.float64), np.sum(a, dtype=np.float64))
    check(xp.count_nonzero(x, axis=1, keepdims=True), np.count_nonzero(a, axis=1, keepdims=True))


def test_reductions_of_empty_and_zero_d() -> None:
    x, a = both(np.zeros((0, 3), np.float32))
    check(xp.sum(x, axis=0), np.sum(a, axis=0))
    check(xp.prod(x, axis=(0, 1), keepdims=True), np.prod(a, axis=(0, 1), keepdims=True))
    check(xp.prod(x, axis=1), np.prod(a, axis=1))
    y, b = both(np.asarray(3.0, np.float32))
    for name in ("sum", "prod", "max", "min", "mean", "all", "any"):
        check(getattr(xp, name)(y), getattr(np, name)(b))
    raises(ValueError, "max", lambda: xp.max(x, axis=0), "zero-size")


@pytest.mark.parametrize("include_initial", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_cumulative(axis: int, include_initial: bool) -> None:
    x, a = both(values(1, 3, (3, 4), np.int32))
    kw = {"axis": axis, "include_initial": include_initial}
    check(xp.cumulative_sum(x, **kw), np.cumulative_sum(a, **kw))
    check(xp.cumulative_prod(x, **kw), np.cumulative_prod(a, **kw))
    check(
        xp.cumulative_sum(x, dtype=xp.float64, **kw), np.cumulative_sum(a, dtype=np.float64, **kw)
    )
    v, b = both(values(1, 3, (5,), np.float32))
    check(
        xp.cumulative_sum(v, include_initial=include_initial),
        np.cumulative_sum(b, include_initial=include_initial),
    )
    raises(ValueError, "cumulative_sum", lambda: xp.cumulative_sum(x), "axis is required")


def test_diff() -> None:
    x, a = both(values(-5, 5, (3, 5), np.float64))
    for n in (0, 1, 2):
        check(xp.diff(x, n=n), np.diff(a, n=n))
        check(xp.diff(x, axis=0, n=n), np.diff(a, axis=0, n=n))
    p, b = both(values(-5, 5, (3, 1), np.float64))
    check(xp.diff(x, prepend=p, append=p), np.diff(a, prepend=b, append=b))


# --- manipulation and indexing -----------------------------------------------------------


def test_manipulation_matches_numpy() -> None:
    x, a = both(values(-5, 5, (2, 3, 4), np.float32))
    v, b = both(values(-5, 5, (3, 4), np.float32))
    check(tuple(xp.broadcast_arrays(x, v)), tuple(np.broadcast_arrays(a, b)))
    check(xp.broadcast_to(v, (2, 3, 4)), np.broadcast_to(b, (2, 3, 4)))
    for axis in (0, -1, None):
        check(xp.concat([x, x], axis=axis), np.concat([a, a], axis=axis))
    for axis in (0, 3, -1, -4):
        check(xp.expand_dims(x, axis=axis), np.expand_dims(a, axis))
    for axis in (None, 0, (0, 2), -1):
        check(xp.flip(x, axis=axis), np.flip(a, axis=axis))
    check(xp.moveaxis(x, (0, 1), (2, 0)), np.moveaxis(a, (0, 1), (2, 0)))
    check(xp.permute_dims(x, (2, 0, 1)), np.permute_dims(a, (2, 0, 1)))
    check(xp.repeat(x, 2), np.repeat(a, 2))
    check(xp.repeat(x, 3, axis=1), np.repeat(a, 3, axis=1))
    reps, r = both(np.array([1, 0, 2], np.int64))
    check(xp.repeat(x, reps, axis=1), np.repeat(a, r, axis=1))
    for copy in (None, True, False):
        check(xp.reshape(x, (4, -1), copy=copy), np.reshape(a, (4, -1), copy=copy))
    check(xp.roll(x, 5), np.roll(a, 5))
    check(xp.roll(x, (1, -2), axis=(0, 2)), np.roll(a, (1, -2), axis=(0, 2)))
    check(xp.roll(x, -1, axis=(0, 1)), np.roll(a, -1, axis=(0, 1)))
    s, c = both(values(-5, 5, (1, 3, 1), np.float32))
    check(xp.squeeze(s, axis=0), np.squeeze(c, axis=0))
    check(xp.squeeze(s, axis=(0, -1)), np.squeeze(c, axis=(0, -1)))
    check(xp.stack([v, v], axis=1), np.stack([b, b], axis=1))
    check(xp.tile(v, (2, 1, 2)), np.tile(b, (2, 1, 2)))
    for axis in (0, 1, -1):
        check(xp.unstack(x, axis=axis), np.unstack(a, axis=axis))


def test_reshape_copy_false_needs_a_view() -> None:
    x = xp.arange(6).reshape((2, 3))
    view = xp.reshape(x, (3, 2), copy=False)
    view[0, 0] = 7
    assert x[0, 0].item() == 7
    assert xp.reshape(x, (6,), copy=True).data_ptr() != x.data_ptr()
    raises(ValueError, "reshape", lambda: xp.reshape(x.mT, (6,), copy=False), "copy=False")


def test_take() -> None:
    x, a = both(values(-5, 5, (3, 4), np.float32))
    idx, i = both(np.array([2, 0, 2], np.int64))
    check(xp.take(x, idx, axis=0), np.take(a, i, axis=0))
    check(xp.take(x, idx, axis=-1), np.take(a, i, axis=-1))
    check(xp.take(x[0], idx), np.take(a[0], i))
    order, o = both(np.argsort(a, axis=1))
    check(xp.take_along_axis(x, order, axis=1), np.take_along_axis(a, o, axis=1))
    check(xp.take_along_axis(x, order), np.take_along_axis(a, o, axis=-1))
    raises(ValueError, "take", lambda: xp.take(x, idx), "axis is required")


# --- searching, sorting, sets ------------------------------------------------------------


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_argmax_argmin(axis: Any, keepdims: bool) -> None:
    x, a = both(values(-3, 3, (3, 4), np.int32))  # ties: the first occurrence wins
    check(xp.argmax(x, axis=axis, keepdims=keepdims), np.argmax(a, axis=axis, keepdims=keepdims))
    check(xp.argmin(x, axis=axis, keepdims=keepdims), np.argmin(a, axis=axis, keepdims=keepdims))


def test_searching_matches_numpy() -> None:
    x, a = both(values(-1, 1, (3, 4), np.int32))
    check(xp.nonzero(x), np.nonzero(a))
    sorted_, s = both(np.array([1.0, 2.0, 2.0, 5.0], np.float32))
    probe, p = both(np.array([[0.0, 2.0], [3.0, 9.0]], np.float32))
    for side in ("left", "right"):
        check(xp.searchsorted(sorted_, probe, side=side), np.searchsorted(s, p, side=side))
    shuffled, u = both(np.array([5.0, 1.0, 2.0, 2.0], np.float32))
    order, o = both(np.argsort(u, stable=True))
    check(xp.searchsorted(shuffled, probe, sorter=order), np.searchsorted(u, p, sorter=o))
    cond, c = both(a > 0)
    check(xp.where(cond, x, -x), np.where(c, a, -a))
    check(xp.where(cond, x, 7), np.where(c, a, np.int32(7)))
    check(xp.where(cond, 1.5, x), np.where(c, 1.5, a), check_dtype=False)
    check(xp.where(cond, 1, 2), np.where(c, 1, 2))
    raises(ValueError, "nonzero", lambda: xp.nonzero(xp.asarray(1)), "0-d")


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("axis", [0, -1])
def test_sort_argsort_stable(axis: int, descending: bool) -> None:
    x, a = both(values(-2, 2, (5, 6), np.int64))  # many ties
    if descending:
        # Stable descending order (ties keep their order) through numpy's ascending sort.
        n = a.shape[axis]
        flipped = np.argsort(np.flip(a, axis), axis=axis, stable=True)
        expected_idx = n - 1 - np.flip(flipped, axis)
        expected = np.flip(np.sort(a, axis=axis), axis)
    else:
        expected_idx = np.argsort(a, axis=axis, stable=True)
        expected = np.sort(a, axis=axis)
    check(xp.argsort(x, axis=axis, descending=descending), expected_idx)
    check(xp.sort(x, axis=axis, descending=descending), expected)


def test_unique_matches_numpy() -> None:
    x, a = both(values(-3, 3, (4, 5), np.int32))
    got = xp.unique_all(x)
    expected = np.unique_all(a)
    check(got.values, expected.values)
    check(got.indices, expected.indices)
    check(got.counts, expected.counts)
    assert got.inverse_indices.shape == x.shape
    check(got.inverse_indices.reshape((-1,)), expected.inverse_indices.reshape(-1))
    check(tuple(xp.unique_counts(x)), tuple(np.unique_counts(a)))
    inverse = xp.unique_inverse(x)
    # numpy 2.3+ leaves unique_values unsorted (the standard allows any order); ember sorts.
    check(inverse.values, np.unique(a))
    check(xp.take(inverse.values, inverse.inverse_indices.reshape((-1,))).reshape((4, 5)), a)
    check(xp.unique_values(x), np.unique(a))


# --- linear algebra ----------------------------------------------------------------------


def spd(n: int) -> tuple[Any, np.ndarray]:
    m = values(-1, 1, (2, n, n), np.float64)
    return both(m @ np.swapaxes(m, -1, -2) + n * np.eye(n))


def test_linear_algebra_matches_numpy() -> None:
    x, a = both(values(-2, 2, (2, 3, 4), np.float64))
    y, b = both(values(-2, 2, (4, 5), np.float64))
    check(xp.matmul(x, y), np.matmul(a, b))
    check(xp.matrix_transpose(x), np.matrix_transpose(a))
    check(xp.tensordot(x, y, axes=1), np.tensordot(a, b, axes=1))
    check(xp.tensordot(x, x, axes=([1, 2], [1, 2])), np.tensordot(a, a, axes=([1, 2], [1, 2])))
    check(xp.tensordot(y, y, axes=0), np.tensordot(b, b, axes=0))
    v, c = both(values(-2, 2, (4,), np.float64))
    check(xp.vecdot(x, v), np.vecdot(a, c))
    check(xp.vecdot(x, x, axis=-2), np.vecdot(a, a, axis=-2))
    raises(ValueError, "matrix_transpose", lambda: xp.matrix_transpose(v), "at least 2")


def test_linalg_extension_matches_numpy() -> None:
    la, nla = xp.linalg, np.linalg
    s, m = spd(3)
    for name in ("cholesky", "det", "inv", "eigvalsh", "svdvals", "matrix_rank", "pinv"):
        check(getattr(la, name)(s), getattr(nla, name)(m))
    check(la.cholesky(s, upper=True), nla.cholesky(m, upper=True))
    check(tuple(la.slogdet(s)), tuple(nla.slogdet(m)))
    rhs, r = both(values(-1, 1, (2, 3, 2), np.float64))
    check(la.solve(s, rhs), nla.solve(m, r))
    for ord_ in ("fro", "nuc", 1, -1, 2, float("inf")):
        check(la.matrix_norm(s, ord=ord_), nla.matrix_norm(m, ord=ord_))
    for ord_ in (1, 2, float("inf"), 3):
        check(la.vector_norm(s, axis=(1, 2), ord=ord_), nla.vector_norm(m, axis=(1, 2), ord=ord_))
        check(
            la.vector_norm(s, keepdims=True, ord=ord_), nla.vector_norm(m, keepdims=True, ord=ord_)
        )
    for offset in (-1, 0, 2):
        check(la.diagonal(s, offset=offset), nla.diagonal(m, offset=offset))
        check(la.trace(s, offset=offset), nla.trace(m, offset=offset))
    v, w = both(values(-1, 1, (4, 3), np.float64))
    check(la.cross(v, v[::-1] if False else xp.flip(v, axis=0)), nla.cross(w, w[::-1]))
    check(la.outer(v[0], v[1]), nla.outer(w[0], w[1]))
    check(la.matrix_power(s, 3), nla.matrix_power(m, 3))
    check(la.matmul(s, s), nla.matmul(m, m))
    eigenvalues, eigenvectors = la.eigh(s)
    check(eigenvectors @ (eigenvalues[..., None] * eigenvectors.mT), m)
    rect, n = both(values(-1, 1, (3, 5, 4), np.float64))
    for mode in ("reduced", "complete"):
        q, r_ = la.qr(rect, mode=mode)
        assert q.shape == nla.qr(n, mode=mode).Q.shape
        check(q @ r_, n)
    for full in (True, False):
        u, sv, vh = la.svd(rect, full_matrices=full)
        assert u.shape == nla.svd(n, full_matrices=full).U.shape
        k = sv.shape[-1]
        check((u[..., :k] * sv[..., None, :]) @ vh[..., :k, :], n)


# --- namespace wiring and inspection ------------------------------------------------------

# Every function and constant of the 2024.12 standard, one per line (``linalg.`` for the extension).
NAMES_FILE = Path(__file__).parent / "data" / "array_api_2024_12_names.txt"
NAMES = [line for line in NAMES_FILE.read_text().splitlines() if line and line[0] != "#"]


def _module_of(name: str) -> Any:
    """The namespace or extension (``linalg.``/``fft.``) a standard name lives in."""
    module, _, _ = name.rpartition(".")
    return getattr(xp, module) if module else xp


def test_namespace_has_the_standard_names() -> None:
    assert xp is __import__("ember.array_api").array_api
    assert xp.__array_api_version__ == "2024.12"
    assert len(NAMES) > 150
    missing = [n for n in NAMES if not hasattr(_module_of(n), n.split(".")[-1])]
    assert missing == []
    assert sorted(set(xp.__all__)) == sorted(xp.__all__)
    assert xp.newaxis is None and xp.e == np.e and xp.pi == np.pi and np.isnan(xp.nan)


def test_array_namespace_versions() -> None:
    x = ember.ones(2)
    for version in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
        assert x.__array_namespace__(api_version=version) is xp
    raises(ValueError, "__array_namespace__", lambda: x.__array_namespace__(api_version="2025.12"))
    raises(TypeError, "__array_namespace__", lambda: x.__array_namespace__(api_version=2024))


def test_import_ember_does_not_load_the_namespace() -> None:
    code = "import sys, ember; print('ember.array_api' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_inspection() -> None:
    info = xp.__array_namespace_info__()
    assert info.capabilities()["boolean indexing"] is True
    assert info.default_device() == ember.device("cpu") and info.devices() == [ember.device("cpu")]
    defaults = info.default_dtypes()
    assert defaults["real floating"] == xp.float32 and defaults["indexing"] == xp.int64
    assert set(info.dtypes()) == {
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    }
    assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
    unsigned = {"uint8", "uint16", "uint32", "uint64"}
    assert set(info.dtypes(kind=("bool", "unsigned integer"))) == {"bool", *unsigned}
    raises(ValueError, "dtypes", lambda: info.dtypes(kind="complex"), "unknown kind")


def test_array_attributes_used_by_the_standard() -> None:
    x = xp.ones((2, 3, 4))
    assert x.device == xp.__array_namespace_info__().default_device()
    assert x.mT.shape == (2, 4, 3) and x.ndim == 3 and x.shape == (2, 3, 4)
    assert x[0, xp.newaxis, ...].shape == (1, 3, 4)
    assert x[xp.asarray([True, False])].shape == (1, 3, 4)


# --- bad input -----------------------------------------------------------------------------


@given(st.integers(-8, 8), st.integers(0, 3))
def test_axis_out_of_range_raises_index_error(axis: int, ndim: int) -> None:
    x = xp.ones((2,) * ndim)
    for name in ("sum", "max", "mean", "all", "count_nonzero"):
        fn = getattr(xp, name)
        if -ndim <= axis < ndim:
            assert fn(x, axis=axis).ndim == ndim - 1
        else:
            raises(IndexError, name, lambda fn=fn: fn(x, axis=axis), "out of range")


def test_bad_arguments_raise_typed_errors() -> None:
    x = xp.ones((2, 3))
    raises(ValueError, "sum", lambda: xp.sum(x, axis=(0, 0)), "repeated")
    raises(TypeError, "sum", lambda: xp.sum([1, 2]), "ember array")
    raises(ValueError, "squeeze", lambda: xp.squeeze(x, axis=0), "not of length 1")
    raises(IndexError, "expand_dims", lambda: xp.expand_dims(x, axis=4), "out of range")
    raises(ValueError, "std", lambda: xp.std(x, correction=-1), "non-negative")
    raises(RuntimeError, "zeros", lambda: xp.zeros(2, device="cuda"), "cuda")
    raises(TypeError, "add", lambda: xp.add(1, 2), "scalar")
    raises(TypeError, "nextafter", lambda: xp.nextafter(xp.arange(2), 1), "float32")
    raises(ValueError, "matmul", lambda: xp.matmul(xp.asarray(1.0), x), "0-d")
    raises(ValueError, "vecdot", lambda: xp.vecdot(x, x, axis=1), "negative")
    raises(ValueError, "meshgrid", lambda: xp.meshgrid(x, indexing="ji"), "indexing")
    raises(ValueError, "searchsorted", lambda: xp.searchsorted(x, x), "1-D")
    raises(ValueError, "unstack", lambda: xp.unstack(xp.asarray(1.0)), "0-d")
    raises(ValueError, "sort", lambda: xp.sort(xp.asarray(1.0)), "0-d")
    raises(ValueError, "qr", lambda: xp.linalg.qr(x, mode="r"), "mode")
    raises(TypeError, "full", lambda: xp.full(2, "a"), "fill_value")


def test_zero_d_arrays_promote_like_any_array() -> None:
    # torch (and ember's operators) keep int8 here; the standard promotes to int64.
    x, a = both(values(-5, 5, (3,), np.int8))
    y, b = both(np.asarray(100, np.int64))
    check(xp.add(x, y), np.add(a, b))
    check(xp.multiply(y, x), np.multiply(b, a))
    check(xp.where(x > 0, x, y), np.where(a > 0, a, b))
    f, c = both(np.asarray(0.5, np.float64))
    check(xp.add(xp.astype(x, xp.float32), f), np.add(a.astype(np.float32), c))


@given(shape=shapes(min_side=1, max_dims=4), data=st.data())
def test_reductions_over_random_axes(shape: tuple[int, ...], data: st.DataObject) -> None:
    x, a = both(values(-2, 2, shape, np.float64))
    axes = data.draw(
        st.lists(st.integers(-len(shape), len(shape) - 1), unique_by=lambda i: i % len(shape))
        if shape
        else st.just([])
    )
    axis = data.draw(st.sampled_from([None, tuple(axes)] + ([axes[0]] if axes else [])))
    keepdims = data.draw(st.booleans())
    for name in ("sum", "prod", "max", "min", "mean", "std", "var", "count_nonzero", "any"):
        check(
            getattr(xp, name)(x, axis=axis, keepdims=keepdims),
            getattr(np, name)(a, axis=axis, keepdims=keepdims),
        )


JUNK = [
    None,
    "a",
    -1,
    2**70,
    1.5,
    (),
    (0, 0),
    [1],
    xp.asarray(1.0),
    xp.ones((2, 0)),
    xp.arange(6).reshape((2, 3)),
    xp.asarray([True, False]),
    xp.int8,
]


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in xp.__all__
        if callable(getattr(xp, n)) and not isinstance(getattr(xp, n), type(xp.int8))
    ],
)
@given(args=st.lists(st.sampled_from(JUNK), max_size=3))
def test_junk_arguments_raise_typed_errors(name: str, args: list[Any]) -> None:
    # A result or a typed error starting with "[op]"; exempt, as in test_fuzz_api: Python's own
    # arity errors and nanobind's argument conversion errors.
    try:
        getattr(xp, name)(*args)
    except (TypeError, ValueError, IndexError, RuntimeError, NotImplementedError) as error:
        message = str(error)
        python_arity = re.search(
            r"positional argument|keyword argument|incompatible function", message
        )
        assert message.startswith("[") or python_arity, (name, args, message)


def test_signatures_match_array_api_strict() -> None:
    # Optional reference: runs only where array-api-strict is installed (not a dependency).
    strict = pytest.importorskip("array_api_strict")

    def kinds(fn: Any) -> list[tuple[str, Any]]:
        return [(p.name, p.kind) for p in inspect.signature(fn).parameters.values()]

    # expand_dims: the 2024.12 text says `axis=0` keyword-only, array-api-strict follows the
    # later fix (axis required); ember accepts both spellings.
    for name in NAMES:
        module, _, short = name.rpartition(".")
        ours = getattr(_module_of(name), short)
        theirs = getattr(getattr(strict, module) if module else strict, short, None)
        if callable(theirs) and not isinstance(theirs, type) and short != "expand_dims":
            assert kinds(ours) == kinds(theirs), name
