"""Complex dtypes through the elementwise math functions, reductions, scans and norms, and the
functions inner, polar, dist and isreal, against numpy (torch 2.13's values, dtypes and errors)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from conftest import assert_close, raises, shapes, with_layout

COMPLEX = [ember.complex64, ember.complex128]
NP = {ember.complex64: np.complex64, ember.complex128: np.complex128}
# complex64 runs in float32: functions of large derivative (tan, acosh near 1) lose more.
TOL = {ember.complex64: (2e-5, 2e-5), ember.complex128: (1e-12, 1e-12)}
_rng = np.random.default_rng(11)


def cvalues(shape: tuple[int, ...], dtype: Any = ember.complex128, scale: float = 1.5) -> Any:
    values = _rng.uniform(-scale, scale, shape) + 1j * _rng.uniform(-scale, scale, shape)
    return values.astype(NP[dtype])


def _sinc(z: Any) -> Any:
    return np.sinc(z)  # numpy's sinc is the normalized sin(pi z) / (pi z), as torch


def _sigmoid(z: Any) -> Any:
    return 1 / (1 + np.exp(-z))


def _sgn(z: Any) -> Any:
    a = np.abs(z)
    return np.where(a == 0, 0, z / np.where(a == 0, 1, a))


# (name, numpy oracle): each runs on complex64 and complex128.
UNARY: list[tuple[str, Callable[[Any], Any]]] = [
    ("sgn", _sgn),
    ("sigmoid", _sigmoid),
    ("log1p", np.log1p),
    ("expm1", np.expm1),
    ("sinh", np.sinh),
    ("cosh", np.cosh),
    ("tan", np.tan),
    ("asin", np.arcsin),
    ("acos", np.arccos),
    ("atan", np.arctan),
    ("asinh", np.arcsinh),
    ("acosh", np.arccosh),
    ("atanh", np.arctanh),
    ("log2", np.log2),
    ("log10", np.log10),
    ("exp2", np.exp2),
    ("rsqrt", lambda z: 1 / np.sqrt(z)),
    ("sinc", _sinc),
]


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize(("name", "oracle"), UNARY, ids=[u[0] for u in UNARY])
def test_unary_matches_numpy(name: str, oracle: Callable[[Any], Any], dtype: Any) -> None:
    z = cvalues((4, 5), dtype)
    expected = oracle(z.astype(np.complex128))
    rtol, atol = TOL[dtype]
    x = ember.from_numpy(z)
    assert_close(getattr(ember, name)(x), expected, dtype=dtype, rtol=rtol, atol=atol)
    assert_close(getattr(x, name)(), expected, dtype=dtype, rtol=rtol, atol=atol)
    inplace = x.clone()
    assert getattr(inplace, name + "_")() is inplace
    assert_close(inplace, expected, dtype=dtype, rtol=rtol, atol=atol)
    out = ember.empty(0, dtype=dtype)
    assert getattr(ember, name)(x, out=out) is out
    assert_close(out, expected, dtype=dtype, rtol=rtol, atol=atol)


def test_log1p_and_expm1_keep_precision_near_zero() -> None:
    # log(1 + z) and exp(z) - 1 round in 1 + z (numpy's complex log1p does: 6e-8 relative
    # error here); the oracle is the Taylor series, exact to double precision at |z| < 1e-8.
    z = np.array([1e-10 + 1e-10j, -3e-12 + 2e-9j])
    series_log1p = z - z**2 / 2 + z**3 / 3
    series_expm1 = z + z**2 / 2 + z**3 / 6
    assert_close(ember.from_numpy(z).log1p(), series_log1p, rtol=1e-14, atol=0)
    assert_close(ember.from_numpy(z).expm1(), series_expm1, rtol=1e-14, atol=0)


def test_special_points() -> None:
    z = ember.tensor([0j, 1 + 0j], dtype=ember.complex128)
    assert_close(z.sgn(), np.array([0, 1 + 0j]))
    assert_close(z.sinc(), np.array([1 + 0j, 0j]), atol=1e-15)
    assert_close(ember.tensor([0j]).sigmoid(), np.array([0.5 + 0j], np.complex64))


def test_sign_refuses_complex_like_torch() -> None:
    z = ember.tensor([1 + 1j])
    for call in (lambda: ember.sign(z), lambda: z.sign(), lambda: z.clone().sign_()):
        raises(NotImplementedError, "sign", call, "sgn", "complex64")
    assert ember.sign(ember.tensor([-2.0])).tolist() == [-1.0]


@settings(max_examples=25, deadline=None)
@given(
    shape=shapes(0, 4, 1, 3),
    layout=st.sampled_from(["contiguous", "transposed", "strided", "negative"]),
    name=st.sampled_from([u[0] for u in UNARY]),
)
def test_unary_any_layout(shape: tuple[int, ...], layout: str, name: str) -> None:
    z = with_layout(cvalues(shape), layout)
    oracle = dict(UNARY)[name]
    assert_close(getattr(ember.from_numpy(z), name)(), oracle(z), rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------------------------------------
# isclose / allclose: |a - b| <= atol + rtol * |b| with the complex abs.


def test_isclose_uses_the_complex_modulus() -> None:
    a = np.array([1 + 1j, 1 + 1j, np.nan + 0j, np.inf + 0j, 1 + 2j], np.complex128)
    b = np.array([1 + 1j + 1e-9j, 1 + 1.1j, np.nan + 0j, np.inf + 0j, 1 + 2.00001j])
    ta, tb = ember.from_numpy(a), ember.from_numpy(b)
    assert_close(ember.isclose(ta, tb), np.isclose(a, b))
    assert_close(ember.isclose(ta, tb, equal_nan=True), np.isclose(a, b, equal_nan=True))
    assert_close(ta.isclose(tb, rtol=0, atol=0.2), np.isclose(a, b, rtol=0, atol=0.2))
    assert ember.allclose(ta[:2], tb[:2], atol=0.2)
    assert not ember.allclose(ta[:2], tb[:2])
    raises(TypeError, "isclose", lambda: ember.isclose(ta, ta.real), "complex128", "float64")


# ------------------------------------------------------------------------------------------------
# Reductions and scans.


@pytest.mark.parametrize("dtype", COMPLEX)
def test_cumsum_cumprod(dtype: Any) -> None:
    z = cvalues((3, 4), dtype, scale=1.0)
    rtol, atol = TOL[dtype]
    for dim in (0, 1, -1):
        x = ember.from_numpy(z)
        assert_close(x.cumsum(dim), np.cumsum(z, dim), dtype=dtype, rtol=rtol, atol=atol)
        assert_close(ember.cumprod(x, dim), np.cumprod(z, dim), dtype=dtype, rtol=rtol, atol=atol)
    # dtype= widens; a real input scanned in a complex dtype.
    x = ember.from_numpy(z)
    assert ember.cumsum(x, 0, dtype=ember.complex128).dtype == ember.complex128
    real = ember.tensor([1.0, 2.0])
    assert_close(ember.cumprod(real, 0, dtype=ember.complex64), np.array([1, 2], np.complex64))


@settings(max_examples=25, deadline=None)
@given(shape=shapes(0, 4, 1, 3), data=st.data())
def test_scans_over_any_dim_and_layout(shape: tuple[int, ...], data: Any) -> None:
    layout = data.draw(st.sampled_from(["contiguous", "transposed", "strided", "negative"]))
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    z = with_layout(cvalues(shape, scale=1.0), layout)
    x = ember.from_numpy(z)
    assert_close(x.cumsum(dim), np.cumsum(z, dim), rtol=1e-12, atol=1e-12)
    assert_close(x.cumprod(dim), np.cumprod(z, dim), rtol=1e-12, atol=1e-12)


def _np_var(z: Any, axis: Any, correction: float, keepdims: bool = False) -> Any:
    return np.var(z.real, axis=axis, ddof=correction, keepdims=keepdims) + np.var(
        z.imag, axis=axis, ddof=correction, keepdims=keepdims
    )


@pytest.mark.parametrize("dtype", COMPLEX)
def test_var_std_are_real(dtype: Any) -> None:
    z = cvalues((3, 5), dtype)
    x = ember.from_numpy(z)
    real = ember.float32 if dtype == ember.complex64 else ember.float64
    rtol, atol = TOL[dtype]
    assert_close(x.var(), _np_var(z, None, 1), dtype=real, rtol=rtol, atol=atol)
    assert_close(x.std(1), np.sqrt(_np_var(z, 1, 1)), dtype=real, rtol=rtol, atol=atol)
    assert_close(
        ember.var(x, 0, correction=0, keepdim=True),
        _np_var(z, 0, 0, True),
        dtype=real,
        rtol=rtol,
        atol=atol,
    )
    v, m = ember.var_mean(x, 1, keepdim=True)
    assert_close(v, _np_var(z, 1, 1, True), dtype=real, rtol=rtol, atol=atol)
    assert_close(m, z.mean(1, keepdims=True), dtype=dtype, rtol=rtol, atol=atol)
    s, m = ember.std_mean(x, (0, 1), correction=2)
    assert_close(s, np.sqrt(_np_var(z, (0, 1), 2)), dtype=real, rtol=rtol, atol=atol)
    assert_close(m, z.mean(), dtype=dtype, rtol=rtol, atol=atol)


@settings(max_examples=25, deadline=None)
@given(shape=shapes(1, 4, 1, 3), data=st.data(), keepdim=st.booleans())
def test_var_over_any_dims(shape: tuple[int, ...], data: Any, keepdim: bool) -> None:
    dims = data.draw(st.lists(st.integers(0, len(shape) - 1), unique=True, max_size=len(shape)))
    layout = data.draw(st.sampled_from(["contiguous", "transposed", "negative"]))
    z = with_layout(cvalues(shape), layout)
    axis = tuple(dims) if dims else None
    got = ember.var(ember.from_numpy(z), axis, correction=0, keepdim=keepdim)
    assert_close(got, _np_var(z, axis, 0, keepdim), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_logsumexp(dtype: Any) -> None:
    z = cvalues((3, 4), dtype, scale=3.0)
    rtol, atol = TOL[dtype]
    expected = np.log(np.exp(z.astype(np.complex128)).sum(1))
    x = ember.from_numpy(z)
    got = ember.logsumexp(x, 1)
    assert got.dtype == dtype
    # The imaginary part is an angle: compare exp() of both (angles agree up to 2 pi).
    assert_close(got.exp(), np.exp(expected), rtol=10 * rtol, atol=10 * atol)
    # Large real parts shift by the max real part instead of overflowing.
    big = ember.tensor([1000 + 1j, 1000 - 1j], dtype=ember.complex128)
    assert_close(big.logsumexp(0), np.log(2 * np.cos(1)) + 1000 + 0j, rtol=1e-12)
    empty = ember.empty(0, 2, dtype=dtype).logsumexp(0)
    assert empty.dtype == dtype and empty.real.tolist() == [-np.inf, -np.inf]


def test_nansum_refuses_complex_like_torch() -> None:
    raises(RuntimeError, "nansum", lambda: ember.nansum(ember.tensor([1j])), "complex64")


@pytest.mark.parametrize("dtype", COMPLEX)
def test_count_nonzero(dtype: Any) -> None:
    z = np.array([[0, 1j, 2], [0j, 0, 1 + 1j]], NP[dtype])
    x = ember.from_numpy(z)
    assert ember.count_nonzero(x).item() == 3
    assert ember.count_nonzero(x, 1).tolist() == [2, 1]
    assert x.count_nonzero(dim=0).tolist() == [0, 1, 2]


@pytest.mark.parametrize("dtype", COMPLEX)
@pytest.mark.parametrize("ord", [2, 1, 0, 3, float("inf"), float("-inf"), -1])
def test_vector_norm_is_real(dtype: Any, ord: float) -> None:
    z = cvalues((3, 4), dtype)
    x = ember.from_numpy(z)
    real = ember.float32 if dtype == ember.complex64 else ember.float64
    rtol, atol = TOL[dtype]
    expected = np.linalg.norm(z.astype(np.complex128), ord, axis=1)
    assert_close(ember.linalg.vector_norm(x, ord, 1), expected, dtype=real, rtol=rtol, atol=atol)
    flat = np.linalg.norm(z.reshape(-1).astype(np.complex128), ord)
    assert_close(ember.linalg.norm(x.reshape(-1), ord), flat, dtype=real, rtol=rtol, atol=atol)


def test_norms_of_complex() -> None:
    z = cvalues((2, 3))
    x = ember.from_numpy(z)
    assert_close(ember.norm(x), np.linalg.norm(z), dtype=ember.float64)
    assert_close(x.norm(1, dim=0), np.abs(z).sum(0), dtype=ember.float64)
    assert_close(ember.linalg.norm(x), np.linalg.norm(z), dtype=ember.float64)
    assert_close(ember.linalg.matrix_norm(x, 1), np.linalg.norm(z, 1), dtype=ember.float64)
    assert_close(ember.linalg.matrix_norm(x, "fro"), np.linalg.norm(z, "fro"))
    x64 = x.to(ember.complex64)
    wide = ember.linalg.vector_norm(x64, dtype=ember.complex128)
    assert_close(wide, np.linalg.norm(z.astype(np.complex64).astype(np.complex128)))
    raises(
        RuntimeError,
        "linalg.vector_norm",
        lambda: ember.linalg.vector_norm(x, dtype=ember.float64),
        "complex",
    )


# ------------------------------------------------------------------------------------------------
# inner, outer, dist, polar, isreal.


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, *COMPLEX])
def test_inner(dtype: Any) -> None:
    np_dtype = NP.get(dtype, np.float32 if dtype == ember.float32 else np.float64)
    a = (cvalues((2, 3)) if dtype in COMPLEX else _rng.standard_normal((2, 3))).astype(np_dtype)
    b = (cvalues((4, 3)) if dtype in COMPLEX else _rng.standard_normal((4, 3))).astype(np_dtype)
    tol = (1e-5, 1e-5) if dtype in (ember.float32, ember.complex64) else (1e-12, 1e-12)
    ta, tb = ember.from_numpy(a), ember.from_numpy(b)
    assert_close(ember.inner(ta, tb), np.inner(a, b), dtype=dtype, rtol=tol[0], atol=tol[1])
    assert_close(ta[0].inner(tb[1]), np.inner(a[0], b[1]), rtol=tol[0], atol=tol[1])
    assert_close(ember.inner(ta, tb[0]), np.inner(a, b[0]), rtol=tol[0], atol=tol[1])
    scalar = ember.tensor(2.0, dtype=dtype)
    assert_close(ember.inner(scalar, ta), 2 * a, rtol=tol[0], atol=tol[1])
    out = ember.empty(0, dtype=dtype)
    assert ember.inner(ta, tb, out=out) is out
    assert_close(out, np.inner(a, b), rtol=tol[0], atol=tol[1])


@settings(max_examples=25, deadline=None)
@given(left=shapes(0, 3, 1, 3), right=shapes(0, 3, 0, 2), n=st.integers(0, 4))
def test_inner_shapes(left: tuple[int, ...], right: tuple[int, ...], n: int) -> None:
    a, b = cvalues((*left, n)), cvalues((*right, n))
    got = ember.inner(ember.from_numpy(a), ember.from_numpy(b))
    assert_close(got, np.inner(a, b), rtol=1e-12, atol=1e-12)


def test_inner_bad_input() -> None:
    a = ember.ones(2, 3)
    raises(RuntimeError, "inner", lambda: ember.inner(a, ember.ones(2)), "[2, 3]", "[2]")
    raises(RuntimeError, "inner", lambda: ember.inner(a, ember.ones(3).double()), "same dtype")
    raises(TypeError, "inner", lambda: ember.inner(a, [1, 2, 3]), "other")  # type: ignore[arg-type]


def test_outer_with_complex() -> None:
    a, b = cvalues((3,), ember.complex64), np.array([2.0, -1.0], np.float32)
    got = ember.outer(ember.from_numpy(a), ember.from_numpy(b))
    assert_close(got, np.outer(a, b), dtype=ember.complex64, rtol=1e-6, atol=1e-6)
    assert_close(
        ember.from_numpy(a).outer(ember.from_numpy(a)), np.outer(a, a), rtol=1e-6, atol=1e-6
    )


@pytest.mark.parametrize("p", [2, 1, 0, 3.5, float("inf")])
def test_dist(p: float) -> None:
    a, b = cvalues((2, 3)), cvalues((3,))
    expected = np.linalg.norm((a - b).reshape(-1), p)
    got = ember.dist(ember.from_numpy(a), ember.from_numpy(b), p)
    assert_close(got, expected, dtype=ember.float64)
    x, y = _rng.standard_normal(4), _rng.standard_normal(4)
    real = ember.from_numpy(x).dist(ember.from_numpy(y), p)
    assert_close(real, np.linalg.norm(x - y, p), dtype=ember.float64)


def test_dist_bad_input() -> None:
    ints = ember.tensor([1, 2])
    raises(RuntimeError, "dist", lambda: ember.dist(ints, ints), "floating point or complex")
    raises(RuntimeError, "dist", lambda: ember.dist(ember.ones(2), ember.ones(3)), "(2,)", "(3,)")
    raises(TypeError, "dist", lambda: ember.dist(ember.ones(2), 2.0), "other")  # type: ignore[arg-type]
    raises(TypeError, "dist", lambda: ember.dist(ember.ones(2), ember.ones(2), "x"), "p")  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64])
def test_polar(dtype: Any) -> None:
    r = np.abs(_rng.standard_normal((2, 3)))
    theta = _rng.uniform(-4, 4, (3,))
    tr = ember.from_numpy(r).to(dtype)
    tt = ember.from_numpy(theta).to(dtype)
    complex_dtype = ember.complex64 if dtype == ember.float32 else ember.complex128
    expected = (r * np.exp(1j * theta)).astype(NP[complex_dtype])
    rtol, atol = TOL[complex_dtype]
    assert_close(ember.polar(tr, tt), expected, dtype=complex_dtype, rtol=rtol, atol=atol)
    out = ember.empty(0, dtype=complex_dtype)
    assert ember.polar(tr, tt, out=out) is out
    assert_close(out, expected, rtol=rtol, atol=atol)


def test_polar_bad_input() -> None:
    f, d = ember.ones(2), ember.ones(2, dtype=ember.float64)
    raises(RuntimeError, "polar", lambda: ember.polar(f, d), "float32", "float64")
    raises(RuntimeError, "polar", lambda: ember.polar(ember.tensor([1]), ember.tensor([1])))
    raises(TypeError, "polar", lambda: ember.polar(f, 0.5), "angle")  # type: ignore[arg-type]
    half = ember.ones(2, dtype=ember.float16)
    raises(NotImplementedError, "polar", lambda: ember.polar(half, half), "float16")
    raises(RuntimeError, "polar", lambda: ember.polar(f, ember.ones(3)))


def test_isreal() -> None:
    z = ember.tensor([1 + 0j, 1j, -0.0 + 0j, complex(np.nan, 0)])
    assert ember.isreal(z).tolist() == [True, False, True, True]
    assert z.conj().isreal().tolist() == [True, False, True, True]
    assert ember.isreal(ember.tensor([1, 2])).tolist() == [True, True]
    assert ember.isreal(ember.tensor([np.nan])).dtype == ember.bool
    raises(TypeError, "isreal", lambda: ember.isreal([1.0]), "input")  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", [ember.complex64, ember.complex128], ids=str)
def test_sgn_of_subnormal_parts_is_of_unit_length(dtype: ember.dtype) -> None:
    # |z| of a z with subnormal parts rounds onto the subnormal grid: sgn(1e-45 + 1e-45j) was
    # 1 + 1j in complex64 (found by the array API test's random draws).
    tiny = 1.401298464324817e-45 if dtype == ember.complex64 else 5e-324
    z = ember.tensor(
        [complex(tiny, tiny), complex(tiny, 0.0), complex(-3 * tiny, 4 * tiny)], dtype=dtype
    )
    got = ember.sgn(z).numpy()
    np.testing.assert_allclose(np.abs(got), 1.0, rtol=1e-6)
    np.testing.assert_allclose(got, [(1 + 1j) / 2**0.5, 1.0, (-3 + 4j) / 5], rtol=1e-6)
