"""Reading ``torch.save``'s zip checkpoints without running code (docs/serialization.md).

The archive is checked first (one root folder, no duplicate or overlapping entries, stored
entries only: torch never compresses, so every size is bounded by the file's). ``data.pkl`` is
then read by the weights-only unpickler (``_weights_only``) over :data:`ALLOWED`, ember's own
rebuild functions that check every argument, plus the user allowlist, where a ``torch.*`` name
also matches the ember object it stands for; storages come from ``persistent_load``, which
checks each key, dtype and size against its zip entry before any tensor views it. The legacy
format (``_torch_legacy``) shares the unpicklers. ``weights_only=False`` swaps in an unpickler
that imports what the file names: only for files the caller trusts.
"""

from __future__ import annotations

import collections
import importlib
import io
import pickle
import pickletools
import re
import struct
import sys
import zipfile
import zlib
from typing import IO, Any

from ember._dtype import is_tensor
from ember._weights_only import (
    RestrictedUnpickler,
    UnpicklingError,
    builtin_builder,
    codecs_encode,
    fail,
)
from ember_core import _C

__all__ = ["ALLOWED", "UnpicklingError", "is_torch_zip", "load_torch_zip"]

_ZIP_MAGIC = b"PK\x03\x04"
_ZIP_LOCAL_HEADER = 30  # bytes before a member's name in its local header


def _fail(message: str) -> UnpicklingError:
    return fail(message)


def is_torch_zip(prefix: bytes) -> bool:
    """Whether a file starting with ``prefix`` is a zip archive (torch.save's format)."""
    return prefix.startswith(_ZIP_MAGIC)


# ---- what a weights-only pickle may name.


class _StorageType:
    """A torch storage class named in a persistent id (``torch.FloatStorage``): its dtype."""

    __slots__ = ("dtype", "name")

    def __init__(self, name: str, dtype: Any) -> None:
        self.name, self.dtype = name, dtype


_STORAGE_DTYPES = {
    "FloatStorage": _C.float32, "DoubleStorage": _C.float64, "HalfStorage": _C.float16,
    "BFloat16Storage": _C.bfloat16, "LongStorage": _C.int64, "IntStorage": _C.int32,
    "ShortStorage": _C.int16, "CharStorage": _C.int8, "ByteStorage": _C.uint8,
    "BoolStorage": _C.bool, "ComplexFloatStorage": _C.complex64,
    "ComplexDoubleStorage": _C.complex128, "UntypedStorage": _C.uint8,
}  # fmt: skip
_DTYPE_NAMES = {
    "float32": _C.float32, "float64": _C.float64, "float16": _C.float16, "bfloat16": _C.bfloat16,
    "int64": _C.int64, "int32": _C.int32, "int16": _C.int16, "int8": _C.int8, "uint8": _C.uint8,
    "bool": _C.bool, "complex64": _C.complex64, "complex128": _C.complex128,
    "uint16": _C.uint16, "uint32": _C.uint32, "uint64": _C.uint64,
}  # fmt: skip


class _Storage:
    """One storage of the archive: a uint8 tensor holding its bytes, and its dtype."""

    __slots__ = ("base", "dtype", "numel")

    def __init__(self, base: Any, dtype: Any, numel: int) -> None:
        self.base, self.dtype, self.numel = base, dtype, numel


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_tuple(value: Any, what: str) -> list[int]:
    if not isinstance(value, (tuple, list)) or not all(_is_int(v) for v in value):
        raise _fail(f"the tensor's {what} must be a tuple of ints, got {value!r:.80}")
    if len(value) > 64:
        raise _fail(f"the tensor's {what} has {len(value)} dims (at most 64)")
    return list(value)


def _empty_hooks(hooks: Any) -> None:
    if hooks is not None and not (isinstance(hooks, dict) and not hooks):
        raise _fail("tensors with backward hooks are not loaded with weights_only=True")


def _rebuild_tensor_v2(
    storage: Any,
    storage_offset: Any,
    size: Any,
    stride: Any,
    requires_grad: Any = False,
    backward_hooks: Any = None,
    metadata: Any = None,
) -> Any:
    """``torch._utils._rebuild_tensor_v2``: a view of a checked storage, bounds checked."""
    if not isinstance(storage, _Storage):
        raise _fail(f"a tensor must be built over a storage, got {type(storage).__name__}")
    if not _is_int(storage_offset) or storage_offset < 0:
        raise _fail(f"invalid storage offset {storage_offset!r:.40}")
    sizes, strides = _int_tuple(size, "size"), _int_tuple(stride, "stride")
    if len(sizes) != len(strides) or any(s < 0 for s in sizes):
        raise _fail(f"invalid tensor geometry: size {sizes}, stride {strides}")
    if not isinstance(requires_grad, bool):
        raise _fail(f"requires_grad must be a bool, got {requires_grad!r:.40}")
    _empty_hooks(backward_hooks)
    try:
        t = _C._view_storage(storage.base, storage.dtype, sizes, strides, storage_offset)
    except ValueError as error:
        raise _fail(f"a tensor reaches outside its storage: {error}") from None
    if metadata is not None:
        if not isinstance(metadata, dict) or set(metadata) - {"conj", "neg"}:
            raise _fail(f"unsupported tensor metadata {metadata!r:.80}")
        if metadata.get("neg"):
            t = t.neg()  # ember has no lazy negation: the values the view shows
        if metadata.get("conj"):
            t = t.conj()
    if requires_grad and _C._has_grad_recorder():
        t = t.requires_grad_(True)
    return t


def _rebuild_tensor_v3(
    storage: Any,
    storage_offset: Any,
    size: Any,
    stride: Any,
    requires_grad: Any,
    backward_hooks: Any,
    dtype: Any,
    metadata: Any = None,
) -> Any:
    """``torch._utils._rebuild_tensor_v3`` (torch writes it for uint16/32/64): an untyped storage
    read as ``dtype``, then the checks of ``_rebuild_tensor_v2``."""
    if not isinstance(storage, _Storage):
        raise _fail(f"a tensor must be built over a storage, got {type(storage).__name__}")
    if not isinstance(dtype, _C.dtype):
        raise _fail(f"the tensor's dtype must be a dtype, got {dtype!r:.40}")
    nbytes = storage.numel * storage.dtype.itemsize
    if nbytes % dtype.itemsize:
        raise _fail(f"a storage of {nbytes} bytes does not hold whole {dtype} elements")
    typed = _Storage(storage.base, dtype, nbytes // dtype.itemsize)
    return _rebuild_tensor_v2(
        typed, storage_offset, size, stride, requires_grad, backward_hooks, metadata
    )


def _rebuild_tensor(storage: Any, storage_offset: Any, size: Any, stride: Any) -> Any:
    """``torch._utils._rebuild_tensor`` (older files)."""
    return _rebuild_tensor_v2(storage, storage_offset, size, stride)


def _rebuild_parameter(data: Any, requires_grad: Any, backward_hooks: Any) -> Any:
    """``torch._utils._rebuild_parameter``: an ``ember.nn.Parameter`` when ember-nn is installed,
    else the tensor (with ``requires_grad`` when ember-autograd is)."""
    if not is_tensor(data):
        raise _fail(f"a parameter must hold a tensor, got {type(data).__name__}")
    if not isinstance(requires_grad, bool):
        raise _fail(f"requires_grad must be a bool, got {requires_grad!r:.40}")
    _empty_hooks(backward_hooks)
    parameter = _parameter_class()
    if parameter is not None:
        return parameter(data, requires_grad=requires_grad)
    if requires_grad and _C._has_grad_recorder():
        data.requires_grad_(True)
    return data


def _rebuild_parameter_with_state(
    data: Any, requires_grad: Any, backward_hooks: Any, state: Any
) -> Any:
    """``torch._utils._rebuild_parameter_with_state``: only an empty state is accepted."""
    if state:
        raise _fail("parameters with extra Python state are not loaded with weights_only=True")
    return _rebuild_parameter(data, requires_grad, backward_hooks)


def _parameter_class() -> Any:
    try:
        from ember import nn
    except ImportError:
        return None
    return getattr(nn, "Parameter", None)


def _size(dims: Any = ()) -> Any:
    from ember._tensor import Size

    return Size(_int_tuple(dims, "Size"))


def _device(kind: Any, index: Any = None) -> Any:
    from ember._device import device

    if not isinstance(kind, str) or not (index is None or _is_int(index)):
        raise _fail(f"invalid device ({kind!r:.40}, {index!r:.20})")
    return device(kind) if index is None else device(kind, index)


def _allowlist() -> dict[str, Any]:
    table: dict[str, Any] = {
        "torch._utils._rebuild_tensor_v2": _rebuild_tensor_v2,
        "torch._utils._rebuild_tensor_v3": _rebuild_tensor_v3,
        "torch._utils._rebuild_tensor": _rebuild_tensor,
        "torch._utils._rebuild_parameter": _rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": _rebuild_parameter_with_state,
        "collections.OrderedDict": collections.OrderedDict,
        "torch.Size": _size,
        "torch.device": _device,
        "_codecs.encode": codecs_encode,
    }
    for module in ("builtins", "__builtin__"):  # protocol 2 spells builtins "__builtin__"
        for cls in (set, frozenset, bytearray, complex, slice, range):
            table[f"{module}.{cls.__name__}"] = builtin_builder(cls)
    for name, dtype in _STORAGE_DTYPES.items():
        table[f"torch.{name}"] = _StorageType(name, dtype)
    table["torch.storage.UntypedStorage"] = table["torch.UntypedStorage"]
    for name, dtype in _DTYPE_NAMES.items():
        table[f"torch.{name}"] = dtype
    return table


#: Every global a weights-only checkpoint may name (``"module.name"``), documented in
#: docs/serialization.md; anything else is refused.
ALLOWED: dict[str, Any] = _allowlist()


# ---- the archive.


class _Archive:
    """A checked torch zip archive: its root folder and members, read on demand."""

    def __init__(self, fh: IO[bytes], size: int) -> None:
        self._fh = fh
        self._limit = fh.tell() + size  # the file's end, in fh's offsets (as header_offset)
        try:
            self.zip = zipfile.ZipFile(fh)
        except Exception as error:  # zipfile's parse errors come in many types
            raise _fail(f"not a valid torch checkpoint (zip archive): {error}") from None
        infos = self.zip.infolist()
        names = [i.filename for i in infos]
        if len(set(names)) != len(names):
            raise _fail("the zip archive names a member twice")
        pickles = [n for n in names if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise _fail("a torch checkpoint holds exactly one <root>/data.pkl")
        self.root = pickles[0][: -len("data.pkl")]
        if any(not n.startswith(self.root) for n in names):
            raise _fail("the zip archive's members are not all under one root folder")
        self.members = {i.filename: i for i in infos}
        end = 0
        for info in sorted(infos, key=lambda i: i.header_offset):
            if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
                raise _fail(f"member {info.filename!r} is compressed (torch never compresses)")
            if info.header_offset < end:
                raise _fail(f"member {info.filename!r} overlaps the one before it")
            end = info.header_offset + _ZIP_LOCAL_HEADER + len(info.orig_filename)
            end += info.compress_size
            if end > size:
                raise _fail(f"member {info.filename!r} reaches past the end of the file")
        order = self.members.get(self.root + "byteorder")
        if order is not None and self.read(order) != b"little":
            raise _fail("the checkpoint was written big-endian (not supported)")

    def read(self, info: zipfile.ZipInfo) -> bytes:
        try:
            return self.zip.read(info)
        except Exception as error:  # a bad CRC, a truncated member, a mismatched local header
            raise _fail(f"member {info.filename!r} cannot be read: {error}") from None

    def storage(self, key: str, nbytes: int, numel: int) -> Any:
        """The bytes of ``data/<key>``, which must hold exactly ``nbytes`` (``numel`` items)."""
        info = self.members.get(f"{self.root}data/{key}")
        if info is None:
            raise _fail(f"storage {key!r} has no entry data/{key} in the archive")
        if info.file_size != nbytes:
            raise _fail(
                f"storage {key!r} declares {nbytes} bytes but its entry holds {info.file_size}"
            )
        base: Any = _C.empty(nbytes, dtype=_C.uint8)  # ember's allocator: aligned for any dtype
        if nbytes:
            self._read_into(info, memoryview(base))
        return base

    def _read_into(self, info: zipfile.ZipInfo, target: memoryview) -> None:
        """A stored member's bytes read straight into ``target`` (one copy), CRC checked."""
        fh = self._fh
        fh.seek(info.header_offset)
        local = fh.read(_ZIP_LOCAL_HEADER)
        if len(local) != _ZIP_LOCAL_HEADER or not local.startswith(_ZIP_MAGIC):
            raise _fail(f"member {info.filename!r} has no valid local header")
        name_length, extra_length = struct.unpack("<HH", local[26:30])
        encoding = "utf-8" if info.flag_bits & 0x800 else "cp437"
        if fh.read(name_length) != info.orig_filename.encode(encoding):
            raise _fail(f"member {info.filename!r}: its local header names another file")
        start = info.header_offset + _ZIP_LOCAL_HEADER + name_length + extra_length
        if start + len(target) > self._limit:
            raise _fail(f"member {info.filename!r} reaches past the end of the file")
        fh.seek(start)
        filled = 0
        while filled < len(target):
            got = fh.readinto(target[filled:])  # type: ignore[attr-defined]
            if not got:
                raise _fail(f"member {info.filename!r} is truncated")
            filled += got
        if zlib.crc32(target) != info.CRC:
            raise _fail(f"member {info.filename!r} cannot be read: Bad CRC-32")


_KEY = re.compile(r"[0-9A-Za-z_.-]{1,64}")


class _StorageLoader:
    """``persistent_load`` of torch's storage records, checked (every unpickler of torch files).

    ``source.storage(key, nbytes)`` gives the uint8 tensor holding a storage's bytes: the zip
    member, or (legacy files) memory filled after the pickle.
    """

    def _setup(self, source: Any, map_location: Any, legacy: bool = False) -> None:
        self.source = source
        self.map_location = map_location
        self.legacy = legacy  # legacy records carry a sixth field: view metadata
        self.storages: dict[str, _Storage] = {}

    def persistent_load(self, pid: Any) -> Any:
        if self.legacy and isinstance(pid, tuple) and pid[:1] == ("module",):
            return self._module_record(pid)
        fields = 6 if self.legacy else 5
        if not (isinstance(pid, tuple) and len(pid) == fields and pid[0] == "storage"):
            raise _fail(f"unsupported persistent id {pid!r:.100}")
        _, kind, key, location, numel = pid[:5]
        if self.legacy and pid[5] is not None:
            raise _fail(f"storage {key!r:.40} is a view of another storage (pre-1.0 torch files)")
        if isinstance(kind, type) or not isinstance(kind, _StorageType):
            kind = self._storage_type(kind)
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise _fail(f"invalid storage key {key!r:.40}")
        if not isinstance(location, str) or not _is_int(numel) or numel < 0:
            raise _fail(
                f"invalid storage record for key {key!r}: ({location!r:.20}, {numel!r:.20})"
            )
        self._check_location(location)
        dtype = _C.uint8 if kind.name == "UntypedStorage" else kind.dtype
        itemsize = int(_C.empty(0, dtype=dtype).element_size())
        found = self.storages.get(key)
        if found is not None:
            if found.dtype != dtype or found.numel != numel:
                raise _fail(f"storage {key!r} is named twice with different dtypes or sizes")
            return found
        made = _Storage(self.source.storage(key, numel * itemsize, numel), dtype, numel)
        self.storages[key] = made
        return made

    def _module_record(self, pid: Any) -> Any:
        raise _fail(
            "Weights only load failed: the file saves a whole module the legacy way "
            "(persistent id 'module'), which only weights_only=False loads (as torch)"
        )

    def _storage_type(self, kind: Any) -> _StorageType:
        raise _fail(f"unsupported storage type {kind!r:.60}")

    def _check_location(self, location: str) -> None:
        if location == "cpu" or self.map_location is not None:
            return
        raise RuntimeError(
            f"[load] Attempting to deserialize object on device {location!r}: ember tensors live "
            "on the CPU. Pass map_location='cpu' (or ember.device('cpu')) to load it there."
        )


def _ember_spelling(module: str, name: str, import_modules: bool) -> Any:
    """The ember object a ``torch.*`` name stands for (``torch.nn.modules.linear.Linear`` is
    ``ember.nn.modules.linear.Linear``), or None. ``import_modules=False`` looks only at modules
    already imported."""
    if module != "torch" and not module.startswith("torch."):
        return None
    target = "ember" + module[len("torch") :]
    found: Any = sys.modules.get(target)
    if found is None and import_modules:
        try:
            found = importlib.import_module(target)
        except ImportError:
            return None
    for part in name.split("."):
        found = getattr(found, part, None)
    return found


class _WeightsOnlyUnpickler(_StorageLoader, RestrictedUnpickler):
    """The default: :data:`ALLOWED` plus the user allowlist (``add_safe_globals``), where a
    torch name also matches the ember object it stands for."""

    def __init__(self, data: IO[bytes], source: Any, map_location: Any, legacy: bool = False):
        RestrictedUnpickler.__init__(self, data, ALLOWED)
        self._setup(source, map_location, legacy)
        self._user_ids = {id(v) for v in self.user.values()}

    def alias(self, module: str, name: str) -> Any:
        found = _ember_spelling(module, name, import_modules=False)
        return found if found is not None and id(found) in self._user_ids else None


class _FullUnpickler(_StorageLoader, pickle.Unpickler):
    """``weights_only=False``: torch's rebuilders map to ember's, torch's other names to ember's
    objects where ember has them, anything else is imported."""

    def __init__(self, data: IO[bytes], source: Any, map_location: Any, legacy: bool = False):
        pickle.Unpickler.__init__(self, data)
        self._setup(source, map_location, legacy)

    def find_class(self, module: str, name: str) -> Any:
        key = f"{module}.{name}"
        if key in ALLOWED:
            return ALLOWED[key]
        found = _ember_spelling(module, name, import_modules=True)
        if found is not None:
            return found
        return super().find_class(module, name)

    def _module_record(self, pid: Any) -> Any:
        if len(pid) != 4 or not isinstance(pid[1], type):
            raise _fail(f"invalid module record {pid!r:.100}")
        return pid[1]  # the class; torch also diffs its saved source (not done here)

    def _storage_type(self, kind: Any) -> _StorageType:
        name = getattr(kind, "__name__", "")  # a real torch storage class, when torch imported
        if name in _STORAGE_DTYPES:
            return _StorageType(name, _STORAGE_DTYPES[name])
        return super()._storage_type(kind)


def _check_globals(data: bytes, unpickler: Any) -> None:
    """One pass over the pickle before anything runs: a global outside the allowlists is named
    (the usual failure: a whole module was saved), before any storage is allocated."""
    try:
        for opcode, arg, _ in pickletools.genops(data):
            if opcode.name == "PROTO":
                unpickler.proto = arg
            # GLOBAL spells its name; STACK_GLOBAL's (protocol 4+) is checked by find_class.
            if opcode.name == "GLOBAL":
                module, _, name = str(arg).partition(" ")
                unpickler.find_class(module, name)
    except UnpicklingError:
        raise
    except Exception as error:  # pickletools' parse errors
        raise _fail(f"the checkpoint's pickle is malformed: {error}") from None
    unpickler.proto = 0


def unpickle(data: Any, source: Any, map_location: Any, weights_only: bool, legacy: bool) -> Any:
    """The main pickle of a torch file, storages from ``source``."""
    if not weights_only:
        return _FullUnpickler(data, source, map_location, legacy).load()
    unpickler = _WeightsOnlyUnpickler(data, source, map_location, legacy)
    if isinstance(data, io.BytesIO):
        _check_globals(data.getvalue(), unpickler)
    try:
        return unpickler.load()
    except (UnpicklingError, RuntimeError):
        raise
    except Exception as error:  # REDUCE of an allowed callable with bad arguments, bad opcodes
        raise _fail(
            f"the checkpoint's pickle is malformed: {type(error).__name__}: {error}"
        ) from None


def load_torch_zip(fh: IO[bytes], size: int, map_location: Any, weights_only: bool) -> Any:
    """Loads a ``torch.save`` zip checkpoint from ``fh`` (``size`` bytes from its start)."""
    archive = _Archive(fh, size)
    data = archive.read(archive.members[archive.root + "data.pkl"])
    return unpickle(io.BytesIO(data), archive, map_location, weights_only, legacy=False)
