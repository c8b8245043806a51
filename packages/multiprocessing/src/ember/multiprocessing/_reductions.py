"""Pickling reductions that send ember tensors through shared memory.

Registered with ``multiprocessing.reduction.ForkingPickler`` when ember.multiprocessing is
imported, so every Queue, SimpleQueue, Pipe, Pool and spawned Process argument uses them. A
tensor is moved to shared memory in place (``share_memory_``) on send; the receiver maps the
same segment, and views of one storage are rebuilt as views of one storage.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import reduction
from typing import Any

from ember._tensor import Tensor
from ember.multiprocessing import _sharing
from ember_core import _C

_channel = threading.local()  # .sink: fds being collected; .source: fds received


class _FdSlot:
    """Stands for the i-th descriptor sent alongside a message (see ``fds_collected``)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def detach(self) -> int:
        source: list[int] | None = getattr(_channel, "source", None)
        if source is None:
            raise RuntimeError(
                "[rebuild_tensor] this tensor was pickled for a channel that sends its file "
                "descriptors alongside the message; unpickle it with fds_received()"
            )
        fd = source[self.index]
        source[self.index] = -1  # the storage owns it now
        return fd


@contextmanager
def fds_collected() -> Iterator[list[int]]:
    """While active, pickled tensors name their descriptors by position in the yielded list
    instead of going through multiprocessing's resource sharer (one connection per tensor):
    the caller sends the list itself, with ``multiprocessing.reduction.sendfds``."""
    fds: list[int] = []
    _channel.sink = fds
    try:
        yield fds
    finally:
        _channel.sink = None


@contextmanager
def fds_received(fds: list[int]) -> Iterator[None]:
    """Unpickles tensors pickled under ``fds_collected`` with the descriptors that came along;
    descriptors no tensor took are closed."""
    import os

    source = list(fds)
    _channel.source = source
    try:
        yield
    finally:
        _channel.source = None
        for fd in source:
            if fd >= 0:
                os.close(fd)


def _rebuild_tensor(
    cls: type,
    strategy: str,
    name: str,
    fd_source: Any,
    nbytes: int,
    offset: int,
    sizes: tuple[int, ...],
    strides: tuple[int, ...],
    dtype: Any,
    requires_grad: bool,
    conj: bool,
) -> Tensor:
    if strategy == "file_system":
        _sharing.ensure_tracker()
        fd = -1
    else:
        fd = fd_source.detach()  # a descriptor of our own: the storage keeps or closes it
    t: Tensor = _C._shm_rebuild(strategy, name, fd, nbytes, offset, sizes, strides, dtype)
    if conj:
        t = t.conj()
    if cls is not Tensor:
        try:  # a subclass such as nn.Parameter takes (data, requires_grad)
            rebuilt: Tensor = cls(t, requires_grad)
            return rebuilt
        except TypeError:
            pass
    if requires_grad:
        t.requires_grad_(True)
    return t


def reduce_tensor(tensor: Tensor) -> tuple[Any, tuple[Any, ...]]:
    """The reduction of a tensor for ForkingPickler: its storage moves to shared memory.

    Raises:
        RuntimeError: for a non-leaf tensor that requires grad (autograd does not cross
            process boundaries; send ``tensor.detach()``).
    """
    if tensor.requires_grad and not getattr(tensor, "is_leaf", True):
        raise RuntimeError(
            "[reduce_tensor] cowardly refusing to serialize a non-leaf tensor which requires "
            "grad, since autograd does not support crossing process boundaries; if you just "
            "want to transfer the data, call detach() on the tensor before sending it"
        )
    native: Any = tensor
    native.share_memory_()
    strategy, name, fd, nbytes = _C._shm_export(tensor)
    fd_source: Any = None
    if strategy == "file_descriptor":
        sink: list[int] | None = getattr(_channel, "sink", None)
        if sink is not None:
            fd_source = _FdSlot(len(sink))
            sink.append(fd)
        else:
            fd_source = reduction.DupFd(fd)
    return (
        _rebuild_tensor,
        (
            type(tensor),
            strategy,
            name,
            fd_source,
            nbytes,
            native.storage_offset(),
            tuple(native.shape),
            tuple(native.stride()),
            tensor.dtype,
            bool(tensor.requires_grad),
            bool(native.is_conj()),
        ),
    )


def init_reductions() -> None:
    """Registers reduce_tensor for Tensor (and subclasses) with ForkingPickler."""
    reduction.ForkingPickler.register(Tensor, reduce_tensor)
