"""The gradient of one einsum operand, written as another einsum.

einsum is linear in each operand, so d/d(operand i) is an einsum of the incoming gradient with the
other operands (conjugated: torch's convention for complex values). Three cases need care:
``...`` is expanded into explicit letters first; a letter repeated within the operand (a
diagonal, ``"ii->i"``) gets its off-diagonal zeros from identity matrices joined into the same
einsum, which keeps the result differentiable for double backward; and a size-1 dimension that
einsum broadcast against a longer one is summed back to size 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ember
from ember.autograd.derivatives.complex import conj

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _implicit_output(terms: Sequence[str]) -> str:
    """torch's output when the equation has no ``->``: ``...`` first, then the letters used once,
    in alphabetical order (upper case before lower case, as in torch)."""
    letters = [c for t in terms for c in t if c.isalpha()]
    once = sorted(c for c in set(letters) if letters.count(c) == 1)
    ellipsis = "..." if any("..." in t for t in terms) else ""
    return ellipsis + "".join(once)


def _expand_ellipsis(terms: list[str], output: str, ndims: list[int]) -> tuple[list[str], str]:
    """Replaces every ``...`` by explicit letters, aligned from the right as einsum broadcasts."""
    if not any("..." in t for t in terms) and "..." not in output:
        return terms, output
    used = set("".join(terms) + output)
    fresh = [c for c in _LETTERS if c not in used]
    widths = [
        nd - len(t.replace("...", "")) if "..." in t else 0
        for t, nd in zip(terms, ndims, strict=True)
    ]
    width = max(widths, default=0)
    if width > len(fresh):
        raise NotImplementedError("[einsum] backward ran out of letters to name the '...' dims")
    batch = "".join(fresh[:width])
    expanded = [t.replace("...", batch[width - w :]) for t, w in zip(terms, widths, strict=True)]
    return expanded, output.replace("...", batch)


def _parse(equation: str, ndims: list[int]) -> tuple[list[str], str]:
    spec = equation.replace(" ", "")
    inputs_spec, arrow, output = spec.partition("->")
    terms = inputs_spec.split(",")
    if not arrow:
        output = _implicit_output(terms)
    return _expand_ellipsis(terms, output, ndims)


def einsum_operand_grad(g: Any, equation: str, operands: Sequence[Any], i: int) -> Any:
    """d(einsum(equation, *operands))/d(operands[i]) applied to the gradient ``g``."""
    terms, output = _parse(equation, [op.dim() for op in operands])
    target = terms[i]
    others = [t for j, t in enumerate(terms) if j != i]
    other_ops = [conj(op) for j, op in enumerate(operands) if j != i]
    sizes: dict[str, int] = {}
    for term, op in zip(terms, operands, strict=True):
        for c, n in zip(term, op.shape, strict=True):
            sizes[c] = max(sizes.get(c, 1), n)

    # A repeated letter keeps its first place; later places get fresh letters tied to it by an
    # identity matrix, so the gradient is zero off the diagonal.
    unused = [c for c in _LETTERS if c not in set("".join(terms) + output)]
    grad_spec = ""
    deltas: list[tuple[str, Any]] = []
    for c in target:
        if c in grad_spec:
            fresh = unused.pop(0)
            eye = ember.eye(sizes[c], dtype=g.dtype, device=g.device)
            deltas.append((c + fresh, eye))
            grad_spec += fresh
        else:
            grad_spec += c

    # Letters only in this operand were summed away: their gradient is a broadcast of ones.
    available = set(output).union(*others, *(spec for spec, _ in deltas))
    kept = "".join(c for c in grad_spec if c in available)
    grad = ember.einsum(
        ",".join([output, *others, *(spec for spec, _ in deltas)]) + "->" + kept,
        g,
        *other_ops,
        *(eye for _, eye in deltas),
    )
    for position, c in enumerate(grad_spec):
        if c not in available:
            grad = grad.unsqueeze(position)
    shape = tuple(operands[i].shape)
    # einsum broadcast a size-1 dimension of this operand: sum its gradient back to size 1.
    summed = [d for d, n in enumerate(shape) if n == 1 and grad.shape[d] != 1]
    if summed:
        grad = grad.sum(dim=summed, keepdim=True)
    return grad.expand(shape)
