"""Tensors in shared memory: share_memory_, the reductions, both strategies, /dev/shm hygiene."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator

import ember_mp_helpers as helpers
import numpy as np
import pytest

import ember
import ember.multiprocessing as mp
from ember_core import _C

STRATEGIES = ["file_descriptor", "file_system"]
METHODS = ["fork", "spawn"]


def shm_files() -> set[str]:
    return {n for n in os.listdir("/dev/shm") if n.startswith("ember_")}


@pytest.fixture(params=STRATEGIES)
def strategy(request: pytest.FixtureRequest) -> Iterator[str]:
    mp.set_sharing_strategy(request.param)
    yield request.param
    mp.set_sharing_strategy("file_descriptor")


def test_strategies() -> None:
    assert mp.get_all_sharing_strategies() == {"file_descriptor", "file_system"}
    assert mp.get_sharing_strategy() == "file_descriptor"
    with pytest.raises(ValueError, match="unknown sharing strategy"):
        mp.set_sharing_strategy("carrier_pigeon")


def test_reexports_stdlib() -> None:
    import multiprocessing

    for name in multiprocessing.__all__:
        assert getattr(mp, name) is getattr(multiprocessing, name), name


def test_spawn_names_load_on_first_use() -> None:
    # A DataLoader worker imports ember.multiprocessing for its reductions only.
    import subprocess
    import sys

    code = (
        "import sys, ember.multiprocessing as mp\n"
        "print('ember.multiprocessing._spawn' in sys.modules)\n"
        "from ember.multiprocessing import spawn, ProcessRaisedException\n"
        "from ember.multiprocessing import _spawn\n"
        "print(spawn is _spawn.spawn and mp.start_processes is _spawn.start_processes)\n"
        "print(all(n in dir(mp) for n in mp.__all__))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "True", "True"]
    with pytest.raises(AttributeError, match=r"ember.multiprocessing.*no attribute 'spwan'"):
        mp.spwan  # noqa: B018


def test_share_memory_in_place_keeps_values_and_views(strategy: str) -> None:
    base = ember.arange(12.0).reshape(3, 4)
    view = base[1:, 2]
    expected = base.numpy().copy()
    assert not base.is_shared()
    assert base.share_memory_() is base
    assert base.is_shared() and view.is_shared()
    np.testing.assert_array_equal(base.numpy(), expected)
    view.fill_(7.0)  # the view still aliases the (moved) storage
    expected[1:, 2] = 7.0
    np.testing.assert_array_equal(base.numpy(), expected)
    ptr = base.data_ptr()
    base.share_memory_()  # no-op when shared
    assert base.data_ptr() == ptr


def test_share_memory_empty_and_dtypes(strategy: str) -> None:
    for dt in (ember.int64, ember.bool, ember.float64, ember.uint8):
        t = ember.zeros(0, dtype=dt).share_memory_()
        assert t.is_shared() and t.numel() == 0
    t = ember.tensor([True, False]).share_memory_()
    assert t.tolist() == [True, False]


def test_segments_are_private_0600(strategy: str) -> None:
    t = ember.ones(16).share_memory_()
    kind, name, fd, nbytes = _C._shm_export(t)
    assert kind == strategy and nbytes == 64
    if strategy == "file_descriptor":
        st = os.fstat(fd)
        mode = st.st_mode
        assert not os.path.exists("/dev/shm" + name)  # never named: a SIGKILL cannot leak it
        assert st.st_nlink == 0
        assert st.st_dev == os.stat("/dev/shm").st_dev  # counted against /dev/shm's size
    else:
        mode = os.stat("/dev/shm" + name).st_mode
        # the export counted a handle in flight; take it back as a receiver would
        _C._shm_rebuild(kind, name, -1, nbytes, 0, [16], [1], ember.float32)
    assert stat.S_IMODE(mode) == 0o600


def test_file_system_segment_unlinked_when_released() -> None:
    mp.set_sharing_strategy("file_system")
    try:
        t = ember.ones(100).share_memory_()
        name = _C._shm_export(t)[1]
        _C._shm_rebuild("file_system", name, -1, 400, 0, [100], [1], ember.float32)
        assert os.path.exists("/dev/shm" + name)
        del t
        assert not os.path.exists("/dev/shm" + name)
    finally:
        mp.set_sharing_strategy("file_descriptor")


def test_too_small_dev_shm_is_a_typed_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBER_SHM_LIMIT_BYTES", "4096")
    before = shm_files()
    t = ember.zeros(1 << 20)
    with pytest.raises(RuntimeError, match=r"4194304 bytes.*--ipc=host.*--shm-size"):
        t.share_memory_()
    assert not t.is_shared() and t.sum().item() == 0  # untouched, still usable
    assert shm_files() == before
    ember.zeros(16).share_memory_()  # small ones still fit


@pytest.mark.parametrize("method", METHODS)
def test_queue_shares_storage_and_views(method: str, strategy: str) -> None:
    ctx = mp.get_context(method)
    q_in, q_out = ctx.Queue(), ctx.Queue()
    base = ember.arange(6.0)
    view = base[2:5]
    p = ctx.Process(target=helpers.queue_roundtrip, args=(q_in, q_out))
    p.start()
    q_in.put((base, view))
    shares, base_shared, view_shared, seen = q_out.get(timeout=30)
    p.join(30)
    assert p.exitcode == 0
    assert shares and base_shared and view_shared
    assert seen == [0.0, 2.0, -1.0, -1.0, -1.0, 10.0]
    # the child's writes are visible here: same memory
    assert base.tolist() == [0.0, 2.0, -1.0, -1.0, -1.0, 10.0]
    assert base.is_shared()


@pytest.mark.parametrize("method", METHODS)
def test_pipe(method: str) -> None:
    ctx = mp.get_context(method)
    parent, child = ctx.Pipe()
    p = ctx.Process(target=helpers.pipe_child, args=(child,))
    p.start()
    t = ember.ones(4)
    parent.send(t)
    assert parent.recv() == 44.0
    p.join(30)
    assert t.tolist() == [11.0] * 4


@pytest.mark.parametrize("method", METHODS)
def test_pool_map(method: str) -> None:
    with mp.get_context(method).Pool(2) as pool:
        results = pool.map(helpers.pool_square, [ember.tensor([float(i)] * 3) for i in range(4)])
    assert [r.tolist() for r in results] == [[float(i * i)] * 3 for i in range(4)]
    assert all(r.is_shared() for r in results)


def test_simple_queue_and_process_args_under_spawn() -> None:
    ctx = mp.get_context("spawn")
    q = ctx.SimpleQueue()
    t = ember.zeros(3)
    p = ctx.Process(target=helpers.process_args_child, args=(t, q))
    p.start()
    assert q.get() is True
    p.join(30)
    assert t.tolist() == [5.0, 5.0, 5.0]


def test_requires_grad_travels() -> None:
    pytest.importorskip("ember.autograd")
    ctx = mp.get_context("fork")
    q = ctx.SimpleQueue()
    t = ember.ones(2, requires_grad=True)
    q.put(t)
    r = q.get()
    assert r.requires_grad and r.is_shared()
    with pytest.raises(RuntimeError, match="non-leaf"):
        q.put(t * 2)


def test_sigkill_of_sender_or_receiver_leaves_nothing_in_dev_shm() -> None:
    ctx = mp.get_context("spawn")
    before = shm_files()
    q, ready = ctx.Queue(), ctx.Queue()
    sender = ctx.Process(target=helpers.send_then_wait, args=(q, "file_descriptor"))
    receiver = ctx.Process(target=helpers.receive_then_wait, args=(q, ready))
    sender.start()
    receiver.start()
    assert ready.get(timeout=30) == float(sum(range(1000)))
    os.kill(receiver.pid or 0, signal.SIGKILL)
    os.kill(sender.pid or 0, signal.SIGKILL)
    sender.join(10)
    receiver.join(10)
    assert shm_files() == before


def test_file_system_segments_reclaimed_after_sigkill_of_every_process() -> None:
    # A program of its own (its own resource tracker): it shares a tensor under file_system
    # with a child, then both are SIGKILLed; the tracker unlinks the segment.
    script = textwrap.dedent(
        """
        import sys, time
        import ember, ember.multiprocessing as mp
        import ember_mp_helpers as helpers
        from ember_core import _C
        if __name__ == "__main__":
            mp.set_sharing_strategy("file_system")
            ctx = mp.get_context("spawn")
            q, ready = ctx.Queue(), ctx.Queue()
            t = ember.arange(1000.0).share_memory_()
            p = ctx.Process(target=helpers.receive_then_wait, args=(q, ready))
            p.start()
            q.put(t)
            ready.get(timeout=30)
            print(_C._shm_live_names()[0], p.pid, flush=True)
            time.sleep(60)
        """
    )
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(helpers.__file__), *sys.path])
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout is not None
    name, child_pid = proc.stdout.readline().split()
    assert os.path.exists("/dev/shm" + name)
    os.kill(int(child_pid), signal.SIGKILL)
    proc.kill()
    proc.wait(10)
    deadline = time.monotonic() + 10
    while os.path.exists("/dev/shm" + name) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not os.path.exists("/dev/shm" + name)
