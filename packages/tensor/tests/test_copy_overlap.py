"""Tensor.copy_ when the source and the destination share memory: torch 2.13's rule (partial
overlap of dense views raises, the same view is fine), numpy as the oracle for the values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember

OVERLAP = "some elements of the input tensor and the written-to tensor refer to a single memory"


def test_partial_overlap_raises_as_in_torch() -> None:
    x = ember.arange(5.0)
    with pytest.raises(RuntimeError, match=r"\[copy_\] unsupported operation: " + OVERLAP):
        x[1:].copy_(x[:-1])
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]  # refused before writing
    m = ember.arange(4.0).reshape(2, 2)
    with pytest.raises(RuntimeError, match="clone"):
        m.copy_(m.t())  # the same bytes seen with other strides
    with pytest.raises(RuntimeError, match=OVERLAP):
        x[0:3].copy_(x[0])  # checked before broadcasting the source


def test_the_same_view_and_disjoint_views_copy() -> None:
    x = ember.arange(5.0)
    assert x.copy_(x).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert x.copy_(x.view(5, 1).reshape(5)).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    x[:2].copy_(x[3:])
    assert x.tolist() == [3.0, 4.0, 2.0, 3.0, 4.0]
    y = ember.arange(5.0)
    y[1:3].copy_(y[0])  # a broadcast element outside the destination
    assert y.tolist() == [0.0, 0.0, 0.0, 3.0, 4.0]
    z = ember.arange(4.0)
    z.view(ember.int32).copy_(z)  # the same bytes as another dtype: converts value by value
    np.testing.assert_array_equal(z.view(ember.int32).numpy(), np.arange(4, dtype=np.int32))


def test_layouts_the_check_cannot_decide_copy_from_a_clone() -> None:
    # torch lets strided views of one buffer through (its "too hard" case); ember copies them
    # from a private clone, so the result is numpy's assignment from a copy.
    x = ember.arange(6.0).reshape(2, 3)
    x[:, 1:].copy_(x[:, :-1])
    want = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    want[:, 1:] = want[:, :-1].copy()
    np.testing.assert_array_equal(x.numpy(), want)
    y = ember.arange(8.0)
    y[2::2].copy_(y[:-2:2])
    np.testing.assert_array_equal(y.numpy(), [0, 1, 0, 3, 2, 5, 4, 7])
    r = ember.arange(4.0).reshape(2, 2)
    r[0].copy_(r[:, 0])
    np.testing.assert_array_equal(r.numpy(), [[0, 2], [2, 3]])


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 8), st.integers(0, 8), st.integers(0, 8), st.integers(1, 3))
def test_one_dimensional_slices(n: int, dst_start: int, src_start: int, step: int) -> None:
    size = 30
    x = ember.arange(float(size))
    want = np.arange(float(size), dtype=np.float32)
    dst = slice(dst_start, dst_start + n * step, step)
    src = slice(src_start, src_start + n * step, step)
    dst_range = set(range(size)[dst])
    src_range = set(range(size)[src])
    dense = step == 1 or n == 1
    if dense and dst_start != src_start and dst_range & src_range:
        with pytest.raises(RuntimeError, match=OVERLAP):
            x[dst].copy_(x[src])
        return
    x[dst].copy_(x[src])
    want[dst] = want[src].copy()
    np.testing.assert_array_equal(x.numpy(), want)
