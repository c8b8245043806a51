"""rot90, repeat_interleave, tril/triu_indices, unfold, as_strided, cartesian_prod, combinations,
block_diag, cross and the out= forms of tril/triu/diag/kron against numpy and itertools."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import (
    ALL_DTYPES,
    VIEW_LAYOUTS,
    assert_close,
    numpy_array,
    raises,
    shapes,
    tensor,
    to_numpy,
)


@st.composite
def arrays(draw: st.DrawFn, min_dims: int = 0, max_dims: int = 4) -> np.ndarray:
    """A numpy_array of a drawn shape in a drawn layout (0-d and empty included)."""
    shape = draw(shapes(min_dims=min_dims, max_dims=max_dims))
    return numpy_array(shape, draw(st.sampled_from(VIEW_LAYOUTS)))


# ---------------------------------------------------------------- rot90


@given(arrays(min_dims=2), st.integers(-9, 9), st.data())
def test_rot90_matches_numpy(a: np.ndarray, k: int, data: st.DataObject) -> None:
    d0, d1 = data.draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=2, max_size=2))
    x = ember.from_numpy(a)
    if (d0 - d1) % a.ndim == 0:
        raises(RuntimeError, "rot90", lambda: ember.rot90(x, k, (d0, d1)), "different")
        return
    expected = np.rot90(a, k, (d0, d1))
    assert_close(ember.rot90(x, k, [d0, d1]), expected)
    assert_close(x.rot90(k, (d0, d1)), expected)
    assert not ember.rot90(x, k, (d0, d1))._is_view_of(x)


def test_rot90_layout_and_errors() -> None:
    x = tensor((2, 3))
    assert ember.rot90(x).stride() == (1, 3)  # torch: a flipped copy, transposed
    assert ember.rot90(x, 2).stride() == (3, 1)
    raises(RuntimeError, "rot90", lambda: ember.rot90(x, 1, [0]), "dims = 1")
    raises(RuntimeError, "rot90", lambda: ember.rot90(tensor((3,))), "total dims = 1")
    raises(IndexError, "rot90", lambda: ember.rot90(x, 1, [0, 2]), "range")
    raises(TypeError, "rot90", lambda: ember.rot90(x, 1.5), "'k'")
    assert tuple(ember.rot90(x, 2**62 + 1).shape) == (3, 2)


# ---------------------------------------------------------------- repeat_interleave


@given(arrays(), st.integers(0, 3), st.data())
def test_repeat_interleave_int_matches_numpy(a: np.ndarray, r: int, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    assert_close(ember.repeat_interleave(x, r), np.repeat(a, r))
    if a.ndim:
        dim = data.draw(st.integers(-a.ndim, a.ndim - 1))
        expected = np.repeat(a, r, axis=dim)
        assert_close(x.repeat_interleave(r, dim), expected)
        size = expected.shape[dim]
        assert_close(ember.repeat_interleave(x, r, dim=dim, output_size=size), expected)


@given(arrays(min_dims=1), st.data())
def test_repeat_interleave_tensor_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    dim = data.draw(st.integers(-a.ndim, a.ndim - 1))
    counts = data.draw(st.lists(st.integers(0, 3), min_size=a.shape[dim], max_size=a.shape[dim]))
    repeats = ember.tensor(counts, dtype=data.draw(st.sampled_from([ember.int32, ember.int64])))
    x = ember.from_numpy(a)
    expected = np.repeat(a, counts, axis=dim)
    assert_close(ember.repeat_interleave(x, repeats, dim), expected)
    assert_close(x.repeat_interleave(repeats, dim=dim), expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_repeat_interleave_dtypes_and_index_form(dtype: Any) -> None:
    x = tensor((2, 3), dtype)
    assert_close(ember.repeat_interleave(x, 2, 1), np.repeat(to_numpy(x), 2, 1))
    counts = ember.tensor([1, 0, 3], dtype=ember.int32)
    r = ember.repeat_interleave(counts)
    assert r.dtype == ember.int32
    assert r.tolist() == [0, 2, 2, 2]
    assert ember.repeat_interleave(counts, output_size=4).tolist() == [0, 2, 2, 2]
    # A one-element repeats tensor applies to every element.
    assert_close(ember.repeat_interleave(x, ember.tensor([2])), np.repeat(to_numpy(x), 2))


def test_repeat_interleave_errors() -> None:
    x = tensor((2, 3))
    op = "repeat_interleave"
    raises(RuntimeError, op, lambda: ember.repeat_interleave(x, -1), "non-negative")
    raises(RuntimeError, op, lambda: ember.repeat_interleave(x, ember.tensor([1, -2]), 0), "-2")
    raises(RuntimeError, op, lambda: ember.repeat_interleave(x, ember.tensor([1, 2, 3]), 0), "3")
    raises(RuntimeError, op, lambda: ember.repeat_interleave(x, ember.tensor([[1, 2]]), 0), "1-dim")
    raises(NotImplementedError, op, lambda: ember.repeat_interleave(x, ember.tensor([1.0, 2.0]), 0))
    raises(RuntimeError, op, lambda: ember.repeat_interleave(x, 2, output_size=11), "12", "11")
    raises(RuntimeError, op, lambda: ember.repeat_interleave(ember.tensor([1, 2]), output_size=2))
    raises(RuntimeError, op, lambda: ember.repeat_interleave(ember.tensor([[1, 2]])), "1D")
    raises(IndexError, op, lambda: ember.repeat_interleave(ember.tensor(3.0), 2, dim=0))
    raises(IndexError, op, lambda: ember.repeat_interleave(x, 2, dim=2), "range")
    raises(RuntimeError, op, lambda: ember.repeat_interleave(x, 2**62), "overflows")
    raises(TypeError, op, lambda: ember.repeat_interleave(x, 1.5), "'repeats'")


# ---------------------------------------------------------------- tril/triu_indices


@given(st.integers(0, 7), st.integers(0, 7), st.integers(-9, 9))
def test_triangle_indices_match_numpy(row: int, col: int, offset: int) -> None:
    for fn, np_fn in ((ember.tril_indices, np.tril_indices), (ember.triu_indices, np.triu_indices)):
        r = fn(row, col, offset)
        assert r.dtype == ember.int64
        assert to_numpy(r).tolist() == [list(v) for v in np_fn(row, offset, col)]
    assert ember.tril_indices(row, col, offset, dtype=ember.int32).dtype == ember.int32


def test_triangle_indices_huge_sizes_and_errors() -> None:
    # Empty or full triangles of huge matrices are worked out without visiting every row.
    assert tuple(ember.triu_indices(2**62, 1, 5).shape) == (2, 0)
    assert ember.tril_indices(2**62, 2, -(2**62) + 1).tolist() == [[2**62 - 1], [0]]
    raises(RuntimeError, "tril_indices", lambda: ember.tril_indices(2**40, 2**40), "too many")
    raises(RuntimeError, "tril_indices", lambda: ember.tril_indices(-1, 3), "row", "-1")
    raises(RuntimeError, "triu_indices", lambda: ember.triu_indices(3, -2), "col", "-2")
    raises(
        NotImplementedError, "tril_indices", lambda: ember.tril_indices(3, 3, dtype=ember.float32)
    )
    raises(RuntimeError, "tril_indices", lambda: ember.tril_indices(3, 3, device="cuda"), "cuda")


# ---------------------------------------------------------------- unfold / as_strided


@given(arrays(), st.data())
def test_unfold_matches_numpy_windows(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    dim = data.draw(st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1))
    length = a.shape[dim] if a.ndim else 1
    size = data.draw(st.integers(0, length))
    step = data.draw(st.integers(1, 3))
    u = x.unfold(dim, size, step)
    assert u._is_view_of(x)
    if a.ndim == 0:
        assert_close(u, a.reshape(1)[:size])
        return
    axis = dim % a.ndim  # the windows gain a last axis: -1 would name it
    windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=axis)
    assert_close(u, np.take(windows, range(0, windows.shape[axis], step), axis=axis))


def test_unfold_errors() -> None:
    x = tensor((7,))
    raises(RuntimeError, "unfold", lambda: x.unfold(0, 8, 1), "maximum size", "7", "8")
    raises(RuntimeError, "unfold", lambda: x.unfold(0, 2, 0), "step")
    raises(RuntimeError, "unfold", lambda: x.unfold(0, -1, 1), "size")
    raises(IndexError, "unfold", lambda: x.unfold(1, 1, 1), "range")
    assert tuple(x.unfold(0, 2, 2**62).shape) == (1, 2)


@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 3), st.integers(0, 3), st.data())
def test_as_strided_matches_numpy(r: int, c: int, s0: int, s1: int, data: st.DataObject) -> None:
    base = np.arange(24, dtype=np.float32)
    x = ember.from_numpy(base.copy())
    offset = data.draw(st.integers(0, 24))
    reach = offset + (r - 1) * s0 + (c - 1) * s1 + 1 if r and c else 0
    if reach > 24:
        raises(RuntimeError, "as_strided", lambda: ember.as_strided(x, (r, c), (s0, s1), offset))
        return
    v = ember.as_strided(x, (r, c), (s0, s1), offset)
    expected = np.lib.stride_tricks.as_strided(base[offset:], (r, c), (4 * s0, 4 * s1))
    assert_close(v, expected)
    assert v.stride() == (s0, s1) and v.storage_offset() == offset and v._is_view_of(x)
    assert_close(x.as_strided((r, c), (s0, s1), offset), expected)


def test_as_strided_offsets_in_place_and_errors() -> None:
    x = tensor((2, 3))
    assert x[1].as_strided((2,), (1,)).tolist() == [3.0, 4.0]  # keeps the view's offset
    assert x[1].as_strided((2,), (1,), 0).tolist() == [0.0, 1.0]
    assert ember.as_strided(x, (0,), (100,), 100).numel() == 0
    y = tensor((2, 3))
    assert y.as_strided_((3,), (2,)) is y and y.tolist() == [0.0, 2.0, 4.0]
    op = "as_strided"
    raises(RuntimeError, op, lambda: ember.as_strided(x, (3, 3), (1, 2)), "out of bounds")
    raises(RuntimeError, op, lambda: ember.as_strided(x, (), (), 6), "out of bounds")
    raises(RuntimeError, op, lambda: ember.as_strided(x, (2,), (-1,)), "Negative strides")
    raises(RuntimeError, op, lambda: ember.as_strided(x, (2,), (1,), -1), "offset -1")
    raises(RuntimeError, op, lambda: ember.as_strided(x, (-1,), (1,)), "non-negative")
    raises(RuntimeError, op, lambda: ember.as_strided(x, (2, 3), (1,)), "length")
    raises(RuntimeError, op, lambda: ember.as_strided(x, (2**62, 2**62), (2, 2)), "overflow")
    raises(RuntimeError, "as_strided_", lambda: x.as_strided_((9,), (1,)), "out of bounds")
    assert tuple(x.shape) == (2, 3)  # a failed as_strided_ leaves the tensor alone


def test_view_as() -> None:
    x = tensor((2, 3))
    v = x.view_as(tensor((3, 2)))
    assert tuple(v.shape) == (3, 2) and v._is_view_of(x)


# ---------------------------------------------------------------- cartesian_prod / combinations


@given(st.lists(st.lists(st.integers(-5, 5), max_size=4), min_size=1, max_size=3))
def test_cartesian_prod_matches_itertools(lists: list[list[int]]) -> None:
    tensors = [ember.tensor(v, dtype=ember.int64) for v in lists]
    r = ember.cartesian_prod(*tensors)
    expected = list(itertools.product(*lists))
    if len(lists) == 1:
        assert r.tolist() == lists[0]
    else:
        assert tuple(r.shape) == (len(expected), len(lists))
        assert [tuple(row) for row in r.tolist()] == expected


@given(st.lists(st.integers(-5, 5), max_size=6), st.integers(0, 4), st.booleans())
def test_combinations_match_itertools(values: list[int], r: int, replace: bool) -> None:
    x = ember.tensor(values, dtype=ember.int64)
    got = ember.combinations(x, r, replace)
    if r == 0:
        assert tuple(got.shape) == (0,)
        return
    fn = itertools.combinations_with_replacement if replace else itertools.combinations
    expected = list(fn(values, r))
    assert tuple(got.shape) == (len(expected), r)
    assert [tuple(row) for row in got.tolist()] == expected


def test_cartesian_prod_combinations_errors() -> None:
    a = ember.tensor([1, 2, 3])
    raises(RuntimeError, "cartesian_prod", lambda: ember.cartesian_prod(), "non-empty")
    raises(RuntimeError, "cartesian_prod", lambda: ember.cartesian_prod(a, ember.tensor(1)), "1D")
    raises(RuntimeError, "meshgrid", lambda: ember.cartesian_prod(a, a.float()), "same dtype")
    raises(RuntimeError, "combinations", lambda: ember.combinations(a, -1), "-1")
    raises(RuntimeError, "combinations", lambda: ember.combinations(ember.tensor(1)), "1D")
    raises(TypeError, "combinations", lambda: ember.combinations(a, 2, 1), "bool")
    raises(RuntimeError, "combinations", lambda: ember.combinations(a, 2**62, True), "too many")
    assert tuple(ember.combinations(a, 2**62).shape) == (0, 2**62)


# ---------------------------------------------------------------- block_diag


@given(st.lists(arrays(max_dims=2), max_size=4))
def test_block_diag_matches_numpy(blocks: list[np.ndarray]) -> None:
    got = ember.block_diag(*[ember.from_numpy(b) for b in blocks])
    mats = [b.reshape(1, -1) if b.ndim < 2 else b for b in blocks]
    rows = sum(m.shape[0] for m in mats) if blocks else 1
    expected = np.zeros((rows, sum(m.shape[1] for m in mats)))
    r = c = 0
    for m in mats:
        expected[r : r + m.shape[0], c : c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    assert_close(got, expected, dtype=ember.float64 if blocks else ember.float32)


def test_block_diag_promotes_and_rejects_3d() -> None:
    r = ember.block_diag(ember.ones(2, dtype=ember.bool), ember.ones(1, dtype=ember.uint8))
    assert r.dtype == ember.uint8 and r.tolist() == [[1, 1, 0], [0, 0, 1]]
    raises(RuntimeError, "block_diag", lambda: ember.block_diag(ember.ones(2, 2, 2)), "Input 0")
    raises(TypeError, "block_diag", lambda: ember.block_diag([1]), "Tensor")


# ---------------------------------------------------------------- cross


@given(st.data())
def test_cross_matches_numpy(data: st.DataObject) -> None:
    shape = list(data.draw(shapes(min_side=1, max_side=3, min_dims=1, max_dims=3)))
    dim = data.draw(st.integers(0, len(shape) - 1))
    shape[dim] = 3
    a = np.random.default_rng(len(shape)).standard_normal(shape)
    b_shape = [1 if data.draw(st.booleans()) and i != dim else s for i, s in enumerate(shape)]
    b = np.random.default_rng(7).standard_normal(b_shape)
    expected = np.cross(a, b, axis=dim)
    got = ember.cross(ember.from_numpy(a), ember.from_numpy(b), dim=dim)
    assert_close(got, expected)
    first3 = shape.index(3)  # torch's default dim: the first of size 3 in input's shape
    default = lambda: ember.from_numpy(a).cross(ember.from_numpy(b))  # noqa: E731
    if b_shape[first3] == 3:
        assert_close(default(), np.cross(a, b, axis=first3))
    else:
        raises(RuntimeError, "cross", default, "Got 3 and 1")


def test_cross_integers_out_and_errors() -> None:
    a, b = ember.tensor([1, 2, 3]), ember.tensor([4, 5, 7])
    assert ember.cross(a, b).tolist() == [-1, 5, -3]
    out = ember.empty(5, dtype=ember.int64)
    assert ember.cross(a, b, out=out) is out and out.tolist() == [-1, 5, -3]
    raises(RuntimeError, "cross", lambda: ember.cross(a, b, out=ember.empty(3)), "dtype")
    raises(RuntimeError, "cross", lambda: ember.cross(a, b.float()), "same dtype")
    raises(RuntimeError, "cross", lambda: ember.cross(ember.ones(2, 4), ember.ones(2, 4)), "size 3")
    raises(RuntimeError, "cross", lambda: ember.cross(ember.ones(3, 3), ember.ones(3), 1), "number")
    raises(
        RuntimeError,
        "cross",
        lambda: ember.cross(ember.ones(3, 4), ember.ones(2, 4)),
        "Got 3 and 2",
    )
    raises(IndexError, "cross", lambda: ember.cross(a, b, dim=1), "range")
    raises(NotImplementedError, "cross", lambda: ember.cross(a.bool(), b.bool()))


# ---------------------------------------------------------------- out= of tril/triu/diag/kron


def test_out_forms_follow_torch_dtype_rules() -> None:
    x = tensor((3, 3))
    a = to_numpy(x)
    for name, expected in (
        ("tril", np.tril(a, 1)),
        ("triu", np.triu(a, 1)),
        ("diag", np.diag(a, 1)),
    ):
        out = ember.empty(7)
        assert getattr(ember, name)(x, 1, out=out) is out  # resized to the result
        assert_close(out, expected)
        wrong = ember.empty(1, dtype=ember.float64)
        raises(RuntimeError, name, lambda n=name, w=wrong: getattr(ember, n)(x, out=w), "dtype")
    out = ember.empty(1, dtype=ember.float64)  # kron: any dtype the result casts to
    assert ember.kron(x.long(), x.long(), out=out) is out
    assert_close(out, np.kron(a, a), dtype=ember.float64)
    raises(
        RuntimeError,
        "kron",
        lambda: ember.kron(x, x, out=ember.empty(1, dtype=ember.int64)),
        "cast",
    )
    raises(TypeError, "tril", lambda: ember.tril(x, out=[1]), "Tensor")
    # The input itself may be the out tensor.
    y = tensor((3, 3))
    assert_close(ember.tril(y, out=y), np.tril(a))
