"""Samplers: orders, statistics, determinism with a generator, argument errors."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import ember
from ember.utils.data import (
    BatchSampler,
    DistributedSampler,
    RandomSampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)


def gen(seed: int) -> ember.Generator:
    return ember.Generator().manual_seed(seed)


def test_sequential() -> None:
    assert list(SequentialSampler(range(4))) == [0, 1, 2, 3]
    assert len(SequentialSampler(range(4))) == 4


def test_random_permutation_and_determinism() -> None:
    s = RandomSampler(range(50), generator=gen(1))
    first = list(s)
    assert sorted(first) == list(range(50)) and first != list(range(50))
    assert list(RandomSampler(range(50), generator=gen(1))) == first
    assert list(s) != first  # the generator advances: a new order each epoch


def test_random_num_samples_and_replacement() -> None:
    s = RandomSampler(range(5), num_samples=12, generator=gen(0))
    out = list(s)
    assert len(out) == len(s) == 12
    counts = collections.Counter(out)
    assert set(counts) == set(range(5)) and max(counts.values()) <= 3  # 2 perms + 2 more
    r = list(RandomSampler(range(4), replacement=True, num_samples=4000, generator=gen(0)))
    freq = np.bincount(r, minlength=4) / 4000
    np.testing.assert_allclose(freq, 0.25, atol=0.03)
    assert len(r) == 4000 and min(r) >= 0 and max(r) <= 3


def test_random_sampler_errors() -> None:
    with pytest.raises(TypeError, match="replacement should be a boolean"):
        RandomSampler(range(3), replacement=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        RandomSampler(range(3), num_samples=0)
    with pytest.raises(ValueError, match="num_samples"):
        RandomSampler([])


def test_subset_random() -> None:
    idx = [3, 8, 9, 20]
    out = list(SubsetRandomSampler(idx, generator=gen(2)))
    assert sorted(out) == idx
    assert list(SubsetRandomSampler(idx, generator=gen(2))) == out


def test_weighted_statistics_and_errors() -> None:
    w = [1.0, 3.0, 0.0, 6.0]
    out = list(WeightedRandomSampler(w, 5000, generator=gen(0)))
    freq = np.bincount(out, minlength=4) / 5000
    np.testing.assert_allclose(freq, np.array(w) / 10, atol=0.03)
    assert freq[2] == 0
    no_rep = list(WeightedRandomSampler([1.0] * 6, 6, replacement=False, generator=gen(1)))
    assert sorted(no_rep) == list(range(6))
    with pytest.raises(ValueError, match="num_samples"):
        WeightedRandomSampler(w, 0)
    with pytest.raises(ValueError, match="replacement should be a boolean"):
        WeightedRandomSampler(w, 2, replacement=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1d sequence"):
        WeightedRandomSampler([[1.0, 2.0]], 2)


def test_batch_sampler() -> None:
    assert list(BatchSampler(range(7), 3, False)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(BatchSampler(range(7), 3, True)) == [[0, 1, 2], [3, 4, 5]]
    assert len(BatchSampler(range(7), 3, False)) == 3
    assert len(BatchSampler(range(7), 3, True)) == 2
    with pytest.raises(ValueError, match="batch_size should be a positive integer"):
        BatchSampler(range(3), 0, False)
    with pytest.raises(ValueError, match="drop_last should be a boolean"):
        BatchSampler(range(3), 1, "no")  # type: ignore[arg-type]


def test_distributed_partition_padding_and_epochs() -> None:
    n, reps = 10, 3
    shards = [list(DistributedSampler(range(n), reps, r, shuffle=False)) for r in range(reps)]
    assert shards == [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]  # padded to 12 from the start
    dropped = [list(DistributedSampler(range(n), reps, r, False, drop_last=True)) for r in range(3)]
    assert dropped == [[0, 3, 6], [1, 4, 7], [2, 5, 8]]
    s0 = DistributedSampler(range(n), reps, 0, shuffle=True, seed=5)
    s1 = DistributedSampler(range(n), reps, 1, shuffle=True, seed=5)
    s2 = DistributedSampler(range(n), reps, 2, shuffle=True, seed=5)
    e0 = list(s0)
    assert set(e0 + list(s1) + list(s2)) == set(range(n))  # same permutation in every rank
    assert list(DistributedSampler(range(n), reps, 0, shuffle=True, seed=5)) == e0
    s0.set_epoch(1)
    assert list(s0) != e0
    assert len(s0) == 4
    with pytest.raises(ValueError, match="Invalid rank 3"):
        DistributedSampler(range(n), 3, 3)


def test_distributed_needs_group_or_arguments() -> None:
    with pytest.raises(RuntimeError, match="num_replicas"):
        DistributedSampler(range(4))


def test_distributed_matches_torch_without_shuffle() -> None:
    torch = pytest.importorskip("torch")
    tds = torch.utils.data.DistributedSampler
    for n, reps, drop in [(10, 3, False), (10, 3, True), (2, 5, False)]:
        for r in range(reps):
            ours = list(DistributedSampler(range(n), reps, r, shuffle=False, drop_last=drop))
            assert ours == list(tds(range(n), reps, r, shuffle=False, drop_last=drop))
