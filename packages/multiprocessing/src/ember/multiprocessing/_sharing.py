"""Sharing strategies: how a tensor's shared-memory segment reaches another process.

``file_descriptor`` (the default): the segment is unlinked from /dev/shm right after it is
mapped, and its open descriptor travels over a Unix socket; nothing can leak, even on SIGKILL.
``file_system``: the segment keeps its name in /dev/shm and receivers open it by name; a
reference count in the segment unlinks it when the last process releases it. A process killed
by SIGKILL never releases its references: the multiprocessing resource tracker then unlinks the
segment once every process of the program has exited.
"""

from __future__ import annotations

import atexit

from ember_core import _C

_ALL_STRATEGIES = frozenset({"file_descriptor", "file_system"})
_tracker_fd_set = False


def get_all_sharing_strategies() -> set[str]:
    """The sharing strategies this platform supports.

    Example:
        >>> sorted(ember.multiprocessing.get_all_sharing_strategies())
        ['file_descriptor', 'file_system']
    """
    return set(_ALL_STRATEGIES)


def get_sharing_strategy() -> str:
    """The strategy new shared-memory segments use (``'file_descriptor'`` by default).

    Example:
        >>> ember.multiprocessing.get_sharing_strategy()
        'file_descriptor'
    """
    strategy: str = _C._shm_get_strategy()
    return strategy


def set_sharing_strategy(new_strategy: str) -> None:
    """Sets the strategy for tensors moved to shared memory from now on, in this process.

    Args:
        new_strategy: ``'file_descriptor'`` or ``'file_system'``.

    Raises:
        ValueError: for any other name.

    Example:
        >>> ember.multiprocessing.set_sharing_strategy("file_system")
        >>> ember.multiprocessing.set_sharing_strategy("file_descriptor")
    """
    if new_strategy not in _ALL_STRATEGIES:
        raise ValueError(
            f"[set_sharing_strategy] unknown sharing strategy {new_strategy!r}; expected one "
            f"of {sorted(_ALL_STRATEGIES)}"
        )
    if new_strategy == "file_system":
        ensure_tracker()
    _C._shm_set_strategy(new_strategy)


def ensure_tracker() -> None:
    """Connects the native layer to multiprocessing's resource tracker (file_system segments).

    The tracker unlinks registered segments left behind when every process has exited, which
    is how segments held by SIGKILLed processes are reclaimed.
    """
    global _tracker_fd_set
    if _tracker_fd_set:
        return
    from multiprocessing import resource_tracker

    _C._shm_set_tracker_fd(resource_tracker.getfd())
    _tracker_fd_set = True


# Segments whose tensors Python never freed before exit drop this process's references.
atexit.register(_C._shm_release_all)
