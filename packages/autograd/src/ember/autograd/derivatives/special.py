"""Derivatives of ember.special's native kernels (``ember._C._special_*`` and ``ember.i0``).

The formulas are torch's: I0' = I1, I1' = I0 - I1/x (1/2 at 0), the scaled forms add the
derivative of e^{-|x|}, erfcx' = 2x erfcx - 2/sqrt(pi), ndtri' = sqrt(2 pi) e^{ndtri^2 / 2}, and
zeta(x, q) is differentiable in q only (d/dq = -x zeta(x + 1, q)).
"""

from __future__ import annotations

import math
from typing import Any

import ember
from ember.autograd._rule import Rule
from ember_core import _C

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)


def _i1_derivative(x: Any) -> Any:
    safe = ember.where(x == 0, 1.0, x)
    return ember.where(x == 0, 0.5, ember.i0(x) - _C._special_i1(x) / safe)


def _i1e_derivative(x: Any) -> Any:
    safe = ember.where(x == 0, 1.0, x)
    scaled = _C._special_i1e(x)
    return ember.where(x == 0, 0.5, _C._special_i0e(x) - scaled * (x.sign() + 1 / safe))


def _zeta_input(g: Any, a: Any) -> Any:
    raise NotImplementedError(
        "[special.zeta] the derivative with respect to 'input' (x) is not implemented, as in "
        "torch; only 'other' (q) is differentiable"
    )


RULES: dict[str, Rule] = {
    "i0": Rule(input=lambda g, a: g * _C._special_i1(a.input)),
    "_special_i0e": Rule(
        input=lambda g, a: g * (_C._special_i1e(a.input) - a.input.sign() * a.result),
    ),
    "_special_i1": Rule(input=lambda g, a: g * _i1_derivative(a.input)),
    "_special_i1e": Rule(input=lambda g, a: g * _i1e_derivative(a.input)),
    "_special_erfcx": Rule(input=lambda g, a: g * (2 * a.input * a.result - _TWO_OVER_SQRT_PI)),
    "_special_ndtri": Rule(input=lambda g, a: g * _SQRT_2PI * (0.5 * a.result * a.result).exp()),
    "_special_zeta": Rule(
        input=_zeta_input,
        other=lambda g, a: -g * a.input * _C._special_zeta(a.input + 1, a.other),
    ),
}
