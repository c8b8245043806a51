"""DistributedSampler: each of ``num_replicas`` processes sees its own shard of the dataset."""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterator, Sized
from typing import Any

import ember
from ember.utils.data.sampler import Sampler


def _from_process_group(what: str) -> int:
    try:
        dist: Any = importlib.import_module("ember.distributed")
    except ModuleNotFoundError as error:
        raise RuntimeError(
            f"[DistributedSampler] {what} was not given and ember.distributed is not available "
            "in this installation: pass num_replicas= and rank= explicitly"
        ) from error
    if not dist.is_available() or not dist.is_initialized():
        raise RuntimeError(
            f"[DistributedSampler] {what} was not given and the default process group is not "
            "initialized: call ember.distributed.init_process_group() or pass num_replicas= "
            "and rank="
        )
    value: int = dist.get_world_size() if what == "num_replicas" else dist.get_rank()
    return value


class DistributedSampler(Sampler[int]):
    """The indices of one replica: ``rank``'s share of a (shuffled) epoch, padded or trimmed.

    Args:
        dataset: the dataset (only its length is used).
        num_replicas: how many processes share the data (default: the world size).
        rank: this process's rank (default: from the process group).
        shuffle: shuffle each epoch (seeded by ``seed + epoch``: call ``set_epoch``).
        seed: the shuffle seed, the same in every replica.
        drop_last: trim the tail so every replica gets as many samples, instead of padding.

    Example:
        >>> list(DistributedSampler(range(5), num_replicas=2, rank=1, shuffle=False))
        [1, 3, 0]
    """

    def __init__(
        self,
        dataset: Sized,
        num_replicas: int | None = None,
        rank: int | None = None,
        shuffle: bool = True,
        seed: int = 0,
        drop_last: bool = False,
    ) -> None:
        if num_replicas is None:
            num_replicas = _from_process_group("num_replicas")
        if rank is None:
            rank = _from_process_group("rank")
        if rank >= num_replicas or rank < 0:
            raise ValueError(
                f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]"
            )
        self.dataset = dataset
        self.num_replicas = num_replicas
        self.rank = rank
        self.epoch = 0
        self.drop_last = drop_last
        n = len(dataset)
        if self.drop_last and n % self.num_replicas != 0:
            self.num_samples = math.ceil((n - self.num_replicas) / self.num_replicas)
        else:
            self.num_samples = math.ceil(n / self.num_replicas)
        self.total_size = self.num_samples * self.num_replicas
        self.shuffle = shuffle
        self.seed = seed

    def __iter__(self) -> Iterator[int]:
        n = len(self.dataset)
        if self.shuffle:
            g = ember.Generator().manual_seed(self.seed + self.epoch)
            indices: list[int] = ember.randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            else:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[: self.total_size]
        return iter(indices[self.rank : self.total_size : self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """Sets the epoch: with ``shuffle``, each epoch gets its own order (same in every rank)."""
        self.epoch = epoch
