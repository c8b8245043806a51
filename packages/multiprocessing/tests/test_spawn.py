"""spawn / start_processes: results, exceptions and signals of the children reach the parent."""

from __future__ import annotations

import ember_mp_helpers as helpers
import pytest

import ember
import ember.multiprocessing as mp


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_spawn_runs_every_rank_on_shared_tensor(method: str) -> None:
    # fork children inherit memory copy-on-write: only a shared storage is seen by both
    t = ember.zeros(3).share_memory_() if method == "fork" else ember.zeros(3)
    assert mp.spawn(helpers.spawn_ok, args=(t,), nprocs=3, start_method=method) is None
    assert t.tolist() == [1.0, 2.0, 3.0]


def test_exception_is_reraised_with_child_traceback() -> None:
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(helpers.spawn_raise, nprocs=2, start_method="fork")
    err = info.value
    assert err.error_index == 1 and err.pid > 0
    assert "-- Process 1 terminated with the following error:" in str(err)
    assert "ValueError: boom from rank 1" in str(err)
    assert "spawn_raise" in str(err)  # the child's traceback names its frame
    assert isinstance(err, mp.ProcessException)


def test_signal_is_named() -> None:
    with pytest.raises(mp.ProcessExitedException, match="process 1 terminated with signal SIGKILL"):
        mp.spawn(helpers.spawn_kill_self, nprocs=2, start_method="spawn")


def test_exit_code_and_context_api() -> None:
    ctx = mp.start_processes(helpers.spawn_exit_code, nprocs=1, join=False, start_method="fork")
    assert isinstance(ctx, mp.ProcessContext)
    assert len(ctx.pids()) == 1 and ctx.pids()[0] > 0
    with pytest.raises(mp.ProcessExitedException, match="terminated with exit code 3") as info:
        while not ctx.join(timeout=10):
            pass
    assert info.value.exit_code == 3 and info.value.signal_name is None


def test_join_timeout_returns_false_while_running() -> None:
    ctx = mp.start_processes(helpers.spawn_raise, nprocs=1, join=False, start_method="fork")
    assert ctx is not None
    assert ctx.join(timeout=0.05) is False
    for p in ctx.processes:
        p.kill()
    with pytest.raises(mp.ProcessExitedException, match="SIGKILL"):
        ctx.join(timeout=10)


def test_bad_nprocs() -> None:
    with pytest.raises(ValueError, match="nprocs"):
        mp.spawn(helpers.spawn_ok, nprocs=0)
