"""A drop-in for the standard ``multiprocessing`` module that shares ember tensors.

Every name of ``multiprocessing`` is re-exported. Importing this module registers pickling
reductions, so tensors sent through Queue, SimpleQueue, Pipe, Pool or as Process arguments
move to shared memory (``Tensor.share_memory_``) and arrive as views of the same memory.

Example:
    >>> import ember.multiprocessing as mp
    >>> q = mp.get_context("spawn").SimpleQueue()
"""

from __future__ import annotations

import importlib
import multiprocessing
from multiprocessing import *  # noqa: F403
from typing import TYPE_CHECKING, Any

from ember.multiprocessing._reductions import init_reductions
from ember.multiprocessing._sharing import (
    get_all_sharing_strategies,
    get_sharing_strategy,
    set_sharing_strategy,
)

if TYPE_CHECKING:
    from ember.multiprocessing._spawn import (
        ProcessContext,
        ProcessException,
        ProcessExitedException,
        ProcessRaisedException,
        spawn,
        start_processes,
    )

# spawn/start_processes load on first use: a DataLoader worker needs only the reductions.
_SPAWN_NAMES = frozenset(
    {
        "ProcessContext",
        "ProcessException",
        "ProcessExitedException",
        "ProcessRaisedException",
        "spawn",
        "start_processes",
    }
)

__all__ = [
    *multiprocessing.__all__,
    "ProcessContext",
    "ProcessException",
    "ProcessExitedException",
    "ProcessRaisedException",
    "get_all_sharing_strategies",
    "get_sharing_strategy",
    "init_reductions",
    "set_sharing_strategy",
    "spawn",
    "start_processes",
]


def __getattr__(name: str) -> Any:
    if name not in _SPAWN_NAMES:
        raise AttributeError(f"module 'ember.multiprocessing' has no attribute {name!r}")
    value = getattr(importlib.import_module("ember.multiprocessing._spawn"), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


init_reductions()
