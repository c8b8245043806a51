"""DataLoader worker processes: get_worker_info, the worker loop, and exception transport."""

from __future__ import annotations

import contextlib
import os
import random
import sys
import threading
import traceback
from multiprocessing.connection import Connection, wait
from typing import Any

import ember
import ember.multiprocessing  # registers the reductions: batches travel in shared memory
from ember.utils.data import _worker_state


class WorkerInfo:
    """What a DataLoader worker knows about itself (``get_worker_info()``).

    Attributes:
        id: this worker's index, ``0 <= id < num_workers``.
        num_workers: how many workers the loader has.
        seed: this worker's seed (``base_seed + id``).
        dataset: this worker's copy of the dataset.
    """

    id: int
    num_workers: int
    seed: int
    dataset: Any
    __initialized = False

    def __init__(self, **kwargs: Any) -> None:
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key: str, val: Any) -> None:
        if self.__initialized:
            raise RuntimeError(f"Cannot assign attributes to {self.__class__.__name__} objects")
        super().__setattr__(key, val)

    def __repr__(self) -> str:
        items = ", ".join(f"{k}={getattr(self, k)}" for k in self.__keys)
        return f"{self.__class__.__name__}({items})"


def get_worker_info() -> WorkerInfo | None:
    """This worker's WorkerInfo inside a DataLoader worker process; None in the main process.

    Use it in ``IterableDataset.__iter__`` to shard the stream, or in ``worker_init_fn``.

    Example:
        >>> get_worker_info() is None  # in the main process
        True
    """
    info: WorkerInfo | None = _worker_state.info
    return info


class ExceptionWrapper:
    """An exception caught in a worker, carried to the main process with its traceback text."""

    def __init__(self, exc_info: Any, where: str, worker_id: int) -> None:
        exc_type, exc, tb = exc_info
        self.exc_type = exc_type
        self.worker_id = worker_id
        self.msg = f"Caught {exc_type.__name__} {where}.\nOriginal " + "".join(
            traceback.format_exception(exc_type, exc, tb)
        )

    def reraise(self) -> None:
        """Raises an exception of the original type whose message holds the worker traceback."""
        msg = self.msg
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)
        try:
            exception = self.exc_type(msg)
        except Exception:
            raise RuntimeError(msg) from None
        with contextlib.suppress(AttributeError):
            exception.worker_id = self.worker_id
        raise exception


class _KeyErrorMessage(str):
    # KeyError repr()s its argument; this keeps the traceback readable.
    def __repr__(self) -> str:
        return str(self)


def _seed_worker(seed: int, base_seed: int, worker_id: int) -> None:
    random.seed(seed)
    ember.manual_seed(seed)
    np = sys.modules.get("numpy")
    if np is not None:  # only when the dataset uses numpy: importing it costs start-up time
        entropy = np.random.SeedSequence([worker_id, base_seed & ((1 << 64) - 1)])
        np.random.seed(entropy.generate_state(4))


def _watch_parent() -> None:
    # Exit when the main process dies, even in the middle of a long __getitem__.
    import multiprocessing

    parent = multiprocessing.parent_process()
    sentinel = getattr(parent, "sentinel", None)
    if sentinel is None:
        return

    def watch() -> None:
        wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="ember-dataloader-watchdog", daemon=True).start()


class _Fetcher:
    def __init__(
        self,
        dataset: Any,
        is_iterable: bool,
        auto_collation: bool,
        collate_fn: Any,
        drop_last: bool,
        batch_size: int | None,
    ) -> None:
        self.dataset = dataset
        self.is_iterable = is_iterable
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.batch_size = batch_size
        self.iterator = iter(dataset) if is_iterable else None
        self.ended = False

    def fetch(self, index: Any) -> Any:
        if self.is_iterable:
            assert self.iterator is not None
            if self.ended:
                raise StopIteration
            if self.auto_collation:
                data = []
                for _ in range(self.batch_size or 1):
                    try:
                        data.append(next(self.iterator))
                    except StopIteration:
                        self.ended = True
                        break
                if not data or (self.drop_last and len(data) < (self.batch_size or 1)):
                    raise StopIteration
                return self.collate_fn(data)
            return self.collate_fn(next(self.iterator))
        if self.auto_collation:
            getitems = getattr(self.dataset, "__getitems__", None)
            data = getitems(index) if callable(getitems) else [self.dataset[i] for i in index]
            return self.collate_fn(data)
        return self.collate_fn(self.dataset[index])


def worker_loop(
    dataset: Any,
    index_conn: Connection,
    result_conn: Any,
    is_iterable: bool,
    auto_collation: bool,
    collate_fn: Any,
    drop_last: bool,
    batch_size: int | None,
    base_seed: int,
    init_fn: Any,
    worker_id: int,
    num_workers: int,
) -> None:
    """The body of one worker process: fetch each task's batch and send it back.

    Messages in: ``(task_id, indices)``, ``"reset"`` (an iterable dataset restarts), or None
    (exit). Messages out: ``(task_id, kind, payload)`` with kind ``"ok"``, ``"err"`` or
    ``"stop"`` (the iterable dataset is exhausted).
    """
    _watch_parent()
    seed = base_seed + worker_id
    init_error: ExceptionWrapper | None = None
    fetcher: _Fetcher | None = None
    try:
        # One intra-op thread per worker, as in torch: the workers are the parallelism.
        ember.set_num_threads(1)
        _seed_worker(seed, base_seed, worker_id)
        _worker_state.info = WorkerInfo(
            id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset
        )
        if init_fn is not None:
            init_fn(worker_id)
        fetcher = _Fetcher(dataset, is_iterable, auto_collation, collate_fn, drop_last, batch_size)
    except Exception:
        init_error = ExceptionWrapper(
            sys.exc_info(), f"in DataLoader worker process {worker_id}", worker_id
        )
    try:
        while True:
            try:
                task = index_conn.recv()
            except (EOFError, OSError):
                return
            if task is None:
                return
            if task == "reset":
                if fetcher is not None and is_iterable:
                    fetcher = _Fetcher(
                        dataset, True, auto_collation, collate_fn, drop_last, batch_size
                    )
                continue
            task_id, index = task
            if init_error is not None:
                reply: tuple[int, str, Any] = (task_id, "err", init_error)
            else:
                assert fetcher is not None
                try:
                    reply = (task_id, "ok", fetcher.fetch(index))
                except StopIteration:
                    reply = (task_id, "stop", None)
                except Exception:
                    reply = (
                        task_id,
                        "err",
                        ExceptionWrapper(
                            sys.exc_info(), f"in DataLoader worker process {worker_id}", worker_id
                        ),
                    )
            try:
                result_conn.send(reply)
            except (BrokenPipeError, EOFError, ConnectionResetError):
                return  # the main process closed our pipe: it is shutting down
            except Exception:  # the batch (or the exception) does not pickle
                result_conn.send(
                    (
                        task_id,
                        "err",
                        ExceptionWrapper(
                            sys.exc_info(), f"in DataLoader worker process {worker_id}", worker_id
                        ),
                    )
                )
            del reply
    except KeyboardInterrupt:
        pass
    finally:
        result_conn.close()
        index_conn.close()
