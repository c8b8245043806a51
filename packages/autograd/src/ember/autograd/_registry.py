"""Connects the derivative tables to the native op dispatch.

Every public function and Tensor method is classified: it has a rule (recorded), is an in-place
form of one, creates tensors (``requires_grad=`` is honoured), cannot produce gradients
(integer/bool results, queries, random draws into fresh tensors), or is differentiable but has no
rule yet (``MISSING``: using it on a tensor that requires grad raises).

The derivative tables load on first use, not at ``import ember`` (they are most of
ember.autograd's import cost): ``install`` registers a loader for every op that may record, and
the first op that would record (an argument requires grad) loads the tables, registers the
recorder for exactly the classified ops, then runs as if they had been loaded all along.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ember.autograd import _record

# Which ops never carry gradients, create tensors or fill them at random: generated from the op
# registry (packages/core/registry/, tools/gen_ops.py).
from ember.autograd._op_classes import FACTORIES, NON_DIFFERENTIABLE, RANDOM_FILLS
from ember_core import _C

if TYPE_CHECKING:
    from ember.autograd._rule import Rule

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
    return _classify(name, load())


def _classify(name: str, rules: dict[str, Rule]) -> str:
    from ember.autograd.derivatives import INPLACE_OPERATORS

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


_RULES_CACHE: dict[str, Rule] | None = None


def install() -> None:
    """Registers the first-use loader with the native dispatch for every op that may record.

    A superset of the recorded ops: the native dispatch calls it only when an argument requires
    grad (or a factory gets ``requires_grad=True``), so until then no op pays for it.
    """
    _C._set_grad_recorder(_load_then_record, set(dispatch_names()))


def _load_then_record(name: str, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The first op that would record: loads the tables, then records it (or runs it plainly)."""
    load()
    if name in _RECORDED:
        return _record.record(name, func, args, kwargs)
    # Not differentiable: call the op again through its dispatcher, which now takes the plain
    # path (conjugate-view handling and error naming exactly as without ember.autograd).
    if name.startswith("Tensor."):
        return vars(_C.TensorBase)[name.removeprefix("Tensor.")](*args, **kwargs)
    return getattr(_C, name)(*args, **kwargs)


# The ops the recorder is registered for once the tables are loaded (empty before).
_RECORDED: set[str] = set()


def load() -> dict[str, Rule]:
    """Loads the derivative tables (once), fills the recorder's tables and registers it.

    Returns op name -> rule, for every name the dispatch may report. Two threads loading at
    once both fill the same values; each registers the recorder before it returns.
    """
    global _RULES_CACHE
    if _RECORDED and _RULES_CACHE is not None:
        return _RULES_CACHE
    import ember
    from ember.autograd._rule import Rule
    from ember.autograd.derivatives import INPLACE_OPERATORS, all_rules

    # In-place random fills (x.uniform_()): the new values do not depend on the old ones.
    zero_grad_fill = Rule("input, *args", input=lambda g, a: ember.zeros_like(g)).named("fill")
    rules = _RULES_CACHE if _RULES_CACHE is not None else all_rules()
    _RULES_CACHE = rules
    recorded: set[str] = set()
    for name in dispatch_names():
        kind = _classify(name, rules)
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
            _record.RULES[name] = zero_grad_fill
            _record.INPLACE.add(name)
        elif kind == "factory":
            _record.FACTORIES.add(name)
        elif kind == "missing":
            _record.MISSING.add(name)
        else:
            continue
        recorded.add(name)
    _RECORDED.update(recorded)
    _C._set_grad_recorder(_record.record, recorded)
    return rules
