"""Datasets and random_split."""

from __future__ import annotations

import numpy as np
import pytest
from ember_data_helpers import Range, ShardedRange

import ember
from ember.utils.data import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)


def test_tensor_dataset() -> None:
    x = ember.arange(12.0).reshape(4, 3)
    y = ember.arange(4)
    ds = TensorDataset(x, y)
    assert len(ds) == 4
    a, b = ds[2]
    np.testing.assert_array_equal(a.numpy(), x.numpy()[2])
    assert b.item() == 2
    with pytest.raises(ValueError, match="Size mismatch"):
        TensorDataset(x, ember.arange(5))
    with pytest.raises(TypeError, match="TensorDataset"):
        TensorDataset(ember.tensor(1.0))


def test_base_classes_raise_and_add() -> None:
    with pytest.raises(NotImplementedError):
        Dataset()[0]
    with pytest.raises(NotImplementedError):
        iter(IterableDataset())
    cat = Range(2) + Range(3)
    assert isinstance(cat, ConcatDataset) and [cat[i] for i in range(5)] == [0, 1, 0, 1, 2]
    chain = ShardedRange(2) + ShardedRange(3)
    assert isinstance(chain, ChainDataset) and list(chain) == [0, 1, 0, 1, 2]
    assert len(chain) == 5


def test_concat_dataset() -> None:
    ds = ConcatDataset([[1, 2], [], [3, 4, 5]])
    assert len(ds) == 5 and ds.cumulative_sizes == [2, 2, 5]
    assert [ds[i] for i in range(5)] == [1, 2, 3, 4, 5]
    assert ds[-1] == 5 and ds[-5] == 1
    with pytest.raises(ValueError, match="absolute value"):
        ds[-6]
    with pytest.raises(IndexError):
        ds[5]
    with pytest.raises(ValueError, match="empty"):
        ConcatDataset([])
    with pytest.raises(TypeError, match="IterableDataset"):
        ConcatDataset([ShardedRange(2)])


def test_chain_rejects_map_style() -> None:
    with pytest.raises(TypeError, match="IterableDataset"):
        list(ChainDataset([Range(2)]))  # type: ignore[list-item]


def test_subset_and_stack() -> None:
    sub = Subset([10, 11, 12, 13], [3, 1])
    assert len(sub) == 2 and sub[0] == 13 and sub.__getitems__([1, 0]) == [11, 13]
    st = StackDataset([1, 2], ["a", "b"])
    assert st[1] == (2, "b") and len(st) == 2
    sd = StackDataset(x=[1, 2], y=[3, 4])
    assert sd[0] == {"x": 1, "y": 3}
    with pytest.raises(ValueError, match="Size mismatch"):
        StackDataset([1], [1, 2])
    with pytest.raises(ValueError, match="both types"):
        StackDataset([1], y=[2])
    with pytest.raises(ValueError, match="At least one"):
        StackDataset()


def test_random_split_lengths_and_fractions() -> None:
    g = ember.Generator().manual_seed(0)
    a, b, c = random_split(range(10), [5, 3, 2], generator=g)
    everything = sorted([*a, *b, *c])
    assert everything == list(range(10)) and (len(a), len(b), len(c)) == (5, 3, 2)
    # the same seed gives the same split
    a2, _, _ = random_split(range(10), [5, 3, 2], generator=ember.Generator().manual_seed(0))
    assert list(a) == list(a2)
    # fractions: floors, remainder dealt round-robin (torch: 0.33*10 -> 3 each, +1 to the first)
    parts = random_split(range(10), [0.34, 0.33, 0.33], generator=g)
    assert [len(p) for p in parts] == [4, 3, 3]
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(range(10), [5, 4])
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(range(2), [1.0, 0.0])


def test_random_split_matches_torch_counts() -> None:
    torch = pytest.importorskip("torch")
    for lengths in ([0.5, 0.5], [0.1, 0.2, 0.7], [0.34, 0.33, 0.33]):
        ours = [len(p) for p in random_split(range(17), lengths)]
        theirs = [len(p) for p in torch.utils.data.random_split(range(17), lengths)]
        assert ours == theirs
