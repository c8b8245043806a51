"""``spawn`` / ``start_processes``: run ``fn(i, *args)`` in ``nprocs`` processes.

As torch.multiprocessing.spawn: an exception in a child is re-raised in the parent as
``ProcessRaisedException`` carrying the child's traceback; a child killed by a signal raises
``ProcessExitedException`` naming the signal; the first failure terminates the others.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any


class ProcessException(Exception):
    """A process started by ``spawn`` failed; ``error_index`` and ``error_pid`` say which."""

    def __init__(self, msg: str, error_index: int, error_pid: int) -> None:
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = error_pid

    def __reduce__(self) -> Any:
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A spawned process raised; the message holds its traceback."""


class ProcessExitedException(ProcessException):
    """A spawned process exited with a non-zero code or was killed by a signal."""

    def __init__(
        self,
        msg: str,
        error_index: int,
        error_pid: int,
        exit_code: int,
        signal_name: str | None = None,
    ) -> None:
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self) -> Any:
        return (
            type(self),
            (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name),
        )


def _wrap(fn: Callable[..., Any], i: int, args: tuple[Any, ...], error_file: str) -> None:
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass  # the parent sent SIGINT: it is shutting the group down itself
    except Exception:
        with open(error_file, "w", encoding="utf-8") as f:
            f.write(traceback.format_exc())
        sys.exit(1)


def signal_name(exit_code: int) -> str:
    """The name of the signal a negative ``Process.exitcode`` stands for (``'SIGKILL'``)."""
    try:
        return signal.Signals(-exit_code).name
    except ValueError:
        return f"<Unknown signal {-exit_code}>"


class ProcessContext:
    """The processes started by ``start_processes(join=False)``; ``join`` them to see errors.

    Example:
        >>> ctx = ember.multiprocessing.spawn(fn, nprocs=2, join=False)
        >>> while not ctx.join():
        ...     pass
    """

    def __init__(self, processes: list[BaseProcess], error_files: list[str]) -> None:
        self.error_files = error_files
        self.processes = processes
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self) -> list[int]:
        """The pids of the processes, in rank order."""
        return [int(p.pid or 0) for p in self.processes]

    def _join_all(self, timeout: float) -> None:
        import time

        deadline = time.monotonic() + timeout
        for p in self.processes:
            p.join(max(0.0, deadline - time.monotonic()))

    def join(self, timeout: float | None = None, grace_period: float | None = None) -> bool:
        """Waits for the processes; raises the first failure, after stopping the others.

        Args:
            timeout: seconds to wait (None: until one fails or all finish).
            grace_period: on failure, seconds the others get to exit before SIGTERM (and as
                long again before SIGKILL).

        Returns:
            True once every process has exited successfully, False if some still run.

        Raises:
            ProcessRaisedException: a process raised (its traceback is in the message).
            ProcessExitedException: a process exited with a non-zero code or a signal.
        """
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        error_index = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)  # type: ignore[arg-type]
            process = self.processes[index]
            process.join()
            if process.exitcode != 0:
                error_index = index
                break
        if error_index is None:
            return not self.sentinels
        if grace_period is not None:
            self._join_all(grace_period)
        for p in self.processes:
            if p.is_alive():
                p.terminate()
        self._join_all(30.0 if grace_period is None else grace_period)
        for p in self.processes:
            if p.is_alive():
                p.kill()
            p.join()
        self._raise(error_index)
        raise AssertionError("unreachable")

    def _raise(self, index: int) -> None:
        process = self.processes[index]
        pid = int(process.pid or 0)
        exit_code = int(process.exitcode or 0)
        error_file = self.error_files[index]
        if os.path.exists(error_file) and os.path.getsize(error_file) > 0:
            with open(error_file, encoding="utf-8") as f:
                trace = f.read()
            msg = f"\n\n-- Process {index:d} terminated with the following error:\n{trace}"
            raise ProcessRaisedException(msg, index, pid)
        if exit_code < 0:
            name = signal_name(exit_code)
            raise ProcessExitedException(
                f"process {index:d} terminated with signal {name}", index, pid, exit_code, name
            )
        raise ProcessExitedException(
            f"process {index:d} terminated with exit code {exit_code:d}", index, pid, exit_code
        )

    def __del__(self) -> None:
        for f in getattr(self, "error_files", ()):
            with contextlib.suppress(OSError):
                os.unlink(f)


def start_processes(
    fn: Callable[..., Any],
    args: tuple[Any, ...] = (),
    nprocs: int = 1,
    join: bool = True,
    daemon: bool = False,
    start_method: str = "spawn",
) -> ProcessContext | None:
    """Starts ``nprocs`` processes running ``fn(i, *args)`` with the given start method.

    Args:
        fn: a picklable (module-level) function; its first argument is the process index.
        args: the remaining arguments (tensors travel through shared memory).
        nprocs: how many processes.
        join: wait for them (and raise a failure) before returning.
        daemon: start them as daemonic processes.
        start_method: ``'spawn'``, ``'fork'`` or ``'forkserver'``.

    Returns:
        None when ``join``, else the ProcessContext.

    Example:
        >>> ember.multiprocessing.start_processes(work, args=(t,), nprocs=2, start_method="fork")
    """
    if not isinstance(nprocs, int) or isinstance(nprocs, bool) or nprocs < 1:
        raise ValueError(f"[start_processes] nprocs must be a positive int, got {nprocs!r}")
    from ember import multiprocessing as emp

    ctx: Any = emp.get_context(start_method)
    error_files: list[str] = []
    processes: list[BaseProcess] = []
    for i in range(nprocs):
        fd, path = tempfile.mkstemp(prefix="ember_spawn_error_")
        os.close(fd)
        os.unlink(path)  # the child creates it only when it fails
        error_files.append(path)
        process = ctx.Process(target=_wrap, args=(fn, i, args, path), daemon=daemon)
        process.start()
        processes.append(process)
    context = ProcessContext(processes, error_files)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(
    fn: Callable[..., Any],
    args: tuple[Any, ...] = (),
    nprocs: int = 1,
    join: bool = True,
    daemon: bool = False,
    start_method: str = "spawn",
) -> ProcessContext | None:
    """``start_processes`` with the ``spawn`` start method by default (torch's spawn).

    Example:
        >>> ember.multiprocessing.spawn(work, args=(shared_tensor,), nprocs=2)
    """
    return start_processes(fn, args, nprocs, join, daemon, start_method)
