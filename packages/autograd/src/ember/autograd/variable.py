"""``ember.autograd.Variable``: torch's legacy wrapper, which since torch 0.4 returns a tensor."""

from __future__ import annotations

from typing import Any

import ember
from ember._tensor import Tensor

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False)``: ``data`` as a tensor (sharing its storage) with
    ``requires_grad`` set; ``Variable()`` is an empty tensor. Every tensor is a Variable.

    Example:
        >>> v = ember.autograd.Variable(ember.ones(2), requires_grad=True)
        >>> type(v).__name__, v.requires_grad
        ('Tensor', True)
    """

    def __new__(  # type: ignore[misc]
        cls, data: Any = None, requires_grad: bool = False, volatile: bool = False
    ) -> Tensor:
        if data is None:
            empty: Tensor = ember.empty(0).requires_grad_(requires_grad)
            return empty
        if not isinstance(data, Tensor):
            raise TypeError(f"[Variable] data must be a Tensor, got {type(data).__name__}")
        if not isinstance(requires_grad, bool):
            raise TypeError(f"[Variable] requires_grad must be a bool, got {requires_grad!r}")
        result: Tensor = data.detach().requires_grad_(requires_grad)
        return result
