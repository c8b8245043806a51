"""flip/fliplr/flipud, roll, repeat/tile and tril/triu against numpy: values, dtypes, layouts."""

from __future__ import annotations

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
    np_dtype,
    numpy_array,
    raises,
    shapes,
    tensor,
    to_numpy,
)


@st.composite
def arrays(draw: st.DrawFn, min_dims: int = 0) -> np.ndarray:
    """A numpy_array of a drawn shape in a drawn layout (0-d and empty included)."""
    shape = draw(shapes(min_dims=min_dims))
    return numpy_array(shape, draw(st.sampled_from(VIEW_LAYOUTS)))


def subset_dims(draw: st.DrawFn, ndim: int) -> list[int]:
    """Distinct dims of a rank-ndim tensor, each possibly negative."""
    if ndim == 0:
        return []
    dims = draw(st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim))
    return [d - ndim if draw(st.booleans()) else d for d in dims]


# ---------------------------------------------------------------- flip


@given(st.data())
def test_flip_matches_numpy(data: st.DataObject) -> None:
    a = data.draw(arrays())
    dims = subset_dims(data.draw, a.ndim)
    x = ember.from_numpy(a)
    expected = np.flip(a, dims) if dims else a
    assert_close(ember.flip(x, dims), expected)
    assert_close(x.flip(dims), expected)
    if dims:
        assert_close(x.flip(*dims), expected)
    if a.ndim >= 2:
        assert_close(ember.fliplr(x), np.fliplr(a))
        assert_close(x.fliplr(), np.fliplr(a))
    if a.ndim >= 1:
        assert_close(ember.flipud(x), np.flipud(a))
        assert_close(x.flipud(), np.flipud(a))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_flip_dtypes_and_copy(dtype: Any) -> None:
    x = tensor((3, 4), dtype)
    r = ember.flip(x, (0, 1))
    assert r.dtype == dtype
    assert_close(r, np.flip(to_numpy(x)))
    r.fill_(0)  # a copy, not a view
    assert to_numpy(x).sum() != 0 or dtype == ember.bool


def test_flip_keeps_dense_layout() -> None:
    x = tensor((2, 3)).t()
    assert ember.flip(x, 0).stride() == x.stride()


def test_flip_errors() -> None:
    x = tensor((2, 3))
    raises(IndexError, "flip", lambda: ember.flip(x, 2), "range")
    raises(RuntimeError, "flip", lambda: ember.flip(x, (0, -2)), "dim 0", "multiple")
    raises(RuntimeError, "fliplr", lambda: ember.fliplr(tensor((3,))), "(3,)")
    raises(RuntimeError, "flipud", lambda: ember.flipud(ember.tensor(1.0)), "1-d")
    raises(TypeError, "flip", lambda: ember.flip([1, 2], 0), "list")


# ---------------------------------------------------------------- roll


@st.composite
def roll_cases(draw: st.DrawFn) -> tuple[np.ndarray, Any, Any]:
    a = draw(arrays())
    if a.ndim == 0 or draw(st.booleans()):
        return a, draw(st.integers(-9, 9)), None
    dims = draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=1, max_size=3))
    shifts = draw(st.lists(st.integers(-9, 9), min_size=len(dims), max_size=len(dims)))
    return a, tuple(shifts), tuple(dims)


@given(roll_cases())
def test_roll_matches_numpy(case: tuple[np.ndarray, Any, Any]) -> None:
    a, shifts, dims = case
    x = ember.from_numpy(a)
    expected = np.roll(a, shifts, dims)
    assert_close(ember.roll(x, shifts, dims), expected)
    assert_close(x.roll(shifts, dims=dims), expected)
    # Never a view of the input.
    assert not ember.roll(x, shifts, dims)._is_view_of(x)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_roll_dtypes(dtype: Any) -> None:
    x = tensor((3, 4), dtype)
    assert_close(ember.roll(x, (1, -1), (0, 1)), np.roll(to_numpy(x), (1, -1), (0, 1)))


def test_roll_errors() -> None:
    x = tensor((2, 3))
    raises(RuntimeError, "roll", lambda: ember.roll(x, (1, 2)), "shifts: 2", "dims: 0")
    raises(RuntimeError, "roll", lambda: ember.roll(x, (1, 2), (0,)), "shifts: 2", "dims: 1")
    raises(RuntimeError, "roll", lambda: ember.roll(x, ()), "shifts")
    raises(IndexError, "roll", lambda: ember.roll(x, 1, 2), "range")
    raises(IndexError, "roll", lambda: ember.roll(ember.tensor(1.0), 1, 0), "no dimensions")


# ---------------------------------------------------------------- repeat / tile


@st.composite
def repeat_cases(draw: st.DrawFn) -> tuple[np.ndarray, tuple[int, ...]]:
    a = draw(arrays())
    extra = draw(st.integers(0, 2))
    reps = draw(st.lists(st.integers(0, 3), min_size=a.ndim + extra, max_size=a.ndim + extra))
    return a, tuple(reps)


@given(repeat_cases())
def test_repeat_matches_numpy_tile(case: tuple[np.ndarray, tuple[int, ...]]) -> None:
    a, reps = case
    x = ember.from_numpy(a)
    expected = np.tile(a, reps) if reps else a
    assert_close(x.repeat(reps), expected)
    if reps:
        assert_close(x.repeat(*reps), expected)
    assert_close(ember.tile(x, reps), expected)


@given(st.data())
def test_tile_pads_short_dims(data: st.DataObject) -> None:
    a = data.draw(arrays(min_dims=1))
    reps = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=a.ndim)))
    x = ember.from_numpy(a)
    assert_close(ember.tile(x, reps), np.tile(a, reps))
    assert_close(x.tile(reps), np.tile(a, reps))
    assert_close(x.tile(*reps), np.tile(a, reps))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_repeat_dtypes(dtype: Any) -> None:
    x = tensor((2, 3), dtype)
    r = x.repeat(2, 1, 2)
    assert r.dtype == dtype
    assert_close(r, np.tile(to_numpy(x), (2, 1, 2)))


def test_repeat_errors() -> None:
    x = tensor((2, 3))
    raises(RuntimeError, "repeat", lambda: x.repeat(2), "smaller", "(2, 3)")
    raises(RuntimeError, "repeat", lambda: x.repeat(2, -1), "negative", "-1")
    raises(RuntimeError, "repeat", lambda: ember.tile(x, (2, -1)), "negative")
    raises(TypeError, "tile", lambda: ember.tile(3, (2,)), "int")


# ---------------------------------------------------------------- tril / triu


@given(st.data())
def test_tril_triu_match_numpy(data: st.DataObject) -> None:
    a = data.draw(arrays(min_dims=2))
    k = data.draw(st.integers(-5, 5))
    x = ember.from_numpy(a)
    assert_close(ember.tril(x, k), np.tril(a, k))
    assert_close(ember.triu(x, k), np.triu(a, k))
    assert_close(x.tril(k), np.tril(a, k))
    assert_close(x.triu(diagonal=k), np.triu(a, k))
    y = ember.from_numpy(np.array(a, copy=True))
    y.tril_(k)
    assert_close(y, np.tril(a, k))
    # In place through a strided view writes through to its base.
    base = ember.from_numpy(np.array(a, copy=True))
    view = base.transpose(-1, -2)
    assert view.triu_(k) is view
    assert_close(base, np.swapaxes(np.triu(np.swapaxes(a, -1, -2), k), -1, -2))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_tril_triu_dtypes(dtype: Any) -> None:
    x = tensor((2, 3, 4), dtype) if dtype != ember.bool else tensor((2, 3, 4)) > 0
    a = to_numpy(x).astype(np_dtype(dtype))
    assert_close(ember.tril(x, 1), np.tril(a, 1), dtype=dtype)
    assert_close(ember.triu(x, -1), np.triu(a, -1), dtype=dtype)


def test_tril_triu_errors() -> None:
    raises(RuntimeError, "tril", lambda: ember.tril(tensor((3,))), "2 dimensions", "(3,)")
    raises(RuntimeError, "triu", lambda: ember.triu(ember.tensor(1.0)), "2 dimensions")
    raises(RuntimeError, "tril_", lambda: tensor((3,)).tril_(), "2 dimensions")
    raises(TypeError, "tril", lambda: ember.tril(tensor((2, 2)), 1.5), "int", "float")


# ---------------------------------------------------------------- diag / diag_embed / trace


@given(st.data())
def test_diag_matches_numpy(data: st.DataObject) -> None:
    a = data.draw(arrays(min_dims=1).filter(lambda a: a.ndim <= 2))
    k = data.draw(st.integers(-4, 4))
    x = ember.from_numpy(a)
    assert_close(ember.diag(x, k), np.diag(a, k))
    assert_close(x.diag(diagonal=k), np.diag(a, k))
    assert_close(ember.diagflat(x, k), np.diagflat(a, k))
    assert_close(x.diagflat(k), np.diagflat(a, k))
    if a.ndim == 2:
        assert not ember.diag(x, k)._is_view_of(x)
        assert_close(ember.trace(x), np.array(np.trace(a)), dtype=ember.float64)


@given(st.data())
def test_diag_embed_matches_numpy(data: st.DataObject) -> None:
    a = data.draw(arrays(min_dims=1))
    offset = data.draw(st.integers(-3, 3))
    nd = a.ndim + 1
    dim1, dim2 = data.draw(
        st.lists(st.integers(-nd, nd - 1), min_size=2, max_size=2).filter(
            lambda d: d[0] % nd != d[1] % nd
        )
    )
    x = ember.from_numpy(a)
    n = a.shape[-1] + abs(offset)
    # Oracle: embed into the last two dims, then move them to dim1/dim2.
    base = np.zeros((*a.shape[:-1], n, n), a.dtype)
    idx = np.arange(a.shape[-1])
    rows, cols = (idx, idx + offset) if offset >= 0 else (idx - offset, idx)
    base[..., rows, cols] = a
    expected = np.moveaxis(base, (-2, -1), (dim1 % nd, dim2 % nd))
    assert_close(ember.diag_embed(x, offset, dim1, dim2), expected)
    assert_close(x.diag_embed(offset=offset, dim1=dim1, dim2=dim2), expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_diag_dtypes(dtype: Any) -> None:
    x = tensor((3,), dtype)
    assert_close(ember.diag(x, 1), np.diag(to_numpy(x), 1), dtype=dtype)
    m = tensor((3, 4), dtype)
    assert_close(ember.diag(m, -1), np.diag(to_numpy(m), -1), dtype=dtype)
    if dtype != ember.bool:
        expected_dtype = (
            dtype
            if dtype in (ember.float16, ember.bfloat16, ember.float32, ember.float64)
            else ember.int64
        )
        assert ember.trace(m).dtype == expected_dtype
        assert float(ember.trace(m).item()) == float(np.trace(to_numpy(m)))


def test_diag_errors() -> None:
    raises(RuntimeError, "diag", lambda: ember.diag(tensor((2, 2, 2))), "3D", "(2, 2, 2)")
    raises(RuntimeError, "diag", lambda: ember.diag(ember.tensor(1.0)), "0D")
    raises(RuntimeError, "diag_embed", lambda: ember.diag_embed(tensor((2,)), 0, 1, 1), "identical")
    raises(IndexError, "diag_embed", lambda: ember.diag_embed(tensor((2,)), 0, 3), "range")
    raises(IndexError, "diag_embed", lambda: ember.diag_embed(ember.tensor(1.0)), "range")
    raises(RuntimeError, "trace", lambda: ember.trace(tensor((3,))), "matrix", "(3,)")
    raises(NotImplementedError, "trace", lambda: ember.trace(tensor((2, 2)) > 0), "Bool")
    raises(TypeError, "diag", lambda: ember.diag(tensor((2,)), 1.5), "int")


# ---------------------------------------------------------------- broadcasting / atleast


@st.composite
def broadcastable(draw: st.DrawFn) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """A target shape and 0-3 shapes that broadcast to it."""
    target = draw(shapes())
    out = []
    for _ in range(draw(st.integers(0, 3))):
        keep = draw(st.integers(0, len(target)))
        tail = target[len(target) - keep :]
        out.append(tuple(1 if draw(st.booleans()) else s for s in tail))
    return target, out


@given(broadcastable(), st.sampled_from(VIEW_LAYOUTS))
def test_broadcast_ops_match_numpy(
    case: tuple[tuple[int, ...], list[tuple[int, ...]]], layout: str
) -> None:
    target, parts = case
    expected = np.broadcast_shapes(*parts) if parts else ()
    assert ember.broadcast_shapes(*parts) == expected
    assert isinstance(ember.broadcast_shapes(*parts), ember.Size)
    arrays_ = [numpy_array(p, layout) for p in parts]
    tensors = [ember.from_numpy(a) for a in arrays_]
    results = ember.broadcast_tensors(*tensors)
    assert isinstance(results, tuple)
    for r, a, x in zip(results, np.broadcast_arrays(*arrays_), tensors, strict=True):
        assert_close(r, a)
        assert r._is_view_of(x)
    for a, x in zip(arrays_, tensors, strict=True):
        assert_close(ember.broadcast_to(x, target), np.broadcast_to(a, target))
        assert_close(x.broadcast_to(target), np.broadcast_to(a, target))


@given(arrays(), st.integers(1, 3))
def test_atleast_nd_matches_numpy(a: np.ndarray, n: int) -> None:
    fn = {1: ember.atleast_1d, 2: ember.atleast_2d, 3: ember.atleast_3d}[n]
    oracle = {1: np.atleast_1d, 2: np.atleast_2d, 3: np.atleast_3d}[n]
    x = ember.from_numpy(a)
    r = fn(x)
    assert_close(r, oracle(a))
    if a.ndim >= n:
        assert r is x
    else:
        assert r._is_view_of(x)
    pair = fn(x, x)
    assert isinstance(pair, tuple) and len(pair) == 2
    assert_close(pair[1], oracle(a))
    assert len(fn([x])) == 1
    assert fn() == ()


def test_broadcast_errors() -> None:
    x = tensor((2, 3))
    raises(RuntimeError, "broadcast_to", lambda: ember.broadcast_to(x, (2, 4)), "(2, 4)", "(2, 3)")
    raises(RuntimeError, "broadcast_to", lambda: ember.broadcast_to(x, (3,)), "(3,)")
    raises(RuntimeError, "broadcast_to", lambda: ember.broadcast_to(x, (-1, 2, 3)), "leading")
    raises(RuntimeError, "broadcast_shapes", lambda: ember.broadcast_shapes((2,), (3,)), "(3,)")
    raises(ValueError, "broadcast_shapes", lambda: ember.broadcast_shapes((-1, 2)), "negative")
    raises(RuntimeError, "broadcast_tensors", lambda: ember.broadcast_tensors(x, tensor((4,))))
    raises(TypeError, "broadcast_tensors", lambda: ember.broadcast_tensors(x, 1), "int")
    raises(TypeError, "atleast_2d", lambda: ember.atleast_2d(3), "int")


# ---------------------------------------------------------------- hstack & co, splits


@given(shapes(min_dims=0, max_dims=3), st.integers(1, 3), st.sampled_from(VIEW_LAYOUTS))
def test_stacks_match_numpy(shape: tuple[int, ...], count: int, layout: str) -> None:
    arrays_ = [numpy_array(shape, layout) + i for i in range(count)]
    tensors = [ember.from_numpy(a) for a in arrays_]
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        fn, oracle = getattr(ember, name), getattr(np, name)
        assert_close(fn(tensors), oracle(arrays_))
        out = ember.empty(0, dtype=ember.float64)
        assert fn(tuple(tensors), out=out) is out
        assert_close(out, oracle(arrays_))


def test_stack_errors() -> None:
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        raises(RuntimeError, name, lambda n=name: getattr(ember, n)([]), "non-empty")
        raises(TypeError, name, lambda n=name: getattr(ember, n)(tensor((2,))), "Tensor")
        raises(TypeError, name, lambda n=name: getattr(ember, n)([tensor((2,)), 1]), "int")
    raises(RuntimeError, "hstack", lambda: ember.hstack([tensor((2,)), tensor((2, 1))]), "(2, 1)")
    raises(RuntimeError, "vstack", lambda: ember.vstack([tensor((2,)), tensor((3,))]), "(1, 3)")


@st.composite
def split_cases(draw: st.DrawFn) -> tuple[np.ndarray, Any, int]:
    a = draw(arrays(min_dims=1))
    dim = draw(st.integers(-a.ndim, a.ndim - 1))
    if draw(st.booleans()):
        return a, draw(st.integers(1, 5)), dim
    n = a.shape[dim]
    return a, draw(st.lists(st.integers(-n - 2, n + 2), max_size=4)), dim


@given(split_cases())
def test_tensor_split_matches_numpy(case: tuple[np.ndarray, Any, int]) -> None:
    a, ios, dim = case
    x = ember.from_numpy(a)
    expected = np.array_split(a, ios, axis=dim)
    for got in (ember.tensor_split(x, ios, dim), x.tensor_split(ios, dim=dim)):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert_close(g, e)
            assert g._is_view_of(x)
    if isinstance(ios, int):
        assert len(ember.tensor_split(x, ember.tensor(ios), dim)) == ios
    else:
        as_tensor = ember.tensor(ios, dtype=ember.int64)
        assert len(ember.tensor_split(x, as_tensor, dim)) == len(ios) + 1


@given(st.data())
def test_hsplit_vsplit_dsplit_match_numpy(data: st.DataObject) -> None:
    a = data.draw(arrays(min_dims=1))
    for name, min_dims in (("hsplit", 1), ("vsplit", 2), ("dsplit", 3)):
        if a.ndim < min_dims:
            continue
        fn, oracle = getattr(ember, name), getattr(np, name)
        dim = {"hsplit": 1 if a.ndim > 1 else 0, "vsplit": 0, "dsplit": 2}[name]
        n = a.shape[dim]
        divisors = [k for k in range(1, n + 1) if n % k == 0] or [1]
        sections = data.draw(st.sampled_from(divisors))
        indices = data.draw(st.lists(st.integers(0, n), max_size=3))
        x = ember.from_numpy(a)
        for ios in (sections, indices):
            expected = oracle(a, ios)
            got = fn(x, ios)
            assert len(got) == len(expected)
            for g, e in zip(got, expected, strict=True):
                assert_close(g, e)
            assert len(getattr(x, name)(ios)) == len(expected)


def test_split_errors() -> None:
    x = tensor((2, 3))
    raises(RuntimeError, "tensor_split", lambda: ember.tensor_split(x, 0), "larger than 0")
    raises(RuntimeError, "tensor_split", lambda: ember.tensor_split(ember.tensor(1.0), 2), "0 dims")
    raises(IndexError, "tensor_split", lambda: ember.tensor_split(x, 2, 2), "range")
    raises(TypeError, "tensor_split", lambda: ember.tensor_split(x, [1.5]), "float")
    raises(RuntimeError, "hsplit", lambda: ember.hsplit(x, 2), "divisible", "3")
    raises(RuntimeError, "hsplit", lambda: ember.hsplit(ember.tensor(1.0), 1), "at least 1")
    raises(RuntimeError, "vsplit", lambda: ember.vsplit(tensor((4,)), 2), "at least 2")
    raises(RuntimeError, "dsplit", lambda: ember.dsplit(x, 1), "at least 3")


# ---------------------------------------------------------------- meshgrid / kron


@given(st.lists(shapes(max_dims=1), min_size=1, max_size=3), st.sampled_from(["ij", "xy"]))
def test_meshgrid_matches_numpy(shape_list: list[tuple[int, ...]], indexing: str) -> None:
    arrays_ = [numpy_array(s, "negative") + i for i, s in enumerate(shape_list)]
    tensors = [ember.from_numpy(a) for a in arrays_]
    expected = np.meshgrid(*[a.reshape(-1) for a in arrays_], indexing=indexing)
    for got in (
        ember.meshgrid(*tensors, indexing=indexing),
        ember.meshgrid(tensors, indexing=indexing),
    ):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e, x in zip(got, expected, tensors, strict=True):
            assert_close(g, e)
            assert g._is_view_of(x)
    if indexing == "ij":
        for g, e in zip(ember.meshgrid(*tensors), expected, strict=True):
            assert_close(g, e)


@given(arrays(), arrays())
def test_kron_matches_numpy(a: np.ndarray, b: np.ndarray) -> None:
    x, y = ember.from_numpy(a), ember.from_numpy(b)
    assert_close(ember.kron(x, y), np.kron(a, b))
    assert_close(x.kron(y), np.kron(a, b))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_kron_dtypes(dtype: Any) -> None:
    x = tensor((2, 2), dtype)
    y = tensor((3,), ember.float32)
    r = ember.kron(x, y)
    assert r.dtype == ember.promote_types(dtype, ember.float32)
    assert_close(r, np.kron(to_numpy(x).astype(np.float64), to_numpy(y)), check_dtype=False)


def test_meshgrid_kron_errors() -> None:
    x = tensor((3,))
    raises(RuntimeError, "meshgrid", lambda: ember.meshgrid(x, tensor((2,), ember.int64)), "dtype")
    raises(RuntimeError, "meshgrid", lambda: ember.meshgrid(x, tensor((2, 2))), "(2, 2)")
    raises(RuntimeError, "meshgrid", lambda: ember.meshgrid(x, indexing="ab"), "ab")
    raises(RuntimeError, "meshgrid", lambda: ember.meshgrid(), "non-empty")
    raises(TypeError, "meshgrid", lambda: ember.meshgrid(x, 1), "int")
    raises(TypeError, "kron", lambda: ember.kron([1], x), "list")
