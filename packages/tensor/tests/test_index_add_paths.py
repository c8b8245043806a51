"""The row path of index_add_/index_copy_/index_fill_ (index_along_rows.cpp) and its fallbacks.

Rows of 64+ elements after the indexed dim take the row path: threads own ranges of destination
rows (or column blocks of a few rows), so these tests vary the thread count, the row length
around 64, the layouts of x and source (strided, sliced, transposed, expanded), duplicate
indices and every dtype. np.add.at (or an in-order loop for copies) is the oracle.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import assert_close, to_numpy

DTYPES = [
    ember.float32,
    ember.float64,
    ember.float16,
    ember.bfloat16,
    ember.int64,
    ember.int32,
    ember.int8,
    ember.uint8,
    ember.bool,
]
X_LAYOUTS = ["contiguous", "strided", "sliced", "transposed"]
SRC_LAYOUTS = [*X_LAYOUTS, "expanded"]


@contextmanager
def pool_size(n: int) -> Iterator[None]:
    """Runs the block with n threads in ember's pool, then restores the size."""
    before = ember.get_num_threads()
    ember.set_num_threads(n)
    try:
        yield
    finally:
        ember.set_num_threads(before)


def laid_out(values: np.ndarray, dtype: Any, layout: str) -> ember.Tensor:
    """values (int64) as an ember tensor of dtype in the given memory layout."""
    t = ember.from_numpy(values.astype(np.float64)).to(dtype)
    if layout == "transposed" and t.dim() >= 2:
        order = list(range(t.dim()))[::-1]
        return t.permute(*order).contiguous().permute(*order)
    if layout in ("strided", "sliced") and t.dim() >= 1:
        last = t.shape[-1]
        wide = ember.zeros(*t.shape[:-1], 2 * last + 1, dtype=dtype)
        view = wide[..., ::2][..., :last] if layout == "strided" else wide[..., 1 : last + 1]
        view.copy_(t)
        return view
    return t.clone()


def expanded(values: np.ndarray, dtype: Any, dim: int) -> tuple[ember.Tensor, np.ndarray]:
    """values made constant along `dim` (a stride-0 view in ember) and the matching numpy array."""
    small = values.take([0], axis=dim) if values.shape[dim] > 0 else values
    t = ember.from_numpy(small.astype(np.float64)).to(dtype).expand(*values.shape)
    return t, np.broadcast_to(small, values.shape)


def cast(a: np.ndarray, dtype: Any) -> np.ndarray:
    """int64 values as the dtype's values (integers wrap, bool is nonzero), widened for floats."""
    if dtype == ember.bool:
        return a != 0
    if dtype.is_floating_point:
        return a.astype(np.float64)
    return a.astype(to_numpy(ember.zeros(1, dtype=dtype)).dtype)


def expected_add(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray, alpha: int) -> Any:
    """x with alpha * src[k] added at index[k] along dim, in int64 (exact for these values)."""
    out = np.moveaxis(x.copy(), dim, 0)
    np.add.at(out, index, alpha * np.moveaxis(src, dim, 0))
    return np.moveaxis(out, 0, dim)


def expected_copy(x: np.ndarray, dim: int, index: np.ndarray, src: np.ndarray) -> Any:
    """x with src[k] written at index[k] along dim, in order (the last duplicate wins)."""
    out = np.moveaxis(x.copy(), dim, 0)
    moved = np.moveaxis(src, dim, 0)
    for k, i in enumerate(index):
        out[i] = moved[k]
    return np.moveaxis(out, 0, dim)


@st.composite
def row_cases(draw: st.DrawFn) -> dict[str, Any]:
    """A shape whose dims after `dim` are often 64+ elements long, duplicates likely."""
    ndim = draw(st.integers(1, 3))
    dim = draw(st.integers(0, ndim - 1))
    sizes = [draw(st.integers(1, 4)) for _ in range(ndim)]
    if dim < ndim - 1:
        sizes[-1] = draw(st.sampled_from([1, 5, 40, 63, 64, 65, 130]))
    count = draw(st.integers(0, 24))
    index = draw(st.lists(st.integers(0, sizes[dim] - 1), min_size=count, max_size=count))
    return {
        "shape": tuple(sizes),
        "dim": dim,
        "index": np.array(index, dtype=np.int64),
        "x_layout": draw(st.sampled_from(X_LAYOUTS)),
        "src_layout": draw(st.sampled_from(SRC_LAYOUTS)),
        "threads": draw(st.sampled_from([1, 2, 3])),
        "seed": draw(st.integers(0, 2**16)),
    }


def make_case(case: dict[str, Any], dtype: Any) -> tuple[np.ndarray, np.ndarray, Any, Any]:
    """x and source as int64 arrays and as ember tensors in the case's layouts."""
    rng = np.random.default_rng(case["seed"])
    shape, dim = case["shape"], case["dim"]
    src_shape = list(shape)
    src_shape[dim] = len(case["index"])
    low = 0 if dtype == ember.bool else -3
    x = rng.integers(low, 4, shape)
    src = rng.integers(low, 4, tuple(src_shape))
    if case["src_layout"] == "expanded":
        src_t, src = expanded(src, dtype, (dim + 1) % len(shape))
    else:
        src_t = laid_out(src, dtype, case["src_layout"])
    return x, src, laid_out(x, dtype, case["x_layout"]), src_t


@given(case=row_cases(), dtype=st.sampled_from(DTYPES), alpha=st.sampled_from([1, 2, -1]))
def test_index_add_paths_match_numpy(case: dict[str, Any], dtype: Any, alpha: int) -> None:
    if dtype == ember.bool:
        alpha = 1
    x, src, xe, se = make_case(case, dtype)
    dim, index = case["dim"], case["index"]
    want = cast(expected_add(x, dim, index, src, alpha), dtype)
    with pool_size(case["threads"]):
        for index_dtype in (ember.int64, ember.int32):
            idx = ember.from_numpy(index).to(index_dtype)
            assert_close(ember.index_add(xe, dim, idx, se, alpha=alpha), want, dtype=dtype)
        assert xe.index_add_(dim, ember.from_numpy(index), se, alpha=alpha) is xe
    assert_close(xe, want, dtype=dtype)


@given(case=row_cases(), dtype=st.sampled_from(DTYPES))
def test_index_copy_and_fill_paths_match_numpy(case: dict[str, Any], dtype: Any) -> None:
    x, src, xe, se = make_case(case, dtype)
    dim, index = case["dim"], case["index"]
    idx = ember.from_numpy(index)
    filled = expected_copy(x, dim, index, np.ones_like(src))
    with pool_size(case["threads"]):
        copied = xe.index_copy(dim, idx, se)
        xe.index_fill_(dim, idx, 1)
    assert_close(copied, cast(expected_copy(x, dim, index, src), dtype), dtype=dtype)
    assert_close(xe, cast(filled, dtype), dtype=dtype)


# Cases large enough that the row path splits the work between threads (above its grain):
# (x shape, dim, index length, destination rows the indices use). One or two destination rows
# make the threads split columns instead of rows.
PARALLEL_CASES = [
    ((512, 256), 0, 2048, 512),
    ((256, 1024), 0, 512, 3),
    ((2, 4096), 0, 64, 2),
    ((1, 8192), 0, 32, 1),
    ((8, 64, 128), 1, 256, 64),
    ((300, 7, 40), 1, 600, 7),
    ((100, 7, 64), 1, 600, 7),
    ((4, 3, 2000), 2, 700, 2000),
]


@pytest.mark.parametrize("case", PARALLEL_CASES)
@pytest.mark.parametrize("num_threads", [1, 2, 3])
def test_index_add_parallel_rows_match_numpy(
    case: tuple[tuple[int, ...], int, int, int], num_threads: int
) -> None:
    with pool_size(num_threads):
        check_parallel_case(*case)


def check_parallel_case(shape: tuple[int, ...], dim: int, count: int, used: int) -> None:
    """index_add_ (alpha 1 and 0.5), index_copy_ and index_fill_ of float32 rows."""
    rng = np.random.default_rng(count)
    x = rng.standard_normal(shape).astype(np.float32)
    index = rng.integers(0, used, count)
    src_shape = list(shape)
    src_shape[dim] = count
    src = rng.standard_normal(src_shape).astype(np.float32)
    want = expected_add(x, dim, index, src, 1)
    # Each row gets its additions in index order, like np.add.at: the float32 sums are equal.
    got = ember.from_numpy(x.copy()).index_add_(dim, ember.from_numpy(index), ember.from_numpy(src))
    np.testing.assert_array_equal(to_numpy(got), want)
    got = ember.from_numpy(x.copy()).index_add_(
        dim, ember.from_numpy(index).int(), ember.from_numpy(src), alpha=0.5
    )
    np.testing.assert_allclose(to_numpy(got), expected_add(x, dim, index, src * 0.5, 1), 1e-5, 1e-5)
    copied = ember.from_numpy(x.copy()).index_copy_(
        dim, ember.from_numpy(index), ember.from_numpy(src)
    )
    np.testing.assert_array_equal(to_numpy(copied), expected_copy(x, dim, index, src))
    filled = ember.from_numpy(x.copy()).index_fill_(dim, ember.from_numpy(index), -2.0)
    ones = np.full(src.shape, -2.0, np.float32)
    np.testing.assert_array_equal(to_numpy(filled), expected_copy(x, dim, index, ones))


@pytest.mark.parametrize("num_threads", [1, 2])
def test_index_add_parallel_integer_alpha_and_views(num_threads: int) -> None:
    with pool_size(num_threads):
        check_integer_alpha_and_views()


def check_integer_alpha_and_views() -> None:
    """int64 rows with alpha 1 and 3; x a column slice, the source a transposed view."""
    rng = np.random.default_rng(5)
    x = rng.integers(-100, 100, (600, 128))
    index = rng.integers(0, 600, 1500)
    src = rng.integers(-100, 100, (1500, 128))
    for alpha in (1, 3):  # alpha 3 takes the iterator path (integer arithmetic that wraps)
        got = ember.from_numpy(x.copy()).index_add_(
            0, ember.from_numpy(index), ember.from_numpy(src), alpha=alpha
        )
        np.testing.assert_array_equal(to_numpy(got), expected_add(x, 0, index, src, alpha))
    # x a column slice of a wider buffer (rows keep their stride), source transposed in memory.
    wide = ember.from_numpy(np.zeros((600, 200), np.int64))
    view = wide[:, 50:178]
    view.copy_(ember.from_numpy(x))
    src_t = ember.from_numpy(np.ascontiguousarray(src.T)).t()
    view.index_add_(0, ember.from_numpy(index), src_t)
    np.testing.assert_array_equal(to_numpy(view), expected_add(x, 0, index, src, 1))
    assert to_numpy(wide)[:, :50].sum() == 0 and to_numpy(wide)[:, 178:].sum() == 0
