"""Hand-assembled torch.save archives (no torch needed): a protocol-2 pickle written opcode by
opcode, so tests can name any global (torch's rebuilders, os.system, ...) and any storage."""

from __future__ import annotations

import io
import pickle
import zipfile
from typing import Any


class PickleWriter:
    """Appends protocol-2 opcodes; plain values go in as pickle's own encoding of them."""

    def __init__(self) -> None:
        self.out = bytearray(b"\x80\x02")

    def glob(self, module: str, name: str) -> PickleWriter:
        self.out += b"c" + f"{module}\n{name}\n".encode()
        return self

    def value(self, v: Any) -> PickleWriter:
        self.out += pickle.dumps(v, protocol=2)[2:-1]  # without PROTO and STOP
        return self

    def op(self, code: bytes) -> PickleWriter:
        self.out += code
        return self

    def storage(
        self, key: str, numel: int, kind: str = "FloatStorage", location: str = "cpu"
    ) -> PickleWriter:
        self.op(b"(").value("storage").glob("torch", kind).value(key).value(location).value(numel)
        return self.op(b"t").op(b"Q")  # TUPLE, BINPERSID

    def tensor(
        self,
        key: str,
        numel: int,
        size: tuple[int, ...],
        stride: tuple[int, ...],
        offset: int = 0,
        kind: str = "FloatStorage",
        location: str = "cpu",
    ) -> PickleWriter:
        self.glob("torch._utils", "_rebuild_tensor_v2").op(b"(")
        self.storage(key, numel, kind, location)
        self.value(offset).value(size).value(stride).value(False)
        self.glob("collections", "OrderedDict").op(b")").op(b"R")  # backward hooks: OrderedDict()
        return self.op(b"t").op(b"R")

    def done(self) -> bytes:
        return bytes(self.out + b".")


def archive(
    data_pkl: bytes, storages: dict[str, bytes] | None = None, root: str = "archive"
) -> bytes:
    """A zip laid out as torch.save writes it (stored, one root folder)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        z.writestr(f"{root}/data.pkl", data_pkl)
        z.writestr(f"{root}/byteorder", b"little")
        for key, raw in (storages or {}).items():
            z.writestr(f"{root}/data/{key}", raw)
        z.writestr(f"{root}/version", b"3\n")
    return buffer.getvalue()


def overlapping_archive(data_pkl: bytes, storages: dict[str, bytes]) -> bytes:
    """Like :func:`archive`, but the last storage's directory entry points at the first's bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", data_pkl)
        for key, raw in storages.items():
            z.writestr(f"archive/data/{key}", raw)
        infos = [i for i in z.infolist() if "/data/" in i.filename]
        infos[-1].header_offset = infos[0].header_offset
    return buffer.getvalue()
