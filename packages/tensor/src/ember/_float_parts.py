"""Elementwise functions on the parts of floating-point numbers that torch has beside its native
ops: ``logit`` (the definition of ``ember.special.logit``), ``ldexp`` and ``frexp``, composed from
ember's native ops so that autograd records the ops they call."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ember import special
from ember._grad_mode import no_grad
from ember._linalg_helpers import N, check_tensor
from ember._linalg_helpers import out as write_out
from ember_core import _C

if TYPE_CHECKING:
    from ember._tensor import Tensor

__all__ = ["frexp", "ldexp", "logit"]

# dtype -> (integer dtype of the same width, mantissa bits, exponent bias).
_LAYOUT: dict[Any, tuple[Any, int, int]] = {
    _C.float16: (_C.int16, 10, 15),
    _C.bfloat16: (_C.int16, 7, 127),
    _C.float32: (_C.int32, 23, 127),
    _C.float64: (_C.int64, 52, 1023),
}


class frexp_return(NamedTuple):
    """What :func:`ember.frexp` returns: ``mantissa`` and its ``exponent`` (int32)."""

    mantissa: Tensor
    exponent: Tensor


# Named and placed as torch.return_types.frexp is, beside the native ops' named tuples.
frexp_return.__name__ = frexp_return.__qualname__ = "frexp"
frexp_return.__module__ = N.return_types.__name__
N.return_types.frexp = frexp_return


def _check_eps(eps: object, op: str) -> float | None:
    if eps is None:
        return None
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"[{op}] argument 'eps' must be float, not {type(eps).__name__}")
    return float(eps)


def logit(input: Tensor, eps: float | None = None, *, out: Tensor | None = None) -> Tensor:
    """log(p / (1 - p)), with p clamped to [eps, 1 - eps] first when ``eps`` is given.

    The same function as :func:`ember.special.logit`; integer inputs give the default dtype.

    Example:
        >>> ember.logit(ember.tensor([0.5, 0.75])).tolist()
        [0.0, 1.0986123085021973]
    """
    check_tensor(input, "logit", "input")
    return special.logit(input, _check_eps(eps, "logit"), out=out)


def logit_(self: Tensor, eps: float | None = None) -> Tensor:
    """In-place :func:`ember.logit` (floating tensors only, as torch)."""
    x: Any = check_tensor(self, "logit_", "self")
    if not x.is_floating_point():
        raise RuntimeError(
            f"[logit_] result type {N.get_default_dtype()} can't be cast to the desired output "
            f"type {x.dtype}"
        )
    return cast("Tensor", x.copy_(special.logit(_saved(x), _check_eps(eps, "logit_"))))


def _saved(x: Any) -> Any:
    """x, or a copy of it when autograd may save it: the in-place write must not touch it."""
    return x.clone() if x.requires_grad else x


def _ldexp_operands(input: object, other: object, op: str) -> tuple[Any, Any]:
    x: Any = check_tensor(input, op, "input")
    e: Any = check_tensor(other, op, "other")
    if x.is_complex() or e.is_complex():
        raise NotImplementedError(f"[{op}] complex tensors are not supported")
    try:
        N.broadcast_shapes(x.shape, e.shape)
    except RuntimeError:
        raise RuntimeError(
            f"[{op}] shapes {list(x.shape)} and {list(e.shape)} are not broadcastable"
        ) from None
    return x, e


def ldexp(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``input * 2 ** other`` (a float result, as torch's: integer inputs promote).

    Example:
        >>> ember.ldexp(ember.tensor([1.0, 3.0]), ember.tensor([3, -1])).tolist()
        [8.0, 1.5]
    """
    x, e = _ldexp_operands(input, other, "ldexp")
    result = _ldexp(x, e, _ldexp_dtype(x, e))
    return cast("Tensor", result if out is None else N.positive(result, out=out))


def _ldexp(x: Any, e: Any, dtype: Any) -> Any:
    """x * 2**e in ``dtype``: exact (one rounding) for integer exponents, as torch's kernel."""
    if e.is_floating_point():
        return (x * N.pow(2.0, e)).to(dtype)  # torch's float-exponent definition, overflow included
    wide = x.to(N.float64)
    if dtype != N.float64:
        # Products of a narrower float and 2**e (|e| <= 1100 decides every such result) are exact
        # in float64: the one rounding is the cast. Two factors keep each 2**k a normal double.
        clamped = e.clamp(-1100, 1100).to(N.int64)
        half = N.div(clamped, 2, rounding_mode="floor")
        scaled = wide * _power_of_two(half, N.float64) * _power_of_two(clamped - half, N.float64)
        return scaled.to(dtype)
    # float64: 2**e itself can overflow while x * 2**e does not, so scale by three exact thirds.
    clamped = e.clamp(-2200, 2200).to(N.int64)
    third = N.div(clamped, 3, rounding_mode="trunc")
    last = _power_of_two(clamped - 2 * third, N.float64)
    step = _power_of_two(third, N.float64)
    return wide * step * step * last


def _ldexp_dtype(x: Any, e: Any) -> Any:
    """torch's result dtype: the operands' promoted dtype, the default float for integers."""
    dtype = N.result_type(x, e)
    return dtype if dtype.is_floating_point else N.get_default_dtype()


def ldexp_(self: Tensor, other: Tensor) -> Tensor:
    """In-place :func:`ember.ldexp` (``self`` must hold the float result's dtype)."""
    x, e = _ldexp_operands(self, other, "ldexp_")
    if not x.is_floating_point():
        raise RuntimeError(
            f"[ldexp_] result type {_ldexp_dtype(x, e)} can't be cast to the desired output "
            f"type {x.dtype}"
        )
    return cast("Tensor", x.copy_(_ldexp(_saved(x), e, x.dtype)))


def _power_of_two(n: Any, dtype: Any) -> Any:
    """2**n (n an integer tensor within the normal exponent range) built exactly from its bits."""
    bits_dtype, mantissa_bits, bias = _LAYOUT[dtype]
    return ((n.to(bits_dtype) + bias) << mantissa_bits).view(dtype)


def frexp(input: Tensor, *, out: tuple[Tensor, Tensor] | None = None) -> frexp_return:
    """Splits ``input`` into ``mantissa * 2 ** exponent`` with |mantissa| in [0.5, 1).

    Zeros, infinities and NaN keep their value as the mantissa with exponent 0; the exponent is
    int32, and the mantissa has the input's gradient divided by 2 ** exponent.

    Example:
        >>> m, e = ember.frexp(ember.tensor([8.0, -3.0, 0.0]))
        >>> m.tolist(), e.tolist()
        ([0.5, -0.75, 0.0], [4, 2, 0])
    """
    op = "frexp"
    x: Any = check_tensor(input, op, "input")
    if x.dtype not in _LAYOUT:
        raise RuntimeError(f"[{op}] torch.frexp() only supports floating-point dtypes")
    if out is not None:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError(f"[{op}] argument 'out' must be a tuple of 2 tensors")
        if getattr(out[1], "dtype", None) != _C.int32:
            raise RuntimeError(
                f"[{op}] torch.frexp() expects exponent to have int dtype but got "
                f"{getattr(out[1], 'dtype', type(out[1]).__name__)}"
            )
    bits_dtype, mantissa_bits, bias = _LAYOUT[x.dtype]
    with no_grad():
        # Subnormals are first scaled into the normal range so their exponent field is exact.
        shift = mantissa_bits + 1
        tiny = _power_of_two(N.full((), 1 - bias, dtype=_C.int32), x.dtype).item()
        magnitude = x.abs()
        subnormal = (magnitude < tiny) & (magnitude > 0)
        normal = N.where(subnormal, x * float(2**shift), x)
        field = (normal.view(bits_dtype) >> mantissa_bits) & (2 * bias + 1)
        exponent = field.to(_C.int32) - (bias - 1) - subnormal.to(_C.int32) * shift
        exponent = N.where(x.isfinite() & (x != 0), exponent, 0).to(_C.int32)
        # Two exact power-of-two factors: 2**-exponent alone can overflow (subnormal inputs).
        half = N.div(-exponent, 2, rounding_mode="floor")
        first = _power_of_two(half, x.dtype)
        second = _power_of_two(-exponent - half, x.dtype)
    mantissa = x * first * second
    return cast(frexp_return, write_out(frexp_return(mantissa, exponent), out, op))
