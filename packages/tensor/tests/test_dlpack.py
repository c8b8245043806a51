"""Zero-copy interop: DLPack both ways (numpy, torch when importable), the buffer protocol on
tensors and ember.frombuffer. Sharing is checked by writing through one side and reading the
other; numpy is the value oracle."""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import NUMPY_DTYPES, VIEW_LAYOUTS, numpy_array, raises, shapes


@given(
    shape=shapes(max_dims=3),
    dtype=st.sampled_from(list(NUMPY_DTYPES)),
    layout=st.sampled_from(VIEW_LAYOUTS),
)
def test_numpy_from_ember_shares_memory(shape: tuple[int, ...], dtype: Any, layout: str) -> None:
    source = numpy_array(shape, layout).astype(NUMPY_DTYPES[dtype])
    t = ember.from_numpy(source.copy())
    if layout == "transposed" and t.dim() >= 2:
        t = t.T.contiguous().T
    array = np.from_dlpack(t)
    np.testing.assert_array_equal(array, t.numpy())
    assert array.strides == tuple(s * t.element_size() for s in t.stride())
    if t.numel():
        assert array.__array_interface__["data"][0] == t.data_ptr()


@given(shape=shapes(max_dims=3), layout=st.sampled_from(VIEW_LAYOUTS))
def test_ember_from_numpy_dlpack_shares_memory(shape: tuple[int, ...], layout: str) -> None:
    array = numpy_array(shape, layout)
    t = ember.from_dlpack(array)
    np.testing.assert_array_equal(t.numpy(), array)
    if array.size:
        array.flat[0] = -7.0
        assert t.flatten()[0].item() == -7.0


def test_writes_go_both_ways() -> None:
    t = ember.zeros(2, 3)
    np.from_dlpack(t)[1, 2] = 5.0
    assert t[1, 2].item() == 5.0
    array = np.zeros(4, dtype=np.int16)
    ember.from_dlpack(array).add_(3)
    np.testing.assert_array_equal(array, [3, 3, 3, 3])


def test_capsules_and_the_storage_lifetime() -> None:
    t = ember.arange(5.0)
    capsule = t.__dlpack__()
    pointer = t.data_ptr()
    del t  # the capsule keeps the storage alive
    alias = ember.from_dlpack(capsule)
    assert alias.data_ptr() == pointer
    np.testing.assert_array_equal(alias.numpy(), np.arange(5.0))
    with pytest.raises(TypeError):
        ember.from_dlpack(capsule)  # a capsule is consumed once


def test_read_only_is_kept() -> None:
    array = np.arange(3)
    array.flags.writeable = False
    t = ember.from_dlpack(array)
    raises(ValueError, "add", lambda: t.add_(1), "read-only")
    assert not np.from_dlpack(t).flags.writeable


def test_from_dlpack_of_an_ember_tensor_is_an_alias() -> None:
    t = ember.arange(4)
    alias = ember.from_dlpack(t)
    assert alias is not t and alias._is_view_of(t)
    copy = ember.from_dlpack(t, copy=True)
    assert not copy._is_view_of(t)
    np.testing.assert_array_equal(copy.numpy(), t.numpy())


def test_dlpack_arguments() -> None:
    t = ember.arange(3.0)
    assert t.__dlpack_device__() == (1, 0)
    assert "versioned" in repr(t.__dlpack__(max_version=(1, 0)))
    copied = np.from_dlpack(t, copy=True)
    copied[0] = 9.0
    assert t[0].item() == 0.0
    with pytest.raises(BufferError, match=r"^\[__dlpack__\]"):
        t.__dlpack__(dl_device=(2, 0))
    raises(ValueError, "__dlpack__", lambda: t.__dlpack__(dl_device=(2, 0)))
    raises(ValueError, "__dlpack__", lambda: t.__dlpack__(stream=1), "stream")
    raises(TypeError, "__dlpack__", lambda: t.__dlpack__(max_version=1), "max_version")
    raises(TypeError, "from_dlpack", lambda: ember.from_dlpack([1, 2]), "__dlpack__")
    raises(RuntimeError, "from_dlpack", lambda: ember.from_dlpack(np.ones(1), device="cuda"))


def test_bfloat16_crosses_dlpack_but_not_numpy() -> None:
    t = ember.ones(2, dtype=ember.bfloat16)
    alias = ember.from_dlpack(t.__dlpack__())
    assert alias.dtype == ember.bfloat16
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(t)


def test_torch_round_trip() -> None:
    torch = pytest.importorskip("torch")
    t = ember.arange(6.0).reshape(2, 3).T
    as_torch = torch.from_dlpack(t)
    assert as_torch.stride() == t.stride()
    as_torch[0, 1] = 42.0
    assert t[0, 1].item() == 42.0
    source = torch.arange(4, dtype=torch.bfloat16)
    back = ember.from_dlpack(source)
    source[2] = 9.0
    assert back.dtype == ember.bfloat16 and back[2].item() == 9.0


@pytest.mark.parametrize("dtype", list(NUMPY_DTYPES))
def test_buffer_protocol(dtype: Any) -> None:
    t = ember.arange(6).reshape(2, 3)._to_dtype(dtype)
    view = memoryview(t)
    assert view.shape == (2, 3) and view.itemsize == t.element_size() and not view.readonly
    np.testing.assert_array_equal(np.asarray(view), t.numpy())
    assert bytes(view) == t.numpy().tobytes()
    strided = memoryview(t.T)
    assert strided.strides == tuple(s * t.element_size() for s in t.T.stride())
    assert not strided.c_contiguous
    # frombuffer asks for contiguous memory, which the transposed view cannot give.
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(t.T, dtype=ember.uint8), "contig")
    reversed_t = ember.from_numpy(np.arange(4.0)[::-1])
    np.testing.assert_array_equal(np.asarray(memoryview(reversed_t)), [3.0, 2.0, 1.0, 0.0])


def test_buffer_protocol_writes_and_read_only() -> None:
    t = ember.zeros(4, dtype=ember.uint8)
    memoryview(t)[1] = 7
    assert t[1].item() == 7
    read_only = ember.frombuffer(b"abcd", dtype=ember.uint8)
    assert memoryview(read_only).readonly


def test_frombuffer() -> None:
    buffer = bytearray(np.arange(6, dtype=np.int32).tobytes())
    t = ember.frombuffer(buffer, dtype=ember.int32, count=3, offset=8)
    np.testing.assert_array_equal(t.numpy(), [2, 3, 4])
    t.fill_(-1)
    np.testing.assert_array_equal(np.frombuffer(buffer, np.int32), [0, 1, -1, -1, -1, 5])
    whole = ember.frombuffer(buffer, dtype=ember.int16)
    assert tuple(whole.shape) == (12,)
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(buffer, dtype=ember.int64, offset=4))
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(b"", dtype=ember.uint8))
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(buffer, dtype=ember.int32, count=7))
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(buffer, dtype=ember.int8, offset=24))
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(buffer, dtype=ember.int8, count=-2))
    raises(TypeError, "frombuffer", lambda: ember.frombuffer([1, 2], dtype=ember.int8))
    raises(
        RuntimeError,
        "frombuffer",
        lambda: ember.frombuffer(buffer, dtype=ember.int8, requires_grad=True),
    )
    strided = memoryview(bytearray(8)).cast("B")[::2]
    raises(ValueError, "frombuffer", lambda: ember.frombuffer(strided, dtype=ember.uint8))


def test_frombuffer_keeps_an_mmap_alive() -> None:
    region = mmap.mmap(-1, 16)
    t = ember.frombuffer(region, dtype=ember.float32)
    t.fill_(1.5)
    with pytest.raises(BufferError):
        region.close()  # exported to the tensor: cannot be unmapped under it
    del t
    region.close()
