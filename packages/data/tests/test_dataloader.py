"""DataLoader: arguments, batching, 0 vs 2 workers, seeding, sharding, persistence."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest
from ember_data_helpers import (
    InitEnv,
    RandomDraws,
    Range,
    ShardedRange,
    WorkerIds,
    failing_init,
    record_init,
)

import ember
from ember.utils.data import DataLoader, TensorDataset, get_worker_info


def batches_as_lists(loader: DataLoader) -> list:
    return [[t.tolist() for t in b] if isinstance(b, list) else b.tolist() for b in loader]


def test_argument_errors() -> None:
    ds = Range(4)
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        DataLoader(ds, num_workers=-1)
    with pytest.raises(ValueError, match="timeout option should be non-negative"):
        DataLoader(ds, timeout=-1)
    with pytest.raises(ValueError, match="prefetch_factor option could only be specified"):
        DataLoader(ds, prefetch_factor=2)
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        DataLoader(ds, persistent_workers=True)
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        DataLoader(ds, sampler=[0, 1], shuffle=True)
    with pytest.raises(ValueError, match="batch_sampler option is mutually exclusive"):
        DataLoader(ds, batch_sampler=[[0]], batch_size=2)
    with pytest.raises(ValueError, match="batch_size=None option disables auto-batching"):
        DataLoader(ds, batch_size=None, drop_last=True)
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(ShardedRange(4), shuffle=True)
    with pytest.raises(ValueError, match="expected unspecified sampler option"):
        DataLoader(ShardedRange(4), sampler=[0])
    with pytest.raises(ValueError, match="multiprocessing_context can only be used"):
        DataLoader(ds, multiprocessing_context="spawn")
    with pytest.raises(ValueError, match="valid start method"):
        DataLoader(ds, num_workers=1, multiprocessing_context="teleport")
    with pytest.raises(TypeError, match="valid context object"):
        DataLoader(ds, num_workers=1, multiprocessing_context=3)
    loader = DataLoader(ds)
    with pytest.raises(ValueError, match="batch_size attribute should not be set"):
        loader.batch_size = 3


def test_batching_len_and_drop_last() -> None:
    ds = TensorDataset(ember.arange(10.0), ember.arange(10))
    loader = DataLoader(ds, batch_size=4)
    out = list(loader)
    assert len(loader) == 3 and len(out) == 3
    assert out[2][0].tolist() == [8.0, 9.0] and out[0][1].tolist() == [0, 1, 2, 3]
    assert len(DataLoader(ds, batch_size=4, drop_last=True)) == 2
    assert list(DataLoader(Range(5), batch_size=None)) == [0, 1, 2, 3, 4]  # default_convert
    assert [b.tolist() for b in DataLoader(Range(5), batch_sampler=[[4, 0], [2]])] == [[4, 0], [2]]
    assert len(DataLoader(ShardedRange(10), batch_size=4)) == 3


def test_custom_collate_and_pin_memory_noop() -> None:
    loader = DataLoader(Range(4), batch_size=2, collate_fn=lambda b: sum(b), pin_memory=True)
    assert list(loader) == [1, 5]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_two_workers_give_the_batches_of_zero_workers(method: str) -> None:
    x = ember.arange(60.0).reshape(30, 2)
    ds = TensorDataset(x, ember.arange(30))

    def run(workers: int) -> list:
        kw = {"multiprocessing_context": method} if workers else {}
        loader = DataLoader(
            ds,
            batch_size=4,
            shuffle=True,
            num_workers=workers,
            generator=ember.Generator().manual_seed(7),
            **kw,
        )
        return [(a.tolist(), b.tolist()) for a, b in loader]

    zero, two = run(0), run(2)
    assert zero == two
    labels = [i for _, b in zero for i in b]
    assert sorted(labels) == list(range(30)) and labels != list(range(30))


def test_worker_batches_arrive_in_shared_memory() -> None:
    ds = TensorDataset(ember.ones(8, 3))
    (batch,) = next(iter(DataLoader(ds, batch_size=8, num_workers=1)))
    assert batch.is_shared() and batch.sum().item() == 24


def test_workers_seeded_from_generator() -> None:
    def draws(seed: int) -> list:
        loader = DataLoader(
            RandomDraws(),
            batch_size=2,
            num_workers=2,
            generator=ember.Generator().manual_seed(seed),
        )
        return [[t.tolist() for t in b] for b in loader]

    a, b, c = draws(1), draws(1), draws(2)
    assert a == b and a != c
    # each worker has its own stream: worker 0's first draw differs from worker 1's
    by_worker = {}
    for _, wid, py, em in a:
        for w, p, e in zip(wid, py, em, strict=True):
            by_worker.setdefault(w, []).append((p, e))
    assert set(by_worker) == {0, 1}
    assert by_worker[0][0] != by_worker[1][0]


def test_worker_info_and_init_fn() -> None:
    assert get_worker_info() is None
    infos = [
        tuple(x.tolist() if hasattr(x, "tolist") else x for x in b)
        for b in DataLoader(
            WorkerIds(), batch_size=None, num_workers=2, generator=ember.Generator().manual_seed(0)
        )
    ]
    ids = sorted({i[0] for i in infos})
    assert (
        ids == [0, 1] and all(i[1] == 2 for i in infos) and all(i[3] == "WorkerIds" for i in infos)
    )
    seeds = {i[0]: i[2] for i in infos}
    assert seeds[1] == seeds[0] + 1  # base_seed + worker_id
    out = list(DataLoader(InitEnv(), batch_size=None, num_workers=2, worker_init_fn=record_init))
    assert sorted(out) == ["init-0", "init-0", "init-1", "init-1"]


def test_worker_init_fn_failure_is_reraised() -> None:
    loader = DataLoader(Range(4), num_workers=1, worker_init_fn=failing_init)
    with pytest.raises(ValueError, match="init failed in 0"):
        next(iter(loader))


def test_worker_info_is_read_only() -> None:
    from ember.utils.data import WorkerInfo

    info = WorkerInfo(id=0, num_workers=1, seed=3, dataset=None)
    with pytest.raises(RuntimeError, match="Cannot assign attributes"):
        info.id = 2


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_iterable_dataset_sharded_across_workers(method: str) -> None:
    loader = DataLoader(
        ShardedRange(10), batch_size=3, num_workers=2, multiprocessing_context=method
    )
    got = sorted(i for b in loader for i in b.tolist())
    assert got == list(range(10))
    assert [b.tolist() for b in DataLoader(ShardedRange(5), batch_size=2)] == [[0, 1], [2, 3], [4]]
    dropped = DataLoader(ShardedRange(10), batch_size=3, num_workers=2, drop_last=True)
    assert sorted(len(b) for b in dropped) == [3, 3]  # 5 each: one full batch per worker


def test_persistent_workers_across_epochs() -> None:
    loader = DataLoader(WorkerIds(), batch_size=None, num_workers=2, persistent_workers=True)
    pids1 = {b[4] for b in loader}
    pids2 = {b[4] for b in loader}
    assert pids1 == pids2 and len(pids1) == 2
    it = iter(loader)
    next(it)  # abandon an epoch midway
    assert len(list(loader)) == 4
    sharded = DataLoader(ShardedRange(6), batch_size=2, num_workers=2, persistent_workers=True)
    assert sorted(i for b in sharded for i in b.tolist()) == list(range(6))
    assert sorted(i for b in sharded for i in b.tolist()) == list(range(6))  # reset


def test_out_of_order() -> None:
    loader = DataLoader(Range(12), batch_size=2, num_workers=2, in_order=False)
    assert sorted(i for b in loader for i in b.tolist()) == list(range(12))


def test_numpy_samples_through_workers() -> None:
    class _Arr:
        pass

    loader = DataLoader(TensorDataset(ember.arange(6.0)), batch_size=3, num_workers=2)
    got = np.concatenate([b[0].numpy() for b in loader])
    np.testing.assert_array_equal(got, np.arange(6.0))


def test_default_context_is_platform_default() -> None:
    loader = DataLoader(Range(2), num_workers=1)
    assert loader._mp_context.get_start_method() == multiprocessing.get_start_method()
