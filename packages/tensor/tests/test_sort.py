"""Sorting and selection against numpy: sort/argsort/msort, topk, kthvalue, median,
searchsorted and bucketize. numpy's stable argsort (NaN last) is the oracle for order."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import (
    ALL_DTYPES,
    FLOAT_DTYPES,
    INT_DTYPES,
    NUMPY_DTYPES,
    VIEW_LAYOUTS,
    assert_close,
    raises,
    shapes,
    to_numpy,
    with_layout,
)

NUMERIC = [*FLOAT_DTYPES, *INT_DTYPES]


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Random values with ties; floats also get NaN, +-inf and -0.0 (float64 for bfloat16)."""
    if dtype == ember.bool:
        return rng.random(shape) < 0.5
    if dtype == ember.uint8:
        return rng.integers(0, 250, shape).astype(np.uint8)
    if dtype in INT_DTYPES:
        info = np.iinfo(NUMPY_DTYPES[dtype])
        picks = np.array([info.min, -3, -1, 0, 1, 2, 3, info.max], NUMPY_DTYPES[dtype])
        return picks[rng.integers(0, len(picks), shape)]
    a = np.round(rng.standard_normal(shape) * 4) / 4
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0])
    a = np.where(rng.random(shape) < 0.15, special[rng.integers(0, len(special), shape)], a)
    return a.astype(np.float64 if dtype == ember.bfloat16 else NUMPY_DTYPES[dtype])


def make(a: np.ndarray, dtype: Any, layout: str) -> tuple[ember.Tensor, np.ndarray]:
    """(ember tensor laid out as `layout`, its values as numpy); bfloat16 is rounded first."""
    if dtype == ember.bfloat16:
        t = ember.from_numpy(np.ascontiguousarray(a))._to_dtype(dtype)
        return t, to_numpy(t)
    t = ember.from_numpy(with_layout(a, layout))
    return t, a


@st.composite
def cases(draw: st.DrawFn, dtypes: list[Any] = NUMERIC, min_side: int = 0) -> Any:
    """(ember tensor, numpy values, dtype, dim) over dtypes, layouts, 0-d and empty shapes."""
    shape = draw(shapes(min_side, 6, 0, 3))
    dtype = draw(st.sampled_from(dtypes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    t, a = make(values(rng, shape, dtype), dtype, draw(st.sampled_from(VIEW_LAYOUTS)))
    rank = max(len(shape), 1)
    return t, a, dtype, draw(st.integers(-rank, rank - 1))


def stable_order(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    """torch's stable order: NaN largest, equal values keep their order (descending too)."""
    if a.ndim == 0:
        return np.zeros((), np.int64)
    if not descending:
        return np.argsort(a, axis=axis, kind="stable")
    n = a.shape[axis]
    flipped = np.flip(a, axis)
    return n - 1 - np.flip(np.argsort(flipped, axis=axis, kind="stable"), axis)


def take(a: np.ndarray, idx: np.ndarray, axis: int) -> np.ndarray:
    return a if a.ndim == 0 else np.take_along_axis(a, idx, axis)


def check_pair(result: Any, name: str, values: np.ndarray, indices: np.ndarray, dtype: Any) -> None:
    assert type(result).__name__ == name and result._fields == ("values", "indices")
    assert_close(result.values, values, dtype=dtype)
    assert_close(result.indices, indices, dtype=ember.int64)


@given(cases(list(ALL_DTYPES)), st.booleans())
def test_sort_argsort_match_numpy(case: Any, descending: bool) -> None:
    t, a, dtype, dim = case
    axis = dim % max(a.ndim, 1)
    order = stable_order(a, axis, descending)
    check_pair(ember.sort(t, dim, descending), "sort", take(a, order, axis), order, dtype)
    check_pair(
        t.sort(dim=dim, descending=descending, stable=True),
        "sort",
        take(a, order, axis),
        order,
        dtype,
    )
    assert_close(ember.argsort(t, dim, descending), order, dtype=ember.int64)
    assert_close(t.argsort(dim, descending=descending, stable=True), order, dtype=ember.int64)


@given(cases(list(ALL_DTYPES)))
def test_msort_sorts_dim_0(case: Any) -> None:
    t, a, dtype, _ = case
    expected = take(a, stable_order(a, 0, False), 0)
    assert_close(ember.msort(t), expected, dtype=dtype)
    assert_close(t.msort(), expected, dtype=dtype)


@given(cases(), st.booleans(), st.data())
def test_topk_matches_numpy(case: Any, largest: bool, data: st.DataObject) -> None:
    t, a, dtype, dim = case
    axis = dim % max(a.ndim, 1)
    n = a.shape[axis] if a.ndim else 1
    k = data.draw(st.integers(0, n))
    order = stable_order(a, axis, largest)
    expected = take(a, np.take(order, np.arange(k), axis) if a.ndim else order, axis)
    r = ember.topk(t, k, dim, largest=largest)
    assert type(r).__name__ == "topk"
    assert_close(r.values, expected, dtype=dtype)
    # Which of several equal elements torch returns is unspecified: check the indices point at
    # the returned values.
    assert r.indices.dtype == ember.int64 and tuple(r.indices.shape) == expected.shape
    assert_close(ember.from_numpy(take(a, to_numpy(r.indices), axis)), expected)
    assert_close(t.topk(k, dim, largest, False).values, expected, dtype=dtype)


@given(cases(min_side=1), st.booleans(), st.data())
def test_kthvalue_matches_numpy(case: Any, keepdim: bool, data: st.DataObject) -> None:
    t, a, dtype, dim = case
    axis = dim % max(a.ndim, 1)
    n = a.shape[axis] if a.ndim else 1
    k = data.draw(st.integers(1, n))
    order = stable_order(a, axis, False)
    idx = np.take(order, [k - 1], axis) if a.ndim else order
    expected_idx = idx if keepdim or a.ndim == 0 else np.squeeze(idx, axis)
    r = ember.kthvalue(t, k, dim, keepdim)
    check_pair(r, "kthvalue", take(a, idx, axis).reshape(expected_idx.shape), expected_idx, dtype)
    assert_close(t.kthvalue(k, dim, keepdim).indices, expected_idx)


@given(cases(min_side=1), st.booleans())
def test_median_matches_numpy(case: Any, keepdim: bool) -> None:
    t, a, dtype, dim = case
    axis = dim % max(a.ndim, 1)
    n = a.shape[axis] if a.ndim else 1
    order = stable_order(a, axis, False)
    idx = np.take(order, [(n - 1) // 2], axis) if a.ndim else order.reshape(())
    if a.ndim and dtype in FLOAT_DTYPES:
        # A run holding NaN gives NaN at its first NaN.
        nan = np.isnan(a)
        first_nan = np.expand_dims(np.argmax(nan, axis), axis)
        idx = np.where(np.expand_dims(nan.any(axis), axis), first_nan, idx)
    expected_idx = idx if keepdim or a.ndim == 0 else np.squeeze(idx, axis)
    r = ember.median(t, dim, keepdim=keepdim)
    check_pair(r, "median", take(a, idx, axis).reshape(expected_idx.shape), expected_idx, dtype)
    assert_close(t.median(dim, keepdim).values, to_numpy(r.values))
    flat = a.reshape(-1)
    whole = (
        np.nan if np.isnan(flat.astype(np.float64)).any() else np.sort(flat)[(flat.size - 1) // 2]
    )
    assert_close(ember.median(t), np.array(whole), dtype=dtype)
    assert_close(t.median(), np.array(whole), dtype=dtype)


@pytest.mark.parametrize("dtype", list(ALL_DTYPES))
def test_long_rows_use_radix_and_selection_paths(dtype: Any) -> None:
    # Rows longer than the small-sort cutoff go through the radix passes; topk with small k
    # scans with a heap, large k uses nth_element; many rows are split across threads.
    rng = np.random.default_rng(7)
    for shape, dim in (((3000,), 0), ((70, 900), 0), ((64, 3000), 1)):
        t, a = make(values(rng, shape, dtype), dtype, "contiguous")
        for descending in (False, True):
            order = stable_order(a, dim, descending)
            check_pair(ember.sort(t, dim, descending), "sort", take(a, order, dim), order, dtype)
        if dtype == ember.bool:
            continue
        n = shape[dim]
        for k in (1, 5, n // 2, n):
            order = stable_order(a, dim, True)
            expected = take(a, np.take(order, np.arange(k), dim), dim)
            assert_close(ember.topk(t, k, dim).values, expected, dtype=dtype)
        med = ember.median(t, dim)
        assert_close(
            ember.from_numpy(take(a, np.expand_dims(to_numpy(med.indices), dim), dim)),
            np.expand_dims(to_numpy(med.values), dim),
        )


def test_sort_nan_zero_and_ties_like_torch() -> None:
    nan, inf = float("nan"), float("inf")
    x = ember.tensor([3.0, nan, 1.0, 2.0, nan, -inf])
    r = ember.sort(x)
    assert r.indices.tolist() == [5, 2, 3, 0, 1, 4]
    assert ember.sort(x, descending=True).indices.tolist() == [1, 4, 0, 3, 2, 5]
    assert ember.topk(x, 3).indices.tolist() == [1, 4, 0]
    assert ember.topk(x, 3, largest=False).indices.tolist() == [5, 2, 3]
    z = ember.tensor([0.0, -0.0, 0.0])
    assert ember.sort(z).indices.tolist() == [0, 1, 2]
    assert np.signbit(to_numpy(ember.sort(z).values)).tolist() == [False, True, False]
    b = ember.tensor([True, False, True])
    assert ember.sort(b).indices.tolist() == [1, 0, 2]
    assert ember.median(ember.tensor([1.0, 4.0, 2.0, 3.0])).item() == 2.0
    assert ember.median(ember.tensor([3.0, nan, 1.0, nan]), 0).indices.item() == 1
    assert ember.kthvalue(ember.tensor([nan, 1.0, nan]), 2).indices.item() == 0
    assert np.isnan(ember.median(ember.zeros(0)).item())
    s = ember.sort(ember.tensor(5.0))
    assert s.values.shape == () and s.indices.item() == 0


def test_out_and_return_types() -> None:
    x = ember.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    v, i = ember.empty(0), ember.empty(0, dtype=ember.int64)
    r = ember.sort(x, 1, out=(v, i))
    assert r.values is v and r.indices is i
    assert v.tolist() == [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0]] and i.tolist() == [[1, 2, 0], [0, 2, 1]]
    r = ember.topk(x, 2, out=(v, i))
    assert v.tolist() == [[3.0, 2.0], [5.0, 4.0]] and r.indices is i
    ember.kthvalue(x, 2, 1, True, out=(v, i))
    assert v.tolist() == [[2.0], [4.0]] and i.tolist() == [[2], [2]]
    ember.median(x, 0, out=(v, i))
    assert v.tolist() == [0.0, 1.0, 2.0] and i.tolist() == [1, 0, 0]
    m = ember.empty(0)
    assert ember.msort(x, out=m) is m and m.tolist() == [[0.0, 1.0, 2.0], [3.0, 5.0, 4.0]]
    assert ember.return_types.sort is type(ember.sort(x))
    assert ember.return_types.median is type(ember.median(x, 0))
    raises(RuntimeError, "sort", lambda: ember.sort(x, out=(i, i)), "float32", "int64")
    raises(RuntimeError, "topk", lambda: ember.topk(x, 1, out=(v, v)), "int64", "float32")
    raises(TypeError, "sort", lambda: ember.sort(x, out=v))


def test_sort_errors() -> None:
    x = ember.tensor([[1.0, 2.0], [3.0, 4.0]])
    raises(IndexError, "sort", lambda: ember.sort(x, 2), "[-2, 1]", "2")
    raises(IndexError, "argsort", lambda: ember.argsort(x, dim=-3))
    raises(IndexError, "sort", lambda: ember.sort(ember.tensor(1.0), 1), "[-1, 0]")
    raises(TypeError, "sort", lambda: ember.sort(x, 0.0), "int", "float")
    raises(TypeError, "sort", lambda: ember.sort([3, 1]), "Tensor")
    raises(TypeError, "sort", lambda: ember.sort(x, descending=1), "bool")
    raises(TypeError, "argsort", lambda: x.argsort(stable=None), "bool")


def test_selection_errors() -> None:
    x = ember.tensor([3.0, 1.0, 2.0])
    raises(RuntimeError, "topk", lambda: ember.topk(x, 4), "k out of range", "3")
    raises(RuntimeError, "topk", lambda: ember.topk(x, -1), "k out of range")
    raises(RuntimeError, "topk", lambda: ember.topk(ember.tensor(1.0), 2), "k out of range")
    raises(RuntimeError, "topk", lambda: ember.topk(ember.tensor([True]), 1), "bool")
    raises(TypeError, "topk", lambda: ember.topk(x, 1.0), "'k'", "float")
    raises(IndexError, "topk", lambda: x.topk(1, 1), "Dimension out of range")
    raises(RuntimeError, "kthvalue", lambda: ember.kthvalue(x, 0), "k out of range")
    raises(RuntimeError, "kthvalue", lambda: x.kthvalue(4), "k out of range")
    raises(IndexError, "kthvalue", lambda: ember.kthvalue(ember.zeros(3, 0), 1), "non-zero size")
    raises(NotImplementedError, "kthvalue", lambda: ember.kthvalue(ember.tensor([True]), 1))
    raises(IndexError, "median", lambda: ember.median(ember.zeros(3, 0), 1), "(3, 0)")
    raises(NotImplementedError, "median", lambda: ember.median(ember.tensor([True])), "bool")
    raises(RuntimeError, "median", lambda: ember.median(ember.zeros(0, dtype=ember.int32)))
    raises(TypeError, "median", lambda: ember.median(x, out=ember.empty(0)))
    # Empty but valid: no error, empty results.
    assert ember.topk(ember.zeros(3, 0), 0).values.shape == (3, 0)
    assert ember.kthvalue(ember.zeros(0, 3), 1, 1).values.shape == (0,)
    assert ember.median(ember.zeros(3, 0), 0).indices.shape == (0,)


@given(
    st.sampled_from([ember.uint8, ember.int16, ember.int64, ember.float16, ember.float32]),
    shapes(0, 5, 0, 2),
    st.integers(0, 6),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_searchsorted_matches_numpy(
    dtype: Any, lead: tuple[int, ...], m: int, right: bool, batched: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    np_dtype = NUMPY_DTYPES[dtype]
    seq_shape = (*lead, m) if batched else (m,)
    seq = np.sort(rng.integers(0, 10, seq_shape), axis=-1).astype(np_dtype)
    vals = rng.integers(-1, 12, (*lead, 3)).astype(np_dtype)
    if not batched:
        vals = vals.reshape(-1)
    side = "right" if right else "left"
    expected = np.searchsorted(seq, vals, side) if not batched else np.empty(vals.shape, np.int64)
    for ix in np.ndindex(*lead) if batched else ():
        expected[ix] = np.searchsorted(seq[ix], vals[ix], side)
    got = ember.searchsorted(ember.from_numpy(seq), ember.from_numpy(vals), right=right)
    assert_close(got, expected, dtype=ember.int64)
    got = ember.searchsorted(
        ember.from_numpy(seq), ember.from_numpy(vals), side=side, out_int32=True
    )
    assert_close(got, expected, dtype=ember.int32)
    if not batched:
        assert_close(
            ember.bucketize(ember.from_numpy(vals), ember.from_numpy(seq), right=right),
            expected,
            dtype=ember.int64,
        )


def test_searchsorted_scalars_promotion_nan_and_sorter() -> None:
    s = ember.tensor([1, 3, 5, 7, 9])
    assert ember.searchsorted(s, 6).shape == () and ember.searchsorted(s, 6).item() == 3
    assert ember.bucketize(6, s, right=True).item() == 3
    assert ember.searchsorted(s, ember.tensor([3.0, 6.5])).tolist() == [1, 3]
    # A scalar takes the sequence's dtype (like torch): -1 wraps to 255 in uint8.
    assert ember.searchsorted(s._to_dtype(ember.uint8), -1).item() == 5
    nan = float("nan")
    got = ember.searchsorted(ember.tensor([1.0, 5.0, nan]), ember.tensor([3.0, nan]))
    assert got.tolist() == [1, 3]
    unsorted = ember.tensor([5, 1, 9, 3])
    sorter = ember.argsort(unsorted)
    assert ember.searchsorted(unsorted, ember.tensor([4, 9]), sorter=sorter).tolist() == [2, 3]
    assert ember.searchsorted(unsorted, ember.tensor([9]), sorter=sorter, right=True).tolist() == [
        4
    ]
    out = ember.empty(0, dtype=ember.int64)
    assert ember.searchsorted(s, ember.tensor([[2, 8]]), out=out) is out
    assert out.tolist() == [[1, 4]]
    assert ember.searchsorted(ember.zeros(3, 0), ember.zeros(3, 2)).tolist() == [[0, 0]] * 3
    strided = ember.from_numpy(np.arange(20)[::2])
    assert ember.searchsorted(strided, ember.tensor([5, 18])).tolist() == [3, 9]


def test_searchsorted_errors() -> None:
    s = ember.tensor([[1, 3], [2, 4]])
    op = "searchsorted"
    raises(
        RuntimeError,
        op,
        lambda: ember.searchsorted(s, ember.tensor([[2], [3], [4]])),
        "(2, 2)",
        "(3, 1)",
    )
    raises(RuntimeError, op, lambda: ember.searchsorted(s, ember.tensor([2, 3])), "(2,)")
    raises(RuntimeError, op, lambda: ember.searchsorted(s, 2), "scalar")
    raises(
        RuntimeError,
        op,
        lambda: ember.searchsorted(ember.tensor(1), ember.tensor([2])),
        "0 dimension",
    )
    v = ember.tensor([2])
    seq = ember.tensor([1, 3])
    raises(RuntimeError, op, lambda: ember.searchsorted(seq, v, side="middle"), "middle")
    raises(
        RuntimeError, op, lambda: ember.searchsorted(seq, v, side="left", right=True), "opposites"
    )
    raises(TypeError, op, lambda: ember.searchsorted(seq, v, side=1), "str")
    bad = ember.tensor([0, 1], dtype=ember.int32)
    raises(RuntimeError, op, lambda: ember.searchsorted(seq, v, sorter=bad), "int32")
    raises(
        RuntimeError,
        op,
        lambda: ember.searchsorted(seq, v, sorter=ember.tensor([0, 1, 2])),
        "(2,)",
        "(3,)",
    )
    raises(
        RuntimeError,
        op,
        lambda: ember.searchsorted(seq, v, sorter=ember.tensor([0, 5])),
        "out of range",
        "5",
    )
    raises(RuntimeError, op, lambda: ember.searchsorted(seq, v, out=ember.empty(0)), "float32")
    raises(
        RuntimeError,
        op,
        lambda: ember.searchsorted(seq, v, out_int32=True, out=ember.empty(0, dtype=ember.int64)),
        "int64",
    )
    raises(
        NotImplementedError,
        op,
        lambda: ember.searchsorted(ember.tensor([False, True]), ember.tensor([True])),
        "bool",
    )
    raises(TypeError, op, lambda: ember.searchsorted([1, 3], v), "Tensor")
    raises(RuntimeError, "bucketize", lambda: ember.bucketize(v, s), "dim(2)")
    raises(RuntimeError, "bucketize", lambda: ember.bucketize(v, ember.tensor(3)), "dim(0)")
    raises(TypeError, "bucketize", lambda: ember.bucketize(v, seq, right=None), "bool")


@given(cases(list(ALL_DTYPES)), st.booleans())
def test_unique_consecutive_matches_numpy(case: Any, along_dim: bool) -> None:
    t, a, dtype, dim = case
    if along_dim and a.ndim == 0:
        raises(IndexError, "unique_consecutive", lambda: ember.unique_consecutive(t, dim=dim))
        return
    if along_dim and a.size == 0 and a.shape[dim] != 0:
        raises(RuntimeError, "unique_consecutive", lambda: t.unique_consecutive(dim=dim))
        return
    moved = np.moveaxis(a, dim, 0) if along_dim else a.reshape(-1)
    n = moved.shape[0]
    rows = moved.reshape(n, int(np.prod(moved.shape[1:])))
    starts = [i for i in range(n) if i == 0 or not np.all(rows[i] == rows[i - 1])]
    counts = np.diff([*starts, n]).astype(np.int64)
    expected = np.moveaxis(moved[starts], 0, dim) if along_dim else moved[starts]
    inverse = np.repeat(np.arange(len(starts)), counts)
    if not along_dim:
        inverse = inverse.reshape(a.shape)
    values, inv, cnt = ember.unique_consecutive(
        t, return_inverse=True, return_counts=True, dim=dim if along_dim else None
    )
    assert_close(values, expected, dtype=dtype)
    assert_close(inv, inverse, dtype=ember.int64)
    assert_close(cnt, counts, dtype=ember.int64)
    only_counts = t.unique_consecutive(return_counts=True, dim=dim if along_dim else None)
    assert len(only_counts) == 2
    assert_close(only_counts[1], counts)


def test_unique_consecutive_nan_zero_and_errors() -> None:
    nan = float("nan")
    values, counts = ember.unique_consecutive(
        ember.tensor([1.0, nan, nan, -0.0, 0.0]), return_counts=True
    )
    assert counts.tolist() == [1, 1, 1, 2] and np.signbit(to_numpy(values)[3])
    assert ember.unique_consecutive(ember.tensor(5)).tolist() == [5]
    op = "unique_consecutive"
    raises(IndexError, op, lambda: ember.unique_consecutive(ember.tensor(5), dim=0), "no dim")
    raises(IndexError, op, lambda: ember.unique_consecutive(ember.zeros(2, 2), dim=2), "range")
    raises(RuntimeError, op, lambda: ember.unique_consecutive(ember.zeros(3, 0), dim=0), "(3, 0)")
    raises(TypeError, op, lambda: ember.unique_consecutive(ember.zeros(2), return_counts=1))
