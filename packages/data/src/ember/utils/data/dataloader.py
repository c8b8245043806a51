"""DataLoader: batches from a dataset, in the main process or in worker processes."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

import ember
from ember.utils.data.collate import default_collate, default_convert
from ember.utils.data.dataset import IterableDataset
from ember.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    _InfiniteConstantSampler,
)
from ember.utils.data.worker import _Fetcher

T_co = TypeVar("T_co", covariant=True)

_FROZEN = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class _SingleProcessIter:
    def __init__(self, loader: DataLoader[Any]) -> None:
        self._loader = loader
        # Drawn as with workers (and as torch does), so 0 and N workers see the same shuffle.
        ember.empty((), dtype=ember.int64).random_(generator=loader.generator)
        self._sampler_iter = iter(loader._index_sampler)
        self._fetcher = _Fetcher(
            loader.dataset,
            loader._is_iterable,
            loader._auto_collation,
            loader.collate_fn,
            loader.drop_last,
            loader.batch_size,
        )

    def __iter__(self) -> _SingleProcessIter:
        return self

    def __next__(self) -> Any:
        index = next(self._sampler_iter)
        return self._fetcher.fetch(index)

    def __len__(self) -> int:
        return len(self._loader)


class DataLoader(Generic[T_co]):
    """Iterates over batches of a dataset, optionally loaded by worker processes.

    The arguments are torch's. Workers (``num_workers > 0``) receive the dataset once, fetch
    whole batches, and send them back through shared memory. The main process watches every
    worker: a worker killed by a signal raises RuntimeError naming it at once, an exception in a
    worker is re-raised here with the worker's traceback, and ``timeout`` bounds each wait.

    Args:
        dataset: a map-style Dataset (``__getitem__``/``__len__``) or an IterableDataset.
        batch_size: samples per batch; None disables automatic batching.
        shuffle: reshuffle every epoch (a RandomSampler).
        sampler: the index order (excludes ``shuffle``).
        batch_sampler: yields whole lists of indices (excludes batch_size, shuffle, sampler,
            drop_last).
        num_workers: worker processes (0: load in the main process).
        collate_fn: merges samples into a batch (default_collate, or default_convert when
            batching is off).
        pin_memory: accepted for compatibility; a no-op on this CPU build (batches already
            live in host memory).
        drop_last: drop the last incomplete batch.
        timeout: seconds to wait for one batch from the workers (0: forever); a RuntimeError
            when exceeded.
        worker_init_fn: called as ``worker_init_fn(worker_id)`` in each worker after seeding.
        multiprocessing_context: a start method name or a context (default: the platform's).
        generator: the stream for the sampler's shuffles and the workers' base seed.
        prefetch_factor: batches in flight per worker (default 2 with workers).
        persistent_workers: keep the workers between epochs.
        pin_memory_device: accepted for compatibility (see ``pin_memory``).
        in_order: yield batches in sampler order; False yields each as soon as it arrives.

    Example:
        >>> ds = TensorDataset(ember.arange(10.0))
        >>> [b[0].tolist() for b in DataLoader(ds, batch_size=4)][-1]
        [8.0, 9.0]
    """

    dataset: Any
    batch_size: int | None
    drop_last: bool
    sampler: Any
    batch_sampler: Any
    persistent_workers: bool
    __initialized = False

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Sampler[Any] | Iterable[Any] | None = None,
        batch_sampler: Sampler[list[Any]] | Iterable[list[Any]] | None = None,
        num_workers: int = 0,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable[[int], None] | None = None,
        multiprocessing_context: Any = None,
        generator: ember.Generator | None = None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ) -> None:
        if not isinstance(num_workers, int) or num_workers < 0:
            raise ValueError(
                "num_workers option should be non-negative; use num_workers=0 to disable "
                "multiprocessing."
            )
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError(
                "prefetch_factor option could only be specified in multiprocessing."
                "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor "
                "to None."
            )
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        if prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.in_order = in_order
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            if shuffle not in {False, None}:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified shuffle option, "
                    f"but got shuffle={shuffle}"
                )
            if sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified sampler option, "
                    f"but got sampler={sampler}"
                )
            if batch_sampler is not None:
                raise ValueError(
                    "DataLoader with IterableDataset: expected unspecified batch_sampler "
                    f"option, but got batch_sampler={batch_sampler}"
                )
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive with "
                "drop_last"
            )
        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)  # type: ignore[arg-type]
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._mp_context = self._context(multiprocessing_context)
        self.multiprocessing_context = multiprocessing_context
        self.__initialized = True
        self._iterator: Any = None

    def _context(self, ctx: Any) -> Any:
        if ctx is None:
            return multiprocessing.get_context()
        if self.num_workers == 0:
            raise ValueError(
                "multiprocessing_context can only be used with multi-process loading "
                f"(num_workers > 0), but got num_workers={self.num_workers}"
            )
        if isinstance(ctx, str):
            methods = multiprocessing.get_all_start_methods()
            if ctx not in methods:
                raise ValueError(
                    "multiprocessing_context option should specify a valid start method in "
                    f"{methods!r}, but got multiprocessing_context={ctx!r}"
                )
            return multiprocessing.get_context(ctx)
        if not isinstance(ctx, multiprocessing.context.BaseContext):
            raise TypeError(
                "multiprocessing_context option should be a valid context object or a string "
                f"specifying the start method, but got multiprocessing_context={ctx}"
            )
        return ctx

    def __setattr__(self, attr: str, val: Any) -> None:
        if self.__initialized and attr in _FROZEN:
            raise ValueError(
                f"{attr} attribute should not be set after {self.__class__.__name__} is initialized"
            )
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self) -> Iterator[Any]:
        if self.num_workers == 0:
            return _SingleProcessIter(self)
        from ember.utils.data._multiprocess_iter import MultiProcessIter

        if not self.persistent_workers:
            return MultiProcessIter(self)
        if self._iterator is None or self._iterator._shutdown:
            self._iterator = MultiProcessIter(self)
        else:
            self._iterator._reset()
        it: Iterator[Any] = self._iterator
        return it

    def __len__(self) -> int:
        if self._is_iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                if self.drop_last:
                    return length // self.batch_size
                return -(-length // self.batch_size)
            return int(length)
        return len(self._index_sampler)
