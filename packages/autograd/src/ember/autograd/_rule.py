"""A derivative rule: one backward formula per differentiable input of an op.

A rule takes its op's parameters from the op registry (``_op_signatures.py``, generated), so it
names only its formulas: ``"sum": Rule(input=_sum)``. Rules give a signature string only where
they bind something else than the op's single declared signature (ops with overloads such as
``max``, internal rules such as ``rsub``).

Formulas are small lambdas ``lambda g, a: ...``: ``g`` is the gradient of the output (a tuple of
gradients for ops with several outputs) and ``a`` the op's arguments by name, plus ``a.result``
(the forward output) and ``a.<param>_shape`` (an argument's shape). What a formula reads is what
gets saved for backward: the rule looks at the names each formula uses (its bytecode names), so
``a.input.shape`` saves ``input`` while ``a.input_shape`` saves only a tuple, and
``a.input_geometry`` saves (sizes, strides, storage offset) as they were before the op ran (what
as_strided's backward needs, even when the op rewrote them in place).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any, NamedTuple

_REQUIRED = object()

Formula = Callable[[Any, Any], Any]


class Param(NamedTuple):
    name: str
    default: Any  # _REQUIRED when the argument has no default
    var_positional: bool  # `*sizes`


def parse_signature(signature: str) -> list[Param]:
    """``"input, *sizes"`` or ``"input, dim=None, keepdim=False, *, dtype=None"`` to params.

    The string is parsed as a Python parameter list, so defaults may be any literal
    (``dims=(0, 1)``).
    """
    import ast  # here, not at import time: rules resolve on first use

    tree = ast.parse(f"def _({signature}): pass")
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    params: list[Param] = []
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    for i, arg in enumerate(positional):
        default = (
            ast.literal_eval(args.defaults[i - first_default]) if i >= first_default else _REQUIRED
        )
        params.append(Param(arg.arg, default, False))
    if args.vararg is not None:
        params.append(Param(args.vararg.arg, (), True))
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        value = _REQUIRED if kw_default is None else ast.literal_eval(kw_default)
        params.append(Param(arg.arg, value, False))
    return params


def _names_used(func: Any, seen: set[CodeType] | None = None) -> set[str]:
    """The names a formula uses, following the helpers it calls (an over-approximation)."""
    seen = set() if seen is None else seen
    names: set[str] = set()
    stack = [func.__code__]
    while stack:
        code = stack.pop()
        if code in seen:
            continue
        seen.add(code)
        names |= set(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, CodeType))
        for name in code.co_names:
            helper = func.__globals__.get(name)
            if isinstance(helper, FunctionType) and helper.__code__ not in seen:
                names |= _names_used(helper, seen)
    return names


# The attributes _setup() computes: reading one resolves a rule declared lazily.
_LAZY_FIELDS = frozenset(
    {
        "_fields",
        "defaults",
        "formulas",
        "geometry_params",
        "index",
        "list_params",
        "no_extra",
        "params",
        "saved_params",
        "saves_anything",
        "saves_result",
        "shape_params",
        "unsaved_params",
        "var_positional",
    }
)


class Rule:
    """How one op records: its parameters, formulas, which outputs carry gradients."""

    __slots__ = (
        "_fields",
        "_namespace",
        "_pending",
        "_source",
        "defaults",
        "differentiable_outputs",
        "formulas",
        "geometry_params",
        "index",
        "is_view",
        "list_params",
        "name",
        "no_extra",
        "node_name",
        "params",
        "saved_params",
        "saves_anything",
        "saves_result",
        "shape_params",
        "unsaved_params",
        "var_positional",
    )

    def __init__(
        self,
        signature: str | None = None,
        *,
        outputs: tuple[int, ...] | None = None,
        view: bool | None = False,
        **formulas: Formula,
    ) -> None:
        self.name = ""
        self.node_name = ""
        self._namespace: Any = None
        self.differentiable_outputs = outputs
        self.is_view = view
        self._pending = formulas
        # Where the parameters come from, resolved on first use (see __getattr__): a signature
        # string here, or the registry's signature (named() sets it).
        self._source: tuple[str, str] | None = None if signature is None else ("rule", signature)

    def __getattr__(self, attr: str) -> Any:
        # Binding formulas to parameters (and reading their bytecode for what to save) for
        # ~260 rules cost ~10 ms of `import ember`: each rule does it when first recorded.
        if attr in _LAZY_FIELDS and self._source is not None:
            self._resolve()
            return object.__getattribute__(self, attr)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {attr!r}")

    def _resolve(self) -> None:
        source = self._source
        assert source is not None
        self._source = None
        kind, text = source
        if kind == "rule":
            self._setup(parse_signature(text), f"({text})")
            return
        from ember.autograd._op_signatures import SIGNATURES  # read when the tables load

        declared = SIGNATURES[text]
        params = [Param(n, _REQUIRED if d == "REQUIRED" else d, k == "var") for n, k, d in declared]
        self._setup(params, f"the registry's signature of {text}")

    def _setup(self, params: list[Param], where: str) -> None:
        """Binds the formulas to the parameters and works out what backward needs saved."""
        formulas = self._pending
        self.params = params
        self.index = {p.name: i for i, p in enumerate(self.params)}
        self.defaults = [p.default for p in self.params]
        self.var_positional = next((i for i, p in enumerate(self.params) if p.var_positional), None)
        unknown = set(formulas) - set(self.index)
        if unknown:
            raise ValueError(f"formulas for unknown parameters {sorted(unknown)} in {where}")
        # Formulas in parameter order: the order of the node's next_functions.
        self.formulas = [(self.index[n], f) for n, f in formulas.items()]
        self.formulas.sort(key=lambda item: item[0])
        used: set[str] = set()
        for _, formula in self.formulas:
            used |= _names_used(formula)
        self.saved_params = [i for i, p in enumerate(self.params) if p.name in used]
        self.shape_params = [i for i, p in enumerate(self.params) if f"{p.name}_shape" in used]
        self.geometry_params = [
            i for i, p in enumerate(self.params) if f"{p.name}_geometry" in used
        ]
        self.saves_result = "result" in used
        fields = [p.name for p in self.params]
        fields += [f"{p.name}_shape" for p in self.params]
        fields += [f"{p.name}_geometry" for p in self.params]
        self._fields = [*fields, "result"]
        # The _shape and _geometry fields of a node's args when the formulas read none.
        self.no_extra = (None,) * (2 * len(self.params))
        # A parameter named `tensors` or `*name` holds a sequence of tensors (cat, einsum, ...).
        self.list_params = frozenset(
            i for i, p in enumerate(self.params) if p.var_positional or p.name == "tensors"
        )
        self.unsaved_params = [i for i in range(len(self.params)) if i not in self.saved_params]
        self.saves_anything = bool(self.saved_params) or self.saves_result

    def _resolved(self) -> bool:
        try:
            object.__getattribute__(self, "params")
        except AttributeError:
            return False
        return True

    @property
    def namespace(self) -> Any:
        """The class of a formula's ``a``: a named tuple of the arguments (built on first use,
        since creating hundreds of named tuple classes would slow down ``import ember``)."""
        if self._namespace is None:
            self._namespace = namedtuple("Args", self._fields)  # type: ignore[misc]
        return self._namespace

    def named(self, name: str, key: str | None = None) -> Rule:
        """Names the rule after its op; a rule declared without a signature takes the op's
        parameters from the registry (``key``: the dispatch name, ``Tensor.view`` for methods)."""
        if self._source is None and not self._resolved():
            from ember.autograd._op_signatures import SIGNATURES  # read when the tables load

            key = key or name
            if key not in SIGNATURES:
                raise ValueError(
                    f"the derivative rule of {key!r} has no signature and the op registry "
                    "declares none with a single overload: pass Rule(signature, ...)"
                )
            self._source = ("registry", key)
        self.name = name
        camel = "".join(part.capitalize() for part in name.strip("_").split("_"))
        self.node_name = f"{camel}Backward0"
        return self

    def bind(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        """The argument values in parameter order (the call already passed the op's checks)."""
        values = list(self.defaults)
        vp = self.var_positional
        if vp is None:
            values[: len(args)] = args
        else:
            values[:vp] = args[:vp]
            rest = args[vp:]
            # view(2, 3) and view((2, 3)) mean the same.
            if len(rest) == 1 and isinstance(rest[0], (tuple, list)):
                rest = tuple(rest[0])
            values[vp] = tuple(rest)
        for key, value in kwargs.items():
            position = self.index.get(key)
            if position is not None:
                values[position] = value
        return values
