"""``ember.special``: torch.special's functions.

Functions with a native kernel call it (``ember.erf``, ``ember.i0``, ``ember._C._special_erfcx``,
...); the others are exact compositions of native ops (``ndtr``, ``log_ndtr``, ``xlog1py``,
``entr``, ``multigammaln``, ``logit``), so their gradients come from the ops they are made of.
Integer and bool inputs promote to the default float dtype, as in torch.

Example:
    >>> import ember
    >>> ember.special.expit(ember.tensor([0.0]))
    tensor([0.5000])
"""

from __future__ import annotations

import math
from typing import Any

import ember
import ember_core._C
from ember._grad_mode import no_grad
from ember._tensor import Tensor

__all__ = [
    "bessel_j0",
    "bessel_j1",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
    "zeta",
]

_C: Any = ember_core._C
_SQRT1_2 = 1 / math.sqrt(2)


def _check(name: str, x: Any, arg: str = "input") -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(
            f"special.{name}(): argument '{arg}' must be Tensor, not {type(x).__name__}"
        )
    return x


def _floating(name: str, x: Any) -> Tensor:
    """The input as a float tensor: integers and bools promote to the default dtype."""
    t = _check(name, x)
    if t.is_floating_point() or t.is_complex():
        return t
    return t.to(ember.get_default_dtype())


def _finish(result: Tensor, out: Tensor | None) -> Tensor:
    """Writes a composite's result into ``out=`` (resized as torch resizes outputs)."""
    if out is None:
        return result
    # The native out= path resizes `out` and checks its dtype as every op does.
    return ember.positive(result, out=out)


# ---------------------------------------------------------------- native ops under torch's names
def expit(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The logistic sigmoid 1 / (1 + e^-x).

    Example:
        >>> ember.special.expit(ember.tensor([0.0])).tolist()
        [0.5]
    """
    return ember.sigmoid(_check("expit", input), out=out)


def erf(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The error function (``ember.erf``)."""
    return ember.erf(_check("erf", input), out=out)


def erfc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The complementary error function 1 - erf(x), accurate in the tail."""
    return ember.erfc(_check("erfc", input), out=out)


def erfinv(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The inverse error function on [-1, 1]."""
    return ember.erfinv(_check("erfinv", input), out=out)


def erfcx(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The scaled complementary error function e^{x^2} erfc(x), finite where erfc underflows.

    Example:
        >>> round(ember.special.erfcx(ember.tensor([30.0])).item(), 6)
        0.018795
    """
    return _C._special_erfcx(_check("erfcx", input), out=out)  # type: ignore[no-any-return]


def ndtri(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The standard normal quantile: the x with Phi(x) = p (NaN outside [0, 1]).

    Example:
        >>> ember.special.ndtri(ember.tensor([0.5])).tolist()
        [0.0]
    """
    return _C._special_ndtri(_check("ndtri", input), out=out)  # type: ignore[no-any-return]


def i0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 0."""
    return ember.i0(_check("i0", input), out=out)


def i0e(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The exponentially scaled I0: e^{-|x|} I0(x)."""
    return _C._special_i0e(_check("i0e", input), out=out)  # type: ignore[no-any-return]


def i1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The modified Bessel function of the first kind, order 1."""
    return _C._special_i1(_check("i1", input), out=out)  # type: ignore[no-any-return]


def i1e(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The exponentially scaled I1: e^{-|x|} I1(x)."""
    return _C._special_i1e(_check("i1e", input), out=out)  # type: ignore[no-any-return]


def modified_bessel_i0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """I0 under its long name (torch.special.modified_bessel_i0)."""
    return ember.i0(_check("modified_bessel_i0", input), out=out)


def modified_bessel_i1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """I1 under its long name (torch.special.modified_bessel_i1)."""
    return _C._special_i1(_check("modified_bessel_i1", input), out=out)  # type: ignore[no-any-return]


def bessel_j0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The Bessel function of the first kind, order 0 (not differentiable, as in torch)."""
    return _C._special_bessel_j0(_check("bessel_j0", input), out=out)  # type: ignore[no-any-return]


def bessel_j1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The Bessel function of the first kind, order 1 (not differentiable, as in torch)."""
    return _C._special_bessel_j1(_check("bessel_j1", input), out=out)  # type: ignore[no-any-return]


def zeta(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """The Hurwitz zeta function sum_k (k + other)^-input (one argument may be a number).

    Example:
        >>> round(ember.special.zeta(ember.tensor([2.0]), 1.0).item(), 6)
        1.644934
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special.zeta(): at least one of 'input' and 'other' must be a Tensor")
    return _C._special_zeta(input, other, out=out)  # type: ignore[no-any-return]


def gammaln(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """log |Gamma(x)|."""
    return ember.lgamma(_check("gammaln", input), out=out)


def digamma(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The logarithmic derivative of Gamma."""
    return ember.digamma(_check("digamma", input), out=out)


psi = digamma


def polygamma(n: int, input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The n-th derivative of digamma."""
    return ember.polygamma(n, _check("polygamma", input), out=out)


def sinc(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The normalized sinc sin(pi x) / (pi x)."""
    return ember.sinc(_check("sinc", input), out=out)


def round(input: Tensor, *, decimals: int = 0, out: Tensor | None = None) -> Tensor:
    """Rounds half to even, to ``decimals`` places."""
    return ember.round(_check("round", input), decimals=decimals, out=out)


def expm1(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """e^x - 1, accurate near 0."""
    return ember.expm1(_check("expm1", input), out=out)


def exp2(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """2^x."""
    return ember.exp2(_check("exp2", input), out=out)


def log1p(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """log(1 + x), accurate near 0."""
    return ember.log1p(_check("log1p", input), out=out)


def softmax(input: Tensor, dim: int, *, dtype: ember.dtype | None = None) -> Tensor:
    """Softmax along ``dim`` (computed in ``dtype`` when given)."""
    return ember.softmax(_check("softmax", input), dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, *, dtype: ember.dtype | None = None) -> Tensor:
    """Log-softmax along ``dim`` (computed in ``dtype`` when given)."""
    return ember.log_softmax(_check("log_softmax", input), dim, dtype=dtype)


def logsumexp(
    input: Tensor, dim: int | tuple[int, ...], keepdim: bool = False, *, out: Tensor | None = None
) -> Tensor:
    """log(sum(exp(x))) along ``dim``, without overflow."""
    return ember.logsumexp(_check("logsumexp", input), dim, keepdim, out=out)


def xlogy(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """x * log(y), with 0 where x == 0 (unless y is NaN)."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special.xlogy(): at least one of 'input' and 'other' must be a Tensor")
    return ember.xlogy(input, other, out=out)


# ---------------------------------------------------------------- compositions of native ops
def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] first when ``eps`` is given.

    Example:
        >>> ember.special.logit(ember.tensor([0.5])).tolist()
        [0.0]
    """
    p = _floating("logit", input)
    if eps is not None:
        p = p.clamp(eps, 1 - eps)
    # Near 1/2, log(p / (1 - p)) cancels; 2 atanh(u) = log1p(u) - log1p(-u), u = 2p - 1 exact,
    # is the same value (log1p is vectorized, atanh is ~100x slower).
    central = (p - 0.5).abs() < 0.25
    u = 2 * p.clamp(0.25, 0.75) - 1
    near_half = u.log1p() - (-u).log1p()
    return _finish(ember.where(central, near_half, (p / (1 - p)).log()), out)


def ndtr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The standard normal CDF Phi(x) = erfc(-x / sqrt 2) / 2, accurate in the lower tail.

    Example:
        >>> ember.special.ndtr(ember.tensor([0.0])).tolist()
        [0.5]
    """
    x = _floating("ndtr", input)
    return _finish(0.5 * ember.erfc(-x * _SQRT1_2), out)


def log_ndtr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """log Phi(x), finite far into the lower tail (log_ndtr(-40) = -804.6...).

    Below -1 it is log(erfcx(-x / sqrt 2) / 2) - x^2 / 2 (no underflow), above it
    log1p(-erfc(x / sqrt 2) / 2) (no cancellation near 0 for large x). Each branch gets inputs
    clamped to its own side so the unused one stays finite and its gradient zero.

    Example:
        >>> round(ember.special.log_ndtr(ember.tensor([-40.0], dtype=ember.float64)).item(), 4)
        -804.6084
    """
    x = _floating("log_ndtr", input)
    low = x.clamp(max=-1.0)
    high = x.clamp(min=-1.0)
    lower = (0.5 * _C._special_erfcx(-low * _SQRT1_2)).log() - 0.5 * low * low
    upper = (-0.5 * ember.erfc(high * _SQRT1_2)).log1p()
    return _finish(ember.where(x < -1, lower, upper), out)


def xlog1py(input: Tensor | float, other: Tensor | float, *, out: Tensor | None = None) -> Tensor:
    """x * log1p(y), with 0 where x == 0 (unless y is NaN).

    Example:
        >>> ember.special.xlog1py(ember.tensor([0.0]), ember.tensor([-1.0])).tolist()
        [0.0]
    """
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("special.xlog1py(): at least one of 'input' and 'other' must be a Tensor")
    x = input if isinstance(input, Tensor) else ember.tensor(input)
    y = other if isinstance(other, Tensor) else ember.tensor(other)
    if not (x.is_floating_point() or y.is_floating_point()):
        x = x.to(ember.get_default_dtype())
    product = x * y.log1p()
    zero = (x == 0) & ~y.isnan()
    return _finish(ember.where(zero, ember.zeros_like(product), product), out)


def entr(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The elementwise entropy -x log x: 0 at 0, -inf for x < 0.

    Example:
        >>> ember.special.entr(ember.tensor([0.0, 1.0])).tolist()
        [0.0, -0.0]
    """
    x = _floating("entr", input)
    positive = ember.xlogy(-x, x.clamp(min=0.0))  # xlogy(-0, 0) is +0, as torch's entr(0)
    minus_inf = ember.full_like(x, -math.inf)
    return _finish(ember.where(x < 0, minus_inf, positive), out)


def multigammaln(input: Tensor, p: int, *, out: Tensor | None = None) -> Tensor:
    """The multivariate log-gamma log Gamma_p(a) = p(p-1)/4 log(pi) + sum_i lgamma(a - i/2).

    Example:
        >>> round(ember.special.multigammaln(ember.tensor([2.5]), 1).item(), 6)
        0.284683
    """
    a = _floating("multigammaln", input)
    if isinstance(p, bool) or not isinstance(p, int):
        raise TypeError(f"special.multigammaln(): argument 'p' must be int, not {type(p).__name__}")
    if p < 1:
        raise RuntimeError(f"[multigammaln] p has to be greater than or equal to 1, got {p}")
    offsets = ember.arange(p, dtype=a.dtype) * -0.5
    total = (a.unsqueeze(-1) + offsets).lgamma().sum(-1)
    return _finish(total + p * (p - 1) / 4 * math.log(math.pi), out)


def spherical_bessel_j0(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """sin(x) / x (1 at 0)."""
    x = _floating("spherical_bessel_j0", input)
    safe = ember.where(x == 0, ember.ones_like(x), x)
    return _finish(ember.where(x == 0, ember.ones_like(x), safe.sin() / safe), out)


# Iterations of the series / continued fraction: enough for alpha up to ~1e4 to double precision.
_ITERATIONS = 400


def _log_prefactor(a: Tensor, x: Tensor) -> Tensor:
    """log(x^a e^-x / Gamma(a)) (x > 0)."""
    return a * x.log() - x - a.lgamma()


def _series_p(a: Tensor, x: Tensor) -> Tensor:
    """P(a, x) = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n)), for x < a + 1."""
    term = ember.ones_like(x)
    total = ember.ones_like(x)
    denom = a.clone()
    for i in range(_ITERATIONS):
        denom = denom + 1
        term = term * x / denom
        total = total + term
        if i % 16 == 15 and bool((term <= 1e-17 * total).all()):
            break  # every element has converged: stop early (checked in blocks: one sync each)
    return (_log_prefactor(a, x) - a.log()).exp() * total


def _continued_fraction_q(a: Tensor, x: Tensor) -> Tensor:
    """Q(a, x) by the modified Lentz method on the Legendre continued fraction (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = ember.full_like(x, 1 / tiny)
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = ember.where(d.abs() < tiny, ember.full_like(d, tiny), d)
        c = b + an / c
        c = ember.where(c.abs() < tiny, ember.full_like(c, tiny), c)
        d = 1 / d
        step = d * c
        h = h * step
        if i % 16 == 0 and bool(((step - 1).abs() <= 1e-16).all()):
            break
    return _log_prefactor(a, x).exp() * h


def _regularized_gamma(a: Tensor, x: Tensor) -> tuple[Tensor, Tensor]:
    """(P(a, x), Q(a, x)) for float64 tensors of one shape, each without cancellation."""
    lower = x < a + 1
    xs = ember.minimum(x, a + 1).clamp(min=1e-300)
    xc = ember.maximum(x, a + 1)
    p_series = _series_p(a, xs)
    q_cf = _continued_fraction_q(a, xc)
    p = ember.where(lower, p_series, 1 - q_cf)
    q = ember.where(lower, 1 - p_series, q_cf)
    zero = x <= 0
    p = ember.where(zero, ember.zeros_like(p), p)
    q = ember.where(zero, ember.ones_like(q), q)
    return p, q


def _gamma_pair(name: str, input: Any, other: Any) -> tuple[Tensor, Tensor]:
    a = _floating(name, input)
    x = _floating(name, other)
    dtype = ember.promote_types(a.dtype, x.dtype)
    with no_grad():
        a64, x64 = ember.broadcast_tensors(a.detach().double(), x.detach().double())
        p, q = _regularized_gamma(a64, x64)
    nan = ember.isnan(a64) | ember.isnan(x64) | (a64 < 0) | (x64 < 0)
    p = ember.where(nan, ember.full_like(p, math.nan), p)
    q = ember.where(nan, ember.full_like(q, math.nan), q)
    return p.to(dtype), q.to(dtype)


def gammainc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized lower incomplete gamma function P(input, other) (not differentiable).

    Example:
        >>> round(ember.special.gammainc(ember.tensor([1.0]), ember.tensor([1.0])).item(), 6)
        0.632121
    """
    return _finish(_gamma_pair("gammainc", input, other)[0], out)


def gammaincc(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The regularized upper incomplete gamma function Q = 1 - P, without cancellation.

    Example:
        >>> round(ember.special.gammaincc(ember.tensor([1.0]), ember.tensor([1.0])).item(), 6)
        0.367879
    """
    return _finish(_gamma_pair("gammaincc", input, other)[1], out)
