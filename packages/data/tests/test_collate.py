"""default_collate / default_convert: every supported element type, and torch's errors."""

from __future__ import annotations

import collections
from typing import NamedTuple

import numpy as np
import pytest

import ember
from ember.utils.data import default_collate, default_convert


class Point(NamedTuple):
    x: ember.Tensor
    y: int


def test_tensors_stack() -> None:
    out = default_collate([ember.ones(2, 3), ember.zeros(2, 3)])
    assert tuple(out.shape) == (2, 2, 3)
    np.testing.assert_array_equal(out.numpy(), np.stack([np.ones((2, 3)), np.zeros((2, 3))]))
    assert not out.is_shared()  # shared memory only inside workers


def test_ragged_tensors_error() -> None:
    with pytest.raises(
        RuntimeError,
        match=r"stack expects each tensor to be equal size, but got \[2\] at entry 0 and "
        r"\[3\] at entry 1",
    ):
        default_collate([ember.ones(2), ember.ones(3)])


def test_numbers_strings_bytes() -> None:
    f = default_collate([1.5, 2.5])
    assert f.dtype == ember.float64 and f.tolist() == [1.5, 2.5]
    i = default_collate([1, 2])
    assert i.dtype == ember.int64 and i.tolist() == [1, 2]
    b = default_collate([True, False])
    assert b.tolist() == [True, False]
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"a", b"b"]) == [b"a", b"b"]


def test_numpy() -> None:
    out = default_collate([np.arange(3, dtype=np.float32), np.arange(3, dtype=np.float32)])
    assert out.dtype == ember.float32 and tuple(out.shape) == (2, 3)
    s = default_collate([np.float64(1.0), np.float64(2.0)])
    assert s.dtype == ember.float64 and s.tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match=r"found <U1|found <class"):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_mappings_namedtuples_sequences() -> None:
    batch = [{"x": ember.ones(2), "meta": {"id": 1}}, {"x": ember.zeros(2), "meta": {"id": 2}}]
    out = default_collate(batch)
    assert tuple(out["x"].shape) == (2, 2) and out["meta"]["id"].tolist() == [1, 2]
    od = default_collate([collections.OrderedDict(a=1), collections.OrderedDict(a=2)])
    assert isinstance(od, collections.OrderedDict) and od["a"].tolist() == [1, 2]
    p = default_collate([Point(ember.ones(1), 1), Point(ember.zeros(1), 2)])
    assert isinstance(p, Point) and p.y.tolist() == [1, 2]
    t = default_collate([(ember.ones(1), 1), (ember.zeros(1), 2)])
    assert isinstance(t, list) and t[1].tolist() == [1, 2]  # tuples become lists, as torch
    lst = default_collate([[1, 2], [3, 4]])
    assert [x.tolist() for x in lst] == [[1, 3], [2, 4]]
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal size"):
        default_collate([[1, 2], [1]])


def test_unsupported_type() -> None:
    with pytest.raises(
        TypeError,
        match="default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
        "lists; found <class 'object'>",
    ):
        default_collate([object(), object()])


def test_default_convert() -> None:
    out = default_convert({"a": np.zeros(2), "b": (np.ones(1), "s")})
    assert isinstance(out["a"], ember.Tensor) and out["a"].dtype == ember.float64
    assert isinstance(out["b"], list) and out["b"][1] == "s"
    assert default_convert(3) == 3
    assert isinstance(default_convert(np.float32(2.0)), ember.Tensor)
    strings = np.array(["x"])
    assert default_convert(strings) is strings


def test_collate_matches_torch() -> None:
    pytest.importorskip("torch")
    from torch.utils.data import default_collate as tc

    batch = [{"a": 1.0, "b": [1, 2]}, {"a": 2.0, "b": [3, 4]}]
    ours, theirs = default_collate(batch), tc(batch)
    assert ours["a"].tolist() == theirs["a"].tolist()
    assert [x.tolist() for x in ours["b"]] == [x.tolist() for x in theirs["b"]]
