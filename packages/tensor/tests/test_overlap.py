"""In-place and out= writes that partially overlap an input raise torch's error; full overlap
(the same view) and disjoint views of one storage stay allowed."""

from __future__ import annotations

import numpy as np
import pytest

import ember

MESSAGE = "some elements of the input tensor and the written-to tensor refer to a single memory"


@pytest.mark.parametrize(
    "write",
    [
        lambda x: x[1:].add_(x[:-1]),
        lambda x: x[:-1].mul_(x[1:]),
        lambda x: ember.add(x[:-1], 1, out=x[1:]),
        lambda x: ember.sin(x[:-2], out=x[2:]),
        lambda x: x[:4].view(2, 2).sub_(x[1:5].view(2, 2)),
        lambda x: x.view(2, 3).t().add_(x[:6].view(3, 2)),
    ],
)
def test_partial_overlap_raises(write: object) -> None:
    x = ember.arange(6.0)
    before = x.numpy().copy()
    with pytest.raises(RuntimeError, match=MESSAGE):
        write(x)  # type: ignore[operator]
    np.testing.assert_array_equal(x.numpy(), before)  # nothing written


def test_full_overlap_and_disjoint_views_are_allowed() -> None:
    x = ember.arange(6.0)
    x.add_(x)
    np.testing.assert_array_equal(x.numpy(), 2 * np.arange(6.0))
    x[:3].add_(x[3:])  # same storage, disjoint bytes
    np.testing.assert_array_equal(x.numpy(), [6.0, 10.0, 14.0, 6.0, 8.0, 10.0])
    y = ember.arange(4.0)
    ember.mul(y, 2, out=y)
    assert y.tolist() == [0.0, 2.0, 4.0, 6.0]
    z = ember.arange(6.0)
    z[::2].add_(z[1::2])  # interleaved, not dense: torch's "too hard" case, and disjoint anyway
    assert z.tolist() == [1.0, 1.0, 5.0, 3.0, 9.0, 5.0]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    t = torch.arange(5.0)
    with pytest.raises(RuntimeError, match=MESSAGE):
        t[1:].add_(t[:-1])
    e = ember.arange(5.0)
    with pytest.raises(RuntimeError, match=MESSAGE):
        e[1:].add_(e[:-1])
