"""A drop-in for the standard ``multiprocessing`` module that shares ember tensors.

Every name of ``multiprocessing`` is re-exported. Importing this module registers pickling
reductions, so tensors sent through Queue, SimpleQueue, Pipe, Pool or as Process arguments
move to shared memory (``Tensor.share_memory_``) and arrive as views of the same memory.

Example:
    >>> import ember.multiprocessing as mp
    >>> q = mp.get_context("spawn").SimpleQueue()
"""

from __future__ import annotations

import multiprocessing
from multiprocessing import *  # noqa: F403

from ember.multiprocessing._reductions import init_reductions
from ember.multiprocessing._sharing import (
    get_all_sharing_strategies,
    get_sharing_strategy,
    set_sharing_strategy,
)
from ember.multiprocessing._spawn import (
    ProcessContext,
    ProcessException,
    ProcessExitedException,
    ProcessRaisedException,
    spawn,
    start_processes,
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

init_reductions()
