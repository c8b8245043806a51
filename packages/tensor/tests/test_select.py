"""mode, unique, histc, bincount, cummax/cummin, logcumsumexp, aminmax, nanmedian, quantile.

numpy is the oracle for values; the few index choices that depend on how torch's CPU kernels
sort are checked on cases whose answer was read from torch 2.13 (noted where used).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import assert_close, np_dtype, raises, to_numpy, with_layout

NAN = float("nan")


def rows_case() -> st.SearchStrategy[tuple[tuple[int, ...], int]]:
    shape = st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple)
    return shape.flatmap(lambda s: st.tuples(st.just(s), st.integers(-len(s), len(s) - 1)))


@given(
    case=rows_case(),
    keepdim=st.booleans(),
    dtype=st.sampled_from([ember.int64, ember.float32, ember.uint8, ember.float16]),
)
def test_mode_matches_counts(case: Any, keepdim: bool, dtype: Any) -> None:
    shape, dim = case
    rng = np.random.default_rng(sum(shape))
    x = rng.integers(0, 3, shape).astype(np_dtype(dtype))
    values, indices = ember.mode(ember.from_numpy(x)._to_dtype(dtype), dim, keepdim)
    moved = np.moveaxis(x, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    want_v, want_i = [], []
    for run in flat:
        uniq, counts = np.unique(run, return_counts=True)
        best = uniq[np.argmax(counts)]  # the smallest of the most frequent
        want_v.append(best)
        # Runs this short are insertion-sorted (stable) in torch: the last occurrence.
        want_i.append(np.nonzero(run == best)[0][-1])
    out_shape = moved.shape[:-1]
    expected_v = np.array(want_v).reshape(out_shape)
    expected_i = np.array(want_i).reshape(out_shape)
    if keepdim:
        expected_v = np.expand_dims(expected_v, dim)
        expected_i = np.expand_dims(expected_i, dim)
    assert_close(values, expected_v, dtype=dtype)
    assert_close(indices, expected_i, dtype=ember.int64)


def test_mode_like_torch() -> None:
    assert ember.mode(ember.tensor([3, 1, 3, 1, 2])) == (ember.tensor(1), ember.tensor(3))
    # Read from torch 2.13: the long-row index follows its introsort's order of equal values.
    x = ember.tensor([float(v % 7) for v in range(40)])
    r = x.mode()
    assert r.values.item() == 0.0 and x[r.indices].item() == 0.0
    z = ember.tensor([0.0, -0.0, -0.0]).mode()
    assert z.indices.item() == 2 and np.signbit(z.values.item())
    assert ember.tensor(5.0).mode().values.item() == 5.0
    assert ember.zeros(2, 0).mode(0).values.shape == (0,)
    raises(IndexError, "mode", lambda: ember.zeros(2, 0).mode(1), "non-zero size")
    raises(IndexError, "mode", lambda: ember.zeros(2).mode(1))
    out = (ember.empty(0), ember.empty(0, dtype=ember.int64))
    r = ember.mode(ember.tensor([[1.0, 1.0, 2.0]]), 1, out=out)
    assert r.values is out[0] and out[0].tolist() == [1.0] and out[1].tolist() == [1]
    raises(
        RuntimeError,
        "mode",
        lambda: ember.mode(ember.ones(2), 0, out=(ember.empty(0), ember.empty(0))),
    )


@given(
    shape=st.lists(st.integers(0, 5), max_size=3).map(tuple),
    dtype=st.sampled_from([ember.int64, ember.float32, ember.bool, ember.int8]),
    layout=st.sampled_from(["contiguous", "transposed", "negative"]),
)
def test_unique_matches_numpy(shape: tuple[int, ...], dtype: Any, layout: str) -> None:
    rng = np.random.default_rng(len(shape))
    x = rng.integers(-2, 3, shape).astype(np_dtype(dtype))
    values, inverse, counts = ember.unique(
        ember.from_numpy(with_layout(x, layout))._to_dtype(dtype),
        return_inverse=True,
        return_counts=True,
    )
    u, inv, cnt = np.unique(x, return_inverse=True, return_counts=True)
    assert_close(values, u, dtype=dtype)
    assert_close(inverse, inv.reshape(shape), dtype=ember.int64)
    assert_close(counts, cnt, dtype=ember.int64)


@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), data=st.data())
def test_unique_dim_matches_numpy(shape: tuple[int, ...], data: Any) -> None:
    dim = data.draw(st.integers(0, len(shape) - 1))
    x = np.random.default_rng(sum(shape)).integers(0, 2, shape)
    values, inverse, counts = ember.unique(
        ember.from_numpy(x), dim=dim, return_inverse=True, return_counts=True
    )
    u, inv, cnt = np.unique(x, axis=dim, return_inverse=True, return_counts=True)
    assert_close(values, u)
    assert_close(inverse, inv.reshape(-1))
    assert_close(counts, cnt)


def test_unique_nan_zero_forms_and_errors() -> None:
    x = ember.tensor([3.0, NAN, 1.0, NAN, -0.0, 0.0])
    v, i, c = ember.unique(x, return_inverse=True, return_counts=True)
    got = to_numpy(v)
    assert got[:3].tolist() == [0.0, 1.0, 3.0] and np.isnan(got[3:]).all()  # NaNs stay apart
    assert i.tolist() == [2, 3, 1, 4, 0, 0] and c.tolist() == [2, 1, 1, 1, 1]  # as torch 2.13
    assert ember.tensor([[2, 1], [1, 2]]).unique(sorted=False).tolist() == [1, 2]
    v, i = ember.unique(ember.tensor(3), return_inverse=True)
    assert v.tolist() == [3] and i.shape == ()
    v, i, c = ember.unique(ember.zeros(0, 3), dim=0, return_inverse=True, return_counts=True)
    assert v.shape == (0, 3) and i.shape == (0,) and c.shape == (0,)
    raises(IndexError, "unique", lambda: ember.unique(ember.tensor(3), dim=0))
    raises(RuntimeError, "unique", lambda: ember.unique(ember.zeros(2, 0), dim=0), "0 sized")
    raises(IndexError, "unique", lambda: ember.unique(ember.zeros(2, 2), dim=2))


@given(
    n=st.integers(0, 50),
    bins=st.integers(1, 12),
    dtype=st.sampled_from([ember.float64, ember.float32]),
)
def test_histc_matches_numpy(n: int, bins: int, dtype: Any) -> None:
    rng = np.random.default_rng(n)
    x = rng.uniform(-2, 6, n).astype(np_dtype(dtype))
    got = ember.histc(ember.from_numpy(x), bins=bins, min=-1, max=5)
    inside = x[(x >= -1) & (x <= 5)]
    expected, _ = np.histogram(inside.astype(np.float64), bins=bins, range=(-1, 5))
    assert_close(got, expected, dtype=dtype)
    if n:
        lo, hi = float(x.min()), float(x.max())
        expected, _ = np.histogram(x, bins=bins, range=(lo, hi) if lo < hi else (lo - 1, hi + 1))
        assert_close(ember.from_numpy(x).histc(bins), expected)


def test_histc_edges_like_torch() -> None:
    # Bins computed in float32 as torch does: 0.7f lands in bin 7 (read from torch 2.13).
    x = ember.tensor([0.1, 0.2, 0.30000001, 0.7, 1.0])
    assert ember.histc(x, bins=10, min=0, max=1).tolist() == [0, 1, 1, 1, 0, 0, 0, 1, 0, 1]
    assert ember.histc(ember.tensor([1.0, 1.0, 1.0]), bins=4).tolist() == [0, 0, 3, 0]
    assert ember.histc(ember.tensor([]), bins=3).tolist() == [0, 0, 0]
    h = ember.histc(ember.tensor([1.0, 2.0, NAN, -5.0]).half(), bins=3, min=0, max=3)
    assert h.dtype == ember.float16 and h.tolist() == [0, 1, 1]
    out = ember.empty(0)
    assert ember.histc(ember.tensor([0.5]), bins=2, min=0, max=1, out=out) is out
    raises(NotImplementedError, "histc", lambda: ember.histc(ember.tensor([1, 2]), bins=2))
    raises(RuntimeError, "histc", lambda: ember.histc(ember.ones(2), bins=0), "bins")
    raises(RuntimeError, "histc", lambda: ember.histc(ember.ones(2), bins=2, min=3, max=0))
    raises(
        RuntimeError, "histc", lambda: ember.histc(ember.tensor([1.0, float("inf")])), "not finite"
    )


@given(
    n=st.integers(0, 40),
    minlength=st.integers(0, 12),
    weighted=st.sampled_from([None, ember.float32, ember.float64, ember.int32, ember.float16]),
)
def test_bincount_matches_numpy(n: int, minlength: int, weighted: Any) -> None:
    rng = np.random.default_rng(n)
    x = rng.integers(0, 9, n)
    w = rng.integers(-3, 4, n).astype(np.float64)
    weights = None if weighted is None else ember.from_numpy(w)._to_dtype(weighted)
    got = ember.bincount(ember.from_numpy(x), weights, minlength)
    expected = np.bincount(x, None if weighted is None else w, minlength)
    want = (
        ember.int64
        if weighted is None
        else (ember.float32 if weighted == ember.float32 else ember.float64)
    )
    assert_close(got, expected, dtype=want)
    assert_close(
        ember.from_numpy(x.astype(np.uint8)).bincount(minlength=minlength),
        np.bincount(x, minlength=minlength),
    )


def test_bincount_errors() -> None:
    raises(RuntimeError, "bincount", lambda: ember.bincount(ember.tensor([0, -1])), "-1")
    raises(RuntimeError, "bincount", lambda: ember.bincount(ember.tensor([[0, 1]])), "1-d")
    raises(RuntimeError, "bincount", lambda: ember.bincount(ember.tensor(1)))
    raises(NotImplementedError, "bincount", lambda: ember.bincount(ember.tensor([0.0])))
    raises(NotImplementedError, "bincount", lambda: ember.bincount(ember.tensor([True])))
    raises(RuntimeError, "bincount", lambda: ember.bincount(ember.tensor([0]), minlength=-1))
    raises(RuntimeError, "bincount", lambda: ember.bincount(ember.tensor([0, 1]), ember.ones(3)))


def cum_oracle(x: np.ndarray, is_max: bool) -> tuple[np.ndarray, np.ndarray]:
    """torch's cummax/cummin on the last axis: >= (<=) takes the later index; NaN sticks."""
    vals, idxs = np.empty_like(x), np.zeros(x.shape, np.int64)
    for pos in np.ndindex(*x.shape[:-1]):
        best, at = x[pos][0], 0
        for k, v in enumerate(x[pos]):
            take = v >= best if is_max else v <= best
            if np.isnan(v) or (not np.isnan(best) and take):
                best, at = v, k
            vals[pos][k], idxs[pos][k] = best, at
    return vals, idxs


@given(case=rows_case(), is_max=st.booleans())
def test_cummax_cummin_match_loop(case: Any, is_max: bool) -> None:
    shape, dim = case
    rng = np.random.default_rng(sum(shape))
    x = rng.integers(0, 4, shape).astype(np.float64)
    x[rng.random(shape) < 0.1] = NAN
    fn = ember.cummax if is_max else ember.cummin
    values, indices = fn(ember.from_numpy(x), dim)
    ev, ei = cum_oracle(np.moveaxis(x, dim, -1), is_max)
    assert_close(values, np.moveaxis(ev, -1, dim))
    assert_close(indices, np.moveaxis(ei, -1, dim))


def test_cum_extremes_forms() -> None:
    r = ember.tensor([True, False, True]).cummax(0)
    assert r.values.tolist() == [True, True, True] and r.indices.tolist() == [0, 0, 2]
    assert ember.cummin(ember.tensor(2.0), 0).indices.item() == 0
    assert ember.cummax(ember.zeros(2, 0), 1).values.shape == (2, 0)
    out = (ember.empty(0, dtype=ember.int64), ember.empty(0, dtype=ember.int64))
    assert ember.cummax(ember.tensor([1, 3, 2]), 0, out=out).values is out[0]
    assert out[0].tolist() == [1, 3, 3]
    raises(IndexError, "cummax", lambda: ember.cummax(ember.ones(2), 1))


@given(case=rows_case(), dtype=st.sampled_from([ember.float32, ember.float64]))
def test_logcumsumexp_matches_numpy(case: Any, dtype: Any) -> None:
    shape, dim = case
    x = np.random.default_rng(sum(shape)).normal(0, 5, shape)
    got = ember.logcumsumexp(ember.from_numpy(x)._to_dtype(dtype), dim)
    assert_close(got, np.logaddexp.accumulate(x, axis=dim), dtype=dtype)


def test_logcumsumexp_infinities_and_errors() -> None:
    inf = float("inf")
    got = ember.tensor([-inf, -inf, 0.0, inf, 1.0, NAN]).logcumsumexp(0).tolist()
    assert got[:4] == [-inf, -inf, 0.0, inf] and got[4] == inf and np.isnan(got[5])
    raises(NotImplementedError, "logcumsumexp", lambda: ember.logcumsumexp(ember.tensor([1]), 0))
    raises(
        RuntimeError,
        "logcumsumexp",
        lambda: ember.logcumsumexp(ember.ones(2), 0, out=ember.empty(0).long()),
    )


@given(case=rows_case(), keepdim=st.booleans(), all_dims=st.booleans())
def test_aminmax_matches_numpy(case: Any, keepdim: bool, all_dims: bool) -> None:
    shape, dim = case
    x = np.random.default_rng(sum(shape)).integers(-9, 9, shape).astype(np.float32)
    if all_dims:
        r = ember.aminmax(ember.from_numpy(x), keepdim=keepdim)
        assert_close(r.min, np.min(x, keepdims=keepdim))
        assert_close(r.max, np.max(x, keepdims=keepdim))
    else:
        r = ember.from_numpy(x).aminmax(dim=dim, keepdim=keepdim)
        assert_close(r.min, np.min(x, axis=dim, keepdims=keepdim))
        assert_close(r.max, np.max(x, axis=dim, keepdims=keepdim))


def test_aminmax_forms_and_errors() -> None:
    r = ember.aminmax(ember.tensor([[1.0, NAN], [3.0, 2.0]]), dim=1)
    assert np.isnan(r.min[0].item()) and r.max[1].item() == 3.0
    assert ember.aminmax(ember.tensor([True, False])).max.item() is True
    raises(RuntimeError, "aminmax", lambda: ember.aminmax(ember.zeros(0)), "empty")
    raises(IndexError, "aminmax", lambda: ember.aminmax(ember.zeros(2, 0), dim=1))


def nanmedian_oracle(run: np.ndarray) -> float:
    valid = np.sort(run[~np.isnan(run)])
    return float("nan") if valid.size == 0 else float(valid[(valid.size - 1) // 2])


@given(case=rows_case(), keepdim=st.booleans())
def test_nanmedian_matches_sorted_rank(case: Any, keepdim: bool) -> None:
    shape, dim = case
    rng = np.random.default_rng(sum(shape) + 1)
    x = rng.permutation(np.prod(shape)).reshape(shape).astype(np.float64)  # distinct values
    x[rng.random(shape) < 0.3] = NAN
    values, indices = ember.nanmedian(ember.from_numpy(x), dim, keepdim)
    moved = np.moveaxis(x, dim, -1)
    expected = np.array([nanmedian_oracle(r) for r in moved.reshape(-1, moved.shape[-1])])
    expected = expected.reshape(moved.shape[:-1])
    if keepdim:
        expected = np.expand_dims(expected, dim)
    assert_close(values, expected)
    idx = to_numpy(indices).astype(np.int64)
    picked = np.take_along_axis(x, idx if keepdim else np.expand_dims(idx, dim), axis=dim)
    np.testing.assert_array_equal(picked.reshape(expected.shape), expected)
    assert ember.nanmedian(ember.from_numpy(x)).item() == pytest.approx(
        nanmedian_oracle(x.reshape(-1)), nan_ok=True
    )


def test_nanmedian_like_torch_and_errors() -> None:
    x = ember.tensor([[1.0, NAN, 3.0, 2.0], [NAN, NAN, NAN, NAN], [NAN, 4.0, 1.0, NAN]])
    r = x.nanmedian(1)
    assert r.indices.tolist() == [3, 2, 2]  # all-NaN row: index 2, as torch 2.13
    assert ember.nanmedian(ember.tensor([1, 5, 3, 2])).item() == 2
    assert np.isnan(ember.nanmedian(ember.tensor([])).item())
    raises(RuntimeError, "nanmedian", lambda: ember.nanmedian(ember.tensor([], dtype=ember.int64)))
    raises(IndexError, "nanmedian", lambda: ember.nanmedian(ember.zeros(2, 0), 1))
    raises(NotImplementedError, "nanmedian", lambda: ember.nanmedian(ember.tensor([True])))


METHODS = ["linear", "lower", "higher", "midpoint", "nearest"]


@given(
    case=rows_case(),
    keepdim=st.booleans(),
    method=st.sampled_from(METHODS),
    with_nan=st.booleans(),
    reduce_all=st.booleans(),
)
def test_quantile_matches_numpy(
    case: Any, keepdim: bool, method: str, with_nan: bool, reduce_all: bool
) -> None:
    shape, dim = case
    rng = np.random.default_rng(sum(shape))
    x = rng.normal(0, 3, shape)
    if with_nan:
        x[rng.random(shape) < 0.3] = NAN
    q = np.array([0.0, 0.25, 0.5, 0.8, 1.0])
    axis = None if reduce_all else dim
    d = None if reduce_all else dim
    xe, qe = ember.from_numpy(x), ember.from_numpy(q)
    got = ember.quantile(xe, qe, d, keepdim, interpolation=method)
    assert_close(
        got, np.quantile(x, q, axis=axis, keepdims=keepdim, method=method), rtol=1e-12, atol=1e-12
    )
    with warnings.catch_warnings():  # numpy warns on all-NaN runs
        warnings.simplefilter("ignore")
        expected = np.nanquantile(x, 0.3, axis=axis, keepdims=keepdim, method=method)
    assert_close(
        xe.nanquantile(0.3, d, keepdim, interpolation=method), expected, rtol=1e-12, atol=1e-12
    )


def test_quantile_forms_and_errors() -> None:
    x = ember.tensor([1.0, 2.0, 3.0, 4.0])
    assert ember.quantile(x, 0.4).item() == pytest.approx(2.2)
    assert ember.quantile(
        ember.tensor(3.0), ember.tensor([0.5, 0.2]), dim=0, keepdim=True
    ).shape == (2,)
    out = ember.empty(0)
    assert ember.quantile(x, 0.5, out=out) is out and out.item() == 2.5
    raises(RuntimeError, "quantile", lambda: ember.quantile(ember.tensor([1, 2]), 0.5), "float")
    raises(RuntimeError, "quantile", lambda: ember.quantile(x, 1.5), "[0, 1]")
    raises(RuntimeError, "quantile", lambda: ember.quantile(x, ember.tensor([[0.5]])), "1D")
    raises(RuntimeError, "quantile", lambda: ember.quantile(x, ember.tensor([0.5]).double()))
    raises(RuntimeError, "quantile", lambda: ember.quantile(x, 0.5, interpolation="foo"))
    raises(RuntimeError, "nanquantile", lambda: ember.nanquantile(ember.tensor([]), 0.5), "empty")
    raises(RuntimeError, "quantile", lambda: ember.quantile(x.half(), 0.5))
    raises(IndexError, "quantile", lambda: ember.quantile(x, 0.5, dim=1))
    raises(TypeError, "quantile", lambda: ember.quantile(x, "a"))


def test_histc_range_past_the_dtype_is_refused_and_overflowing_bins_stay_in_range() -> None:
    # UBSan (sanitizer step): a float16 range of [-2**63, 0] became [-inf, 0] in float16, and
    # inf / inf was converted to an integer bin. torch refuses the range with a RuntimeError.
    x = ember.tensor([1.0, 2.0, 3.0], dtype=ember.float16)
    with pytest.raises(RuntimeError, match=r"\[histc\] the range .* cannot be converted to"):
        ember.histc(x, 1000000, -(2.0**63))
    # offset * bins overflows float16 to inf: the element lands in the last bin, not outside.
    y = ember.tensor([1.0, 60000.0], dtype=ember.float16)
    counts = ember.histc(y, 10**6, -60000.0, 60000.0)
    assert counts.shape == (10**6,) and counts.sum().item() <= 2
