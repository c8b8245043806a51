"""ember.save / ember.load: round trips, shared storage, mmap, atomic writes, safetensors interop.

numpy is the value oracle (bfloat16 compared through float32); the safetensors library, when
importable, checks that ember files are valid safetensors files.
"""

from __future__ import annotations

import io
import json
import math
import os
import pickle
import struct
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import ALL_DTYPES, VIEW_LAYOUTS, numpy_array, raises, shapes, to_numpy
from ember import serialization

DATA = Path(__file__).parent / "data"


def layout_tensor(shape: tuple[int, ...], dtype: Any, layout: str) -> ember.Tensor:
    """A tensor of distinct values viewing a bigger storage as `layout` (see conftest)."""
    t = ember.from_numpy(np.array(numpy_array(shape, "contiguous")))._to_dtype(dtype)
    if layout == "transposed" and t.dim() >= 2:
        return t.reshape(shape[::-1]).permute(*reversed(range(t.dim())))
    if layout == "strided" and t.dim() >= 1:
        wide = ember.zeros(*shape[:-1], 2 * shape[-1], dtype=dtype)
        view = wide[..., ::2]
        view.copy_(t)
        return view
    if layout == "negative" and t.dim() >= 1:
        return ember.from_numpy(np.array(numpy_array(shape))[::-1])._to_dtype(dtype)
    return t


def same_values(a: ember.Tensor, b: ember.Tensor) -> None:
    assert a.dtype == b.dtype and tuple(a.shape) == tuple(b.shape)
    np.testing.assert_array_equal(to_numpy(a), to_numpy(b))


def header_of(path: Path) -> dict[str, Any]:
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header: dict[str, Any] = json.loads(raw[8 : 8 + n])
    return header


@given(
    shape=shapes(max_dims=3),
    dtype=st.sampled_from(ALL_DTYPES),
    layout=st.sampled_from(VIEW_LAYOUTS),
    use_mmap=st.booleans(),
)
def test_round_trip_dtypes_shapes_layouts(
    tmp_path_factory: pytest.TempPathFactory,
    shape: tuple[int, ...],
    dtype: Any,
    layout: str,
    use_mmap: bool,
) -> None:
    path = tmp_path_factory.mktemp("rt") / "t.safetensors"
    t = layout_tensor(shape, dtype, layout)
    ember.save({"t": t}, path)
    loaded = ember.load(path, mmap=use_mmap)["t"]
    same_values(loaded, t)
    assert loaded.stride() == t.stride()  # the layout comes back, as torch keeps it


def test_python_values_round_trip(tmp_path: Path) -> None:
    obj = {
        "ints": [0, -1, 2**80, True, False],
        "floats": (0.1, -0.0, math.inf, -math.inf, 1e-310),
        "text": 'naïve ∑ \n "quoted"',
        "none": None,
        "nested": {"a": {"b": [(), [], {}]}},
        1: "int key",
        2.5: "float key",
        None: "none key",
        "dtype": ember.bfloat16,
    }
    ember.save(obj, tmp_path / "x")
    loaded = ember.load(tmp_path / "x")
    assert loaded == obj
    assert list(loaded) == list(obj)  # key order is kept
    assert isinstance(loaded["floats"], tuple) and isinstance(loaded["nested"]["a"]["b"][1], list)
    assert math.copysign(1.0, loaded["floats"][1]) == -1.0
    nan = ember.load(_saved(tmp_path, [math.nan]))[0]
    assert math.isnan(nan)


def _saved(tmp_path: Path, obj: Any) -> Path:
    path = tmp_path / "saved.safetensors"
    ember.save(obj, path)
    return path


def test_views_come_back_sharing_one_storage(tmp_path: Path) -> None:
    x = ember.arange(12.0)
    obj = {"x": x, "tail": x[1:], "grid": x.view(3, 4).T, "bits": x.view(ember.int32), "y": x * 2}
    loaded = ember.load(_saved(tmp_path, obj))
    for key in ("tail", "grid", "bits"):
        assert loaded[key]._is_view_of(loaded["x"]), key
        same_values(loaded[key], obj[key])
    assert not loaded["y"]._is_view_of(loaded["x"])
    loaded["x"][5] = -1.0
    assert loaded["tail"][4].item() == -1.0 and loaded["grid"][1, 1].item() == -1.0


def test_only_the_reached_bytes_of_a_storage_are_written(tmp_path: Path) -> None:
    big = ember.zeros(100_000)
    path = _saved(tmp_path, {"a": big[10:20], "b": big[30:40]})
    assert path.stat().st_size < 1_000
    loaded = ember.load(path)
    assert loaded["a"]._is_view_of(loaded["b"])
    loaded["a"].fill_(1.0)
    assert loaded["b"].sum().item() == 0.0


def test_same_tensor_twice_loads_as_one_object(tmp_path: Path) -> None:
    t = ember.ones(3)
    a, b = ember.load(_saved(tmp_path, [t, t]))
    assert a is b


def test_lone_tensors_are_named_entries_for_safetensors_readers(tmp_path: Path) -> None:
    x = ember.arange(4)
    path = _saved(tmp_path, {"layer": {"weight": ember.ones(2, 2), "bias": x}, "view": x[1:]})
    header = header_of(path)
    weight = header["layer.weight"]
    assert weight["dtype"] == "F32" and weight["shape"] == [2, 2]
    assert weight["data_offsets"][1] - weight["data_offsets"][0] == 16
    storages = [k for k in header if k.startswith("__ember_storage_")]
    assert len(storages) == 1  # bias and view share one storage entry
    assert header["__metadata__"]["ember.format"] == "1"


def test_entries_are_aligned_for_mmap(tmp_path: Path) -> None:
    obj = [ember.ones(3, dtype=ember.bool), ember.ones(3, dtype=ember.float64)]
    obj += [ember.ones(1, dtype=ember.int16), ember.ones(5, dtype=ember.int32)]
    path = _saved(tmp_path, obj)
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    assert (8 + n) % 8 == 0
    sizes = {"BOOL": 1, "F64": 8, "I16": 2, "I32": 4}
    for name, info in header_of(path).items():
        if name != "__metadata__":
            assert info["data_offsets"][0] % sizes[info["dtype"]] == 0, name


def test_mmap_is_copy_on_write(tmp_path: Path) -> None:
    path = _saved(tmp_path, {"w": ember.arange(1000.0)})
    before = path.read_bytes()
    loaded = ember.load(path, mmap=True)["w"]
    loaded.mul_(2.0)
    assert loaded[3].item() == 6.0
    assert path.read_bytes() == before
    again = ember.load(path, mmap=True)["w"]
    assert again[3].item() == 3.0


def test_mmap_tensors_outlive_the_file_object(tmp_path: Path) -> None:
    path = _saved(tmp_path, {"w": ember.arange(10)})
    with open(path, "rb") as fh:
        loaded = ember.load(fh, mmap=True)["w"]
    os.unlink(path)
    assert loaded.sum().item() == 45


def test_mmap_needs_a_descriptor() -> None:
    buffer = io.BytesIO()
    ember.save([ember.ones(1)], buffer)
    buffer.seek(0)
    raises(ValueError, "load", lambda: ember.load(buffer, mmap=True), "mmap=True")


def test_file_objects_and_paths(tmp_path: Path) -> None:
    t = ember.arange(5)
    buffer = io.BytesIO()
    ember.save(t, buffer)
    buffer.seek(0)
    same_values(ember.load(buffer), t)
    with open(tmp_path / "f", "wb") as fh:
        ember.save({"t": t}, fh)
    with open(tmp_path / "f", "rb") as fh:
        same_values(ember.load(fh)["t"], t)
    same_values(ember.load(str(tmp_path / "f"))["t"], t)


def test_unseekable_stream_loads() -> None:
    buffer = io.BytesIO()
    ember.save([ember.arange(3)], buffer)

    class Pipe(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self._data = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, target: Any) -> int:
            return self._data.readinto(target)

    loaded = ember.load(io.BufferedReader(Pipe(buffer.getvalue())))
    same_values(loaded[0], ember.arange(3))


def test_interrupted_save_keeps_the_previous_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _saved(tmp_path, {"w": ember.ones(4)})
    before = path.read_bytes()
    written = []

    def failing_chunks(chunks: Any) -> Any:
        for chunk in serialization_chunks(chunks):
            written.append(len(chunk))
            yield chunk
            raise OSError("disk full (simulated)")

    serialization_chunks = serialization._chunk_bytes
    monkeypatch.setattr(serialization, "_chunk_bytes", failing_chunks)
    with pytest.raises(OSError, match="simulated"):
        ember.save({"w": ember.zeros(1000), "v": ember.zeros(10, dtype=ember.int8)}, path)
    assert written  # the failure happened mid-write
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["saved.safetensors"]  # no temporary file left


def test_save_keeps_mode_and_writes_through_symlinks(tmp_path: Path) -> None:
    target = _saved(tmp_path, [ember.ones(1)])
    target.chmod(0o640)
    link = tmp_path / "link"
    link.symlink_to(target)
    ember.save([ember.zeros(2)], link)
    assert link.is_symlink()
    assert (target.stat().st_mode & 0o777) == 0o640
    same_values(ember.load(target)[0], ember.zeros(2))


def test_plain_safetensors_file_written_by_hand(tmp_path: Path) -> None:
    # Per the spec: a bool tensor first, so the float64 after it is misaligned in the file.
    b = np.array([True, False, True])
    d = np.arange(6, dtype="<f8").reshape(2, 3)
    header = {
        "flags": {"dtype": "BOOL", "shape": [3], "data_offsets": [0, 3]},
        "values": {"dtype": "F64", "shape": [2, 3], "data_offsets": [3, 51]},
        "__metadata__": {"format": "pt"},
    }
    raw = json.dumps(header).encode()
    path = tmp_path / "plain.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + b.tobytes() + d.tobytes())
    for use_mmap in (False, True):
        loaded = ember.load(path, mmap=use_mmap)
        assert list(loaded) == ["flags", "values"]
        np.testing.assert_array_equal(loaded["flags"].numpy(), b)
        np.testing.assert_array_equal(loaded["values"].numpy(), d)


def test_file_written_by_the_safetensors_library() -> None:
    # tests/data/numpy_lib.safetensors: safetensors.numpy.save_file({"x": arange(5, int16),
    # "b": [True, False], "y": ones((2, 2), float64)}, metadata={"format": "np"}).
    loaded = ember.load(DATA / "numpy_lib.safetensors")
    np.testing.assert_array_equal(loaded["x"].numpy(), np.arange(5, dtype=np.int16))
    np.testing.assert_array_equal(loaded["b"].numpy(), [True, False])
    np.testing.assert_array_equal(loaded["y"].numpy(), np.ones((2, 2)))


def test_ember_files_are_valid_for_the_safetensors_library(tmp_path: Path) -> None:
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    x = ember.arange(6.0)
    path = _saved(tmp_path, {"w": ember.ones(2, 3, dtype=ember.float64), "x": x, "v": x[2:]})
    tensors = safetensors_numpy.load_file(str(path))
    np.testing.assert_array_equal(tensors["w"], np.ones((2, 3)))
    assert tensors["__ember_storage_0"].nbytes == 24


def test_objects_outside_the_format_are_pickled_and_read_only_on_request(tmp_path: Path) -> None:
    path = tmp_path / "x"
    ember.save({"a": [Fraction(1, 3)], "w": ember.ones(2)}, path)  # as torch.save: pickled
    with pytest.raises(pickle.UnpicklingError, match="weights_only=False"):
        ember.load(path)
    back = ember.load(path, weights_only=False)
    assert back["a"] == [Fraction(1, 3)]
    assert ember.equal(back["w"], ember.ones(2))


def test_save_rejects_unsupported_objects(tmp_path: Path) -> None:
    path = tmp_path / "x"
    raises(TypeError, "save", lambda: ember.save({(1, 2): 1}, path), "dict keys")
    raises(ValueError, "save", lambda: ember.save(["\ud800"], path), "surrogate")
    loop: list[Any] = []
    loop.append(loop)
    raises(ValueError, "save", lambda: ember.save(loop, path), "contains itself")
    deep: list[Any] = []
    for _ in range(600):
        deep = [deep]
    raises(ValueError, "save", lambda: ember.save(deep, path), "nested")
    raises(TypeError, "save", lambda: ember.save([], 42), "path")  # type: ignore[arg-type]
    assert not path.exists()


def test_load_argument_checks(tmp_path: Path) -> None:
    path = _saved(tmp_path, [ember.ones(1)])
    assert ember.load(path, map_location="cpu")[0].item() == 1.0
    assert ember.load(path, map_location={"cuda:0": "cpu"}, weights_only=False)[0].item() == 1.0
    raises(RuntimeError, "load", lambda: ember.load(path, map_location="cuda"), "cuda")
    raises(NotImplementedError, "load", lambda: ember.load(path, map_location=lambda s, loc: s))
    raises(TypeError, "load", lambda: ember.load(path, map_location=3))
    raises(TypeError, "load", lambda: ember.load(path, weights_only="no"))  # type: ignore[arg-type]
    raises(TypeError, "load", lambda: ember.load(3.5))  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        ember.load(tmp_path / "missing")


# ---- complex tensors: C64 (safetensors' code) and C128 (ember's extension).

COMPLEX = {ember.complex64: np.complex64, ember.complex128: np.complex128}


def complex_tensor(shape: tuple[int, ...], dtype: Any, layout: str) -> ember.Tensor:
    """Distinct real and imaginary parts, viewing a bigger storage as `layout`."""
    real = numpy_array(shape, layout)
    values = (real - 1j * (real + 0.5)).astype(COMPLEX[dtype])
    if layout == "contiguous":
        return ember.from_numpy(values)
    # Keep numpy's geometry: a complex copy with the same strides (in elements).
    base = ember.from_numpy(np.ascontiguousarray(values.reshape(-1)))
    t = layout_tensor(shape, dtype, layout)
    t.copy_(base.reshape(shape) if base.numel() else t)
    return t


@given(
    shape=shapes(max_dims=3),
    dtype=st.sampled_from(list(COMPLEX)),
    layout=st.sampled_from(VIEW_LAYOUTS),
    use_mmap=st.booleans(),
)
def test_complex_round_trip(
    tmp_path_factory: pytest.TempPathFactory,
    shape: tuple[int, ...],
    dtype: Any,
    layout: str,
    use_mmap: bool,
) -> None:
    path = tmp_path_factory.mktemp("rt") / "c.safetensors"
    t = complex_tensor(shape, dtype, layout)
    ember.save({"t": t, "dtype": dtype}, path)
    loaded = ember.load(path, mmap=use_mmap)
    same_values(loaded["t"], t)
    assert loaded["t"].stride() == t.stride()
    assert loaded["dtype"] == dtype


@pytest.mark.parametrize("use_mmap", [False, True])
def test_complex_views_share_storage(tmp_path: Path, use_mmap: bool) -> None:
    x = complex_tensor((3, 4), ember.complex128, "contiguous")
    y = complex_tensor((5,), ember.complex64, "contiguous")
    obj = {
        "x": x,
        "xt": x.T,
        "row": x[1],
        "pairs": ember.view_as_real(x),
        "re": x.real,
        "im": x.imag,
        "y": y,
        "y_tail": y[2:],
        "empty": ember.zeros(0, 2, dtype=ember.complex64),
    }
    path = _saved(tmp_path, obj)
    loaded = ember.load(path, mmap=use_mmap)
    for key, value in obj.items():
        same_values(loaded[key], value)
    for key in ("xt", "row", "pairs", "re", "im"):
        assert loaded[key]._is_view_of(loaded["x"]), key
    assert loaded["y_tail"]._is_view_of(loaded["y"])
    loaded["x"][1, 2] = complex(7.0, -8.0)
    assert loaded["xt"][2, 1].item() == complex(7.0, -8.0)
    assert loaded["pairs"][1, 2].tolist() == [7.0, -8.0]
    assert loaded["im"][1, 2].item() == -8.0
    codes = {info["dtype"] for name, info in header_of(path).items() if name != "__metadata__"}
    assert codes == {"U8", "C64"}  # x is viewed as complex128 and float64: a U8 entry


def test_complex_entry_codes_and_alignment(tmp_path: Path) -> None:
    obj = {"a": ember.ones(3, dtype=ember.complex64), "b": ember.ones(1, dtype=ember.bool)}
    obj["c"] = ember.ones(2, 2, dtype=ember.complex128)
    path = _saved(tmp_path, obj)
    header = header_of(path)
    assert header["a"]["dtype"] == "C64" and header["a"]["shape"] == [3]
    assert header["c"]["dtype"] == "C128" and header["c"]["shape"] == [2, 2]
    assert header["c"]["data_offsets"][1] - header["c"]["data_offsets"][0] == 64
    # mmap=True uses an entry in place only when its file offset is a multiple of its item size.
    (n,) = struct.unpack("<Q", path.read_bytes()[:8])
    assert (8 + n + header["c"]["data_offsets"][0]) % 16 == 0
    assert (8 + n + header["a"]["data_offsets"][0]) % 8 == 0


def test_plain_safetensors_file_with_complex64(tmp_path: Path) -> None:
    """A C64 entry written by another library (safetensors' own code for complex64) loads."""
    z = (np.arange(4) + 1j * np.arange(4)[::-1]).astype("<c8")
    header = {"z": {"dtype": "C64", "shape": [2, 2], "data_offsets": [0, 32]}}
    raw = json.dumps(header).encode()
    path = tmp_path / "plain.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + z.tobytes())
    for use_mmap in (False, True):
        loaded = ember.load(path, mmap=use_mmap)["z"]
        assert loaded.dtype == ember.complex64
        np.testing.assert_array_equal(loaded.numpy(), z.reshape(2, 2))


def test_complex64_files_are_valid_for_the_safetensors_library(tmp_path: Path) -> None:
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    z = complex_tensor((2, 3), ember.complex64, "contiguous")
    tensors = safetensors_numpy.load_file(str(_saved(tmp_path, {"z": z})))
    np.testing.assert_array_equal(tensors["z"], z.numpy())
