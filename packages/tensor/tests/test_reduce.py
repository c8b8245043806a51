"""Reductions and scans against numpy: sum/prod/mean/amax/amin/all/any, max/min (values and
indices), argmax/argmin, var/std(_mean), logsumexp, norm, count_nonzero, cumsum/cumprod."""

from __future__ import annotations

import contextlib
import math
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import INT_DTYPES, NUMPY_DTYPES, assert_close, shapes, to_numpy, with_layout

FLOATS = [ember.float16, ember.float32, ember.float64]  # the floats numpy has
INTS = list(INT_DTYPES)


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Random values of an ember dtype as numpy; small integers so ties happen."""
    if dtype == ember.bool:
        return rng.random(shape) < 0.5
    if dtype == ember.uint8:
        return rng.integers(0, 6, shape).astype(np.uint8)
    if dtype in INTS:
        return rng.integers(-4, 5, shape).astype(NUMPY_DTYPES[dtype])
    return rng.standard_normal(shape).astype(NUMPY_DTYPES[dtype])


@st.composite
def arrays(
    draw: st.DrawFn,
    dtypes: list[Any] = FLOATS,
    min_dims: int = 0,
    max_dims: int = 4,
    min_side: int = 0,
) -> np.ndarray:
    """A numpy array that may be a non-contiguous view (transposed or sliced), so that
    ember.from_numpy gives a strided ember tensor."""
    shape = draw(shapes(min_side, 5, min_dims, max_dims))
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    layout = draw(st.sampled_from(["contiguous", "transposed", "strided"]))
    return with_layout(values(rng, shape, dtype), layout)


@st.composite
def dims_for(draw: st.DrawFn, ndim: int) -> int | tuple[int, ...] | None:
    """None, one (possibly negative) dim, or a tuple of distinct dims."""
    rank = max(ndim, 1)
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none":
        return None
    if kind == "int":
        return draw(st.integers(-rank, rank - 1))
    picked = draw(st.lists(st.integers(0, rank - 1), unique=True, max_size=rank))
    return tuple(d - rank if draw(st.booleans()) else d for d in picked)


def np_axis(a: np.ndarray, dim: int | tuple[int, ...] | None) -> int | tuple[int, ...] | None:
    """numpy's axis for an ember dim argument: None or () reduce everything."""
    if dim is None or dim == () or a.ndim == 0:
        return None
    return dim


def reduced_count(a: np.ndarray, dim: int | tuple[int, ...] | None) -> int:
    axis = np_axis(a, dim)
    if axis is None:
        return a.size
    axes = (axis,) if isinstance(axis, int) else axis
    return math.prod(a.shape[d] for d in axes)


def tol(dtype: Any, n: int = 1) -> dict[str, float]:
    """Tolerances for a reduction of n elements computed in a wider type than dtype."""
    scale = math.sqrt(max(n, 1))
    if dtype == ember.float16:
        return {"rtol": 2e-3, "atol": 2e-3 * scale}
    if dtype == ember.bfloat16:
        return {"rtol": 1.6e-2, "atol": 1e-2 * scale}
    if dtype == ember.float32:
        return {"rtol": 1e-5, "atol": 1e-5 * scale}
    return {"rtol": 1e-10, "atol": 1e-10 * scale}


def E(a: np.ndarray) -> ember.Tensor:
    return ember.from_numpy(a)


def draw_reduction(data: st.DataObject, a: np.ndarray) -> tuple[ember.Tensor, Any, bool, Any]:
    """Draws dim then keepdim for a: (a as an ember tensor, dim, keepdim, numpy's axis)."""
    dim = data.draw(dims_for(a.ndim))
    keepdim = data.draw(st.booleans())
    return E(a), dim, keepdim, np_axis(a, dim)


@contextlib.contextmanager
def quiet_numpy() -> Iterator[None]:
    """numpy's oracle warns on empty means and overflowing products; the values are still right."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


# --- sum / prod / mean / amax / amin / all / any -------------------------------------------


@given(arrays(FLOATS + INTS + [ember.bool]), st.data())
def test_sum_prod_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x, dim, keepdim, axis = draw_reduction(data, a)
    dtype = x.dtype
    expected_dtype = dtype if dtype in FLOATS else ember.int64
    wide = a.astype(np.float64 if dtype in FLOATS else np.int64)
    kd = keepdim and a.ndim > 0
    n = reduced_count(a, dim)
    s = ember.sum(x, dim, keepdim)
    assert_close(s, wide.sum(axis=axis, keepdims=kd), dtype=expected_dtype, **tol(dtype, n))
    p = x.prod(dim, keepdim)
    with quiet_numpy():
        expected = wide.prod(axis=axis, keepdims=kd)
    if dtype in FLOATS:
        assert_close(p, expected, dtype=expected_dtype, rtol=tol(dtype, n)["rtol"] * n, atol=1e-3)
    else:
        assert_close(p, expected, dtype=expected_dtype)


@given(arrays(FLOATS), st.data())
def test_mean_amax_amin_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x, dim, keepdim, axis = draw_reduction(data, a)
    kd = keepdim and a.ndim > 0
    n = reduced_count(a, dim)
    with quiet_numpy():
        expected = a.astype(np.float64).mean(axis=axis, keepdims=kd)
    assert_close(ember.mean(x, dim, keepdim), expected, dtype=x.dtype, **tol(x.dtype, n))
    if n == 0:
        if a.size or a.ndim:
            with pytest.raises(IndexError, match=r"\[amax\]"):
                ember.amax(x, dim, keepdim)
        return
    assert_close(ember.amax(x, dim, keepdim), a.max(axis=axis, keepdims=kd), dtype=x.dtype)
    assert_close(x.amin(dim, keepdim), a.min(axis=axis, keepdims=kd), dtype=x.dtype)


@given(arrays(FLOATS + INTS + [ember.bool]), st.data())
def test_all_any_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    dim = data.draw(dims_for(a.ndim))
    x = E(a)
    axis = np_axis(a, dim)
    out_dtype = ember.uint8 if x.dtype == ember.uint8 else ember.bool
    assert_close(ember.all(x, dim), np.all(a, axis=axis), dtype=out_dtype)
    assert_close(x.any(dim, True), np.any(a, axis=axis, keepdims=a.ndim > 0), dtype=out_dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_lengths_around_the_vector_loop_bounds(dtype: Any) -> None:
    # The contiguous sum runs 4 or 8 vector accumulators (by ISA) over 256-byte steps, a scalar
    # tail, and pairwise halves above 16K floats: every length near those bounds, against fsum.
    rng = np.random.default_rng(7)
    lengths = [*range(0, 70), 127, 128, 129, 255, 256, 257, 16383, 16384, 16385, 40000, 65537]
    for n in lengths:
        a = rng.standard_normal(n).astype(dtype)
        exact = math.fsum(float(v) for v in a)
        for name in ("sum", "nansum"):
            got = getattr(ember.from_numpy(a), name)().item()
            tol = (1e-5 if dtype == np.float32 else 1e-12) * (1 + math.fsum(abs(a.astype(float))))
            assert abs(got - exact) <= tol, (name, n, got, exact)
    b = rng.standard_normal(1000).astype(dtype)
    b[::7] = np.nan
    assert ember.from_numpy(b).nansum().item() == pytest.approx(float(np.nansum(b)), rel=1e-5)


def test_sum_dtypes_and_out() -> None:
    i8 = E(np.full((4, 100), 100, dtype=np.int8))
    assert ember.sum(i8).dtype == ember.int64
    assert ember.sum(i8).item() == 40000
    assert ember.sum(E(np.ones(5, dtype=np.bool_))).item() == 5
    assert ember.sum(i8, 1, dtype=ember.float32).dtype == ember.float32
    # float16 accumulates in float32: 4096 + 4096 * 0.5 steps would stall in float16.
    h = E(np.ones(20000, dtype=np.float16))
    assert ember.sum(h).dtype == ember.float16
    assert to_numpy(ember.sum(h).float()) == np.float32(np.float16(20000))
    assert abs(ember.mean(h).item() - 1.0) < 1e-3
    x = E(np.arange(6, dtype=np.float32).reshape(2, 3))
    out = E(np.zeros(1, dtype=np.float64))
    assert ember.sum(x, -1, out=out) is out
    assert_close(out, np.array([3.0, 12.0]), dtype=ember.float64)
    assert_close(ember.prod(x, (0, 1), keepdim=True), np.zeros((1, 1)), dtype=ember.float32)
    # torch: with out= and no dtype=, sum runs in out's dtype (the input cast first).
    int_out = E(np.zeros(3, dtype=np.int64))
    ember.sum(x * 1.5, 0, out=int_out)
    assert_close(int_out, (x * 1.5).numpy().astype(np.int64).sum(0), dtype=ember.int64)
    with pytest.raises(RuntimeError, match=r"\[mean\] result type Float can't be cast"):
        ember.mean(x, 0, out=E(np.zeros(3, dtype=np.int64)))
    ints = E(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert_close(ember.mean(ints, 0, dtype=ember.float64), np.array([1.5, 2.5, 3.5]))
    assert_close(ints.prod(1, dtype=ember.float32), np.array([0.0, 60.0]), dtype=ember.float32)
    amax_out = E(np.zeros(2, dtype=np.float32))
    assert ember.amax(x, 1, out=amax_out) is amax_out
    assert amax_out.tolist() == [2.0, 5.0]
    all_out = E(np.zeros(3, dtype=np.bool_))
    assert ember.all(x, 0, out=all_out) is all_out
    assert all_out.tolist() == [False, True, True]


def test_empty_reductions() -> None:
    z = E(np.zeros((0, 3), dtype=np.float32))
    assert_close(ember.sum(z), np.float32(0), dtype=ember.float32)
    assert_close(ember.sum(z, 0), np.zeros(3), dtype=ember.float32)
    assert_close(ember.prod(z, 0), np.ones(3), dtype=ember.float32)
    assert math.isnan(ember.mean(z).item())
    assert_close(ember.amax(z, 1), np.zeros(0), dtype=ember.float32)
    assert ember.all(z).item() is True
    assert ember.any(z).item() is False


@pytest.mark.parametrize("op", ["sum", "prod", "mean", "amax", "amin", "all", "any"])
def test_reduce_bad_dims(op: str) -> None:
    x = E(np.ones((2, 3), dtype=np.float32))
    fn = getattr(ember, op)
    with pytest.raises(IndexError, match=rf"\[{op}\].*\[-2, 1\].*got 2"):
        fn(x, 2)
    with pytest.raises(IndexError, match=rf"\[{op}\].*got -3"):
        fn(x, (0, -3))
    with pytest.raises(RuntimeError, match=rf"\[{op}\] dim 1 appears multiple times"):
        fn(x, (1, -1))
    with pytest.raises(TypeError, match=rf"\[{op}\]"):
        fn(x, 1.5)


def test_mean_of_ints_raises() -> None:
    with pytest.raises(TypeError, match=r"\[mean\].*int64"):
        ember.mean(E(np.arange(4)))


# --- max / min / argmax / argmin ----------------------------------------------------------


@given(arrays(FLOATS + INTS + [ember.bool], min_dims=1), st.data())
def test_max_min_dim_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    dim = data.draw(st.integers(-a.ndim, a.ndim - 1))
    keepdim = data.draw(st.booleans())
    x = E(a)
    for op, np_val, np_idx in (("max", np.max, np.argmax), ("min", np.min, np.argmin)):
        if a.shape[dim] == 0:
            with pytest.raises(IndexError, match=rf"\[{op}\] Expected reduction dim"):
                getattr(ember, op)(x, dim, keepdim)
            continue
        r = getattr(ember, op)(x, dim, keepdim)
        assert isinstance(r, getattr(ember.return_types, op))
        values, indices = r
        assert values is r.values and indices is r.indices
        assert_close(values, np_val(a, axis=dim, keepdims=keepdim), dtype=x.dtype)
        idx = np_idx(a, axis=dim, keepdims=keepdim)
        assert_close(indices, idx, dtype=ember.int64)
        m = getattr(x, op)(dim, keepdim=keepdim)
        assert_close(m.indices, idx, dtype=ember.int64)


@given(arrays(FLOATS + INTS, min_side=0), st.data())
def test_argmax_argmin_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = E(a)
    use_dim = data.draw(st.booleans()) and a.ndim > 0
    keepdim = data.draw(st.booleans())
    for op, np_idx in (("argmax", np.argmax), ("argmin", np.argmin)):
        fn = getattr(ember, op)
        if not use_dim:
            if a.size == 0:
                with pytest.raises(IndexError, match=rf"\[{op}\] Expected reduction dim"):
                    fn(x)
                continue
            expected = np.asarray(np_idx(a))
            if keepdim:
                expected = expected.reshape((1,) * a.ndim)
            assert_close(fn(x, keepdim=keepdim), expected, dtype=ember.int64)
            continue
        dim = data.draw(st.integers(-a.ndim, a.ndim - 1))
        if a.shape[dim] == 0:
            with pytest.raises(IndexError, match=rf"\[{op}\]"):
                fn(x, dim)
            continue
        got = getattr(x, op)(dim, keepdim)
        assert_close(got, np_idx(a, axis=dim, keepdims=keepdim), dtype=ember.int64)


def test_max_nan_and_ties() -> None:
    nan = float("nan")
    a = np.array([[1.0, nan, 3.0, nan], [2.0, 5.0, 5.0, 1.0]], dtype=np.float32)
    values, indices = ember.max(E(a), 1)
    assert_close(values, np.array([nan, 5.0]), dtype=ember.float32)
    assert indices.tolist() == [1, 1]
    values, indices = ember.min(E(a), 1)
    assert_close(values, np.array([nan, 1.0]), dtype=ember.float32)
    assert indices.tolist() == [1, 3]
    assert ember.argmax(E(a)).item() == 1
    assert ember.argmin(E(a), 0).tolist() == [0, 0, 0, 0]
    assert math.isnan(ember.max(E(a)).item())
    # Down a column (the vertical path): first NaN index, first tie.
    col = np.array([[1.0, 2.0], [nan, 2.0], [nan, 1.0]], dtype=np.float64)
    assert ember.max(E(col), 0).indices.tolist() == [1, 0]
    assert ember.argmin(E(col), 0).tolist() == [1, 2]
    ones = E(np.ones((3, 40), dtype=np.float16))
    assert ember.argmax(ones, 0).tolist() == [0] * 40
    inf = E(np.array([-np.inf, -np.inf], dtype=np.float32))
    assert ember.max(inf, 0).values.item() == -np.inf
    assert ember.max(inf, 0).indices.item() == 0


def test_max_overloads() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.full(3, 2.5, dtype=np.float32)
    x, y = E(a), E(b)
    assert_close(ember.max(x), np.float32(5), dtype=ember.float32)
    assert_close(x.min(), np.float32(0), dtype=ember.float32)
    assert_close(ember.max(x, y), np.maximum(a, b), dtype=ember.float32)
    assert_close(ember.min(x, other=y), np.minimum(a, b), dtype=ember.float32)
    assert_close(x.max(y), np.maximum(a, b), dtype=ember.float32)
    s = ember.from_numpy(np.array(4.0))
    assert ember.max(s, 0).values.item() == 4.0
    assert ember.max(s, -1, True).indices.item() == 0
    vals, idx = E(np.zeros(1, dtype=np.float32)), E(np.zeros(1, dtype=np.int64))
    r = ember.max(x, 1, out=(vals, idx))
    assert r.values is vals and r.indices is idx
    assert vals.tolist() == [2.0, 5.0] and idx.tolist() == [2, 2]
    out = E(np.zeros((), dtype=np.float32))
    assert ember.max(x, out=out) is out and out.item() == 5.0
    assert ember.max(E(np.array([True, False])), 0).values.item() is True
    empty_rows = ember.max(E(np.zeros((0, 3), dtype=np.float32)), 1)
    assert tuple(empty_rows.values.shape) == (0,)
    m = ember.max(x, 1)
    assert repr(m).startswith("max(values=")
    restored = pickle.loads(pickle.dumps(ember.return_types.min(1, 2)))
    assert type(restored) is ember.return_types.min and restored.indices == 2


def test_max_errors() -> None:
    x = E(np.ones((2, 3), dtype=np.float32))
    with pytest.raises(RuntimeError, match=r"\[max\] Expected reduction dim to be specified"):
        ember.max(E(np.zeros(0, dtype=np.float32)))
    with pytest.raises(IndexError, match=r"\[min\].*\[-2, 1\].*got 2"):
        ember.min(x, 2)
    with pytest.raises(TypeError, match=r"\[max\]"):
        ember.max(x, 1.0)
    with pytest.raises(TypeError, match=r"\[max\]"):
        ember.max(x, (0, 1))
    with pytest.raises(TypeError, match=r"\[max\]"):
        ember.max(x, keepdim=True)
    with pytest.raises(RuntimeError, match=r"\[max\].*int64.*int32"):
        ember.max(x, 1, out=(E(np.zeros(2, np.float32)), E(np.zeros(2, np.int32))))
    with pytest.raises(RuntimeError, match=r"\[max\].*float32.*float64"):
        ember.max(x, 1, out=(E(np.zeros(2, np.float64)), E(np.zeros(2, np.int64))))
    with pytest.raises(TypeError, match=r"\[max\].*tuple of two"):
        ember.max(x, 1, out=E(np.zeros(2, np.float32)))
    with pytest.raises(RuntimeError, match=r"\[argmax\] does not support bool"):
        ember.argmax(E(np.array([True])))
    with pytest.raises(TypeError, match=r"\[argmax\].*'dim' must be int"):
        ember.argmax(x, (0,))
    with pytest.raises(IndexError, match=r"\[argmin\].*got -3"):
        ember.argmin(x, -3)
    with pytest.raises(RuntimeError, match=r"\[argmax\].*int64"):
        ember.argmax(x, 0, out=E(np.zeros(3, np.int32)))


# --- var / std / var_mean / std_mean -------------------------------------------------------


@given(arrays(FLOATS), st.data())
def test_var_std_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x, dim, keepdim, axis = draw_reduction(data, a)
    correction = data.draw(st.sampled_from([0, 1, 2, 0.5]))
    kd = keepdim and a.ndim > 0
    n = reduced_count(a, dim)
    wide = a.astype(np.float64)
    with quiet_numpy():
        mean = wide.mean(axis=axis, keepdims=kd)
        sq = ((wide - wide.mean(axis=axis, keepdims=True)) ** 2).sum(axis=axis, keepdims=kd)
        expected = sq / max(0.0, n - correction)
    t = tol(x.dtype, 1)
    assert_close(ember.var(x, dim, keepdim=keepdim, correction=correction), expected, **t)
    assert_close(x.std(dim, keepdim=keepdim, correction=correction), np.sqrt(expected), **t)
    v, m = ember.var_mean(x, dim, keepdim=keepdim, correction=correction)
    assert_close(v, expected, dtype=x.dtype, **t)
    assert_close(m, mean, dtype=x.dtype, **tol(x.dtype, n))
    s, m = ember.std_mean(x, dim, keepdim=keepdim, correction=correction)
    assert_close(s, np.sqrt(expected), dtype=x.dtype, **t)


def test_var_signatures() -> None:
    a = np.random.default_rng(0).standard_normal((3, 4))
    x = E(a)
    assert_close(ember.var(x), a.var(ddof=1))
    assert_close(ember.var(x, False), a.var())
    assert_close(ember.var(x, unbiased=False), a.var())
    assert_close(ember.var(x, 1, True), a.var(1, ddof=1))
    assert_close(ember.var(x, 1, False, True), a.var(1, keepdims=True))
    assert_close(ember.std(x, dim=0, unbiased=False), a.std(0))
    assert_close(x.var(1, keepdim=True), a.var(1, ddof=1, keepdims=True))
    assert_close(x.std(correction=0), a.std())
    assert_close(ember.var(x, dim=[]), a.var(ddof=1))
    out = E(np.zeros(1))
    assert ember.std(x, 0, out=out) is out
    assert_close(out, a.std(0, ddof=1))
    with pytest.raises(TypeError, match=r"\[var\].*both 'unbiased' and 'correction'"):
        ember.var(x, 1, unbiased=False, correction=0)
    with pytest.raises(RuntimeError, match=r"\[var\].*floating point.*int64"):
        ember.var(E(np.arange(3)))
    with pytest.raises(RuntimeError, match=r"\[std_mean\].*bool"):
        ember.std_mean(E(np.ones(3, dtype=np.bool_)))
    with pytest.raises(IndexError, match=r"\[std\].*got 5"):
        ember.std(x, 5)


def test_var_edge_cases() -> None:
    assert ember.var(E(np.array([1.0, 2.0], np.float32)), correction=3).item() == math.inf
    assert math.isnan(ember.var(E(np.array([1.0, 1.0], np.float32)), correction=3).item())
    assert math.isnan(ember.var(E(np.zeros(0, np.float32))).item())
    v, m = ember.var_mean(E(np.zeros((0, 2), np.float32)), 0)
    assert all(math.isnan(t) for t in v.tolist() + m.tolist())
    # A large offset: a naive sum-of-squares in float32 would lose every digit.
    a = (1e4 + np.random.default_rng(1).standard_normal(10000)).astype(np.float32)
    assert_close(ember.var(E(a)), a.astype(np.float64).var(ddof=1), rtol=1e-5)
    h = a.astype(np.float16)
    assert_close(ember.std(E(h)), h.astype(np.float64).std(ddof=1), rtol=1e-3, atol=1e-3)
    bf = E(np.linspace(-1, 1, 101, dtype=np.float32)).bfloat16()
    assert bf.var().dtype == ember.bfloat16
    assert abs(bf.var().float().item() - np.linspace(-1, 1, 101).var(ddof=1)) < 1e-2


# --- logsumexp / norm / count_nonzero ------------------------------------------------------


def np_logsumexp(a: np.ndarray, axis: int | tuple[int, ...] | None, keepdims: bool) -> np.ndarray:
    m = np.max(a, axis=axis, keepdims=True) if a.size else np.zeros([1] * a.ndim)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        r = np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True)) + m
    return r if keepdims else np.squeeze(r, axis=axis) if axis is not None else r.reshape(())


@given(arrays(FLOATS), st.data())
def test_logsumexp_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x, dim, keepdim, axis = draw_reduction(data, a)
    expected = np_logsumexp(a.astype(np.float64) * 10, axis, keepdim and a.ndim > 0)
    got = ember.logsumexp(E((a.astype(np.float64) * 10).astype(a.dtype)), dim, keepdim)
    assert got.dtype == x.dtype
    t = tol(x.dtype)
    assert_close(got, expected, rtol=t["rtol"] * 4, atol=t["atol"] * 100)


def test_logsumexp_special_values() -> None:
    inf, nan = math.inf, math.nan
    a = np.array([[-inf, -inf], [inf, 1.0], [nan, 1.0], [1000.0, 1000.0], [inf, -inf]])
    got = ember.logsumexp(E(a.astype(np.float32)), 1).tolist()
    assert got[0] == -inf and got[1] == inf and math.isnan(got[2]) and got[4] == inf
    assert abs(got[3] - (1000 + math.log(2))) < 1e-3
    # Column-wise (the vertical path) gives the same.
    col = ember.logsumexp(E(np.ascontiguousarray(a.T)), 0).tolist()
    assert col[0] == -inf and col[1] == inf and math.isnan(col[2])
    assert ember.logsumexp(E(np.zeros((0, 2), np.float32)), 0).tolist() == [-inf, -inf]
    ints = ember.logsumexp(E(np.array([1, 2])), 0)
    assert ints.dtype == ember.float32
    assert abs(ints.item() - math.log(math.e + math.e**2)) < 1e-5
    out = E(np.zeros(3, np.float32))
    assert ember.logsumexp(E(np.zeros((2, 3), np.float32)), 0, out=out) is out
    assert_close(out, np.full(3, math.log(2)))
    with pytest.raises(IndexError, match=r"\[logsumexp\].*got 2"):
        ember.logsumexp(E(np.zeros((2, 3), np.float32)), 2)


@given(arrays(FLOATS), st.data())
def test_norm_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x, dim, keepdim, axis = draw_reduction(data, a)
    p = data.draw(st.sampled_from(["fro", 2, 1, 0, 3, 0.5, -1, math.inf, -math.inf]))
    kd = keepdim and a.ndim > 0
    n = reduced_count(a, dim)
    fro = p == "fro"
    order = 2.0 if fro else float(p)
    if n == 0 and (order < 0 or math.isinf(order)):
        if np.sum(a, axis=axis).size > 0:
            with pytest.raises(RuntimeError, match=r"\[norm\].*identity"):
                ember.norm(x, p, dim, keepdim)
        return
    w = np.abs(a.astype(np.float64))
    with quiet_numpy():
        if order == math.inf:
            expected = w.max(axis=axis, keepdims=kd)
        elif order == -math.inf:
            expected = w.min(axis=axis, keepdims=kd)
        elif order == 0:
            expected = (w != 0).sum(axis=axis, keepdims=kd).astype(np.float64)
        else:
            expected = (w**order).sum(axis=axis, keepdims=kd) ** (1 / order)
    got = ember.norm(x, p, dim, keepdim)
    assert got.dtype == x.dtype
    t = tol(x.dtype, n)
    assert_close(got, expected, rtol=t["rtol"] * 4, atol=t["atol"])
    if fro and dim is None:
        assert_close(x.norm(), np.linalg.norm(w.ravel()), rtol=t["rtol"] * 4, atol=t["atol"])


def test_norm_dtype_and_errors() -> None:
    a = np.array([[3.0, -4.0], [0.0, 12.0]], dtype=np.float32)
    x = E(a)
    assert ember.norm(x).item() == 13.0
    assert ember.norm(x.half(), dtype=ember.float32).dtype == ember.float32
    assert ember.norm(x, 1, 1).tolist() == [7.0, 12.0]
    assert ember.norm(x, math.inf).item() == 12.0
    assert ember.norm(x, 0, dim=0).tolist() == [1.0, 2.0]
    assert ember.norm(x, -1, dim=(0,)).tolist() == [0.0, 3.0]
    assert_close(x.norm("fro", (0, 1), True), np.array([[13.0]]), dtype=ember.float32)
    out = E(np.zeros(1, np.float64))
    assert ember.norm(x, 2, 1, False, out) is out
    nan = E(np.array([1.0, np.nan], np.float32))
    assert math.isnan(ember.norm(nan, math.inf).item())
    assert math.isnan(ember.norm(nan).item())
    with pytest.raises(RuntimeError, match=r"\[norm\].*floating point.*int64"):
        ember.norm(E(np.arange(3)))
    with pytest.raises(RuntimeError, match=r"\[norm\].*narrowing"):
        ember.norm(x, dtype=ember.float16)
    with pytest.raises(RuntimeError, match=r"\[norm\] dtype should be floating"):
        ember.norm(x, dtype=ember.int64)
    with pytest.raises(RuntimeError, match=r"\[norm\] order 'abc'"):
        ember.norm(x, "abc")
    with pytest.raises(NotImplementedError, match=r"\[norm\].*nuc"):
        ember.norm(x, "nuc")
    with pytest.raises(RuntimeError, match=r"\[norm\].*inf norm.*identity"):
        ember.norm(E(np.zeros(0, np.float32)), math.inf)
    with pytest.raises(RuntimeError, match=r"\[norm\] dim 0 appears multiple times"):
        ember.norm(x, 2, (0, 0))
    assert ember.norm(E(np.zeros((0, 3), np.float32)), math.inf, 1).tolist() == []
    assert ember.norm(E(np.zeros(0, np.float32)), 0).item() == 0.0


@given(arrays(FLOATS + INTS + [ember.bool]), st.data())
def test_count_nonzero_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    dim = data.draw(dims_for(a.ndim))
    x = E(a)
    expected = np.count_nonzero(a, axis=np_axis(a, dim))
    assert_close(ember.count_nonzero(x, dim), np.asarray(expected), dtype=ember.int64)
    assert_close(x.count_nonzero(dim=dim), np.asarray(expected), dtype=ember.int64)


def test_count_nonzero_nan_and_errors() -> None:
    assert ember.count_nonzero(E(np.array([np.nan, 0.0, -0.0, 1.0]))).item() == 2
    with pytest.raises(RuntimeError, match=r"\[count_nonzero\] dim 0 appears multiple"):
        ember.count_nonzero(E(np.ones((2, 2))), (0, 0))
    with pytest.raises(IndexError, match=r"\[count_nonzero\].*got 2"):
        ember.count_nonzero(E(np.ones((2, 2))), 2)


# --- cumsum / cumprod ----------------------------------------------------------------------


@given(arrays(FLOATS + INTS + [ember.bool]), st.data())
def test_scans_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    rank = max(a.ndim, 1)
    dim = data.draw(st.integers(-rank, rank - 1))
    x = E(a)
    axis = None if a.ndim == 0 else dim
    is_float = x.dtype in FLOATS
    expected_dtype = x.dtype if is_float else ember.int64
    wide = a.astype(np.float64 if is_float else np.int64)
    expected_sum = np.cumsum(wide, axis=axis).reshape(a.shape)
    n = a.shape[dim] if a.ndim else 1
    assert_close(ember.cumsum(x, dim), expected_sum, dtype=expected_dtype, **tol(x.dtype, n))
    with quiet_numpy():
        expected_prod = np.cumprod(wide, axis=axis).reshape(a.shape)
    got = x.cumprod(dim)
    if is_float:
        assert_close(got, expected_prod, dtype=expected_dtype, rtol=tol(x.dtype)["rtol"] * 8)
    else:
        assert_close(got, expected_prod, dtype=expected_dtype)


def test_scan_dtypes_out_and_in_place() -> None:
    i8 = E(np.full(300, 100, dtype=np.int8))
    assert ember.cumsum(i8, 0).tolist()[-1] == 30000
    assert ember.cumsum(i8, 0).dtype == ember.int64
    assert ember.cumsum(E(np.ones(3, dtype=np.bool_)), 0).tolist() == [1, 2, 3]
    assert ember.cumsum(i8, 0, dtype=ember.int16).dtype == ember.int16
    f = E(np.array([1.5, 2.5, -1.0], dtype=np.float32))
    out = E(np.zeros(1, dtype=np.int64))
    # out's dtype is the dtype the scan runs in (the input is converted first), like torch.
    assert ember.cumsum(f, 0, out=out) is out
    assert out.tolist() == [1, 3, 2]
    with pytest.raises(RuntimeError, match=r"\[cumsum\].*int64.*float64"):
        ember.cumsum(f, 0, dtype=ember.int64, out=E(np.zeros(3, dtype=np.float64)))
    assert ember.cumprod(E(np.array([1, 2, 3], np.int32)), 0, dtype=ember.float16).tolist() == [
        1.0,
        2.0,
        6.0,
    ]
    y = E(np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32))
    assert y.cumsum_(0) is y
    assert y.tolist() == [[1.0, 2.0], [4.0, 6.0]]
    y.cumprod_(-1)
    assert y.tolist() == [[1.0, 2.0], [4.0, 24.0]]
    with pytest.raises(RuntimeError, match=r"\[cumsum_\].*float32.*float64"):
        y.cumsum_(0, dtype=ember.float64)
    # float16 accumulates in float32: 2048 + 1 is not representable in float16 steps.
    h = ember.cumsum(E(np.ones(3000, dtype=np.float16)), 0)
    assert h.float().tolist()[-1] == float(np.float16(3000))
    s = E(np.array(2.5))
    assert ember.cumsum(s, 0).item() == 2.5 and ember.cumprod(s, -1).item() == 2.5
    with pytest.raises(IndexError, match=r"\[cumsum\].*\[-1, 0\].*got 1"):
        ember.cumsum(s, 1)
    with pytest.raises(IndexError, match=r"\[cumprod\].*\[-2, 1\].*got 2"):
        ember.cumprod(y, 2)
    with pytest.raises(TypeError, match=r"\[cumsum\].*'dim' must be int"):
        ember.cumsum(y, (0,))


def test_large_rows_parallel_paths() -> None:
    """Sizes above the parallel grain, both reduced-dim orientations."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((300, 700)).astype(np.float32)
    for dim in (0, 1):
        assert_close(ember.max(E(a), dim).indices, a.argmax(dim), dtype=ember.int64)
        assert_close(ember.var(E(a), dim), a.astype(np.float64).var(dim, ddof=1), rtol=1e-5)
        assert_close(
            ember.cumsum(E(a), dim), np.cumsum(a.astype(np.float64), dim), rtol=1e-4, atol=1e-3
        )
        assert_close(
            ember.logsumexp(E(a), dim), np_logsumexp(a.astype(np.float64), dim, False), rtol=1e-5
        )
    assert ember.argmax(E(a)).item() == a.argmax()
    assert_close(ember.norm(E(a)), np.linalg.norm(a.astype(np.float64)), rtol=1e-5)


def test_full_reductions_split_across_threads() -> None:
    """One output over a long run: chunks reduced in parallel and merged in order."""
    rng = np.random.default_rng(4)
    a = (3.0 + rng.standard_normal(200_000)).astype(np.float32)
    a[[10, 150_000]] = 9.0  # tied maxima in different chunks: the first wins
    a[[5, 120_000]] = -9.0
    x = E(a)
    wide = a.astype(np.float64)
    assert_close(ember.var(x), wide.var(ddof=1), rtol=1e-5)
    v, m = ember.std_mean(x, correction=0)
    assert_close(v, wide.std(), rtol=1e-5)
    assert_close(m, wide.mean(), rtol=1e-5)
    assert ember.argmax(x).item() == 10
    assert ember.argmin(x).item() == 5
    assert ember.max(x, 0).indices.item() == 10
    assert_close(ember.norm(x, 3), (np.abs(wide) ** 3).sum() ** (1 / 3), rtol=1e-5)
    assert_close(
        ember.norm(x.half()), np.linalg.norm(a.astype(np.float16).astype(np.float64)), rtol=2e-3
    )
    z = a.copy()
    z[::3] = 0
    assert ember.count_nonzero(E(z)).item() == np.count_nonzero(z)
    nan = a.copy()
    nan[[120_000, 190_000]] = np.nan
    assert ember.argmax(E(nan)).item() == 120_000
    assert ember.argmin(E(nan)).item() == 120_000
    assert math.isnan(ember.var(E(nan)).item())
    # A transposed 2-d view: flattened indices follow the logical (row-major) order.
    b = rng.standard_normal((400, 300)).T
    assert ember.argmax(E(b)).item() == b.argmax()
    assert ember.argmin(E(b)).item() == b.argmin()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    ("shape", "dims"),
    [((1000, 64), (0,)), ((2, 5), (0,)), ((4, 3, 7), (0, 1)), ((6, 2, 5), (0,)), ((300, 1), (0,))],
)
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_over_leading_dims_matches_numpy(dtype, shape, dims, keepdim) -> None:
    # Small contiguous float sums over leading dims run as one BLAS gemv (ones @ x).
    rng = np.random.default_rng(len(shape))
    x_np = rng.standard_normal(shape).astype(dtype)
    x_np.flat[3] = np.nan
    x_np.flat[-1] = np.inf
    got = ember.from_numpy(x_np).sum(dims, keepdim=keepdim)
    expected = x_np.sum(axis=dims, keepdims=keepdim)
    assert got.dtype == ember.from_numpy(x_np).dtype
    assert tuple(got.shape) == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-5, atol=1e-4)
    out = ember.empty(expected.shape, dtype=got.dtype)
    ember.sum(ember.from_numpy(x_np), dims, keepdim=keepdim, out=out)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-4)
