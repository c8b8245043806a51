"""Helpers shared by the distributions: broadcasting parameters, probs <-> logits, lazy values."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

import ember
from ember._dtype import finfo
from ember._tensor import Size, Tensor

T = TypeVar("T")


def shape_of(t: Any) -> Size:
    """``t.shape`` typed as a Size (the native stubs type it as object)."""
    return t.shape


def finfo_of(dtype: Any) -> Any:
    """``ember.finfo`` of a tensor's dtype (typed as object by the native stubs)."""
    return finfo(dtype)


def as_float_tensor(value: Any, like: Tensor | None = None) -> Tensor:
    """A parameter as a float tensor: numbers take ``like``'s dtype (else the default)."""
    if isinstance(value, Tensor):
        return value if value.is_floating_point() else value.to(ember.get_default_dtype())
    dtype = like.dtype if like is not None else ember.get_default_dtype()
    return ember.tensor(float(value), dtype=dtype)


def check_tensor(value: Any, name: str, where: str) -> Tensor:
    """value itself when it is a Tensor, else the TypeError torch raises naming the argument."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{where}: {name} must be a Tensor, not {type(value).__name__}")
    return value


def check_value(value: Any, where: str) -> Tensor:
    """A log_prob/cdf/icdf value: a Tensor, or a Python number made a default-dtype tensor."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, float)):
        return ember.tensor(float(value))
    raise TypeError(f"{where}: value must be a Tensor or a number, not {type(value).__name__}")


def check_shape(value: Any, name: str, where: str) -> Size:
    """A batch/sample/event shape as a Size: a Size, tuple or list of ints (torch.Size's rule)."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"{where}: {name} must be a tuple of ints, not {type(value).__name__}")
    for v in value:
        if isinstance(v, bool) or (not isinstance(v, int) and not hasattr(v, "__index__")):
            raise TypeError(f"{where}: {name} must be a tuple of ints, got {v!r}")
    return Size(value)


def check_instance(value: Any, kind: type, name: str, where: str) -> Any:
    """value when it is a ``kind``, else a TypeError naming the argument."""
    if not isinstance(value, kind):
        raise TypeError(f"{where}: {name} must be a {kind.__name__}, not {type(value).__name__}")
    return value


# method name -> (the names of the arguments it checks, the check: (value, where) -> value)
ArgumentChecks = dict[str, tuple[tuple[str, ...], Callable[[Any, str], Any]]]


def guard_arguments(cls: type, checks: ArgumentChecks) -> None:
    """Wraps each method ``cls`` itself defines that ``checks`` names: its leading arguments (by
    position or by the given names) pass through the check first, so every subclass refuses
    junk with a TypeError naming it."""
    for method, (names, check) in checks.items():
        fn = vars(cls).get(method)
        if fn is None or getattr(fn, "_ember_guarded", False) or not callable(fn):
            continue

        def guarded(
            self: Any,
            *args: Any,
            _fn: Any = fn,
            _check: Any = check,
            _m: str = method,
            _names: tuple[str, ...] = names,
            **kw: Any,
        ) -> Any:
            where = f"{type(self).__name__}.{_m}()"
            n = min(len(args), len(_names))
            args = (*(_check(a, where) for a in args[:n]), *args[n:])
            for name in _names[n:]:
                if name in kw:
                    kw[name] = _check(kw[name], where)
            return _fn(self, *args, **kw)

        functools.update_wrapper(guarded, fn)
        guarded._ember_guarded = True  # type: ignore[attr-defined]
        setattr(cls, method, guarded)


def broadcast_all(*values: Any) -> tuple[Tensor, ...]:
    """Broadcasts tensors and numbers together (numbers take the tensors' float dtype)."""
    tensors = [v for v in values if isinstance(v, Tensor)]
    for v in values:
        if not isinstance(v, (Tensor, int, float)):
            raise ValueError(
                f"Input arguments must all be instances of numbers.Number or Tensor, got {type(v)}"
            )
    like = None
    for t in tensors:
        if t.is_floating_point():
            like = t if like is None else like
    converted = [as_float_tensor(v, like) for v in values]
    shape = ember.broadcast_shapes(*(tuple(shape_of(c)) for c in converted))
    # expand one by one: a constant next to a parameter that requires grad stays a constant.
    return tuple(c if tuple(shape_of(c)) == shape else c.expand(shape) for c in converted)


def clamp_probs(probs: Tensor) -> Tensor:
    """Probabilities kept eps away from 0 and 1 (for logs and relaxed samples)."""
    eps = finfo_of(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs: Tensor, is_binary: bool = False) -> Tensor:
    """log p (categorical) or log(p / (1 - p)) (binary), with p clamped away from 0 and 1."""
    ps = clamp_probs(probs)
    if is_binary:
        return ps.log() - (-ps).log1p()
    return ps.log()


def logits_to_probs(logits: Tensor, is_binary: bool = False) -> Tensor:
    """sigmoid(logits) (binary) or softmax over the last dim."""
    if is_binary:
        return logits.sigmoid()
    return ember.softmax(logits, -1)


class lazy_property(Generic[T]):
    """Computed on first access and cached on the instance (probs from logits and vice versa)."""

    def __init__(self, wrapped: Callable[[Any], T]) -> None:
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__
        self.name = wrapped.__name__

    @overload
    def __get__(self, instance: None, owner: Any = None) -> lazy_property[T]: ...
    @overload
    def __get__(self, instance: object, owner: Any = None) -> T: ...
    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        value = self.wrapped(instance)
        setattr(instance, self.name, value)
        return value


def sum_rightmost(value: Tensor, dim: int) -> Tensor:
    """Sums the ``dim`` rightmost dims."""
    if dim == 0:
        return value
    return value.reshape(*shape_of(value)[: value.dim() - dim], -1).sum(-1)


def extended_shape(
    sample_shape: Any, batch: tuple[int, ...], event: tuple[int, ...]
) -> tuple[int, ...]:
    return tuple(sample_shape) + tuple(batch) + tuple(event)
