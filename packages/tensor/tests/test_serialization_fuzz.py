"""ember.load on hostile input: truncated, bit-flipped and hand-crafted files and real pickles.

The only acceptable outcomes are a loaded object or a ValueError starting with ``[load]``: never a
crash, a hang, a huge allocation, another exception type or code running from the file.
"""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import struct
import zipfile
from pathlib import Path
from typing import Any

import pytest
import torch_pickles as tp
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ember


def saved_bytes(obj: Any) -> bytes:
    buffer = io.BytesIO()
    ember.save(obj, buffer)
    return buffer.getvalue()


SAMPLE = saved_bytes(
    {
        "w": ember.arange(12.0).reshape(3, 4),
        "views": [ember.arange(6)[1:], ember.arange(6)],
        "meta": {"name": "x", "n": 3, "f": 0.5, "ok": True, "none": None},
    }
)


def build(header: dict[str, Any], data: bytes = b"") -> bytes:
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw + data


def ember_file(tree: Any, tensors: Any, entries: dict[str, Any], data: bytes) -> bytes:
    metadata = {"ember.format": "1", "ember.tree": json.dumps(tree)}
    metadata["ember.tensors"] = json.dumps(tensors)
    return build({**entries, "__metadata__": metadata}, data)


def load_bytes(raw: bytes, use_mmap: bool = False, tmp_path: Path | None = None) -> Any:
    if use_mmap:
        assert tmp_path is not None
        path = tmp_path / "f.safetensors"
        path.write_bytes(raw)
        return ember.load(path, mmap=True)
    return ember.load(io.BytesIO(raw))


def loads_or_rejects(raw: bytes) -> None:
    try:
        result = load_bytes(raw)
    except ValueError as error:
        assert str(error).startswith("[load]"), str(error)
        return
    # A surviving mutation must still give well-formed tensors we can read.
    for t in _tensors(result):
        t.sum()


def _tensors(obj: Any) -> list[Any]:
    if isinstance(obj, ember.Tensor):
        return [obj]
    if isinstance(obj, dict):
        return [t for v in obj.values() for t in _tensors(v)]
    if isinstance(obj, (list, tuple)):
        return [t for v in obj for t in _tensors(v)]
    return []


def rejects(raw: bytes, *words: str) -> None:
    with pytest.raises(ValueError) as info:
        load_bytes(raw)
    message = str(info.value)
    assert message.startswith("[load]"), message
    for word in words:
        assert word in message, (word, message)


def test_every_truncation_is_rejected() -> None:
    for n in range(len(SAMPLE)):
        rejects(SAMPLE[:n])


@settings(max_examples=300)
@given(st.data())
def test_bit_flips_load_or_raise_value_error(data: st.DataObject) -> None:
    raw = bytearray(SAMPLE)
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] ^= 1 << data.draw(st.integers(0, 7))
    loads_or_rejects(bytes(raw))


def _could_be_a_file(raw: bytes) -> bool:
    """Whether raw starts like a safetensors file: a header length, then a JSON object."""
    if len(raw) < 8:
        return False
    (n,) = struct.unpack("<Q", raw[:8])
    if 8 + n > len(raw):
        return False
    try:
        return isinstance(json.loads(raw[8 : 8 + n]), dict)
    except ValueError:
        return False


@settings(max_examples=200)
@given(st.binary(max_size=64))
@example(b"\x02\x00\x00\x00\x00\x00\x00\x00{}")  # an empty file: it loads
@example(b"\x02\x00\x00\x00\x00\x00\x00\x00[]")
def test_random_bytes_are_rejected(raw: bytes) -> None:
    # Bytes that are not a header length followed by a JSON object must be refused, never load;
    # the few that are go through the same checks as every other file.
    if _could_be_a_file(raw):
        loads_or_rejects(raw)
    else:
        rejects(raw)


@settings(max_examples=200)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=4), children, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_hostile_json_trees_and_records(node: Any) -> None:
    entries = {"s": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}
    record = {"storage": "s", "dtype": "F32", "shape": [4], "stride": [1], "offset": 0}
    loads_or_rejects(ember_file(node, [record], entries, bytes(16)))
    loads_or_rejects(ember_file(["tensor", 0], [node], entries, bytes(16)))
    loads_or_rejects(build({"s": node}, bytes(16)))


def test_absurd_header_sizes() -> None:
    rejects(struct.pack("<Q", 2**63) + b"{}", "header length")
    rejects(struct.pack("<Q", 100_000_001) + b"{" + b" " * 100, "header length")
    rejects(struct.pack("<Q", 50) + b"{}", "header length")


@pytest.mark.parametrize(
    "entry, words",
    [
        ({"dtype": "F32", "shape": [2**40, 2**40], "data_offsets": [0, 16]}, ["needs"]),
        ({"dtype": "F32", "shape": [4], "data_offsets": [0, 2**64]}, ["int"]),
        ({"dtype": "F32", "shape": [-4], "data_offsets": [0, 16]}, ["int"]),
        ({"dtype": "F32", "shape": [4.0], "data_offsets": [0, 16]}, ["int"]),
        ({"dtype": "F32", "shape": [True, 4], "data_offsets": [0, 16]}, ["int"]),
        ({"dtype": "F8_E4M3", "shape": [2], "data_offsets": [0, 2]}, ["dtype"]),
        ({"dtype": "C128", "shape": [2], "data_offsets": [0, 16]}, ["needs"]),
        ({"dtype": "F32", "shape": [4], "data_offsets": [16, 0]}, ["data_offsets"]),
        ({"dtype": "F32", "shape": [4], "data_offsets": [0, 16], "extra": 1}, ["keys"]),
        ({"dtype": "F32", "shape": [1] * 65, "data_offsets": [0, 4]}, ["at most"]),
    ],
)
def test_hostile_entries(entry: dict[str, Any], words: list[str]) -> None:
    rejects(build({"x": entry}, bytes(16)), *words)


def test_overlaps_gaps_and_trailing_bytes() -> None:
    a = {"dtype": "U8", "shape": [8], "data_offsets": [0, 8]}
    overlapping = {"dtype": "U8", "shape": [8], "data_offsets": [4, 12]}
    rejects(build({"a": a, "b": overlapping}, bytes(12)), "tile")
    gap = {"dtype": "U8", "shape": [2], "data_offsets": [10, 12]}
    rejects(build({"a": a, "b": gap}, bytes(12)), "tile")
    rejects(build({"a": a}, bytes(9)), "cover")


def test_duplicate_keys_and_constants() -> None:
    entry = '{"dtype":"U8","shape":[1],"data_offsets":[0,1]}'
    raw = f'{{"a":{entry},"a":{entry}}}'.encode()
    rejects(struct.pack("<Q", len(raw)) + raw + b"\0", "duplicate")
    raw = b'{"a":{"dtype":"U8","shape":[NaN],"data_offsets":[0,1]}}'
    rejects(struct.pack("<Q", len(raw)) + raw + b"\0", "NaN")
    raw = b'{"__metadata__":"x"}'
    rejects(struct.pack("<Q", len(raw)) + raw, "__metadata__")


def test_deep_nesting_is_rejected() -> None:
    raw = b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    rejects(struct.pack("<Q", len(raw)) + raw, "deep")
    entries = {"s": {"dtype": "U8", "shape": [0], "data_offsets": [0, 0]}}
    deep: Any = ["none"]
    for _ in range(150):
        deep = ["list", [deep]]
    rejects(ember_file(deep, [], entries, b""), "nested")


@pytest.mark.parametrize("use_mmap", [False, True])
def test_views_reaching_outside_their_storage(tmp_path: Path, use_mmap: bool) -> None:
    entries = {"s": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}

    def with_record(**changes: Any) -> bytes:
        record = {"storage": "s", "dtype": "F32", "shape": [4], "stride": [1], "offset": 0}
        return ember_file(["tensor", 0], [{**record, **changes}], entries, bytes(16))

    for changes in (
        {"offset": 1},
        {"stride": [2]},
        {"stride": [-1]},
        {"dtype": "F64"},
        {"shape": [2**62, 4], "stride": [2**62, 1]},
        {"shape": [3], "stride": [2**62]},
        {"offset": 2**63},
        {"storage": "missing"},
        {"shape": [4, 4], "stride": [1]},
    ):
        with pytest.raises(ValueError, match=r"^\[load\]"):
            load_bytes(with_record(**changes), use_mmap, tmp_path)
    # In bounds: an expanded view (stride 0) and a reversed one (negative stride).
    expanded = load_bytes(with_record(shape=[1000, 4], stride=[0, 1]), use_mmap, tmp_path)
    assert tuple(expanded.shape) == (1000, 4)
    reversed_view = load_bytes(with_record(stride=[-1], offset=3), use_mmap, tmp_path)
    assert reversed_view.stride() == (-1,)


def test_tree_naming_a_missing_tensor() -> None:
    entries = {"s": {"dtype": "U8", "shape": [0], "data_offsets": [0, 0]}}
    rejects(ember_file(["tensor", 0], [], entries, b""), "names no tensor")
    rejects(ember_file(["tensor", True], [], entries, b""), "names no tensor")
    rejects(
        ember_file(
            ["dict", [[["str", "a"], ["none"]], [["str", "a"], ["none"]]]], [], entries, b""
        ),
        "duplicate",
    )
    rejects(ember_file(["int", "1e5"], [], entries, b""), "malformed")
    rejects(ember_file(["eval", "__import__('os')"], [], entries, b""), "malformed")


class Boom:
    """Unpickling this would run code: ember must refuse the file before that could happen."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (pytest.fail, ("ember.load unpickled a file",))


@pytest.mark.parametrize("protocol", [0, 2, 4, 5])
def test_pickles_are_refused_with_an_explanation(protocol: int) -> None:
    raw = pickle.dumps({"w": [1.0, 2.0], "boom": Boom()}, protocol=protocol)
    rejects(raw, "pickle")


def test_torch_style_zip_with_a_reduce_gadget_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("archive/data.pkl", pickle.dumps({"w": Boom()}, protocol=2))
        archive.writestr("archive/version", "3\n")
    rejects(buffer.getvalue(), "Weights only load failed", "_pytest.outcomes")


# ---- hostile torch checkpoints: the restricted unpickler and the archive checks.

F32 = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)


class Gadget:
    """A __reduce__ gadget naming `target` with `args`: unpickling it would call target(*args)."""

    def __init__(self, target: Any, *args: Any) -> None:
        self.target, self.args = target, args

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.target, self.args)


def hostile_globals(marker: Path) -> list[bytes]:
    """Pickles (several protocols) whose loading would create `marker` or run other code."""
    import builtins
    import os
    import subprocess

    command = f"touch {marker}"
    gadgets = [
        Gadget(os.system, command),
        Gadget(builtins.eval, f"open({str(marker)!r}, 'w')"),
        Gadget(builtins.exec, f"open({str(marker)!r}, 'w')"),
        Gadget(subprocess.call, ["touch", str(marker)]),
        Gadget(builtins.getattr, "", "join"),
        Gadget(builtins.__import__, "os"),
        Gadget(open, str(marker), "w"),
    ]
    raws = [pickle.dumps({"state": g}, protocol=p) for g in gadgets for p in (2, 4)]
    # hand-written: GLOBAL names spelled as an old pickle would, and a nested REDUCE
    raws.append(tp.PickleWriter().glob("posix", "system").value((command,)).op(b"R").done())
    raws.append(tp.PickleWriter().glob("__builtin__", "eval").value(("1",)).op(b"R").done())
    raws.append(tp.PickleWriter().glob("nt", "system").value((command,)).op(b"R").done())
    raws.append(tp.PickleWriter().glob("torch", "load").value(("x",)).op(b"R").done())
    raws.append(tp.PickleWriter().glob("torch._utils", "_rebuild_from_type_v2").done())
    return raws


def test_hostile_checkpoints_run_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for raw in hostile_globals(marker):
        rejects(tp.archive(raw), "Weights only load failed", "weights_only=False")
        assert not marker.exists()


def test_build_on_an_allowed_class_is_refused() -> None:
    # BUILD would setattr on collections.OrderedDict itself, for the whole process.
    raw = tp.PickleWriter().glob("collections", "OrderedDict").value(({"keys": 1},)).op(b"b").done()
    rejects(tp.archive(raw), "cannot set the state")
    slots = tp.PickleWriter().glob("torch", "FloatStorage").value((None, {"dtype": 1})).op(b"b")
    rejects(tp.archive(slots.done()), "cannot set the state")
    assert not hasattr(collections_ordered_dict(), "keys_")
    # an OrderedDict's _metadata (state_dict()._metadata) is the one BUILD allowed
    meta = tp.PickleWriter().glob("collections", "OrderedDict").op(b")").op(b"R")
    meta.value({"_metadata": {"": {"version": 1}}}).op(b"b")
    loaded = load_bytes(tp.archive(meta.done()))
    assert loaded == {} and loaded._metadata == {"": {"version": 1}}
    bad = tp.PickleWriter().glob("collections", "OrderedDict").op(b")").op(b"R")
    rejects(tp.archive(bad.value({"__class__": 1}).op(b"b").done()), "cannot set the state")


def collections_ordered_dict() -> Any:
    import collections

    return collections.OrderedDict


@pytest.mark.parametrize(
    ("numel", "size", "stride", "offset", "words"),
    [
        (8, (8,), (1,), 0, "declares 32 bytes but its entry holds 16"),  # past the entry's end
        (4, (5,), (1,), 0, "outside"),  # a view past its storage
        (4, (2,), (1,), 3, "outside"),
        (4, (2, 2), (3, 1), 0, "outside"),
        (4, (2,), (-1,), 0, "outside"),
        (4, (2,), (1,), -1, "storage offset"),
        (4, (-2,), (1,), 0, "geometry"),
        (-1, (1,), (1,), 0, "invalid storage record"),
        (4, (2**62, 2**62), (1, 1), 0, "outside"),
    ],
)
def test_storage_and_view_bounds_are_checked(
    numel: int, size: tuple[int, ...], stride: tuple[int, ...], offset: int, words: str
) -> None:
    raw = tp.PickleWriter().tensor("0", numel, size, stride, offset).done()
    rejects(tp.archive(raw, {"0": F32}), words)


def test_storage_records_are_checked() -> None:
    missing = tp.PickleWriter().tensor("7", 4, (4,), (1,)).done()
    rejects(tp.archive(missing, {"0": F32}), "no entry data/7")
    for key in ("../../etc/passwd", "a/b", "", "x" * 100):
        raw = tp.PickleWriter().tensor(key, 4, (4,), (1,)).done()
        rejects(tp.archive(raw, {"0": F32}), "invalid storage key")
    w = tp.PickleWriter().op(b"(").tensor("0", 4, (4,), (1,))
    w.tensor("0", 2, (2,), (1,), kind="DoubleStorage")
    rejects(tp.archive(w.op(b"l").done(), {"0": F32}), "different dtypes or sizes")
    odd = tp.PickleWriter().tensor("0", 4, (4,), (1,), kind="QInt8Storage").done()
    rejects(tp.archive(odd, {"0": F32}), "QInt8Storage")
    pid = tp.PickleWriter().value(("storage", 1)).op(b"Q").done()
    rejects(tp.archive(pid), "persistent id")


def test_overlapping_storages_are_refused() -> None:
    w = tp.PickleWriter().op(b"(").tensor("0", 4, (4,), (1,)).tensor("1", 4, (4,), (1,))
    rejects(tp.overlapping_archive(w.op(b"l").done(), {"0": F32, "1": F32}), "overlaps")


def test_archive_structure_is_checked() -> None:
    good = tp.PickleWriter().tensor("0", 4, (4,), (1,)).done()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("archive/data.pkl", good)
        z.writestr("archive/data/0", F32)
    rejects(buffer.getvalue(), "compressed")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("a/data.pkl", good)
        z.writestr("b/data/0", F32)
    rejects(buffer.getvalue(), "one root folder")
    rejects(tp.archive(good, {"0": F32}, root="x")[:-30], "zip")
    only_data = io.BytesIO()
    with zipfile.ZipFile(only_data, "w") as z:
        z.writestr("archive/data/0", F32)
    rejects(only_data.getvalue(), "data.pkl")
    big_endian = io.BytesIO()
    with zipfile.ZipFile(big_endian, "w") as z:
        z.writestr("archive/data.pkl", good)
        z.writestr("archive/byteorder", b"big")
        z.writestr("archive/data/0", F32)
    rejects(big_endian.getvalue(), "big-endian")


VALID_ZIP = tp.archive(
    tp.PickleWriter().op(b"(").tensor("0", 4, (2, 2), (2, 1)).value("x").op(b"l").done(), {"0": F32}
)


def test_the_valid_archive_loads() -> None:
    t, s = load_bytes(VALID_ZIP)
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and s == "x"


def test_every_truncation_of_a_checkpoint_is_rejected() -> None:
    for n in range(0, len(VALID_ZIP), 7):
        with pytest.raises(ValueError):
            load_bytes(VALID_ZIP[:n])


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(VALID_ZIP) - 1), st.integers(1, 255))
def test_bit_flips_in_a_checkpoint_give_typed_errors_or_data(position: int, flip: int) -> None:
    raw = bytearray(VALID_ZIP)
    raw[position] ^= flip
    # every failure is a typed error; success (a flip in padding) is fine too
    with contextlib.suppress(ValueError, RuntimeError):
        load_bytes(bytes(raw))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_random_pickles_in_a_checkpoint_give_typed_errors(data: bytes) -> None:
    with contextlib.suppress(ValueError):
        load_bytes(tp.archive(b"\x80\x02" + data))


# ---- hostile legacy (non-zip) torch checkpoints: the header pickles, the bounded reads.

LEGACY_MAIN = tp.PickleWriter().op(b"(").tensor("0", 4, (2, 2), (2, 1), legacy=True)
VALID_LEGACY = tp.legacy_file(LEGACY_MAIN.value("x").op(b"l").done(), {"0": (4, F32)})


def legacy_tensor(numel: int = 4, key: str = "0", **kwargs: Any) -> bytes:
    return tp.PickleWriter().tensor(key, numel, (numel,), (1,), legacy=True, **kwargs).done()


def test_the_valid_legacy_file_loads() -> None:
    t, s = load_bytes(VALID_LEGACY)
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and s == "x"


def test_every_truncation_of_a_legacy_file_is_rejected() -> None:
    for n in range(len(VALID_LEGACY)):
        with pytest.raises(ValueError, match=r"^\[load\]"):
            load_bytes(VALID_LEGACY[:n])


def test_legacy_headers_are_checked() -> None:
    main = legacy_tensor()
    rejects(tp.legacy_file(main, {"0": (4, F32)}, version=1000), "protocol version")
    rejects(tp.legacy_file(main, {"0": (4, F32)}, sys_info=[1]), "sys info")
    big = {**tp.LEGACY_SYS_INFO, "little_endian": False}
    rejects(tp.legacy_file(main, {"0": (4, F32)}, sys_info=big), "big-endian")
    # another magic number: not recognised as torch's, so refused as a raw pickle
    rejects(tp.legacy_file(main, {"0": (4, F32)}, magic=tp.LEGACY_MAGIC + 1), "pickle")


def test_legacy_sizes_past_the_end_are_refused() -> None:
    rejects(tp.legacy_file(legacy_tensor(2**40), {"0": (2**40, F32)}), "remain in the file")
    rejects(tp.legacy_file(legacy_tensor(), {"0": (5, F32)}), "holds 5 elements")
    rejects(tp.legacy_file(legacy_tensor(), {"0": (-1, F32)}), "holds -1 elements")
    rejects(tp.legacy_file(legacy_tensor(), {"0": (4, F32[:8])}), "ends")
    raw = tp.PickleWriter().tensor("0", 4, (5,), (1,), legacy=True).done()
    rejects(tp.legacy_file(raw, {"0": (4, F32)}), "outside")


def test_legacy_storage_keys_are_checked() -> None:
    main = legacy_tensor()
    rejects(tp.legacy_file(main, {"0": (4, F32)}, keys=["1"]), "does not match")
    rejects(tp.legacy_file(main, {"0": (4, F32)}, keys=["0", "0"]), "does not match")
    rejects(tp.legacy_file(main, {"0": (4, F32)}, keys=[]), "does not match")
    rejects(tp.legacy_file(main, {"0": (4, F32)}, keys="0"), "not a list of str")  # type: ignore[arg-type]
    for key in ("../../etc/passwd", "", "x" * 100):
        rejects(tp.legacy_file(legacy_tensor(key=key), {}), "invalid storage key")
    five = tp.PickleWriter().tensor("0", 4, (4,), (1,)).done()  # a zip record: five fields
    rejects(tp.legacy_file(five, {"0": (4, F32)}), "persistent id")
    view = tp.PickleWriter().op(b"(").value("storage").glob("torch", "FloatStorage")
    view.value("0").value("cpu").value(4).value(("1", 0, 2)).op(b"t").op(b"Q")
    rejects(tp.legacy_file(view.done(), {"0": (4, F32)}), "view of another storage")


def test_hostile_legacy_files_run_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for gadget in hostile_globals(marker):
        # in the main pickle, in the key list, and in a header pickle
        rejects(tp.legacy_file(gadget), "Weights only load failed", "weights_only=False")
        header_and_main = tp.legacy_file(b"\x80\x02N.")[: -len(pickle.dumps([], protocol=2))]
        rejects(header_and_main + gadget, "Weights only load failed")  # as the key list
        rejects(tp.legacy_file(b"\x80\x02N.", sys_info=Gadget(print, "x")), "Weights only")
        assert not marker.exists()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(VALID_LEGACY) - 1), st.integers(1, 255))
def test_bit_flips_in_a_legacy_file_give_typed_errors_or_data(position: int, flip: int) -> None:
    raw = bytearray(VALID_LEGACY)
    raw[position] ^= flip
    with contextlib.suppress(ValueError, RuntimeError):
        load_bytes(bytes(raw))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_random_main_pickles_in_a_legacy_file_give_typed_errors(data: bytes) -> None:
    with contextlib.suppress(ValueError):
        load_bytes(tp.legacy_file(b"\x80\x02" + data))


def test_storage_bytes_are_crc_checked() -> None:
    raw = bytearray(VALID_ZIP)
    at = raw.find(F32)
    raw[at + 5] ^= 0x10  # inside the storage's bytes: torch would load the flipped value
    rejects(bytes(raw), "Bad CRC-32")
    renamed = bytearray(VALID_ZIP)
    local = renamed.find(b"archive/data/0")  # the local header's copy of the member's name
    renamed[local + len("archive/data/")] = ord("9")
    rejects(bytes(renamed), "local header")


def test_allowed_builtins_cannot_be_made_to_allocate() -> None:
    # bytearray(10**12), set(range(10**12)): allowed globals whose arguments are a count or a
    # lazy range would allocate (or loop) without bound; only data the pickle holds is accepted
    huge = tp.PickleWriter().glob("builtins", "bytearray").value((10**12,)).op(b"R").done()
    rejects(tp.archive(huge), "bytearray")
    lazy = tp.PickleWriter().glob("builtins", "set").op(b"(")
    lazy.glob("builtins", "range").value((10**12,)).op(b"R").op(b"t").op(b"R")
    rejects(tp.archive(lazy.done()), "built only from data")
    rejects(tp.legacy_file(huge), "bytearray")
    ok = tp.PickleWriter().glob("builtins", "bytearray").value((b"ab",)).op(b"R").done()
    assert load_bytes(tp.archive(ok)) == bytearray(b"ab")


class Alloc:
    def __init__(self, target: Any, *args: Any) -> None:
        self.target, self.args = target, args

    def __reduce__(self) -> tuple[Any, ...]:
        return (self.target, self.args)


def test_an_ember_pickle_section_cannot_allocate_through_allowed_globals() -> None:
    for gadget in (Alloc(bytearray, 10**12), Alloc(ember.Tensor, 10**6, 10**6)):
        buffer = io.BytesIO()
        ember.save([gadget], buffer)
        with pytest.raises(ValueError, match=r"^\[load\]"):
            load_bytes(buffer.getvalue())
