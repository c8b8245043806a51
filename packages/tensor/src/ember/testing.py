"""``ember.testing``: ``assert_close`` with torch's tolerances and messages, and ``make_tensor``."""

from __future__ import annotations

import cmath
import contextlib
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ember._dtype import finfo, iinfo
from ember_core import _C

__all__ = ["assert_close", "make_tensor"]

# (rtol, atol) per dtype, as torch.testing; other dtypes compare exactly.
_TOLERANCES: dict[Any, tuple[float, float]] = {
    _C.float16: (1e-3, 1e-5),
    _C.bfloat16: (1.6e-2, 1e-5),
    _C.float32: (1.3e-6, 1e-5),
    _C.float64: (1e-7, 1e-7),
}
_NUMBER_DTYPES = {int: _C.int64, float: _C.float64, complex: _C.float64}


class _Failure(Exception):
    """A mismatch found while comparing: the exception type to raise, its message, the path."""

    def __init__(self, kind: type[Exception], message: str, path: tuple[Any, ...] = ()) -> None:
        super().__init__(message)
        self.kind, self.message, self.path = kind, message, path

    def to_error(self, msg: str | Callable[[str], str] | None) -> Exception:
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.message
        if self.path:
            text += "\n\nThe failure occurred for item " + "".join(f"[{p!r}]" for p in self.path)
        return self.kind(msg(text) if callable(msg) else text)


def _tolerances(
    dtypes: Sequence[Any], rtol: float | None, atol: float | None
) -> tuple[float, float]:
    if (rtol is None) != (atol is None):
        missing = "rtol" if rtol is None else "atol"
        raise _Failure(
            ValueError,
            f"Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}.",
        )
    if rtol is not None and atol is not None:
        return rtol, atol
    pairs = [_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _mismatch(
    kind: str,
    extra: str,
    abs_diff: Any,
    rel_diff: Any,
    rtol: float,
    atol: float,
    abs_index: Any = None,
    rel_index: Any = None,
) -> str:
    equality = rtol == 0 and atol == 0
    lines = [f"{kind} are not {'equal' if equality else 'close'}!", "", extra]
    for name, diff, index, tol in (
        ("absolute", abs_diff, abs_index, atol),
        ("relative", rel_diff, rel_index, rtol),
    ):
        line = (
            f"{name.title()} difference: {diff}"
            if index is None
            else f"Greatest {name} difference: {diff} at index {index}"
        )
        lines.append(line if equality else f"{line} (up to {tol} allowed)")
    return "\n".join(lines).strip()


def _numpy_types() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """numpy's (bool, number) scalar types when numpy is already imported, else empty."""
    np = sys.modules.get("numpy")
    return ((np.bool_,), (np.number,)) if np is not None else ((), ())


def _compare_numbers(actual: Any, expected: Any, options: dict[str, Any]) -> None:
    actual, expected = (
        x.item() if not isinstance(x, (int, float, complex)) else x for x in (actual, expected)
    )
    if options["check_dtype"] and type(actual) is not type(expected):
        raise _Failure(
            AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}."
        )
    dtypes = [_NUMBER_DTYPES[type(x)] for x in (actual, expected)]
    rtol, atol = _tolerances(dtypes, options["rtol"], options["atol"])
    if actual == expected:
        return
    if options["equal_nan"] and cmath.isnan(actual) and cmath.isnan(expected):
        return
    abs_diff = abs(actual - expected)
    if cmath.isfinite(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    rel_diff = math.inf if expected == 0 else abs_diff / abs(expected)
    raise _Failure(
        AssertionError,
        _mismatch(
            "Scalars", f"Expected {expected} but got {actual}.", abs_diff, rel_diff, rtol, atol
        ),
    )


def _unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    index = []
    for size in reversed(shape):
        flat, rest = divmod(flat, size)
        index.append(rest)
    return tuple(reversed(index))


def _compare_tensors(actual: Any, expected: Any, options: dict[str, Any]) -> None:
    def attribute(name: str, a: Any, e: Any) -> None:
        raise _Failure(
            AssertionError, f"The values for attribute '{name}' do not match: {a} != {e}."
        )

    if actual.shape != expected.shape:
        attribute("shape", actual.shape, expected.shape)
    if options["check_stride"] and actual.stride() != expected.stride():
        attribute("stride()", actual.stride(), expected.stride())
    if options["check_dtype"] and actual.dtype != expected.dtype:
        attribute("dtype", actual.dtype, expected.dtype)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], options["rtol"], options["atol"])
    if actual.dtype != expected.dtype:
        common = _C.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual._to_dtype(common), expected._to_dtype(common)
    matches: Any = _C.isclose(
        actual, expected, rtol=rtol, atol=atol, equal_nan=options["equal_nan"]
    )
    if bool(matches.all()):
        return
    if actual.dim() == 0:
        _scalar_mismatch(actual.item(), expected.item(), rtol, atol)
    total = matches.numel()
    mismatched = total - int(matches.sum().item())
    extra = f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"
    a, e, ok = actual.flatten(), expected.flatten(), matches.flatten()
    if not a.is_floating_point():
        a, e = a._to_dtype(_C.int64), e._to_dtype(_C.int64)
    abs_diff = (a - e).abs().masked_fill(ok, 0)
    abs_max, abs_at = abs_diff.max(0)
    rel_diff = (abs_diff / e.abs()).masked_fill(ok, 0)
    rel_max, rel_at = rel_diff.max(0)
    shape = tuple(actual.shape)
    raise _Failure(
        AssertionError,
        _mismatch(
            "Tensor-likes",
            extra,
            abs_max.item(),
            rel_max.item(),
            rtol,
            atol,
            _unravel(int(abs_at), shape),
            _unravel(int(rel_at), shape),
        ),
    )


def _scalar_mismatch(actual: Any, expected: Any, rtol: float, atol: float) -> None:
    """The message of a 0-d mismatch: torch reports 0-d tensors like scalars."""
    abs_diff = abs(actual - expected)
    rel_diff = math.inf if expected == 0 else abs_diff / abs(expected)
    raise _Failure(
        AssertionError,
        _mismatch(
            "Scalars", f"Expected {expected} but got {actual}.", abs_diff, rel_diff, rtol, atol
        ),
    )


def _compare_leaves(actual: Any, expected: Any, options: dict[str, Any]) -> None:
    np_bools, np_numbers = _numpy_types()
    if actual is None or expected is None:
        if actual is not expected:
            raise _Failure(AssertionError, f"None mismatch: {actual} is not {expected}")
        return
    bools = (bool, *np_bools)
    if isinstance(actual, bools) and isinstance(expected, bools):
        if bool(actual) is not bool(expected):
            raise _Failure(
                AssertionError, f"Booleans mismatch: {bool(actual)} is not {bool(expected)}"
            )
        return
    numbers = (int, float, complex, *np_numbers)
    if isinstance(actual, numbers) and isinstance(expected, numbers):
        _compare_numbers(actual, expected, options)
        return
    related = isinstance(actual, type(expected)) or isinstance(expected, type(actual))
    if related and (options["allow_subclasses"] or type(actual) is type(expected)):
        try:
            a, e = (
                x if isinstance(x, _C.TensorBase) else _C.as_tensor(x) for x in (actual, expected)
            )
        except (TypeError, ValueError, RuntimeError):
            pass
        else:
            _compare_tensors(a, e, options)
            return
    raise _Failure(
        TypeError,
        f"No comparison pair was able to handle inputs of type "
        f"{type(actual)} and {type(expected)}.",
    )


def _pairs(
    actual: Any, expected: Any, path: tuple[Any, ...]
) -> list[tuple[Any, Any, tuple[Any, ...]]]:
    """The leaves to compare, after checking that nested sequences and mappings match."""
    if (
        isinstance(actual, Sequence)
        and not isinstance(actual, str)
        and isinstance(expected, Sequence)
        and not isinstance(expected, str)
    ):
        if len(actual) != len(expected):
            raise _Failure(
                AssertionError,
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}",
                path,
            )
        return [p for i in range(len(actual)) for p in _pairs(actual[i], expected[i], (*path, i))]
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if set(actual) != set(expected):
            missing, extra = set(expected) - set(actual), set(actual) - set(expected)
            raise _Failure(
                AssertionError,
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {sorted(missing, key=repr)}\n"
                f"Additional keys in the actual mapping: {sorted(extra, key=repr)}",
                path,
            )
        keys: list[Any] = list(actual)
        with contextlib.suppress(TypeError):
            keys = sorted(keys)
        return [p for k in keys for p in _pairs(actual[k], expected[k], (*path, k))]
    return [(actual, expected, path)]


def assert_close(
    actual: Any,
    expected: Any,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg: str | Callable[[str], str] | None = None,
) -> None:
    """Asserts that ``actual`` and ``expected`` are close, like ``torch.testing.assert_close``.

    Tensors (and numpy arrays, via ``ember.as_tensor``) must match in shape and, by default,
    dtype; values are close when ``|actual - expected| <= atol + rtol * |expected|`` (NaN equal
    only with ``equal_nan``). Without ``rtol``/``atol`` the dtype's defaults apply (float16:
    1e-3/1e-5, bfloat16: 1.6e-2/1e-5, float32: 1.3e-6/1e-5, float64: 1e-7/1e-7, others exact).
    Python numbers, bools and None compare as scalars; sequences and mappings compare item by
    item. ``check_device`` and ``check_layout`` always hold: ember tensors are strided, on the CPU.

    Raises:
        AssertionError: the inputs differ; the message counts the mismatched elements and gives
            the greatest absolute and relative differences with their index.
        ValueError: only one of ``rtol`` and ``atol`` was given.
        TypeError: the inputs cannot be compared.

    Example:
        >>> ember.testing.assert_close(ember.tensor([1.0, 2.0]), ember.tensor([1.0, 2.0 + 1e-7]))
    """
    __tracebackhide__ = True
    options = {
        "allow_subclasses": allow_subclasses,
        "rtol": rtol,
        "atol": atol,
        "equal_nan": equal_nan,
        "check_dtype": check_dtype,
        "check_stride": check_stride,
    }
    try:
        leaves = _pairs(actual, expected, ())
    except _Failure as failure:
        raise failure.to_error(msg) from None
    for a, e, path in leaves:
        try:
            _compare_leaves(a, e, options)
        except _Failure as failure:
            failure.path = path
            raise failure.to_error(msg) from None


def make_tensor(
    *shape: Any,
    dtype: Any,
    device: Any = None,
    low: float | None = None,
    high: float | None = None,
    requires_grad: bool = False,
    noncontiguous: bool = False,
    exclude_zero: bool = False,
) -> Any:
    """A tensor of random values in ``[low, high)``, like ``torch.testing.make_tensor``.

    Defaults: floats in [-9, 9), integers in [-9, 10) clamped to the dtype (uint8 from 0), bools
    at random. ``noncontiguous`` returns a strided view; ``exclude_zero`` replaces zeros with the
    smallest positive value (1 for integers).

    Example:
        >>> ember.testing.make_tensor(2, 3, dtype=ember.float32, low=0, high=1).shape
        ember.Size([2, 3])
    """
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    if low is not None and high is not None and low > high:
        raise ValueError(f"[make_tensor] low ({low}) must not exceed high ({high})")
    size = list(shape)
    if noncontiguous and size and size[-1] > 0:
        size[-1] *= 2
    result: Any
    if dtype == _C.bool:
        bits: Any = _C.randint(0, 2, size, device=device, requires_grad=requires_grad)
        result = bits._to_dtype(dtype)
    elif dtype in _TOLERANCES:  # the floating dtypes
        lo, hi = -9.0 if low is None else low, 9.0 if high is None else high
        uniform: Any = _C.rand(*size, dtype=_C.float64, device=device, requires_grad=requires_grad)
        result = (uniform * (hi - lo) + lo)._to_dtype(dtype)
    else:
        info = iinfo(dtype)
        smallest = 0 if dtype == _C.uint8 else -9
        lo = int(smallest if low is None else math.ceil(low))
        hi = int(10 if high is None else math.ceil(high))
        lo, hi = max(lo, info.min), min(hi, info.max + 1)
        result = _C.randint(
            lo, max(hi, lo + 1), size, dtype=dtype, device=device, requires_grad=requires_grad
        )
    if exclude_zero:
        replacement = 1 if not result.is_floating_point() else float(finfo(dtype).tiny)
        result = result.masked_fill(result == 0, replacement)
    if noncontiguous and size and size[-1] > 0:
        result = result[..., ::2]
    return result
