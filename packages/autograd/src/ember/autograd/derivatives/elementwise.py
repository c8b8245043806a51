"""Derivatives of elementwise ops: ``g`` is the output gradient, ``a`` the op's arguments.

Broadcasting and type promotion need no care here: the engine sums each gradient back to its
input's shape and casts it to the input's dtype. Ops defined on complex values multiply ``g`` by
the conjugate of their derivative (torch's convention, see ``complex.py``).
"""

from __future__ import annotations

import cmath
import math
from typing import Any

import ember
from ember.autograd._rule import Rule
from ember.autograd.derivatives.complex import conj, sgn
from ember.autograd.graph import is_tensor

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _zeros(g: Any) -> Any:
    return ember.zeros_like(g)


def _pow_input(g: Any, base: Any, exponent: Any) -> Any:
    # d/dx x**p = p * x**(p-1), defined as 0 where p == 0 (x**0 is constant even at x = 0).
    if not is_tensor(exponent):
        if exponent == 0:
            return _zeros(g)
        return g * conj(exponent * base ** (exponent - 1))
    grad = g * conj(exponent * base ** (exponent - 1))
    return ember.where(exponent == 0, 0.0, grad)


def _pow_exponent(g: Any, base: Any, exponent: Any, result: Any) -> Any:
    # d/dp x**p = x**p * log(x); taken as 0 where x == 0 and Re p >= 0 (torch's convention).
    real_exponent = exponent.real if exponent.is_complex() else exponent
    if is_tensor(base):
        grad = g * conj(result * base.log())
        return ember.where((base == 0) & (real_exponent >= 0), 0.0, grad)
    if base == 0:
        return ember.where(real_exponent >= 0, 0.0, g * conj(result) * -math.inf)
    if isinstance(base, complex) or result.is_complex():
        return g * conj(result * cmath.log(base))
    return g * conj(result) * (math.log(base) if base > 0 else math.nan)


def _max_min_input(g: Any, x: Any, y: Any, wins: Any) -> Any:
    # Ties split the gradient evenly between the two inputs.
    return ember.where(x == y, g / 2, ember.where(wins, g, 0.0))


def _sinc(g: Any, x: Any) -> Any:
    pix = x * math.pi
    grad = (pix * pix.cos() - pix.sin()) / (pix * x)
    return g * conj(ember.where(x == 0, 0.0, grad))


def _sgn(g: Any, x: Any, result: Any) -> Any:
    # Real: 0. Complex sgn = z / |z| moves only with the angle: (g - s Re(g conj s)) / |z|, 0 at 0.
    if not x.is_complex():
        return _zeros(g)
    along = result * ember.real(g * result.conj())
    return ember.where(x == 0, 0.0, (g - along) / x.abs())


def _clamp_input(g: Any, x: Any, low: Any, high: Any) -> Any:
    mask = ember.ones_like(x, dtype=ember.bool)
    if low is not None:
        mask = mask & (x >= low)
    if high is not None:
        mask = mask & (x <= high)
    return ember.where(mask, g, 0.0)


def _clamp_bound(g: Any, x: Any, bound: Any, low: bool) -> Any:
    # The bound receives the gradient where it clipped the input.
    return ember.where(x < bound if low else x > bound, g, 0.0)


def _copysign_input(g: Any, x: Any, result: Any) -> Any:
    return ember.where(x == 0, 0.0, g * (result / x))


def _rmod_input(g: Any, x: Any, other: Any) -> Any:
    # other % x = other - floor(other / x) * x (other may be a Python number).
    if not is_tensor(other):
        other = ember.full_like(x, other)
    return -g * other.div(x, rounding_mode="floor")


RULES: dict[str, Rule] = {
    # --- unary ---------------------------------------------------------------------------
    "neg": Rule(input=lambda g, a: -g),
    "positive": Rule(input=lambda g, a: g),
    "abs": Rule(input=lambda g, a: g * sgn(a.input)),
    "sgn": Rule(input=lambda g, a: _sgn(g, a.input, a.result)),
    "sign": Rule(input=lambda g, a: _zeros(g)),
    "ceil": Rule(input=lambda g, a: _zeros(g)),
    "floor": Rule(input=lambda g, a: _zeros(g)),
    "round": Rule(input=lambda g, a: _zeros(g)),
    "trunc": Rule(input=lambda g, a: _zeros(g)),
    "frac": Rule(input=lambda g, a: g),
    "exp": Rule(input=lambda g, a: g * conj(a.result)),
    "exp2": Rule(input=lambda g, a: g * conj(a.result * _LN2)),
    "expm1": Rule(input=lambda g, a: g * conj(a.result + 1)),
    "log": Rule(input=lambda g, a: g / conj(a.input)),
    "log2": Rule(input=lambda g, a: g / conj(a.input * _LN2)),
    "log10": Rule(input=lambda g, a: g / conj(a.input * _LN10)),
    "log1p": Rule(input=lambda g, a: g / conj(a.input + 1)),
    "sqrt": Rule(input=lambda g, a: g / (2 * conj(a.result))),
    "rsqrt": Rule(input=lambda g, a: -0.5 * g * conj(a.result**3)),
    "square": Rule(input=lambda g, a: 2 * g * conj(a.input)),
    "reciprocal": Rule(input=lambda g, a: -g * conj(a.result * a.result)),
    "sin": Rule(input=lambda g, a: g * conj(a.input.cos())),
    "cos": Rule(input=lambda g, a: -g * conj(a.input.sin())),
    "tan": Rule(input=lambda g, a: g * conj(1 + a.result * a.result)),
    "asin": Rule(input=lambda g, a: g * conj((1 - a.input * a.input).rsqrt())),
    "acos": Rule(input=lambda g, a: -g * conj((1 - a.input * a.input).rsqrt())),
    "atan": Rule(input=lambda g, a: g / conj(1 + a.input * a.input)),
    "sinh": Rule(input=lambda g, a: g * conj(a.input.cosh())),
    "cosh": Rule(input=lambda g, a: g * conj(a.input.sinh())),
    "tanh": Rule(input=lambda g, a: g * conj(1 - a.result * a.result)),
    "asinh": Rule(input=lambda g, a: g * conj((a.input * a.input + 1).rsqrt())),
    # acosh'(z) = 1 / (sqrt(z - 1) sqrt(z + 1)): equal to rsqrt(z^2 - 1) only for real z >= 1.
    "acosh": Rule(input=lambda g, a: g / conj((a.input - 1).sqrt() * (a.input + 1).sqrt())),
    "atanh": Rule(input=lambda g, a: g / conj(1 - a.input * a.input)),
    "sigmoid": Rule(input=lambda g, a: g * conj(a.result * (1 - a.result))),
    "relu": Rule(input=lambda g, a: ember.where(a.result > 0, g, 0.0)),
    "erf": Rule(input=lambda g, a: g * _TWO_OVER_SQRT_PI * (-a.input * a.input).exp()),
    "erfc": Rule(input=lambda g, a: -g * _TWO_OVER_SQRT_PI * (-a.input * a.input).exp()),
    "erfinv": Rule(input=lambda g, a: g * (0.5 * math.sqrt(math.pi)) * (a.result * a.result).exp()),
    "lgamma": Rule(input=lambda g, a: g * a.input.digamma()),
    "digamma": Rule(input=lambda g, a: g * ember.polygamma(1, a.input)),
    "polygamma": Rule(input=lambda g, a: g * ember.polygamma(a.n + 1, a.input)),
    "Tensor.polygamma": Rule(input=lambda g, a: g * ember.polygamma(a.n + 1, a.input)),
    "sinc": Rule(input=lambda g, a: _sinc(g, a.input)),
    "nan_to_num": Rule(
        input=lambda g, a: ember.where(a.input.isfinite(), g, 0.0),
    ),
    "clamp": Rule(
        input=lambda g, a: _clamp_input(g, a.input, a.min, a.max),
        min=lambda g, a: _clamp_bound(g, a.input, a.min, True),
        max=lambda g, a: _clamp_bound(g, a.input, a.max, False),
    ),
    "clamp_min": Rule(
        input=lambda g, a: _clamp_input(g, a.input, a.min, None),
        min=lambda g, a: _clamp_bound(g, a.input, a.min, True),
    ),
    "clamp_max": Rule(
        input=lambda g, a: _clamp_input(g, a.input, None, a.max),
        max=lambda g, a: _clamp_bound(g, a.input, a.max, False),
    ),
    # --- binary --------------------------------------------------------------------------
    "add": Rule(
        input=lambda g, a: g,
        other=lambda g, a: g if a.alpha == 1 else g * conj(a.alpha),
    ),
    "sub": Rule(
        input=lambda g, a: g,
        other=lambda g, a: -g if a.alpha == 1 else g * -conj(a.alpha),
    ),
    # `other - input` (Tensor.__rsub__).
    "rsub": Rule("input, other", input=lambda g, a: -g, other=lambda g, a: g),
    "mul": Rule(
        input=lambda g, a: g * conj(a.other),
        other=lambda g, a: g * conj(a.input),
    ),
    "div": Rule(
        input=lambda g, a: g / conj(a.other) if a.rounding_mode is None else _zeros(g),
        other=lambda g, a: (
            -g * conj(a.input / (a.other * a.other)) if a.rounding_mode is None else _zeros(g)
        ),
    ),
    # `other / input` (Tensor.__rtruediv__).
    "rdiv": Rule(
        "input, other",
        input=lambda g, a: -g * conj(a.other / (a.input * a.input)),
        other=lambda g, a: g / conj(a.input),
    ),
    "pow": Rule(
        input=lambda g, a: _pow_input(g, a.input, a.other),
        other=lambda g, a: _pow_exponent(g, a.input, a.other, a.result),
    ),
    # `other ** input` (Tensor.__rpow__).
    "rpow": Rule(
        "input, other",
        input=lambda g, a: _pow_exponent(g, a.other, a.input, a.result),
        other=lambda g, a: _pow_input(g, a.other, a.input),
    ),
    "float_power": Rule(
        input=lambda g, a: _pow_input(g, a.input.double(), a.exponent),
        exponent=lambda g, a: _pow_exponent(g, a.input, a.exponent, a.result),
    ),
    "atan2": Rule(
        input=lambda g, a: g * a.other / (a.input * a.input + a.other * a.other),
        other=lambda g, a: -g * a.input / (a.input * a.input + a.other * a.other),
    ),
    "hypot": Rule(
        input=lambda g, a: g * a.input / a.result,
        other=lambda g, a: g * a.other / a.result,
    ),
    # As torch: one ulp away from input, so the input's gradient passes and other's is zero.
    "nextafter": Rule(input=lambda g, a: g, other=lambda g, a: _zeros(g)),
    "maximum": Rule(
        input=lambda g, a: _max_min_input(g, a.input, a.other, a.input > a.other),
        other=lambda g, a: _max_min_input(g, a.other, a.input, a.other > a.input),
    ),
    "minimum": Rule(
        input=lambda g, a: _max_min_input(g, a.input, a.other, a.input < a.other),
        other=lambda g, a: _max_min_input(g, a.other, a.input, a.other < a.input),
    ),
    "fmax": Rule(
        input=lambda g, a: ember.where((a.input >= a.other) | a.other.isnan(), g, 0.0),
        other=lambda g, a: ember.where(~((a.input >= a.other) | a.other.isnan()), g, 0.0),
    ),
    "fmin": Rule(
        input=lambda g, a: ember.where((a.input <= a.other) | a.other.isnan(), g, 0.0),
        other=lambda g, a: ember.where(~((a.input <= a.other) | a.other.isnan()), g, 0.0),
    ),
    "remainder": Rule(
        input=lambda g, a: g,
        other=lambda g, a: -g * a.input.div(a.other, rounding_mode="floor"),
    ),
    # `other % input` (Tensor.__rmod__).
    "rmod": Rule(
        "input, other",
        input=lambda g, a: _rmod_input(g, a.input, a.other),
        other=lambda g, a: g,
    ),
    "fmod": Rule(
        input=lambda g, a: g,
        other=lambda g, a: -g * a.input.div(a.other, rounding_mode="trunc"),
    ),
    "copysign": Rule(
        input=lambda g, a: _copysign_input(g, a.input, a.result),
        other=lambda g, a: _zeros(g),
    ),
    "xlogy": Rule(
        input=lambda g, a: g * ember.xlogy((a.input != 0).to(g.dtype), a.other),
        other=lambda g, a: g * a.input / a.other,
    ),
    "logaddexp": Rule(
        input=lambda g, a: g * (a.input - a.result).exp(),
        other=lambda g, a: g * (a.other - a.result).exp(),
    ),
    "logaddexp2": Rule(
        input=lambda g, a: g * (a.input - a.result).exp2(),
        other=lambda g, a: g * (a.other - a.result).exp2(),
    ),
    "lerp": Rule(
        input=lambda g, a: g * (1 - a.weight),
        end=lambda g, a: g * a.weight,
        weight=lambda g, a: g * (a.end - a.input),
    ),
    "addcmul": Rule(
        input=lambda g, a: g,
        tensor1=lambda g, a: g * conj(a.tensor2 * a.value),
        tensor2=lambda g, a: g * conj(a.tensor1 * a.value),
    ),
    "addcdiv": Rule(
        input=lambda g, a: g,
        tensor1=lambda g, a: g * conj(a.value / a.tensor2),
        tensor2=lambda g, a: -g * conj(a.value * a.tensor1 / (a.tensor2 * a.tensor2)),
    ),
    # A step function: flat in `input`; `values` is the output where input == 0. (torch has no
    # derivative for heaviside; this one is exact.)
    "heaviside": Rule(
        input=lambda g, a: _zeros(g),
        values=lambda g, a: ember.where(a.input == 0, g, 0.0),
    ),
    "where": Rule(
        "condition, input, other",
        input=lambda g, a: ember.where(a.condition, g, 0.0),
        other=lambda g, a: ember.where(a.condition, 0.0, g),
    ),
    # x.where(condition, y): the method puts self first.
    "Tensor.where": Rule(
        input=lambda g, a: ember.where(a.condition, g, 0.0),
        other=lambda g, a: ember.where(a.condition, 0.0, g),
    ),
    "masked_fill": Rule(
        input=lambda g, a: g.masked_fill(a.mask, 0.0),
        value=lambda g, a: ember.where(a.mask, g, 0.0).sum(),
    ),
    # --- dtype conversions and copies: the engine casts the gradient back ------------------
    "clone": Rule("input, *, memory_format=None", input=lambda g, a: g),
    "contiguous": Rule("input, memory_format=None", input=lambda g, a: g),
    "_to_dtype": Rule("input, dtype, copy=False", input=lambda g, a: g),
    "float": Rule("input", input=lambda g, a: g),
    "double": Rule("input", input=lambda g, a: g),
    "half": Rule("input", input=lambda g, a: g),
    "bfloat16": Rule("input", input=lambda g, a: g),
    # --- in-place writes whose new value does not depend on the old one --------------------
    "copy_": Rule("input, src", input=lambda g, a: _zeros(g), src=lambda g, a: g),
    "fill_": Rule("input, value", input=lambda g, a: _zeros(g), value=lambda g, a: g.sum()),
    "zero_": Rule("input", input=lambda g, a: _zeros(g)),
}

# Method-only entries whose names differ from a function.
RULES["Tensor._to_dtype"] = RULES.pop("_to_dtype")
for _name in ("float", "double", "half", "bfloat16", "copy_", "fill_", "zero_"):
    RULES["Tensor." + _name] = RULES.pop(_name)
