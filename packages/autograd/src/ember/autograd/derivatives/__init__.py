"""Every derivative rule, one table per op family, and the registration with the op dispatch.

A table maps op names to a ``Rule``; the same rule serves the function (``ember.mul``), the
method (``x.mul``) and the operators (``x * y``) unless a ``Tensor.<name>`` entry overrides the
method (whose signature can differ, e.g. ``x.view(*shape)``). In-place forms (``mul_``,
``__imul__``) reuse the out-of-place rule.
"""

from __future__ import annotations

from ember.autograd._rule import Rule
from ember.autograd.derivatives import (
    complex,
    conv,
    dropout,
    elementwise,
    fft,
    index,
    joins,
    linalg,
    linalg_lapack,
    linear,
    loss,
    norm,
    pairwise,
    rearrange,
    reductions,
    select,
    shape,
    special,
)

TABLES: tuple[dict[str, Rule], ...] = (
    elementwise.RULES,
    reductions.RULES,
    shape.RULES,
    linalg.RULES,
    index.RULES,
    select.RULES,
    joins.RULES,
    rearrange.RULES,
    pairwise.RULES,
    linalg_lapack.RULES,
    complex.RULES,
    fft.RULES,
    special.RULES,
    conv.RULES,
    linear.RULES,
    norm.RULES,
    loss.RULES,
    dropout.RULES,
)

# Operators and aliases that mean an existing rule.
ALIASES: dict[str, str] = {
    "Tensor.__add__": "add",
    "Tensor.__radd__": "add",
    "Tensor.__sub__": "sub",
    "Tensor.__rsub__": "rsub",
    "Tensor.__mul__": "mul",
    "Tensor.__rmul__": "mul",
    "Tensor.__truediv__": "div",
    "Tensor.__rtruediv__": "rdiv",
    "Tensor.__pow__": "pow",
    "Tensor.__rpow__": "rpow",
    "Tensor.__matmul__": "matmul",
    "Tensor.__rmatmul__": "rmatmul",
    "Tensor.__neg__": "neg",
    "Tensor.__pos__": "positive",
    "Tensor.__abs__": "abs",
    "Tensor.__mod__": "remainder",
    "Tensor.__rmod__": "rmod",
    "Tensor.__getitem__": "index",
    "subtract": "sub",
    "multiply": "mul",
    "divide": "div",
    "true_divide": "div",
    "negative": "neg",
    "absolute": "abs",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arcsinh": "asinh",
    "arccosh": "acosh",
    "arctanh": "atanh",
    "arctan2": "atan2",
    "clip": "clamp",
    "fix": "trunc",
    "concat": "cat",
    "concatenate": "cat",
    "swapdims": "transpose",
    "moveaxis": "movedim",
    "ger": "outer",
}

# In-place operators: `x += y` is `x.add_(y)`.
INPLACE_OPERATORS: dict[str, str] = {
    "Tensor.__iadd__": "add",
    "Tensor.__isub__": "sub",
    "Tensor.__imul__": "mul",
    "Tensor.__itruediv__": "div",
    "Tensor.__ipow__": "pow",
    "Tensor.__imod__": "remainder",
    "Tensor.__setitem__": "setitem",
}


def all_rules() -> dict[str, Rule]:
    """Op name -> rule, for every name the dispatch may report (functions and methods)."""
    rules: dict[str, Rule] = {}
    for table in TABLES:
        for name, rule in table.items():
            if name in rules:
                raise ValueError(f"two derivative rules for {name!r}")
            rules[name] = rule.named(name.removeprefix("Tensor."), name)
    for alias, target in ALIASES.items():
        rules[alias] = rules[target]
    return rules
