"""What one op declaration holds: the single source that tools/gen_ops.py generates from.

An entry reads like the op's documentation::

    Op("sum",
       function="(input: Tensor, dim: int | Sequence[int] | None = None, keepdim: bool = False,"
                " *, dtype: dtype | None = None, out: Tensor | None = None) -> Tensor",
       method="(dim: int | Sequence[int] | None = None, ...) -> Tensor",
       grad="rule", doc="The sum of the elements, over all dims or over `dim`.")

Signatures are Python parameter lists with annotations (``self`` implied for methods), in torch's
argument names and defaults; a tuple of them declares overloads. The type names are those of the
generated stub: ``Tensor``, ``Number`` (int | float | bool, as torch), ``dtype``, ``Device``,
``Generator``, ``Sequence[...]``, builtins and ``Any``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

Signatures = str | tuple[str, ...]

# Autograd classes: "rule" (a derivative rule records it), "none" (its outputs never carry
# gradients: queries, integer/bool results), "random" (in-place random fills: zero gradient),
# "factory" (creates tensors; requires_grad= makes a leaf), "missing" (differentiable, no rule yet:
# recording it raises NotImplementedError).
Grad = Literal["rule", "none", "random", "factory", "missing"]

# How the op sees conjugate views (bindings/conj_dispatch.h): "resolve" them first (default),
# "pass" them through (the op handles the conj bit), or "structural" (the op only moves or casts
# elements: it runs on the storage and the result is flagged conjugate).
Conj = Literal["resolve", "pass", "structural"]

DTYPES = (
    "bool",
    "uint8",
    "int8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    # torch's "limited support" unsigned types: only ops that name them (or "unsigned") take them.
    "uint16",
    "uint32",
    "uint64",
)
_BASE = DTYPES[:12]
# Names for the dtype sets most ops accept, usable in ``dtypes=`` next to single dtypes. None of
# them holds uint16/uint32/uint64: an op torch supports them for adds "unsigned".
DTYPE_GROUPS: dict[str, tuple[str, ...]] = {
    "all": _BASE,
    "real": _BASE[:10],  # all but complex
    "numeric": _BASE[1:10],  # all but bool and complex
    "numeric+complex": _BASE[1:],
    "float+complex": _BASE[6:],
    "float": _BASE[6:10],
    "integral+bool": _BASE[:6],
    "integral": _BASE[1:6],
    "unsigned": DTYPES[12:],
}
_GRADS = ("rule", "none", "random", "factory", "missing")

# The native elementwise kernel families (include/ember/kernels.h): unary and binary kernels keep
# their input dtype (or run integers in the default float dtype), predicates and comparisons give
# bool.
KernelKind = Literal["unary", "binary", "predicate", "compare"]
# The dtype sets of kernels/cpu/type_lists.h a kernel is instantiated for, by their C++ names.
KERNEL_TYPES: dict[str, str] = {
    "all": "AllTypes",
    "numeric": "NumericTypes",
    "float": "FloatTypes",
    "float32+float64": "FloatDoubleTypes",
    "integral": "IntTypes",
    "integral+bool": "IntBoolTypes",
}


@dataclass(frozen=True)
class Kernel:
    """A native elementwise kernel: one functor of kernels/cpu/math_ops.h and its dtypes.

    tools/gen_ops.py turns every declared kernel into its ``UnaryOp``/``BinaryOp``/... entry, its
    row of the kernel table and, with ``bind``, the op's bindings (``ember.<op>(input[, other],
    *, out=None)``, ``Tensor.<op>`` and ``Tensor.<op>_`` as the op declares them).

    Attributes:
        kind: the kernel family.
        functor: the functor's name in math_ops.h, CamelCase (``Sqrt``); ops may share one.
        types: the type list it is instantiated for (a KERNEL_TYPES key); the table keeps no
            kernel for other dtypes, which then raise TypeNotImplementedError naming the op.
            Complex kernels live apart (kernels/cpu/complex.cpp).
        ints_to_float: integer and bool inputs run in the default float dtype (sqrt of an int64
            tensor is float32), as torch's float-only ops do; otherwise they keep their dtype.
        bind: generate the op's bindings; False when a hand-written binding calls the kernel
            (add's alpha, clamp's bounds, round's decimals).
        name: the op name the kernel's errors use; by default the functor in snake_case.
    """

    kind: KernelKind
    functor: str
    types: str = "all"
    ints_to_float: bool = False
    bind: bool = True
    name: str = ""

    def __post_init__(self) -> None:
        where = f"kernel {self.functor!r}"
        if not (self.functor.isidentifier() and self.functor[:1].isupper()):
            raise ValueError(f"{where}: the functor name must be a CamelCase identifier")
        if self.kind not in ("unary", "binary", "predicate", "compare"):
            raise ValueError(f"{where}: unknown kind {self.kind!r}")
        if self.types not in KERNEL_TYPES:
            raise ValueError(f"{where}: types must be one of {sorted(KERNEL_TYPES)}")
        if self.kind in ("predicate", "compare") and (self.types != "all" or self.ints_to_float):
            raise ValueError(f"{where}: predicates and comparisons run on every dtype")

    @property
    def error_name(self) -> str:
        """The op name in the kernel's error messages."""
        return self.name or re.sub(r"(?<!^)([A-Z])", r"_\1", self.functor).lower()


def unary(
    functor: str, types: str, *, ints_to_float: bool = False, bind: bool = True, name: str = ""
) -> Kernel:
    """A unary kernel (see Kernel)."""
    return Kernel("unary", functor, types, ints_to_float, bind, name)


def binary(
    functor: str, types: str, *, ints_to_float: bool = False, bind: bool = True, name: str = ""
) -> Kernel:
    """A binary kernel (see Kernel)."""
    return Kernel("binary", functor, types, ints_to_float, bind, name)


def predicate(functor: str, *, bind: bool = True) -> Kernel:
    """A kernel with a bool result, on every dtype (isnan)."""
    return Kernel("predicate", functor, bind=bind)


def compare(functor: str, *, bind: bool = True) -> Kernel:
    """A binary kernel with a bool result, on every dtype (lt)."""
    return Kernel("compare", functor, bind=bind)


_CONJS = ("resolve", "pass", "structural")


def as_tuple(signatures: Signatures) -> tuple[str, ...]:
    return (signatures,) if isinstance(signatures, str) else signatures


def parse_signature(signature: str) -> ast.FunctionDef:
    """``"(x: Tensor) -> Tensor"`` as the ast of ``def _(x: Tensor) -> Tensor: ...``."""
    tree = ast.parse(f"def _{signature}: ...")
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


class Param(NamedTuple):
    """One declared parameter: kind "pos", "var" (``*name``) or "kw" (keyword-only)."""

    name: str
    kind: Literal["pos", "var", "kw"]
    annotation: str  # "Any" where none is written
    default: ast.expr | None  # None: required (and for "var")


def signature_params(signature: str) -> list[Param]:
    """The parameters of a declared signature, in order (every generator and test reads these)."""
    args = parse_signature(signature).args

    def annotation(arg: ast.arg) -> str:
        return ast.unparse(arg.annotation) if arg.annotation is not None else "Any"

    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    params = [
        Param(
            a.arg,
            "pos",
            annotation(a),
            args.defaults[i - first_default] if i >= first_default else None,
        )
        for i, a in enumerate(positional)
    ]
    if args.vararg is not None:
        params.append(Param(args.vararg.arg, "var", annotation(args.vararg), None))
    for a, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        params.append(Param(a.arg, "kw", annotation(a), kw_default))
    return params


@dataclass(frozen=True)
class Op:
    """One op: its variants' signatures and its properties.

    Attributes:
        name: the public name (``ember.<name>``, ``Tensor.<name>``).
        function: signature(s) of ``ember.<name>``; empty if there is no function.
        method: signature(s) of ``Tensor.<name>`` (self implied); empty if there is no method.
        inplace: signature(s) of ``Tensor.<name>_``; empty if there is no in-place form.
        operators: the Python operators (dunder methods of Tensor) that run this op.
        dtypes: comma-separated dtypes the op accepts (others raise torch's exception type), or
            None while the table has not been filled in for this op.
        conj: how the op sees conjugate views (see Conj).
        grad: its autograd class (see Grad).
        inplace_grad: the in-place form's class where it differs (``normal`` creates tensors,
            ``Tensor.normal_`` is a random fill).
        aliases: other public names of the same op.
        doc: one line saying what it computes.
        details: what help() shows between the doc line and the example (Google-style Args,
            Returns, notes), when the line is not enough.
        example: a short doctest (``>>>`` lines and their output).
        kernel: the native elementwise kernel(s) the op runs (see Kernel), if any.
        family: the op family (the registry module that declares it; set by the loader).
    """

    name: str
    function: Signatures = ()
    method: Signatures = ()
    inplace: Signatures = ()
    operators: tuple[str, ...] = ()
    dtypes: str | None = None
    conj: Conj = "resolve"
    grad: Grad = "none"
    inplace_grad: Grad | None = None
    aliases: tuple[str, ...] = ()
    doc: str = ""
    details: str = ""
    example: str = ""
    kernel: Kernel | tuple[Kernel, ...] = ()
    family: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        where = f"registry entry {self.name!r}"
        if not self.name.isidentifier():
            raise ValueError(f"{where}: the name is not an identifier")
        if not (self.function or self.method or self.inplace or self.operators):
            raise ValueError(f"{where}: declares no variant (function, method, inplace, operators)")
        for kind in ("function", "method", "inplace"):
            for sig in as_tuple(getattr(self, kind)):
                try:
                    node = parse_signature(sig)
                except SyntaxError as e:
                    raise ValueError(
                        f"{where}: {kind} signature {sig!r} does not parse: {e}"
                    ) from e
                if node.returns is None:
                    raise ValueError(f"{where}: {kind} signature {sig!r} has no return type")
        if self.inplace_grad is not None and self.inplace_grad not in _GRADS:
            raise ValueError(f"{where}: inplace_grad must be one of {_GRADS}")
        if self.grad not in _GRADS:
            raise ValueError(f"{where}: grad must be one of {_GRADS}, not {self.grad!r}")
        if self.conj not in _CONJS:
            raise ValueError(f"{where}: conj must be one of {_CONJS}, not {self.conj!r}")
        self.dtype_list()  # raises for unknown names
        for o in self.operators:
            if not (o.startswith("__") and o.endswith("__")):
                raise ValueError(f"{where}: operator {o!r} is not a dunder method name")
        if sum(k.bind for k in self.kernels()) > 1:
            raise ValueError(f"{where}: at most one kernel can generate the op's bindings")

    def kernels(self) -> tuple[Kernel, ...]:
        """The declared kernels, as a tuple."""
        return (self.kernel,) if isinstance(self.kernel, Kernel) else self.kernel

    def dtype_list(self) -> tuple[str, ...] | None:
        """The accepted dtypes in DTYPES order (groups expanded), or None if not declared."""
        if self.dtypes is None:
            return None
        found: set[str] = set()
        for token in (t.strip() for t in self.dtypes.split(",") if t.strip()):
            if token in DTYPE_GROUPS:
                found.update(DTYPE_GROUPS[token])
            elif token in DTYPES:
                found.add(token)
            else:
                known = ", ".join([*DTYPE_GROUPS, *DTYPES])
                raise ValueError(
                    f"registry entry {self.name!r}: unknown dtype {token!r} (known: {known})"
                )
        return tuple(d for d in DTYPES if d in found)

    def grad_of(self, dispatch_name: str) -> Grad:
        """The autograd class of one variant (the in-place form may differ: inplace_grad)."""
        if self.inplace_grad is not None and dispatch_name == f"Tensor.{self.name}_":
            return self.inplace_grad
        return self.grad

    def dispatch_names(self) -> list[str]:
        """The names the native dispatch knows this op by (``Tensor.`` for methods)."""
        names = [self.name] if self.function else []
        if self.method:
            names.append(f"Tensor.{self.name}")
        if self.inplace:
            names.append(f"Tensor.{self.name}_")
        names += [f"Tensor.{o}" for o in self.operators]
        return names
