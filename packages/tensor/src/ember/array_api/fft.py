"""The Array API ``fft`` extension over ember.fft (``xp.fft``).

The standard's signatures (``axis``/``axes``, keyword-only ``n``/``s``/``norm``, ``norm`` never
None) translate to ember.fft's torch-style ones (``dim``, positional ``n``).

Example:
    >>> import ember
    >>> from ember.array_api import fft
    >>> fft.fft(ember.tensor([1.0, 0.0, 0.0, 0.0], dtype=ember.complex64))
    tensor([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import ember.fft as _fft
from ember.array_api._common import Array, check_array, check_device, int_tuple

Norm = Literal["backward", "ortho", "forward"]
_NORMS = ("backward", "ortho", "forward")

OneDim = Callable[..., Array]
ManyDims = Callable[..., Array]


def _check_norm(norm: object, op: str) -> str:
    if norm not in _NORMS:
        raise ValueError(f"[fft.{op}] norm must be one of {_NORMS}, got {norm!r}")
    return norm


def _one_dim(name: str, op: Callable[..., Any]) -> OneDim:
    def function(
        x: Array, /, *, n: int | None = None, axis: int = -1, norm: Norm = "backward"
    ) -> Array:
        check_array(x, f"fft.{name}")
        return op(x, n, axis, _check_norm(norm, name))  # type: ignore[no-any-return]

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The standard's ``fft.{name}`` along `axis` (ember's ``fft.{name}``).\n\n"
        f"Example:\n    >>> {name}(ember.ones(4, dtype=ember.complex64)).shape[0] > 0\n    True\n"
    )
    return function


def _many_dims(name: str, op: Callable[..., Any]) -> ManyDims:
    def function(
        x: Array,
        /,
        *,
        s: Sequence[int] | None = None,
        axes: Sequence[int] | None = None,
        norm: Norm = "backward",
    ) -> Array:
        check_array(x, f"fft.{name}")
        sizes = None if s is None else int_tuple(s, f"fft.{name}", "s")
        dims = None if axes is None else int_tuple(axes, f"fft.{name}", "axes")
        return op(x, sizes, dims, _check_norm(norm, name))  # type: ignore[no-any-return]

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The standard's ``fft.{name}`` over `axes` (all by default; ember's ``fft.{name}``).\n\n"
        f"Example:\n    >>> {name}(ember.ones((2, 2), dtype=ember.complex64)).ndim\n    2\n"
    )
    return function


fft = _one_dim("fft", _fft.fft)
ifft = _one_dim("ifft", _fft.ifft)
rfft = _one_dim("rfft", _fft.rfft)
irfft = _one_dim("irfft", _fft.irfft)
hfft = _one_dim("hfft", _fft.hfft)
ihfft = _one_dim("ihfft", _fft.ihfft)
fftn = _many_dims("fftn", _fft.fftn)
ifftn = _many_dims("ifftn", _fft.ifftn)
rfftn = _many_dims("rfftn", _fft.rfftn)
irfftn = _many_dims("irfftn", _fft.irfftn)


def fftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Array:
    """The sample frequencies of ``fft``'s output: ``[0, 1, ..., -2, -1] / (d * n)``.

    Example:
        >>> fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    check_device(device, "fft.fftfreq")
    return _fft.fftfreq(n, d, dtype=dtype)


def rfftfreq(n: int, /, *, d: float = 1.0, dtype: Any = None, device: Any = None) -> Array:
    """The sample frequencies of ``rfft``'s output: ``[0, 1, ..., n // 2] / (d * n)``.

    Example:
        >>> rfftfreq(4)
        tensor([0.0000, 0.2500, 0.5000])
    """
    check_device(device, "fft.rfftfreq")
    return _fft.rfftfreq(n, d, dtype=dtype)


def fftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """Moves the zero frequency to the middle of `axes` (all axes by default).

    Example:
        >>> fftshift(fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    check_array(x, "fft.fftshift")
    return _fft.fftshift(x, None if axes is None else int_tuple(axes, "fft.fftshift", "axes"))


def ifftshift(x: Array, /, *, axes: int | Sequence[int] | None = None) -> Array:
    """The inverse of :func:`fftshift`.

    Example:
        >>> ifftshift(fftshift(fftfreq(5)))
        tensor([ 0.0000,  0.2000,  0.4000, -0.4000, -0.2000])
    """
    check_array(x, "fft.ifftshift")
    return _fft.ifftshift(x, None if axes is None else int_tuple(axes, "fft.ifftshift", "axes"))


__all__ = [
    "fft",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfftn",
    "rfft",
    "rfftfreq",
    "rfftn",
]
