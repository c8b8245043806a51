"""One native backward call shared by the formulas of several inputs.

A rule has one formula per input, but a fused backward kernel (layer norm, batch norm, ...)
computes the input, weight and bias gradients in one pass. The first formula of a node's
``apply`` runs the kernel for every input that needs a gradient; the others take their part of
its result. The result is held only until the last formula that needs it has run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# (node arguments, incoming gradient, gradients, index of the last wanted gradient)
_slot: list[Any] = [None]


def wants(t: Any) -> bool:
    """Whether a saved argument will receive a gradient (a tensor that requires one)."""
    return t is not None and bool(t.requires_grad)


def part(
    g: Any,
    a: Any,
    k: int,
    mask: Callable[[Any], Sequence[bool]],
    compute: Callable[[Any, Any, list[bool]], Sequence[Any]],
) -> Any:
    """Gradient ``k`` of the fused backward ``compute(g, a, mask)``, computed once per node."""
    slot = _slot[0]
    if slot is not None and slot[0] is a and slot[1] is g:
        grads, last = slot[2], slot[3]
    else:
        m = list(mask(a))
        m[k] = True  # asked for it, so it is wanted (requires_grad may have changed since)
        grads = compute(g, a, m)
        last = max(i for i, want in enumerate(m) if want)
        _slot[0] = (a, g, grads, last)
    if k >= last:
        _slot[0] = None
    return grads[k]
