"""Functions the multiprocessing tests run in child processes (importable by name for spawn)."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import ember


def add_one_in_place(t: ember.Tensor) -> None:
    t.add_(1)


def queue_roundtrip(q_in: Any, q_out: Any) -> None:
    """Receives (base, view) from q_in, writes through both, reports what it saw on q_out."""
    base, view = q_in.get()
    shares = view.data_ptr() == base.data_ptr() + view.storage_offset() * base.element_size()
    base.mul_(2)
    view.fill_(-1)
    q_out.put((shares, base.is_shared(), view.is_shared(), base.tolist()))


def pipe_child(conn: Any) -> None:
    t = conn.recv()
    t.add_(10)
    conn.send(t.sum().item())
    conn.close()


def pool_square(t: ember.Tensor) -> ember.Tensor:
    return t * t


def process_args_child(t: ember.Tensor, q: Any) -> None:
    t.add_(5)
    q.put(t.is_shared())


def send_then_wait(q: Any, strategy: str) -> None:
    """Sends a shared tensor and waits to be killed."""
    import ember.multiprocessing as mp

    mp.set_sharing_strategy(strategy)
    t = ember.arange(1000.0)
    q.put(t)
    time.sleep(60)


def receive_then_wait(q: Any, ready: Any) -> None:
    t = q.get()
    ready.put(float(t.sum().item()))
    time.sleep(60)


def spawn_ok(i: int, t: ember.Tensor) -> None:
    t[i] = float(i + 1)


def spawn_raise(i: int) -> None:
    if i == 1:
        raise ValueError("boom from rank 1")
    time.sleep(30)


def spawn_kill_self(i: int) -> None:
    if i == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(30)


def spawn_exit_code(i: int) -> None:
    os._exit(3)


def nn_tensors_roundtrip(q_in: Any, q_out: Any) -> None:
    """For each object from q_in (None ends): reports what arrived, then adds 1 in place.

    Reports (type name, requires_grad, is_shared, persistent or None, data_ptr per tensor).
    """
    while True:
        obj = q_in.get()
        if obj is None:
            return
        items = obj if isinstance(obj, tuple) else (obj,)
        q_out.put(
            [
                (
                    type(t).__name__,
                    t.requires_grad,
                    t.is_shared(),
                    getattr(t, "persistent", None),
                    t.data_ptr(),
                    t.tolist(),
                )
                for t in items
            ]
        )
        for t in items:
            t.data.add_(1)
        q_out.put("done")


def bump_module_parameters(module: Any, q: Any) -> None:
    """A spawned Hogwild-style worker: reports its parameters' types, then adds 1 to each."""
    q.put([(type(p).__name__, p.requires_grad, p.is_shared()) for p in module.parameters()])
    for p in module.parameters():
        p.data.add_(1)
