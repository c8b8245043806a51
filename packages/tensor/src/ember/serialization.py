"""``ember.save`` and ``ember.load``: tensors and plain Python containers in a file that is also
a valid safetensors file, and that runs no code when loaded (unless ``weights_only=False``).
``load`` also reads torch.save's zip and legacy checkpoints (``_torch_format``,
``_torch_legacy``); every pickle goes through the weights-only unpickler (``_weights_only``) and
the allowlist of ``ember.serialization.add_safe_globals`` (``_safe_globals``).

The object tree and the views over shared storage go in the header's ``__metadata__``; each
storage is stored once. The format and its checks are described in docs/serialization.md.
"""

from __future__ import annotations

import contextlib
import io
import mmap as _mmap
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any, BinaryIO, Union

from ember import _safetensors as st
from ember import _save_extras as extras
from ember._device import device as _device
from ember._safe_globals import (
    add_safe_globals,
    clear_safe_globals,
    get_safe_globals,
    get_unsafe_globals_in_checkpoint,
    safe_globals,
    skip_data,
)
from ember_core import _C

__all__ = [
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "get_unsafe_globals_in_checkpoint",
    "load",
    "safe_globals",
    "save",
    "skip_data",
]

FileLike = Union[str, "os.PathLike[str]", IO[bytes]]

_FORMAT_KEY, _FORMAT_VERSION = "ember.format", "1"
_TREE_KEY, _TENSORS_KEY = "ember.tree", "ember.tensors"
# Nesting deeper than this is refused on load (and cannot be produced by save).
_MAX_DEPTH = 100
_SCALAR_KEY_TYPES = (str, int, float, bool, type(None))


def _check_little_endian(op: str) -> None:
    if sys.byteorder != "little":
        raise NotImplementedError(
            f"[{op}] ember files are little-endian; big-endian hosts are not supported yet"
        )


# ---- save: object tree -> (tree JSON, tensors), tensors -> storages.


class _Storage:
    """The bytes of one storage that the saved tensors reach, stored as one entry."""

    def __init__(self, source: Any, dtype: str, begin: int, end: int, tensors: list[int]) -> None:
        self.source = source  # a tensor over the storage
        self.dtype = dtype  # the entry's dtype code: the tensors' common dtype, else U8
        self.begin, self.end = begin, end  # byte range within the storage
        self.tensors = tensors  # indices of the tensors viewing it
        self.mixed = False  # tensors of several dtypes view it (a U8 entry, 16-byte aligned)
        self.padding = 0  # zero bytes written after the range
        self.name = ""
        self.lone = False  # the entry is the one contiguous tensor itself, under its own path


class _Encoder:
    """Turns the object tree into JSON-ready nodes, collecting each distinct tensor once."""

    def __init__(self, allow_pickle: bool = False) -> None:
        self.tensors: list[Any] = []
        self.paths: list[str] = []
        self._index: dict[int, int] = {}
        self._open: set[int] = set()  # containers being encoded: a repeat is a cycle
        self.allow_pickle = allow_pickle
        self.pickled: list[Any] = []  # objects for the pickle section (explicit opt-in only)
        self._keep: list[Any] = []  # numpy arrays indexed by id(): kept alive while encoding

    def encode(self, obj: Any, path: str, depth: int = 0) -> list[Any]:
        if depth > _MAX_DEPTH:
            raise ValueError(f"[save] the object is nested more than {_MAX_DEPTH} levels deep")
        if isinstance(obj, _C.TensorBase):
            if id(obj) not in self._index:
                self._index[id(obj)] = len(self.tensors)
                # A lazy conjugate view is saved with the values it shows, in storage of its own.
                self.tensors.append(obj.resolve_conj() if obj.is_conj() else obj)
                self.paths.append(path)
            return ["tensor", self._index[id(obj)]]
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return self._scalar(obj, path)
        if isinstance(obj, _C.dtype):
            return ["dtype", st.DTYPE_CODES[obj]]
        if isinstance(obj, (list, tuple, dict)):
            if id(obj) in self._open:
                raise ValueError(f"[save] the object contains itself at {path or 'the top'}")
            self._open.add(id(obj))
            try:
                return self._container(obj, path, depth)
            finally:
                self._open.discard(id(obj))
        if extras.is_numpy(obj):
            made = self._numpy(obj, path)
            if made is not None:
                return made
        if self.allow_pickle:
            self.pickled.append(obj)
            return ["pickle", len(self.pickled) - 1, extras.class_name(obj)]
        raise TypeError(
            f"[save] cannot save an object of type {type(obj).__name__} at "
            f"{path or 'the top level'}: ember files hold tensors, numpy arrays, dtypes, dicts, "
            "lists, tuples, str, int, float, bool and None. Save a module's state_dict(), or pass "
            "pickle_module=pickle to store other objects in a pickle section (loading it then "
            "needs weights_only=False)"
        )

    def _numpy(self, obj: Any, path: str) -> list[Any] | None:
        if id(obj) not in self._index:
            t = extras.numpy_tensor(obj)
            if t is None:
                return None
            self._keep.append(obj)
            self._index[id(obj)] = len(self.tensors)
            self.tensors.append(t)
            self.paths.append(path)
        tag = "ndarray" if type(obj).__name__ == "ndarray" else "npscalar"
        return [tag, self._index[id(obj)]]

    def _scalar(self, obj: Any, path: str) -> list[Any]:
        if obj is None:
            return ["none"]
        if isinstance(obj, bool):
            return ["bool", obj]
        if isinstance(obj, int):
            return ["int", str(int(obj))]
        if isinstance(obj, float):
            return ["float", float(obj).hex()]  # exact, and covers inf and nan
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(
                f"[save] the string at {path or 'the top level'} is not valid "
                "Unicode (it holds a lone surrogate)"
            ) from None
        return ["str", str(obj)]

    def _container(
        self, obj: list[Any] | tuple[Any, ...] | dict[Any, Any], path: str, depth: int
    ) -> list[Any]:
        def child(key: Any) -> str:
            return f"{path}.{key}" if path else str(key)

        if isinstance(obj, dict):
            items = []
            for key, value in obj.items():
                if not isinstance(key, _SCALAR_KEY_TYPES):
                    raise TypeError(
                        f"[save] dict keys must be str, int, float, bool or None; "
                        f"got {type(key).__name__} at {path or 'the top level'}"
                    )
                items.append([self._scalar(key, path), self.encode(value, child(key), depth + 1)])
            return ["dict", items]
        nodes = [self.encode(v, child(i), depth + 1) for i, v in enumerate(obj)]
        return ["list" if isinstance(obj, list) else "tuple", nodes]


def _byte_range(t: Any) -> tuple[int, int] | None:
    """The bytes of its storage a tensor can reach, or None when it is empty."""
    if t.numel() == 0:
        return None
    size = t.element_size()
    low = high = t.storage_offset()
    for n, s in zip(t.shape, t.stride(), strict=True):
        if s < 0:
            low += (n - 1) * s
        else:
            high += (n - 1) * s
    return low * size, (high + 1) * size


def _group_storages(tensors: list[Any]) -> list[_Storage]:
    """One _Storage per storage the tensors view, covering the bytes they reach."""
    members_of: dict[int, list[int]] = {}
    for i, t in enumerate(tensors):
        members_of.setdefault(_C._storage_id(t), []).append(i)
    groups = []
    for members in members_of.values():
        spans = [s for s in (_byte_range(tensors[i]) for i in members) if s is not None]
        begin = min((s[0] for s in spans), default=0)
        end = max((s[1] for s in spans), default=0)
        codes = {st.DTYPE_CODES[tensors[i].dtype] for i in members}
        group = _Storage(tensors[members[0]], codes.pop(), begin, end, members)
        if codes:
            # Mixed dtypes: keep the storage's phase modulo the widest item (16 bytes) so that
            # every view stays aligned.
            group.dtype, group.mixed = "U8", True
            group.begin -= group.begin % st.DATA_ALIGNMENT
            group.padding = -group.end % st.DATA_ALIGNMENT
        groups.append(group)
    return groups


def _name_storages(groups: list[_Storage], tensors: list[Any], paths: list[str]) -> None:
    """A lone contiguous tensor's entry takes its path (a plain safetensors reader sees it by
    that name); other storages are named __ember_storage_<k>."""
    used = set()
    for g in groups:
        t, path = tensors[g.tensors[0]], paths[g.tensors[0]]
        lone = len(g.tensors) == 1 and t.is_contiguous()
        if lone and path not in ("", "__metadata__") and path not in used:
            g.name, g.lone = path, True
            used.add(path)
    k = 0
    for g in groups:
        while not g.name:
            candidate = f"__ember_storage_{k}"
            k += 1
            if candidate not in used:
                g.name = candidate
                used.add(candidate)


def _plan(
    obj: Any, pickle_module: Any = None, protocol: int | None = None
) -> tuple[list[st.Entry], list[Any], dict[str, str]]:
    """Entries (aligned: widest dtypes first), their byte chunks and the metadata of a save."""
    encoder = _Encoder(allow_pickle=pickle_module is not None)
    tree = encoder.encode(obj, "")
    tensors = encoder.tensors
    pickle_index = None
    if encoder.pickled:
        data = pickle_module.dumps(encoder.pickled, protocol=protocol)
        pickle_index = len(tensors)
        tensors.append(_C.frombuffer(bytearray(data), dtype=_C.uint8))
        encoder.paths.append(extras.PICKLE_ENTRY)
    groups = _group_storages(tensors)
    _name_storages(groups, tensors, encoder.paths)
    # Entries start at multiples of their item size when sorted by it (the data is 16-aligned).
    groups.sort(key=lambda g: (not g.mixed, -st.ITEMSIZE[g.dtype]))
    entries: list[st.Entry] = []
    chunks: list[Any] = []
    records: list[Any] = [None] * len(tensors)
    position = 0
    for g in groups:
        nbytes = g.end - g.begin + g.padding
        size = st.ITEMSIZE[g.dtype]
        shape = tuple(tensors[g.tensors[0]].shape) if g.lone else (nbytes // size,)
        entries.append(st.Entry(g.name, g.dtype, shape, position, position + nbytes))
        position += nbytes
        chunks.append((g.source, g.begin, g.end, g.padding))
        for i in g.tensors:
            t = tensors[i]
            offset_bytes = t.storage_offset() * t.element_size() - g.begin
            records[i] = {
                "storage": g.name,
                "dtype": st.DTYPE_CODES[t.dtype],
                "shape": list(t.shape),
                "stride": list(t.stride()),
                "offset": offset_bytes // t.element_size() if t.numel() else 0,
            }
    import json  # on first save: json stays out of `import ember`

    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
    metadata = {
        _FORMAT_KEY: _FORMAT_VERSION,
        _TREE_KEY: dumps(tree),
        _TENSORS_KEY: dumps(records),
    }
    if pickle_index is not None:
        metadata[extras.PICKLE_KEY] = str(pickle_index)
    return entries, chunks, metadata


def _chunk_bytes(chunks: list[Any]) -> Iterator[memoryview | bytes]:
    for source, begin, end, padding in chunks:
        if end > begin:
            raw: Any = _C._storage_bytes(source)
            yield memoryview(raw[begin:end])
        if padding:
            yield bytes(padding)


def _atomic_write(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Writes a temporary file next to ``path``, fsyncs it, then renames it over ``path``: a
    failure at any point leaves the previous file as it was."""
    path = os.path.realpath(path)  # write through a symlink, as open() would
    directory = os.path.dirname(path)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.urandom(6).hex()}.tmp")
    # O_EXCL: never follow or reuse someone else's file; 0o666 lets the umask apply as open() does.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))  # keep an existing file's mode
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    # The rename itself is durable only once the directory is synced.
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def save(
    obj: Any,
    f: FileLike,
    pickle_module: Any = None,
    pickle_protocol: int | None = None,
    _use_new_zipfile_serialization: bool = True,
    _disable_byteorder_record: bool = False,
) -> None:
    """Saves tensors (and dicts, lists, tuples, str, int, float, bool, None, dtypes holding them)
    to a file that is also a valid safetensors file.

    Tensors that share storage are stored once and load back sharing it. Saving to a path is
    atomic: the file appears complete or not at all, and an interrupted save leaves any previous
    file intact. A file object is written in place.

    Args:
        obj: what to save, e.g. a state dict ``{"weight": w, "bias": b}``. numpy arrays are
            stored as data and load back as numpy arrays.
        f: a path, or a binary file object opened for writing.
        pickle_module: pickles the objects outside the format (a whole module, your own
            classes; default: the standard ``pickle``, as torch.save) into one pickle section,
            which ``load`` reads only with ``weights_only=False``.
        pickle_protocol: the pickle protocol of that section.
        _use_new_zipfile_serialization, _disable_byteorder_record: accepted for torch
            compatibility; ember writes one format.

    Raises:
        TypeError: ``obj`` holds something other than the types above, or ``f`` is neither a
            path nor a writable binary file.
        ValueError: ``obj`` contains itself, or is nested more than 100 levels deep.

    Example:
        >>> ember.save({"w": ember.ones(2, 3)}, "model.safetensors")
        >>> ember.load("model.safetensors")["w"].shape
        ember.Size([2, 3])
    """
    _check_little_endian("save")
    if pickle_module is None:
        # As torch.save: objects outside the format (a whole module) are pickled; only loading
        # them is the risk, and load refuses the pickle section unless weights_only=False.
        import pickle as pickle_module
    if pickle_module is not None and not callable(getattr(pickle_module, "dumps", None)):
        raise TypeError(f"[save] pickle_module must have a dumps function, got {pickle_module!r}")
    if pickle_protocol is not None and (
        isinstance(pickle_protocol, bool) or not isinstance(pickle_protocol, int)
    ):
        raise TypeError(f"[save] pickle_protocol must be an int, got {pickle_protocol!r}")
    entries, chunks, metadata = _plan(obj, pickle_module, pickle_protocol)

    def write(fh: BinaryIO) -> None:
        st.write_file(fh, entries, _chunk_bytes(chunks), metadata)

    if isinstance(f, (str, os.PathLike)):
        _atomic_write(os.fspath(f), write)
    elif hasattr(f, "write"):
        write(f)  # type: ignore[arg-type]
    else:
        raise TypeError(f"[save] f must be a path or a binary file object, got {type(f).__name__}")


# ---- load: file -> checked entries -> storages -> views -> object tree.


def _check_map_location(map_location: Any) -> None:
    if map_location is None:
        return
    if isinstance(map_location, dict):
        for target in map_location.values():
            _check_map_location(target)
        return
    if callable(map_location):
        raise NotImplementedError(
            "[load] a callable map_location is not supported: ember tensors load on the CPU"
        )
    if not isinstance(map_location, (str, _device)):
        raise TypeError(
            f"[load] map_location must be None, a device, a str or a dict, got "
            f"{type(map_location).__name__}"
        )
    target = _device(map_location)
    if target.type != "cpu":
        raise RuntimeError(
            f"[load] map_location {str(target)!r} is not available: this ember "
            "build has CPU kernels only"
        )


class _Source:
    """The file being loaded: header bytes first, then each entry's bytes in offset order,
    either read into fresh memory or mapped (copy-on-write) from the file."""

    def __init__(self, f: FileLike, use_mmap: bool) -> None:
        self._owned: IO[bytes] | None = None
        self.map: _mmap.mmap | None = None
        if isinstance(f, (str, os.PathLike)):
            self._owned = open(os.fspath(f), "rb")  # noqa: SIM115 - closed by close()
            fh: IO[bytes] = self._owned
        elif hasattr(f, "read"):
            fh = f
        else:
            raise TypeError(
                f"[load] f must be a path or a binary file object, got {type(f).__name__}"
            )
        try:
            self._open(fh, use_mmap)
        except BaseException:
            self.close()
            raise

    def _open(self, fh: IO[bytes], use_mmap: bool) -> None:
        if use_mmap:
            try:
                fileno = fh.fileno()
            except (AttributeError, OSError):
                raise ValueError(
                    "[load] mmap=True needs a path or a file with a descriptor"
                ) from None
            self.origin = fh.tell()  # where the ember file starts in the mapped file
            self.size = os.fstat(fileno).st_size - self.origin
            if self.size >= 8:  # shorter files are reported by header_length
                self.map = _mmap.mmap(fileno, 0, access=_mmap.ACCESS_COPY)
        elif not (hasattr(fh, "seekable") and fh.seekable()):
            fh = io.BytesIO(fh.read())  # pipes: read it all, so sizes can be checked up front
        if self.map is None:
            self.origin = fh.tell()
            self.size = fh.seek(0, io.SEEK_END) - self.origin
            fh.seek(self.origin)
        self._fh = fh
        self._cursor = self.origin

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes of the header (fewer at the end of the file)."""
        self._cursor += n
        if self.map is not None:
            return self.map[self._cursor - n : self._cursor]
        return self._fh.read(n)

    def storage(self, begin: int, nbytes: int, alignment: int) -> Any:
        """A uint8 tensor over the next entry: ``nbytes`` from byte ``begin`` of the file."""
        if nbytes == 0:
            return _C.empty(0, dtype=_C.uint8)
        if self.map is not None:
            offset = self.origin + begin
            view: Any = _C.frombuffer(self.map, dtype=_C.uint8, count=nbytes, offset=offset)
            # A foreign file may place a tensor off its alignment: copy rather than misalign.
            return view if offset % alignment == 0 else view.clone()
        base: Any = _C.empty(nbytes, dtype=_C.uint8)
        target = memoryview(base)
        filled = 0
        while filled < nbytes:
            got = _readinto(self._fh, target[filled:])
            if not got:
                raise st.fail(
                    f"the file ended {nbytes - filled} bytes early (truncated while loading?)"
                )
            filled += got
        return base

    def peek(self, n: int) -> bytes:
        """The file's first ``n`` bytes (fewer when shorter), without moving the cursor."""
        if self.map is not None:
            return self.map[self.origin : self.origin + n]
        position = self._fh.tell()
        self._fh.seek(self.origin)
        data = self._fh.read(n)
        self._fh.seek(position)
        return data

    def file(self) -> IO[bytes]:
        """The underlying seekable file, at the start of the saved data (torch zip archives)."""
        self._fh.seek(self.origin)
        return self._fh

    def close(self) -> None:
        if self._owned is not None:
            self._owned.close()
        # The map stays open while tensors view it (each holds a buffer export of it).


def _readinto(fh: IO[bytes], target: memoryview) -> int:
    if hasattr(fh, "readinto"):
        return int(fh.readinto(target) or 0)
    data = fh.read(len(target))
    target[: len(data)] = data
    return len(data)


def _decode_scalar(node: Any) -> Any:
    tag, *value = node
    if tag == "none" and not value:
        return None
    if len(value) != 1:
        raise st.fail(f"malformed node {node!r:.100} in the object tree")
    (v,) = value
    if tag == "bool" and isinstance(v, bool):
        return v
    if tag == "str" and isinstance(v, str):
        return v
    try:
        if tag == "int" and isinstance(v, str) and v.lstrip("-").isdigit() and v.isascii():
            return int(v)
        if tag == "float" and isinstance(v, str):
            return float.fromhex(v)
    except ValueError:
        pass
    raise st.fail(f"malformed {tag!r:.20} node {node!r:.100} in the object tree")


class _Decoder:
    """Rebuilds the object tree from its JSON nodes (tensors by index, each built once)."""

    def __init__(self, tensors: list[Callable[[], Any]], pickled: Callable[[], list[Any]]) -> None:
        self._makers = tensors
        self._made: dict[int, Any] = {}
        self._pickled = pickled  # loads the pickle section (restricted unless weights_only=False)
        self._unpickled: list[Any] | None = None

    def decode(self, node: Any, depth: int = 0) -> Any:
        if depth > _MAX_DEPTH:
            raise st.fail(f"the object tree is nested more than {_MAX_DEPTH} levels deep")
        if not isinstance(node, list) or not node or not isinstance(node[0], str):
            raise st.fail(f"malformed node {node!r:.100} in the object tree")
        tag = node[0]
        if tag == "tensor":
            return self._tensor(node)
        if tag in ("ndarray", "npscalar"):
            array = self._tensor(node).numpy()
            return array if tag == "ndarray" else array[()]
        if tag == "pickle":
            return self._pickle(node)
        if tag == "dtype":
            if len(node) != 2 or node[1] not in st.DTYPES:
                raise st.fail(f"malformed dtype node {node!r:.100}")
            return st.DTYPES[node[1]]
        if tag in ("list", "tuple", "dict"):
            if len(node) != 2 or not isinstance(node[1], list):
                raise st.fail(f"malformed {tag} node in the object tree")
            if tag == "dict":
                return self._dict(node[1], depth)
            items = [self.decode(child, depth + 1) for child in node[1]]
            return items if tag == "list" else tuple(items)
        return _decode_scalar(node)

    def _tensor(self, node: list[Any]) -> Any:
        index = node[1] if len(node) == 2 else -1
        if not st.is_int(index) or not 0 <= index < len(self._makers):
            raise st.fail(f"tensor node {node!r:.100} names no tensor of the file")
        if index not in self._made:
            self._made[index] = self._makers[index]()
        return self._made[index]

    def _pickle(self, node: list[Any]) -> Any:
        if len(node) != 3 or not st.is_int(node[1]) or not isinstance(node[2], str):
            raise st.fail(f"malformed pickle node {node!r:.100}")
        if self._unpickled is None:
            self._unpickled = self._pickled()
        if not 0 <= node[1] < len(self._unpickled):
            raise st.fail(f"pickle node {node!r:.100} names no object of the pickle section")
        return self._unpickled[node[1]]

    def _dict(self, pairs: list[Any], depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise st.fail("malformed dict item in the object tree")
            if not isinstance(pair[0], list) or pair[0][:1] in (
                ["tensor"],
                ["ndarray"],
                ["npscalar"],
                ["pickle"],
                ["list"],
                ["dict"],
                ["tuple"],
                ["dtype"],
            ):
                raise st.fail(f"malformed dict key {pair[0]!r:.100} in the object tree")
            key = _decode_scalar(pair[0])
            if key in result:
                raise st.fail(f"duplicate dict key {key!r:.100} in the object tree")
            result[key] = self.decode(pair[1], depth + 1)
        return result


def _records(entries: list[st.Entry], metadata: dict[str, str]) -> tuple[list[Any], Any]:
    """The tensor records and tree of an ember file, or those of a plain safetensors file (one
    contiguous tensor per entry, loaded as a dict by name)."""
    version = metadata.get(_FORMAT_KEY)
    if version is None:
        records = [
            {
                "storage": e.name,
                "dtype": e.dtype,
                "shape": list(e.shape),
                "stride": None,
                "offset": 0,
            }
            for e in entries
        ]
        names = sorted(e.name for e in entries)
        index = {e.name: i for i, e in enumerate(entries)}
        return records, ["dict", [[["str", n], ["tensor", index[n]]] for n in names]]
    if version != _FORMAT_VERSION:
        raise st.fail(
            f"ember format version {version!r:.20} is not supported (this ember reads "
            f"version {_FORMAT_VERSION})"
        )
    if _TREE_KEY not in metadata or _TENSORS_KEY not in metadata:
        raise st.fail(f"an ember file needs both {_TREE_KEY!r} and {_TENSORS_KEY!r} metadata")
    records = st.parse_json(metadata[_TENSORS_KEY], "tensor list")
    if not isinstance(records, list):
        raise st.fail("the tensor list is not a JSON list")
    return records, st.parse_json(metadata[_TREE_KEY], "object tree")


def _check_record(record: Any, entries: dict[str, st.Entry]) -> tuple[Any, ...]:
    """(entry, dtype code, shape, stride, offset) of a validated tensor record."""
    if not isinstance(record, dict) or set(record) != {
        "storage",
        "dtype",
        "shape",
        "stride",
        "offset",
    }:
        raise st.fail(f"malformed tensor record {record!r:.200}")
    entry = entries.get(record["storage"]) if isinstance(record["storage"], str) else None
    if entry is None:
        raise st.fail(
            f"a tensor views storage {record['storage']!r:.100}, which is not in the file"
        )
    dtype = record["dtype"]
    if dtype not in st.ITEMSIZE:
        raise st.fail(f"a tensor has unsupported dtype {dtype!r:.30}")
    shape = st.int_list(record["shape"], "a tensor's shape")
    if record["stride"] is None:  # plain safetensors: contiguous over the whole entry
        stride: list[int] = []
        running = 1
        for size in reversed(shape):
            stride.insert(0, running)
            running *= max(size, 1)
        stride_t = tuple(stride)
    else:
        stride_t = st.int_list(record["stride"], "a tensor's stride", signed=True)
    offset = record["offset"]
    if not st.is_int(offset) or not 0 <= offset < 2**63:
        raise st.fail(f"a tensor has storage offset {offset!r:.30}")
    st.check_view(entry, dtype, shape, stride_t, offset)
    return entry, dtype, shape, stride_t, offset


def load(
    f: FileLike,
    map_location: Any = None,
    *,
    weights_only: bool | None = None,
    mmap: bool | None = False,
) -> Any:
    """Loads what ``ember.save`` saved, the tensors of any safetensors file (as a dict), or a
    ``torch.save`` checkpoint, zip or legacy (tensors, state dicts, containers, numbers, strings,
    and whole modules or other objects whose classes the caller allowlisted).

    By default loading runs no code from the file: every size, offset, dtype and shape is checked
    before use, and every pickle (an ember file's pickle section, a torch checkpoint's) goes
    through a weights-only unpickler that admits only a documented allowlist plus the classes
    and functions given to ``ember.serialization.add_safe_globals``/``safe_globals``
    (docs/serialization.md), so a corrupt or hostile file raises ``ValueError``.

    Args:
        f: a path, or a binary file object opened for reading.
        map_location: ``None``, ``"cpu"``, a CPU ``ember.device`` or a dict mapping to them
            (ember tensors always load on the CPU).
        weights_only: ``True`` (the default, unless ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1``)
            loads data and allowlisted classes only; ``False`` unpickles anything the file
            names: it runs the file's code, for trusted files only.
        mmap: map the file copy-on-write instead of reading it: tensors read the file's pages
            lazily, and writes to them stay private (the file never changes).

    Raises:
        ValueError: the file is not a valid ember/safetensors/torch file (truncated, corrupt, a
            raw pickle); ``ember._weights_only.UnpicklingError`` (also a
            ``pickle.UnpicklingError``) when it names a class or function outside the
            allowlists.
        TypeError: ``f`` is neither a path nor a binary file object.

    Example:
        >>> ember.save([ember.arange(3)], "x.safetensors")
        >>> ember.load("x.safetensors", mmap=True)
        [tensor([0, 1, 2])]
    """
    _check_little_endian("load")
    _check_map_location(map_location)
    if weights_only is not None and not isinstance(weights_only, bool):
        raise TypeError(f"[load] weights_only must be a bool, got {type(weights_only).__name__}")
    weights_only = _weights_only(weights_only)
    if mmap is not None and not isinstance(mmap, bool):
        raise TypeError(f"[load] mmap must be a bool, got {type(mmap).__name__}")
    source = _Source(f, bool(mmap))
    try:
        return _load(source, map_location, weights_only)
    finally:
        source.close()


_TRUE_WORDS = ("1", "y", "yes", "true")


def _weights_only(weights_only: bool | None) -> bool:
    """torch 2.6+'s rule: True unless the caller passes False, or leaves it unset with
    TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1; TORCH_FORCE_WEIGHTS_ONLY_LOAD=1 forces True."""
    if os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0").lower() in _TRUE_WORDS:
        return True
    if weights_only is None:
        return os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0").lower() not in _TRUE_WORDS
    return weights_only


def _load(source: _Source, map_location: Any, weights_only: bool) -> Any:
    # Imported here: its zipfile/pickle stack costs ~15 ms of every `import ember`.
    from ember import _torch_format, _torch_legacy

    prefix = source.read(8)
    if _torch_format.is_torch_zip(prefix):  # the one parser of torch.save's zip archives
        return _torch_format.load_torch_zip(source.file(), source.size, map_location, weights_only)
    if _torch_legacy.is_torch_legacy(source.peek(32)):  # torch.save's legacy non-zip format
        fh = source.file()
        return _torch_legacy.load_torch_legacy(fh, source.size, map_location, weights_only)
    n = st.header_length(prefix, source.size)
    raw = source.read(n)
    if len(raw) != n:
        raise st.fail(f"the file ended inside its {n}-byte header")
    data_start = 8 + n
    entries, metadata = st.parse_header(raw, source.size - data_start)
    records, tree = _records(entries, metadata)
    by_name = {e.name: e for e in entries}
    checked = [_check_record(r, by_name) for r in records]
    alignment = {e.name: st.ITEMSIZE[e.dtype] for e in entries}
    for entry, dtype, *_ in checked:
        alignment[entry.name] = max(alignment[entry.name], st.ITEMSIZE[dtype])
    bases = {
        e.name: source.storage(data_start + e.begin, e.nbytes, alignment[e.name]) for e in entries
    }

    def maker(
        entry: st.Entry, dtype: str, shape: Any, stride: Any, offset: int
    ) -> Callable[[], Any]:
        return lambda: _C._view_storage(
            bases[entry.name], st.DTYPES[dtype], list(shape), list(stride), offset
        )

    makers = [maker(*c) for c in checked]
    pickled = lambda: extras.unpickle_section(metadata, makers, weights_only)  # noqa: E731
    return _Decoder(makers, pickled).decode(tree)
