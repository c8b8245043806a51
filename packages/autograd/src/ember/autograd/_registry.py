"""Connects the derivative tables to the native op dispatch.

Every public function and Tensor method is classified: it has a rule (recorded), is an in-place
form of one, creates tensors (``requires_grad=`` is honoured), cannot produce gradients
(integer/bool results, queries, random draws into fresh tensors), or is differentiable but has no
rule yet (``MISSING``: using it on a tensor that requires grad raises).
"""

from __future__ import annotations

from ember.autograd import _record
from ember.autograd.derivatives import INPLACE_OPERATORS, all_rules
from ember_core import _C

# Ops whose outputs never carry gradients: queries, integer/bool results, indices, random draws.
NON_DIFFERENTIABLE = frozenset(
    [
        "size",
        "dim",
        "numel",
        "item",
        "tolist",
        "numpy",
        "__array__",
        "__len__",
        "__bool__",
        "__float__",
        "__int__",
        "__index__",
        "__hash__",
        "__iter__",
        "data_ptr",
        "element_size",
        "stride",
        "storage_offset",
        "is_contiguous",
        "is_floating_point",
        "is_complex",
        "is_conj",
        "ndimension",
        "nelement",
        "_is_view_of",
        "_is_same_tensor",
        "_set_requires_grad",
        "detach",
        # The same tensor (one TensorImpl, so the same autograd record) seen as a subclass.
        "as_subclass",
        "bool",
        "byte",
        "char",
        "short",
        "int",
        "long",
        "equal",
        "allclose",
        "isclose",
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "not_equal",
        "eq_",
        "ne_",
        "lt_",
        "le_",
        "gt_",
        "ge_",
        "greater_",
        "greater_equal_",
        "less_",
        "less_equal_",
        "not_equal_",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_not",
        "logical_and_",
        "logical_or_",
        "logical_xor_",
        "logical_not_",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "bitwise_not",
        "bitwise_left_shift",
        "bitwise_right_shift",
        "bitwise_and_",
        "bitwise_or_",
        "bitwise_xor_",
        "bitwise_not_",
        "bitwise_left_shift_",
        "bitwise_right_shift_",
        "__and__",
        "__or__",
        "__xor__",
        "__invert__",
        "__lshift__",
        "__rshift__",
        "__rand__",
        "__ror__",
        "__rxor__",
        "__rlshift__",
        "__rrshift__",
        "__iand__",
        "__ior__",
        "__ixor__",
        "__ilshift__",
        "__irshift__",
        "floor_divide",
        "floor_divide_",
        "__floordiv__",
        "__rfloordiv__",
        "__ifloordiv__",
        "gcd",
        "lcm",
        "gcd_",
        "lcm_",
        "isnan",
        "isinf",
        "isfinite",
        "isposinf",
        "isneginf",
        "signbit",
        "argmax",
        "argmin",
        "argsort",
        "argwhere",
        "nonzero",
        "count_nonzero",
        "searchsorted",
        "bucketize",
        "unique_consecutive",
        "all",
        "any",
        "as_tensor",
        "from_numpy",
        "from_dlpack",
        "frombuffer",
        "can_cast",
        "promote_types",
        "result_type",
        "get_default_dtype",
        "set_default_dtype",
        "manual_seed",
        "seed",
        "initial_seed",
        "get_rng_state",
        "set_rng_state",
        "get_num_threads",
        "set_num_threads",
        "broadcast_shapes",
        "is_grad_enabled",
        "bernoulli",
        "multinomial",
        "poisson",
        "randperm",
        "randint_like",
        # Integer or index outputs (torch: not differentiable, or no derivative at all).
        "histc",
        "bincount",
        "unique",
        "tril_indices",
        "triu_indices",
        # ember.linalg's out= copy: refused before it runs when anything requires grad (torch).
        "_linalg_copy_out",
    ]
)

# Differentiable ops that cannot be recorded until the recorder supports what they need; they
# stay 'missing' (recording them raises NotImplementedError) even where a rule would match.
NEEDS_ENGINE: dict[str, str] = {}

# Creation ops taking requires_grad=: the result becomes a leaf that requires grad.
FACTORIES = frozenset(
    [
        "zeros",
        "ones",
        "empty",
        "full",
        "zeros_like",
        "ones_like",
        "empty_like",
        "full_like",
        "arange",
        "linspace",
        "logspace",
        "eye",
        "rand",
        "randn",
        "randint",
        "rand_like",
        "randn_like",
        "randint_like",
        "randperm",
        "normal",
        "tensor",
        "empty_strided",
    ]
)

# In-place random fills: the new values do not depend on the old ones (zero gradient).
RANDOM_FILLS = frozenset(
    [
        "uniform_",
        "normal_",
        "exponential_",
        "bernoulli_",
        "random_",
        "geometric_",
        "log_normal_",
        "cauchy_",
    ]
)


# Private natives behind public Python functions (ember.linalg.inv -> _C._linalg_inv_ex): they
# carry gradients, so they are classified like public ops rather than skipped as internals.
DIFFERENTIABLE_PRIVATE_PREFIXES = ("_linalg_", "_lu_unpack", "_fft_")


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
    if name in NEEDS_ENGINE:
        return "missing"
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
