"""The safetensors container under ``ember.save``/``ember.load``: writing and strict parsing.

A file is an 8-byte little-endian header length ``N``, ``N`` bytes of JSON (padded with spaces),
then the raw little-endian bytes of every entry back to back. Everything a header declares is
checked here before any of it is used; see docs/serialization.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, BinaryIO, NamedTuple

from ember_core import _C

# safetensors' own limit: a larger header is refused rather than read into memory.
MAX_HEADER_BYTES = 100_000_000
# Larger ranks are refused as absurd (torch's kernels stop far earlier).
MAX_DIMS = 64
_INT64_MAX = 2**63 - 1

DTYPE_CODES: dict[Any, str] = {
    _C.bool: "BOOL",
    _C.uint8: "U8",
    _C.int8: "I8",
    _C.int16: "I16",
    _C.int32: "I32",
    _C.int64: "I64",
    _C.float16: "F16",
    _C.bfloat16: "BF16",
    _C.float32: "F32",
    _C.float64: "F64",
    # C64 is safetensors' own code; safetensors has no complex128, so C128 is ember's extension
    # (a plain safetensors reader refuses the entry as an unknown dtype).
    _C.complex64: "C64",
    _C.complex128: "C128",
    # safetensors' unsigned codes (torch's limited-support uint16/uint32/uint64).
    _C.uint16: "U16",
    _C.uint32: "U32",
    _C.uint64: "U64",
}
DTYPES: dict[str, Any] = {code: dtype for dtype, code in DTYPE_CODES.items()}
ITEMSIZE = {"BOOL": 1, "U8": 1, "I8": 1, "I16": 2, "I32": 4, "I64": 8, "F16": 2, "BF16": 2}
ITEMSIZE.update({"F32": 4, "F64": 8, "C64": 8, "C128": 16})
ITEMSIZE.update({"U16": 2, "U32": 4, "U64": 8})
# ember starts the data, and every entry viewed with several dtypes, at a multiple of the widest
# item size (C128's), so that mmap=True can use every entry in place.
DATA_ALIGNMENT = 16


def fail(message: str) -> ValueError:
    """The error every malformed file raises (callers ``raise fail(...)``)."""
    return ValueError(f"[load] {message}")


class Entry(NamedTuple):
    """One tensor of the container: its name, dtype code, shape and byte range in the data."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int
    end: int

    @property
    def nbytes(self) -> int:
        return self.end - self.begin


# ---- Writing.


def write_file(
    fh: BinaryIO,
    entries: list[Entry],
    chunks: Iterable[memoryview | bytes],
    metadata: dict[str, str],
) -> None:
    """Writes header and data; ``chunks`` yields the entries' bytes in offset order."""
    header: dict[str, Any] = {
        e.name: {"dtype": e.dtype, "shape": list(e.shape), "data_offsets": [e.begin, e.end]}
        for e in entries
    }
    header["__metadata__"] = metadata
    import json  # on first save: json stays out of `import ember`

    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    raw = text.encode("utf-8")
    # Pad with spaces (safetensors pads to 8) so the data starts aligned in the file.
    raw += b" " * (-(8 + len(raw)) % DATA_ALIGNMENT)
    if len(raw) > MAX_HEADER_BYTES:
        raise ValueError(
            f"[save] the header would take {len(raw)} bytes, over the format's limit of "
            f"{MAX_HEADER_BYTES}: save fewer, larger tensors"
        )
    fh.write(len(raw).to_bytes(8, "little"))  # the format's u64 little-endian header length
    fh.write(raw)
    for chunk in chunks:
        fh.write(chunk)


# ---- Parsing.


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise fail(f"duplicate key {key!r:.100} in a JSON object of the header")
        result[key] = value
    return result


def _no_constant(name: str) -> Any:
    raise fail(f"the header holds the non-JSON constant {name}")


def parse_json(text: str | bytes, what: str) -> Any:
    """Strict JSON: no duplicate keys, no NaN/Infinity; nesting too deep is an error."""
    import json  # on first load: json stays out of `import ember`

    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except RecursionError:
        raise fail(f"the {what} is nested too deeply") from None
    except ValueError as error:
        if str(error).startswith("[load]"):
            raise
        raise fail(f"the {what} is not valid JSON: {error}") from None


def describe_non_safetensors(prefix: bytes) -> str:
    """Why a file whose first bytes are ``prefix`` cannot be ours, for the error message."""
    never = (
        "ember does not load raw pickles, because loading a pickle runs code chosen by whoever "
        "wrote the file; convert it once, in an environment you trust, with safetensors "
        "(safetensors.torch.save_file(torch.load(path, weights_only=True), out))"
    )
    if prefix.startswith(b"PK\x03\x04"):
        return f"this is a zip archive, such as a torch.save checkpoint (pickle inside): {never}"
    if prefix[:1] == b"\x80" and prefix[1:2] in (b"\x02", b"\x03", b"\x04", b"\x05"):
        return (
            "this is a Python pickle without torch's magic number (torch.save's legacy format "
            f"starts with one), which ember does not read: {never}"
        )
    return f"this is not a safetensors/ember file (a pickle or a torch .pt file?): {never}"


def header_length(prefix: bytes, file_size: int) -> int:
    """The header length from the first 8 bytes, checked against the file's size."""
    if len(prefix) < 8:
        raise fail(
            f"the file is {file_size} bytes, too short for a header; "
            + (describe_non_safetensors(prefix))
        )
    n = int.from_bytes(prefix[:8], "little")  # u64 little-endian
    if n > MAX_HEADER_BYTES or n > file_size - 8:
        raise fail(
            f"the header length {n} exceeds the limit of {MAX_HEADER_BYTES} bytes or the "
            f"file's {file_size} bytes; " + describe_non_safetensors(prefix)
        )
    return int(n)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_list(value: Any, what: str, *, signed: bool = False) -> tuple[int, ...]:
    """A JSON list of ints within int64 (non-negative unless ``signed``)."""
    if not isinstance(value, list) or len(value) > MAX_DIMS:
        raise fail(f"{what} must be a list of at most {MAX_DIMS} ints, got {value!r:.200}")
    for item in value:
        if not is_int(item) or abs(item) > _INT64_MAX or (item < 0 and not signed):
            raise fail(f"{what} holds {item!r:.50}, not a valid {'' if signed else 'size '}int")
    return tuple(value)


def parse_header(raw: bytes, data_size: int) -> tuple[list[Entry], dict[str, str]]:
    """Validated entries (sorted by offset, tiling the data exactly) and the metadata map."""
    if not raw.startswith(b"{"):
        raise fail("the header does not start with '{'; " + describe_non_safetensors(raw[:8]))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise fail(f"the header is not UTF-8: {error}") from None
    header = parse_json(text, "header")
    if not isinstance(header, dict):
        raise fail("the header is not a JSON object")
    metadata = header.pop("__metadata__", {})
    if not isinstance(metadata, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()
    ):
        raise fail("__metadata__ must map strings to strings")
    entries = [_parse_entry(name, info) for name, info in header.items()]
    entries.sort(key=lambda e: (e.begin, e.end))
    position = 0
    for e in entries:
        if e.begin != position:
            raise fail(
                f"tensor {e.name!r} starts at byte {e.begin} of the data, expected {position}: "
                "tensors must tile the data without gaps or overlaps"
            )
        position = e.end
    if position != data_size:
        raise fail(
            f"the tensors cover {position} bytes of data but the file holds {data_size} "
            "(truncated or padded file)"
        )
    return entries, metadata


def _parse_entry(name: str, info: Any) -> Entry:
    if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
        raise fail(f"tensor {name!r} must have exactly the keys dtype, shape and data_offsets")
    dtype = info["dtype"]
    if dtype not in ITEMSIZE:
        raise fail(
            f"tensor {name!r} has dtype {dtype!r:.30}, which ember does not support "
            f"(supported: {', '.join(ITEMSIZE)})"
        )
    shape = int_list(info["shape"], f"the shape of {name!r}")
    offsets = int_list(info["data_offsets"], f"the data_offsets of {name!r}")
    if len(offsets) != 2 or offsets[0] > offsets[1]:
        raise fail(f"tensor {name!r} has data_offsets {list(offsets)}, expected [begin, end]")
    numel = 1
    for size in shape:
        numel *= size
    if numel * ITEMSIZE[dtype] != offsets[1] - offsets[0]:
        raise fail(
            f"tensor {name!r} of dtype {dtype} and shape {list(shape)} needs "
            f"{numel * ITEMSIZE[dtype]} bytes but data_offsets {list(offsets)} give "
            f"{offsets[1] - offsets[0]}"
        )
    return Entry(name, dtype, shape, offsets[0], offsets[1])


def check_view(
    storage: Entry, dtype: str, shape: tuple[int, ...], stride: tuple[int, ...], offset: int
) -> None:
    """Every element of the view must lie inside the entry's bytes (exact integer arithmetic)."""
    if len(shape) != len(stride):
        raise fail(f"a view has shape {list(shape)} but stride {list(stride)}")
    numel = 1
    for size in shape:
        numel *= size
    if numel > _INT64_MAX:
        raise fail(f"a view of shape {list(shape)} has more than 2**63 elements")
    if numel == 0:
        return
    low = offset + sum((n - 1) * s for n, s in zip(shape, stride, strict=True) if s < 0)
    high = offset + sum((n - 1) * s for n, s in zip(shape, stride, strict=True) if s > 0)
    size = ITEMSIZE[dtype]
    if low < 0 or (high + 1) * size > storage.nbytes:
        raise fail(
            f"a view of shape {list(shape)}, stride {list(stride)} and offset {offset} reaches "
            f"outside the {storage.nbytes} bytes of {storage.name!r}"
        )
