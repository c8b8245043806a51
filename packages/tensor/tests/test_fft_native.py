"""The native FFT kernels (``_C._fft_c2c``, ``_fft_r2c``, ``_fft_c2r``) against numpy.fft.

Complex values travel as a trailing dim of size 2 (torch.view_as_real's layout). Errors are
measured as ||got - expected||_2 / ||expected||_2 (by Parseval, the input's norm scaled by the
transform), so one tolerance per dtype holds for every length: mixed-radix (2/3/4/5 and small
odd primes), Bluestein (prime factors above 31) and the half-length real transforms.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
from conftest import raises
from ember_core import _C

# Relative L2 error allowed per dtype (float32 is computed in float32, as torch/pocketfft do).
TOL = {np.float32: 2e-6, np.float64: 1e-14}
DTYPES = [np.float32, np.float64]
NORMS = ["backward", "ortho", "forward"]
SMALL = list(range(1, 65))
# Primes (Bluestein), composites of small odd primes, a prime-heavy even length, powers of two.
LARGE = [97, 1009, 7 * 11 * 13, 2 * 1009, 3 * 5 * 7 * 64, 4096, 1 << 16]


def rng_complex(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def as_pairs(a: np.ndarray, dtype: Any) -> ember.Tensor:
    """A complex numpy array as an ember tensor of (re, im) pairs in `dtype`."""
    return ember.from_numpy(np.ascontiguousarray(np.stack([a.real, a.imag], -1).astype(dtype)))


def from_pairs(t: ember.Tensor) -> np.ndarray:
    r = t.numpy()
    return r[..., 0].astype(np.float64) + 1j * r[..., 1]


def rounded(a: np.ndarray, dtype: Any) -> np.ndarray:
    """a as the oracle sees it: rounded to the precision ember computes in."""
    if np.iscomplexobj(a):
        return a.real.astype(dtype).astype(np.float64) + 1j * a.imag.astype(dtype)
    return a.astype(dtype).astype(np.float64)


def assert_spectrum(got: np.ndarray, expected: np.ndarray, dtype: Any) -> None:
    assert got.shape == expected.shape, (got.shape, expected.shape)
    scale = np.linalg.norm(expected)
    err = np.linalg.norm(got - expected) / (scale if scale > 0 else 1.0)
    assert err <= TOL[dtype], f"relative error {err:.3g} > {TOL[dtype]:.1g}"


def check_c2c(n: int, dtype: Any, norm: str = "backward") -> None:
    a = rounded(rng_complex((n,), seed=n), dtype)
    x = as_pairs(a, dtype)
    fwd = from_pairs(_C._fft_c2c(x, [0], norm, True))
    assert_spectrum(fwd, np.fft.fft(a, norm=norm), dtype)  # type: ignore[call-overload]
    inv = from_pairs(_C._fft_c2c(x, [0], norm, False))
    assert_spectrum(inv, np.fft.ifft(a, norm=norm), dtype)  # type: ignore[call-overload]


def check_real(n: int, dtype: Any, norm: str = "backward") -> None:
    a = rounded(np.random.default_rng(n).standard_normal(n), dtype)
    x = ember.from_numpy(a.astype(dtype))
    half = _C._fft_r2c(x, [0], norm, True)
    assert half.dtype == x.dtype
    assert_spectrum(from_pairs(half), np.fft.rfft(a, norm=norm), dtype)  # type: ignore[call-overload]
    full = from_pairs(_C._fft_r2c(x, [0], norm, False))
    assert_spectrum(full, np.fft.fft(a, norm=norm), dtype)  # type: ignore[call-overload]
    spec = rounded(np.fft.rfft(a), dtype)
    back = _C._fft_c2r(as_pairs(spec, dtype), [0], norm, n).numpy()
    assert back.dtype == dtype
    expected = np.fft.irfft(spec, n, norm=norm)  # type: ignore[call-overload]
    assert_spectrum(back.astype(np.float64), expected, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_c2c_every_small_length(dtype: Any) -> None:
    for n in SMALL:
        check_c2c(n, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_real_every_small_length(dtype: Any) -> None:
    for n in SMALL:
        check_real(n, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", LARGE)
def test_large_lengths(n: int, dtype: Any) -> None:
    check_c2c(n, dtype)
    check_real(n, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_powers_of_two_up_to_2_20(dtype: Any) -> None:
    for k in range(21):
        check_real(1 << k, dtype)
        if k <= 16:
            check_c2c(1 << k, dtype)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n", [16, 15, 97])
def test_norm_modes(norm: str, n: int) -> None:
    check_c2c(n, np.float64, norm)
    check_real(n, np.float64, norm)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dims", [[0], [1], [2], [-1, 0], [0, 1, 2], [2, 0]])
def test_c2c_batched_dims(dims: list[int], dtype: Any) -> None:
    a = rounded(rng_complex((6, 5, 8)), dtype)
    got = from_pairs(_C._fft_c2c(as_pairs(a, dtype), dims, "backward", True))
    assert_spectrum(got, np.fft.fftn(a, axes=dims), dtype)
    got = from_pairs(_C._fft_c2c(as_pairs(a, dtype), dims, "ortho", False))
    assert_spectrum(got, np.fft.ifftn(a, axes=dims, norm="ortho"), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dims", [[0], [1], [2], [0, 2], [2, 1], [0, 1, 2]])
@pytest.mark.parametrize("last", [12, 7])
def test_real_batched_dims(dims: list[int], last: int, dtype: Any) -> None:
    shape = [5, 6, 4]
    shape[dims[-1]] = last
    a = rounded(np.random.default_rng(1).standard_normal(shape), dtype)
    got = from_pairs(_C._fft_r2c(ember.from_numpy(a.astype(dtype)), dims, "backward", True))
    assert_spectrum(got, np.fft.rfftn(a, axes=dims), dtype)
    spec = rounded(np.fft.rfftn(a, axes=dims), dtype)
    back = _C._fft_c2r(as_pairs(spec, dtype), dims, "backward", last).numpy()
    s = [shape[d] for d in dims]
    assert_spectrum(back.astype(np.float64), np.fft.irfftn(spec, s, axes=dims), dtype)


@pytest.mark.parametrize("layout", ["transposed", "stepped", "negative"])
def test_strided_inputs(layout: str) -> None:
    a = rng_complex((8, 10))
    base = as_pairs(a, np.float64)
    real = ember.from_numpy(a.real.copy())
    if layout == "transposed":
        x, r, view = base.transpose(0, 1), real.transpose(0, 1), a.T
    elif layout == "stepped":
        x, r, view = base[:, ::2], real[:, ::2], a[:, ::2]
    else:
        x = ember.from_numpy(np.stack([a.real, a.imag], -1)[::-1])
        r, view = ember.from_numpy(a.real[::-1]), a[::-1]
    assert not x.is_contiguous()
    got = from_pairs(_C._fft_c2c(x, [0, 1], "backward", True))
    assert_spectrum(got, np.fft.fft2(view), np.float64)
    got = from_pairs(_C._fft_r2c(r, [0, 1], "backward", True))
    assert_spectrum(got, np.fft.rfft2(view.real), np.float64)
    half = from_pairs(_C._fft_r2c(r, [1], "backward", True))
    back = _C._fft_c2r(as_pairs(half, np.float64)[:, :], [1], "backward", view.shape[1])
    assert_spectrum(back.numpy(), view.real, np.float64)


def test_c2r_ignores_imaginary_dc_and_nyquist_and_extra_values() -> None:
    spec = np.fft.rfft(np.random.default_rng(2).standard_normal(10))
    noisy = spec.copy()
    noisy[0] += 3j
    noisy[5] -= 2j
    padded = np.concatenate([noisy, [7 + 7j, 1 - 1j]])  # values past n/2+1 are not read
    got = _C._fft_c2r(as_pairs(padded, np.float64), [0], "backward", 10).numpy()
    assert_spectrum(got, np.fft.irfft(spec, 10), np.float64)


def test_input_not_modified_and_empty_batches() -> None:
    a = rng_complex((4, 6))
    x = as_pairs(a, np.float64)
    before = x.numpy().copy()
    _C._fft_c2c(x, [0, 1], "forward", True)
    np.testing.assert_array_equal(x.numpy(), before)
    empty = ember.from_numpy(np.zeros((0, 8, 2)))
    assert tuple(_C._fft_c2c(empty, [1], "backward", True).shape) == (0, 8, 2)
    assert tuple(_C._fft_r2c(ember.from_numpy(np.zeros((0, 8))), [1], "backward", True).shape) == (
        0,
        5,
        2,
    )
    assert tuple(_C._fft_c2r(empty[:, :5], [1], "backward", 8).shape) == (0, 8)
    assert tuple(_C._fft_c2c(x, [], "backward", True).shape) == (4, 6, 2)


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3).map(tuple),
    data=st.data(),
)
def test_hypothesis_shapes(shape: tuple[int, ...], data: st.DataObject) -> None:
    dims = data.draw(
        st.lists(
            st.integers(-len(shape), len(shape) - 1), min_size=1, unique_by=lambda d: d % len(shape)
        )
    )
    dtype = data.draw(st.sampled_from(DTYPES))
    norm = data.draw(st.sampled_from(NORMS))
    a = rounded(rng_complex(shape), dtype)
    got = from_pairs(_C._fft_c2c(as_pairs(a, dtype), dims, norm, True))
    assert_spectrum(got, np.fft.fftn(a, axes=dims, norm=norm), dtype)  # type: ignore[call-overload]
    got = from_pairs(_C._fft_r2c(ember.from_numpy(a.real.astype(dtype)), dims, norm, True))
    expected = np.fft.rfftn(a.real, axes=dims, norm=norm)  # type: ignore[call-overload]
    assert_spectrum(got, expected, dtype)


def test_bad_input() -> None:
    x = as_pairs(rng_complex((4, 5)), np.float32)
    real = ember.from_numpy(np.zeros((4, 5), np.float32))
    raises(ValueError, "fft_c2c", lambda: _C._fft_c2c(real, [0], "backward", True), "(4, 5)")
    raises(TypeError, "fft_c2c", lambda: _C._fft_c2c(x.int(), [0], "backward", True), "int32")
    raises(IndexError, "fft_c2c", lambda: _C._fft_c2c(x, [2], "backward", True), "range")
    raises(ValueError, "fft_c2c", lambda: _C._fft_c2c(x, [0, -2], "backward", True), "distinct")
    raises(ValueError, "fft_c2c", lambda: _C._fft_c2c(x, [0], "sideways", True), "sideways")
    raises(TypeError, "fft_r2c", lambda: _C._fft_r2c(real.int(), [0], "backward", True), "int32")
    raises(ValueError, "fft_r2c", lambda: _C._fft_r2c(real, [], "backward", True), "at least")
    raises(IndexError, "fft_r2c", lambda: _C._fft_r2c(real[0, 0], [0], "backward", True), "0-d")
    raises(IndexError, "fft_r2c", lambda: _C._fft_r2c(real, [3], "backward", True), "range")
    raises(ValueError, "fft_c2r", lambda: _C._fft_c2r(x, [1], "backward", 0), "(0)")
    raises(ValueError, "fft_c2r", lambda: _C._fft_c2r(x, [1], "backward", 10), "needs 6")
    raises(ValueError, "fft_c2r", lambda: _C._fft_c2r(real, [1], "backward", 4), "trailing")
    raises(TypeError, "fft_c2r", lambda: _C._fft_c2r(x, [1], "backward", 2.5), "last_dim_size")
    empty_dim = ember.from_numpy(np.zeros((0, 2), np.float32))
    raises(ValueError, "fft_c2c", lambda: _C._fft_c2c(empty_dim, [0], "backward", True), "(0)")


JUNK = st.one_of(
    st.integers(-(1 << 63), (1 << 63) - 1),
    st.integers(-4, 4),
    st.floats(allow_nan=True),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(-5, 5), max_size=4),
    st.tuples(st.integers(-(1 << 62), 1 << 62)),
)
TENSORS = [
    ember.from_numpy(np.zeros((), np.float32)),
    ember.from_numpy(np.zeros((0, 2), np.float64)),
    ember.from_numpy(np.ones((3, 2), np.float32)),
    ember.from_numpy(np.ones((2, 3, 2), np.float64))[:, ::2],
    ember.from_numpy(np.ones((4,), np.int64)),
    ember.from_numpy(np.ones((5, 1), np.float32)),
]


@settings(max_examples=200, deadline=None)
@given(
    which=st.sampled_from(["_fft_c2c", "_fft_r2c", "_fft_c2r"]),
    x=st.sampled_from(TENSORS),
    dims=st.one_of(JUNK, st.lists(st.integers(-3, 3), max_size=3)),
    norm=st.one_of(st.sampled_from(NORMS), JUNK),
    last=st.one_of(st.booleans(), JUNK),
)
def test_junk_arguments_raise_typed_errors(
    which: str, x: ember.Tensor, dims: Any, norm: Any, last: Any
) -> None:
    try:
        getattr(_C, which)(x, dims, norm, last)
    except (TypeError, ValueError, IndexError, RuntimeError) as e:
        message = str(e)
        # nanobind rejects argument types before ember sees the call.
        assert message.startswith(f"[{which[1:]}]") or "incompatible function arguments" in message
