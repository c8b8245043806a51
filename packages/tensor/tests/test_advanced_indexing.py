"""Advanced indexing and the index ops against numpy: values, placement rules, copies, errors."""

from __future__ import annotations

import doctest
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
    check_index_outcome,
    np_dtype,
    numpy_array,
    raises,
    shapes,
    tensor,
    to_numpy,
)

nonempty_shapes = shapes(min_side=1, min_dims=1, max_dims=3)


def as_ember(item: Any) -> Any:
    """An index item for ember: numpy arrays become tensors (ints as int64, masks as bool)."""
    if isinstance(item, np.ndarray):
        return ember.from_numpy(item.copy())
    return item


@st.composite
def advanced_index(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """An index for `shape` mixing integer arrays, masks, slices, None and one Ellipsis.

    Python ints and 0-d integer arrays are left out: numpy counts them as advanced indices,
    torch as basic ones (see test_placement_follows_torch for those).
    """
    items: list[Any] = []
    dim = 0
    while dim < len(shape) and draw(st.integers(0, 3)) > 0:
        kind = draw(st.sampled_from(["array", "array", "mask", "slice", "full", "none"]))
        if kind == "array":
            size = shape[dim]
            idx_shape = draw(st.sampled_from([(2,), (1,), (2, 1), (3,)]))
            n = int(np.prod(idx_shape))
            values = draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n))
            dtype = draw(st.sampled_from([np.int64, np.int32]))
            items.append(np.array(values, dtype=dtype).reshape(idx_shape))
            dim += 1
        elif kind == "mask":
            k = draw(st.integers(1, len(shape) - dim))
            n = int(np.prod(shape[dim : dim + k]))
            bits = draw(st.lists(st.booleans(), min_size=n, max_size=n))
            items.append(np.array(bits, bool).reshape(shape[dim : dim + k]))
            dim += k
        elif kind == "slice":
            items.append(slice(draw(st.none() | st.integers(-3, 3)), None, draw(st.integers(1, 2))))
            dim += 1
        elif kind == "full":
            items.append(slice(None))
            dim += 1
        else:
            items.append(None)
    if not any(isinstance(i, np.ndarray) for i in items):
        items.append(np.array(True))  # a 0-d mask: a new dim of size 1
    # A run of full slices may be spelled as one Ellipsis (when the items cover every dim).
    full = [i for i, item in enumerate(items) if isinstance(item, slice) and item == slice(None)]
    if full and dim == len(shape) and draw(st.booleans()):
        first = draw(st.sampled_from(full))
        last = first
        while last + 1 in full:
            last += 1
        items[first : last + 1] = [Ellipsis]
    return tuple(items)


@given(st.data(), nonempty_shapes, st.sampled_from(VIEW_LAYOUTS))
def test_getitem_matches_numpy(data: st.DataObject, shape: tuple[int, ...], layout: str) -> None:
    a = numpy_array(shape, layout)
    index = data.draw(advanced_index(shape))
    x = ember.from_numpy(a)
    try:
        expected = a[index]
    except IndexError:  # index shapes that do not broadcast
        raises(IndexError, "index", lambda: x[tuple(as_ember(i) for i in index)], "shape")
        return
    got = x[tuple(as_ember(i) for i in index)]
    assert_close(got, expected)
    # A copy: writing into the result leaves x alone.
    if got.numel():
        got.fill_(-1.0)
        np.testing.assert_array_equal(to_numpy(x), a)


@given(st.data(), nonempty_shapes, st.sampled_from(VIEW_LAYOUTS), st.booleans())
def test_setitem_matches_numpy(
    data: st.DataObject, shape: tuple[int, ...], layout: str, scalar: bool
) -> None:
    a = numpy_array(shape, layout)
    index = data.draw(advanced_index(shape))
    try:
        target_shape = a[index].shape
    except IndexError:
        return  # covered by test_getitem_matches_numpy
    if scalar:
        value: Any = -5.0
    else:
        # A value broadcasting to the result from its trailing dims.
        tail = target_shape[data.draw(st.integers(0, len(target_shape))) :]
        value = -np.arange(int(np.prod(tail)), dtype=np.float64).reshape(tail) - 1
    # Duplicate indices leave which write wins unspecified (torch); compare only unique ones.
    probe = np.zeros(a.shape)
    np.add.at(probe, index, 1.0)
    if probe.max(initial=0) > 1:
        return
    expected = a.copy()
    expected[index] = value
    x = ember.from_numpy(a)
    x[tuple(as_ember(i) for i in index)] = value if scalar else ember.from_numpy(value)
    assert_close(x, expected)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_every_dtype(dtype: Any) -> None:
    x = tensor((3, 4), dtype)
    expected = to_numpy(x)
    rows = np.array([2, 0, 2])
    assert_close(x[ember.from_numpy(rows)], expected[rows], dtype=dtype)
    assert_close(x[:, [3, 1]], expected[:, [3, 1]], dtype=dtype)
    mask = expected.astype(np.float64) > 4
    assert_close(x[ember.from_numpy(mask)], expected[mask], dtype=dtype)
    x[ember.from_numpy(rows), 1] = tensor((3,), dtype)
    expected[rows, 1] = to_numpy(tensor((3,), dtype))
    assert_close(x, expected, dtype=dtype)
    acc = ember.zeros(4, dtype=dtype)
    acc.index_put_((ember.tensor([1, 1, 3]),), ember.ones(3, dtype=dtype), accumulate=True)
    ref = np.zeros(4, np_dtype(dtype))
    np.add.at(ref, [1, 1, 3], np.ones(3, np_dtype(dtype)))
    assert_close(acc, ref, dtype=dtype)


def test_placement_follows_torch() -> None:
    # torch applies ints (and slices, None, Ellipsis) first as views, then the tensor indices:
    # adjacent tensor indices stay in place, separated ones move to the front.
    z = ember.zeros(2, 3, 4)
    cases: list[tuple[tuple[Any, ...], tuple[int, ...]]] = [
        (([0, 1], slice(None), [0, 1]), (2, 3)),
        ((slice(None), [0, 1], [0, 1]), (2, 2)),
        ((None, [0, 1], Ellipsis, 0), (1, 2, 3)),
        ((0, slice(None), [1, 2]), (3, 2)),
        (([0], [0]), (1, 4)),
        (([0], 0), (1, 4)),
        (([[0, 1]], slice(1, None)), (1, 2, 2, 4)),
        ((slice(None), True), (2, 1, 3, 4)),
        ((True,), (1, 2, 3, 4)),
        ((False,), (0, 2, 3, 4)),
        (([],), (0, 3, 4)),
        ((ember.tensor([[0, 1], [1, 0]]), None, [[0], [2]]), (2, 2, 1, 4)),
        ((ember.tensor(0), None, [0, 1]), (1, 2, 4)),
    ]
    for index, shape in cases:
        assert tuple(z[index].shape) == shape, (index, tuple(z[index].shape), shape)
    assert z[[]].dtype == ember.float32


def test_bool_scalars_and_numpy_indices() -> None:
    a = np.arange(6.0).reshape(2, 3)
    x = ember.from_numpy(a.copy())
    assert_close(x[np.array([1, 0])], a[np.array([1, 0])])
    assert_close(x[np.array([True, False])], a[np.array([True, False])])
    assert_close(x[ember.tensor(True)], a[None])
    assert_close(x[0, ember.tensor(False)], a[0][None][:0])
    assert_close(x[:, [True, False, True]], a[:, [0, 2]])
    x[True] = 1.0
    assert_close(x, np.ones((2, 3)))
    x[False] = 2.0
    assert_close(x, np.ones((2, 3)))
    y = ember.arange(6)
    assert_close(y[y % 2 == 0], np.array([0, 2, 4]))
    y[y > 3] = 0
    assert_close(y, np.array([0, 1, 2, 3, 0, 0]))


def test_setitem_from_overlapping_value() -> None:
    x = ember.arange(5.0)
    x[[4, 3, 2, 1, 0]] = x
    assert_close(x, np.arange(5.0)[::-1])


@given(st.integers(1, 6), st.integers(0, 12), st.booleans())
def test_index_put_accumulate(size: int, n: int, two_d: bool) -> None:
    rng = np.random.default_rng(size * 100 + n)
    shape = (size, 3) if two_d else (size,)
    idx = rng.integers(-size, size, n)
    values = rng.standard_normal((n, 3) if two_d else n)
    expected = np.zeros(shape)
    np.add.at(expected, idx, values)
    x = ember.zeros(*shape, dtype=ember.float64)
    assert x.index_put_((ember.from_numpy(idx),), ember.from_numpy(values), True) is x
    assert_close(x, expected)
    out = ember.index_put(
        ember.zeros(*shape, dtype=ember.float64),
        (ember.from_numpy(idx),),
        ember.from_numpy(values),
        accumulate=True,
    )
    assert_close(out, expected)
    if two_d:
        cols = rng.integers(0, 3, n)
        expected2 = np.zeros(shape)
        np.add.at(expected2, (idx, cols), values[:, 0])
        y = ember.zeros(*shape, dtype=ember.float64)
        y.index_put_(
            (ember.from_numpy(idx), ember.from_numpy(cols)),
            ember.from_numpy(values[:, 0].copy()),
            accumulate=True,
        )
        assert_close(y, expected2)


@given(nonempty_shapes, st.sampled_from(VIEW_LAYOUTS), st.data())
def test_index_select_gather_take(shape: tuple[int, ...], layout: str, data: st.DataObject) -> None:
    a = numpy_array(shape, layout)
    x = ember.from_numpy(a)
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    size = shape[dim]
    n = data.draw(st.integers(0, 5))
    idx = np.array(
        data.draw(st.lists(st.integers(0, size - 1), min_size=n, max_size=n)), dtype=np.int64
    )
    assert_close(x.index_select(dim, ember.from_numpy(idx)), np.take(a, idx, axis=dim))
    assert_close(
        ember.index_select(x, dim, ember.from_numpy(idx.astype(np.int32))),
        np.take(a, idx, axis=dim),
    )
    # gather: an index no larger than x apart from `dim`.
    gshape = tuple(
        data.draw(st.integers(0, 4)) if d == dim % len(shape) else data.draw(st.integers(0, s))
        for d, s in enumerate(shape)
    )
    gidx = np.asarray(
        data.draw(
            st.lists(
                st.integers(0, size - 1),
                min_size=int(np.prod(gshape)),
                max_size=int(np.prod(gshape)),
            )
        ),
        np.int64,
    )
    gidx = gidx.reshape(gshape)
    sub = a[
        tuple(slice(0, s) if d != dim % len(shape) else slice(None) for d, s in enumerate(gshape))
    ]
    assert_close(x.gather(dim, ember.from_numpy(gidx)), np.take_along_axis(sub, gidx, dim))
    if gshape[:dim] + gshape[dim + 1 :] == shape[:dim] + shape[dim + 1 :] and dim >= 0:
        assert_close(
            ember.take_along_dim(x, ember.from_numpy(gidx), dim), np.take_along_axis(a, gidx, dim)
        )
    flat = np.asarray(data.draw(st.lists(st.integers(-a.size, a.size - 1), max_size=6)), np.int64)
    assert_close(x.take(ember.from_numpy(flat)), np.take(a, flat))
    assert_close(
        ember.take_along_dim(x, ember.from_numpy(flat % a.size)), np.take(a, flat % a.size)
    )


def test_take_along_dim_broadcasts() -> None:
    a = np.arange(12.0).reshape(3, 4)
    x = ember.from_numpy(a)
    order = np.argsort(-a, axis=1)
    assert_close(
        ember.take_along_dim(x, ember.from_numpy(order), dim=1), np.take_along_axis(a, order, 1)
    )
    col = np.array([[1], [0], [3]])
    assert_close(x.take_along_dim(ember.from_numpy(col), 1), np.take_along_axis(a, col, 1))
    row = np.array([[2, 0, 1, 1]])
    expected = np.take_along_axis(np.broadcast_to(a, (3, 4)), np.broadcast_to(row, (1, 4)), 0)
    assert_close(ember.take_along_dim(x, ember.from_numpy(row), 0), expected)
    assert_close(ember.gather(ember.tensor(5.0), 0, ember.tensor(0)), np.array(5.0))
    last = np.array([[-1], [-2], [0]])
    assert_close(x.take_along_dim(ember.from_numpy(last), 1), np.take_along_axis(a, last % 4, 1))
    assert_close(ember.tensor(5.0).index_select(0, ember.tensor([0])), np.array(5.0))


@given(st.integers(1, 5), st.integers(1, 4), st.integers(0, 5), st.integers(0, 2**32 - 1))
def test_scatter_and_scatter_add(rows: int, cols: int, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    base = rng.standard_normal((rows, cols))
    src = rng.standard_normal((n + 1, cols + 1))  # src may be larger than index
    # scatter: distinct rows per column (with duplicates the winner is unspecified).
    n_unique = min(n, rows)
    unique = np.stack([rng.permutation(rows)[:n_unique] for _ in range(cols)], axis=1)
    unique = unique.reshape(n_unique, cols)
    expected = base.copy()
    for i in range(n_unique):
        for j in range(cols):
            expected[unique[i, j], j] = src[i, j]
    x = ember.from_numpy(base)
    got = x.scatter(0, ember.from_numpy(unique), ember.from_numpy(src))
    assert_close(got, expected)
    np.testing.assert_array_equal(to_numpy(x), base)  # out of place
    # scatter_add: duplicates sum.
    dup = rng.integers(-0, rows, (n, cols))
    expected = base.copy()
    for i in range(n):
        for j in range(cols):
            expected[dup[i, j], j] += src[i, j]
    assert_close(ember.scatter_add(x, 0, ember.from_numpy(dup), ember.from_numpy(src)), expected)
    y = ember.from_numpy(base.copy())
    assert y.scatter_add_(0, ember.from_numpy(dup), ember.from_numpy(src)) is y
    assert_close(y, expected)
    # The value form, along dim 1.
    expected = base.copy()
    cols_idx = rng.integers(0, cols, (rows, 1))
    expected[np.arange(rows), cols_idx[:, 0]] = 7.0
    z = ember.from_numpy(base.copy())
    assert z.scatter_(1, ember.from_numpy(cols_idx), 7.0) is z
    assert_close(z, expected)
    assert_close(x.scatter(1, ember.from_numpy(cols_idx), value=7.0), expected)


@given(shapes(max_dims=3), st.sampled_from(VIEW_LAYOUTS), st.data())
def test_masks_and_nonzero(shape: tuple[int, ...], layout: str, data: st.DataObject) -> None:
    a = numpy_array(shape, layout)
    x = ember.from_numpy(a)
    # The mask broadcasts with x from its trailing dims.
    mshape = shape[data.draw(st.integers(0, len(shape))) :]
    bits = data.draw(
        st.lists(st.booleans(), min_size=int(np.prod(mshape)), max_size=int(np.prod(mshape)))
    )
    m = np.array(bits, bool).reshape(mshape)
    mask = ember.from_numpy(m)
    assert_close(x.masked_fill(mask, -1.0), np.where(m, -1.0, a))
    assert_close(ember.masked_fill(x, mask, ember.tensor(2.0)), np.where(m, 2.0, a))
    assert_close(
        x.masked_select(mask),
        np.broadcast_to(a, np.broadcast_shapes(a.shape, m.shape))[
            np.broadcast_to(m, np.broadcast_shapes(a.shape, m.shape))
        ],
    )
    y = ember.from_numpy(a.copy())
    assert y.masked_fill_(mask, 3.0) is y
    assert_close(y, np.where(m, 3.0, a))
    b = a % 3 == 0
    assert_close(ember.nonzero(ember.from_numpy(b)), np.argwhere(b))
    assert_close(ember.argwhere(x), np.argwhere(a))
    for got, expected in zip(
        ember.where(ember.from_numpy(b)), np.nonzero(np.atleast_1d(b)), strict=True
    ):
        assert_close(got, expected)
    assert len(x.nonzero(as_tuple=True)) == max(len(shape), 1)


def test_nonzero_large_and_special() -> None:
    rng = np.random.default_rng(0)
    a = rng.random((300, 400)) > 0.7
    assert_close(ember.nonzero(ember.from_numpy(a)), np.argwhere(a))
    assert tuple(ember.nonzero(ember.tensor(3.0)).shape) == (1, 0)
    assert tuple(ember.nonzero(ember.tensor(0.0)).shape) == (0, 0)
    assert_close(ember.nonzero(ember.tensor([0.0, float("nan"), -0.0])), np.array([[1]]))
    assert ember.nonzero(ember.tensor([1, 0])).dtype == ember.int64


def test_large_parallel_gather_put() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal(200_000).astype(np.float32)
    idx = rng.integers(-a.size, a.size, 100_000)
    x = ember.from_numpy(a.copy())
    assert_close(x[ember.from_numpy(idx)], a[idx])
    vals = rng.standard_normal(100_000).astype(np.float32)
    expected = a.copy()
    np.add.at(expected, idx, vals)
    x.index_put_((ember.from_numpy(idx),), ember.from_numpy(vals), accumulate=True)
    assert_close(x, expected, rtol=1e-5, atol=1e-5)


def test_out_of_range_raises_before_writing() -> None:
    x = tensor((2, 3))
    before = to_numpy(x)
    raises(IndexError, "index", lambda: x[[0, 5]], "index 5", "dimension 0", "size 2")
    raises(IndexError, "index", lambda: x[:, [-4]], "index -4", "dimension 1", "size 3")
    raises(IndexError, "index", lambda: x[[0, 1], [0, 3]], "index 3", "dimension 1")
    raises(IndexError, "index", lambda: x.__setitem__(([1, 2],), 9.0), "index 2")
    raises(
        IndexError,
        "index_put_",
        lambda: x.index_put_((ember.tensor([0, 7]),), ember.ones(2, 3)),
        "index 7",
    )
    raises(
        IndexError,
        "index_put_",
        lambda: x.index_put_((ember.tensor([0, 7]),), ember.ones(2, 3), True),
        "index 7",
    )
    raises(IndexError, "index_select", lambda: x.index_select(1, ember.tensor([3])), "index 3")
    # Like torch, only indexing, take and take_along_dim count negative indices from the end.
    raises(IndexError, "index_select", lambda: x.index_select(1, ember.tensor([-1])), "index -1")
    raises(IndexError, "gather", lambda: x.gather(1, ember.tensor([[-1]])), "index -1")
    raises(IndexError, "scatter", lambda: x.scatter(1, ember.tensor([[-1]]), 1.0), "index -1")
    raises(IndexError, "gather", lambda: x.gather(0, ember.tensor([[2]])), "index 2")
    raises(IndexError, "scatter", lambda: x.scatter_(0, ember.tensor([[0, 2]]), 1.0), "index 2")
    raises(
        IndexError,
        "scatter_add",
        lambda: x.scatter_add_(1, ember.tensor([[0, 3]]), ember.ones(1, 2)),
        "index 3",
    )
    raises(IndexError, "take", lambda: x.take(ember.tensor([6])), "index 6", "size 6")
    np.testing.assert_array_equal(to_numpy(x), before)
    raises(IndexError, "index", lambda: ember.zeros(0)[[0]], "index 0", "size 0")
    # Checked even when the result is empty (torch checks only when the dim has size 0).
    raises(IndexError, "index", lambda: ember.zeros(2, 0)[[5]], "index 5", "size 2")
    raises(IndexError, "index_select", lambda: ember.zeros(2, 0).index_select(0, ember.tensor([2])))


def test_bad_index_types_and_shapes() -> None:
    x = tensor((2, 3))
    raises(IndexError, "index", lambda: x[ember.tensor([0.0])], "long, int, byte or bool")
    raises(IndexError, "index", lambda: x[ember.tensor([0], dtype=ember.int16)], "int16")
    raises(IndexError, "index", lambda: x[np.array([0.5])], "float")
    raises(IndexError, "index", lambda: x[ember.tensor([True, False, True])], "mask", "(3,)")
    raises(IndexError, "index", lambda: x[[0, 1], [0, 1, 2]], "broadcast", "(2,)", "(3,)")
    raises(IndexError, "index", lambda: x[[0], [0], [0]], "too many indices")
    raises(IndexError, "index", lambda: x[[[0], ["a"]]], "convert")
    raises(
        RuntimeError, "index", lambda: x.__setitem__([0, 1], ember.ones(3, 3)), "(3, 3)", "(2, 3)"
    )
    raises(
        RuntimeError,
        "index",
        lambda: ember.zeros(1, 3).expand(2, 3).__setitem__([0], 1.0),
        "single memory location",
    )
    raises(
        RuntimeError,
        "index_put_",
        lambda: x.index_put_((ember.tensor([0]),), ember.ones(3, dtype=ember.int64)),
        "dtypes match",
    )
    raises(TypeError, "index_put_", lambda: x.index_put_(ember.tensor([0]), ember.ones(3)), "tuple")
    raises(RuntimeError, "index_select", lambda: x.index_select(0, ember.tensor([0.0])), "float")
    raises(IndexError, "index_select", lambda: x.index_select(0, ember.tensor([[0]])), "vector")
    raises(IndexError, "index_select", lambda: x.index_select(2, ember.tensor([0])), "Dimension")
    raises(RuntimeError, "gather", lambda: x.gather(0, ember.tensor([0])), "dimensions")
    raises(RuntimeError, "gather", lambda: x.gather(0, ember.tensor([[0, 0, 0, 0]])), "(1, 4)")
    raises(RuntimeError, "gather", lambda: x.gather(0, ember.tensor([[0.0]])), "float32")
    raises(
        RuntimeError,
        "scatter",
        lambda: x.scatter(0, ember.tensor([[0]]), ember.ones(1, 1, dtype=ember.int64)),
        "dtype",
    )
    raises(
        RuntimeError,
        "scatter",
        lambda: x.scatter(0, ember.tensor([[0, 0]]), ember.ones(1, 1)),
        "src",
    )
    raises(
        RuntimeError,
        "scatter",
        lambda: x.scatter(0, ember.tensor([[0]]), 1.0, reduce="mean"),
        "reduce",
    )
    raises(TypeError, "scatter", lambda: x.scatter(0, ember.tensor([[0]])), "src")
    raises(TypeError, "scatter_add", lambda: x.scatter_add(0, ember.tensor([[0]]), 1.0), "src")
    raises(
        TypeError,
        "index_put_",
        lambda: x.index_put_((None, ember.tensor([0])), ember.tensor(1.0)),
        "tensors",
    )
    raises(
        RuntimeError,
        "index_select",
        lambda: ember.tensor(5.0).index_select(0, ember.tensor([0, 0])),
        "2 value(s)",
    )
    raises(
        RuntimeError,
        "masked_fill",
        lambda: x.masked_fill(ember.tensor([1.0, 0, 1]), 1.0),
        "bool",
        "float32",
    )
    raises(
        RuntimeError,
        "masked_fill",
        lambda: x.masked_fill(ember.tensor([True, False, True]), ember.tensor([1.0, 2.0])),
        "0-dimensional",
        "(2,)",
    )
    raises(
        RuntimeError,
        "masked_fill",
        lambda: x.masked_fill(ember.tensor([True, False]), 1.0),
        "(2, 3)",
        "(2,)",
    )
    raises(
        RuntimeError,
        "masked_fill_",
        lambda: x.masked_fill_(ember.ones(3, 2, 3) > 0, 1.0),
        "(3, 2, 3)",
    )
    raises(RuntimeError, "masked_select", lambda: x.masked_select(ember.tensor([1, 0, 1])), "bool")
    raises(
        RuntimeError,
        "take_along_dim",
        lambda: x.take_along_dim(ember.tensor([0]), dim=1),
        "dimensions",
    )
    raises(RuntimeError, "take", lambda: x.take(ember.tensor([0.0])), "int")
    np.testing.assert_array_equal(to_numpy(x), np.arange(6.0).reshape(2, 3))


@given(
    shapes(max_dims=3),
    st.lists(
        st.one_of(
            st.integers(-4, 4),
            st.none(),
            st.just(Ellipsis),
            st.booleans(),
            st.lists(st.integers(-5, 5), max_size=3),
            st.lists(st.booleans(), max_size=4),
            st.builds(slice, st.none() | st.integers(-3, 3), st.none() | st.integers(-3, 3)),
        ),
        max_size=4,
    ),
    st.booleans(),
)
def test_bad_indices_raise_typed_errors(
    shape: tuple[int, ...], items: list[Any], put: bool
) -> None:
    check_index_outcome(tensor(shape), items, put)


def test_out_arguments() -> None:
    a = np.arange(6.0).reshape(2, 3)
    x = ember.from_numpy(a)
    idx = ember.tensor([[0], [2]])
    calls = {
        "index_select": (
            lambda out: ember.index_select(x, 1, ember.tensor([2, 0]), out=out),
            a[:, [2, 0]],
        ),
        "gather": (lambda out: ember.gather(x, 1, idx, out=out), np.array([[0.0], [5.0]])),
        "take": (lambda out: ember.take(x, ember.tensor([5, -6]), out=out), np.array([5.0, 0.0])),
        "take_along_dim": (
            lambda out: ember.take_along_dim(x, idx, 1, out=out),
            np.array([[0.0], [5.0]]),
        ),
        "masked_select": (lambda out: ember.masked_select(x, x > 2, out=out), a[a > 2]),
    }
    for op, (call, expected) in calls.items():
        out = ember.empty(7, dtype=ember.float64)
        assert call(out) is out
        assert_close(out, expected)
        wrong = ember.empty(1, dtype=ember.int32)
        raises(RuntimeError, op, lambda call=call, wrong=wrong: call(wrong), "int32", "float64")
    out = ember.empty(0, dtype=ember.int64)
    assert ember.nonzero(x, out=out) is out
    assert_close(out, np.argwhere(a))
    raises(TypeError, "nonzero", lambda: ember.nonzero(x, out=out, as_tuple=True), "as_tuple")


@pytest.mark.parametrize(
    "name",
    [
        "index_select",
        "gather",
        "scatter",
        "scatter_add",
        "take",
        "take_along_dim",
        "masked_fill",
        "masked_select",
        "nonzero",
        "argwhere",
        "index_put",
    ],
)
def test_docstring_examples_run(name: str) -> None:
    doc = getattr(ember, name).__doc__
    test = doctest.DocTestParser().get_doctest(doc, {"ember": ember}, name, None, 0)
    assert test.examples, f"{name} has no example"
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0
