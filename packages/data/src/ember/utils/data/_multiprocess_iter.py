"""The DataLoader iterator with worker processes, and how it watches them.

Each worker has two pipes of its own (indices in, batches out), so a worker killed in the middle
of a send corrupts nothing shared. The main process never blocks on one pipe: it waits on every
worker's result pipe and process sentinel at once (multiprocessing.connection.wait), so a dead
worker is noticed the moment it dies, and ``timeout`` bounds the whole wait.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing.connection
import time
from typing import Any

import ember
import ember.multiprocessing
from ember.multiprocessing import _spawn
from ember.utils.data import worker as _worker
from ember.utils.data._channel import ResultChannel

_JOIN_TIMEOUT = 2.0


def _death_message(worker_id: int, pid: int | None, exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = _spawn.signal_name(exitcode)
        hint = (
            " (a bus error in a worker is usually /dev/shm running out: see the shared memory "
            "notes in docs/data.md)"
            if name == "SIGBUS"
            else ""
        )
        return (
            f"DataLoader worker {worker_id} (pid {pid}) was killed by signal {name}{hint}. "
            "Rerunning with num_workers=0 may give a better error trace."
        )
    return (
        f"DataLoader worker {worker_id} (pid {pid}) exited unexpectedly with exit code "
        f"{exitcode}. Rerunning with num_workers=0 may give a better error trace."
    )


class _Worker:
    def __init__(self, loader: Any, worker_id: int, base_seed: int) -> None:
        ctx = loader._mp_context
        index_r, self.index_w = ctx.Pipe(duplex=False)
        result_r, result_w = ctx.Pipe(duplex=True)  # a socket pair: descriptors travel too
        self.result_r = ResultChannel(result_r)
        self.id = worker_id
        self.process = ctx.Process(
            target=_worker.worker_loop,
            args=(
                loader.dataset,
                index_r,
                ResultChannel(result_w),
                loader._is_iterable,
                loader._auto_collation,
                loader.collate_fn,
                loader.drop_last,
                loader.batch_size,
                base_seed,
                loader.worker_init_fn,
                worker_id,
                loader.num_workers,
            ),
            daemon=True,
        )
        self.process.start()
        index_r.close()  # the child holds its own ends: EOF here means the child is gone
        result_w.close()
        self.active = True  # False once its iterable dataset is exhausted


class MultiProcessIter:
    """Batches from ``num_workers`` worker processes, in sampler order unless ``in_order=False``."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader
        self._timeout = float(loader.timeout)
        self._in_order = bool(loader.in_order)
        self._persistent = bool(loader.persistent_workers)
        self._prefetch = loader.prefetch_factor * loader.num_workers
        base_seed = int(
            ember.empty((), dtype=ember.int64).random_(generator=loader.generator).item()
        )
        self._workers: list[_Worker] = []
        self._shutdown = False
        try:
            for i in range(loader.num_workers):
                self._workers.append(_Worker(loader, i, base_seed))
        except BaseException:
            self._shutdown_workers()
            raise
        self._start_epoch(first=True)

    # -- epochs ----------------------------------------------------------------------------
    def _start_epoch(self, first: bool) -> None:
        self._sampler_iter = iter(self._loader._index_sampler)
        self._exhausted = False
        self._send_idx = 0
        self._rcvd_idx = 0
        self._results: dict[int, tuple[str, Any]] = {}
        self._owner: dict[int, _Worker] = {}  # outstanding task -> worker
        self._yielded = 0
        if not first and self._loader._is_iterable:
            for w in self._workers:
                self._send(w, "reset")
                w.active = True
        self._cycle = itertools.cycle(self._workers)
        self._fill()

    def _reset(self) -> None:
        """Starts a new epoch on the same (persistent) workers."""
        while self._owner:  # finish what the last epoch left in flight, and drop it
            self._receive(self._timeout)
        self._start_epoch(first=False)

    # -- sending ---------------------------------------------------------------------------
    def _send(self, worker: _Worker, message: Any) -> None:
        try:
            worker.index_w.send(message)
        except OSError:  # its end of the pipe is closed: it died
            worker.process.join(1.0)
            self._check_alive(worker)
            raise

    def _fill(self) -> None:
        while not self._exhausted and len(self._owner) + len(self._results) < self._prefetch:
            active = [w for w in self._workers if w.active]
            if not active:
                self._exhausted = True
                return
            try:
                index = next(self._sampler_iter)
            except StopIteration:
                self._exhausted = True
                return
            worker = next(self._cycle)
            while not worker.active:
                worker = next(self._cycle)
            self._send(worker, (self._send_idx, index))
            self._owner[self._send_idx] = worker
            self._send_idx += 1

    # -- receiving -------------------------------------------------------------------------
    def _check_alive(self, w: _Worker) -> None:
        if w.process.exitcode is not None or not w.process.is_alive():
            w.process.join(0.1)
            code, pid = w.process.exitcode, w.process.pid
            self._shutdown_workers(graceful=False)
            raise RuntimeError(_death_message(w.id, pid, code))

    def _check_deaths(self) -> None:
        # One poll of every sentinel per batch: a death is reported even while batches that
        # were prefetched before it are still buffered.
        dead = multiprocessing.connection.wait([w.process.sentinel for w in self._workers], 0)
        for w in self._workers:
            if w.process.sentinel in dead:
                self._check_alive(w)

    def _receive(self, timeout: float) -> None:
        """Waits for one message (or a death, or the timeout) and files it."""
        by_conn = {w.result_r.fileno(): w for w in self._workers}
        by_sentinel = {w.process.sentinel: w for w in self._workers}
        ready = multiprocessing.connection.wait(
            [*by_conn, *by_sentinel], timeout if timeout > 0 else None
        )
        if not ready:
            self._shutdown_workers(graceful=False)
            raise RuntimeError(f"DataLoader timed out after {self._loader.timeout} seconds")
        got_message = False
        for r in ready:
            w = by_conn.get(r)  # type: ignore[arg-type]
            if w is None:
                continue
            try:
                task_id, kind, payload = w.result_r.recv()
            except Exception as error:  # EOF, a torn message, an fd we can no longer fetch
                w.process.join(0.5)
                self._check_alive(w)
                self._shutdown_workers(graceful=False)
                raise RuntimeError(
                    f"DataLoader worker {w.id} (pid {w.process.pid}): could not receive a "
                    f"batch: {type(error).__name__}: {error}"
                ) from error
            got_message = True
            self._owner.pop(task_id, None)
            if kind == "stop":
                w.active = False
            self._results[task_id] = (kind, payload)
        if not got_message:
            for r in ready:
                w = by_sentinel.get(r)
                if w is not None and not w.result_r.poll():
                    self._check_alive(w)

    def _next_result(self) -> tuple[str, Any]:
        while True:
            if self._in_order:
                while self._rcvd_idx < self._send_idx and self._rcvd_idx in self._results:
                    item = self._results.pop(self._rcvd_idx)
                    self._rcvd_idx += 1
                    self._fill()
                    if item[0] != "stop":
                        return item
            else:
                for task_id in sorted(self._results):
                    item = self._results.pop(task_id)
                    self._fill()
                    if item[0] != "stop":
                        return item
            if not self._owner and not self._results:
                self._fill()
                if not self._owner:
                    raise StopIteration
                continue
            self._receive(self._timeout)

    def __iter__(self) -> MultiProcessIter:
        return self

    def __next__(self) -> Any:
        if self._shutdown:
            raise StopIteration
        self._check_deaths()
        try:
            kind, payload = self._next_result()
        except StopIteration:
            if not self._persistent:
                self._shutdown_workers()
            raise
        self._yielded += 1
        if kind == "err":
            payload.reraise()
        return payload

    def __len__(self) -> int:
        return len(self._loader)

    # -- shutdown --------------------------------------------------------------------------
    def _shutdown_workers(self, graceful: bool = True) -> None:
        # graceful=False (a timeout or a dead worker): the others are stopped at once.
        if self._shutdown:
            return
        self._shutdown = True
        for w in self._workers:
            with contextlib.suppress(OSError, ValueError):
                w.index_w.send(None)
            w.result_r.close()  # a worker blocked sending a batch gets EPIPE and exits
        deadline = time.monotonic() + (_JOIN_TIMEOUT if graceful else 0.0)
        for w in self._workers:
            w.process.join(max(0.0, deadline - time.monotonic()))
        for w in self._workers:
            if w.process.is_alive():
                w.process.kill()
                w.process.join(1.0)
            with contextlib.suppress(OSError):
                w.index_w.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._shutdown_workers()
