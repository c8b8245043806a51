"""ember.array_api's complex64/complex128 support against numpy 2.x (the 2024.12 standard).

Every function the standard defines for complex input runs on complex arrays and must match
numpy in shape, dtype and values; the special cases the standard fixes are checked exactly.
"""

from __future__ import annotations

import cmath
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import assert_close, raises, to_numpy

xp: Any = ember.ones(1).__array_namespace__()
RNG = np.random.default_rng(12)
COMPLEX = [(xp.complex64, np.complex64), (xp.complex128, np.complex128)]
INF, NAN = math.inf, math.nan


def complex_values(shape: tuple[int, ...], dtype: Any, scale: float = 2.0) -> np.ndarray:
    raw = RNG.uniform(-scale, scale, size=shape) + 1j * RNG.uniform(-scale, scale, size=shape)
    return np.asarray(raw.astype(dtype))


def check(actual: Any, expected: np.ndarray) -> None:
    """Shape, dtype and values as numpy's (complex64 to float32-level tolerance)."""
    expected = np.asarray(expected)
    assert to_numpy(actual).dtype == expected.dtype, (actual.dtype, expected.dtype)
    tol = 2e-5 if expected.dtype in (np.complex64, np.float32) else 1e-11
    assert_close(actual, expected, rtol=tol, atol=tol)


def test_complex_dtypes_are_part_of_the_namespace() -> None:
    info = xp.__array_namespace_info__()
    assert info.dtypes(kind="complex floating") == {
        "complex64": xp.complex64,
        "complex128": xp.complex128,
    }
    assert {"complex64", "complex128"} <= set(info.dtypes(kind="numeric"))
    assert "complex64" not in info.dtypes(kind=("real floating", "integral"))
    assert info.default_dtypes()["complex floating"] == xp.complex64
    assert xp.isdtype(xp.complex128, "complex floating")
    assert xp.isdtype(xp.complex64, "numeric") and not xp.isdtype(xp.complex64, "real floating")
    # finfo of a complex dtype describes its parts: the real dtype of the same precision.
    for dtype, real, np_real in (
        (xp.complex64, xp.float32, np.float32),
        (xp.complex128, xp.float64, np.float64),
    ):
        info_ = xp.finfo(dtype)
        assert info_.dtype == real and info_.eps == float(np.finfo(np_real).eps)
        assert (
            info_.bits == np.finfo(np_real).bits and xp.finfo(xp.ones(1, dtype=dtype)).dtype == real
        )


def test_complex_default_follows_the_default_float() -> None:
    previous = ember.get_default_dtype()
    try:
        ember.set_default_dtype(ember.float64)
        assert xp.__array_namespace_info__().default_dtypes()["complex floating"] == xp.complex128
        assert xp.asarray(1j).dtype == xp.complex128
    finally:
        ember.set_default_dtype(previous)
    assert xp.asarray(1j).dtype == xp.complex64 and xp.full(2, 1 + 2j).dtype == xp.complex64


def test_complex_promotion_and_scalars() -> None:
    assert xp.result_type(xp.float32, xp.complex64) == xp.complex64
    assert xp.result_type(xp.float64, xp.complex64) == xp.complex128
    assert xp.result_type(xp.complex64, 1j) == xp.complex64
    assert xp.result_type(xp.float64, 1j) == xp.complex128
    assert xp.result_type(xp.float32, 1j) == xp.complex64
    assert xp.can_cast(xp.float32, xp.complex64) and not xp.can_cast(xp.complex64, xp.float64)
    z = xp.asarray([1 + 2j, -3j], dtype=xp.complex128)
    check(xp.multiply(z, 2j), np.array([1 + 2j, -3j]) * 2j)
    check(xp.add(1j, z), 1j + np.array([1 + 2j, -3j]))
    check(xp.add(xp.asarray([1.0, 2.0], dtype=xp.float64), 1j), np.array([1.0, 2.0]) + 1j)
    check(xp.full_like(z, 2 - 1j), np.full(2, 2 - 1j))
    check(xp.full_like(xp.zeros(2), 1j, dtype=xp.complex128), np.full(2, 1j))
    assert xp.equal(z, 1 + 2j).tolist() == [True, False]


UNARY = [
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "conj", "cos", "cosh", "exp",
    "expm1", "imag", "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10", "negative",
    "positive", "real", "reciprocal", "round", "sign", "sin", "sinh", "sqrt", "square", "tan",
    "tanh",
]  # fmt: skip


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("pair", COMPLEX, ids=["complex64", "complex128"])
def test_complex_unary_matches_numpy(name: str, pair: Any) -> None:
    _, np_dtype = pair
    a = complex_values((3, 4), np_dtype)
    a[0, 0] = 0  # sign(0) is 0; round of exact halves below
    a[0, 1] = 2.5 - 1.5j
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) is -inf, as the standard says
        expected = getattr(np, name)(a)
    check(getattr(xp, name)(xp.asarray(a)), expected)


@pytest.mark.parametrize(
    "name", ["add", "subtract", "multiply", "divide", "pow", "equal", "not_equal"]
)
@pytest.mark.parametrize("pair", COMPLEX, ids=["complex64", "complex128"])
def test_complex_binary_matches_numpy(name: str, pair: Any) -> None:
    _, np_dtype = pair
    a, b = complex_values((3, 4), np_dtype), complex_values((4,), np_dtype)
    check(getattr(xp, name)(xp.asarray(a), xp.asarray(b)), getattr(np, name)(a, b))


def test_complex_reductions_and_products_match_numpy() -> None:
    a = complex_values((3, 4), np.complex128)
    x = xp.asarray(a)
    check(xp.sum(x, axis=1), a.sum(axis=1))
    check(xp.prod(x, axis=0), a.prod(axis=0))
    check(xp.mean(x, axis=1, keepdims=True), a.mean(axis=1, keepdims=True))
    check(xp.cumulative_sum(x, axis=1), np.cumulative_sum(a, axis=1))
    check(xp.cumulative_prod(x, axis=0), np.cumulative_prod(a, axis=0))
    check(xp.matmul(x, xp.matrix_transpose(x)), a @ a.T)
    check(xp.tensordot(x, x, axes=([1], [1])), np.tensordot(a, a, axes=([1], [1])))
    check(xp.linalg.vector_norm(x, axis=1), np.linalg.vector_norm(a, axis=1))
    check(xp.linalg.matrix_norm(x), np.linalg.matrix_norm(a))
    check(xp.linalg.det(x[:, :3]), np.linalg.det(a[:, :3]))
    check(xp.linalg.inv(x[:, :3]), np.linalg.inv(a[:, :3]))


def test_vecdot_conjugates_its_first_argument() -> None:
    # The suite's no-hypothesis check: vecdot([1j, 2j, 3j], [1, 2j, 3]) is 4 - 10j.
    x1, x2 = xp.asarray([1j, 2j, 3j]), xp.asarray([1, 2j, 3])
    assert cmath.isclose(complex(xp.linalg.vecdot(x1, x2)), 4 - 10j)
    a, b = complex_values((2, 3, 4), np.complex128), complex_values((3, 4), np.complex128)
    check(xp.vecdot(xp.asarray(a), xp.asarray(b)), np.vecdot(a, b))
    check(xp.vecdot(xp.asarray(a), xp.asarray(b), axis=-2), np.vecdot(a, b, axis=-2))


@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 3, 3), (0, 0), (2, 0, 3)])
@pytest.mark.parametrize("pair", COMPLEX, ids=["complex64", "complex128"])
def test_complex_pinv_matches_numpy(shape: tuple[int, ...], pair: Any) -> None:
    dtype, np_dtype = pair
    a = complex_values(shape, np_dtype)
    result = xp.linalg.pinv(xp.asarray(a))
    assert result.dtype == dtype
    tol = 1e-4 if np_dtype == np.complex64 else 1e-10
    np.testing.assert_allclose(to_numpy(result), np.linalg.pinv(a), rtol=tol, atol=tol)


def test_complex_pinv_drops_small_singular_values() -> None:
    # A rank-1 complex matrix: the default cutoff (eps * max(M, N) * largest) removes the rest.
    u = complex_values((4, 1), np.complex128)
    a = u @ u.conj().T
    check(xp.linalg.pinv(xp.asarray(a)), np.linalg.pinv(a, rtol=1e-15 * 4))
    check(xp.linalg.pinv(xp.asarray(a), rtol=0.5), np.linalg.pinv(a, rtol=0.5))


def test_complex_expm1_special_cases() -> None:
    cases = [  # (input, the standard's result); x + NaN j cases are NaN + NaN j
        (complex(0.0, 0.0), complex(0.0, 0.0)),
        (complex(-0.0, 0.0), complex(0.0, 0.0)),
        (complex(INF, 0.0), complex(INF, 0.0)),
        (complex(-INF, 2.0), complex(-1.0, 0.0)),
        (complex(-INF, INF), complex(-1.0, 0.0)),
        (complex(-INF, NAN), complex(-1.0, 0.0)),
        (complex(NAN, 0.0), complex(NAN, 0.0)),
    ]
    x = xp.asarray([c for c, _ in cases], dtype=xp.complex128)
    got = to_numpy(xp.expm1(x))
    for value, (arg, expected) in zip(got, cases, strict=True):
        for part, want in ((value.real, expected.real), (value.imag, expected.imag)):
            assert (math.isnan(part) and math.isnan(want)) or (
                part == want and math.copysign(1, part) == math.copysign(1, want)
            ), (arg, value, expected)
    inf_cases = xp.asarray([complex(INF, INF), complex(INF, NAN)], dtype=xp.complex128)
    out = to_numpy(xp.expm1(inf_cases))
    assert np.all(np.isposinf(out.real)) and np.all(np.isnan(out.imag))
    small = complex_values((5,), np.complex128, scale=1e-6)  # accurate near 0 (no cancellation)
    np.testing.assert_allclose(to_numpy(xp.expm1(xp.asarray(small))), np.expm1(small), rtol=1e-12)


def test_complex_tanh_at_infinity_is_one_with_b_signed_zero() -> None:
    x = xp.asarray([complex(INF, 5.0), complex(INF, -5.0), complex(INF, 0.5)], dtype=xp.complex64)
    got = to_numpy(xp.tanh(x))
    assert got.real.tolist() == [1.0, 1.0, 1.0]
    assert [math.copysign(1, v) for v in got.imag] == [1.0, -1.0, 1.0]
    assert got.imag.tolist() == [0.0, 0.0, 0.0]


def test_complex_linspace_and_creation() -> None:
    check(xp.linspace(0, 1 + 2j, 5, dtype=xp.complex128), np.linspace(0, 1 + 2j, 5))
    check(
        xp.linspace(1j, -1, 4, endpoint=False, dtype=xp.complex128),
        np.linspace(1j, -1, 4, endpoint=False),
    )
    assert xp.linspace(0, 1j, 3).dtype == xp.complex64
    check(xp.zeros(2, dtype=xp.complex128), np.zeros(2, np.complex128))
    check(xp.eye(2, dtype=xp.complex64), np.eye(2, dtype=np.complex64))
    check(xp.astype(xp.asarray([1.5, 2.0]), xp.complex128), np.array([1.5, 2.0], np.complex128))


def test_complex_bad_input_raises_typed_errors() -> None:
    z = xp.asarray([1j])
    raises(TypeError, "finfo", lambda: xp.finfo(xp.int8), "floating-point")
    raises(ValueError, "fft.fft", lambda: xp.fft.fft(z, norm=None), "norm")
    raises(TypeError, "real", lambda: xp.real([1j]), "ember array")


@given(
    re=st.floats(-1e3, 1e3, allow_nan=False),
    im=st.floats(-1e3, 1e3, allow_nan=False),
    dtype=st.sampled_from([xp.complex64, xp.complex128]),
)
def test_complex_sign_is_unit_or_zero(re: float, im: float, dtype: Any) -> None:
    x = xp.asarray(complex(re, im), dtype=dtype)
    value = complex(x)  # as the dtype holds it (complex64 flushes tiny parts to 0)
    got = complex(xp.sign(x))
    # Scaled first: for subnormal parts abs(value) rounds onto the subnormal grid, and
    # value / abs(value) is then off the unit circle (5e-324 + 5e-324j gave 1 + 1j).
    scaled = value * 2.0**600 if 0 < abs(value) < 1e-300 else value
    expected = 0 if value == 0 else scaled / abs(scaled)
    assert cmath.isclose(got, expected, rel_tol=1e-5, abs_tol=1e-6)


def test_complex_unique_matches_numpy() -> None:
    a = np.array(
        [[1 + 2j, 0j, 1 + 2j], [complex(NAN, 0), complex(NAN, 0), -0.0 + 0j], [1 - 1j, 3, 1 + 2j]],
        dtype=np.complex64,
    )
    x = xp.asarray(a)
    got, expected = xp.unique_all(x), np.unique_all(a)
    check(got.values, expected.values)  # sorted by real then imaginary part; each NaN distinct
    for field in ("indices", "inverse_indices", "counts"):
        assert to_numpy(getattr(got, field)).tolist() == getattr(expected, field).tolist(), field
    check(xp.unique_values(x), expected.values)  # numpy >= 2.3 leaves unique_values unsorted
    check(xp.unique_counts(x).counts, np.unique_counts(a).counts)
    check(xp.unique_inverse(x).inverse_indices, np.unique_inverse(a).inverse_indices)
    assert xp.unique_values(xp.zeros((0, 2), dtype=xp.complex128)).shape == (0,)
