"""Tensor attributes, Python conversions, NumPy interop and tensor creation from Python data."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ember
from conftest import ALL_DTYPES, NUMPY_DTYPES, autograd_installed

# ---- attributes -------------------------------------------------------------------------------


@given(
    shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5),
    numpy_dtype=st.sampled_from(list(NUMPY_DTYPES.values())),
)
def test_attributes_match_numpy(shape: tuple[int, ...], numpy_dtype: type) -> None:
    array = np.zeros(shape, dtype=numpy_dtype)
    t = ember.from_numpy(array)
    itemsize = array.itemsize
    assert t.shape == shape
    assert isinstance(t.shape, ember.Size)
    assert t.size() == shape
    assert all(t.size(d) == shape[d] for d in range(len(shape)))
    assert t.dim() == t.ndim == t.ndimension() == len(shape)
    assert t.numel() == t.nelement() == array.size == ember.numel(t)
    assert t.stride() == tuple(s // itemsize for s in array.strides)
    assert t.storage_offset() == 0
    assert t.is_contiguous()
    assert t.element_size() == t.itemsize == itemsize
    assert t.nbytes == array.nbytes
    assert t.device == ember.device("cpu")
    assert t.is_cpu and not t.is_cuda
    assert t.dtype.itemsize == itemsize
    if shape:
        assert len(t) == shape[0]


def test_views_report_strides_and_contiguity() -> None:
    base = np.arange(24, dtype=np.int32).reshape(4, 6)
    t = ember.from_numpy(base[:, 1::2])
    assert t.shape == (4, 3)
    assert t.stride() == (6, 2)
    assert t.stride(1) == 2 and t.stride(-2) == 6
    assert not t.is_contiguous()
    assert ember.from_numpy(base.T).stride() == (1, 6)
    assert t.tolist() == base[:, 1::2].tolist()
    assert ember.from_numpy(base[::-1]).tolist() == base[::-1].tolist()


def test_size_object() -> None:
    s = ember.tensor([[1, 2, 3]]).shape
    assert s == (1, 3)
    assert repr(s) == "ember.Size([1, 3])"
    assert s.numel() == 3
    assert ember.Size([]).numel() == 1


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=repr)
def test_item_and_python_conversions(dtype: ember.dtype) -> None:
    t = ember.tensor([3], dtype=dtype)
    value = t.item()
    if dtype == ember.bool:
        assert value is True
    elif dtype.is_floating_point:
        assert isinstance(value, float) and value == 3.0
    else:
        assert isinstance(value, int) and value == 3
    assert float(t) == (1.0 if dtype == ember.bool else 3.0)
    assert int(t) == (1 if dtype == ember.bool else 3)
    assert bool(t) is True
    assert bool(ember.tensor([0], dtype=dtype)) is False
    if not dtype.is_floating_point:
        assert [10, 20, 30, 40][t] == (20 if dtype == ember.bool else 40)
        assert t.__index__() == (1 if dtype == ember.bool else 3)


def test_int_truncates_and_rejects_non_finite() -> None:
    assert int(ember.tensor(-2.7)) == -2
    assert int(ember.tensor([2.7])) == 2
    with pytest.raises(ValueError, match=r"\[int\]"):
        int(ember.tensor(math.inf))
    with pytest.raises(ValueError, match=r"\[int\]"):
        int(ember.tensor(math.nan))


def test_conversion_errors_are_typed() -> None:
    two = ember.tensor([1, 2])
    with pytest.raises(RuntimeError, match=r"\[item\] a Tensor with 2 elements"):
        two.item()
    with pytest.raises(RuntimeError, match=r"\[bool\] .*more than one value is ambiguous"):
        bool(two)
    with pytest.raises(RuntimeError, match=r"\[bool\] .*no values is ambiguous"):
        bool(ember.tensor([]))
    with pytest.raises(RuntimeError, match=r"\[float\]"):
        float(two)
    with pytest.raises(TypeError, match=r"\[index\]"):
        [1, 2][ember.tensor([1.0])]
    with pytest.raises(TypeError, match=r"\[index\]"):
        [1, 2][two]
    with pytest.raises(TypeError, match=r"\[len\] len\(\) of a 0-d tensor"):
        len(ember.tensor(1.0))
    with pytest.raises(TypeError, match=r"\[iter\] iteration over a 0-d tensor"):
        iter(ember.tensor(1.0))


@given(
    hnp.arrays(
        st.sampled_from([np.int32, np.float64, np.bool_]),
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4),
    )
)
def test_tolist_matches_numpy(array: np.ndarray) -> None:
    result = ember.from_numpy(array).tolist()
    assert type(result) is type(array.tolist())
    if array.dtype.kind == "f":  # nan == nan here
        got = np.asarray(result, dtype=array.dtype).reshape(array.shape)
        np.testing.assert_array_equal(got, array)
    else:
        assert result == array.tolist()


def test_tolist_of_reduced_precision_floats() -> None:
    assert ember.tensor([0.1, 2.0], dtype=ember.float16).tolist() == [
        float(np.float16(0.1)),
        2.0,
    ]
    assert ember.tensor([1.0, 3.0], dtype=ember.bfloat16).tolist() == [1.0, 3.0]


def test_iteration_yields_rows() -> None:
    t = ember.tensor([[1, 2], [3, 4]])
    rows = list(t)
    assert [r.tolist() for r in rows] == [[1, 2], [3, 4]]


def test_reversed_flips_dim_0() -> None:
    assert reversed(ember.tensor([1, 2, 3])).tolist() == [3, 2, 1]
    scalar = ember.tensor(5)
    assert reversed(scalar) is scalar


def test_contains() -> None:
    t = ember.tensor([[1, 2], [3, 4]])
    assert 3 in t
    assert 5 not in t
    assert 2.0 in t
    assert ember.tensor(4) in t
    assert ember.tensor([3, 4]) in t
    with pytest.raises(RuntimeError, match=r"\[contains\] .*only supports Tensor or scalar"):
        _ = "a" in t


def test_hash_is_identity() -> None:
    a, b = ember.tensor([1]), ember.tensor([1])
    assert len({a, b, a}) == 2


# ---- dtype / device conversions ---------------------------------------------------------------


def test_to_dtype_device_and_other() -> None:
    t = ember.tensor([1.5, -2.0])
    assert t.to(ember.float32) is t
    assert t.to("cpu") is t
    assert t.to(ember.device("cpu")) is t
    assert t.to(device="cpu", dtype=ember.float32) is t
    copied = t.to(ember.float32, copy=True)
    assert copied is not t and copied.tolist() == t.tolist()
    copied.add_(1)
    assert t.tolist() == [1.5, -2.0]
    assert t.to(ember.int32).tolist() == [1, -2]
    assert t.to("cpu", ember.float64).dtype == ember.float64
    assert t.to(dtype=ember.float16).dtype == ember.float16
    assert t.to(ember.tensor([1], dtype=ember.int8)).dtype == ember.int8
    assert t.to(int).dtype == ember.int64
    assert t.to(float).dtype == ember.float64
    assert t.cpu() is t
    with pytest.raises(RuntimeError, match=r"\[to\] device 'cuda:0': CUDA tensors are not yet"):
        t.to("cuda:0")
    with pytest.raises(RuntimeError, match=r"\[device\]"):
        t.to("gpu")
    with pytest.raises(TypeError, match=r"\[to\]"):
        t.to([1])
    with pytest.raises(TypeError, match=r"\[to\] unexpected keyword"):
        t.to(ember.float64, foo=1)


@pytest.mark.parametrize(
    ("dtype", "name"),
    [
        (ember.bool, "BoolTensor"),
        (ember.uint8, "ByteTensor"),
        (ember.int8, "CharTensor"),
        (ember.int16, "ShortTensor"),
        (ember.int32, "IntTensor"),
        (ember.int64, "LongTensor"),
        (ember.float16, "HalfTensor"),
        (ember.bfloat16, "BFloat16Tensor"),
        (ember.float32, "FloatTensor"),
        (ember.float64, "DoubleTensor"),
    ],
)
def test_type_names(dtype: ember.dtype, name: str) -> None:
    t = ember.tensor([1], dtype=dtype)
    assert t.type() == f"torch.{name}"  # torch's spelling, so code comparing names works
    assert ember.tensor([1.0]).type(f"ember.{name}").dtype == dtype
    assert ember.tensor([1.0]).type(f"torch.{name}").dtype == dtype
    assert ember.tensor([1.0]).type(dtype).dtype == dtype
    assert t.type(dtype) is t


def test_type_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match=r"\[type\] invalid type"):
        ember.tensor([1]).type("ember.ComplexTensor")


def test_new_tensor_keeps_dtype() -> None:
    base = ember.tensor([1], dtype=ember.int16)
    made = base.new_tensor([[1, 2]])
    assert made.dtype == ember.int16 and made.tolist() == [[1, 2]]
    assert base.new_tensor([1.5], dtype=ember.float64).dtype == ember.float64
    if not autograd_installed():
        with pytest.raises(RuntimeError, match=r"\[new_tensor\] requires_grad=True needs"):
            base.new_tensor([1], requires_grad=True)
    else:
        leaf = base.new_tensor([1.0], dtype=ember.float64, requires_grad=True)
        assert leaf.requires_grad and leaf.is_leaf
    with pytest.raises(RuntimeError, match=r"\[new_tensor\] device 'cuda'"):
        base.new_tensor([1], device="cuda")


def test_new_factories() -> None:
    base = ember.tensor([1], dtype=ember.int16)
    assert base.new_zeros(2, 3).tolist() == [[0] * 3] * 2
    assert base.new_zeros((2,)).dtype == ember.int16
    assert base.new_ones(2, dtype=ember.float64).tolist() == [1.0, 1.0]
    assert base.new_full((2,), 7).tolist() == [7, 7]
    assert base.new_empty(4).shape == (4,)


def test_missing_factories_raise_a_clear_error() -> None:
    base = ember.tensor([1])
    for name in ("zeros", "ones", "empty"):
        if not hasattr(ember, name):
            with pytest.raises(NotImplementedError, match=rf"\[new_{name}\]"):
                getattr(base, f"new_{name}")(2)


# ---- module-level helpers ---------------------------------------------------------------------


def test_dtype_aliases() -> None:
    assert ember.float is ember.float32
    assert ember.double is ember.float64
    assert ember.half is ember.float16
    assert ember.long is ember.int64
    assert ember.int is ember.int32
    assert ember.short is ember.int16
    assert ember.cfloat is ember.complex64


def test_dtype_objects_pickle_and_compare() -> None:
    for dtype in ALL_DTYPES:
        assert pickle.loads(pickle.dumps(dtype)) is dtype
    assert ember.float32 != ember.float64


def test_predicates() -> None:
    assert ember.is_tensor(ember.tensor([1]))
    assert not ember.is_tensor([1])
    assert ember.is_floating_point(ember.tensor([1.0]))
    assert not ember.is_floating_point(ember.tensor([1]))
    assert ember.numel(ember.tensor([[1, 2, 3]])) == 3
    assert ember.is_nonzero(ember.tensor([0.5]))
    assert not ember.is_nonzero(ember.tensor(0))
    with pytest.raises(RuntimeError, match=r"\[is_nonzero\] .*more than one value"):
        ember.is_nonzero(ember.tensor([1, 2]))
    with pytest.raises(RuntimeError, match=r"\[is_nonzero\] .*no values"):
        ember.is_nonzero(ember.tensor([]))
    with pytest.raises(TypeError, match=r"\[numel\] expected a Tensor"):
        ember.numel([1, 2])


FINFO = {
    # dtype: (bits, eps, max, tiny, resolution), as torch.finfo reports them.
    ember.float16: (16, 0.0009765625, 65504.0, 6.103515625e-05, 0.001),
    ember.bfloat16: (16, 0.0078125, 3.3895313892515355e38, 1.1754943508222875e-38, 0.01),
    ember.float32: (
        32,
        1.1920928955078125e-07,
        3.4028234663852886e38,
        1.1754943508222875e-38,
        1e-06,
    ),
    ember.float64: (
        64,
        2.220446049250313e-16,
        1.7976931348623157e308,
        2.2250738585072014e-308,
        1e-15,
    ),
}


@pytest.mark.parametrize("dtype", list(FINFO), ids=repr)
def test_finfo(dtype: ember.dtype) -> None:
    bits, eps, big, tiny, resolution = FINFO[dtype]
    info = ember.finfo(dtype)
    assert (info.bits, info.eps, info.max, info.min) == (bits, eps, big, -big)
    assert (info.tiny, info.smallest_normal, info.resolution) == (tiny, tiny, resolution)
    assert info.dtype == repr(dtype).removeprefix("ember.")


def test_finfo_matches_numpy_and_default() -> None:
    for dtype, numpy_dtype in [(ember.float16, np.float16), (ember.float32, np.float32)]:
        assert ember.finfo(dtype).eps == float(np.finfo(numpy_dtype).eps)
        assert ember.finfo(dtype).max == float(np.finfo(numpy_dtype).max)
    assert ember.finfo().dtype == "float32"
    assert repr(ember.finfo(ember.float32)) == (
        "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, "
        "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)"
    )
    with pytest.raises(TypeError, match=r"\[finfo\] .*requires a floating point"):
        ember.finfo(ember.int32)


@pytest.mark.parametrize(
    ("dtype", "numpy_dtype"),
    [(d, n) for d, n in NUMPY_DTYPES.items() if d not in (ember.bool,) and not d.is_floating_point],
    ids=str,
)
def test_iinfo(dtype: ember.dtype, numpy_dtype: type) -> None:
    info = ember.iinfo(dtype)
    expected = np.iinfo(numpy_dtype)
    assert (info.bits, info.min, info.max) == (expected.bits, int(expected.min), int(expected.max))
    assert info.dtype == repr(dtype).removeprefix("ember.")


def test_iinfo_errors_and_repr() -> None:
    assert repr(ember.iinfo(ember.int32)) == "iinfo(min=-2.14748e+09, max=2.14748e+09, dtype=int32)"
    with pytest.raises(TypeError, match=r"\[iinfo\] ember.bool is not supported"):
        ember.iinfo(ember.bool)
    with pytest.raises(TypeError, match=r"\[iinfo\] .*requires an integer"):
        ember.iinfo(ember.float32)


def test_device_objects() -> None:
    cpu = ember.device("cpu")
    assert (cpu.type, cpu.index, repr(cpu), str(cpu)) == ("cpu", None, "device(type='cpu')", "cpu")
    cuda = ember.device("cuda:1")
    assert (cuda.type, cuda.index, str(cuda)) == ("cuda", 1, "cuda:1")
    assert repr(cuda) == "device(type='cuda', index=1)"
    assert ember.device("cpu", 0) == ember.device("cpu:0")
    assert ember.device("cpu") != ember.device("cpu", 0)
    assert ember.device(cuda) == cuda
    assert hash(ember.device("cuda", 1)) == hash(cuda)
    assert cpu != "cpu"
    assert pickle.loads(pickle.dumps(cuda)) == cuda
    with pytest.raises(RuntimeError, match=r"\[device\] Expected one of .* device string: foo"):
        ember.device("foo")
    with pytest.raises(RuntimeError, match=r"\[device\] Invalid device string: 'cuda:x'"):
        ember.device("cuda:x")
    with pytest.raises(RuntimeError, match=r"\[device\] Device index must not be negative"):
        ember.device("cpu", -1)
    with pytest.raises(RuntimeError, match=r"\[device\] .*must not include an index"):
        ember.device("cpu:0", 1)
    with pytest.raises(TypeError, match=r"\[device\]"):
        ember.device(1.5)  # type: ignore[arg-type]


def test_cuda_and_version_modules() -> None:
    assert ember.cuda.is_available() is False
    assert ember.cuda.device_count() == 0
    assert ember.version.variant == ember._C.variant == "cpu"
    assert ember.version.__version__ == ember.__version__
    assert ember.version.cuda is None


# ---- NumPy interop ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", list(NUMPY_DTYPES), ids=repr)
def test_from_numpy_shares_memory_both_ways(dtype: ember.dtype) -> None:
    array = np.zeros((2, 3), dtype=NUMPY_DTYPES[dtype])
    t = ember.from_numpy(array)
    assert t.dtype == dtype
    array[1, 2] = 1
    assert t.tolist()[1][2] == 1
    t.fill_(1)
    assert (array == 1).all()
    back = t.numpy()
    assert np.shares_memory(back, array)
    assert t.data_ptr() == array.ctypes.data


def test_from_numpy_views_and_negative_strides() -> None:
    base = np.arange(20, dtype=np.float64).reshape(4, 5)
    view = base[::-1, 1::2]
    t = ember.from_numpy(view)
    assert t.tolist() == view.tolist()
    assert t.stride() == (-5, 2)
    t.mul_(-1)
    assert base[3, 1] == -16.0
    assert base[0, 0] == 0.0  # elements outside the view are untouched
    round_trip = t.numpy()
    assert round_trip.strides == view.strides
    assert np.shares_memory(round_trip, base)


def test_read_only_arrays_refuse_writes() -> None:
    array = np.arange(6.0)
    array.flags.writeable = False
    t = ember.from_numpy(array)
    assert (t + 1).tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    for write in (
        lambda: t.add_(1),
        lambda: t.neg_(),
        lambda: t.fill_(0),
        lambda: t.zero_(),
        lambda: t.copy_(ember.tensor(0.0)),
        lambda: ember.add(t, 1, out=t),
        lambda: ember.exp(t, out=t),
        lambda: t.clamp_(0, 1),
    ):
        with pytest.raises(ValueError, match=r"read-only"):
            write()
    assert array.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_numpy_array_protocol() -> None:
    t = ember.tensor([[1, 2], [3, 4]], dtype=ember.int32)
    array = np.asarray(t)
    assert array.dtype == np.int32 and np.shares_memory(array, t.numpy())
    assert np.asarray(t, dtype=np.float64).dtype == np.float64
    assert np.array(t).tolist() == [[1, 2], [3, 4]]
    copied = t.__array__(copy=True)
    copied[0, 0] = 9
    assert t.tolist()[0][0] == 1
    forced = t.numpy(force=True)
    assert not np.shares_memory(forced, t.numpy())


def test_numpy_operands_defer_to_the_tensor() -> None:
    t = ember.tensor([1.0, 2.0])
    result = np.ones(2) + t
    assert isinstance(result, ember.Tensor)
    assert result.dtype == ember.float64 and result.tolist() == [2.0, 3.0]
    assert isinstance(np.float32(2) * t, ember.Tensor)
    assert (np.float32(2) * t).dtype == ember.float32
    assert (np.int64(3) - t).tolist() == [2.0, 1.0]
    # NumPy scalars on the right are numbers too (torch's rule: they do not widen the tensor).
    for scalar in (np.float32(2), np.float64(2), np.int64(2), np.int8(2), np.float16(2)):
        result = t * scalar
        assert isinstance(result, ember.Tensor) and result.dtype == ember.float32
        assert result.tolist() == [2.0, 4.0]
    assert (t < np.int64(2)).tolist() == [True, False]
    assert ember.Tensor.__array_priority__ == 1000


def test_bfloat16_has_no_numpy_dtype() -> None:
    t = ember.tensor([1.0], dtype=ember.bfloat16)
    with pytest.raises(TypeError, match=r"\[numpy\] NumPy has no bfloat16"):
        t.numpy()
    assert t.float().numpy().tolist() == [1.0]


def test_from_numpy_rejects_non_arrays() -> None:
    with pytest.raises(TypeError, match=r"\[from_numpy\] expected np.ndarray"):
        ember.from_numpy([1, 2])
    with pytest.raises(TypeError, match=r"\[from_numpy\]"):
        ember.from_numpy(np.array([1], dtype=np.longdouble))  # uint32 is supported now


# ---- ember.tensor / as_tensor -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "dtype", "shape"),
    [
        ([1, 2], ember.int64, (2,)),
        ([1.0, 2], ember.float32, (2,)),
        ([True, False], ember.bool, (2,)),
        ([True, 1], ember.int64, (2,)),
        ([[1, 2.5], [3, 4]], ember.float32, (2, 2)),
        (3, ember.int64, ()),
        (2.5, ember.float32, ()),
        (False, ember.bool, ()),
        ([], ember.float32, (0,)),
        ([[], []], ember.float32, (2, 0)),
        (((1, 2), (3, 4)), ember.int64, (2, 2)),
        ([ember.tensor(1.5), 2], ember.float32, (2,)),
        ([np.float64(1.5)], ember.float32, (1,)),
    ],
)
def test_tensor_infers_dtype_like_torch(data: object, dtype: ember.dtype, shape: tuple) -> None:
    t = ember.tensor(data)
    assert t.dtype == dtype
    assert t.shape == shape


def test_tensor_with_dtype_and_values() -> None:
    t = ember.tensor([[1, 2], [3, 4]], dtype=ember.float64)
    assert t.dtype == ember.float64 and t.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert ember.tensor([1.7, -1.7], dtype=ember.int32).tolist() == [1, -1]
    assert ember.tensor([0.1], dtype=ember.bfloat16).tolist() == [0.10009765625]


def test_tensor_copies_and_as_tensor_shares() -> None:
    array = np.arange(3.0)
    copied = ember.tensor(array)
    shared = ember.as_tensor(array)
    array[0] = 7
    assert copied.tolist()[0] == 0.0
    assert shared.tolist()[0] == 7.0
    t = ember.tensor([1, 2])
    assert ember.as_tensor(t) is t
    assert ember.as_tensor(t, dtype=ember.float32).dtype == ember.float32
    assert ember.tensor(t) is not t


@pytest.mark.parametrize(
    "data",
    [[[1, 2], [3]], [1, [2]], [[1], 2], [[[1, 2]], [[3]]]],
    ids=["short_row", "number_then_list", "list_then_number", "deep"],
)
def test_ragged_lists_raise_value_error(data: object) -> None:
    with pytest.raises(ValueError, match=r"\[tensor\]"):
        ember.tensor(data)


def test_tensor_bad_elements() -> None:
    with pytest.raises(TypeError, match=r"\[tensor\] could not infer dtype of str"):
        ember.tensor(["a"])
    with pytest.raises(RuntimeError, match=r"\[tensor\] Overflow"):
        ember.tensor([2**64])
    with pytest.raises(TypeError, match=r"\[tensor\] expected an ember dtype"):
        ember.tensor([1], dtype="float32")


def test_clone_of_negative_stride_numpy_view_is_a_contiguous_copy() -> None:
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    view = ember.from_numpy(base[::-1])
    copy = view.clone()
    assert copy.is_contiguous()
    np.testing.assert_array_equal(copy.numpy(), base[::-1])
    base[0, 0] = 100.0  # the clone owns its memory
    assert copy[2, 0].item() == 0.0
