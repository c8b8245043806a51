"""index_add, index_copy, index_fill, scatter(reduce=), scatter_reduce and masked_scatter.

numpy is the oracle: np.add.at and plain loops over the index write the expected values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import assert_close, np_dtype, raises, to_numpy, with_layout

DTYPES = [ember.float32, ember.float64, ember.float16, ember.int64, ember.int32, ember.int8]


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Small integers (exact in every dtype) as a numpy array of dtype's numpy type."""
    return rng.integers(-5, 6, shape).astype(np_dtype(dtype))


def ember_of(a: np.ndarray, dtype: Any, layout: str = "contiguous") -> ember.Tensor:
    return ember.from_numpy(with_layout(a, layout))._to_dtype(dtype)


@st.composite
def along_case(draw: st.DrawFn) -> tuple[tuple[int, ...], int, np.ndarray, str]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    dim = draw(st.integers(-ndim, ndim - 1))
    n = draw(st.integers(0, 6))
    index = np.array(draw(st.lists(st.integers(0, shape[dim] - 1), min_size=n, max_size=n)))
    layout = draw(st.sampled_from(["contiguous", "transposed", "strided", "negative"]))
    return shape, dim, index.astype(np.int64), layout


@given(case=along_case(), dtype=st.sampled_from(DTYPES), alpha=st.sampled_from([1, 2, -1]))
def test_index_add_matches_numpy(case: Any, dtype: Any, alpha: int) -> None:
    shape, dim, index, layout = case
    rng = np.random.default_rng(len(index))
    x = values(rng, shape, dtype)
    src_shape = list(shape)
    src_shape[dim] = len(index)
    src = values(rng, tuple(src_shape), dtype)
    expected = np.moveaxis(x.copy(), dim, 0)
    np.add.at(expected, index, alpha * np.moveaxis(src, dim, 0))
    expected = np.moveaxis(expected, 0, dim)
    xe, se = ember_of(x, dtype, layout), ember_of(src, dtype, layout)
    idx = ember.from_numpy(index)
    assert_close(ember.index_add(xe, dim, idx, se, alpha=alpha), expected, dtype=dtype)
    assert_close(xe, x)  # the function form leaves input alone
    assert xe.index_add_(dim, idx._to_dtype(ember.int32), se, alpha=alpha) is xe
    assert_close(xe, expected, dtype=dtype)


@given(case=along_case(), dtype=st.sampled_from(DTYPES))
def test_index_copy_and_fill_match_numpy(case: Any, dtype: Any) -> None:
    shape, dim, index, layout = case
    rng = np.random.default_rng(len(index) + 7)
    x = values(rng, shape, dtype)
    src_shape = list(shape)
    src_shape[dim] = len(index)
    src = values(rng, tuple(src_shape), dtype)
    copied, filled = np.moveaxis(x.copy(), dim, 0), np.moveaxis(x.copy(), dim, 0)
    for k, i in enumerate(index):  # in order: the last duplicate wins
        copied[i] = np.moveaxis(src, dim, 0)[k]
        filled[i] = 3
    copied, filled = np.moveaxis(copied, 0, dim), np.moveaxis(filled, 0, dim)
    xe, idx = ember_of(x, dtype, layout), ember.from_numpy(index)
    assert_close(xe.index_copy(dim, idx, ember_of(src, dtype, layout)), copied, dtype=dtype)
    assert_close(ember.index_fill(xe, dim, idx, 3), filled, dtype=dtype)
    # Negative indices count from the end in index_fill; value may be a 0-d tensor.
    negative = ember.from_numpy(index - shape[dim])
    assert_close(xe.index_fill_(dim, negative, ember.tensor(3)), filled, dtype=dtype)


def test_index_ops_zero_dim_out_and_bool() -> None:
    x = ember.zeros(())
    assert x.index_add(0, ember.tensor([0]), ember.tensor(5.0)).item() == 5.0
    assert x.index_fill(0, ember.tensor(-1), 2).item() == 2.0
    out = ember.empty(0)
    r = ember.index_add(ember.zeros(3), 0, ember.tensor([1, 1]), ember.ones(2), out=out)
    assert r is out and out.tolist() == [0.0, 2.0, 0.0]
    out = ember.empty(0)
    ember.index_copy(ember.zeros(3), 0, ember.tensor([2]), ember.ones(1), out=out)
    assert out.tolist() == [0.0, 0.0, 1.0]
    b = ember.zeros(3, dtype=ember.bool).index_add(0, ember.tensor([0, 0]), ember.ones(2).bool())
    assert b.tolist() == [True, False, False]
    # An integer tensor with a float alpha: alpha truncates (torch's rule).
    i = ember.zeros(2, dtype=ember.int64).index_add(
        0, ember.tensor([0]), ember.ones(1).long(), alpha=2.5
    )
    assert i.tolist() == [2, 0]


def test_index_add_large_parallel_rows() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((64, 3000))
    index = rng.integers(0, 64, 500)
    src = rng.standard_normal((500, 3000))
    expected = x.copy()
    np.add.at(expected, index, src)
    got = ember.from_numpy(x.copy()).index_add_(0, ember.from_numpy(index), ember.from_numpy(src))
    np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-12, atol=1e-12)
    # Along the inner dim (the position-major loop).
    idx2 = rng.integers(0, 3000, 4000)
    src2 = rng.standard_normal((64, 4000))
    expected = x.copy()
    np.add.at(expected.T, idx2, src2.T)
    got = ember.from_numpy(x.copy()).index_add_(1, ember.from_numpy(idx2), ember.from_numpy(src2))
    np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-12, atol=1e-12)


def test_index_op_errors_write_nothing() -> None:
    x = ember.zeros(3, 4)
    ones = ember.ones(2, 4)
    raises(RuntimeError, "index_add_", lambda: x.index_add_(0, ember.tensor([0, 3]), ones), "3")
    raises(RuntimeError, "index_add_", lambda: x.index_add_(0, ember.tensor([0, -1]), ones))
    assert x.sum().item() == 0.0  # nothing written before the bad index was found
    raises(RuntimeError, "index_add", lambda: x.index_add(0, ember.tensor([0.0]), ones), "int")
    raises(IndexError, "index_add", lambda: x.index_add(0, ember.tensor([[0, 1]]), ones), "(1, 2)")
    raises(RuntimeError, "index_add", lambda: x.index_add(0, ember.tensor([0, 1]), ones.double()))
    two = ember.tensor([0, 1])
    raises(RuntimeError, "index_add", lambda: x.index_add(0, two, ember.ones(3, 4)))
    raises(RuntimeError, "index_add", lambda: x.index_add(0, two, ember.ones(2, 3)))
    raises(IndexError, "index_add", lambda: x.index_add(2, ember.tensor([0]), ember.ones(1, 4)))
    raises(IndexError, "index_copy_", lambda: x.index_copy_(0, ember.tensor([5, 0]), ones), "5")
    raises(IndexError, "index_copy", lambda: x.index_copy(0, ember.tensor([0, 1]).int(), ones))
    raises(IndexError, "index_copy", lambda: x.index_copy(0, ember.tensor([0]), ones))
    raises(IndexError, "index_fill", lambda: x.index_fill(0, ember.tensor([-4]), 1.0), "-4")
    raises(RuntimeError, "index_fill", lambda: x.index_fill(0, ember.tensor([0]), ember.ones(1)))
    raises(
        RuntimeError,
        "index_add_",
        lambda: ember.zeros(1).expand(3).index_add_(0, ember.tensor([0]), ember.ones(1)),
    )
    raises(TypeError, "index_add", lambda: x.index_add(0, ember.tensor([0]), ones[:1], alpha="a"))
    assert x.sum().item() == 0.0


def scatter_oracle(
    x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, reduce: str, include_self: bool
) -> np.ndarray:
    """torch's scatter_reduce written as a loop over index's elements."""
    out = x.astype(np.float64 if x.dtype.kind == "f" else np.int64)
    groups: dict[tuple[int, ...], list[float]] = {}
    for pos in np.ndindex(*index.shape):
        target = list(pos)
        target[dim] = int(index[pos])
        groups.setdefault(tuple(target), []).append(src[pos])
    for target, vals in groups.items():
        if include_self:
            vals = [x[target], *vals]
        if reduce == "sum":
            out[target] = np.sum(vals)
        elif reduce == "prod":
            out[target] = np.prod(vals)
        elif reduce == "amax":
            out[target] = np.max(vals)
        elif reduce == "amin":
            out[target] = np.min(vals)
        elif x.dtype.kind == "f":
            out[target] = np.sum(vals) / len(vals)
        else:
            out[target] = np.sum(vals) // len(vals)
    return out


@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    data=st.data(),
    reduce=st.sampled_from(["sum", "prod", "mean", "amax", "amin"]),
    include_self=st.booleans(),
    dtype=st.sampled_from([ember.float64, ember.float32, ember.int64, ember.int16]),
)
def test_scatter_reduce_matches_loop(
    shape: tuple[int, ...], data: Any, reduce: str, include_self: bool, dtype: Any
) -> None:
    ndim = len(shape)
    dim = data.draw(st.integers(0, ndim - 1))
    index_shape = tuple(data.draw(st.integers(0, s)) for s in shape)
    index_shape = tuple(
        data.draw(st.integers(0, 5)) if d == dim else s for d, s in enumerate(index_shape)
    )
    rng = np.random.default_rng(sum(index_shape))
    x = rng.integers(-4, 5, shape).astype(np_dtype(dtype))
    src = rng.integers(-4, 5, index_shape).astype(np_dtype(dtype))
    index = rng.integers(0, shape[dim], index_shape).astype(np.int64)
    expected = scatter_oracle(x, dim, index, src, reduce, include_self)
    got = ember.scatter_reduce(
        ember_of(x, dtype),
        dim,
        ember.from_numpy(index),
        ember_of(src, dtype),
        reduce,
        include_self=include_self,
    )
    assert_close(got, expected, dtype=dtype)


def test_scatter_reduce_nan_bool_half_and_forms() -> None:
    nan = float("nan")
    x = ember.zeros(3)
    idx = ember.tensor([0, 0])
    assert np.isnan(x.scatter_reduce(0, idx, ember.tensor([nan, 1.0]), "amax")[0].item())
    assert np.isnan(x.scatter_reduce(0, idx, ember.tensor([1.0, nan]), "amin")[0].item())
    b = ember.zeros(3, dtype=ember.bool)
    assert b.scatter_reduce(0, idx, ember.tensor([True, True]), "sum").tolist() == [
        True,
        False,
        False,
    ]
    h = ember.zeros(3, dtype=ember.float16).scatter_reduce(
        0, idx, ember.tensor([1.0, 2.0]).half(), "mean"
    )
    assert h.dtype == ember.float16 and h.tolist() == [1.0, 0.0, 0.0]
    # Integer mean rounds toward -inf: (7 - 10) // 2 == -2.
    i8 = ember.zeros(2, dtype=ember.int8).scatter_reduce(
        0, idx, ember.tensor([7, -10], dtype=ember.int8), "mean", include_self=False
    )
    assert i8.tolist() == [-2, 0]
    y = ember.ones(2, 3)
    assert y.scatter_reduce_(1, ember.tensor([[2, 2]]), ember.full((1, 2), 3.0), "prod") is y
    assert y.tolist() == [[1.0, 1.0, 9.0], [1.0, 1.0, 1.0]]
    out = ember.empty(0)
    ember.scatter_reduce(ember.zeros(2), 0, ember.tensor([1]), ember.ones(1), "sum", out=out)
    assert out.tolist() == [0.0, 1.0]


@pytest.mark.parametrize("value_form", [False, True])
def test_scatter_with_legacy_reduce(value_form: bool) -> None:
    x = ember.ones(3, 4)
    index = ember.tensor([[0, 1, 0, 2]])
    src: Any = 3.0 if value_form else ember.full((1, 4), 3.0)
    added = x.scatter(0, index, src, reduce="add")
    multiplied = ember.scatter(x, 0, index, src, reduce="multiply")
    expected_add = np.ones((3, 4))
    expected_mul = np.ones((3, 4))
    for col, row in enumerate([0, 1, 0, 2]):
        expected_add[row, col] += 3
        expected_mul[row, col] *= 3
    assert_close(added, expected_add)
    assert_close(multiplied, expected_mul)
    assert x.scatter_(0, index, src, reduce="add") is x
    assert_close(x, expected_add)
    raises(RuntimeError, "scatter", lambda: x.scatter(0, index, src, reduce="sum"), "multiply")
    raises(TypeError, "scatter_add", lambda: ember.scatter_add(x, 0, index, x, reduce="add"))


def test_scatter_reduce_errors_write_nothing() -> None:
    x = ember.zeros(3, 4)
    idx = ember.tensor([[0, 1], [2, 3]])
    src = ember.ones(2, 2)
    raises(RuntimeError, "scatter_reduce_", lambda: x.scatter_reduce_(0, idx, src, "sum"), "3")
    assert x.sum().item() == 0.0
    raises(RuntimeError, "scatter_reduce", lambda: x.scatter_reduce(1, idx, src, "max"), "amax")
    raises(RuntimeError, "scatter_reduce", lambda: x.scatter_reduce(1, idx, src.double(), "sum"))
    raises(RuntimeError, "scatter_reduce", lambda: x.scatter_reduce(1, idx[0], src, "sum"))
    raises(RuntimeError, "scatter_reduce", lambda: x.scatter_reduce(1, idx, src[:1], "sum"))
    raises(RuntimeError, "scatter_reduce", lambda: x.scatter_reduce(1, idx.float(), src, "sum"))
    raises(IndexError, "scatter_reduce", lambda: x.scatter_reduce(2, idx, src, "sum"))
    raises(
        NotImplementedError,
        "scatter_reduce",
        lambda: x.bool().scatter_reduce(1, idx, src.bool(), "mean"),
    )
    raises(TypeError, "scatter_reduce", lambda: x.scatter_reduce(1, idx, 1.0, "sum"))


@given(
    shape=st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple),
    data=st.data(),
    dtype=st.sampled_from([ember.float32, ember.int64, ember.bool, ember.float16]),
)
def test_masked_scatter_matches_numpy(shape: tuple[int, ...], data: Any, dtype: Any) -> None:
    rng = np.random.default_rng(len(shape))
    mask_shape = shape[data.draw(st.integers(0, len(shape))) :]
    mask = rng.random(mask_shape) < 0.5
    x = rng.integers(0, 2, shape).astype(np_dtype(dtype))
    need = int(np.broadcast_to(mask, shape).sum())
    src = rng.integers(2, 9, need + 2).astype(np_dtype(dtype))
    expected = x.copy()
    expected[np.broadcast_to(mask, shape)] = src[:need]
    layout = data.draw(st.sampled_from(["contiguous", "transposed"]))
    xe = ember_of(x, dtype, layout)
    got = ember.masked_scatter(xe, ember.from_numpy(mask), ember_of(src, dtype))
    assert_close(got, expected, dtype=dtype)
    assert xe.masked_scatter_(ember.from_numpy(mask), ember_of(src, dtype)) is xe
    assert_close(xe, expected, dtype=dtype)


def test_masked_scatter_broadcast_and_errors() -> None:
    mask = ember.tensor([[True, False, True], [False, True, True]])
    got = ember.zeros(3).masked_scatter(mask, ember.arange(10.0))  # input broadcasts too
    assert got.tolist() == [[0.0, 0.0, 1.0], [0.0, 2.0, 3.0]]
    x = ember.zeros(2, 3)
    raises(RuntimeError, "masked_scatter_", lambda: x.masked_scatter_(mask, ember.arange(3.0)), "4")
    raises(RuntimeError, "masked_scatter_", lambda: ember.zeros(3).masked_scatter_(mask, x))
    raises(RuntimeError, "masked_scatter", lambda: x.masked_scatter(mask.long(), ember.ones(9)))
    raises(RuntimeError, "masked_scatter", lambda: x.masked_scatter(mask, ember.ones(9).double()))
    raises(TypeError, "masked_scatter", lambda: x.masked_scatter(mask, 1.0))
    assert x.sum().item() == 0.0


@given(
    dim=st.integers(-4, 4),
    index=st.lists(st.integers(-10, 10), max_size=4),
    size=st.integers(0, 4),
    op=st.sampled_from(["index_add", "index_copy", "index_fill", "scatter_reduce"]),
)
def test_fuzz_indices_give_result_or_typed_error(
    dim: int, index: list[int], size: int, op: str
) -> None:
    x = ember.zeros(3, 2)
    idx = ember.tensor(index, dtype=ember.int64)
    try:
        if op == "index_add":
            x.index_add(dim, idx, ember.ones(size, 2))
        elif op == "index_copy":
            x.index_copy(dim, idx, ember.ones(3, size))
        elif op == "index_fill":
            x.index_fill(dim, idx, 1.0)
        else:
            x.scatter_reduce(dim, idx.reshape(-1, 1), ember.ones(size, 1), "amax")
    except (IndexError, RuntimeError, ValueError, TypeError) as e:
        assert str(e).startswith(f"[{op}"), str(e)
