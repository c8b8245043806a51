"""select_scatter, slice_scatter and diagonal_scatter (ember/_view_scatter.py) against numpy
assignment into a copy, and against torch 2.13 when it is importable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 1), st.data())
def test_select_scatter_matches_numpy(n: int, m: int, dim: int, data: st.DataObject) -> None:
    a = np.arange(n * m, dtype=np.float64).reshape(n, m)
    index = data.draw(st.integers(-a.shape[dim], a.shape[dim] - 1))
    src = -np.arange(a.shape[1 - dim], dtype=np.float64) - 1
    expected = a.copy()
    np.moveaxis(expected, dim, 0)[index] = src
    x = ember.tensor(a)
    result = ember.select_scatter(x, ember.tensor(src), dim, index)
    np.testing.assert_array_equal(result.numpy(), expected)
    np.testing.assert_array_equal(x.select_scatter(ember.tensor(src), dim, index).numpy(), expected)
    np.testing.assert_array_equal(x.numpy(), a)  # input untouched


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 8),
    st.integers(-9, 9) | st.none(),
    st.integers(-9, 9) | st.none(),
    st.integers(1, 3),
)
def test_slice_scatter_matches_numpy(n: int, start: int | None, end: int | None, step: int) -> None:
    a = np.arange(2 * n, dtype=np.float64).reshape(2, n)
    expected = a.copy()
    count = expected[:, start:end:step].shape[1]
    src = -np.ones((2, count))
    expected[:, start:end:step] = src
    result = ember.slice_scatter(ember.tensor(a), ember.tensor(src), 1, start, end, step)
    np.testing.assert_array_equal(result.numpy(), expected)


@pytest.mark.parametrize(("offset", "dim1", "dim2"), [(0, 0, 1), (1, 0, 1), (-1, 1, 0), (0, 0, 2)])
def test_diagonal_scatter_matches_numpy(offset: int, dim1: int, dim2: int) -> None:
    a = np.arange(24, dtype=np.float64).reshape(3, 4, 2)
    x = ember.tensor(a)
    diag = x.diagonal(offset, dim1, dim2)
    src = ember.full(tuple(diag.shape), -1.0, dtype=ember.float64)
    result = ember.diagonal_scatter(x, src, offset, dim1, dim2)
    # The diagonal's positions by numpy index arithmetic: (i, i + offset) in the (dim1, dim2) plane.
    expected = np.moveaxis(a.copy(), (dim1, dim2), (-2, -1))
    for i in range(expected.shape[-2]):
        j = i + offset
        if 0 <= j < expected.shape[-1]:
            expected[..., i, j] = -1.0
    expected = np.moveaxis(expected, (-2, -1), (dim1, dim2))
    np.testing.assert_array_equal(result.numpy(), expected)
    assert x.diagonal_scatter(src, offset, dim1, dim2).tolist() == result.tolist()


def test_scatter_dtypes() -> None:
    # src is cast to input's dtype, as a copy_ into the view casts.
    result = ember.select_scatter(ember.zeros(2, 2), ember.tensor([1, 2]), 0, 0)
    assert result.dtype == ember.float32 and result.tolist() == [[1.0, 2.0], [0.0, 0.0]]
    ints = ember.slice_scatter(ember.zeros(4, dtype=ember.int64), ember.tensor([7, 8]), 0, 1, 3)
    assert ints.tolist() == [0, 7, 8, 0]


def test_scatter_bad_input() -> None:
    x = ember.zeros(3, 4)
    with pytest.raises(RuntimeError, match=r"\[select_scatter\] expected src to have a size equal"):
        ember.select_scatter(x, ember.ones(4), 1, 0)
    with pytest.raises(IndexError):
        ember.select_scatter(x, ember.ones(3), 1, 5)
    with pytest.raises(
        RuntimeError, match=r"\[slice_scatter\] expected src.*slice size = \[3, 2\]"
    ):
        ember.slice_scatter(x, ember.ones(3, 3), 1, 0, 4, 2)
    with pytest.raises(RuntimeError, match=r"\[slice_scatter\] slice step must be positive"):
        ember.slice_scatter(x, ember.ones(3, 2), 1, 0, 4, 0)
    with pytest.raises(IndexError, match=r"\[slice_scatter\] Dimension out of range"):
        ember.slice_scatter(x, ember.ones(3, 2), 2)
    with pytest.raises(
        RuntimeError, match=r"\[diagonal_scatter\].*src size = \[2\], slice size = \[3\]"
    ):
        ember.diagonal_scatter(x, ember.ones(2))
    with pytest.raises(TypeError, match=r"\[select_scatter\] argument 'src' must be Tensor"):
        ember.select_scatter(x, [1.0, 2.0, 3.0], 1, 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[select_scatter\] argument 'index' must be int"):
        ember.select_scatter(x, ember.ones(3), 1, 0.5)  # type: ignore[arg-type]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.arange(12.0).reshape(3, 4)
    cases = [
        ("select_scatter", (np.ones(3), 1, -1)),
        ("slice_scatter", (np.ones((3, 2)), 1, 1, None, 2)),
        ("diagonal_scatter", (np.ones(2), 2)),
    ]
    for name, (src, *rest) in cases:
        expected = getattr(torch, name)(torch.tensor(a), torch.tensor(src), *rest)
        result = getattr(ember, name)(ember.tensor(a), ember.tensor(src), *rest)
        np.testing.assert_array_equal(result.numpy(), expected.numpy())
