"""No wrong values: random shapes, dtypes and layouts through the public ops, numpy as the oracle.

Each table row names an ember op and its numpy equivalent. Inputs are drawn with hypothesis: 0-d,
empty and size-1 (broadcasting) shapes, every dtype, and layouts the kernels must not get wrong
(contiguous, transposed, sliced with steps, negative strides through ``from_numpy``, expanded).
Result dtypes follow torch's promotion rules (dimensioned tensors > 0-d tensors > Python scalars,
see test_promotion.py), written out here independently of ember.result_type.
Values are multiples of 1/4 so that every dtype holds them exactly and sums are exact.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import ember
from conftest import NUMPY_DTYPES, TOLERANCES, to_numpy

Array = np.ndarray
FLOATS = [ember.float16, ember.bfloat16, ember.float32, ember.float64]
INTS = [ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64]
ALL = [ember.bool, *INTS, *FLOATS]
LAYOUTS = ["contiguous", "transposed", "sliced", "negative", "expanded"]

# Fewer examples than the profile's (each draws whole tensors); derandomized as the profile is.
values_settings = settings(
    max_examples=max(4, int(os.environ.get("EMBER_HYPOTHESIS_EXAMPLES", "60")) // 3),
)


def present(*names: str) -> Any:
    """Marks a row with the ops it needs; a missing one fails the row (never a silent skip)."""
    missing = [n for n in names if not hasattr(ember, n) and not hasattr(ember.Tensor, n)]
    assert not missing, f"ember lacks {', '.join(missing)}"
    return ()


def category(dtype: Any) -> int:
    return 2 if dtype in FLOATS else 1 if dtype in INTS else 0


def promote(*operands: Any) -> Any:
    """torch's result dtype: dimensioned tensors, then 0-d tensors, then Python scalars."""
    groups: list[list[Any]] = [[], [], []]
    for x in operands:
        if isinstance(x, ember.Tensor):
            groups[0 if x.dim() > 0 else 1].append(x.dtype)
        else:
            groups[2].append(ember.bool if isinstance(x, bool) else
                             ember.int64 if isinstance(x, int) else ember.float32)  # fmt: skip
    result = None
    for group in groups:
        if not group:
            continue
        dt = group[0]
        for other in group[1:]:
            dt = ember.promote_types(dt, other)
        if result is None or category(dt) > category(result):
            result = dt
    return result


def np_dtype(dtype: Any) -> Any:
    return np.float32 if dtype == ember.bfloat16 else NUMPY_DTYPES[dtype]


SPECIALS = [np.nan, np.inf, -np.inf, -0.0]


def raw_values(
    data: st.DataObject, shape: tuple[int, ...], dtype: Any, lo: int, hi: int, specials: bool
) -> Array:
    """Values in [lo, hi] quarter steps (whole numbers for integer dtypes), maybe nan/inf/-0."""
    n = math.prod(shape)
    ints = data.draw(st.lists(st.integers(lo * 4, hi * 4), min_size=n, max_size=n))
    raw = np.array(ints, dtype=np.float64).reshape(shape)
    if specials and dtype in FLOATS and n and data.draw(st.integers(0, 3)) == 0:
        flat = raw.reshape(-1)
        for i in data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3)):
            flat[i] = data.draw(st.sampled_from(SPECIALS))
    if dtype == ember.bool:
        return (raw > 0).astype(np.bool_)
    if dtype in INTS:
        raw = np.trunc(raw / 4)
        if dtype == ember.uint8:
            raw = np.abs(raw)
        return raw.astype(np_dtype(dtype))
    return (raw / 4).astype(np_dtype(dtype))


def contiguous(a: Array) -> Array:
    # NOTE: np.ascontiguousarray turns 0-d arrays into 1-d ones.
    return np.array(a, order="C", copy=True)


def make(
    data: st.DataObject,
    shape: tuple[int, ...],
    dtype: Any,
    lo: int = -10,
    hi: int = 10,
    specials: bool = True,
) -> tuple[ember.Tensor, Array]:
    """An ember tensor of ``shape`` in a random layout, and the numpy array of its values."""
    layout = data.draw(st.sampled_from(LAYOUTS))
    values = np.array(raw_values(data, shape, dtype, lo, hi, specials))  # 0-d ufuncs give scalars
    if layout == "transposed" and len(shape) >= 2:
        t = ember.from_numpy(contiguous(values.T)).permute(*range(len(shape) - 1, -1, -1))
    elif layout == "sliced" and len(shape) >= 1:
        wide = np.zeros((*shape[:-1], 2 * shape[-1]), values.dtype)
        wide[..., ::2] = values
        t = ember.from_numpy(wide)[..., ::2]
    elif layout == "negative" and len(shape) >= 1:
        t = ember.from_numpy(contiguous(values[..., ::-1])[..., ::-1])
    elif layout == "expanded" and len(shape) >= 1 and shape[0] > 1:
        values = np.broadcast_to(values[:1], shape).copy()
        t = ember.from_numpy(contiguous(values[:1])).expand(*shape)
    else:
        t = ember.from_numpy(contiguous(values))
    if dtype == ember.bfloat16:
        t = t.to(ember.bfloat16)
    return t, values


def check(actual: Any, expected: Array, dtype: Any, scale: float = 1.0) -> None:
    """Shape, dtype and values; ``scale`` widens float tolerances for reductions."""
    assert isinstance(actual, ember.Tensor), type(actual)
    expected = np.asarray(expected)
    assert tuple(actual.shape) == expected.shape, (tuple(actual.shape), expected.shape)
    assert actual.dtype == dtype, (actual.dtype, dtype)
    got = to_numpy(actual)
    rtol, atol = TOLERANCES.get(dtype, (0.0, 0.0))
    want = expected.astype(np.float64) if dtype in FLOATS else expected.astype(got.dtype)
    if dtype in FLOATS:
        # The reference rounded to the result dtype, as ember must round.
        want = want.astype(np_dtype(dtype)).astype(np.float64)
        got = got.astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=rtol * scale, atol=atol * scale, equal_nan=True)


def quiet(fn: Callable[[], Any]) -> Any:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn()


# ---- elementwise --------------------------------------------------------------------------------

# name: (numpy function, input dtypes, (lo, hi) value range, result dtype rule)
# rule "float": integers/bool become float32; "same": the input dtype; "bool": always bool.
UNARY: dict[str, tuple[Callable[[Array], Array], list[Any], tuple[int, int], str]] = {
    "abs": (np.abs, [*INTS, *FLOATS], (-10, 10), "same"),
    "neg": (np.negative, [*INTS[1:], *FLOATS], (-10, 10), "same"),
    "exp": (np.exp, ALL, (-5, 5), "float"),
    "log": (np.log, ALL, (0, 10), "float"),
    "sqrt": (np.sqrt, ALL, (0, 10), "float"),
    "sin": (np.sin, ALL, (-10, 10), "float"),
    "tanh": (np.tanh, ALL, (-10, 10), "float"),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), ALL, (-10, 10), "float"),
    "expm1": (np.expm1, FLOATS, (-5, 5), "float"),
    "log1p": (np.log1p, FLOATS, (0, 10), "float"),
    "floor": (np.floor, [*INTS, *FLOATS], (-10, 10), "same"),
    "ceil": (np.ceil, [*INTS, *FLOATS], (-10, 10), "same"),
    "trunc": (np.trunc, [*INTS, *FLOATS], (-10, 10), "same"),
    "round": (np.round, [*INTS, *FLOATS], (-10, 10), "same"),
    "sign": (np.sign, ALL, (-10, 10), "same"),
    "square": (np.square, [*INTS, *FLOATS], (-10, 10), "same"),
    "reciprocal": (np.reciprocal, FLOATS, (1, 10), "float"),
    "relu": (lambda x: np.maximum(x, 0), [*INTS, *FLOATS], (-10, 10), "same"),
    "isnan": (np.isnan, ALL, (-10, 10), "bool"),
    "isfinite": (np.isfinite, ALL, (-10, 10), "bool"),
    "logical_not": (np.logical_not, ALL, (-10, 10), "bool"),
    "bitwise_not": (np.invert, [ember.bool, *INTS], (-10, 10), "same"),
    "cos": (np.cos, ALL, (-10, 10), "float"),
    "tan": (np.tan, FLOATS, (-1, 1), "float"),
    "sinh": (np.sinh, FLOATS, (-5, 5), "float"),
    "cosh": (np.cosh, FLOATS, (-5, 5), "float"),
    "asin": (np.arcsin, FLOATS, (-1, 1), "float"),
    "acos": (np.arccos, FLOATS, (-1, 1), "float"),
    "atan": (np.arctan, ALL, (-10, 10), "float"),
    "asinh": (np.arcsinh, FLOATS, (-10, 10), "float"),
    "acosh": (np.arccosh, FLOATS, (1, 10), "float"),
    "atanh": (np.arctanh, FLOATS, (-1, 1), "float"),
    "log2": (np.log2, ALL, (0, 10), "float"),
    "log10": (np.log10, ALL, (0, 10), "float"),
    "exp2": (np.exp2, ALL, (-5, 5), "float"),
    "rsqrt": (lambda x: 1 / np.sqrt(x), FLOATS, (0, 10), "float"),
    "erf": (np.vectorize(math.erf, otypes=[np.float64]), ALL, (-3, 3), "float"),
    "erfc": (np.vectorize(math.erfc, otypes=[np.float64]), FLOATS, (-3, 3), "float"),
    "frac": (lambda x: x - np.trunc(x), FLOATS, (-10, 10), "same"),
    "isinf": (np.isinf, ALL, (-10, 10), "bool"),
    "isposinf": (np.isposinf, [*INTS, *FLOATS], (-10, 10), "bool"),
    "isneginf": (np.isneginf, [*INTS, *FLOATS], (-10, 10), "bool"),
    "positive": (np.positive, [*INTS, *FLOATS], (-10, 10), "same"),
}


def unary_cases() -> list[Any]:
    return [pytest.param(name, marks=present(name)) for name in UNARY]


def unary_dtype(rule: str, dtype: Any) -> Any:
    if rule == "bool":
        return ember.bool
    if rule == "float" and dtype not in FLOATS:
        return ember.float32
    return dtype


@pytest.mark.parametrize("name", unary_cases())
@values_settings
@given(data=st.data())
def test_unary(name: str, data: st.DataObject) -> None:
    reference, dtypes, (lo, hi), rule = UNARY[name]
    dtype = data.draw(st.sampled_from(dtypes))
    shape = data.draw(st.lists(st.integers(0, 3), max_size=3).map(tuple))
    # torch's sign(nan) is 0, numpy's nan.
    x, values = make(data, shape, dtype, lo, hi, specials=name != "sign")
    out_dtype = unary_dtype(rule, dtype)
    wide = values.astype(np.float64) if out_dtype in FLOATS else values
    # sign keeps bool (numpy has no bool sign loop).
    expected = values if name == "sign" and dtype == ember.bool else quiet(lambda: reference(wide))
    check(getattr(ember, name)(x), expected, out_dtype)
    check(getattr(x, name)(), expected, out_dtype)
    in_place = getattr(x, name + "_", None)
    if in_place and out_dtype == dtype and not (0 in x.stride() and x.numel() > 1):
        in_place()
        check(x, expected, out_dtype)


BINARY: dict[str, tuple[Callable[[Array, Array], Array], list[Any], str]] = {
    "add": (np.add, ALL, "promote"),
    "sub": (np.subtract, [*INTS, *FLOATS], "promote"),
    "mul": (np.multiply, ALL, "promote"),
    "div": (np.true_divide, ALL, "float"),
    "maximum": (np.maximum, ALL, "promote"),
    "minimum": (np.minimum, ALL, "promote"),
    "remainder": (np.remainder, [*INTS, *FLOATS], "promote"),
    "floor_divide": (np.floor_divide, [*INTS, *FLOATS], "promote"),
    "atan2": (np.arctan2, FLOATS, "float"),
    "eq": (np.equal, ALL, "bool"),
    "ne": (np.not_equal, ALL, "bool"),
    "lt": (np.less, ALL, "bool"),
    "le": (np.less_equal, ALL, "bool"),
    "gt": (np.greater, ALL, "bool"),
    "ge": (np.greater_equal, ALL, "bool"),
    "logical_and": (np.logical_and, ALL, "bool"),
    "logical_xor": (np.logical_xor, ALL, "bool"),
    "bitwise_and": (np.bitwise_and, [ember.bool, *INTS], "promote"),
    "bitwise_or": (np.bitwise_or, [ember.bool, *INTS], "promote"),
    "bitwise_xor": (np.bitwise_xor, [ember.bool, *INTS], "promote"),
    "logical_or": (np.logical_or, ALL, "bool"),
    "pow": (np.power, FLOATS, "promote"),
    "fmod": (np.fmod, [*INTS, *FLOATS], "promote"),
    "copysign": (np.copysign, ALL, "float"),
    "fmax": (np.fmax, [*INTS, *FLOATS], "promote"),
    "fmin": (np.fmin, [*INTS, *FLOATS], "promote"),
    "hypot": (np.hypot, FLOATS, "promote"),
    "xlogy": (
        lambda x, y: np.where(x == 0, np.where(np.isnan(y), np.nan, 0.0), x * np.log(y)),
        ALL,
        "float",
    ),
}
NONZERO_RHS = {"div", "remainder", "floor_divide", "fmod"}


def binary_cases() -> list[Any]:
    return [pytest.param(name, marks=present(name)) for name in BINARY]


@pytest.mark.parametrize("name", binary_cases())
@values_settings
@given(data=st.data(), shapes=mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
def test_binary_broadcast(name: str, data: st.DataObject, shapes: Any) -> None:
    reference, dtypes, rule = BINARY[name]
    a_dtype, b_dtype = data.draw(st.sampled_from(dtypes)), data.draw(st.sampled_from(dtypes))
    a, a_values = make(data, shapes.input_shapes[0], a_dtype)
    rhs_lo = 1 if name in NONZERO_RHS else -10
    b: Any
    if data.draw(st.integers(0, 3)) == 0:
        # A Python scalar of the rhs dtype's kind.
        b_values = raw_values(data, (), b_dtype, rhs_lo, 10, True)
        b = b_values.item()
        b_values = np.asarray(b_values)
    else:
        b, b_values = make(data, shapes.input_shapes[1], b_dtype, rhs_lo, 10)
    common = promote(a, b)
    if name in ("sub",) and common == ember.bool:
        return  # torch refuses bool subtraction
    if rule == "bool":
        out_dtype = ember.bool
    elif rule == "float" and common not in FLOATS:
        out_dtype = ember.float32
    else:
        out_dtype = common
    compute = np.float64 if out_dtype in FLOATS else np_dtype(common)
    expected = quiet(lambda: reference(a_values.astype(compute), b_values.astype(compute)))
    check(getattr(ember, name)(a, b), expected, out_dtype)
    # out= into a strided/transposed/negative-stride tensor; in-place into `a` itself.
    target, _ = make(data, expected.shape, out_dtype)
    if not (0 in target.stride() and target.numel() > 1):
        result = getattr(ember, name)(a, b, out=target)
        assert result is target
        check(target, expected, out_dtype)
    in_place = getattr(a, name + "_", None)
    aliased = 0 in a.stride() and a.numel() > 1
    if in_place and a.dtype == out_dtype and tuple(a.shape) == expected.shape and not aliased:
        in_place(b)
        check(a, expected, out_dtype)


@pytest.mark.parametrize("which", [pytest.param("where", marks=present("where")),
                                   pytest.param("clamp", marks=present("clamp"))])  # fmt: skip
@values_settings
@given(data=st.data(), shapes=mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=3))
def test_where_and_clamp(which: str, data: st.DataObject, shapes: Any) -> None:
    dtype = data.draw(st.sampled_from([*INTS[1:], *FLOATS]))
    other_dtype = data.draw(st.sampled_from([*INTS[1:], *FLOATS]))
    x, xv = make(data, shapes.input_shapes[0], dtype)
    y, yv = make(data, shapes.input_shapes[1], other_dtype)
    if which == "where":
        cond, cv = make(data, shapes.input_shapes[2], ember.bool)
        out_dtype = promote(x, y)
        wide = np.float64 if out_dtype in FLOATS else np_dtype(out_dtype)
        check(ember.where(cond, x, y), np.where(cv, xv.astype(wide), yv.astype(wide)), out_dtype)
        return
    lo, hi = sorted(data.draw(st.lists(st.integers(-8, 8), min_size=2, max_size=2)))
    wide = np.float64 if dtype in FLOATS else np_dtype(dtype)
    check(ember.clamp(x, lo, hi), np.clip(xv.astype(wide), lo, hi), dtype)
    check(x.clamp(min=lo), np.maximum(xv.astype(wide), lo), dtype)
    if dtype in FLOATS:
        check(ember.clamp(x, max=float(hi) + 0.5), np.minimum(xv, hi + 0.5), dtype)


# ---- reductions ---------------------------------------------------------------------------------


def _logsumexp(x: Array, axis: Any, keepdims: bool) -> Array:
    m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0.0)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _all_any(f: Callable[..., Array]) -> Callable[..., Array]:
    return lambda x, axis, keepdims: f(x != 0, axis=axis, keepdims=keepdims)


# name: (numpy reduction(x, axis, keepdims), input dtypes, result dtype rule, value range)
# rules: "acc" integers/bool accumulate in int64; "same"; "float" needs floating input;
# "bool" bool (uint8 stays uint8, as torch); "lse" integers become float32.
REDUCTIONS: dict[str, tuple[Callable[..., Array], list[Any], str, tuple[int, int]]] = {
    "sum": (np.sum, ALL, "acc", (-10, 10)),
    "prod": (np.prod, ALL, "acc", (-2, 2)),
    "mean": (np.mean, FLOATS, "same", (-10, 10)),
    "amax": (np.max, ALL, "same", (-10, 10)),
    "amin": (np.min, ALL, "same", (-10, 10)),
    "all": (_all_any(np.all), ALL, "bool", (-1, 1)),
    "any": (_all_any(np.any), ALL, "bool", (-1, 1)),
    "var": (lambda x, axis, keepdims: np.var(x, axis=axis, keepdims=keepdims, ddof=1), FLOATS,
            "same", (-10, 10)),
    "std": (lambda x, axis, keepdims: np.std(x, axis=axis, keepdims=keepdims, ddof=1), FLOATS,
            "same", (-10, 10)),
    "logsumexp": (_logsumexp, [*INTS, *FLOATS], "lse", (-10, 10)),
}  # fmt: skip
NEEDS_NONEMPTY = {"amax", "amin"}


def reduction_cases() -> list[Any]:
    return [pytest.param(name, marks=present(name)) for name in REDUCTIONS]


def reduced_dtype(rule: str, dtype: Any) -> Any:
    if rule == "acc" and dtype not in FLOATS:
        return ember.int64
    if rule == "bool":
        return ember.uint8 if dtype == ember.uint8 else ember.bool
    if rule == "lse" and dtype not in FLOATS:
        return ember.float32
    return dtype


@pytest.mark.parametrize("name", reduction_cases())
@values_settings
@given(data=st.data())
def test_reduction_over_random_dims(name: str, data: st.DataObject) -> None:
    reference, dtypes, rule, (lo, hi) = REDUCTIONS[name]
    dtype = data.draw(st.sampled_from(dtypes))
    shape = data.draw(st.lists(st.integers(0, 3), max_size=4).map(tuple))
    x, values = make(data, shape, dtype, lo, hi, specials=name != "logsumexp")
    ndim = len(shape)
    keepdim = data.draw(st.booleans())
    dims: Any = None
    if ndim and data.draw(st.booleans()):
        axes = data.draw(st.lists(st.integers(-ndim, ndim - 1), min_size=1, max_size=ndim,
                                  unique_by=lambda d: d % ndim))  # fmt: skip
        dims = axes[0] if len(axes) == 1 and data.draw(st.booleans()) else tuple(axes)
    if name == "logsumexp" and dims is None:
        dims = tuple(range(ndim))  # logsumexp needs dims
    axis = None if dims is None else (dims % ndim if isinstance(dims, int) else
                                      tuple(d % ndim for d in dims))  # fmt: skip
    reduced = [shape[a] for a in ((axis,) if isinstance(axis, int) else axis or range(ndim))]
    if name in NEEDS_NONEMPTY and 0 in reduced:
        with pytest.raises((RuntimeError, IndexError, ValueError)):
            getattr(ember, name)(x, dim=dims, keepdim=keepdim)
        return
    out_dtype = reduced_dtype(rule, dtype)
    compute = np.float64 if out_dtype in FLOATS else np.int64 if out_dtype == ember.int64 else None
    wide = values.astype(compute) if compute is not None else values
    expected = quiet(lambda: reference(wide, axis=axis, keepdims=keepdim))
    if dims is None and not keepdim:
        result = getattr(ember, name)(x)
    elif dims is None:
        result = getattr(x, name)(dim=None, keepdim=True)
    else:
        result = getattr(x, name)(dims, keepdim=keepdim)
    check(result, expected, out_dtype, scale=4.0)


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=present(n)) for n in ("argmax", "argmin", "cumsum", "cumprod")],
)
@values_settings
@given(data=st.data())
def test_single_dim_reductions_and_scans(name: str, data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(ALL if name.startswith("cum") else [*INTS, *FLOATS]))
    shape = data.draw(st.lists(st.integers(1 if name.startswith("arg") else 0, 3),
                               min_size=1, max_size=3).map(tuple))  # fmt: skip
    x, values = make(data, shape, dtype, -2, 2)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    if name.startswith("arg"):
        keepdim = data.draw(st.booleans())
        f = np.argmax if name == "argmax" else np.argmin
        check(getattr(x, name)(dim, keepdim), f(values, axis=dim, keepdims=keepdim), ember.int64)
        check(getattr(ember, name)(x), np.asarray(f(values)), ember.int64)
        return
    out_dtype = dtype if dtype in FLOATS else ember.int64
    wide = values.astype(np.float64 if dtype in FLOATS else np.int64)
    f = np.cumsum if name == "cumsum" else np.cumprod
    check(getattr(ember, name)(x, dim), f(wide, axis=dim), out_dtype, scale=4.0)


# ---- views and shape ops ------------------------------------------------------------------------

small_shapes = st.lists(st.integers(0, 3), max_size=4).map(tuple)


@values_settings
@given(data=st.data(), shape=small_shapes, dtype=st.sampled_from(ALL))
def test_views_and_shape_ops(data: st.DataObject, shape: tuple[int, ...], dtype: Any) -> None:
    x, v = make(data, shape, dtype)
    nd = len(shape)
    perm = data.draw(st.permutations(range(nd)))
    check(x.permute(*perm), np.transpose(v, perm), dtype)
    check(x.reshape(-1), v.reshape(-1), dtype)
    check(x.flatten(), v.reshape(-1), dtype)
    check(x.unsqueeze(-1), v[..., None], dtype)
    check(x.squeeze(), np.squeeze(v), dtype)
    if nd:
        d0, d1 = data.draw(st.integers(-nd, nd - 1)), data.draw(st.integers(-nd, nd - 1))
        check(x.transpose(d0, d1), np.swapaxes(v, d0, d1), dtype)
        check(x.squeeze(d0), np.squeeze(v, d0) if shape[d0] == 1 else v, dtype)
        check(x.unsqueeze(d0), np.expand_dims(v, d0), dtype)
        lo, hi = sorted((d0 % nd, d1 % nd))
        flat = (*shape[:lo], math.prod(shape[lo : hi + 1]), *shape[hi + 1 :])
        check(ember.flatten(x, lo, hi), v.reshape(flat), dtype)
        # A new shape from the same elements: the dims shuffled and regrouped.
        new = (*reversed(shape),)
        check(x.reshape(new), v.reshape(new), dtype)
        check(x.movedim(d0, d1), np.moveaxis(v, d0, d1), dtype)
    expand_to = tuple(3 if s == 1 else s for s in shape)
    check(x.expand(2, *expand_to), np.broadcast_to(v, (2, *expand_to)), dtype)


@values_settings
@given(data=st.data(), shape=st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple),
       dtype=st.sampled_from(ALL))  # fmt: skip
def test_cat_stack_split_chunk(data: st.DataObject, shape: tuple[int, ...], dtype: Any) -> None:
    nd = len(shape)
    dim = data.draw(st.integers(-nd, nd - 1))
    parts = []
    for _ in range(data.draw(st.integers(1, 3))):
        piece_shape = list(shape)
        piece_shape[dim] = data.draw(st.integers(0, 3))
        parts.append(make(data, tuple(piece_shape), dtype))
    check(ember.cat([p for p, _ in parts], dim), np.concatenate([v for _, v in parts], dim), dtype)
    same = [make(data, shape, dtype) for _ in range(len(parts))]
    stack_dim = data.draw(st.integers(-nd - 1, nd))
    check(ember.stack([p for p, _ in same], stack_dim), np.stack([v for _, v in same], stack_dim),
          dtype)  # fmt: skip
    x, v = same[0]
    size = data.draw(st.integers(1, 3))
    pieces = x.split(size, dim)
    bounds = list(range(size, shape[dim], size))
    expected = np.split(v, bounds, axis=dim) if shape[dim] else [v]
    assert len(pieces) == len(expected)
    for got, want in zip(pieces, expected, strict=True):
        check(got, want, dtype)
    chunks = data.draw(st.integers(1, 4))
    got_chunks = x.chunk(chunks, dim)
    step = -(-shape[dim] // chunks) if shape[dim] else 0
    # torch: an empty dim gives `chunks` empty pieces.
    want_chunks = (
        np.split(v, list(range(step, shape[dim], step)), axis=dim) if step else [v] * chunks
    )
    assert len(got_chunks) == len(want_chunks)
    for got, want in zip(got_chunks, want_chunks, strict=True):
        check(got, want, dtype)


# ---- indexing -----------------------------------------------------------------------------------


@st.composite
def basic_index(draw: Any, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A tuple of ints, slices (positive steps, as torch), None and at most one Ellipsis."""
    items: list[Any] = []
    dim = 0
    while dim < len(shape) and draw(st.booleans()):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis"]))
        if kind == "int" and shape[dim] > 0:
            items.append(draw(st.integers(-shape[dim], shape[dim] - 1)))
        elif kind == "none":
            items.append(None)
            continue
        elif kind == "ellipsis":
            # Items after an Ellipsis index the last dims: draw exactly that many, aligned to the
            # end (the loop could stop early and shift them onto other dims: x[..., 0] on (1,0,0)).
            items.append(Ellipsis)
            k = draw(st.integers(0, len(shape) - dim))
            for size in shape[len(shape) - k :]:
                if size > 0 and draw(st.booleans()):
                    items.append(draw(st.integers(-size, size - 1)))
                else:
                    items.append(slice(None, None, draw(st.one_of(st.none(), st.integers(1, 3)))))
            break
        else:
            bound = st.one_of(st.none(), st.integers(-5, 5))
            items.append(
                slice(draw(bound), draw(bound), draw(st.one_of(st.none(), st.integers(1, 3))))
            )
        dim += 1
    return tuple(items)


@values_settings
@given(data=st.data(), shape=small_shapes, dtype=st.sampled_from(ALL))
def test_basic_indexing(data: st.DataObject, shape: tuple[int, ...], dtype: Any) -> None:
    x, v = make(data, shape, dtype)
    index = data.draw(basic_index(shape))
    check(x[index], v[index], dtype)
    if len(index) == 1:
        check(x[index[0]], v[index[0]], dtype)
    if shape and shape[0] > 0:
        # Advanced indexing: an int64 index tensor (negative entries too) and a bool mask.
        rows = data.draw(st.lists(st.integers(-shape[0], shape[0] - 1), max_size=4))
        check(x[ember.from_numpy(np.array(rows, np.int64))], v[np.array(rows, np.int64)], dtype)
        mask = np.array(data.draw(st.lists(st.booleans(), min_size=shape[0], max_size=shape[0])))
        check(x[ember.from_numpy(mask)], v[mask], dtype)
    if 0 in x.stride() and x.numel() > 1:
        return  # writing into an expanded tensor raises
    value, value_v = make(data, v[index].shape, dtype)
    x[index] = value
    v[index] = value_v
    check(x, v, dtype)
    x[index] = 1
    v[index] = 1
    check(x, v, dtype)


@values_settings
@given(data=st.data(), shape=small_shapes, dtype=st.sampled_from(ALL), to=st.sampled_from(ALL))
def test_view_clone_contiguous_and_casts(
    data: st.DataObject, shape: tuple[int, ...], dtype: Any, to: Any
) -> None:
    x, v = make(data, shape, dtype, 0, 10)
    check(x.clone(), v, dtype)
    check(x.contiguous(), v, dtype)
    assert x.contiguous().is_contiguous()
    new_shape = (-1,) if data.draw(st.booleans()) else tuple(reversed(shape))
    try:
        viewed = x.view(*new_shape) if new_shape else x.view(())
    except RuntimeError as e:
        assert str(e).startswith("[view]"), str(e)
    else:
        check(viewed, v.reshape(new_shape) if math.prod(shape) else v.reshape(viewed.shape), dtype)
    wide = v.astype(np.float64) if dtype in FLOATS and to in FLOATS else v
    check(x.to(to), wide.astype(np_dtype(to)) if to != ember.bool else v != 0, to)


# ---- linear algebra -----------------------------------------------------------------------------

LINALG_DTYPES = [ember.float32, ember.float64, ember.int64, ember.int32]


@st.composite
def matmul_shapes(draw: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """1-D, 2-D and batched (broadcast) operands with matching inner sizes, 0 included."""
    n, k, m = draw(st.integers(0, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 3))
    batch = draw(mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=2))
    a_kind, b_kind = (
        draw(st.sampled_from(["1d", "2d", "batched"])),
        draw(st.sampled_from(["1d", "2d", "batched"])),
    )
    a = (k,) if a_kind == "1d" else (n, k) if a_kind == "2d" else (*batch.input_shapes[0], n, k)
    b = (k,) if b_kind == "1d" else (k, m) if b_kind == "2d" else (*batch.input_shapes[1], k, m)
    return a, b


@values_settings
@given(data=st.data(), shapes=matmul_shapes(), dtype=st.sampled_from(LINALG_DTYPES))
def test_matmul(data: st.DataObject, shapes: Any, dtype: Any) -> None:
    (a, av), (b, bv) = (
        make(data, shapes[0], dtype, -3, 3, specials=False),
        make(data, shapes[1], dtype, -3, 3, specials=False),
    )
    wide = np.float64 if dtype in FLOATS else np.int64
    check(ember.matmul(a, b), np.matmul(av.astype(wide), bv.astype(wide)), dtype, scale=4.0)
    check(a @ b, np.matmul(av.astype(wide), bv.astype(wide)), dtype, scale=4.0)


EINSUMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->ji", [(2, 0)]),
    ("bij,bjk->bik", [(2, 1, 3), (2, 3, 2)]),
    ("i,j->ij", [(3,), (2,)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 1)]),
    ("ii", [(2, 2)]),
    ("i,i", [(0,), (0,)]),
]


@values_settings
@given(data=st.data(), case=st.sampled_from(EINSUMS), dtype=st.sampled_from(FLOATS[2:]))
def test_einsum(data: st.DataObject, case: Any, dtype: Any) -> None:
    equation, shapes = case
    operands = [make(data, s, dtype, -3, 3, specials=False) for s in shapes]
    expected = np.einsum(equation, *[v.astype(np.float64) for _, v in operands])
    check(ember.einsum(equation, *[t for t, _ in operands]), expected, dtype, scale=4.0)


@values_settings
@given(data=st.data(), dtype=st.sampled_from(FLOATS[2:]), dims=st.integers(0, 2))
def test_tensordot(data: st.DataObject, dtype: Any, dims: int) -> None:
    shared = data.draw(st.lists(st.integers(0, 3), min_size=dims, max_size=dims))
    left = data.draw(st.lists(st.integers(1, 3), max_size=2))
    right = data.draw(st.lists(st.integers(1, 3), max_size=2))
    (a, av) = make(data, (*left, *shared), dtype, -3, 3, specials=False)
    (b, bv) = make(data, (*shared, *right), dtype, -3, 3, specials=False)
    expected = np.tensordot(av.astype(np.float64), bv.astype(np.float64), axes=dims)
    check(ember.tensordot(a, b, dims=dims), expected, dtype, scale=4.0)
    if dims == 1 and left and right:
        pairs = ([len(left)], [0])
        check(ember.tensordot(a, b, dims=pairs), expected, dtype, scale=4.0)


# ---- creation -----------------------------------------------------------------------------------


@values_settings
@given(
    start=st.integers(-20, 20),
    length=st.integers(0, 20),
    step=st.integers(-5, 5).filter(bool),
    as_float=st.booleans(),
)
def test_arange(start: int, length: int, step: int, as_float: bool) -> None:
    end = start + step * length
    if as_float:
        check(ember.arange(start / 4, end / 4, step / 4), np.arange(start / 4, end / 4, step / 4),
              ember.float32)  # fmt: skip
    else:
        check(ember.arange(start, end, step), np.arange(start, end, step), ember.int64)


@values_settings
@given(start=st.integers(-20, 20), end=st.integers(-20, 20), steps=st.integers(0, 20))
def test_linspace(start: int, end: int, steps: int) -> None:
    expected = np.linspace(start / 4, end / 4, steps)
    check(ember.linspace(start / 4, end / 4, steps), expected, ember.float32)
    check(ember.linspace(start, end, steps, dtype=ember.float64), np.linspace(start, end, steps),
          ember.float64)  # fmt: skip


@values_settings
@given(n=st.integers(0, 4), m=st.one_of(st.none(), st.integers(0, 4)), dtype=st.sampled_from(ALL))
def test_eye_and_full(n: int, m: int | None, dtype: Any) -> None:
    eye = ember.eye(n, dtype=dtype) if m is None else ember.eye(n, m, dtype=dtype)
    check(eye, np.eye(n, m), dtype)
    shape = (n, m or 0)
    check(ember.full(shape, 3), np.full(shape, 3), ember.int64)
    check(ember.full(shape, 2.5), np.full(shape, 2.5), ember.float32)
    check(ember.full(shape, True), np.full(shape, True), ember.bool)
    check(ember.full(shape, 1, dtype=dtype), np.full(shape, 1), dtype)


# ---- regressions --------------------------------------------------------------------------------

OVERLAP = "more than one element of the written-to tensor refers to a single memory location"


@pytest.mark.parametrize(
    "write",
    [
        lambda e: e.add_(1),
        lambda e: e.exp_(),
        lambda e: e.clamp_(0, 1),
        lambda e: e.copy_(ember.ones(4, 3)),
        lambda e: e.uniform_(),
        lambda e: ember.add(e, e, out=e),
        lambda e: ember.mul(ember.ones(4, 3), 2, out=e),
    ],
)
def test_writing_into_an_expanded_tensor_raises(write: Callable[[Any], Any]) -> None:
    # Was silently wrong: add_ on a 4x expanded row added 4 times (torch raises).
    base = ember.from_numpy(np.arange(3, dtype=np.float32))
    expanded = base.expand(4, 3)
    with pytest.raises(RuntimeError, match=rf"^\[\w+\] unsupported operation: {OVERLAP}"):
        write(expanded)
    np.testing.assert_array_equal(to_numpy(base), [0, 1, 2])


def test_fill_and_zero_may_write_into_an_expanded_tensor() -> None:
    base = ember.from_numpy(np.arange(3, dtype=np.float32))
    base.expand(4, 3).fill_(2)
    np.testing.assert_array_equal(to_numpy(base), [2, 2, 2])
    base.expand(4, 3).zero_()
    np.testing.assert_array_equal(to_numpy(base), [0, 0, 0])
    empty = ember.from_numpy(np.zeros((0, 3), np.float32)[..., ::2])
    assert tuple(empty.add_(1).shape) == (0, 2)


def _vector_norm(x: Array, p: float, axis: Any, keepdims: bool) -> Array:
    a = np.abs(x)
    if p == math.inf:
        return np.max(a, axis=axis, keepdims=keepdims, initial=0.0)
    if p == -math.inf:
        return np.min(a, axis=axis, keepdims=keepdims, initial=np.inf)
    if p == 0:
        return np.sum(a != 0, axis=axis, keepdims=keepdims).astype(np.float64)
    return np.sum(a**p, axis=axis, keepdims=keepdims) ** (1 / p)


@values_settings
@given(data=st.data(), dtype=st.sampled_from(FLOATS))
def test_dim_reductions_with_values_and_indices(data: st.DataObject, dtype: Any) -> None:
    shape = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple))
    x, v = make(data, shape, dtype, -3, 3, specials=False)
    wide = v.astype(np.float64)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    keepdim = data.draw(st.booleans())
    for name, f, arg in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
        values, indices = getattr(x, name)(dim, keepdim)
        check(values, f(wide, axis=dim, keepdims=keepdim), dtype)
        check(indices, arg(wide, axis=dim, keepdims=keepdim), ember.int64)
    correction = data.draw(st.sampled_from([0, 1, 2]))
    var, mean = ember.var_mean(x, dim, correction=correction, keepdim=keepdim)
    n = shape[dim]
    # torch divides by max(0, n - correction): inf, or nan when the sum of squares is 0 too.
    squares = np.var(wide, axis=dim, keepdims=keepdim) * n
    expected_var = quiet(lambda: squares / max(0, n - correction))
    check(var, expected_var, dtype, scale=4.0)
    check(mean, np.mean(wide, axis=dim, keepdims=keepdim), dtype, scale=4.0)
    std, _ = ember.std_mean(x, dim, correction=correction, keepdim=keepdim)
    check(std, np.sqrt(expected_var), dtype, scale=4.0)
    p = data.draw(st.sampled_from([1, 2, 3, 0, math.inf, -math.inf]))
    check(ember.norm(x, p, dim, keepdim), _vector_norm(wide, p, dim, keepdim), dtype, scale=4.0)
    check(ember.count_nonzero(x, dim), np.count_nonzero(v, axis=dim), ember.int64)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize(
    "bounds",
    [
        {"min": math.nan},
        {"max": math.nan},
        {"min": 1, "max": math.nan},
        {"min": math.nan, "max": 1},
    ],
)
def test_clamp_with_a_nan_bound_gives_nan(dtype: Any, bounds: dict[str, float]) -> None:
    # Was silently wrong: a NaN scalar bound left the input unchanged (torch gives NaN).
    x = ember.from_numpy(np.arange(3.0)).to(dtype)
    assert ember.clamp(x, **bounds).isnan().all()
    assert x.clone().clamp_(**bounds).isnan().all()


@values_settings
@given(data=st.data(), dtype=st.sampled_from([*INTS, *FLOATS]))
def test_sort_argsort_topk(data: st.DataObject, dtype: Any) -> None:
    shape = data.draw(st.lists(st.integers(0, 4), min_size=1, max_size=3).map(tuple))
    x, v = make(data, shape, dtype, -3, 3)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    descending = data.draw(st.booleans())
    # NaN sorts as the largest value (first when descending); stable sorts fix the index order.
    wide = v.astype(np.float64)
    if descending:
        order = np.lexsort((-np.nan_to_num(wide, nan=0.0), ~np.isnan(wide)), axis=dim)
    else:
        order = np.argsort(wide, axis=dim, kind="stable")
    values, indices = x.sort(dim=dim, descending=descending, stable=True)
    check(indices, order, ember.int64)
    check(values, np.take_along_axis(v, order, axis=dim), dtype)
    check(x.argsort(dim=dim, descending=descending, stable=True), order, ember.int64)
    if hasattr(x, "topk") and shape[dim] > 0:
        k = data.draw(st.integers(0, shape[dim]))
        top_values, _ = x.topk(k, dim=dim)
        expected = np.take_along_axis(v, order if descending else np.flip(order, dim), axis=dim)
        check(top_values, np.take(expected, range(k), axis=dim), dtype)
