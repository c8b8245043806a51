"""complex64/complex128: dtypes, promotion, creation, interop, printing, casts, views, arithmetic.

numpy is the oracle for values; the promotion cases are torch's documented results.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import ALL_DTYPES, NUMPY_DTYPES, assert_close, raises, to_numpy

COMPLEX = {ember.complex64: np.complex64, ember.complex128: np.complex128}


def sample(shape: tuple[int, ...], dtype: Any = ember.complex64, seed: int = 0) -> np.ndarray:
    """Random complex values with both parts in [-3, 3)."""
    rng = np.random.default_rng(seed)
    re = rng.uniform(-3, 3, shape)
    im = rng.uniform(-3, 3, shape)
    return (re + 1j * im).astype(COMPLEX[dtype])


# ---------------------------------------------------------------- dtypes and promotion


def test_dtype_objects_and_aliases() -> None:
    assert ember.cfloat is ember.complex64 and ember.cdouble is ember.complex128
    assert ember.complex64.is_complex and ember.complex128.is_complex
    assert not ember.float32.is_complex and not ember.complex64.is_floating_point
    assert ember.complex64.itemsize == 8 and ember.complex128.itemsize == 16
    assert ember.complex64.is_signed
    assert repr(ember.complex128) == "ember.complex128"
    assert ember.finfo(ember.complex64).eps == ember.finfo(ember.float32).eps


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("complex64", "complex128", "complex128"),
        ("float32", "complex64", "complex64"),
        ("float64", "complex64", "complex128"),
        ("float16", "complex64", "complex64"),
        ("bfloat16", "complex64", "complex64"),
        ("int64", "complex64", "complex64"),
        ("bool", "complex128", "complex128"),
        ("uint8", "complex64", "complex64"),
    ],
)
def test_promote_types(a: str, b: str, expected: str) -> None:
    da, db, de = getattr(ember, a), getattr(ember, b), getattr(ember, expected)
    assert ember.promote_types(da, db) == de
    assert ember.promote_types(db, da) == de


def test_result_type_with_wrapped_and_zero_dim_complex() -> None:
    f64 = ember.tensor([1.0], dtype=ember.float64)
    assert ember.result_type(f64, 1j) == ember.complex128  # keeps float64's precision
    assert ember.result_type(ember.tensor([1.0]), 1j) == ember.complex64
    assert ember.result_type(ember.tensor([1, 2]), 1j) == ember.complex64
    # A 0-d complex tensor outranks a dimensioned float (higher category), at its own dtype.
    z = ember.tensor(1j, dtype=ember.complex128)
    assert ember.result_type(ember.tensor([1], dtype=ember.int32), z) == ember.complex128
    assert ember.result_type(ember.tensor(1.0, dtype=ember.float64), ember.tensor([1j])) == (
        ember.complex64
    )


def test_default_complex_dtype_follows_default_float() -> None:
    previous = ember.get_default_dtype()
    try:
        ember.set_default_dtype(ember.float64)
        assert ember.tensor([1j]).dtype == ember.complex128
        assert (ember.tensor([1]) + 1j).dtype == ember.complex128
        assert repr(ember.tensor([1 + 2j])) == "tensor([1.+2.j])"
    finally:
        ember.set_default_dtype(previous)
    assert ember.tensor([1j]).dtype == ember.complex64


def test_can_cast() -> None:
    assert not ember.can_cast(ember.complex64, ember.float64)
    assert ember.can_cast(ember.float64, ember.complex64)
    assert ember.can_cast(ember.complex128, ember.complex64)
    with pytest.raises(RuntimeError, match=r"^\[add\]"):
        ember.add(ember.tensor([1.0]), ember.tensor([1j]), out=ember.zeros(1))


# ---------------------------------------------------------------- creation, interop, printing


def test_tensor_from_python_complex() -> None:
    x = ember.tensor([1 + 2j, 3, 2.5])
    assert x.dtype == ember.complex64
    assert x.tolist() == [1 + 2j, 3 + 0j, 2.5 + 0j]
    assert isinstance(x[0].item(), complex) and x[0].item() == 1 + 2j
    y = ember.tensor([[1, 2]], dtype=ember.complex128)
    assert y.dtype == ember.complex128 and y.tolist() == [[1 + 0j, 2 + 0j]]
    assert ember.tensor([np.complex64(1 - 1j)]).tolist() == [1 - 1j]
    # Real numbers that also define __complex__ stay real.
    assert ember.tensor([Fraction(1, 2), np.float32(2)]).dtype == ember.float32
    raises(TypeError, "tensor", lambda: ember.tensor([1j], dtype=ember.float32), "complex")


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_factories(dtype: Any) -> None:
    np_t = COMPLEX[dtype]
    assert_close(ember.zeros(2, 3, dtype=dtype), np.zeros((2, 3), np_t), dtype=dtype)
    assert_close(ember.ones(4, dtype=dtype), np.ones(4, np_t), dtype=dtype)
    assert_close(ember.full((2,), 1 - 2j, dtype=dtype), np.full(2, 1 - 2j, np_t), dtype=dtype)
    assert_close(ember.full((2,), 3.0, dtype=dtype), np.full(2, 3, np_t), dtype=dtype)
    assert_close(ember.eye(3, dtype=dtype), np.eye(3, dtype=np_t), dtype=dtype)
    assert ember.empty(2, dtype=dtype).dtype == dtype
    assert ember.full((1,), 2j).dtype == ember.complex64
    assert_close(ember.zeros_like(ember.tensor([1j]), dtype=dtype), np.zeros(1, np_t))


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_randn_parts_have_variance_one_half(dtype: Any) -> None:
    ember.manual_seed(0)
    z = ember.randn(20000, dtype=dtype)
    assert z.dtype == dtype
    values = to_numpy(z)
    assert abs(values.real.var() - 0.5) < 0.03 and abs(values.imag.var() - 0.5) < 0.03
    assert abs(values.real.mean()) < 0.03 and abs(values.imag.mean()) < 0.03


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_numpy_round_trip_shares_memory(dtype: Any) -> None:
    a = sample((3, 4), dtype)
    t = ember.from_numpy(a)
    assert t.dtype == dtype
    a[0, 0] = 7 + 7j
    assert t[0, 0].item() == 7 + 7j
    back = t.numpy()
    assert back.dtype == COMPLEX[dtype] and np.shares_memory(back, a)
    strided = ember.from_numpy(a[:, ::2].T)
    np.testing.assert_array_equal(strided.numpy(), a[:, ::2].T)


def test_printing_matches_torch() -> None:
    assert repr(ember.tensor([1 + 2j, 3 - 1j])) == "tensor([1.+2.j, 3.-1.j])"
    assert repr(ember.tensor([0.5 + 1e-5j])) == "tensor([0.5000+1.0000e-05j])"
    assert repr(ember.tensor(1 + 2j, dtype=ember.complex128)) == (
        "tensor(1.+2.j, dtype=ember.complex128)"
    )
    assert repr(ember.tensor([[1.5 + 2j, 3 - 1j], [-1e5 + 0j, 2j]])) == (
        "tensor([[ 1.5000e+00+2.j,  3.0000e+00-1.j],\n        [-1.0000e+05+0.j,  0.0000e+00+2.j]])"
    )
    assert repr(ember.zeros(0, dtype=ember.complex64)) == "tensor([], dtype=ember.complex64)"
    assert "..." in repr(ember.zeros(2000, dtype=ember.complex64))


# ---------------------------------------------------------------- casts, copies, views


@pytest.mark.parametrize("real", ALL_DTYPES)
@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_casts_both_ways(real: Any, dtype: Any) -> None:
    values = np.array([0, 1, 2, 3], np.float64)
    r = ember.tensor(values.tolist(), dtype=real)
    z = r.to(dtype)
    assert_close(z, to_numpy(r).astype(COMPLEX[dtype]), dtype=dtype)
    c = ember.from_numpy(np.array([0 + 5j, 1 - 1j, 2 + 0j, 3 + 2j], COMPLEX[dtype]))
    back = c.to(real)  # torch keeps the real part (complex -> bool is "nonzero")
    if real == ember.bool:
        expected = np.array([True, True, True, True])
    else:
        expected = values.astype(NUMPY_DTYPES.get(real, np.float32))
    assert back.dtype == real
    np.testing.assert_array_equal(to_numpy(back), expected)


def test_complex_to_complex_and_copy() -> None:
    a = sample((5,), ember.complex128)
    t = ember.from_numpy(a)
    assert_close(t.to(ember.complex64), a.astype(np.complex64), dtype=ember.complex64)
    dst = ember.zeros(5, dtype=ember.complex64)
    dst.copy_(t)
    assert_close(dst, a.astype(np.complex64))
    c = t.clone()
    a[0] = 0
    assert c[0].item() != 0
    dst[1:3] = 9j
    assert dst[1].item() == 9j and dst[2].item() == 9j


@given(st.integers(1, 4), st.integers(1, 4))
def test_shape_views_are_dtype_agnostic(rows: int, cols: int) -> None:
    a = sample((rows, cols))
    t = ember.from_numpy(a)
    np.testing.assert_array_equal(t.T.numpy(), a.T)
    np.testing.assert_array_equal(t.reshape(-1).numpy(), a.reshape(-1))
    np.testing.assert_array_equal(t[:, ::2].contiguous().numpy(), a[:, ::2])
    np.testing.assert_array_equal(ember.cat([t, t]).numpy(), np.concatenate([a, a]))


def test_real_imag_are_views() -> None:
    a = sample((2, 3))
    t = ember.from_numpy(a)
    re, im = t.real, t.imag
    assert re.dtype == ember.float32 and im.dtype == ember.float32
    assert re.stride() == (6, 2) and im.stride() == (6, 2)
    np.testing.assert_array_equal(re.numpy(), a.real)
    np.testing.assert_array_equal(ember.imag(t).numpy(), a.imag)
    im.mul_(0)
    assert np.all(a.imag == 0)  # wrote through both views into the numpy buffer
    r = ember.tensor([1.0, 2.0])
    assert ember.real(r) is not None and ember.real(r).data_ptr() == r.data_ptr()
    raises(RuntimeError, "imag", lambda: r.imag, "non-complex")


def test_view_as_real_and_complex() -> None:
    a = sample((3, 2), ember.complex128)
    t = ember.from_numpy(a)
    v = ember.view_as_real(t)
    assert v.dtype == ember.float64 and tuple(v.shape) == (3, 2, 2) and v.stride() == (4, 2, 1)
    np.testing.assert_array_equal(v.numpy(), a.view(np.float64).reshape(3, 2, 2))
    back = ember.view_as_complex(v)
    assert back.dtype == ember.complex128 and back.data_ptr() == t.data_ptr()
    v[0, 0, 1] = 42.0
    assert t[0, 0].item().imag == 42.0
    f = ember.zeros(4, 3)
    raises(RuntimeError, "view_as_complex", lambda: ember.view_as_complex(f), "size 2")
    raises(
        RuntimeError,
        "view_as_complex",
        lambda: ember.view_as_complex(ember.zeros(2, 4).T),
        "stride 1",
    )
    raises(
        RuntimeError,
        "view_as_complex",
        lambda: ember.view_as_complex(ember.zeros(2, dtype=ember.int32)),
        "int32",
    )
    raises(RuntimeError, "view_as_real", lambda: ember.view_as_real(f), "complex")


# ---------------------------------------------------------------- arithmetic


BINARY = [
    ("add", np.add),
    ("sub", np.subtract),
    ("mul", np.multiply),
    ("div", np.divide),
]


@pytest.mark.parametrize(("name", "ref"), BINARY)
@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_binary(name: str, ref: Any, dtype: Any) -> None:
    a, b = sample((3, 4), dtype, 1), sample((4,), dtype, 2)
    ta, tb = ember.from_numpy(a), ember.from_numpy(b)
    rtol = 1e-5 if dtype == ember.complex64 else 1e-12
    assert_close(getattr(ember, name)(ta, tb), ref(a, b), dtype=dtype, rtol=rtol, atol=rtol)
    assert_close(getattr(ta, name)(2 - 1j), ref(a, np.complex64(2 - 1j)), rtol=rtol, atol=rtol)
    out = ember.empty(3, 4, dtype=dtype)
    getattr(ember, name)(ta, tb, out=out)
    assert_close(out, ref(a, b), rtol=rtol, atol=rtol)
    c = ta.clone()
    getattr(c, name + "_")(tb)
    assert_close(c, ref(a, b), rtol=rtol, atol=rtol)


def test_operators_and_mixed_dtypes() -> None:
    a = sample((4,), ember.complex64)
    t = ember.from_numpy(a)
    r = ember.tensor([1.0, 2.0, 3.0, 4.0], dtype=ember.float64)
    got = t * r
    assert got.dtype == ember.complex128
    assert_close(got, a * np.arange(1, 5), rtol=1e-6)
    assert_close(2 * t - 1j, 2 * a - 1j, rtol=1e-6)
    assert_close(1 / t, 1 / a, rtol=1e-5)
    assert_close(ember.tensor([1, 2]) + 1j, np.array([1 + 1j, 2 + 1j]), dtype=ember.complex64)
    assert_close(-t, -a, dtype=ember.complex64)
    assert_close(ember.add(t, t, alpha=2), a + 2 * a, rtol=1e-6)
    np.testing.assert_array_equal(to_numpy(t == t.clone()), np.ones(4, bool))
    np.testing.assert_array_equal(to_numpy(t != t.conj()), a != np.conj(a))
    f = ember.zeros(4)
    with pytest.raises(RuntimeError, match=r"^\[add_?\]|can't be cast"):
        f.add_(t)


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_abs_angle_conj(dtype: Any) -> None:
    a = sample((2, 5), dtype)
    t = ember.from_numpy(a)
    real = ember.float32 if dtype == ember.complex64 else ember.float64
    assert_close(t.abs(), np.abs(a), dtype=real, rtol=1e-5)
    assert_close(ember.abs(t), np.abs(a), dtype=real, rtol=1e-5)
    assert_close(ember.angle(t), np.angle(a), dtype=real, rtol=1e-5, atol=1e-6)
    assert_close(t.conj(), np.conj(a), dtype=dtype)
    assert_close(ember.conj_physical(t), np.conj(a), dtype=dtype)
    c = t.clone()
    c.conj_physical_()
    assert_close(c, np.conj(a))
    assert not t.is_conj() and t.is_complex() and ember.is_complex(t)
    raises(RuntimeError, "abs_", lambda: t.clone().abs_(), "complex")


def test_angle_of_real_and_complex_constructor() -> None:
    values = np.array([-1.0, 0.0, 2.0, np.inf, -np.inf, np.nan], np.float32)
    assert_close(ember.angle(ember.from_numpy(values)), np.angle(values), dtype=ember.float32)
    assert ember.angle(ember.tensor([-3, 1])).dtype == ember.float32
    z = ember.complex(ember.tensor([1.0, 2.0]), ember.tensor([[3.0], [4.0]]))
    assert_close(z, np.array([1, 2]) + 1j * np.array([[3], [4]]), dtype=ember.complex64)
    raises(TypeError, "complex", lambda: ember.complex(ember.tensor([1]), ember.tensor([1])))


@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "cos", "tanh", "reciprocal"])
def test_unary_math(name: str) -> None:
    a = sample((6,), ember.complex128)
    ref = {"reciprocal": lambda v: 1 / v}.get(name, getattr(np, name))
    assert_close(getattr(ember, name)(ember.from_numpy(a)), ref(a), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("exponent", [2, 3, -1, 0, 0.5, 1 - 1j])
def test_pow(exponent: Any) -> None:
    a = sample((2, 4), ember.complex128)
    t = ember.from_numpy(a)
    assert_close(t**exponent, a ** np.complex128(exponent), rtol=1e-12, atol=1e-12)
    assert_close(ember.pow(t, t), a**a, rtol=1e-12, atol=1e-12)


def test_predicates_look_at_both_parts() -> None:
    a = np.array([1 + 2j, 0, complex(np.nan, 1), complex(np.inf, -1), 0.5j], np.complex64)
    t = ember.from_numpy(a)
    for name in ["isnan", "isinf", "isfinite", "logical_not"]:
        np.testing.assert_array_equal(to_numpy(getattr(ember, name)(t)), getattr(np, name)(a))


LAYOUTS = ["contiguous", "transposed", "strided", "negative"]


def laid_out(a: np.ndarray, layout: str) -> np.ndarray:
    """a's values in a fresh buffer laid out as `layout` (views of a bigger array)."""
    if layout == "transposed" and a.ndim >= 2:
        return np.ascontiguousarray(a.T).T
    if layout == "strided" and a.ndim >= 1:
        wide = np.zeros((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
        wide[..., ::2] = a
        return wide[..., ::2]
    if layout == "negative" and a.ndim >= 1:
        return np.array(a[::-1], copy=True)[::-1]
    return a.copy()


@given(
    shape=st.lists(st.integers(0, 3), min_size=0, max_size=3).map(tuple),
    broadcast=st.booleans(),
    layout=st.sampled_from(LAYOUTS),
    dtype=st.sampled_from(list(COMPLEX)),
    other=st.sampled_from([ember.float32, ember.float64, ember.int32, ember.complex64]),
    name=st.sampled_from(["add", "sub", "mul", "div", "eq", "ne"]),
)
def test_binary_fuzz_shapes_layouts_dtypes(
    shape: tuple[int, ...], broadcast: bool, layout: str, dtype: Any, other: Any, name: str
) -> None:
    a = laid_out(sample(shape, dtype, 3), layout)
    b_shape = shape[1:] if broadcast and shape else shape
    b_values = sample(b_shape, ember.complex128, 4)
    if other == ember.int32:
        b = np.round(b_values.real).astype(np.int32)
    elif other in (ember.float32, ember.float64):
        b = b_values.real.astype(np.float32 if other == ember.float32 else np.float64)
    else:
        b = b_values.astype(np.complex64)
    result = getattr(ember, name)(ember.from_numpy(a), ember.from_numpy(b))
    oracle = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}.get(
        name, np.equal if name == "eq" else np.not_equal
    )
    with np.errstate(all="ignore"):  # x / 0 is inf/nan on both sides
        expected = oracle(a, b)
    # A 0-d `b` beside a dimensioned complex `a` is of no higher category: a's dtype wins.
    promoted = dtype if b.ndim == 0 < a.ndim else ember.promote_types(dtype, other)
    assert result.dtype == (ember.bool if name in ("eq", "ne") else promoted)
    assert_close(result, expected, rtol=1e-5, atol=1e-5, check_dtype=False)


@given(shape=st.lists(st.integers(0, 3), max_size=3).map(tuple), layout=st.sampled_from(LAYOUTS))
def test_views_and_abs_fuzz(shape: tuple[int, ...], layout: str) -> None:
    a = laid_out(sample(shape, ember.complex128, 5), layout)
    t = ember.from_numpy(a)
    np.testing.assert_array_equal(t.real.numpy(), a.real)
    np.testing.assert_array_equal(t.imag.numpy(), a.imag)
    np.testing.assert_array_equal(ember.view_as_real(t).numpy(), np.stack([a.real, a.imag], -1))
    assert_close(t.abs(), np.abs(a), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(t.conj().resolve_conj().numpy(), np.conj(a))


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_matrix_products(dtype: Any) -> None:
    a, b, c = sample((3, 4), dtype, 6), sample((4, 5), dtype, 7), sample((3, 5), dtype, 8)
    v, w = sample((4,), dtype, 9), sample((4,), dtype, 10)
    ta, tb, tc, tv, tw = (ember.from_numpy(x) for x in (a, b, c, v, w))
    tol = 1e-5 if dtype == ember.complex64 else 1e-12
    assert_close(ta @ tb, a @ b, dtype=dtype, rtol=tol, atol=tol)
    assert_close(ember.mm(ta.T, ta.conj()), a.T @ a.conj(), rtol=tol, atol=tol)  # strided
    assert_close(ember.mv(ta, tv), a @ v, rtol=tol, atol=tol)
    assert_close(ember.dot(tv, tw), np.dot(v, w), rtol=tol, atol=tol)
    assert_close(ember.vdot(tv, tw), np.vdot(v, w), rtol=tol, atol=tol)  # conjugates v
    assert_close(
        ember.addmm(tc, ta, tb, beta=0.5, alpha=2), 0.5 * c + 2 * (a @ b), rtol=tol, atol=tol
    )
    batch_a, batch_b = sample((2, 3, 4), dtype, 11), sample((2, 4, 5), dtype, 12)
    got = ember.bmm(ember.from_numpy(batch_a), ember.from_numpy(batch_b))
    assert_close(got, batch_a @ batch_b, rtol=tol, atol=tol)
    assert_close(ember.einsum("ij,jk->ik", ta, tb), a @ b, rtol=tol, atol=tol)
    raises(RuntimeError, "mm", lambda: ember.mm(ta, ember.zeros(4, 5)), "complex")


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_sum_mean_prod(dtype: Any) -> None:
    a = sample((3, 5), dtype)
    t = ember.from_numpy(a)
    rtol = 1e-5 if dtype == ember.complex64 else 1e-12
    assert_close(t.sum(), a.sum(), dtype=dtype, rtol=rtol)
    assert_close(t.sum(dim=1), a.sum(axis=1), dtype=dtype, rtol=rtol, atol=rtol)
    assert_close(t.mean(dim=0, keepdim=True), a.mean(axis=0, keepdims=True), rtol=rtol, atol=rtol)
    assert_close(t.prod(dim=1), a.prod(axis=1), dtype=dtype, rtol=rtol * 10, atol=rtol)
    assert_close(ember.tensor([1, 2]).sum(dtype=dtype), np.array(3 + 0j), dtype=dtype)
    long = sample((200_003,), dtype, 13) + (3 + 3j)  # a long run: no drift from the exact sum
    exact = long.astype(np.complex128).sum()
    assert abs(ember.from_numpy(long).sum().item() - exact) <= 1e-5 * abs(exact)


def test_adjoint_conjugates_and_python_complex() -> None:
    a = sample((2, 3))
    t = ember.from_numpy(a)
    np.testing.assert_array_equal(t.mH.resolve_conj().numpy(), a.conj().T)
    np.testing.assert_array_equal(t.H.resolve_conj().numpy(), a.conj().T)
    np.testing.assert_array_equal(ember.adjoint(t).resolve_conj().numpy(), a.conj().T)
    r = ember.tensor([[1.0, 2.0]])
    assert r.H.data_ptr() == r.data_ptr()  # real: still a view
    assert complex(t[0, 1]) == complex(a[0, 1])
    assert complex(ember.tensor(2.5)) == 2.5 + 0j


# ---------------------------------------------------------------- unsupported ops


@pytest.mark.parametrize(
    ("op", "call", "torch_class"),
    [
        # torch 2.13's class for each: RuntimeError or NotImplementedError (itself a
        # RuntimeError). ember's error is also a TypeError, the class it raised before.
        ("Tensor.sort", lambda t: t.sort(), RuntimeError),
        ("Tensor.argsort", lambda t: t.argsort(), RuntimeError),
        ("msort", lambda t: ember.msort(t), RuntimeError),
        ("amax", lambda t: t.max(), NotImplementedError),
        ("Tensor.max", lambda t: t.max(0), RuntimeError),
        ("floor", lambda t: t.floor(), NotImplementedError),
        ("lt", lambda t: t < t, NotImplementedError),
        ("Tensor.argmax", lambda t: t.argmax(), RuntimeError),
        ("Tensor.topk", lambda t: t.topk(1), RuntimeError),
        ("Tensor.kthvalue", lambda t: t.kthvalue(1), NotImplementedError),
        ("Tensor.median", lambda t: t.median(), NotImplementedError),
        ("Tensor.mode", lambda t: t.mode(), NotImplementedError),
        ("Tensor.cummax", lambda t: t.cummax(0), NotImplementedError),
        ("unique", lambda t: ember.unique(t), NotImplementedError),
        ("searchsorted", lambda t: ember.searchsorted(t, t), NotImplementedError),
        ("maximum", lambda t: ember.maximum(t, t), RuntimeError),
        ("fmax", lambda t: ember.fmax(t, t), RuntimeError),
        ("heaviside", lambda t: ember.heaviside(t, t), RuntimeError),
        ("clamp", lambda t: t.clamp(min=0), NotImplementedError),
        # Their real code paths would drop the imaginary part: refused instead (sign, nansum:
        # test_complex_math.py, with torch's exception types).
        ("float_power", lambda t: ember.float_power(t, 2), TypeError),
        ("nan_to_num", lambda t: ember.nan_to_num(t), TypeError),
    ],
)
def test_unsupported_ops_raise_torchs_class(op: str, call: Any, torch_class: type) -> None:
    t = ember.tensor([1 + 2j, 3 - 1j])
    with pytest.raises(TypeError) as info:
        call(t)
    assert isinstance(info.value, torch_class), type(info.value).__mro__
    message = str(info.value)
    assert message.startswith(f"[{op}]"), message
    assert "<op>" not in message, message
    assert "complex64" in message, message
