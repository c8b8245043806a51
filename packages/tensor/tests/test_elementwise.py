"""Every bound elementwise op against NumPy over all dtypes and layouts, plus typed errors.

NumPy is the value oracle; where its semantics differ from torch's, the reference below follows
torch: ``sign(nan) == 0``, ``xlogy(0, y) == 0``, integer ``floor``/``round`` return the input.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ember
from conftest import (
    FLOAT_DTYPES,
    INT_DTYPES,
    NUMPY_DTYPES,
    TOLERANCES,
    np_dtype,
    to_numpy,
    with_layout,
)

ALL = (ember.bool, *INT_DTYPES, *FLOAT_DTYPES)
NUMERIC = (*INT_DTYPES, *FLOAT_DTYPES)
INTEGRAL = (ember.bool, *INT_DTYPES)

Array = np.ndarray


@dataclass(frozen=True)
class Op:
    """One row of the op table: the ember name, its NumPy reference and its contract."""

    name: str
    ref: Callable[..., Any]
    arity: int = 1
    dtypes: tuple[ember.dtype, ...] = ALL
    result: str = "same"  # "same" (promoted), "float" (ints promote to float32), "bool"
    domain: tuple[float, float] = (-3.0, 3.0)  # float inputs
    int_domain: tuple[int, int] = (-20, 20)
    rhs_domain: tuple[float, float] | None = None  # second operand's float domain
    rhs_int_domain: tuple[int, int] | None = None
    in_place: bool = True
    method: bool = True
    # The reference runs in the op's own dtype, not float64 (nextafter's value depends on it).
    own_dtype: bool = False


def _sign(x: Array) -> Array:
    if x.dtype.kind == "b":
        return x.copy()  # NumPy has no sign for bool; torch returns the input
    return np.where(np.isnan(x), 0, np.sign(x)) if x.dtype.kind == "f" else np.sign(x)


def _int_identity(f: Callable[[Array], Array]) -> Callable[[Array], Array]:
    # torch's floor/ceil/trunc/round return integer inputs unchanged (NumPy gives floats).
    return lambda x: x if x.dtype.kind in "iu" else f(x)


def _erf(x: Array) -> Array:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _xlogy(x: Array, y: Array) -> Array:
    with np.errstate(all="ignore"):
        return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log(y)))


UNARY = [
    Op("neg", np.negative, dtypes=NUMERIC),
    Op("negative", np.negative, dtypes=NUMERIC),
    Op("abs", np.abs, dtypes=NUMERIC),
    Op("absolute", np.abs, dtypes=NUMERIC),
    Op("sign", _sign),
    Op("sqrt", np.sqrt, result="float", domain=(0.0, 9.0), int_domain=(0, 20)),
    Op("rsqrt", lambda x: 1 / np.sqrt(x), result="float", domain=(0.1, 9.0), int_domain=(1, 20)),
    Op("exp", np.exp, result="float", int_domain=(-5, 5)),
    Op("exp2", np.exp2, result="float", int_domain=(-5, 5)),
    Op("expm1", np.expm1, result="float", int_domain=(-5, 5)),
    Op("log", np.log, result="float", domain=(0.1, 9.0), int_domain=(1, 20)),
    Op("log2", np.log2, result="float", domain=(0.1, 9.0), int_domain=(1, 20)),
    Op("log10", np.log10, result="float", domain=(0.1, 9.0), int_domain=(1, 20)),
    Op("log1p", np.log1p, result="float", domain=(-0.9, 9.0), int_domain=(0, 20)),
    Op("sin", np.sin, result="float"),
    Op("cos", np.cos, result="float"),
    Op("tan", np.tan, result="float", domain=(-1.2, 1.2), int_domain=(-1, 1)),
    Op("asin", np.arcsin, result="float", domain=(-0.95, 0.95), int_domain=(-1, 1)),
    Op("arcsin", np.arcsin, result="float", domain=(-0.95, 0.95), int_domain=(-1, 1)),
    Op("acos", np.arccos, result="float", domain=(-0.95, 0.95), int_domain=(-1, 1)),
    Op("arccos", np.arccos, result="float", domain=(-0.95, 0.95), int_domain=(-1, 1)),
    Op("atan", np.arctan, result="float"),
    Op("arctan", np.arctan, result="float"),
    Op("sinh", np.sinh, result="float", int_domain=(-5, 5)),
    Op("cosh", np.cosh, result="float", int_domain=(-5, 5)),
    Op("tanh", np.tanh, result="float"),
    Op("asinh", np.arcsinh, result="float"),
    Op("arcsinh", np.arcsinh, result="float"),
    Op("acosh", np.arccosh, result="float", domain=(1.1, 9.0), int_domain=(1, 20)),
    Op("arccosh", np.arccosh, result="float", domain=(1.1, 9.0), int_domain=(1, 20)),
    Op("atanh", np.arctanh, result="float", domain=(-0.9, 0.9), int_domain=(0, 0)),
    Op("arctanh", np.arctanh, result="float", domain=(-0.9, 0.9), int_domain=(0, 0)),
    Op("sigmoid", lambda x: 1 / (1 + np.exp(-x)), result="float"),
    Op("relu", lambda x: np.maximum(x, 0).astype(x.dtype), dtypes=NUMERIC),
    Op("erf", _erf, result="float"),
    Op("erfc", lambda x: 1 - _erf(x), result="float", domain=(-3.0, 2.0)),
    Op("floor", _int_identity(np.floor), dtypes=NUMERIC),
    Op("ceil", _int_identity(np.ceil), dtypes=NUMERIC),
    Op("trunc", _int_identity(np.trunc), dtypes=NUMERIC),
    Op("fix", _int_identity(np.trunc), dtypes=NUMERIC),
    Op("round", _int_identity(np.round), dtypes=NUMERIC),
    Op("frac", lambda x: x - np.trunc(x), dtypes=FLOAT_DTYPES),
    Op("reciprocal", lambda x: 1 / x, result="float", domain=(0.25, 4.0), int_domain=(1, 9)),
    Op("square", np.square, dtypes=NUMERIC, int_domain=(-9, 9)),
    Op("bitwise_not", np.invert, dtypes=INTEGRAL),
    Op("positive", lambda x: x, dtypes=NUMERIC, in_place=False),
    Op("isnan", np.isnan, result="bool", in_place=False),
    Op("isinf", np.isinf, result="bool", in_place=False),
    Op("isfinite", np.isfinite, result="bool", in_place=False),
    Op("isposinf", np.isposinf, result="bool", in_place=False),
    Op("isneginf", np.isneginf, result="bool", in_place=False),
    Op("logical_not", np.logical_not, result="bool", in_place=False),
]

POSITIVE = (0.5, 3.0)
BINARY = [
    Op("mul", np.multiply, 2),
    Op("multiply", np.multiply, 2),
    Op(
        "true_divide", np.true_divide, 2, result="float", rhs_domain=POSITIVE, rhs_int_domain=(1, 9)
    ),
    Op(
        "floor_divide",
        np.floor_divide,
        2,
        dtypes=NUMERIC,
        rhs_domain=POSITIVE,
        rhs_int_domain=(1, 9),
    ),
    Op("remainder", np.remainder, 2, dtypes=NUMERIC, rhs_domain=POSITIVE, rhs_int_domain=(1, 9)),
    Op("fmod", np.fmod, 2, dtypes=NUMERIC, rhs_domain=POSITIVE, rhs_int_domain=(1, 9)),
    Op(
        "pow",
        np.power,
        2,
        dtypes=NUMERIC,
        domain=POSITIVE,
        int_domain=(-3, 3),
        rhs_domain=(-2.0, 2.0),
        rhs_int_domain=(0, 3),
    ),
    Op("atan2", np.arctan2, 2, result="float"),
    Op("arctan2", np.arctan2, 2, result="float"),
    Op("maximum", np.maximum, 2),
    Op("minimum", np.minimum, 2),
    Op("fmax", np.fmax, 2),
    Op("fmin", np.fmin, 2),
    Op("bitwise_and", np.bitwise_and, 2, dtypes=INTEGRAL),
    Op("bitwise_or", np.bitwise_or, 2, dtypes=INTEGRAL),
    Op("bitwise_xor", np.bitwise_xor, 2, dtypes=INTEGRAL),
    Op(
        "bitwise_left_shift",
        np.left_shift,
        2,
        dtypes=INT_DTYPES,
        int_domain=(-9, 9),
        rhs_int_domain=(0, 3),
    ),
    Op("bitwise_right_shift", np.right_shift, 2, dtypes=INT_DTYPES, rhs_int_domain=(0, 3)),
    Op("copysign", np.copysign, 2, result="float"),
    Op("hypot", np.hypot, 2, dtypes=FLOAT_DTYPES),
    # bfloat16 is checked against float32's answer here (within its tolerance), exactly in
    # test_float_parts.py.
    Op("nextafter", np.nextafter, 2, dtypes=FLOAT_DTYPES, own_dtype=True),
    Op("xlogy", _xlogy, 2, result="float", rhs_domain=POSITIVE, rhs_int_domain=(1, 9)),
    Op("eq", np.equal, 2, result="bool", int_domain=(-2, 2)),
    Op("ne", np.not_equal, 2, result="bool", int_domain=(-2, 2)),
    Op("not_equal", np.not_equal, 2, result="bool", int_domain=(-2, 2)),
    Op("lt", np.less, 2, result="bool"),
    Op("less", np.less, 2, result="bool"),
    Op("le", np.less_equal, 2, result="bool", int_domain=(-2, 2)),
    Op("less_equal", np.less_equal, 2, result="bool", int_domain=(-2, 2)),
    Op("gt", np.greater, 2, result="bool"),
    Op("greater", np.greater, 2, result="bool"),
    Op("ge", np.greater_equal, 2, result="bool", int_domain=(-2, 2)),
    Op("greater_equal", np.greater_equal, 2, result="bool", int_domain=(-2, 2)),
    Op("logical_and", np.logical_and, 2, result="bool", int_domain=(-1, 1)),
    Op("logical_or", np.logical_or, 2, result="bool", int_domain=(-1, 1)),
    Op("logical_xor", np.logical_xor, 2, result="bool", int_domain=(-1, 1)),
    Op("add", np.add, 2),
    Op("sub", np.subtract, 2, dtypes=NUMERIC),
    Op("subtract", np.subtract, 2, dtypes=NUMERIC, method=False, in_place=False),
    Op("div", np.true_divide, 2, result="float", rhs_domain=POSITIVE, rhs_int_domain=(1, 9)),
    Op("divide", np.true_divide, 2, result="float", rhs_domain=POSITIVE, rhs_int_domain=(1, 9)),
]
# Comparisons have no tensor-returning in-place form in this table's sense (they write 0/1).
OPS = UNARY + BINARY


# ---- inputs -----------------------------------------------------------------------------------

RNG = np.random.default_rng(1234)


def values(op: Op, dtype: ember.dtype, shape: tuple[int, ...], rhs: bool = False) -> Array:
    """Random values in the op's domain, as float64 (floats) or int64 (ints/bool)."""
    if dtype == ember.bool:
        return RNG.integers(0, 2, size=shape).astype(np.int64)
    if dtype.is_floating_point:
        lo, hi = op.rhs_domain if rhs and op.rhs_domain else op.domain
        return RNG.uniform(lo, hi, size=shape)
    lo_i, hi_i = op.rhs_int_domain if rhs and op.rhs_int_domain else op.int_domain
    info = ember.iinfo(dtype)
    lo_i, hi_i = max(lo_i, info.min), min(hi_i, info.max)
    return RNG.integers(lo_i, hi_i + 1, size=shape)


def make(raw: Array, dtype: ember.dtype, layout: str) -> tuple[ember.Tensor, Array]:
    """An ember tensor with `layout` holding `raw` in `dtype`, and its exact values in NumPy."""
    typed = raw.astype(np_dtype(dtype))
    if dtype == ember.bfloat16:
        t = ember.from_numpy(typed).bfloat16()
        return t, to_numpy(t)
    array = with_layout(typed, layout)
    return ember.from_numpy(array), array.copy()


LAYOUTS = {
    # layout: (shape of input a, shape of input b)
    "contiguous": ((3, 5), (3, 5)),
    "transposed": ((4, 3), (4, 3)),
    "strided": ((3, 4), (3, 4)),
    "negative": ((5, 2), (5, 2)),
    "broadcast": ((3, 1), (1, 4)),
    "scalar_rhs": ((2, 3), ()),
    "zero_dim": ((), ()),
    "empty": ((0, 3), (0, 3)),
}


def result_dtype(op: Op, dtypes: list[ember.dtype], tensors: list[ember.Tensor]) -> ember.dtype:
    if op.result == "bool":
        return ember.bool
    promoted = tensors[0].dtype if len(tensors) == 1 else ember.result_type(*tensors)
    if op.result == "float" and not promoted.is_floating_point:
        return ember.get_default_dtype()
    return promoted


def reference(op: Op, arrays: list[Array], out_dtype: ember.dtype) -> Array:
    """NumPy's answer in float64 for float results, in the exact integer dtype otherwise."""
    with np.errstate(all="ignore"):
        if out_dtype.is_floating_point and op.own_dtype:
            expected = op.ref(*(a.astype(np_dtype(out_dtype)) for a in arrays))
        elif out_dtype.is_floating_point:
            expected = op.ref(*(a.astype(np.float64) for a in arrays))
        elif op.result == "bool":
            expected = op.ref(*arrays)
        else:
            expected = op.ref(*(a.astype(np_dtype(out_dtype)) for a in arrays))
    return np.asarray(expected)


def check(actual: ember.Tensor, expected: Array, dtype: ember.dtype) -> None:
    assert actual.dtype == dtype, (actual.dtype, dtype)
    assert tuple(actual.shape) == expected.shape, (actual.shape, expected.shape)
    got = to_numpy(actual)
    if dtype.is_floating_point:
        rtol, atol = TOLERANCES[dtype]
        if dtype == ember.float16:
            rtol = 2e-3  # the float32 result rounds to half; the float64 reference may not tie
        cast = expected.astype(np_dtype(dtype))
        np.testing.assert_allclose(got, cast, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))


# ---- the table test ---------------------------------------------------------------------------


def op_dtype_cases() -> list[Any]:
    return [
        pytest.param(op, dtype, id=f"{op.name}-{repr(dtype).removeprefix('ember.')}")
        for op in OPS
        for dtype in op.dtypes
    ]


@pytest.mark.parametrize(("op", "dtype"), op_dtype_cases())
def test_op_matches_numpy(op: Op, dtype: ember.dtype) -> None:
    fn = getattr(ember, op.name)
    for layout, shapes in LAYOUTS.items():
        raws = [values(op, dtype, shapes[i], rhs=i == 1) for i in range(op.arity)]
        made = [make(raw, dtype, layout) for raw in raws]
        tensors = [t for t, _ in made]
        arrays = [a for _, a in made]
        out_dtype = result_dtype(op, [dtype] * op.arity, tensors)
        expected = reference(op, arrays, out_dtype)
        result = fn(*tensors)
        check(result, expected, out_dtype)
        if op.method:
            check(getattr(tensors[0], op.name)(*tensors[1:]), expected, out_dtype)
        # The inputs are untouched (and keep their layout).
        for t, a in zip(tensors, arrays, strict=True):
            np.testing.assert_array_equal(to_numpy(t), a)
        if layout == "contiguous":
            check_out_and_in_place(op, tensors, arrays, out_dtype, expected)


def check_out_and_in_place(
    op: Op,
    tensors: list[ember.Tensor],
    arrays: list[Array],
    out_dtype: ember.dtype,
    expected: Array,
) -> None:
    fn = getattr(ember, op.name)
    if out_dtype != ember.bfloat16:
        out = ember.from_numpy(np.zeros(expected.shape, dtype=NUMPY_DTYPES[out_dtype]))
        assert fn(*tensors, out=out) is out
        check(out, expected, out_dtype)
        # out= of the wrong shape is resized, as in torch.
        resized = ember.from_numpy(np.zeros((1,), dtype=NUMPY_DTYPES[out_dtype]))
        fn(*tensors, out=resized)
        check(resized, expected, out_dtype)
    if not op.in_place or op.result == "bool":
        return
    self_t = tensors[0].clone()
    in_place = getattr(self_t, op.name + "_")
    if out_dtype == self_t.dtype:
        assert in_place(*tensors[1:]) is self_t
        check(self_t, expected, out_dtype)
    else:
        with pytest.raises(RuntimeError, match=r"can't be cast to the desired output type"):
            in_place(*tensors[1:])


def unsupported_cases() -> list[Any]:
    return [
        pytest.param(op, dtype, id=f"{op.name}-{repr(dtype).removeprefix('ember.')}")
        for op in OPS
        for dtype in ALL
        if dtype not in op.dtypes and (op.name, dtype) not in TESTED_ELSEWHERE
    ]


# Supported, but with a result dtype the table cannot express (see test_bool_inputs_...).
TESTED_ELSEWHERE = {("square", ember.bool)}


@pytest.mark.parametrize(("op", "dtype"), unsupported_cases())
def test_unsupported_dtypes_raise_type_error(op: Op, dtype: ember.dtype) -> None:
    args = [ember.tensor([1, 1], dtype=dtype)] * op.arity
    name = repr(dtype).removeprefix("ember.")
    with pytest.raises(TypeError, match=rf"^\[\w+\] .*{name}"):
        getattr(ember, op.name)(*args)


SPECIAL = np.array(
    [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-30, 1e30, 100.0, -100.0, 1e-8]
)


@pytest.mark.parametrize("dtype", [ember.float16, ember.float32, ember.float64], ids=repr)
def test_special_values_match_numpy(dtype: ember.dtype) -> None:
    # nan, infinities, signed zeros, tiny and huge values through every floating op.
    with np.errstate(over="ignore"):
        x, x_np = make(np.repeat(SPECIAL, len(SPECIAL)), dtype, "contiguous")
        y, y_np = make(np.tile(SPECIAL, len(SPECIAL)), dtype, "contiguous")
    for op in OPS:
        if dtype not in op.dtypes:
            continue
        tensors, arrays = ([x], [x_np]) if op.arity == 1 else ([x, y], [x_np, y_np])
        out_dtype = ember.bool if op.result == "bool" else dtype
        with np.errstate(over="ignore"):
            try:
                check(
                    getattr(ember, op.name)(*tensors), reference(op, arrays, out_dtype), out_dtype
                )
            except AssertionError as error:
                raise AssertionError(f"{op.name}: {error}") from None


# ---- ops with extra arguments -----------------------------------------------------------------


@pytest.mark.parametrize("dtype", NUMERIC, ids=repr)
def test_add_sub_alpha(dtype: ember.dtype) -> None:
    a_raw, b_raw = RNG.integers(-5, 5, (2, 3)), RNG.integers(-5, 5, (3,))
    a, a_np = make(a_raw, dtype, "strided")
    b, b_np = make(b_raw, dtype, "contiguous")
    wide = np.float64 if dtype.is_floating_point else np.int64
    for alpha in (1, 2, -3):
        check(ember.add(a, b, alpha=alpha), (a_np.astype(wide) + alpha * b_np.astype(wide)), dtype)
        check(ember.sub(a, b, alpha=alpha), (a_np.astype(wide) - alpha * b_np.astype(wide)), dtype)
        check(a.add(b, alpha=alpha), (a_np.astype(wide) + alpha * b_np.astype(wide)), dtype)
    if dtype.is_floating_point:
        check(ember.add(a, b, alpha=0.5), a_np.astype(wide) + 0.5 * b_np.astype(wide), dtype)
        c = a.clone()
        c.sub_(b, alpha=0.5)
        check(c, a_np.astype(wide) - 0.5 * b_np.astype(wide), dtype)
    else:
        with pytest.raises(TypeError, match=r"\[add\] .*alpha must not be a floating point"):
            ember.add(a, b, alpha=0.5)


def test_add_bool_is_logical_or() -> None:
    a = ember.tensor([True, False, False])
    b = ember.tensor([True, True, False])
    assert ember.add(a, b).tolist() == [True, True, False]
    assert (a + b).dtype == ember.bool


@pytest.mark.parametrize("dtype", NUMERIC, ids=repr)
def test_div_rounding_modes(dtype: ember.dtype) -> None:
    a, a_np = make(RNG.integers(-20, 20, (4, 5)), dtype, "transposed")
    b, b_np = make(RNG.integers(1, 6, (4, 5)) * RNG.choice([-1, 1], (4, 5)), dtype, "negative")
    af, bf = a_np.astype(np.float64), b_np.astype(np.float64)
    float_out = dtype if dtype.is_floating_point else ember.float32
    check(ember.div(a, b), af / bf, float_out)
    check(ember.div(a, b, rounding_mode="trunc"), np.trunc(af / bf), dtype)
    check(ember.div(a, b, rounding_mode="floor"), np.floor(af / bf), dtype)
    check(a.div(b, rounding_mode="floor"), np.floor(af / bf), dtype)
    c = a.clone()
    c.div_(b, rounding_mode="trunc")
    check(c, np.trunc(af / bf), dtype)
    with pytest.raises(ValueError, match=r"\[div\] expected rounding_mode to be one of"):
        ember.div(a, b, rounding_mode="round")


def test_python_semantics_of_floor_divide_and_remainder() -> None:
    # Like Python (and NumPy): the remainder takes the divisor's sign; fmod takes the dividend's.
    a = ember.tensor([-7, 7, -7, 7])
    b = ember.tensor([2, -2, -2, 2])
    assert ember.floor_divide(a, b).tolist() == [-7 // 2, 7 // -2, -7 // -2, 7 // 2]
    assert ember.remainder(a, b).tolist() == [-7 % 2, 7 % -2, -7 % -2, 7 % 2]
    assert ember.fmod(a, b).tolist() == [-1, 1, -1, 1]
    assert ember.remainder(ember.tensor([-3.0, 3.0]), ember.tensor([2.0, -2.0])).tolist() == [
        1.0,
        -1.0,
    ]


def test_torch_semantics_where_numpy_differs() -> None:
    nan = math.nan
    # sign(nan) is 0 in torch (NumPy returns nan).
    assert ember.sign(ember.tensor([nan, -0.0, 2.0, -3.0])).tolist() == [0.0, 0.0, 1.0, -1.0]
    # round is half-to-even.
    assert ember.round(ember.tensor([0.5, 1.5, 2.5, -0.5, -1.5])).tolist() == [
        0.0,
        2.0,
        2.0,
        -0.0,
        -2.0,
    ]
    # xlogy(0, y) is 0 even for y == 0, but nan when y is nan.
    assert ember.xlogy(ember.tensor([0.0, 0.0]), ember.tensor([0.0, nan])).tolist()[0] == 0.0
    assert math.isnan(ember.xlogy(ember.tensor([0.0]), ember.tensor([nan])).item())
    # maximum/minimum propagate nan; fmax/fmin ignore it.
    x, y = ember.tensor([nan, 1.0]), ember.tensor([2.0, nan])
    assert all(math.isnan(v) for v in ember.maximum(x, y).tolist())
    assert ember.fmax(x, y).tolist() == [2.0, 1.0]
    assert ember.fmin(x, y).tolist() == [2.0, 1.0]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_round_decimals(dtype: ember.dtype) -> None:
    raw = RNG.uniform(-50, 50, (3, 4))
    t, array = make(raw, dtype, "strided")
    for decimals in (1, 2, -1):
        expected = np.round(array.astype(np.float64), decimals)
        check(ember.round(t, decimals=decimals), expected, dtype)
        check(t.round(decimals=decimals), expected, dtype)
    c = t.clone()
    c.round_(decimals=1)
    check(c, np.round(array.astype(np.float64), 1), dtype)
    with pytest.raises(TypeError, match=r"\[round\] decimals is only supported for floating"):
        ember.round(ember.tensor([1, 2]), decimals=1)


@pytest.mark.parametrize("dtype", ALL, ids=repr)
def test_where(dtype: ember.dtype) -> None:
    cond_np = RNG.integers(0, 2, (3, 4)).astype(bool)
    cond = ember.from_numpy(cond_np)
    a, a_np = make(RNG.integers(-5, 5, (3, 4)), dtype, "transposed")
    b, b_np = make(RNG.integers(-5, 5, (4,)), dtype, "contiguous")
    check(ember.where(cond, a, b), np.where(cond_np, a_np, b_np).astype(np.float64), dtype)
    check(a.where(cond, b), np.where(cond_np, a_np, b_np).astype(np.float64), dtype)
    mixed = ember.where(cond, a, 2.5)
    assert mixed.dtype == (dtype if dtype.is_floating_point else ember.float32)
    with pytest.raises(TypeError, match=r"\[where\] expected condition to be a bool tensor"):
        ember.where(ember.tensor([1]), a, b)


@pytest.mark.parametrize("dtype", NUMERIC, ids=repr)
def test_clamp_and_clip(dtype: ember.dtype) -> None:
    t, array = make(RNG.integers(-10, 10, (4, 5)), dtype, "negative")
    wide = array.astype(np.float64)
    lo = 0 if dtype == ember.uint8 else -3
    for name in ("clamp", "clip"):
        check(getattr(ember, name)(t, lo, 4), np.clip(wide, lo, 4), dtype)
        check(getattr(ember, name)(t, min=lo), np.maximum(wide, lo), dtype)
        check(getattr(ember, name)(t, max=4), np.minimum(wide, 4), dtype)
        check(getattr(t, name)(lo, 4), np.clip(wide, lo, 4), dtype)
    check(ember.clamp_min(t, 2), np.maximum(wide, 2), dtype)
    check(ember.clamp_max(t, 2), np.minimum(wide, 2), dtype)
    bounds_lo, lo_np = make(
        RNG.integers(-5, 0, (5,)).clip(0 if dtype == ember.uint8 else -5), dtype, "contiguous"
    )
    bounds_hi, hi_np = make(RNG.integers(1, 5, (4, 1)), dtype, "contiguous")
    expected = np.minimum(np.maximum(wide, lo_np), hi_np)
    check(ember.clamp(t, bounds_lo, bounds_hi), expected, dtype)
    c = t.clone()
    c.clamp_(lo, 4)
    check(c, np.clip(wide, lo, 4), dtype)
    with pytest.raises(RuntimeError, match=r"\[clamp\] at least one of 'min' or 'max'"):
        ember.clamp(t)
    if not dtype.is_floating_point:
        # A float bound promotes the result, and then in-place clamp must refuse.
        assert ember.clamp(t, 0.5, 2.5).dtype == ember.float32
        with pytest.raises(RuntimeError, match=r"\[clamp_\] result type float32 can't be cast"):
            t.clone().clamp_(0.5, 2.5)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_lerp(dtype: ember.dtype) -> None:
    start, s_np = make(RNG.uniform(-2, 2, (3, 4)), dtype, "strided")
    end, e_np = make(RNG.uniform(-2, 2, (4,)), dtype, "contiguous")
    weight, w_np = make(RNG.uniform(0, 1, (3, 1)), dtype, "contiguous")
    s64, e64 = s_np.astype(np.float64), e_np.astype(np.float64)
    check(ember.lerp(start, end, 0.25), s64 + 0.25 * (e64 - s64), dtype)
    check(start.lerp(end, weight), s64 + w_np.astype(np.float64) * (e64 - s64), dtype)
    c = start.clone()
    c.lerp_(end, 0.75)
    check(c, s64 + 0.75 * (e64 - s64), dtype)
    other = ember.float64 if dtype != ember.float64 else ember.float32
    with pytest.raises(TypeError, match=r"\[lerp\] expected dtype"):
        ember.lerp(start, end.to(other), 0.5)
    with pytest.raises(TypeError, match=r"\[lerp\] expected dtype"):
        ember.lerp(start, end, weight.to(other))


def test_lerp_rejects_integers() -> None:
    with pytest.raises(TypeError, match=r"\[lerp\] not supported for dtype int64"):
        ember.lerp(ember.tensor([1]), ember.tensor([2]), 0.5)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_nan_to_num(dtype: ember.dtype) -> None:
    raw = np.array([[np.nan, np.inf, -np.inf], [1.5, -2.0, 0.0]])
    t, array = make(raw, dtype, "transposed")
    info = ember.finfo(dtype)
    expected = np.nan_to_num(array.astype(np.float64), nan=0.0, posinf=info.max, neginf=info.min)
    check(ember.nan_to_num(t), expected, dtype)
    custom = np.nan_to_num(array.astype(np.float64), nan=1.0, posinf=9.0, neginf=-9.0)
    check(ember.nan_to_num(t, nan=1.0, posinf=9.0, neginf=-9.0), custom, dtype)
    check(t.nan_to_num(1.0, 9.0, -9.0), custom, dtype)
    c = t.clone()
    c.nan_to_num_(nan=1.0, posinf=9.0, neginf=-9.0)
    check(c, custom, dtype)


def test_nan_to_num_leaves_integers_alone() -> None:
    assert ember.nan_to_num(ember.tensor([1, -2])).tolist() == [1, -2]


@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=repr)
def test_isclose_allclose_equal(dtype: ember.dtype) -> None:
    a = ember.tensor([1.0, math.nan, math.inf, -math.inf, 2.0, 0.0], dtype=dtype)
    b = ember.tensor([1.0 + 1e-6, math.nan, math.inf, math.inf, 2.5, 1e-9], dtype=dtype)
    a_np, b_np = to_numpy(a), to_numpy(b)
    for equal_nan in (False, True):
        expected = np.isclose(a_np, b_np, equal_nan=equal_nan)
        assert ember.isclose(a, b, equal_nan=equal_nan).tolist() == expected.tolist()
        assert a.isclose(b, equal_nan=equal_nan).tolist() == expected.tolist()
    loose = np.isclose(a_np, b_np, rtol=0.5, atol=0.1, equal_nan=True)
    assert ember.isclose(a, b, rtol=0.5, atol=0.1, equal_nan=True).tolist() == loose.tolist()
    assert ember.allclose(a, a, equal_nan=True) is True
    assert ember.allclose(a, b) is False
    assert ember.equal(b, b) is False  # nan != nan
    two = ember.tensor([1.0, 2.0], dtype=dtype)
    assert ember.equal(two, two.clone())
    with pytest.raises(TypeError, match=r"\[isclose\] expected both inputs to have the same dtype"):
        ember.isclose(a, a.to(ember.float64 if dtype != ember.float64 else ember.float32))
    with pytest.raises(ValueError, match=r"\[isclose\] rtol and atol must be non-negative"):
        ember.isclose(a, a, rtol=-1.0)


def test_isclose_integers_and_equal_shapes() -> None:
    a, b = ember.tensor([1, 2, 3]), ember.tensor([1, 2, 4])
    assert ember.isclose(a, b).tolist() == [True, True, False]
    assert ember.allclose(a, a)
    assert ember.equal(a, a.clone())
    assert not ember.equal(a, b)
    assert not ember.equal(a, ember.tensor([[1, 2, 3]]))  # shapes differ: not equal


def test_predicates_on_special_values() -> None:
    for dtype in FLOAT_DTYPES:
        t = ember.tensor([math.nan, math.inf, -math.inf, 0.0, -1.0], dtype=dtype)
        array = to_numpy(t)
        assert ember.isnan(t).tolist() == np.isnan(array).tolist()
        assert ember.isinf(t).tolist() == np.isinf(array).tolist()
        assert ember.isfinite(t).tolist() == np.isfinite(array).tolist()
        assert ember.isposinf(t).tolist() == np.isposinf(array).tolist()
        assert ember.isneginf(t).tolist() == np.isneginf(array).tolist()
        assert ember.logical_not(t).tolist() == np.logical_not(array).tolist()


# ---- operators --------------------------------------------------------------------------------

OPERATORS: list[tuple[str, Callable[[Any, Any], Any], str]] = [
    ("+", operator.add, "add"),
    ("-", operator.sub, "sub"),
    ("*", operator.mul, "mul"),
    ("/", operator.truediv, "true_divide"),
    ("//", operator.floordiv, "floor_divide"),
    ("%", operator.mod, "remainder"),
    ("**", operator.pow, "pow"),
    ("&", operator.and_, "bitwise_and"),
    ("|", operator.or_, "bitwise_or"),
    ("^", operator.xor, "bitwise_xor"),
    ("<<", operator.lshift, "bitwise_left_shift"),
    (">>", operator.rshift, "bitwise_right_shift"),
    ("==", operator.eq, "eq"),
    ("!=", operator.ne, "ne"),
    ("<", operator.lt, "lt"),
    ("<=", operator.le, "le"),
    (">", operator.gt, "gt"),
    (">=", operator.ge, "ge"),
]
IN_PLACE_OPERATORS = {
    "+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
    "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow, "&": operator.iand,
    "|": operator.ior, "^": operator.ixor, "<<": operator.ilshift, ">>": operator.irshift,
}  # fmt: skip


@pytest.mark.parametrize(("symbol", "fn", "name"), OPERATORS, ids=[o[0] for o in OPERATORS])
@pytest.mark.parametrize("dtype", [ember.int32, ember.float32, ember.float64], ids=repr)
def test_operators_match_the_named_ops(
    symbol: str, fn: Callable[[Any, Any], Any], name: str, dtype: ember.dtype
) -> None:
    if dtype.is_floating_point and name.startswith("bitwise"):
        with pytest.raises(TypeError, match=r"^\[\w+\] not supported for dtype float"):
            fn(ember.tensor([1.0], dtype=dtype), ember.tensor([1.0], dtype=dtype))
        return
    a = ember.tensor([[3, 5, 7], [1, 2, 6]], dtype=dtype)
    b = ember.tensor([1, 2, 3], dtype=dtype)
    named = getattr(ember, name)
    assert ember.equal(fn(a, b), named(a, b))
    # A Python number on either side (the reflected operator for the left side).
    assert ember.equal(fn(a, 2), named(a, 2))
    assert ember.equal(fn(2, a), named(ember.tensor(2, dtype=dtype), a))
    if symbol in IN_PLACE_OPERATORS:
        c = a.clone()
        expected = named(a, b)
        if expected.dtype == c.dtype:
            result = IN_PLACE_OPERATORS[symbol](c, b)
            assert result is c
            assert ember.equal(c, expected)
        else:
            with pytest.raises(RuntimeError, match=r"can't be cast to the desired output type"):
                IN_PLACE_OPERATORS[symbol](c, b)


def test_bool_inputs_of_sign_and_square() -> None:
    t = ember.tensor([True, False])
    assert ember.sign(t).tolist() == [True, False] and ember.sign(t).dtype == ember.bool
    assert ember.square(t).tolist() == [1, 0] and ember.square(t).dtype == ember.int64
    with pytest.raises(RuntimeError, match=r"\[square_\] result type int64 can't be cast"):
        t.square_()


def test_unary_operators() -> None:
    t = ember.tensor([-1.5, 2.0])
    assert (-t).tolist() == [1.5, -2.0]
    assert (+t) is t
    assert abs(t).tolist() == [1.5, 2.0]
    assert (~ember.tensor([0, -1], dtype=ember.int8)).tolist() == [-1, 0]
    assert (~ember.tensor([True, False])).tolist() == [False, True]
    with pytest.raises(TypeError, match=r"\[neg\] negation, the `-` operator, on a bool tensor"):
        _ = -ember.tensor([True])
    with pytest.raises(TypeError, match=r"\[bitwise_not\] not supported for dtype float32"):
        _ = ~t


def test_operators_with_unsupported_operands_return_not_implemented() -> None:
    t = ember.tensor([1.0])
    assert (t == None) is False  # noqa: E711
    assert (t != "a") is True
    with pytest.raises(TypeError):
        _ = t + "a"
    with pytest.raises(TypeError):
        _ = [1] * t


# ---- hypothesis: broadcasting over random shapes and dtypes -----------------------------------

BROADCAST_OPS = [op for op in BINARY if op.name in ("add", "mul", "maximum", "atan2", "lt")]


@given(
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
    op_index=st.integers(0, len(BROADCAST_OPS) - 1),
    a_dtype=st.sampled_from([d for d in ALL if d != ember.bfloat16]),
    b_dtype=st.sampled_from([d for d in ALL if d != ember.bfloat16]),
)
def test_broadcasting_and_mixed_dtypes(
    shapes: Any, op_index: int, a_dtype: ember.dtype, b_dtype: ember.dtype
) -> None:
    op = BROADCAST_OPS[op_index]
    (a_shape, b_shape), result_shape = shapes.input_shapes, shapes.result_shape
    a, a_np = make(values(op, a_dtype, a_shape), a_dtype, "contiguous")
    b, b_np = make(values(op, b_dtype, b_shape), b_dtype, "negative")
    if a_dtype == b_dtype == ember.bool and op.name == "add":
        expected_dtype = ember.bool
    else:
        expected_dtype = result_dtype(op, [a_dtype, b_dtype], [a, b])
    # Both operands are cast to the common dtype first, comparisons included: as in torch,
    # `uint8_tensor < tensor(-15)` compares against 241. Float-only ops on integers cast
    # straight to float instead (atan2(uint8, tensor(-15)) sees -15).
    common = ember.result_type(a, b)
    if op.result != "float" or common.is_floating_point:
        a_np, b_np = a_np.astype(NUMPY_DTYPES[common]), b_np.astype(NUMPY_DTYPES[common])
    expected = reference(op, [a_np, b_np], expected_dtype)
    result = getattr(ember, op.name)(a, b)
    assert tuple(result.shape) == result_shape
    check(result, np.broadcast_to(expected, result_shape), expected_dtype)


VIEW_DTYPES = [ember.bool, ember.uint8, ember.int16, ember.int64, ember.float16, ember.float64]


@given(data=st.data(), dtype=st.sampled_from(VIEW_DTYPES), op_index=st.integers(0, len(OPS) - 1))
def test_ops_on_random_numpy_views(data: st.DataObject, dtype: ember.dtype, op_index: int) -> None:
    # Any basic slice of an array (negative steps, new axes, 0-d results, empty) is a valid input.
    op = OPS[op_index]
    if dtype not in op.dtypes:
        return
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=5))
    base = values(op, dtype, shape).astype(np_dtype(dtype))
    index = data.draw(hnp.basic_indices(shape, allow_newaxis=True))
    view = base[index][...]  # [...] keeps a fully indexed result a 0-d view
    operands = [view]
    if op.arity == 2:
        other = values(op, dtype, view.shape, rhs=True).astype(np_dtype(dtype))
        operands.append(other[..., ::-1] if other.ndim else other)
    tensors = [ember.from_numpy(a) for a in operands]
    out_dtype = result_dtype(op, [dtype] * op.arity, tensors)
    check(getattr(ember, op.name)(*tensors), reference(op, operands, out_dtype), out_dtype)


# ---- bad inputs -------------------------------------------------------------------------------


@given(
    a_shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=4),
    extra=st.integers(1, 3),
)
def test_mismatched_shapes_raise_runtime_error(a_shape: tuple[int, ...], extra: int) -> None:
    b_shape = (*a_shape[:-1], a_shape[-1] + extra)
    a = ember.from_numpy(np.zeros(a_shape, dtype=np.float32))
    b = ember.from_numpy(np.zeros(b_shape, dtype=np.float32))
    for fn in (ember.add, ember.mul, ember.lt, ember.atan2, operator.add):
        with pytest.raises(RuntimeError, match=r"^\[\w+\] shapes") as info:
            fn(a, b)
        assert str(a_shape).replace(",)", ")") in str(info.value).replace(",)", ")")
        assert str(b_shape).replace(",)", ")") in str(info.value).replace(",)", ")")


def test_in_place_cannot_broadcast_self() -> None:
    a = ember.tensor([1.0, 2.0])
    b = ember.tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(RuntimeError, match=r"^\[add\] output with shape \(2,\) doesn't match"):
        a.add_(b)


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=repr)
def test_integer_division_by_zero_raises(dtype: ember.dtype) -> None:
    a = ember.tensor([4, 5], dtype=dtype)
    zero = ember.tensor([1, 0], dtype=dtype)
    for fn in (ember.floor_divide, ember.remainder, ember.fmod, operator.floordiv, operator.mod):
        with pytest.raises(RuntimeError, match=r"^\[\w+\] ZeroDivisionError"):
            fn(a, zero)
    with pytest.raises(RuntimeError, match=r"ZeroDivisionError"):
        ember.div(a, 0, rounding_mode="trunc")
    # True division promotes to float: x / 0 is inf, not an error.
    assert ember.div(a, 0).tolist() == [math.inf, math.inf]


def test_bool_subtraction_and_negation() -> None:
    t = ember.tensor([True, False])
    with pytest.raises(TypeError, match=r"\[sub\] subtraction, the `-` operator, with two bool"):
        _ = t - t
    with pytest.raises(TypeError, match=r"\[sub\] subtraction, the `-` operator, with a bool"):
        _ = ember.tensor([1, 2]) - t
    with pytest.raises(TypeError, match=r"\[sub\] subtraction"):
        ember.sub(ember.tensor([1.0]), True)
    with pytest.raises(TypeError, match=r"\[neg\]"):
        ember.neg(t)
    with pytest.raises(TypeError, match=r"\[positive\] the `\+` operator on a bool tensor"):
        ember.positive(t)
    with pytest.raises(TypeError, match=r"\[positive\] the `\+` operator on a bool tensor"):
        _ = +t


def test_integer_pow_by_negative_scalar() -> None:
    with pytest.raises(RuntimeError, match=r"\[pow\] integers to negative integer powers"):
        ember.pow(ember.tensor([2, 3]), -1)
    assert ember.pow(ember.tensor([2, 3]), -1.0).tolist() == pytest.approx([0.5, 1 / 3])


def test_non_tensor_arguments_raise_type_error() -> None:
    t = ember.tensor([1.0])
    with pytest.raises(TypeError, match=r"\[exp\] argument 'input' must be a Tensor or a number"):
        ember.exp("a")
    with pytest.raises(TypeError, match=r"\[add\] argument 'other' must be a Tensor or a number"):
        ember.add(t, [1.0])
    with pytest.raises(TypeError, match=r"\[mul\] argument 'out' must be a Tensor"):
        ember.mul(t, t, out=3)
    with pytest.raises(RuntimeError, match=r"\[add\] the integer .* does not fit in int64"):
        ember.add(t, 2**70)


def test_scalar_inputs_to_module_functions() -> None:
    # Python numbers are wrapped 0-d tensors: the result is a 0-d tensor of the scalar's type.
    result = ember.add(2, 3)
    assert result.dtype == ember.int64 and result.shape == () and result.item() == 5
    assert ember.exp(0.0).dtype == ember.float32
