"""Derivatives of the complex-number ops, and the conjugation helpers every rule shares.

ember follows torch's convention (the note "Autograd for Complex Numbers"): for a real loss L of
z = x + iy, the gradient is ``dL/dx + i dL/dy``. A holomorphic f then back-propagates
``g * conj(f'(z))``, which is why the product and elementwise rules conjugate what they multiply
the gradient by; on real tensors ``conj`` is the identity and costs nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.graph import is_tensor


def conj(value: Any) -> Any:
    """The complex conjugate of a tensor or number; real values come back as they are."""
    if is_tensor(value):
        return value.conj() if value.is_complex() else value
    if isinstance(value, complex):
        return value.conjugate()
    return value


def adjoint(t: Any) -> Any:
    """The conjugate transpose of the last two dims (``t.mH``; ``t.mT`` for real tensors)."""
    return conj(t.transpose(-2, -1))


def sgn(z: Any) -> Any:
    """``z / |z|`` (0 at 0) for complex z, the sign for real z: the gradient of ``abs``."""
    if not z.is_complex():
        return z.sgn()
    return ember.where(z == 0, 0.0, z / z.abs())


def by_parts(backward: Callable[..., Any]) -> Callable[..., Any]:
    """Runs ``backward(g, ...)``, linear in ``g`` with real coefficients, on Re g and Im g
    separately: ember-core's index writes and gathers (index_put, scatter_add, index_add,
    advanced indexing) take real tensors only (complex ones lose their imaginary parts)."""

    @functools.wraps(backward)
    def on_parts(g: Any, *args: Any) -> Any:
        if not g.is_complex():
            return backward(g, *args)
        return ember.complex(backward(ember.real(g), *args), backward(ember.imag(g), *args))

    return on_parts


def imag_part(g: Any) -> Any:
    """``Im g``; a real gradient has none (zeros)."""
    return ember.imag(g) if g.is_complex() else ember.zeros_like(g)


def _angle(g: Any, z: Any) -> Any:
    # angle = atan2(y, x): d/dx = -y/|z|^2, d/dy = x/|z|^2, i.e. g * i z / |z|^2 (0 at 0).
    if not z.is_complex():
        return ember.zeros_like(z)
    return ember.where(z == 0, 0.0, g * z * 1j / z.abs() ** 2)


RULES: dict[str, Rule] = {
    "angle": Rule(input=lambda g, a: _angle(g, a.input)),
    # Re and Im are views; their gradients put g back in the real or imaginary part.
    "real": Rule(view=True, input=lambda g, a: g),
    "imag": Rule(view=True, input=lambda g, a: g * 1j),
    # x.conj() will become a lazy view (a conjugate bit): the storage tells which one it is.
    "conj": Rule(view=None, input=lambda g, a: conj(g)),
    "conj_physical": Rule(input=lambda g, a: g.conj_physical()),
    # The values do not change (x itself when its conj bit is clear): the gradient passes as is.
    "resolve_conj": Rule(view=None, input=lambda g, a: g),
    "complex": Rule(
        "real, imag, *, out=None",
        real=lambda g, a: ember.real(g),
        imag=lambda g, a: imag_part(g),
    ),
    "view_as_real": Rule(
        view=True, input=lambda g, a: ember.complex(g.select(-1, 0), g.select(-1, 1))
    ),
    "view_as_complex": Rule(
        view=True,
        input=lambda g, a: ember.stack([ember.real(g), imag_part(g)], -1),
    ),
}
