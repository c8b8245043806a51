"""``ember.einsum`` in both of torch's forms: ``einsum("ij,jk->ik", a, b)`` and the sublist form
``einsum(a, [0, 1], b, [1, 2], [0, 2])``, which becomes an equation before the native call (so
autograd records one einsum with its equation, whichever form the caller used)."""

from __future__ import annotations

from typing import Any

from ember_core import _C

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _subscripts(sublist: Any) -> str:
    """A sublist (ints in [0, 52) and Ellipsis) as equation letters, torch's numbering."""
    if not isinstance(sublist, (list, tuple)):
        raise TypeError(
            f"[einsum] expected a list of subscripts after each operand, got "
            f"{type(sublist).__name__}"
        )
    letters = []
    for s in sublist:
        if s is Ellipsis:
            letters.append("...")
        elif isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(_LETTERS):
            letters.append(_LETTERS[s])
        else:
            raise ValueError(
                f"[einsum] subscript in subscript list is not within the valid range [0, 52): "
                f"got {s!r}"
            )
    return "".join(letters)


def _sublist_equation(args: tuple[Any, ...]) -> tuple[str, list[Any]]:
    operands = list(args[0::2][: len(args) // 2])
    inputs = [_subscripts(s) for s in args[1::2][: len(args) // 2]]
    equation = ",".join(inputs)
    if len(args) % 2 == 1:  # a trailing output sublist
        equation += "->" + _subscripts(args[-1])
    return equation, operands


def einsum(*args: Any) -> Any:
    """Sums products of the operands' elements over the indices the equation names.

    ``einsum(equation, *operands)`` as in torch (``"ij,jk->ik"``, ``...`` for broadcast dims, an
    implicit output of the letters used once), or the sublist form ``einsum(op1, sublist1, op2,
    sublist2, ..., [sublist_out])`` with integer subscripts in [0, 52) and ``Ellipsis``.

    Example:
        >>> a, b = ember.ones(2, 3), ember.ones(3, 4)
        >>> ember.einsum("ij,jk->ik", a, b).shape
        ember.Size([2, 4])
        >>> ember.einsum(a, [0, 1], b, [1, 2], [0, 2]).shape
        ember.Size([2, 4])
    """
    if args and isinstance(args[0], _C.TensorBase):
        equation, operands = _sublist_equation(args)
        return _C.einsum(equation, *operands)
    return _C.einsum(*args)
