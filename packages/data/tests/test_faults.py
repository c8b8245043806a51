"""Faults: killed workers, exceptions, timeouts, a dead main process, exit with live iterators.

Workers are killed for real (SIGKILL), 20 times under fork and 20 times under spawn.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from ember_data_helpers import KillInGetitem, RaiseAt, Range, Slow

import ember.multiprocessing as mp
from ember.utils.data import DataLoader

REPEATS = 20


def shm_files() -> set[str]:
    return {n for n in os.listdir("/dev/shm") if n.startswith("ember_")}


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("State:\tZ") for line in f)  # a zombie has exited
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_killed_by_a_signal_every_time(method: str) -> None:
    """20 kills per start method: half inside __getitem__, half from outside between batches."""
    before = shm_files()
    workers = 2 if method == "fork" else 1  # spawn: one interpreter per loader keeps this fast
    inside = [
        DataLoader(
            KillInGetitem(8, at=i % 4),
            batch_size=2,
            num_workers=1,
            multiprocessing_context=method,
            timeout=60,
        )
        for i in range(REPEATS // 2)
    ]
    outside = [
        DataLoader(
            Range(64), batch_size=2, num_workers=workers, multiprocessing_context=method, timeout=60
        )
        for _ in range(REPEATS // 2)
    ]
    # Every iterator starts its workers first, so spawn's interpreters start up in parallel.
    iterators = [iter(loader) for loader in inside + outside]
    for it in iterators[: REPEATS // 2]:
        with pytest.raises(
            RuntimeError, match=r"DataLoader worker 0 \(pid \d+\) was killed by signal SIGKILL"
        ):
            for _ in it:
                pass
    for n, it in enumerate(iterators[REPEATS // 2 :]):
        next(it)
        wid = n % workers
        victim = it._workers[wid]  # type: ignore[attr-defined]
        os.kill(victim.process.pid, signal.SIGKILL)
        victim.process.join(5)
        with pytest.raises(
            RuntimeError,
            match=rf"worker {wid} \(pid {victim.process.pid}\) was killed by signal SIGKILL",
        ):
            next(it)  # detected before any buffered batch is handed out
    assert shm_files() == before


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_worker_exception_reraised_with_type_traceback_and_id(method: str) -> None:
    loader = DataLoader(
        RaiseAt(8, at=5), batch_size=None, num_workers=2, multiprocessing_context=method
    )
    it = iter(loader)
    assert [next(it) for _ in range(5)] == [0, 1, 2, 3, 4]
    with pytest.raises(KeyError) as info:
        next(it)
    text = str(info.value)
    assert "Caught KeyError in DataLoader worker process 1." in text
    assert "Traceback (most recent call last)" in text and "no sample 5" in text
    assert "RaiseAt" in text or "__getitem__" in text
    assert info.value.worker_id == 1  # type: ignore[attr-defined]
    with pytest.raises(ZeroDivisionError, match="worker process 0"):
        next(it)  # the iterator goes on after an error, as torch's
    assert next(it) == 7


def test_timeout_honoured() -> None:
    loader = DataLoader(Slow(4, delay=5.0), num_workers=1, timeout=0.3)
    with pytest.raises(RuntimeError, match=r"DataLoader timed out after 0.3 seconds"):
        next(iter(loader))


def test_file_system_strategy_leaks_nothing() -> None:
    import ember

    before = shm_files()
    mp.set_sharing_strategy("file_system")
    try:
        loader = DataLoader(Range(16), batch_size=4, num_workers=2, multiprocessing_context="fork")
        batches = list(loader)
        assert all(b.is_shared() for b in batches)
        assert sorted(i for b in batches for i in b.tolist()) == list(range(16))
        del batches, loader
        assert shm_files() == before
        del ember
    finally:
        mp.set_sharing_strategy("file_descriptor")


def _run(script: str) -> subprocess.Popen[str]:
    helpers = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([helpers, *sys.path]))
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_workers_exit_when_main_process_is_killed(method: str) -> None:
    proc = _run(f"""
        import time
        from ember.utils.data import DataLoader
        from ember_data_helpers import Slow
        if __name__ == "__main__":
            it = iter(DataLoader(Slow(100, delay=30.0), num_workers=2,
                                 multiprocessing_context="{method}"))
            print(*[w.process.pid for w in it._workers], flush=True)
            time.sleep(60)
        """)
    assert proc.stdout is not None
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 2
    proc.kill()
    proc.wait(10)
    deadline = time.monotonic() + 20  # generous: workers are in a 30 s __getitem__
    while not all(gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(gone(p) for p in pids)


def test_no_hang_at_exit_with_live_iterators() -> None:
    proc = _run("""
        from ember.utils.data import DataLoader, TensorDataset
        import ember
        if __name__ == "__main__":
            ds = TensorDataset(ember.ones(64, 3))
            a = iter(DataLoader(ds, batch_size=2, num_workers=2))
            b = iter(DataLoader(ds, batch_size=2, num_workers=2, multiprocessing_context="spawn",
                                persistent_workers=True))
            next(a), next(b)
            print("done", flush=True)
        """)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip() == "done"
