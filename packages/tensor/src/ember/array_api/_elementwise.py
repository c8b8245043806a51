"""Element-wise functions under the standard's names.

Most map one-to-one onto an ember op and are built from two tables below. Either operand of a
binary function may be a Python scalar (never both), as the 2024.12 standard allows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ember.array_api._common import Array, E, as_operands, check_array, is_scalar

Unary = Callable[[Array], Array]
Binary = Callable[[Any, Any], Array]


def _unary(name: str, op: Callable[..., Any]) -> Unary:
    def function(x: Array, /) -> Array:
        return op(check_array(x, name))  # type: ignore[no-any-return]

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The standard's ``{name}``, element-wise (ember's ``{op.__name__}``).\n\n"
        f"Example:\n    >>> {name}(ember.tensor([0.5])).shape\n    ember.Size([1])\n"
    )
    return function


def _binary(name: str, op: Callable[..., Any]) -> Binary:
    def function(x1: Any, x2: Any, /) -> Array:
        return op(*as_operands(x1, x2, name))  # type: ignore[no-any-return]

    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The standard's ``{name}``, element-wise, broadcast (ember's ``{op.__name__}``).\n\n"
        f"Example:\n    >>> {name}(ember.tensor([1, 2]), 1).shape\n    ember.Size([2])\n"
    )
    return function


abs = _unary("abs", E.abs)
acos = _unary("acos", E.acos)
acosh = _unary("acosh", E.acosh)
asin = _unary("asin", E.asin)
asinh = _unary("asinh", E.asinh)
atan = _unary("atan", E.atan)
atanh = _unary("atanh", E.atanh)
bitwise_invert = _unary("bitwise_invert", E.bitwise_not)
ceil = _unary("ceil", E.ceil)
cos = _unary("cos", E.cos)
cosh = _unary("cosh", E.cosh)
exp = _unary("exp", E.exp)
floor = _unary("floor", E.floor)
isfinite = _unary("isfinite", E.isfinite)
isinf = _unary("isinf", E.isinf)
isnan = _unary("isnan", E.isnan)
log = _unary("log", E.log)
log1p = _unary("log1p", E.log1p)
log2 = _unary("log2", E.log2)
log10 = _unary("log10", E.log10)
logical_not = _unary("logical_not", E.logical_not)
negative = _unary("negative", E.negative)
positive = _unary("positive", E.positive)
reciprocal = _unary("reciprocal", E.reciprocal)
sin = _unary("sin", E.sin)
sinh = _unary("sinh", E.sinh)
sqrt = _unary("sqrt", E.sqrt)
square = _unary("square", E.square)
tan = _unary("tan", E.tan)
trunc = _unary("trunc", E.trunc)

add = _binary("add", E.add)
atan2 = _binary("atan2", E.atan2)
bitwise_and = _binary("bitwise_and", E.bitwise_and)
bitwise_left_shift = _binary("bitwise_left_shift", E.bitwise_left_shift)
bitwise_or = _binary("bitwise_or", E.bitwise_or)
bitwise_right_shift = _binary("bitwise_right_shift", E.bitwise_right_shift)
bitwise_xor = _binary("bitwise_xor", E.bitwise_xor)
copysign = _binary("copysign", E.copysign)
divide = _binary("divide", E.true_divide)
equal = _binary("equal", E.eq)
greater = _binary("greater", E.gt)
greater_equal = _binary("greater_equal", E.ge)
hypot = _binary("hypot", E.hypot)
less = _binary("less", E.lt)
less_equal = _binary("less_equal", E.le)
logaddexp = _binary("logaddexp", E.logaddexp)
logical_and = _binary("logical_and", E.logical_and)
logical_or = _binary("logical_or", E.logical_or)
logical_xor = _binary("logical_xor", E.logical_xor)
maximum = _binary("maximum", E.maximum)
minimum = _binary("minimum", E.minimum)
multiply = _binary("multiply", E.mul)
not_equal = _binary("not_equal", E.ne)
pow = _binary("pow", E.pow)
subtract = _binary("subtract", E.sub)


def sign(x: Array, /) -> Array:
    """-1, 0 or 1 by the sign of each element; NaN stays NaN (ember's ``sign`` gives 0 there).

    For complex x it is ``x / abs(x)`` (0 where x is 0), as the standard defines it.

    Example:
        >>> sign(ember.tensor([-2.0, 0.0, float("nan")]))
        tensor([-1., 0., nan])
    """
    check_array(x, "sign")
    if x.is_complex():
        return E.sgn(x)  # type: ignore[no-any-return]  # x / |x|, 0 at 0, as the standard says
    result = E.sign(x)
    if x.is_floating_point():
        result = E.where(E.isnan(x), x, result)
    return result  # type: ignore[no-any-return]


def round(x: Array, /) -> Array:
    """Each element rounded to the nearest integer, halves to even (complex: each part).

    Example:
        >>> round(ember.tensor([0.5, 1.5, -2.7]))
        tensor([ 0.,  2., -3.])
    """
    check_array(x, "round")
    if x.is_complex():
        return E.complex(E.round(x.real), E.round(x.imag))  # type: ignore[no-any-return]
    return E.round(x)  # type: ignore[no-any-return]


def expm1(x: Array, /) -> Array:
    """``exp(x) - 1``, accurate near 0; complex x follows the standard's special cases.

    Example:
        >>> expm1(ember.tensor([0.0]))
        tensor([0.])
    """
    check_array(x, "expm1")
    if not x.is_complex():
        return E.expm1(x)  # type: ignore[no-any-return]
    a, b = E.real(x), E.imag(x)
    # exp(a)cos(b) - 1 = expm1(a)cos(b) - 2sin^2(b/2): no cancellation near 0; +0.0 turns -0 to 0.
    real = E.expm1(a) * E.cos(b) - 2 * E.square(E.sin(b / 2)) + 0.0
    imag = E.where(b == 0, b, E.exp(a) * E.sin(b))  # inf * sin(0) would be NaN
    not_finite_b = ~E.isfinite(b)
    real = E.where((a == -E.inf) & not_finite_b, -1.0, real)
    imag = E.where((a == -E.inf) & not_finite_b, 0.0, imag)
    real = E.where((a == E.inf) & not_finite_b, E.inf, real)
    return E.complex(real, imag)  # type: ignore[no-any-return]


def tanh(x: Array, /) -> Array:
    """The hyperbolic tangent; ``tanh(+inf + bj)`` is ``1 + 0j`` with b's sign on the zero.

    Example:
        >>> tanh(ember.tensor([0.0]))
        tensor([0.])
    """
    result = E.tanh(check_array(x, "tanh"))
    if x.is_complex():
        # ember's zero takes sin(2b)'s sign; the standard gives it b's (conj symmetry).
        b = E.imag(x)
        at_inf = (E.real(x) == E.inf) & E.isfinite(b)
        zero = E.copysign(E.zeros_like(b), b)
        result = E.where(at_inf, E.complex(E.ones_like(b), zero), result)
    return result  # type: ignore[no-any-return]


def floor_divide(x1: Any, x2: Any, /) -> Array:
    """``floor(x1 / x2)``; an infinite operand against a finite one gives the standard's
    infinity or signed zero (``floor_divide(inf, 2.0)`` is inf where ember's op gives NaN).

    Example:
        >>> floor_divide(ember.tensor([7, -7]), 2)
        tensor([ 3, -4])
    """
    x1, x2 = as_operands(x1, x2, "floor_divide")
    result = E.floor_divide(x1, x2)
    if result.is_floating_point():
        quotient = E.true_divide(x1, x2)
        one_infinite = (E.isinf(x1) & E.isfinite(x2) & (x2 != 0)) | (E.isfinite(x1) & E.isinf(x2))
        result = E.where(one_infinite, quotient, result)
    return result  # type: ignore[no-any-return]


def remainder(x1: Any, x2: Any, /) -> Array:
    """The remainder of floor division: it has x2's sign, zeros included (``remainder(-0.0, 2)``
    is +0, ``remainder(0.0, -2)`` is -0; ember's ``remainder`` keeps x1's zero).

    Example:
        >>> remainder(ember.tensor([5, -5]), 3)
        tensor([2, 1])
    """
    x1, x2 = as_operands(x1, x2, "remainder")
    result = E.remainder(x1, x2)
    if result.is_floating_point():
        result = E.where(result == 0, E.copysign(E.zeros_like(result), x2), result)
    return result  # type: ignore[no-any-return]


def signbit(x: Array, /) -> Array:
    """Whether each element's sign bit is set (true for -0.0 and negative NaNs).

    Example:
        >>> signbit(ember.tensor([-0.0, 0.0, -1.0]))
        tensor([ True, False,  True])
    """
    check_array(x, "signbit")
    if x.is_floating_point():
        return E.copysign(E.ones_like(x), x) < 0  # type: ignore[no-any-return]
    return x < 0


def nextafter(x1: Any, x2: Any, /) -> Array:
    """The next representable float after x1 in the direction of x2 (float32/float64 only).

    Steps the IEEE-754 bit pattern by one, viewed as an integer of the same width.

    Example:
        >>> nextafter(ember.tensor([1.0]), 2.0) > 1.0
        tensor([True])
    """
    x1, x2 = as_operands(x1, x2, "nextafter")
    dtype = E.result_type(x1, x2)
    if dtype not in (E.float32, E.float64):
        raise TypeError(
            f"[nextafter] expected float32 or float64 arrays, got {x1.dtype}, {x2.dtype}"
        )
    x1, x2 = E.broadcast_tensors(x1.to(dtype), x2.to(dtype))
    int_dtype = E.int32 if dtype == E.float32 else E.int64
    bits = x1.contiguous().view(int_dtype)
    # Moving away from zero adds one to the magnitude bits; towards zero subtracts one.
    away = (x2 > x1) == (x1 >= 0)
    stepped = E.where(away, bits + 1, bits - 1).view(dtype)
    tiny = E.full_like(x1, E.finfo(dtype).tiny * E.finfo(dtype).eps)  # smallest subnormal
    from_zero = E.copysign(tiny, x2 - x1)
    result = E.where(x1 == 0, from_zero, stepped)
    result = E.where(x1 == x2, x2, result)
    return E.where(E.isnan(x1) | E.isnan(x2), x1 + x2, result)  # type: ignore[no-any-return]


def clip(x: Array, /, min: Any = None, max: Any = None) -> Array:
    """x limited to ``[min, max]`` (scalars or arrays); the result keeps x's dtype.

    Example:
        >>> clip(ember.tensor([1, 5, 9]), 2, 6)
        tensor([2, 5, 6])
    """
    check_array(x, "clip")
    for bound in (min, max):
        if bound is not None and not is_scalar(bound):
            check_array(bound, "clip", "min/max")
    if min is None and max is None:
        return x.clone()  # type: ignore[no-any-return]
    result = x
    # Bounds are applied one at a time so a float bound on an int array cannot promote x.
    if min is not None:
        result = E.where(result < min, E.as_tensor(min).to(x.dtype), result)
    if max is not None:
        result = E.where(result > max, E.as_tensor(max).to(x.dtype), result)
    return result.to(x.dtype)


def conj(x: Array, /) -> Array:
    """The complex conjugate (x itself for a real dtype).

    Example:
        >>> conj(ember.tensor([1 + 2j]))
        tensor([1.-2.j])
    """
    check_array(x, "conj")
    # resolve_conj: a materialised result, not a lazily conjugated view.
    return E.conj(x).resolve_conj() if x.is_complex() else x


def real(x: Array, /) -> Array:
    """The real part: float32/float64 for complex64/complex128, x itself for a real dtype.

    Example:
        >>> real(ember.tensor([1 + 2j]))
        tensor([1.])
    """
    check_array(x, "real")
    return x.real.clone() if x.is_complex() else x


def imag(x: Array, /) -> Array:
    """The imaginary part: float32/float64 for complex64/complex128, zeros for a real dtype.

    Example:
        >>> imag(ember.tensor([1 + 2j]))
        tensor([2.])
    """
    check_array(x, "imag")
    return x.imag.clone() if x.is_complex() else E.zeros_like(x)  # type: ignore[no-any-return]
