"""Datasets and functions the data tests run in worker processes (importable by spawn)."""

from __future__ import annotations

import os
import random
import signal
import time
from typing import Any

import ember
from ember.utils.data import Dataset, IterableDataset, get_worker_info


class Range(Dataset[int]):
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        return i


class RandomDraws(Dataset[Any]):
    """Each sample: (index, worker id, Python random, ember random) drawn in the worker."""

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i: int) -> Any:
        info = get_worker_info()
        wid = -1 if info is None else info.id
        return (i, wid, random.random(), float(ember.rand(()).item()))


class ShardedRange(IterableDataset[int]):
    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self) -> Any:
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))

    def __len__(self) -> int:
        return self.n


class KillInGetitem(Dataset[int]):
    """SIGKILLs its own worker when it fetches index `at`."""

    def __init__(self, n: int, at: int) -> None:
        self.n, self.at = n, at

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i == self.at and get_worker_info() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        return i


class RaiseAt(Dataset[int]):
    def __init__(self, n: int, at: int) -> None:
        self.n, self.at = n, at

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i == self.at:
            raise KeyError(f"no sample {i}")
        if i == self.at + 1:
            raise ZeroDivisionError("bad sample")
        return i


class Slow(Dataset[int]):
    def __init__(self, n: int, delay: float) -> None:
        self.n, self.delay = n, delay

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        time.sleep(self.delay)
        return i


class WorkerIds(Dataset[Any]):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> Any:
        info = get_worker_info()
        assert info is not None
        return (info.id, info.num_workers, info.seed, type(info.dataset).__name__, os.getpid())


def record_init(worker_id: int) -> None:
    os.environ["EMBER_TEST_INIT"] = f"init-{worker_id}"


class InitEnv(Dataset[str]):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> str:
        return os.environ.get("EMBER_TEST_INIT", "none")


def failing_init(worker_id: int) -> None:
    raise ValueError(f"init failed in {worker_id}")


class ModulesSeen(Dataset[str]):
    """Each sample: the names of the ember modules loaded in the process that fetches it."""

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i: int) -> str:
        import sys

        return ",".join(sorted(m for m in sys.modules if m.split(".")[0] in ("ember", "numpy")))


class ThreadsSeen(Dataset[int]):
    """Each sample: ember's intra-op thread count in the process that fetches it."""

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> int:
        return ember.get_num_threads()
