"""Creation ops: empty/zeros/ones/full(_like), empty_strided, arange, linspace, logspace, eye."""

from __future__ import annotations

import doctest
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import (
    ALL_DTYPES,
    NUMPY_DTYPES,
    assert_close,
    autograd_installed,
    np_dtype,
    shapes,
    to_numpy,
)


@pytest.fixture
def default_float64() -> Iterator[None]:
    ember.set_default_dtype(ember.float64)
    try:
        yield
    finally:
        ember.set_default_dtype(ember.float32)


# ---- empty / zeros / ones / full ----


@pytest.mark.parametrize(
    "args", [(2, 3), ((2, 3),), ([2, 3],), (ember.Size([2, 3]),), (np.int64(2), 3)]
)
@pytest.mark.parametrize("op", ["zeros", "ones", "empty"])
def test_size_forms(op: str, args: tuple[Any, ...]) -> None:
    t = getattr(ember, op)(*args)
    assert tuple(t.shape) == (2, 3)
    assert t.dtype == ember.float32
    assert t.is_contiguous()


@pytest.mark.parametrize("args", [((),), ([],)])
def test_zero_dim(args: tuple[Any, ...]) -> None:
    assert tuple(ember.zeros(*args).shape) == ()
    assert_close(ember.ones(*args), np.ones((), np.float32), dtype=ember.float32)


@given(shape=shapes(max_side=5), dtype=st.sampled_from(ALL_DTYPES))
def test_zeros_ones_match_numpy(shape: tuple[int, ...], dtype: Any) -> None:
    assert_close(ember.zeros(shape, dtype=dtype), np.zeros(shape, np_dtype(dtype)), dtype=dtype)
    ones = ember.ones(*shape, dtype=dtype) if shape else ember.ones(shape, dtype=dtype)
    assert_close(ones, np.ones(shape, np_dtype(dtype)), dtype=dtype)
    t = ember.empty(shape, dtype=dtype)
    assert tuple(t.shape) == shape and t.dtype == dtype


@given(shape=shapes(max_side=5), dtype=st.sampled_from(ALL_DTYPES), value=st.integers(-100, 100))
def test_full_matches_numpy(shape: tuple[int, ...], dtype: Any, value: int) -> None:
    if dtype == ember.uint8:
        value = abs(value)
    expected = np.full(shape, value).astype(np_dtype(dtype))
    assert_close(ember.full(shape, value, dtype=dtype), expected, dtype=dtype)
    expected = np.full(shape, value + 0.25).astype(np_dtype(dtype))  # floats truncate for ints
    assert_close(ember.full(list(shape), value + 0.25, dtype=dtype), expected)


@pytest.mark.parametrize(
    ("value", "dtype"),
    [
        (True, ember.bool),
        (3, ember.int64),
        (2.5, ember.float32),
        (np.int32(3), ember.int64),
        (np.float64(0.5), ember.float32),
        (ember.tensor(3), ember.int64),
        (ember.tensor(1.5), ember.float32),
    ],
)
def test_full_dtype_inference(value: Any, dtype: Any) -> None:
    t = ember.full((2,), value)
    assert t.dtype == dtype
    assert_close(t, np.full((2,), float(value)).astype(NUMPY_DTYPES[dtype]))


def test_full_follows_default_dtype(default_float64: None) -> None:
    assert ember.full((2,), 1.5).dtype == ember.float64
    assert ember.zeros(2).dtype == ember.float64
    assert ember.full((2,), 1).dtype == ember.int64


def test_full_large_int64_is_exact() -> None:
    assert ember.full((1,), 2**62 + 1).numpy()[0] == 2**62 + 1


def test_full_negative_wraps_unsigned() -> None:
    assert_close(ember.full((2,), -1, dtype=ember.uint8), np.full(2, 255, np.uint8))


@pytest.mark.parametrize(
    ("value", "dtype"),
    [(300, ember.uint8), (-129, ember.int8), (float("nan"), ember.int64), (1e10, ember.float16)],
)
def test_full_overflow_raises(value: Any, dtype: Any) -> None:
    with pytest.raises(RuntimeError, match=r"^\[full\] value .* without overflow"):
        ember.full((2,), value, dtype=dtype)
    with pytest.raises(RuntimeError, match=r"^\[full_like\]"):
        ember.full_like(ember.zeros(2), value, dtype=dtype)


@pytest.mark.parametrize(
    ("call", "exc"),
    [
        (lambda: ember.full(2, 1.0), TypeError),
        (lambda: ember.full((2,), 1 + 2j, dtype=ember.float32), TypeError),
        (lambda: ember.full((2,), "a"), TypeError),
        (lambda: ember.full((2,), ember.ones(2)), RuntimeError),
    ],
)
def test_full_bad_arguments(call: Callable[[], Any], exc: type[Exception]) -> None:
    with pytest.raises(exc, match=r"^\[full\]"):
        call()


@pytest.mark.parametrize("op", ["zeros", "ones", "empty"])
def test_out(op: str) -> None:
    out = ember.empty(5)
    r = getattr(ember, op)(2, 2, out=out)
    assert r is out
    assert tuple(out.shape) == (2, 2)
    if op != "empty":
        assert_close(out, np.full((2, 2), op == "ones", np.float32))
    # out's dtype is used when dtype is not given.
    r = getattr(ember, op)(3, out=ember.empty(1, dtype=ember.int64))
    assert r.dtype == ember.int64
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] dtype float64 does not match"):
        getattr(ember, op)(2, dtype=ember.float64, out=ember.empty(2))


def test_full_out_keeps_strides_of_matching_view() -> None:
    base = np.zeros((2, 4), np.float32)
    view = ember.from_numpy(base[:, ::2])
    ember.full((2, 2), 7.0, out=view)
    np.testing.assert_array_equal(base, [[7, 0, 7, 0], [7, 0, 7, 0]])


@pytest.mark.parametrize("dtype", [None, ember.int8, ember.float64, ember.bool])
def test_like_ops(dtype: Any) -> None:
    src = ember.from_numpy(np.arange(6, dtype=np.float32).reshape(2, 3).T)  # strides (1, 3)
    want = dtype or ember.float32
    for op, value in [("zeros_like", 0), ("ones_like", 1), ("empty_like", None)]:
        t = getattr(ember, op)(src, dtype=dtype)
        assert t.dtype == want and tuple(t.shape) == (3, 2)
        assert t.stride() == (1, 3), "dense inputs keep their memory layout"
        if value is not None:
            assert_close(t, np.full((3, 2), value).astype(NUMPY_DTYPES[want]))
    t = ember.full_like(src, 2, dtype=dtype)
    assert t.dtype == want and t.stride() == (1, 3)
    assert_close(t, np.full((3, 2), 2).astype(NUMPY_DTYPES[want]))


def test_like_ops_non_dense_become_contiguous() -> None:
    src = ember.from_numpy(np.zeros((4, 6), np.float32)[:, ::2])
    t = ember.ones_like(src)
    assert t.is_contiguous() and tuple(t.shape) == (4, 3)
    assert_close(t, np.ones((4, 3), np.float32))


def test_full_like_keeps_input_dtype() -> None:
    t = ember.full_like(ember.zeros(2, dtype=ember.int64), 3.7)
    assert_close(t, np.array([3, 3]), dtype=ember.int64)


def test_empty_strided() -> None:
    t = ember.empty_strided((2, 3), (1, 2))
    assert tuple(t.shape) == (2, 3) and t.stride() == (1, 2) and t.dtype == ember.float32
    assert ember.empty_strided((2, 3), (0, 0), dtype=ember.int32).dtype == ember.int32
    with pytest.raises(RuntimeError, match=r"^\[empty_strided\] dimensionality of sizes \(2\)"):
        ember.empty_strided((2, 3), (1,))
    with pytest.raises(RuntimeError, match=r"^\[empty_strided\] negative strides"):
        ember.empty_strided((2, 3), (-1, 2))
    with pytest.raises(RuntimeError, match=r"^\[empty_strided\] Trying to create tensor"):
        ember.empty_strided((-2, 3), (3, 1))


# ---- arange ----


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        ((5,), {}, np.arange(5)),
        ((2, 9, 3), {}, np.arange(2, 9, 3)),
        ((5, 0, -1), {}, np.arange(5, 0, -1)),
        ((10, 0, -3), {}, np.arange(10, 0, -3)),
        ((2, 2), {}, np.arange(2, 2)),
        ((True,), {}, np.arange(1)),
        ((2**62, 2**62 + 3), {}, np.arange(2**62, 2**62 + 3)),
        ((5.0,), {}, np.arange(5, dtype=np.float32)),
        ((0, 1, 0.3), {}, np.arange(0, 1, 0.3).astype(np.float32)),
        ((0, 10, 3), {"dtype": ember.float32}, np.arange(0, 10, 3, dtype=np.float32)),
        ((0.5, 3), {"dtype": ember.int64}, np.array([0, 1, 2])),
        ((-1.5, 3), {"dtype": ember.int64}, np.array([-1, 0, 1, 2])),
        ((0, 300, 1), {"dtype": ember.uint8}, np.arange(300).astype(np.uint8)),
        ((ember.tensor(3),), {}, np.arange(3)),
        ((ember.tensor(1.0), 3), {}, np.arange(1, 3, dtype=np.float32)),
    ],
)
def test_arange_table(args: tuple[Any, ...], kwargs: dict[str, Any], expected: Any) -> None:
    expected = np.asarray(expected)
    t = ember.arange(*args, **kwargs)
    want = {np.dtype(np.int64): ember.int64, np.dtype(np.float32): ember.float32}.get(
        expected.dtype, ember.uint8
    )
    assert_close(t, expected, dtype=want)


@given(start=st.integers(-50, 50), end=st.integers(-50, 50), step=st.integers(-7, 7))
def test_arange_ints_match_numpy(start: int, end: int, step: int) -> None:
    if step == 0 or (end - start) * step < 0:
        with pytest.raises(RuntimeError, match=r"^\[arange\]"):
            ember.arange(start, end, step)
        return
    assert_close(ember.arange(start, end, step), np.arange(start, end, step), dtype=ember.int64)


@given(
    start=st.floats(-100, 100),
    length=st.floats(0, 100),
    step=st.floats(0.01, 10),
    negative=st.booleans(),
    dtype=st.sampled_from([ember.float32, ember.float64]),
)
def test_arange_floats_length_rule(
    start: float, length: float, step: float, negative: bool, dtype: Any
) -> None:
    end = start - length if negative else start + length
    step = -step if negative else step
    t = ember.arange(start, end, step, dtype=dtype)
    n = math.ceil((end - start) / step)
    assert tuple(t.shape) == (n,)
    expected = start + np.arange(n) * step
    assert_close(t, expected.astype(NUMPY_DTYPES[dtype]), dtype=dtype, rtol=1e-6, atol=1e-4)


def test_arange_float_dtypes_and_default(default_float64: None) -> None:
    assert ember.arange(3.0).dtype == ember.float64
    assert ember.arange(3).dtype == ember.int64
    for dtype in [ember.float16, ember.bfloat16, ember.int8, ember.int16, ember.int32]:
        assert_close(ember.arange(0, 6, 2, dtype=dtype).float(), np.arange(0, 6, 2, np.float32))


def test_arange_keywords() -> None:
    assert_close(ember.arange(end=4), np.arange(4), dtype=ember.int64)
    assert_close(ember.arange(start=1, end=7, step=2), np.arange(1, 7, 2), dtype=ember.int64)
    assert_close(ember.arange(1, 2, step=0.25), np.arange(1, 2, 0.25, dtype=np.float32))
    with pytest.raises(TypeError, match=r"^\[arange\] missing required argument 'end'"):
        ember.arange()


def test_arange_out() -> None:
    out = ember.empty(0, dtype=ember.int64)
    assert ember.arange(4, out=out) is out
    assert_close(out, np.arange(4), dtype=ember.int64)


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "message"),
    [
        ((0, 1, 0), {}, RuntimeError, "step must be nonzero"),
        ((0, 5, 0.5), {"dtype": ember.int64}, RuntimeError, "step must be nonzero"),
        ((0, -1, 1), {}, RuntimeError, "inconsistent with step sign"),
        ((1, 0), {}, RuntimeError, "inconsistent with step sign"),
        ((0, 5, -1), {}, RuntimeError, "inconsistent with step sign"),
        ((0, float("inf")), {}, RuntimeError, "unsupported range"),
        ((0, float("nan")), {}, RuntimeError, "unsupported range"),
        ((0, 1e20, 1.0), {}, RuntimeError, "invalid size"),
        ((0, 1, 1e-300), {}, RuntimeError, "invalid size"),
        ((-(2**63), 2**63 - 1), {}, RuntimeError, "invalid size"),
        ((10,), {"dtype": ember.bool}, NotImplementedError, "not implemented for 'Bool'"),
        (("a",), {}, TypeError, "must be a real number"),
        ((0, 2**62, 1), {"dtype": ember.int8}, RuntimeError, "bytes"),
    ],
)
def test_arange_errors(
    args: tuple[Any, ...], kwargs: dict[str, Any], exc: type[Exception], message: str
) -> None:
    with pytest.raises(exc, match=r"^\[arange\].*" + message):
        ember.arange(*args, **kwargs)


# ---- linspace / logspace ----


@given(
    start=st.floats(-1e3, 1e3),
    end=st.floats(-1e3, 1e3),
    steps=st.integers(0, 40),
    dtype=st.sampled_from([ember.float32, ember.float64]),
)
def test_linspace_matches_numpy(start: float, end: float, steps: int, dtype: Any) -> None:
    expected = np.linspace(start, end, steps).astype(NUMPY_DTYPES[dtype])
    assert_close(ember.linspace(start, end, steps, dtype=dtype), expected, dtype=dtype, atol=1e-3)


def test_linspace_details() -> None:
    t = ember.linspace(0, 1, 5)
    assert_close(t, np.linspace(0, 1, 5, dtype=np.float32), dtype=ember.float32)
    assert to_numpy(ember.linspace(2.0, 7.0, 1)).tolist() == [2.0]  # one point is `start`
    assert ember.linspace(0, 1, 0).numel() == 0
    endpoint = ember.linspace(0.1, 0.7, 7, dtype=ember.float64).numpy()
    assert endpoint[0] == 0.1 and endpoint[-1] == 0.7  # both endpoints exact
    # Integer dtypes truncate the float points, like torch.
    assert to_numpy(ember.linspace(0, 10, 5, dtype=ember.int64)).tolist() == [0, 2, 5, 7, 10]
    assert to_numpy(ember.linspace(0, 10, 4, dtype=ember.int32)).tolist() == [0, 3, 6, 10]
    assert_close(ember.linspace(ember.tensor(0.0), ember.tensor(1), 3), np.linspace(0, 1, 3))
    assert_close(ember.linspace(0, 1, 3, dtype=ember.float16).float(), np.linspace(0, 1, 3))


@given(
    start=st.floats(-3, 3),
    end=st.floats(-3, 3),
    steps=st.integers(0, 20),
    base=st.sampled_from([10.0, 2.0, math.e, 0.5]),
)
def test_logspace_matches_numpy(start: float, end: float, steps: int, base: float) -> None:
    expected = np.logspace(start, end, steps, base=base)
    assert_close(ember.logspace(start, end, steps, base=base, dtype=ember.float64), expected)
    got32 = ember.logspace(start, end, steps, base)
    assert_close(got32, expected.astype(np.float32), dtype=ember.float32, rtol=1e-5)


def test_logspace_int_dtype() -> None:
    t = ember.logspace(0, 2, 3, dtype=ember.int64)
    assert_close(t, np.array([1, 10, 100]), dtype=ember.int64)


@pytest.mark.parametrize("op", ["linspace", "logspace"])
def test_linspace_logspace_errors(op: str) -> None:
    fn = getattr(ember, op)
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] number of steps must be non-negative"):
        fn(0, 1, -1)
    with pytest.raises(TypeError, match=rf"^\[{op}\] argument 'steps' must be an int"):
        fn(0, 1, 1.5)
    with pytest.raises(TypeError, match=rf"^\[{op}\] argument 'steps' must be an int"):
        fn(0, 1, True)
    with pytest.raises(NotImplementedError, match=rf"^\[{op}\] .*not implemented for 'Bool'"):
        fn(0, 1, 3, dtype=ember.bool)
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] .*bytes"):
        fn(0, 1, 2**62)


# ---- eye ----


@given(n=st.integers(0, 6), m=st.one_of(st.none(), st.integers(0, 6)))
def test_eye_matches_numpy(n: int, m: int | None) -> None:
    assert_close(ember.eye(n, m), np.eye(n, m, dtype=np.float32), dtype=ember.float32)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_eye_dtypes(dtype: Any) -> None:
    assert_close(ember.eye(3, 2, dtype=dtype), np.eye(3, 2).astype(np_dtype(dtype)), dtype=dtype)


def test_eye_errors_and_out() -> None:
    with pytest.raises(RuntimeError, match=r"^\[eye\] n must be greater or equal to 0, got -1"):
        ember.eye(-1)
    with pytest.raises(RuntimeError, match=r"^\[eye\] m must be greater or equal to 0, got -2"):
        ember.eye(2, -2)
    with pytest.raises(RuntimeError, match=r"^\[eye\] the number of elements"):
        ember.eye(2**40)
    with pytest.raises(TypeError, match=r"^\[eye\] argument 'n' must be an int"):
        ember.eye(2.0)
    out = ember.empty(1, dtype=ember.int32)
    assert ember.eye(2, out=out) is out
    assert_close(out, np.eye(2, dtype=np.int32), dtype=ember.int32)


# ---- shared argument checks ----

CREATION_CALLS: dict[str, Callable[..., Any]] = {
    "empty": lambda **kw: ember.empty(2, **kw),
    "zeros": lambda **kw: ember.zeros(2, **kw),
    "ones": lambda **kw: ember.ones(2, **kw),
    "full": lambda **kw: ember.full((2,), 1.0, **kw),
    "empty_like": lambda **kw: ember.empty_like(ember.zeros(2), **kw),
    "zeros_like": lambda **kw: ember.zeros_like(ember.zeros(2), **kw),
    "ones_like": lambda **kw: ember.ones_like(ember.zeros(2), **kw),
    "full_like": lambda **kw: ember.full_like(ember.zeros(2), 1, **kw),
    "empty_strided": lambda **kw: ember.empty_strided((2,), (1,), **kw),
    "arange": lambda **kw: ember.arange(3, **kw),
    "linspace": lambda **kw: ember.linspace(0, 1, 3, **kw),
    "logspace": lambda **kw: ember.logspace(0, 1, 3, **kw),
    "eye": lambda **kw: ember.eye(2, **kw),
    "rand": lambda **kw: ember.rand(2, **kw),
    "randn": lambda **kw: ember.randn(2, **kw),
    "randint": lambda **kw: ember.randint(0, 5, (2,), **kw),
    "randperm": lambda **kw: ember.randperm(3, **kw),
    "rand_like": lambda **kw: ember.rand_like(ember.zeros(2), **kw),
    "randn_like": lambda **kw: ember.randn_like(ember.zeros(2), **kw),
    "randint_like": lambda **kw: ember.randint_like(ember.zeros(2), 5, **kw),
    "normal": lambda **kw: ember.normal(0.0, 1.0, (2,), **kw),
}


class CpuDevice:
    def __str__(self) -> str:
        return "cpu:0"


@pytest.mark.parametrize("op", list(CREATION_CALLS))
def test_device_argument(op: str) -> None:
    call = CREATION_CALLS[op]
    for device in [None, "cpu", "cpu:0", CpuDevice()]:
        assert isinstance(call(device=device), ember.Tensor)
    for device in ["cuda", "cuda:0"]:
        message = rf"^\[{op}\] device '{device}': CUDA tensors are not yet supported"
        with pytest.raises(RuntimeError, match=message):
            call(device=device)
    for device in ["meta", "cpu:1"]:
        message = rf"^\[{op}\] device '{device}' is not available: ember tensors live on the CPU"
        with pytest.raises(RuntimeError, match=message):
            call(device=device)


AUTOGRAD_INSTALLED = autograd_installed()


@pytest.mark.parametrize("op", list(CREATION_CALLS))
def test_requires_grad(op: str) -> None:
    """requires_grad=True makes a leaf with ember-autograd, and names it when it is absent."""
    call = CREATION_CALLS[op]
    plain = call(requires_grad=False)
    assert isinstance(plain, ember.Tensor) and not plain.requires_grad
    if AUTOGRAD_INSTALLED:
        if plain.is_floating_point():
            leaf = call(requires_grad=True)
            assert leaf.requires_grad and leaf.is_leaf and leaf.grad_fn is None
        else:
            with pytest.raises(RuntimeError, match=rf"^\[{op}\] only Tensors of floating point"):
                call(requires_grad=True)
        return
    message = rf"^\[{op}\] requires_grad=True needs the ember-autograd distribution"
    with pytest.raises(RuntimeError, match=message):
        call(requires_grad=True)


@pytest.mark.parametrize("op", ["empty", "zeros", "ones", "rand", "randn"])
def test_bad_sizes(op: str) -> None:
    fn = getattr(ember, op)
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] Trying to create tensor with negative"):
        fn(2, -1)
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] the number of elements .* overflows"):
        fn(2**40, 2**40)
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] .*bytes"):
        fn(2**62)
    with pytest.raises(TypeError, match=rf"^\[{op}\] 'size' must be an int or a sequence"):
        fn(2, 3.0)
    with pytest.raises(TypeError, match=rf"^\[{op}\] missing required argument 'size'"):
        fn()
    with pytest.raises(TypeError, match=rf"^\[{op}\] expected an ember dtype"):
        fn(2, dtype=3)
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] Trying to create tensor with negative"):
        fn((2, -1), out=ember.empty(1))


@given(
    size=st.lists(st.integers(-3, 4), min_size=1, max_size=4),
    op=st.sampled_from(["empty", "zeros", "ones", "rand", "randn"]),
)
def test_negative_sizes_raise(size: list[int], op: str) -> None:
    fn = getattr(ember, op)
    if min(size) >= 0:
        assert tuple(fn(size).shape) == tuple(size)
        return
    with pytest.raises(RuntimeError, match=rf"^\[{op}\] Trying to create tensor with negative"):
        fn(*size)


WRONG_TYPES: list[tuple[str, Callable[[], Any]]] = [
    ("full", lambda: ember.full(None, 1)),
    ("full", lambda: ember.full((2,), None)),
    ("linspace", lambda: ember.linspace(0, None, 3)),
    ("logspace", lambda: ember.logspace(0, 1, 3, base=None)),
    ("zeros_like", lambda: ember.zeros_like([1, 2])),
    ("full_like", lambda: ember.full_like(3.0, 1)),
    ("zeros", lambda: ember.zeros(2, requires_grad=1)),
    ("zeros", lambda: ember.zeros(None)),
    ("zeros", lambda: ember.zeros(2, dtype="float")),
    ("ones", lambda: ember.ones(2, out=[0.0, 0.0])),
    ("eye", lambda: ember.eye(None)),
    ("arange", lambda: ember.arange(None)),
    ("arange", lambda: ember.arange(1, 5, None)),
    ("empty_strided", lambda: ember.empty_strided(None, (1,))),
    ("empty_strided", lambda: ember.empty_strided((2,), 1)),
]


@pytest.mark.parametrize(("op", "call"), WRONG_TYPES, ids=[op for op, _ in WRONG_TYPES])
def test_wrong_argument_types(op: str, call: Callable[[], Any]) -> None:
    with pytest.raises(TypeError, match=rf"^\[{op}\] "):
        call()


def test_full_bad_sizes() -> None:
    with pytest.raises(RuntimeError, match=r"^\[full\] Trying to create tensor with negative"):
        ember.full((-1,), 0.0)
    with pytest.raises(RuntimeError, match=r"^\[full\] the number of elements"):
        ember.full((2**40, 2**40), 0.0)


DOCUMENTED = [
    *[
        "empty",
        "zeros",
        "ones",
        "empty_like",
        "zeros_like",
        "ones_like",
        "full",
        "full_like",
        "empty_strided",
    ],
    *[
        "arange",
        "linspace",
        "logspace",
        "eye",
        "rand",
        "randn",
        "rand_like",
        "randn_like",
        "randint",
        "randint_like",
    ],
    *[
        "randperm",
        "normal",
        "bernoulli",
        "manual_seed",
        "seed",
        "initial_seed",
        "get_rng_state",
        "set_rng_state",
    ],
    *[
        "Tensor.uniform_",
        "Tensor.normal_",
        "Tensor.random_",
        "Tensor.bernoulli_",
        "Tensor.exponential_",
    ],
    "Tensor.bernoulli",
]


@pytest.mark.parametrize("name", DOCUMENTED)
def test_docstring_examples_run(name: str) -> None:
    obj: Any = ember
    for part in name.split("."):
        obj = getattr(obj, part)
    state = ember.get_rng_state()
    test = doctest.DocTestParser().get_doctest(obj.__doc__, {"ember": ember}, name, None, 0)
    assert test.examples, f"{name} has no example"
    runner = doctest.DocTestRunner()
    runner.run(test)
    ember.set_rng_state(state)
    assert runner.failures == 0
