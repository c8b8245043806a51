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
        self,
        key: str,
        numel: int,
        kind: str = "FloatStorage",
        location: str = "cpu",
        legacy: bool = False,
    ) -> PickleWriter:
        self.op(b"(").value("storage").glob("torch", kind).value(key).value(location).value(numel)
        if legacy:
            self.value(None)  # the legacy format's sixth field: no view metadata
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
        legacy: bool = False,
    ) -> PickleWriter:
        self.glob("torch._utils", "_rebuild_tensor_v2").op(b"(")
        self.storage(key, numel, kind, location, legacy)
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


LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
LEGACY_SYS_INFO = {
    "protocol_version": 1001,
    "little_endian": True,
    "type_sizes": {"short": 2, "int": 4, "long": 4},
}


def legacy_file(
    main_pkl: bytes,
    storages: dict[str, tuple[int, bytes]] | None = None,
    keys: list[str] | None = None,
    magic: int = LEGACY_MAGIC,
    version: int = 1001,
    sys_info: Any = None,
) -> bytes:
    """A file laid out as torch.save(..., _use_new_zipfile_serialization=False) writes it: three
    header pickles, the main pickle, the key list, then per storage an int64 count and bytes."""
    storages = storages or {}
    out = bytearray()
    for header in (magic, version, LEGACY_SYS_INFO if sys_info is None else sys_info):
        out += pickle.dumps(header, protocol=2)
    out += main_pkl
    out += pickle.dumps(sorted(storages) if keys is None else keys, protocol=2)
    for key in sorted(storages):
        count, raw = storages[key]
        out += count.to_bytes(8, "little", signed=True) + raw
    return bytes(out)
