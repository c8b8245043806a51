"""Basic indexing (ints, slices, Ellipsis, None): views checked against numpy, and errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import (
    VIEW_LAYOUTS,
    assert_close,
    check_index_outcome,
    numpy_array,
    raises,
    shapes,
    tensor,
    to_numpy,
)


@st.composite
def basic_indices(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A valid basic index for `shape`: ints in range, slices (step > 0), one Ellipsis, None."""
    items: list[Any] = []
    dims = list(shape)
    use_ellipsis = draw(st.booleans())
    consumed = draw(st.integers(0, len(dims)))
    ellipsis_at = draw(st.integers(0, consumed))
    for k in range(consumed + 1):
        if use_ellipsis and k == ellipsis_at:
            items.append(Ellipsis)
        items.extend([None] * draw(st.integers(0, 1)))
        if k == consumed:
            break
        # Ellipsis stands for the middle dims: index the leading ones before it, the rest after.
        size = dims[k] if not use_ellipsis or k < ellipsis_at else dims[len(dims) - consumed + k]
        if size > 0 and draw(st.booleans()):
            items.append(draw(st.integers(-size, size - 1)))
        else:
            bound = st.none() | st.integers(-size - 3, size + 3)
            items.append(slice(draw(bound), draw(bound), draw(st.none() | st.integers(1, 4))))
    return tuple(items)


@given(shapes(), st.sampled_from(VIEW_LAYOUTS), st.data())
def test_getitem_matches_numpy_and_is_a_view(
    shape: tuple[int, ...], layout: str, data: st.DataObject
) -> None:
    a = numpy_array(shape, layout)
    x = ember.from_numpy(a)
    index = data.draw(basic_indices(shape))
    expected = a[index]
    r = x[index]
    assert_close(r, expected)
    assert r._is_view_of(x)
    if len(index) == 1:
        assert_close(x[index[0]], expected)
    if r.numel() > 0:
        # A write through the view lands in the base (and in the numpy array under it).
        first = (0,) * r.dim()
        r[first] = -1.0
        assert to_numpy(r)[first] == -1.0
        assert (to_numpy(x) == -1.0).sum() == 1


@given(shapes(), st.data())
def test_setitem_matches_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    a = numpy_array(shape, data.draw(st.sampled_from(["contiguous", "transposed"])))
    x = ember.from_numpy(a.copy())
    expected = a.copy()
    index = data.draw(basic_indices(shape))
    target_shape = expected[index].shape
    kind = data.draw(st.sampled_from(["int", "float", "tensor", "tensor1"]))
    if kind == "int":
        value: Any = data.draw(st.integers(-100, 100))
        expected[index] = value
    elif kind == "float":
        value = data.draw(st.floats(-10, 10))
        expected[index] = value
    else:
        # A value that broadcasts: some trailing dims kept, others 1; maybe an extra leading 1.
        dims = [data.draw(st.sampled_from([s, 1])) for s in target_shape]
        dims = dims[data.draw(st.integers(0, len(dims))) :]
        if kind == "tensor1":
            dims = [1, *dims]
        v = np.arange(math.prod(dims), dtype=np.int32).reshape(dims) + 1000
        value = ember.from_numpy(v)
        expected[index] = v.reshape(v.shape[1:]) if kind == "tensor1" else v
    version = x._version
    x[index] = value
    assert_close(x, expected)
    assert x._version > version or expected[index].size == 0


@pytest.mark.parametrize(
    ("index", "shape", "strides", "offset"),
    [  # checked against torch 2.13 on arange(24).reshape(2, 3, 4)
        ((slice(0, 5, 2), None, Ellipsis, 1), (1, 1, 3), (24, 12, 4), 1),
        ((None,), (1, 2, 3, 4), (24, 12, 4, 1), 0),
        ((Ellipsis, None), (2, 3, 4, 1), (12, 4, 1, 1), 0),
        ((slice(None), None), (2, 1, 3, 4), (12, 12, 4, 1), 0),
        ((slice(5, None),), (0, 3, 4), (12, 4, 1), 24),
        ((slice(1, 0),), (0, 3, 4), (12, 4, 1), 12),
        ((slice(-10, 1),), (1, 3, 4), (12, 4, 1), 0),
        ((slice(None), slice(5, None)), (2, 0, 4), (12, 4, 1), 12),
        ((1, Ellipsis, 2, 3), (), (), 23),
    ],
)
def test_getitem_geometry_like_torch(
    index: tuple[Any, ...], shape: tuple[int, ...], strides: tuple[int, ...], offset: int
) -> None:
    x = tensor((2, 3, 4))
    r = x[index]
    assert r.shape == shape
    assert r.stride() == strides
    assert r.storage_offset() == offset


def test_getitem_edge_cases() -> None:
    x = tensor((2, 3, 4))
    assert x[slice(None, None, 2**70)].shape == (1, 3, 4)  # clamped like Python's slice
    assert x[:, None].stride() == (12, 12, 4, 1)
    assert tensor((2, 3))[:, None].stride() == (3, 3, 1)
    assert tensor((0, 3))[:, 1:].storage_offset() == 1
    z = ember.from_numpy(np.array(5.0))
    assert z[...].shape == () and z[...]._is_view_of(z)
    assert z[None].shape == (1,) and z[None].stride() == (1,)
    assert z[None, ..., None].shape == (1, 1)
    # A 0-d integer tensor (or numpy integer) acts as an int.
    assert_close(x[ember.tensor(1)], to_numpy(x)[1])
    assert x[ember.tensor(1)]._is_view_of(x)
    assert_close(x[:, ember.tensor(-1)], to_numpy(x)[:, -1])
    assert_close(x[np.int64(1), np.int32(2)], to_numpy(x)[1, 2])
    assert_close(x[np.array(1)], to_numpy(x)[1])
    # Slice bounds may be 0-d tensors too.
    assert_close(x[ember.tensor(1) :], to_numpy(x)[1:])
    # A list of slices reads as a tuple (torch's legacy rule).
    assert_close(x[[0, slice(None)]], to_numpy(x)[0, :])


def test_setitem_casts_and_broadcasts() -> None:
    x = ember.from_numpy(np.zeros((2, 3), dtype=np.int32))
    x[0] = 2.7  # truncated like torch's copy_
    assert x.tolist() == [[2, 2, 2], [0, 0, 0]]
    x[1, 1:] = ember.from_numpy(np.array([[5.9, -6.9]]))  # leading 1 dropped, cast
    assert x.tolist() == [[2, 2, 2], [0, 5, -6]]
    x[:, 0] = True
    assert x.tolist() == [[1, 2, 2], [1, 5, -6]]
    x[...] = ember.from_numpy(np.array([7, 8, 9], dtype=np.int8))
    assert x.tolist() == [[7, 8, 9], [7, 8, 9]]
    x[0] = [1, 2, 3]
    assert x.tolist() == [[1, 2, 3], [7, 8, 9]]
    x[1] = np.array([4, 5, 6])
    assert x.tolist() == [[1, 2, 3], [4, 5, 6]]
    x[:, :] = x  # self-assignment is a no-op
    assert x.tolist() == [[1, 2, 3], [4, 5, 6]]
    x[1] = x[0]  # overlapping source is read before it is written
    assert x.tolist() == [[1, 2, 3], [1, 2, 3]]
    z = ember.from_numpy(np.array(1.5))
    z[...] = 4
    assert z.item() == 4.0
    z[None] = ember.from_numpy(np.array([6.0]))
    assert z.item() == 6.0


def test_iter_and_len() -> None:
    x = tensor((3, 2))
    rows = list(x)
    assert len(rows) == len(x) == 3
    for k, row in enumerate(rows):
        assert_close(row, to_numpy(x)[k])
        assert row._is_view_of(x)
    assert [r.tolist() for r in tensor((0, 2))] == []
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(ember.from_numpy(np.array(1.0)))


def test_index_errors() -> None:
    x = tensor((2, 3, 4))
    z = ember.from_numpy(np.array(1.0))
    raises(IndexError, "index", lambda: x[5], "index 5", "dimension 0", "size 2")
    raises(IndexError, "index", lambda: x[-3], "index -3")
    raises(IndexError, "index", lambda: x[:, 3], "index 3", "dimension 1", "size 3")
    raises(IndexError, "index", lambda: x[None, 5], "index 5", "size 2")
    raises(IndexError, "index", lambda: x[2**70], "out of bounds")
    raises(ValueError, "index", lambda: x[::-1], "step must be greater than zero")
    raises(ValueError, "index", lambda: x[:, ::0], "cannot be zero")
    raises(IndexError, "index", lambda: x[1.5], "float")
    raises(IndexError, "index", lambda: x["a"], "str")
    raises(IndexError, "index", lambda: x[0, 0, 0, 0], "too many indices", "dimension 3")
    raises(IndexError, "index", lambda: x[..., 0, ...], "single ellipsis")
    raises(IndexError, "index", lambda: z[0], "0-dim")
    raises(IndexError, "index", lambda: z[:], "0-dim")
    raises(IndexError, "index", lambda: x[ember.tensor(1.0)], "float32")
    raises(TypeError, "index", lambda: x[1.5:], "slice indices")


@pytest.mark.parametrize(
    "index",
    [
        [0, 1],
        (0, [0, 1]),
        True,
        np.array([0, 1]),
        np.array([True, False]),
        "tensor",
        "bool0d",
        "uint8_0d",
    ],
)
def test_advanced_indices_copy(index: Any) -> None:
    # Full coverage is in test_advanced_indexing.py; here: every kind parses, and copies.
    x = tensor((2, 3))
    made = {
        "tensor": (lambda: ember.tensor([0, 1]), np.array([0, 1])),
        "bool0d": (lambda: ember.tensor(True), True),
        "uint8_0d": (lambda: ember.tensor(1, dtype=ember.uint8), True),
    }
    expected_index = index
    if isinstance(index, str):
        make, expected_index = made[index]
        index = make()
    expected = np.arange(6.0).reshape(2, 3)[expected_index]
    got = x[index]
    assert_close(got, expected)
    got.fill_(-1.0)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    x[index] = 7.0
    reference = np.arange(6.0).reshape(2, 3)
    reference[expected_index] = 7.0
    assert_close(x, reference)


def test_setitem_errors() -> None:
    x = tensor((2, 3))
    raises(RuntimeError, "index", lambda: x.__setitem__(0, tensor((2,))), "(2,)", "(3,)")
    raises(
        RuntimeError,
        "index",
        lambda: x.__setitem__(slice(None), tensor((3, 3))),
        "(3, 3)",
        "(2, 3)",
    )
    raises(IndexError, "index", lambda: x.__setitem__(7, 1.0), "index 7")
    raises(ValueError, "index", lambda: x.__setitem__(slice(None, None, -1), 1.0), "step")
    expanded = tensor((1, 3)).expand(2, 3)
    raises(
        RuntimeError,
        "index",
        lambda: expanded.__setitem__(slice(None), 1.0),
        "single memory location",
    )
    readonly = np.zeros(3)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ember.from_numpy(readonly)[0] = 1.0
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


index_items = st.one_of(
    st.integers(-6, 6),
    st.integers(-(2**70), 2**70),
    st.none(),
    st.just(Ellipsis),
    st.builds(
        slice,
        st.none() | st.integers(-(2**65), 2**65),
        st.none() | st.integers(-9, 9),
        st.none() | st.integers(-3, 2**66),
    ),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=1),
    st.lists(st.integers(-2, 2), max_size=2),
)


@given(shapes(), st.lists(index_items, max_size=5), st.booleans())
def test_bad_indices_raise_typed_errors(
    shape: tuple[int, ...], items: list[Any], put: bool
) -> None:
    check_index_outcome(tensor(shape), items, put)
