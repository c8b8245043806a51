"""ember.array_api.fft (the standard's fft extension) against numpy.fft."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import ember
from conftest import raises, to_numpy

xp: Any = ember.ones(1).__array_namespace__()
RNG = np.random.default_rng(7)


def close(actual: Any, expected: np.ndarray, dtype: Any) -> None:
    assert actual.dtype == dtype, (actual.dtype, dtype)
    got = to_numpy(actual)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    tol = 1e-4 if dtype in (xp.float32, xp.complex64) else 1e-10
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)


def complex_array(shape: tuple[int, ...]) -> np.ndarray:
    return RNG.normal(size=shape) + 1j * RNG.normal(size=shape)


@pytest.mark.parametrize("name", ["fft", "ifft", "hfft"])
@pytest.mark.parametrize(
    "kw", [{}, {"n": 5}, {"n": 3, "axis": 0}, {"axis": -2, "norm": "ortho"}, {"norm": "forward"}]
)
def test_one_dim_complex_transforms(name: str, kw: dict[str, Any]) -> None:
    a = complex_array((4, 6))
    result = getattr(xp.fft, name)(xp.asarray(a, dtype=xp.complex128), **kw)
    expected = getattr(np.fft, name)(a, **kw)
    close(result, expected, xp.float64 if name == "hfft" else xp.complex128)


@pytest.mark.parametrize("name", ["rfft", "ihfft"])
@pytest.mark.parametrize("kw", [{}, {"n": 7}, {"axis": 0, "norm": "ortho"}, {"norm": "forward"}])
def test_one_dim_real_transforms(name: str, kw: dict[str, Any]) -> None:
    a = RNG.normal(size=(5, 6)).astype(np.float32)
    result = getattr(xp.fft, name)(xp.asarray(a), **kw)
    close(result, getattr(np.fft, name)(a, **kw).astype(np.complex64), xp.complex64)


@pytest.mark.parametrize("kw", [{}, {"n": 8}, {"axis": 0, "n": 4, "norm": "ortho"}])
def test_irfft(kw: dict[str, Any]) -> None:
    a = complex_array((5, 4))
    result = xp.fft.irfft(xp.asarray(a, dtype=xp.complex128), **kw)
    close(result, np.fft.irfft(a, **kw), xp.float64)


@pytest.mark.parametrize("name", ["fftn", "ifftn"])
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"axes": [0]},
        {"axes": [2, 0], "s": [3, 5]},
        {"norm": "ortho"},
        {"axes": (1,), "norm": "forward"},
    ],
)
def test_many_dim_complex_transforms(name: str, kw: dict[str, Any]) -> None:
    a = complex_array((3, 4, 2))
    result = getattr(xp.fft, name)(xp.asarray(a, dtype=xp.complex64), **kw)
    close(result, getattr(np.fft, name)(a, **kw).astype(np.complex64), xp.complex64)


@pytest.mark.parametrize("kw", [{}, {"axes": [0, 1]}, {"axes": [1], "s": [6], "norm": "ortho"}])
def test_rfftn_and_irfftn(kw: dict[str, Any]) -> None:
    a = RNG.normal(size=(3, 4))
    close(xp.fft.rfftn(xp.asarray(a), **kw), np.fft.rfftn(a, **kw), xp.complex128)
    c = complex_array((3, 4))
    close(xp.fft.irfftn(xp.asarray(c), **kw), np.fft.irfftn(c, **kw), xp.float64)


def test_frequencies_and_shifts() -> None:
    close(xp.fft.fftfreq(5), np.fft.fftfreq(5).astype(np.float32), xp.float32)
    close(xp.fft.fftfreq(6, d=0.5, dtype=xp.float64), np.fft.fftfreq(6, d=0.5), xp.float64)
    close(xp.fft.rfftfreq(7, d=2.0), np.fft.rfftfreq(7, d=2.0).astype(np.float32), xp.float32)
    a = RNG.normal(size=(4, 5))
    x = xp.asarray(a)
    close(xp.fft.fftshift(x), np.fft.fftshift(a), xp.float64)
    close(xp.fft.fftshift(x, axes=1), np.fft.fftshift(a, axes=1), xp.float64)
    close(xp.fft.ifftshift(x, axes=(0,)), np.fft.ifftshift(a, axes=(0,)), xp.float64)
    close(xp.fft.ifftshift(xp.fft.fftshift(x)), a, xp.float64)


def test_signatures_follow_the_standard() -> None:
    # The standard: the array positional-only, everything else keyword-only.
    for name in xp.fft.__all__:
        params = list(inspect.signature(getattr(xp.fft, name)).parameters.values())
        assert params[0].kind is inspect.Parameter.POSITIONAL_ONLY, name
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:]), name
    assert "fft" in xp.__all__ and xp.fft is __import__("ember.array_api.fft").array_api.fft


def test_bad_input_raises_typed_errors() -> None:
    z = xp.asarray([1j, 2j])
    raises(ValueError, "fft.ifft", lambda: xp.fft.ifft(z, norm="none"), "norm")
    raises(TypeError, "fft.fftn", lambda: xp.fft.fftn(z, axes="0"), "axes")
    raises(TypeError, "fft.rfft", lambda: xp.fft.rfft([1.0, 2.0]), "ember array")
    raises(TypeError, "fft.fftshift", lambda: xp.fft.fftshift(z, axes=1.5), "axes")
    raises(RuntimeError, "fft.fftfreq", lambda: xp.fft.fftfreq(4, device="meta"))
