"""Connects the derivative tables to the native op dispatch.

Every public function and Tensor method is classified: it has a rule (recorded), is an in-place
form of one, creates tensors (``requires_grad=`` is honoured), cannot produce gradients
(integer/bool results, queries, random draws into fresh tensors), or is differentiable but has no
rule yet (``MISSING``: using it on a tensor that requires grad raises).
"""

from __future__ import annotations

from ember.autograd import _record

# Which ops never carry gradients, create tensors or fill them at random: generated from the op
# registry (packages/core/registry/, tools/gen_ops.py).
from ember.autograd._op_classes import FACTORIES, NON_DIFFERENTIABLE, RANDOM_FILLS
from ember.autograd.derivatives import INPLACE_OPERATORS, all_rules
from ember_core import _C

# Private natives behind public Python functions (ember.linalg.inv -> _C._linalg_inv_ex): they
# carry gradients, so they are classified like public ops rather than skipped as internals.
DIFFERENTIABLE_PRIVATE_PREFIXES = ("_linalg_", "_lu_unpack", "_fft_", "_special_", "_nn_")


def _public_or_differentiable(name: str) -> bool:
    return not name.startswith("_") or name.startswith(DIFFERENTIABLE_PRIVATE_PREFIXES)


def dispatch_names() -> list[str]:
    """Every op name the native dispatch reports: functions, then ``Tensor.<method>``."""
    names = [
        k for k, v in vars(_C).items() if type(v).__name__ == "op" and _public_or_differentiable(k)
    ]
    names += [
        "Tensor." + k
        for k, v in vars(_C.TensorBase).items()
        if type(v).__name__ == "op" and k not in ("_set_requires_grad", "_is_same_tensor")
    ]
    return names


def classify(name: str) -> str:
    """'rule', 'inplace', 'factory', 'random', 'none' (not differentiable) or 'missing'."""
    rules = _RULES_CACHE
    base = name.removeprefix("Tensor.")
    if name in INPLACE_OPERATORS:
        return "inplace"
    if name in rules or base in rules:
        return "inplace" if base.endswith("_") and not base.endswith("__") else "rule"
    if (
        base.endswith("_")
        and not base.endswith("__")
        and (base[:-1] in rules or name[:-1] in rules)
    ):
        return "inplace"
    if base in RANDOM_FILLS:
        return "random"
    if base in FACTORIES and not name.startswith("Tensor."):
        return "factory"
    if base in NON_DIFFERENTIABLE or not _public_or_differentiable(base):
        return "none"
    return "missing"


_RULES_CACHE = all_rules()


def install() -> None:
    """Fills the recorder's tables and registers it with the native dispatch."""
    rules = _RULES_CACHE
    recorded: set[str] = set()
    for name in dispatch_names():
        kind = classify(name)
        base = name.removeprefix("Tensor.")
        if kind == "rule":
            _record.RULES[name] = rules[name] if name in rules else rules[base]
        elif kind == "inplace":
            if name in INPLACE_OPERATORS:
                target = INPLACE_OPERATORS[name]
            elif name in rules or base in rules:
                target = name if name in rules else base
            else:
                target = name[:-1] if name[:-1] in rules else base[:-1]
            _record.RULES[name] = rules[target]
            _record.INPLACE.add(name)
        elif kind == "random":
            _record.RULES[name] = _record.ZERO_GRAD_FILL
            _record.INPLACE.add(name)
        elif kind == "factory":
            _record.FACTORIES.add(name)
        elif kind == "missing":
            _record.MISSING.add(name)
        else:
            continue
        recorded.add(name)
    _C._set_grad_recorder(_record.record, recorded)
