"""``ember.serialization.get_unsafe_globals_in_checkpoint``: the globals a file's pickles name
that a weights-only load would refuse, found by walking the pickles with every opcode that
calls, creates or sets state replaced by a placeholder (nothing from the file runs)."""

from __future__ import annotations

import _compat_pickle
import contextlib
import io
import os
import pickle
from collections.abc import Callable, Iterator
from typing import IO, Any, ClassVar

from ember import _safetensors as st
from ember import _save_extras as extras
from ember._weights_only import RestrictedUnpickler, UnpicklingError, fail

__all__ = ["unsafe_globals"]


class _Scanner(pickle._Unpickler):
    """Records every (module, name) a pickle looks up; builds nothing but placeholders."""

    dispatch: ClassVar[dict[int, Callable[[Any], None]]] = dict(pickle._Unpickler.dispatch)
    stack: list[Any]
    append: Callable[[Any], None]
    pop_mark: Callable[[], list[Any]]
    proto: int

    def __init__(self, file: Any) -> None:
        super().__init__(file)
        self.names: list[tuple[str, str, int]] = []

    def find_class(self, module: str, name: str) -> Any:
        self.names.append((module, name, self.proto))
        return None

    def persistent_load(self, pid: Any) -> Any:
        return None


def _replace(opcode: bytes, pops: int = 0, marks: bool = False, push: bool = True) -> None:
    def handler(self: Any) -> None:
        if marks:
            self.pop_mark()
        for _ in range(pops):
            self.stack.pop()
        if push:
            self.append(None)

    _Scanner.dispatch[opcode[0]] = handler


_replace(pickle.REDUCE, pops=2)
_replace(pickle.NEWOBJ, pops=2)
_replace(pickle.NEWOBJ_EX, pops=3)
_replace(pickle.BUILD, pops=1, push=False)
_replace(pickle.APPEND, pops=1, push=False)
_replace(pickle.SETITEM, pops=2, push=False)
for _code in (pickle.APPENDS, pickle.SETITEMS, pickle.ADDITEMS):
    _replace(_code, marks=True, push=False)
_replace(pickle.OBJ, marks=True)


def _load_inst(self: Any) -> None:
    """INST (protocol 0): names a class by two text lines, then instantiates it."""
    module = self.readline()[:-1].decode("ascii")
    name = self.readline()[:-1].decode("ascii")
    self.find_class(module, name)
    self.pop_mark()
    self.append(None)


_Scanner.dispatch[pickle.INST[0]] = _load_inst
_replace(pickle.FROZENSET, marks=True)  # its items may be unhashable placeholders' stand-ins
for _code in (pickle.EXT1, pickle.EXT2, pickle.EXT4):
    _replace(_code)


def _scan(data: Any) -> list[tuple[str, str, int]]:
    scanner = _Scanner(data)
    try:
        scanner.load()
    except UnpicklingError:
        raise
    except Exception as error:  # truncated or malformed opcodes
        raise fail(
            f"the checkpoint's pickle is malformed: {type(error).__name__}: {error}"
        ) from None
    return scanner.names


@contextlib.contextmanager
def _opened(f: Any) -> Iterator[IO[bytes]]:
    if isinstance(f, (str, os.PathLike)):
        with open(os.fspath(f), "rb") as fh:
            yield fh
    elif hasattr(f, "read") and hasattr(f, "seek"):
        yield f
    else:
        raise TypeError(
            "[get_unsafe_globals_in_checkpoint] f must be a path or a seekable binary file, "
            f"got {type(f).__name__}"
        )


def _ember_pickle_section(fh: IO[bytes], start: int, size: int) -> bytes | None:
    """The pickle section of an ember file, or None when it has none."""
    from ember import serialization

    n = st.header_length(fh.read(8), size)
    entries, metadata = st.parse_header(fh.read(n), size - 8 - n)
    if extras.PICKLE_KEY not in metadata:
        return None
    records, _ = serialization._records(entries, metadata)
    index = metadata[extras.PICKLE_KEY]
    if not index.isdigit() or int(index) >= len(records):
        raise st.fail("the file's pickle nodes name no pickle section")
    by_name = {e.name: e for e in entries}
    entry = by_name.get(records[int(index)].get("storage"))
    if entry is None:
        raise st.fail("the pickle section names no entry of the file")
    fh.seek(start + 8 + n + entry.begin)
    return fh.read(entry.nbytes)


def unsafe_globals(f: Any) -> list[str]:
    """``get_unsafe_globals_in_checkpoint`` (documented in ``_safe_globals``)."""
    from ember import _tensor_pickle, _torch_format, _torch_legacy

    with _opened(f) as fh:
        start = fh.tell()
        size = fh.seek(0, io.SEEK_END) - start
        fh.seek(start)
        head = fh.read(32)
        fh.seek(start)
        names: list[tuple[str, str, int]] = []
        if _torch_format.is_torch_zip(head):
            archive = _torch_format._Archive(fh, size)
            names = _scan(io.BytesIO(archive.read(archive.members[archive.root + "data.pkl"])))
            checker: Any = _torch_format._WeightsOnlyUnpickler(io.BytesIO(), None, None)
        elif _torch_legacy.is_torch_legacy(head):
            reader = _torch_legacy._Reader(fh, size)
            for _ in range(5):  # magic, version, sys info, the main pickle, the key list
                names += _scan(reader)
            checker = _torch_format._WeightsOnlyUnpickler(io.BytesIO(), None, None)
        else:
            section = _ember_pickle_section(fh, start, size)
            names = [] if section is None else _scan(io.BytesIO(section))
            checker = RestrictedUnpickler(io.BytesIO(), _tensor_pickle.implicit_globals())
    unsafe = set()
    for module, name, proto in names:
        checker.proto = proto
        try:
            checker.find_class(module, name)
        except UnpicklingError:
            if proto < 3:  # spelled as Python 3 names, as the refusal message does
                module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
                module = _compat_pickle.IMPORT_MAPPING.get(module, module)
            unsafe.add(f"{module}.{name}")
    return sorted(unsafe)
