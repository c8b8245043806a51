"""``ember.fft``: torch.fft's discrete Fourier transforms over ember tensors.

The transforms run ember-core's own FFT (mixed radix 2/3/4/5 and small odd primes, Bluestein's
algorithm for large prime factors, half-length complex transforms for real input), batched over
every dim not transformed and parallel over ember's thread pool. The native kernels work on real
tensors holding complex values as a trailing dim of size 2 (``view_as_real``'s layout); this module
converts, pads or trims each transformed dim to the requested length (``n``/``s``) and picks the
kernel. ``norm`` is ``"backward"`` (default: the inverse scales by 1/n), ``"ortho"`` (1/sqrt(n)
both ways) or ``"forward"`` (the forward transform scales by 1/n).

Real inputs of float32/float64 give complex64/complex128 results; integer and bool inputs are
first converted to the default float dtype; float16/bfloat16 are refused, as torch does on CPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import ember
from ember._linalg_helpers import N as _N
from ember._linalg_helpers import out as _copy_out
from ember._tensor import Tensor

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "hfft2",
    "hfftn",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "ihfft2",
    "ihfftn",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]

_NORMS = ("backward", "ortho", "forward")
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
Dims = int | Sequence[int] | None


# ------------------------------------------------------------------------------------------------
# Argument handling shared by every transform.


def _norm(norm: str | None, op: str) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise RuntimeError(
            f'[{op}] Invalid normalization mode: "{norm}" (expected one of {_NORMS})'
        )
    return norm


def _float_input(x: object, op: str) -> Tensor:
    """x as a float32/float64 or complex tensor (integers and bools become the default dtype)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"[{op}] input must be a Tensor, not {type(x).__name__}")
    if x.dtype in (ember.float32, ember.float64) or x.is_complex():
        return x
    if x.dtype in (ember.float16, ember.bfloat16):
        raise RuntimeError(
            f"[{op}] Unsupported dtype {x.dtype} (the CPU FFT takes float32/float64)"
        )
    return x.to(ember.get_default_dtype())


def _shape(x: Tensor) -> list[int]:
    return list(cast(Any, x).shape)


def _wrap(d: int, ndim: int, op: str) -> int:
    if not isinstance(d, int) or isinstance(d, bool):
        raise TypeError(f"[{op}] dim must be an int, not {type(d).__name__}")
    if not -ndim <= d < ndim:
        raise IndexError(
            f"[{op}] Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], "
            f"but got {d})"
        )
    return d % ndim


def _dims_and_sizes(
    x: Tensor, s: int | Sequence[int] | None, dim: Dims, op: str
) -> tuple[list[int], list[int]]:
    """torch.fft.fftn's rules: the dims to transform and the signal length along each.

    Errors are RuntimeErrors, as torch raises them."""
    ndim = x.dim()
    if not (s is None or isinstance(s, (int, list, tuple))) or isinstance(s, bool):
        raise TypeError(f"[{op}] s must be a tuple of ints, not {type(s).__name__}")
    if not (dim is None or isinstance(dim, (int, list, tuple))) or isinstance(dim, bool):
        raise TypeError(f"[{op}] dim must be a tuple of ints, not {type(dim).__name__}")
    sizes = [s] if isinstance(s, int) else None if s is None else list(s)
    if dim is None:
        dims = list(range(ndim)) if sizes is None else list(range(ndim - len(sizes), ndim))
        if sizes is not None and len(sizes) > ndim:
            raise RuntimeError(
                f"[{op}] Got shape with {len(sizes)} values but input tensor only has {ndim} "
                "dimensions"
            )
    else:
        dims = [_wrap(d, ndim, op) for d in ([dim] if isinstance(dim, int) else dim)]
    if len(set(dims)) != len(dims):
        raise RuntimeError(f"[{op}] FFT dims must be unique, got {dims}")
    if sizes is None:
        return dims, [_shape(x)[d] for d in dims]
    if len(sizes) != len(dims):
        raise RuntimeError(
            f"[{op}] When given, dim and shape arguments must have the same length, got s={sizes} "
            f"and dim={dims}"
        )
    out = []
    for d, n in zip(dims, sizes, strict=True):
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"[{op}] signal sizes must be ints, got {n!r}")
        if n == -1:
            n = _shape(x)[d]
        if n < 1:
            raise RuntimeError(f"[{op}] Invalid number of data points ({n}) specified")
        out.append(n)
    return dims, out


def _resized(x: Tensor, dims: Sequence[int], sizes: Sequence[int]) -> Tensor:
    """x trimmed or zero-padded (at the end) to sizes[i] along dims[i]."""
    for d, n in zip(dims, sizes, strict=True):
        have = _shape(x)[d]
        if n < have:
            x = x.narrow(d, 0, n)
        elif n > have:
            pad = _shape(x)
            pad[d] = n - have
            x = ember.cat([x, ember.zeros(pad, dtype=x.dtype)], d)
    return x


def _pairs(x: Tensor) -> Tensor:
    """A float (..., 2) tensor of x's complex values (real x gets zero imaginary parts)."""
    if x.is_complex():
        return ember.view_as_real(x)
    return ember.stack([x, ember.zeros_like(x)], -1)


def _conj_pairs(pairs: Tensor) -> Tensor:
    return pairs * ember.tensor([1.0, -1.0], dtype=pairs.dtype)


def _result(result: Any, out: Tensor | None, op: str) -> Tensor:
    """result, or `out` resized to it and filled (torch's out= rules, shared with linalg)."""
    return cast(Tensor, _copy_out(result, out, op))


# ------------------------------------------------------------------------------------------------
# The three kinds of transform; every public function is one of them.


def _c2c(
    x: object,
    s: int | Sequence[int] | None,
    dim: Dims,
    norm: str | None,
    forward: bool,
    out: Tensor | None,
    op: str,
) -> Tensor:
    t = _float_input(x, op)
    dims, sizes = _dims_and_sizes(t, s, dim, op)
    mode = _norm(norm, op)
    t = _resized(t, dims, sizes)
    if not t.is_complex() and forward and dims:
        # Real input: the half-length real kernel, expanded to the full spectrum.
        return _result(ember.view_as_complex(_N._fft_r2c(t, dims, mode, False)), out, op)
    return _result(ember.view_as_complex(_N._fft_c2c(_pairs(t), dims, mode, forward)), out, op)


def _scale(norm: str | None, hermitian: bool, op: str) -> str:
    """The checked norm mode; the Hermitian transforms (hfft, ihfft, ...) run the opposite
    direction's kernel, so they scale as its opposite mode."""
    mode = _norm(norm, op)
    return _SWAPPED[mode] if hermitian else mode


def _r2c(
    x: object,
    s: int | Sequence[int] | None,
    dim: Dims,
    norm: str | None,
    hermitian: bool,
    out: Tensor | None,
    op: str,
) -> Tensor:
    t = _float_input(x, op)
    if t.is_complex():
        raise RuntimeError(f"[{op}] expects a real input tensor, but got {t.dtype}")
    dims, sizes = _dims_and_sizes(t, s, dim, op)
    if not dims:
        raise RuntimeError(f"[{op}] must transform at least one axis")
    pairs = _N._fft_r2c(_resized(t, dims, sizes), dims, _scale(norm, hermitian, op), True)
    return _result(ember.view_as_complex(_conj_pairs(pairs) if hermitian else pairs), out, op)


def _c2r(
    x: object,
    s: int | Sequence[int] | None,
    dim: Dims,
    norm: str | None,
    hermitian: bool,
    out: Tensor | None,
    op: str,
) -> Tensor:
    t = _float_input(x, op)
    dims, sizes = _dims_and_sizes(t, s, dim, op)
    if not dims:
        raise RuntimeError(f"[{op}] must transform at least one axis")
    last = 2 * (_shape(t)[dims[-1]] - 1) if s is None else sizes[-1]
    if last < 1:
        raise RuntimeError(f"[{op}] Invalid number of data points ({last}) specified")
    sizes = [*sizes[:-1], last // 2 + 1]
    pairs = _pairs(_resized(t, dims, sizes))
    if hermitian:
        pairs = _conj_pairs(pairs)
    return _result(_N._fft_c2r(pairs, dims, _scale(norm, hermitian, op), last), out, op)


# ------------------------------------------------------------------------------------------------
# Public API (torch.fft's names and arguments).


def fft(
    input: Tensor,
    n: int | None = None,
    dim: int = -1,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """One-dimensional discrete Fourier transform along ``dim``.

    Args:
        input: real or complex tensor.
        n: signal length: the input is trimmed or zero-padded to it (default: its size).
        dim: the dim to transform.
        norm: ``"backward"`` (default, no scaling), ``"ortho"`` or ``"forward"`` (1/n).
        out: optional output tensor.

    Example:
        >>> ember.fft.fft(ember.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    """
    return _c2c(input, n, dim, norm, True, out, "fft.fft")


def ifft(
    input: Tensor,
    n: int | None = None,
    dim: int = -1,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`fft` (scaled by 1/n under the default ``norm``).

    Example:
        >>> ember.fft.ifft(ember.fft.fft(ember.tensor([1.0, 2.0]))).real
        tensor([1., 2.])
    """
    return _c2c(input, n, dim, norm, False, out, "fft.ifft")


def fft2(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Sequence[int] = (-2, -1),
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Two-dimensional discrete Fourier transform (:func:`fftn` over the last two dims).

    Example:
        >>> ember.fft.fft2(ember.ones(2, 2))
        tensor([[4.+0.j, 0.+0.j],
                [0.+0.j, 0.+0.j]])
    """
    return _c2c(input, s, dim, norm, True, out, "fft.fft2")


def ifft2(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Sequence[int] = (-2, -1),
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`fft2`.

    Example:
        >>> ember.fft.ifft2(ember.fft.fft2(ember.ones(2, 2))).real
        tensor([[1., 1.],
                [1., 1.]])
    """
    return _c2c(input, s, dim, norm, False, out, "fft.ifft2")


def fftn(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Dims = None,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """N-dimensional discrete Fourier transform over ``dim`` (default: all dims, or the last
    ``len(s)`` when ``s`` is given), each trimmed or zero-padded to ``s``.

    Example:
        >>> ember.fft.fftn(ember.ones(2, 3)).abs().sum()
        tensor(6.)
    """
    return _c2c(input, s, dim, norm, True, out, "fft.fftn")


def ifftn(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Dims = None,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`fftn`.

    Example:
        >>> ember.fft.ifftn(ember.fft.fftn(ember.ones(2, 3))).real.sum()
        tensor(6.)
    """
    return _c2c(input, s, dim, norm, False, out, "fft.ifftn")


def rfft(
    input: Tensor,
    n: int | None = None,
    dim: int = -1,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Fourier transform of a real signal: the n // 2 + 1 non-negative frequencies.

    Example:
        >>> ember.fft.rfft(ember.tensor([1.0, 2.0, 3.0, 4.0]))
        tensor([10.+0.j, -2.+2.j, -2.+0.j])
    """
    return _r2c(input, n, dim, norm, False, out, "fft.rfft")


def irfft(
    input: Tensor,
    n: int | None = None,
    dim: int = -1,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`rfft`: a real signal of length ``n`` (default 2 * (size - 1)).

    Example:
        >>> ember.fft.irfft(ember.fft.rfft(ember.tensor([1.0, 2.0, 3.0, 4.0])))
        tensor([1., 2., 3., 4.])
    """
    return _c2r(input, n, dim, norm, False, out, "fft.irfft")


def rfft2(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Sequence[int] = (-2, -1),
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Two-dimensional :func:`rfftn` (the last dim halved).

    Example:
        >>> ember.fft.rfft2(ember.ones(2, 4)).shape
        ember.Size([2, 3])
    """
    return _r2c(input, s, dim, norm, False, out, "fft.rfft2")


def irfft2(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Sequence[int] = (-2, -1),
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`rfft2`.

    Example:
        >>> ember.fft.irfft2(ember.fft.rfft2(ember.ones(2, 4))).shape
        ember.Size([2, 4])
    """
    return _c2r(input, s, dim, norm, False, out, "fft.irfft2")


def rfftn(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Dims = None,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """N-dimensional Fourier transform of a real signal; the last transformed dim is halved.

    Example:
        >>> ember.fft.rfftn(ember.ones(2, 3, 4)).shape
        ember.Size([2, 3, 3])
    """
    return _r2c(input, s, dim, norm, False, out, "fft.rfftn")


def irfftn(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Dims = None,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`rfftn`: ``s[-1]`` (default 2 * (size - 1)) is the last output length.

    Example:
        >>> ember.fft.irfftn(ember.fft.rfftn(ember.ones(2, 4))).shape
        ember.Size([2, 4])
    """
    return _c2r(input, s, dim, norm, False, out, "fft.irfftn")


def hfft(
    input: Tensor,
    n: int | None = None,
    dim: int = -1,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Fourier transform of a Hermitian-symmetric signal given by its first half: a real result
    of length ``n`` (default 2 * (size - 1)); the inverse of :func:`ihfft`.

    Example:
        >>> ember.fft.hfft(ember.tensor([1.0, 0.0, 0.0]))
        tensor([1., 1., 1., 1.])
    """
    return _c2r(input, n, dim, norm, True, out, "fft.hfft")


def ihfft(
    input: Tensor,
    n: int | None = None,
    dim: int = -1,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`hfft`: the n // 2 + 1 first values of the inverse FFT of a real signal.

    Example:
        >>> ember.fft.ihfft(ember.tensor([1.0, 1.0, 1.0, 1.0]))
        tensor([1.-0.j, 0.-0.j, 0.-0.j])
    """
    return _r2c(input, n, dim, norm, True, out, "fft.ihfft")


def hfft2(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Sequence[int] = (-2, -1),
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Two-dimensional :func:`hfftn`.

    Example:
        >>> ember.fft.hfft2(ember.ones(2, 3)).shape
        ember.Size([2, 4])
    """
    return _c2r(input, s, dim, norm, True, out, "fft.hfft2")


def ihfft2(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Sequence[int] = (-2, -1),
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Two-dimensional :func:`ihfftn`.

    Example:
        >>> ember.fft.ihfft2(ember.ones(2, 4)).shape
        ember.Size([2, 3])
    """
    return _r2c(input, s, dim, norm, True, out, "fft.ihfft2")


def hfftn(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Dims = None,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """N-dimensional :func:`hfft`: the real transform of a Hermitian signal given by the first
    half of its last dim (``irfftn`` of the conjugate, scaled as a forward transform).

    Example:
        >>> ember.fft.hfftn(ember.ones(2, 3)).shape
        ember.Size([2, 4])
    """
    return _c2r(input, s, dim, norm, True, out, "fft.hfftn")


def ihfftn(
    input: Tensor,
    s: Sequence[int] | None = None,
    dim: Dims = None,
    norm: str | None = None,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """Inverse of :func:`hfftn`: the conjugate of ``rfftn`` scaled as an inverse transform.

    Example:
        >>> ember.fft.ihfftn(ember.ones(2, 4)).shape
        ember.Size([2, 3])
    """
    return _r2c(input, s, dim, norm, True, out, "fft.ihfftn")


# ------------------------------------------------------------------------------------------------
# Sample frequencies and shifts.


def _frequencies(k: Tensor, span: float, requires_grad: bool) -> Tensor:
    freqs = k / span
    return freqs.requires_grad_() if requires_grad else freqs


def _check_n(n: object, op: str) -> int:
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"[{op}] n must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"[{op}] n must be non-negative, got {n}")
    return n


def fftfreq(
    n: int,
    d: float = 1.0,
    *,
    dtype: ember.dtype | None = None,
    layout: object = None,
    device: object = None,
    requires_grad: bool = False,
) -> Tensor:
    """The sample frequencies of :func:`fft`'s output: ``[0, 1, ..., -2, -1] / (d * n)``.

    Example:
        >>> ember.fft.fftfreq(4)
        tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
    """
    n = _check_n(n, "fft.fftfreq")
    k = ember.arange(n, dtype=dtype or ember.get_default_dtype(), device=device)
    k = ember.where(k >= (n + 1) // 2, k - n, k)
    return _frequencies(k, d * n, requires_grad)


def rfftfreq(
    n: int,
    d: float = 1.0,
    *,
    dtype: ember.dtype | None = None,
    layout: object = None,
    device: object = None,
    requires_grad: bool = False,
) -> Tensor:
    """The sample frequencies of :func:`rfft`'s output: ``[0, 1, ..., n // 2] / (d * n)``.

    Example:
        >>> ember.fft.rfftfreq(4)
        tensor([0.0000, 0.2500, 0.5000])
    """
    n = _check_n(n, "fft.rfftfreq")
    k = ember.arange(n // 2 + 1, dtype=dtype or ember.get_default_dtype(), device=device)
    return _frequencies(k, d * n, requires_grad)


def _shift(x: object, dim: Dims, inverse: bool, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"[{op}] input must be a Tensor, not {type(x).__name__}")
    if x.dim() == 0:
        return cast(Tensor, x.clone())
    dims = (
        list(range(x.dim()))
        if dim is None
        else [_wrap(d, x.dim(), op) for d in ([dim] if isinstance(dim, int) else dim)]
    )
    shifts = [(_shape(x)[d] + 1) // 2 if inverse else _shape(x)[d] // 2 for d in dims]
    return ember.roll(x, shifts, dims)


def fftshift(input: Tensor, dim: Dims = None) -> Tensor:
    """Moves the zero frequency to the middle (rolls each dim by size // 2; default: all dims).

    Example:
        >>> ember.fft.fftshift(ember.fft.fftfreq(4))
        tensor([-0.5000, -0.2500,  0.0000,  0.2500])
    """
    return _shift(input, dim, False, "fft.fftshift")


def ifftshift(input: Tensor, dim: Dims = None) -> Tensor:
    """Inverse of :func:`fftshift`.

    Example:
        >>> ember.fft.ifftshift(ember.fft.fftshift(ember.arange(5)))
        tensor([0, 1, 2, 3, 4])
    """
    return _shift(input, dim, True, "fft.ifftshift")
