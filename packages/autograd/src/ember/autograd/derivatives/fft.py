"""Derivatives of the three FFT natives behind ``ember.fft`` (torch's ``fft_*_backward``).

The natives hold complex values as a trailing dim of size 2 (``view_as_real``'s layout), so
their gradients are real tensors of the same layout: ``(dL/dRe, dL/dIm)``, torch's convention.
A DFT is linear; its adjoint is the DFT in the other direction with the same scale, which is the
opposite ``normalization`` mode ("backward" scales the inverse, "forward" the forward transform).
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd._rule import Rule
from ember_core import _C

_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _last_dim(dims: Any, ndim: int) -> int:
    """The dim of a real tensor of ``ndim`` dims that the one-sided transform runs along."""
    return int(dims[-1]) % ndim


def _c2c(g: Any, a: Any) -> Any:
    return _C._fft_c2c(g, a.dim, _SWAPPED[a.normalization], not a.forward)


def _r2c(g: Any, a: Any) -> Any:
    """A one-sided r2c is a full c2c of the real input (zero imaginary parts) whose upper half
    is dropped: pad the gradient back with zeros, run the adjoint c2c, keep the real parts."""
    if a.onesided:
        d = _last_dim(a.dim, len(a.input_shape))
        missing = a.input_shape[d] - g.shape[d]
        if missing > 0:
            shape = list(g.shape)
            shape[d] = missing
            g = ember.cat([g, ember.zeros(shape, dtype=g.dtype)], d)
    return _C._fft_c2c(g, a.dim, _SWAPPED[a.normalization], False).select(-1, 0)


def _c2r(g: Any, a: Any) -> Any:
    """A c2r fills the missing half of the spectrum by conjugate symmetry, then runs an
    inverse c2c: its adjoint is a one-sided r2c in which every entry whose mirror image was
    filled in (indices 1 .. n - (n//2 + 1)) counts twice. Input entries past n//2 + 1 along the
    last dim are not read: their gradient is zero."""
    d = _last_dim(a.dim, g.dim())
    grad = _C._fft_r2c(g, a.dim, _SWAPPED[a.normalization], True)
    half = grad.shape[d]
    doubled = g.shape[d] - half
    if doubled > 0:
        weights = ember.ones(half, dtype=grad.dtype)
        weights[1 : 1 + doubled] = 2.0
        shape = [1] * grad.dim()
        shape[d] = half
        grad = grad * weights.reshape(shape)
    extra = a.input_shape[d] - half
    if extra > 0:
        shape = list(grad.shape)
        shape[d] = extra
        grad = ember.cat([grad, ember.zeros(shape, dtype=grad.dtype)], d)
    return grad


RULES: dict[str, Rule] = {
    "_fft_c2c": Rule(input=_c2c),
    "_fft_r2c": Rule(input=_r2c),
    "_fft_c2r": Rule(input=_c2r),
}
