"""ember.fft against numpy.fft: every function, its n/s/dim/norm arguments, dtypes and errors.

The kernels themselves (every length, Bluestein, large sizes, threading) are tested in
test_fft_native.py; here the oracle checks the argument handling around them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.fft as F
from conftest import raises

TOL = {np.float32: 3e-6, np.float64: 1e-13}
NORMS = [None, "backward", "ortho", "forward"]


def complex_input(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return a.astype(np.complex64 if dtype == np.float32 else np.complex128)


def real_input(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def check(got: ember.Tensor, expected: np.ndarray, dtype: Any) -> None:
    g = got.numpy()
    assert g.shape == expected.shape, (g.shape, expected.shape)
    complex_expected = np.iscomplexobj(expected)
    assert np.iscomplexobj(g) == complex_expected, (g.dtype, expected.dtype)
    assert g.real.dtype == dtype, (g.dtype, dtype)
    scale = np.linalg.norm(expected)
    err = np.linalg.norm(g.astype(np.complex128) - expected) / (scale if scale > 0 else 1.0)
    assert err <= TOL[dtype], f"relative error {err:.3g}"


# (ember function, numpy function, input kind, size argument name)
ONE_DIM = [
    (F.fft, np.fft.fft, "complex"),
    (F.ifft, np.fft.ifft, "complex"),
    (F.fft, np.fft.fft, "real"),
    (F.ifft, np.fft.ifft, "real"),
    (F.rfft, np.fft.rfft, "real"),
    (F.irfft, np.fft.irfft, "complex"),
    (F.hfft, np.fft.hfft, "complex"),
    (F.ihfft, np.fft.ihfft, "real"),
]
MULTI_DIM = [
    (F.fft2, np.fft.fft2, "complex"),
    (F.ifft2, np.fft.ifft2, "complex"),
    (F.fftn, np.fft.fftn, "complex"),
    (F.ifftn, np.fft.ifftn, "complex"),
    (F.fftn, np.fft.fftn, "real"),
    (F.rfft2, np.fft.rfft2, "real"),
    (F.irfft2, np.fft.irfft2, "complex"),
    (F.rfftn, np.fft.rfftn, "real"),
    (F.irfftn, np.fft.irfftn, "complex"),
]


def make(kind: str, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    return complex_input(shape, dtype) if kind == "complex" else real_input(shape, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("fn", "ref", "kind"), ONE_DIM, ids=lambda v: getattr(v, "__name__", v))
def test_one_dim(fn: Callable[..., Any], ref: Callable[..., Any], kind: str, dtype: Any) -> None:
    a = make(kind, (3, 10), dtype)
    x = ember.from_numpy(a)
    for n in (None, 10, 7, 16, 1):
        for norm in NORMS:
            for dim in (-1, 0):
                if fn in (F.irfft, F.hfft) and n is None and dim == 0:
                    continue  # default length 2 * (3 - 1) = 4 works, but keep it below
                check(fn(x, n=n, dim=dim, norm=norm), ref(a, n=n, axis=dim, norm=norm), dtype)
    check(fn(x, dim=0), ref(a, axis=0), dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("fn", "ref", "kind"), MULTI_DIM, ids=lambda v: getattr(v, "__name__", v))
def test_multi_dim(fn: Callable[..., Any], ref: Callable[..., Any], kind: str, dtype: Any) -> None:
    a = make(kind, (4, 6, 5), dtype)
    x = ember.from_numpy(a)
    two = fn in (F.fft2, F.ifft2, F.rfft2, F.irfft2)
    cases: list[tuple[Any, Any]] = [(None, (0, 2)), ((3, 8), (1, 0)), ((5, 4), (-1, -2))]
    if not two:
        cases += [(None, None), ((2, 3, 4), None), ((4, 6), None), (None, (2,))]
    else:
        cases += [((3, 8), None)]
    for s, dim in cases:
        for norm in NORMS:
            kwargs = {} if dim is None else {"dim": dim}
            # numpy wants axes with s (torch takes s's last len(s) dims).
            axes = dim if dim is not None or s is None else range(a.ndim - len(s), a.ndim)
            ref_kwargs = {} if axes is None else {"axes": tuple(axes)}
            got = fn(x, s=s, norm=norm, **kwargs)
            check(got, ref(a, s=s, norm=norm, **ref_kwargs), dtype)


def test_defaults_dtypes_and_strided_input() -> None:
    a = np.arange(12.0).reshape(3, 4)
    check(F.fft(ember.from_numpy(a).transpose(0, 1)), np.fft.fft(a.T), np.float64)
    check(F.rfft(ember.from_numpy(a)[:, ::2]), np.fft.rfft(a[:, ::2]), np.float64)
    ints = F.fft(ember.tensor([1, 2, 3]))
    assert ints.dtype == ember.complex64
    check(ints, np.fft.fft([1.0, 2.0, 3.0]), np.float32)
    assert F.rfft(ember.ones(4, dtype=ember.float64)).dtype == ember.complex128
    assert F.irfft(F.rfft(ember.ones(4))).dtype == ember.float32
    assert F.fftn(ember.ones(2, 2), dim=()).dtype == ember.complex64
    check(F.irfft(ember.from_numpy(a)), np.fft.irfft(a), np.float64)  # real input to irfft


def test_out() -> None:
    x = ember.from_numpy(real_input((8,), np.float32))
    out = ember.empty(5, dtype=ember.complex64)
    assert F.rfft(x, out=out) is out
    check(out, np.fft.rfft(x.numpy()), np.float32)
    raises(RuntimeError, "fft.rfft", lambda: F.rfft(x, out=ember.empty(5)))


def test_frequencies_and_shifts() -> None:
    for n in (1, 4, 5, 8):
        for d in (1.0, 0.5):
            np.testing.assert_allclose(F.fftfreq(n, d).numpy(), np.fft.fftfreq(n, d), rtol=1e-6)
            np.testing.assert_allclose(F.rfftfreq(n, d).numpy(), np.fft.rfftfreq(n, d), rtol=1e-6)
    assert F.fftfreq(4, dtype=ember.float64).dtype == ember.float64
    a = np.arange(30.0).reshape(5, 6)
    x = ember.from_numpy(a)
    for dim in (None, 0, 1, (0, 1), -1):
        np.testing.assert_array_equal(F.fftshift(x, dim).numpy(), np.fft.fftshift(a, dim))
        np.testing.assert_array_equal(F.ifftshift(x, dim).numpy(), np.fft.ifftshift(a, dim))
    c = F.fft(ember.from_numpy(complex_input((7,), np.float64)))
    np.testing.assert_array_equal(F.fftshift(c).numpy(), np.fft.fftshift(c.numpy()))


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 7), min_size=1, max_size=3).map(tuple), data=st.data())
def test_hypothesis_round_trips(shape: tuple[int, ...], data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from([np.float32, np.float64]))
    norm = data.draw(st.sampled_from(NORMS))
    a = real_input(shape, dtype)
    x = ember.from_numpy(a)
    check(F.rfftn(x, norm=norm), np.fft.rfftn(a, norm=norm), dtype)
    back = F.irfftn(F.rfftn(x, norm=norm), s=shape, norm=norm)
    check(back, a.astype(np.float64), dtype)
    check(F.ifftn(F.fftn(x, norm=norm), norm=norm), a.astype(np.complex128), dtype)


def test_bad_input() -> None:
    x = ember.ones(4, 4)
    raises(TypeError, "fft.fft", lambda: F.fft([1.0, 2.0]))  # type: ignore[arg-type]
    raises(RuntimeError, "fft.fft", lambda: F.fft(x, norm="sideways"), "sideways")
    raises(RuntimeError, "fft.fft", lambda: F.fft(x, n=0), "(0)")
    raises(IndexError, "fft.fft", lambda: F.fft(x, dim=2), "range")
    raises(RuntimeError, "fft.fftn", lambda: F.fftn(x, dim=(0, 0)), "unique")
    raises(RuntimeError, "fft.fftn", lambda: F.fftn(x, s=(2,), dim=(0, 1)), "same length")
    raises(RuntimeError, "fft.fftn", lambda: F.fftn(x, s=(2, 2, 2)), "3 values")
    raises(RuntimeError, "fft.fft", lambda: F.fft(x.half()), "float16")
    raises(RuntimeError, "fft.rfft", lambda: F.rfft(F.fft(x)), "real input")
    raises(RuntimeError, "fft.irfft", lambda: F.irfft(ember.ones(1)), "(0)")
    raises(RuntimeError, "fft.rfftn", lambda: F.rfftn(x, dim=()), "at least one")
    raises(TypeError, "fft.fftfreq", lambda: F.fftfreq(2.5))  # type: ignore[arg-type]
    raises(ValueError, "fft.fftfreq", lambda: F.fftfreq(-1))
    raises(IndexError, "fft.fftshift", lambda: F.fftshift(x, 3), "range")


SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


@pytest.mark.parametrize("norm", NORMS)
def test_hermitian_n_dim(norm: str | None) -> None:
    # numpy has no hfftn: torch's definition is irfftn of the conjugate, scaled as a forward
    # transform (checked against torch 2.13 when written).
    a = complex_input((3, 4, 5), np.float64)
    r = real_input((3, 4, 6), np.float64)
    x, xr = ember.from_numpy(a), ember.from_numpy(r)
    swapped = SWAP[norm]
    check(F.hfftn(x, norm=norm), np.fft.irfftn(a.conj(), norm=swapped), np.float64)
    check(
        F.hfftn(x, s=(3, 7), norm=norm),
        np.fft.irfftn(a.conj(), s=(3, 7), axes=(1, 2), norm=swapped),
        np.float64,
    )
    check(
        F.hfft2(x, dim=(0, 2), norm=norm),
        np.fft.irfft2(a.conj(), axes=(0, 2), norm=swapped),
        np.float64,
    )
    check(F.ihfftn(xr, norm=norm), np.fft.rfftn(r, norm=swapped).conj(), np.float64)
    check(F.ihfft2(xr, norm=norm), np.fft.rfft2(r, norm=swapped).conj(), np.float64)


@pytest.mark.parametrize("bad", [{"a": 1}, "ab", 1.5, object()])
def test_s_and_dim_that_are_not_sequences_are_type_errors(bad: object) -> None:
    x = ember.rand(2, 3)
    with pytest.raises(TypeError, match=r"\[fft.fftn\] s must be a tuple of ints"):
        ember.fft.fftn(x, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[fft.ifftn\] dim must be a tuple of ints"):
        ember.fft.ifftn(x, dim=bad)  # type: ignore[arg-type]
    assert ember.fft.fftn(x, [2, 3], dim=(0, 1)).shape == (2, 3)  # sequences still pass
