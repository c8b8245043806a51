"""One worker's result channel: pickled messages with their tensors' descriptors alongside.

multiprocessing's default for a descriptor in a message is its resource sharer: the receiver
opens a new authenticated connection to the sender per tensor. Here the worker sends the
descriptors of a batch's shared-memory tensors over the result socket itself (SCM_RIGHTS,
right after the message), so a batch costs one message, whatever it holds.
"""

from __future__ import annotations

import socket
from multiprocessing import reduction
from multiprocessing.connection import Connection
from typing import Any

from ember.multiprocessing._reductions import fds_collected, fds_received

_MAX_FDS = 250  # the kernel takes at most 253 descriptors per message (SCM_MAX_FD)


class ResultChannel:
    """A socket Connection (``Pipe(duplex=True)``) plus the same socket for descriptors."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.sock: socket.socket | None = None

    def _sock(self) -> socket.socket:
        if self.sock is None:
            self.sock = socket.fromfd(self.conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM)
        return self.sock

    def send(self, obj: Any) -> None:
        with fds_collected() as fds:
            payload = reduction.ForkingPickler.dumps(obj)
        self.conn.send_bytes(len(fds).to_bytes(4, "little") + bytes(payload))
        for start in range(0, len(fds), _MAX_FDS):
            reduction.sendfds(self._sock(), fds[start : start + _MAX_FDS])

    def recv(self) -> Any:
        buf = self.conn.recv_bytes()
        count = int.from_bytes(buf[:4], "little")
        fds: list[int] = []
        while len(fds) < count:
            chunk = min(_MAX_FDS, count - len(fds))
            fds.extend(reduction.recvfds(self._sock(), chunk))
        with fds_received(fds):
            return reduction.ForkingPickler.loads(buf[4:])

    def poll(self) -> bool:
        return self.conn.poll()

    def fileno(self) -> int:
        return self.conn.fileno()

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        self.conn.close()

    def __getstate__(self) -> dict[str, Any]:
        return {"conn": self.conn}  # the socket object is per process

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.conn = state["conn"]
        self.sock = None
