"""Tensor printing with torch's format: ``tensor([1., 2.])``, summarization, sci notation.

The rules (width, int mode, scientific mode, line wrapping, suffixes) follow PyTorch's documented
output so that printed ember and torch tensors read the same.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ember_core import _C

__all__ = ["get_printoptions", "printoptions", "set_printoptions"]


class _PrintOptions:
    # A plain class, not a dataclass: `dataclasses` pulls inspect and ast into `import ember`.
    __slots__ = ("edgeitems", "linewidth", "precision", "sci_mode", "threshold")

    def __init__(self) -> None:
        self.precision: int = 4
        self.threshold: float = 1000
        self.edgeitems: int = 3
        self.linewidth: int = 80
        self.sci_mode: bool | None = None


_OPTS = _PrintOptions()
_PROFILES = {
    "default": (4, 1000.0, 3, 80),
    "short": (2, 1000.0, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(
    precision: int | None = None,
    threshold: float | None = None,
    edgeitems: int | None = None,
    linewidth: int | None = None,
    profile: str | None = None,
    sci_mode: bool | None = None,
) -> None:
    """Sets how tensors print; arguments left as None keep their value (``sci_mode`` resets).

    Args:
        precision: digits after the decimal point (default 4).
        threshold: element count above which the output is summarized with ``...`` (1000).
        edgeitems: items shown at each end of a summarized dimension (3).
        linewidth: characters per line (80).
        profile: ``"default"``, ``"short"`` or ``"full"``, applied before the other arguments.
        sci_mode: force (True) or forbid (False) scientific notation; None chooses per tensor.

    Example:
        >>> ember.set_printoptions(precision=2)
        >>> ember.tensor([1.12345])
        tensor([1.12])
        >>> ember.set_printoptions(profile="default")
    """
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(
                f"[set_printoptions] unknown profile {profile!r}; expected one of "
                f"{', '.join(_PROFILES)}"
            )
        _OPTS.precision, _OPTS.threshold, _OPTS.edgeitems, _OPTS.linewidth = _PROFILES[profile]
    if precision is not None:
        _OPTS.precision = precision
    if threshold is not None:
        _OPTS.threshold = threshold
    if edgeitems is not None:
        _OPTS.edgeitems = edgeitems
    if linewidth is not None:
        _OPTS.linewidth = linewidth
    _OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options as a dict (keys as in :func:`set_printoptions`)."""
    return {
        "precision": _OPTS.precision,
        "threshold": _OPTS.threshold,
        "edgeitems": _OPTS.edgeitems,
        "linewidth": _OPTS.linewidth,
        "sci_mode": _OPTS.sci_mode,
    }


@contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Context manager that sets print options and restores the previous ones on exit."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


# A summarized dimension holds this marker where the elided items were.
_ELIDED = object()


def _nested_values(t: Any, summarize: bool) -> Any:
    """The tensor's values as nested lists; summarized dims keep only their edge items."""
    edge = _OPTS.edgeitems
    t = t.resolve_conj()  # numpy() refuses conjugate views; print the conjugated values
    if t.dtype == _C.bfloat16 or t.dtype == _C.float16:
        t = t.float()  # exact, and numpy has no bfloat16
    if not summarize:
        return t.tolist()
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is optional
        source: Any = t.tolist()
    else:
        source = np.asarray(t.numpy())

    def cut(x: Any, ndim: int) -> Any:
        n = len(x)
        if n > 2 * edge:
            head = [x[i] for i in range(edge)]
            tail = [x[i] for i in range(n - edge, n)]
            items = [*head, _ELIDED, *tail]
        else:
            items = [x[i] for i in range(n)]
        if ndim == 1:
            return [v if v is _ELIDED else (v.item() if hasattr(v, "item") else v) for v in items]
        return [v if v is _ELIDED else cut(v, ndim - 1) for v in items]

    return cut(source, t.dim())


def _leaves(values: Any) -> Iterator[Any]:
    if isinstance(values, list):
        for v in values:
            if v is not _ELIDED:
                yield from _leaves(v)
    else:
        yield values


class _Formatter:
    """Chooses one width and notation for every element, from the values that will print."""

    def __init__(self, floating: bool, values: list[Any]) -> None:
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        precision = _OPTS.precision
        if not floating:
            for v in values:
                self.max_width = max(self.max_width, len(f"{v}"))
            return
        finite = [v for v in values if math.isfinite(v) and v != 0]
        if not finite:
            return
        magnitudes = [abs(v) for v in finite]
        lo, hi = min(magnitudes), max(magnitudes)
        self.int_mode = all(v == math.ceil(v) for v in finite)
        if _OPTS.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = _OPTS.sci_mode
        for v in finite:
            if self.sci_mode:
                width = len(f"{v:.{precision}e}")
            elif self.int_mode:
                width = len(f"{v:.0f}") + 1  # room for the trailing "."
            else:
                width = len(f"{v:.{precision}f}")
            self.max_width = max(self.max_width, width)

    def format(self, value: Any) -> str:
        precision = _OPTS.precision
        if not self.floating:
            text = f"{value}"
        elif self.sci_mode:
            text = f"{value:{self.max_width}.{precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{precision}f}"
        return " " * (self.max_width - len(text)) + text


class _ComplexFormatter:
    """torch's complex layout: the real part, then the signed imaginary part and ``j``."""

    def __init__(self, values: list[Any]) -> None:
        self.real = _Formatter(True, [v.real for v in values])
        self.imag = _Formatter(True, [v.imag for v in values])
        # torch's element length: both widths plus the sign and the "j".
        self.max_width = self.real.max_width + self.imag.max_width + 1

    def format(self, value: Any) -> str:
        imag = (self.imag.format(value.imag) + "j").lstrip()
        sign = "" if imag[0] in "+-" else "+"
        return self.real.format(value.real) + sign + imag


def _vector_str(values: list[Any], indent: int, fmt: _Formatter | _ComplexFormatter) -> str:
    per_line = max(1, math.floor((_OPTS.linewidth - indent) / (fmt.max_width + 2)))
    data = [" ..." if v is _ELIDED else fmt.format(v) for v in values]
    lines = [", ".join(data[i : i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(values: Any, ndim: int, indent: int, fmt: _Formatter | _ComplexFormatter) -> str:
    if ndim == 0:
        return fmt.format(values)
    if ndim == 1:
        return _vector_str(values, indent, fmt)
    parts = ["..." if v is _ELIDED else _nested_str(v, ndim - 1, indent + 1, fmt) for v in values]
    return "[" + ("," + "\n" * (ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _tensor_str(t: Any, indent: int) -> str:
    if t.numel() == 0:
        return "[]"
    summarize = t.numel() > _OPTS.threshold
    if summarize and _OPTS.edgeitems == 0 and t.dim() > 0:
        return "[...]"  # no element kept at all
    values = _nested_values(t, summarize)
    leaves = [values] if t.dim() == 0 else list(_leaves(values))
    fmt: _Formatter | _ComplexFormatter
    if t.dtype.is_complex:
        fmt = _ComplexFormatter(leaves)
    else:
        fmt = _Formatter(bool(t.dtype.is_floating_point), leaves)
    return _nested_str(values, t.dim(), indent, fmt)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > _OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t: Any, plain: bool) -> str:
    """``repr(t)``: ``tensor(...)`` for ember.Tensor, ``ClassName(...)`` for subclasses."""
    # Formatting reads the values with ops that must not be recorded by autograd.
    previous = _C.is_grad_enabled()
    _C._set_grad_enabled(False)
    try:
        return _tensor_repr(t, plain)
    finally:
        _C._set_grad_enabled(previous)


def _tensor_repr(t: Any, plain: bool) -> str:
    prefix = "tensor(" if plain else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes: list[str] = []
    dtype = t.dtype
    default = _C.get_default_dtype()
    # The default complex dtype follows the default float dtype and prints no suffix either.
    default_complex = _C.complex128 if default == _C.float64 else _C.complex64
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append(f"size={tuple(t.shape)}")
        if dtype != default:
            suffixes.append(f"dtype={dtype!r}")
        body = "[]"
    else:
        if _OPTS.edgeitems == 0:
            suffixes.append(f"size={tuple(t.shape)}")
        if dtype not in (default, default_complex, _C.int64, _C.bool):
            suffixes.append(f"dtype={dtype!r}")
        body = _tensor_str(t, indent)
    # Autograd state, as torch prints it (grad_fn exists only with ember-autograd installed).
    grad_fn = getattr(t, "grad_fn", None)
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn.name()}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
