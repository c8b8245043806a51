"""softmax/log_softmax, addcmul/addcdiv, logaddexp/logaddexp2 and diff against numpy."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import VIEW_LAYOUTS, assert_close, np_dtype, raises, shapes, to_numpy, with_layout

FLOATS = (ember.float32, ember.float64)
REDUCED = (ember.float16, ember.bfloat16)


def values(shape: tuple[int, ...], seed: int = 0, scale: float = 3.0) -> np.ndarray:
    return np.random.default_rng(seed).normal(0.0, scale, shape)


def from_np(x: np.ndarray, dtype: object, layout: str = "contiguous") -> ember.Tensor:
    """An ember tensor of x's values in `dtype`, laid out in memory as `layout`."""
    return ember.from_numpy(with_layout(x, layout))._to_dtype(dtype)


def np_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def np_log_softmax(x: np.ndarray, dim: int) -> np.ndarray:
    shifted = x - x.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


# ---------------------------------------------------------------- softmax / log_softmax


@given(shape=shapes(min_side=1, min_dims=1), data=st.data())
def test_softmax_matches_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    dtype = data.draw(st.sampled_from(FLOATS + REDUCED))
    layout = data.draw(st.sampled_from(VIEW_LAYOUTS))
    x = values(shape, data.draw(st.integers(0, 100)))
    t = from_np(x, dtype, layout)
    ref = to_numpy(t).astype(np.float64)
    tol = {"rtol": 2e-2, "atol": 1e-3} if dtype in REDUCED else {}
    assert_close(ember.softmax(t, dim), np_softmax(ref, dim), dtype=dtype, **tol)
    assert_close(t.softmax(dim), np_softmax(ref, dim), dtype=dtype, **tol)
    assert_close(ember.log_softmax(t, dim), np_log_softmax(ref, dim), dtype=dtype, **tol)
    assert_close(t.log_softmax(dim), np_log_softmax(ref, dim), dtype=dtype, **tol)


def test_softmax_is_stable_for_large_values() -> None:
    x = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, -1001.0, -1002.0]])
    t = ember.from_numpy(x).float()
    assert_close(ember.softmax(t, 1), np_softmax(x, 1), dtype=ember.float32)
    assert_close(ember.log_softmax(t, 1), np_log_softmax(x, 1), dtype=ember.float32)


def test_softmax_special_values() -> None:
    inf, nan = float("inf"), float("nan")
    t = ember.tensor([[0.0, -inf], [-inf, -inf], [1.0, nan]])
    got = to_numpy(ember.softmax(t, 1))
    np.testing.assert_array_equal(got[0], [1.0, 0.0])
    assert np.isnan(got[1]).all() and np.isnan(got[2]).all()
    assert to_numpy(ember.log_softmax(t, 1))[0, 1] == -inf


def test_softmax_dtype_zero_dim_and_empty() -> None:
    t = ember.arange(4)
    out = ember.softmax(t, 0, dtype=ember.float64)
    assert_close(out, np_softmax(np.arange(4.0), 0), dtype=ember.float64)
    assert_close(t.log_softmax(0, ember.float32), np_log_softmax(np.arange(4.0), 0))
    assert_close(ember.softmax(ember.tensor(3.0), 0), np.array(1.0), dtype=ember.float32)
    assert_close(ember.log_softmax(ember.tensor(3.0), -1), np.array(0.0), dtype=ember.float32)
    assert_close(ember.softmax(ember.zeros(2, 0), 1), np.zeros((2, 0)), dtype=ember.float32)


def test_softmax_bad_input() -> None:
    raises(NotImplementedError, "softmax", lambda: ember.softmax(ember.arange(3), 0), "int64")
    raises(NotImplementedError, "log_softmax", lambda: ember.arange(3).log_softmax(0), "int64")
    raises(IndexError, "softmax", lambda: ember.softmax(ember.ones(2), 2), "2")
    raises(IndexError, "log_softmax", lambda: ember.log_softmax(ember.ones(2, 3), -3), "-3")
    with pytest.raises(TypeError):
        ember.softmax(ember.ones(2))  # type: ignore[call-arg]


# ---------------------------------------------------------------- addcmul / addcdiv


@pytest.mark.parametrize("name", ["addcmul", "addcdiv"])
@given(shape=shapes(max_dims=3), data=st.data())
def test_addc_matches_numpy(name: str, shape: tuple[int, ...], data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(FLOATS))
    value = data.draw(st.sampled_from([1, 2, -0.5]))
    layout = data.draw(st.sampled_from(VIEW_LAYOUTS))
    x, a = values(shape, 1), values(shape, 2)
    b = np.abs(values(shape[1:], 3)) + 0.5  # broadcast, away from zero for addcdiv
    ti, ta, tb = from_np(x, dtype, layout), from_np(a, dtype), from_np(b, dtype, layout)
    xi, ai, bi = to_numpy(ti), to_numpy(ta), to_numpy(tb)
    expected = xi + value * (ai * bi if name == "addcmul" else ai / bi)
    assert_close(getattr(ember, name)(ti, ta, tb, value=value), expected, dtype=dtype)
    assert_close(getattr(ti, name)(ta, tb, value=value), expected, dtype=dtype)
    out = ember.empty(shape, dtype=dtype)
    assert getattr(ember, name)(ti, ta, tb, value=value, out=out) is out
    assert_close(out, expected, dtype=dtype)
    assert getattr(ti, name + "_")(ta, tb, value=value) is ti
    assert_close(ti, expected, dtype=dtype)


def test_addc_promotion_and_integers() -> None:
    i = ember.ones(3, dtype=ember.int64)
    out = ember.addcmul(i, i, ember.full((3,), 3, dtype=ember.int64), value=2)
    assert_close(out, np.full(3, 7), dtype=ember.int64)
    # torch truncates a float value for integral inputs
    assert_close(ember.addcmul(i, i, i, value=0.5), np.ones(3), dtype=ember.int64)
    assert_close(ember.addcdiv(i, ember.ones(3), i), np.full(3, 2.0), dtype=ember.float32)
    got = ember.addcmul(ember.ones(2), ember.ones(2, dtype=ember.float64), ember.ones(2))
    assert got.dtype == ember.float64
    assert_close(ember.addcmul(1.0, ember.ones(2), 2.0), np.full(2, 3.0), dtype=ember.float32)


def test_addc_bad_input() -> None:
    i, f = ember.ones(2, dtype=ember.int64), ember.ones(2)
    raises(RuntimeError, "addcdiv", lambda: ember.addcdiv(f, i, i), "integer division")
    raises(RuntimeError, "addcdiv_", lambda: f.addcdiv_(i, i), "integer division")
    raises(RuntimeError, "addcmul", lambda: ember.addcmul(f, ember.ones(3), f), "(2,)", "(3,)")
    raises(RuntimeError, "addcmul_", lambda: f.addcmul_(ember.ones(3, 2), f), "(3, 2)")
    raises(TypeError, "addcmul", lambda: ember.addcmul(f, f, f, value=f), "value")
    raises(TypeError, "addcdiv", lambda: ember.addcdiv(f, f, f, out=3), "out")  # type: ignore


# ---------------------------------------------------------------- logaddexp / logaddexp2


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@given(shape=shapes(max_dims=3), data=st.data())
def test_logaddexp_matches_numpy(name: str, shape: tuple[int, ...], data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(FLOATS + REDUCED))
    layout = data.draw(st.sampled_from(VIEW_LAYOUTS))
    a, b = from_np(values(shape, 4, 30.0), dtype, layout), from_np(values(shape, 5, 30.0), dtype)
    expected = getattr(np, name)(to_numpy(a).astype(np.float64), to_numpy(b).astype(np.float64))
    assert_close(getattr(ember, name)(a, b), expected, dtype=dtype)
    assert_close(getattr(a, name)(b), expected, dtype=dtype)


def test_logaddexp_special_values() -> None:
    inf, nan = float("inf"), float("nan")
    a = np.array([-inf, inf, -inf, inf, nan, 1.0, 1e30])
    b = np.array([-inf, inf, 1.0, -inf, 1.0, nan, 1e30])
    for name in ("logaddexp", "logaddexp2"):
        got = getattr(ember, name)(ember.from_numpy(a), ember.from_numpy(b))
        with np.errstate(invalid="ignore"):
            expected = getattr(np, name)(a, b)
        np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-12)
    got = ember.logaddexp(ember.tensor([1.0, 2.0]), 0.0)  # Python scalar keeps float32
    assert_close(got, np.logaddexp([1.0, 2.0], 0.0), dtype=ember.float32)


def test_logaddexp_bad_input() -> None:
    i = ember.ones(2, dtype=ember.int64)
    raises(TypeError, "logaddexp", lambda: ember.logaddexp(i, i), "int64")
    raises(RuntimeError, "logaddexp2", lambda: ember.logaddexp2(ember.ones(2), ember.ones(3)))


# ---------------------------------------------------------------- diff


@given(shape=shapes(min_dims=1, max_dims=3), data=st.data())
def test_diff_matches_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = data.draw(st.integers(0, 4))
    dtype = data.draw(st.sampled_from([ember.int64, ember.int32, ember.float32, ember.float64]))
    layout = data.draw(st.sampled_from(VIEW_LAYOUTS))
    x = np.round(values(shape, 6, 10.0))
    t = from_np(x, dtype, layout)
    ref = to_numpy(t)
    assert_close(ember.diff(t, n, dim), np.diff(ref, n, axis=dim), dtype=dtype)
    assert_close(t.diff(n=n, dim=dim), np.diff(ref, n, axis=dim), dtype=dtype)
    side = list(shape)
    side[dim] = 2
    pre, app = np.round(values(tuple(side), 7, 10.0)), np.round(values(tuple(side), 8, 10.0))
    got = ember.diff(t, n, dim, prepend=from_np(pre, dtype), append=from_np(app, dtype))
    expected = np.diff(ref, n, axis=dim, prepend=pre.astype(np_dtype(dtype)), append=app)
    assert_close(got, expected.astype(np_dtype(dtype)), dtype=dtype)


def test_diff_bool_and_unsigned() -> None:
    b = ember.tensor([True, False, False, True])
    assert_close(ember.diff(b), np.diff(np.array([True, False, False, True])), dtype=ember.bool)
    u = ember.tensor([1, 3, 7], dtype=ember.uint8)
    assert_close(ember.diff(u), np.array([2, 4]), dtype=ember.uint8)
    assert_close(ember.diff(ember.ones(3), n=5), np.zeros(0), dtype=ember.float32)


def test_diff_bad_input() -> None:
    raises(RuntimeError, "diff", lambda: ember.diff(ember.tensor(1.0)), "one-dimensional")
    raises(RuntimeError, "diff", lambda: ember.diff(ember.ones(2), n=-1), "-1")
    raises(IndexError, "diff", lambda: ember.diff(ember.ones(2), dim=1), "1")
    raises(
        RuntimeError, "diff", lambda: ember.diff(ember.ones(2, 3), prepend=ember.ones(3)), "(3,)"
    )


# ---------------------------------------------------------------- nansum / nanmean


def with_nans(shape: tuple[int, ...], seed: int) -> np.ndarray:
    x = values(shape, seed)
    x[np.random.default_rng(seed + 1).random(shape) < 0.3] = np.nan
    return x


@given(shape=shapes(max_dims=3), data=st.data())
def test_nansum_nanmean_match_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    dim = data.draw(st.none() | st.integers(-max(len(shape), 1), max(len(shape), 1) - 1))
    keepdim = data.draw(st.booleans())
    dtype = data.draw(st.sampled_from(FLOATS))
    layout = data.draw(st.sampled_from(VIEW_LAYOUTS))
    t = from_np(with_nans(shape, data.draw(st.integers(0, 50))), dtype, layout)
    x = to_numpy(t)
    axis = None if dim is None or len(shape) == 0 else dim
    assert_close(
        ember.nansum(t, dim, keepdim), np.nansum(x, axis=axis, keepdims=keepdim), dtype=dtype
    )
    assert_close(t.nansum(dim, keepdim), np.nansum(x, axis=axis, keepdims=keepdim), dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy warns on all-NaN slices
        expected = np.nanmean(x, axis=axis, keepdims=keepdim)
    assert_close(ember.nanmean(t, dim, keepdim), expected, dtype=dtype)
    assert_close(t.nanmean(dim, keepdim), expected, dtype=dtype)


def test_nansum_nanmean_dtypes_and_out() -> None:
    i = ember.tensor([1, 2, 3], dtype=ember.int32)
    assert_close(ember.nansum(i), np.array(6), dtype=ember.int64)
    h = ember.tensor([1.0, float("nan"), 2.0]).half()
    assert_close(ember.nansum(h), np.array(3.0), dtype=ember.float16)
    assert_close(ember.nanmean(h, dtype=ember.float64), np.array(1.5), dtype=ember.float64)
    out = ember.empty(())
    assert ember.nanmean(ember.tensor([1.0, float("nan")]), out=out) is out
    assert_close(out, np.array(1.0), dtype=ember.float32)
    out = ember.empty((), dtype=ember.float64)
    assert ember.nansum(ember.tensor([1.0, float("nan")]), dtype=ember.float64, out=out) is out
    assert_close(out, np.array(1.0), dtype=ember.float64)


def test_nansum_nanmean_bad_input() -> None:
    i = ember.tensor([1, 2])
    raises(RuntimeError, "nanmean", lambda: ember.nanmean(i), "int64")
    raises(RuntimeError, "nanmean", lambda: ember.nanmean(i, dtype=ember.float64), "int64")
    raises(IndexError, "nansum", lambda: ember.nansum(ember.ones(2), 3), "3")
    raises(IndexError, "nanmean", lambda: ember.ones(2).nanmean(-2), "-2")


# ---------------------------------------------------------------- sinc / sgn / heaviside


@given(shape=shapes(max_dims=3), data=st.data())
def test_sinc_sgn_match_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(FLOATS + REDUCED))
    layout = data.draw(st.sampled_from(VIEW_LAYOUTS))
    x = np.round(values(shape, 9), 1)
    t = from_np(x, dtype, layout)
    ref = to_numpy(t).astype(np.float64)
    tol = {"rtol": 2e-2, "atol": 2e-3} if dtype in REDUCED else {"atol": 1e-5}
    assert_close(ember.sinc(t), np.sinc(ref), dtype=dtype, **tol)
    assert_close(t.sinc(), np.sinc(ref), dtype=dtype, **tol)
    assert_close(ember.sgn(t), np.sign(ref), dtype=dtype)
    assert_close(t.sgn(), np.sign(ref), dtype=dtype)


def test_sinc_sgn_integers_and_in_place() -> None:
    assert_close(ember.sinc(ember.tensor([0, 1])), np.sinc([0.0, 1.0]), dtype=ember.float32)
    assert_close(ember.sgn(ember.tensor([-3, 0, 5])), np.array([-1, 0, 1]), dtype=ember.int64)
    t = ember.tensor([0.0, 0.5])
    assert t.sinc_() is t
    assert_close(t, np.sinc([0.0, 0.5]), dtype=ember.float32)
    t = ember.tensor([-2.0, 3.0])
    assert t.sgn_() is t
    assert_close(t, np.array([-1.0, 1.0]), dtype=ember.float32)


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.uint8])
def test_heaviside_matches_numpy(dtype: object) -> None:
    x = np.array([[-2.0, 0.0, 3.0], [0.0, 1.0, 0.0]]) if dtype != ember.uint8 else np.array([0, 2])
    v = np.array([5.0, 7.0, 9.0]) if x.ndim == 2 else np.array([4.0])
    t, tv = from_np(x, dtype), from_np(v, dtype)
    expected = np.heaviside(to_numpy(t), to_numpy(tv))
    assert_close(ember.heaviside(t, tv), expected, dtype=dtype)
    assert_close(t.heaviside(tv), expected, dtype=dtype)
    assert t.heaviside_(tv) is t
    assert_close(t, expected, dtype=dtype)


def test_heaviside_nan_and_bad_input() -> None:
    got = ember.heaviside(ember.tensor([float("nan")]), ember.tensor([0.5]))
    assert_close(got, np.array([0.0]), dtype=ember.float32)  # torch: NaN > 0 is false
    f = ember.ones(2)
    raises(RuntimeError, "heaviside", lambda: ember.heaviside(f, ember.ones(2).double()), "float64")
    raises(TypeError, "heaviside", lambda: ember.heaviside(f, 0.5), "values")  # type: ignore
    raises(RuntimeError, "heaviside", lambda: ember.heaviside(f, ember.ones(3)))


# ---------------------------------------------------------------- gcd / lcm


@pytest.mark.parametrize("dtype", [ember.int64, ember.int32, ember.int16, ember.int8, ember.uint8])
def test_gcd_lcm_match_numpy(dtype: object) -> None:
    rng = np.random.default_rng(10)
    low = 0 if dtype == ember.uint8 else -12
    a, b = rng.integers(low, 12, (3, 5)), rng.integers(low, 12, (5,))
    ta, tb = from_np(a.astype(np.float64), dtype), from_np(b.astype(np.float64), dtype)
    npd = np_dtype(dtype)
    assert_close(ember.gcd(ta, tb), np.gcd(a, b).astype(npd), dtype=dtype)
    assert_close(ta.lcm(tb), np.lcm(a, b).astype(npd), dtype=dtype)
    assert ta.gcd_(tb) is ta
    assert_close(ta, np.gcd(a, b).astype(npd), dtype=dtype)


def test_gcd_lcm_bad_input() -> None:
    f = ember.ones(2)
    raises(TypeError, "gcd", lambda: ember.gcd(f, f), "float32")
    raises(TypeError, "lcm", lambda: ember.lcm(ember.tensor([True]), ember.tensor([True])))
    raises(RuntimeError, "gcd", lambda: ember.gcd(ember.tensor([1, 2]), ember.tensor([1, 2, 3])))


# ---------------------------------------------------------------- float_power


def test_float_power_is_float64() -> None:
    i = ember.tensor([1, 2, 3])
    assert_close(ember.float_power(i, 2), np.array([1.0, 4.0, 9.0]), dtype=ember.float64)
    assert_close(i.float_power(0.5), np.sqrt([1.0, 2.0, 3.0]), dtype=ember.float64)
    got = ember.float_power(2, ember.tensor([1.0, -1.0]))
    assert_close(got, np.array([2.0, 0.5]), dtype=ember.float64)
    h = ember.tensor([0.5]).half()
    assert_close(ember.float_power(ember.tensor([4.0]), h), np.array([2.0]), dtype=ember.float64)
    d = ember.tensor([3.0], dtype=ember.float64)
    assert d.float_power_(2) is d
    assert_close(d, np.array([9.0]), dtype=ember.float64)
    out = ember.empty(2, dtype=ember.float64)
    assert ember.float_power(ember.tensor([2, 3]), 3, out=out) is out
    assert_close(out, np.array([8.0, 27.0]), dtype=ember.float64)


def test_float_power_bad_input() -> None:
    f = ember.ones(2)
    raises(RuntimeError, "float_power_", lambda: f.float_power_(2), "float32", "float64")
    raises(RuntimeError, "float_power", lambda: ember.float_power(f, 2, out=ember.empty(2)))
    raises(RuntimeError, "pow", lambda: ember.float_power(f, ember.ones(3)))


# ---------------------------------------------------------------- erfinv / lgamma / digamma


def digamma_oracle(x: float) -> float:
    """digamma by the central difference of math.lgamma (accurate to ~1e-8)."""
    h = 1e-5
    return (math.lgamma(x + h) - math.lgamma(x - h)) / (2 * h)


@pytest.mark.parametrize("dtype", FLOATS + REDUCED)
def test_erfinv_inverts_erf(dtype: object) -> None:
    y = np.linspace(-0.999, 0.999, 41)
    t = from_np(y, dtype)
    got = to_numpy(ember.erfinv(t)).astype(np.float64)
    back = np.array([math.erf(v) for v in got])
    tol = 2e-2 if dtype in REDUCED else (1e-5 if dtype == ember.float32 else 1e-12)
    np.testing.assert_allclose(back, to_numpy(t).astype(np.float64), rtol=tol, atol=tol)
    assert ember.erfinv(t).dtype == dtype
    special = to_numpy(ember.erfinv(ember.tensor([-1.0, 1.0, 0.0, 1.5, float("nan")])))
    np.testing.assert_array_equal(special[:3], [-np.inf, np.inf, 0.0])
    assert np.isnan(special[3:]).all()


@pytest.mark.parametrize("dtype", FLOATS)
def test_lgamma_digamma_match_math(dtype: object) -> None:
    x = np.array([-2.5, -0.5, 0.1, 0.5, 1.0, 1.5, 2.0, 7.25, 30.0, 150.0])
    t = from_np(x, dtype)
    xi = to_numpy(t).astype(np.float64)
    tol = 1e-5 if dtype == ember.float32 else 1e-7
    assert_close(ember.lgamma(t), np.array([math.lgamma(v) for v in xi]), dtype=dtype, rtol=tol)
    expected = np.array([digamma_oracle(v) for v in xi])
    assert_close(ember.digamma(t), expected, dtype=dtype, rtol=1e-5, atol=1e-5)
    assert_close(t.digamma(), expected, dtype=dtype, rtol=1e-5, atol=1e-5)


def test_lgamma_digamma_special_values_and_integers() -> None:
    inf, nan = float("inf"), float("nan")
    lg = to_numpy(ember.lgamma(ember.tensor([0.0, -1.0, inf, -inf])))
    np.testing.assert_array_equal(lg, [inf, inf, inf, inf])
    dg = to_numpy(ember.digamma(ember.tensor([0.0, -0.0, -1.0, -inf, inf, nan])))
    np.testing.assert_array_equal(dg[:2], [-inf, inf])
    assert np.isnan(dg[2]) and np.isnan(dg[3]) and dg[4] == inf and np.isnan(dg[5])
    # Integer inputs promote to the default float dtype.
    assert_close(ember.digamma(ember.tensor([1])), np.array([-0.5772157]), dtype=ember.float32)
    assert_close(ember.lgamma(ember.tensor([3])), np.array([math.log(2.0)]), dtype=ember.float32)
    t = ember.tensor([0.5])
    assert t.lgamma_() is t and t.erfinv_() is t and t.digamma_() is t
    for half in REDUCED:
        assert ember.digamma(ember.tensor([0.5])._to_dtype(half)).dtype == half


def test_float_only_ops_bad_input() -> None:
    raises(RuntimeError, "erfinv", lambda: ember.tensor([1, 2]).erfinv_(), "int64")
    raises(RuntimeError, "lgamma", lambda: ember.lgamma(ember.ones(2), out=ember.empty(2).long()))
