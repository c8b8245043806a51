"""Reading torch's legacy (non-zip) checkpoints, ``torch.save(obj, f,
_use_new_zipfile_serialization=False)``, with the zip path's safety (docs/serialization.md).

The file is five pickles and the storages' bytes: the magic number, the protocol version
(1001), a sys-info dict, the main pickle (storages as persistent ids), the sorted list of
storage keys, then per key an int64 element count and the raw little-endian bytes. Every read
is bounded by the file's length, every storage is allocated only when the rest of the file can
hold it, and the main pickle goes through the same unpicklers as zip checkpoints.
"""

from __future__ import annotations

import struct
from typing import IO, Any

from ember import _torch_format
from ember._weights_only import RestrictedUnpickler, UnpicklingError, fail
from ember_core import _C

__all__ = ["MAGIC_NUMBER", "PROTOCOL_VERSION", "is_torch_legacy", "load_torch_legacy"]

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
# How any pickle protocol >= 2 spells the magic number: LONG1, 10 bytes, little-endian.
_MAGIC_BYTES = b"\x8a\x0a" + MAGIC_NUMBER.to_bytes(10, "little")


def is_torch_legacy(prefix: bytes) -> bool:
    """Whether a file starting with ``prefix`` (its first 32 bytes) is a legacy torch file."""
    return prefix[:1] == b"\x80" and _MAGIC_BYTES in prefix[:32]


class _Reader:
    """The file from its start, never read past ``size`` bytes: a short read is an error."""

    def __init__(self, fh: IO[bytes], size: int) -> None:
        self._fh, self.size, self.position = fh, size, 0

    def _claim(self, n: int) -> int:
        n = min(n, self.size - self.position) if n >= 0 else self.size - self.position
        self.position += n
        return n

    def read(self, n: int = -1) -> bytes:
        data = self._fh.read(self._claim(n))
        if len(data) < n:
            raise fail(f"the file ends {n - len(data)} bytes early (truncated?)")
        return data

    def readinto(self, target: Any) -> int:
        view = memoryview(target).cast("B")
        want = len(view)
        self._claim(want)
        filled = 0
        while filled < want:
            got = self._fh.readinto(view[filled:])  # type: ignore[attr-defined]
            if not got:
                break
            filled += got
        if filled < want:
            raise fail(f"the file ends {want - filled} bytes early (truncated?)")
        return filled

    def readline(self) -> bytes:
        line = bytearray()
        while not line.endswith(b"\n"):
            if self.position >= self.size:
                break
            line += self.read(1)
        return bytes(line)

    def remaining(self) -> int:
        return self.size - self.position


class _Storages:
    """Storages allocated as the main pickle names them, filled after it; the bytes they claim
    (with their 8-byte counts) must fit in what is left of the file."""

    def __init__(self, reader: _Reader) -> None:
        self.reader = reader
        self.claimed = 0
        self.bases: dict[str, Any] = {}
        self.numels: dict[str, int] = {}

    def storage(self, key: str, nbytes: int, numel: int) -> Any:
        self.claimed += nbytes + 8
        if self.claimed > self.reader.remaining():
            raise fail(
                f"storage {key!r} declares {nbytes} bytes: the storages need {self.claimed} "
                f"bytes but only {self.reader.remaining()} remain in the file"
            )
        base = _C.empty(nbytes, dtype=_C.uint8)  # filled once the main pickle is read
        self.bases[key], self.numels[key] = base, numel
        return base


def _small_pickle(reader: _Reader, what: str) -> Any:
    """One of the header pickles: plain values only (no global is allowed)."""
    try:
        return RestrictedUnpickler(reader, {}).load()
    except UnpicklingError:
        raise
    except Exception as error:  # EOFError, pickle's own errors on malformed bytes
        raise fail(f"the legacy checkpoint's {what} is malformed: {error}") from None


def _check_header(reader: _Reader) -> None:
    magic = _small_pickle(reader, "magic number")
    if magic != MAGIC_NUMBER:
        raise fail("invalid magic number: not a torch checkpoint (corrupt file?)")
    version = _small_pickle(reader, "protocol version")
    if version != PROTOCOL_VERSION:
        raise fail(f"invalid legacy protocol version {version!r:.40} (torch writes 1001)")
    info = _small_pickle(reader, "sys info")
    if not isinstance(info, dict) or info.get("protocol_version") != PROTOCOL_VERSION:
        raise fail(f"invalid sys info {info!r:.100}")
    if info.get("little_endian") is not True:
        raise fail("the checkpoint was written big-endian (not supported)")


def load_torch_legacy(fh: IO[bytes], size: int, map_location: Any, weights_only: bool) -> Any:
    """Loads a legacy ``torch.save`` checkpoint from ``fh`` (``size`` bytes from its start)."""
    reader = _Reader(fh, size)
    _check_header(reader)
    storages = _Storages(reader)
    loaded = _torch_format.unpickle(reader, storages, map_location, weights_only, legacy=True)
    keys = _small_pickle(reader, "storage key list")
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise fail(f"the storage key list is not a list of str: {keys!r:.100}")
    if len(set(keys)) != len(keys) or set(keys) != set(storages.bases):
        raise fail(
            f"the storage key list {keys!r:.100} does not match the storages the pickle names "
            f"({sorted(storages.bases)!r:.100})"
        )
    for key in keys:
        base = storages.bases[key]
        (count,) = struct.unpack("<q", reader.read(8))
        if count != storages.numels[key]:
            raise fail(
                f"storage {key!r} holds {count} elements in the file, but the pickle "
                f"declares {storages.numels[key]}"
            )
        if base.numel():
            reader.readinto(memoryview(base))
    return loaded
