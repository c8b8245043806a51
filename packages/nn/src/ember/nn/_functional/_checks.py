"""Argument type checks shared by ``ember.nn.functional``, the layers and ``ember.optim``.

One check per public entry point, before any attribute of an argument is read, so a wrong type
is torch's ``TypeError`` naming the function and the argument (``linear(): argument 'input'
must be Tensor, not str``) instead of an ``AttributeError`` from deep inside.
"""

from __future__ import annotations

from typing import Any

from ember._tensor import Tensor


def _where(where: object) -> str:
    # A layer passes itself (its name is only formatted when a check fails): "Linear.forward".
    return where if isinstance(where, str) else f"{type(where).__name__}.forward"


def _refuse(where: object, name: str, value: object, what: str) -> TypeError:
    return TypeError(
        f"{_where(where)}(): argument '{name}' must be {what}, not {type(value).__name__}"
    )


def check_tensor(value: object, name: str, where: object) -> Tensor:
    """Returns ``value`` if it is a Tensor; else raises torch's TypeError naming ``name``.

    ``where`` is the function's name, or the layer whose ``forward`` checks its input.

    Example:
        >>> check_tensor(ember.ones(2), "input", "linear").shape
        ember.Size([2])
    """
    if not isinstance(value, Tensor):
        raise _refuse(where, name, value, "Tensor")
    return value


def check_tensors(where: object, **named: object) -> None:
    """Checks that every keyword's value is a Tensor (``check_tensors("mse_loss", input=x)``)."""
    for name, value in named.items():
        if not isinstance(value, Tensor):
            raise _refuse(where, name, value, "Tensor")


def check_optional_tensors(where: object, **named: object) -> None:
    """Checks that every keyword's value is a Tensor or None (an optional weight, a mask)."""
    for name, value in named.items():
        if value is not None and not isinstance(value, Tensor):
            raise _refuse(where, name, value, "Tensor or None")


def check_tensor_sequence(value: object, name: str, where: str) -> list[Any]:
    """A Tensor or an iterable of Tensors as a list (clip_grad_norm_'s ``parameters``)."""
    if isinstance(value, Tensor):
        return [value]
    try:
        it = iter(value)  # type: ignore[call-overload]
    except TypeError:
        raise _refuse(where, name, value, "a Tensor or an iterable of Tensors") from None
    items: list[Any] = list(it)
    for i, item in enumerate(items):
        if not isinstance(item, Tensor):
            raise TypeError(
                f"{_where(where)}(): argument '{name}' must hold Tensors, but element {i} is "
                f"{type(item).__name__}"
            )
    return items


def check_module(value: object, name: str, where: str) -> Any:
    """Returns ``value`` if it is an ``nn.Module``; else a TypeError naming ``name``."""
    from ember.nn.modules.module import Module  # the modules import this file

    if not isinstance(value, Module):
        raise _refuse(where, name, value, "Module")
    return value


class AssertionValueError(ValueError, AssertionError):
    """A bad argument torch reports with ``assert`` (MultiheadAttention's shapes, Embedding's
    padding_idx, Hardtanh's bounds): ember raises ValueError, and, being an AssertionError too,
    it is still caught by code written against torch's ``except AssertionError``."""
