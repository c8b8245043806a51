"""The op registry against the built module: every op declared once, with the signatures the
bindings really have and the autograd class ember.autograd really gives it."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packages" / "core"))
sys.path.insert(0, str(ROOT / "tools"))

from registry import all_ops  # noqa: E402
from registry._schema import Kernel, Op, as_tuple, binary, signature_params, unary  # noqa: E402

import ember  # noqa: E402
import ember.autograd  # noqa: E402
from ember.autograd import _registry  # noqa: E402
from ember_core import _C  # noqa: E402

OPS = all_ops()

Param = tuple[str, str, Any]  # (name, kind, default): kind "pos", "kw", "var"; _NO when required
_NO = object()


def registry_params(signature: str) -> list[Param]:
    return [
        (p.name, p.kind, _NO if p.default is None else _literal(p.default))
        for p in signature_params(signature)
    ]


def _literal(node: ast.expr) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return ast.unparse(node)  # a dtype default such as float32


_SIG = re.compile(r"^def \w+\((?P<params>.*)\) -> .*$")


def _split(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        depth += 1 if ch in "[(" else -1 if ch in "])" else 0
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [*parts, cur.strip()] if cur.strip() else parts


def binding_params(nb_signature: tuple[str, Any, Any], method: bool) -> list[Param]:
    """The parameters of one nanobind overload, as registry_params reads a declaration."""
    text, _doc, defaults = nb_signature
    match = _SIG.match(text)
    assert match, text
    params: list[Param] = []
    kind = "pos"
    for part in _split(match.group("params")):
        if part == "/" or (method and part == "self"):
            continue
        if part == "*":
            kind = "kw"
            continue
        if part.startswith("*"):
            params.append((part[1:].split(":")[0].strip(), "var", _NO))
            kind = "kw"
            continue
        name = part.split(":")[0].split("=")[0].strip()
        name = "from_" if name == "from" else name
        default: Any = _NO
        if "=" in part:
            ref = re.search(r"\\(\d+)", part.split("=", 1)[1])
            assert ref, part
            value = defaults[int(ref.group(1))]
            default = str(value).removeprefix("ember.") if isinstance(value, ember.dtype) else value
        params.append((name, kind, default))
    return params


def _runtime(op: Op) -> list[tuple[str, tuple[str, ...], Any, bool]]:
    """(dispatch name, declared signatures, runtime function, is a method) per declared variant."""
    rows = []
    if op.function:
        rows.append((op.name, as_tuple(op.function), getattr(_C, op.name), False))
    if op.method:
        rows.append(
            (f"Tensor.{op.name}", as_tuple(op.method), getattr(_C.TensorBase, op.name), True)
        )
    if op.inplace:
        inplace = getattr(_C.TensorBase, f"{op.name}_")
        rows.append((f"Tensor.{op.name}_", as_tuple(op.inplace), inplace, True))
    return rows


def test_every_dispatched_op_is_declared_exactly_once() -> None:
    declared = [name for op in OPS for name in op.dispatch_names()]
    assert len(declared) == len(set(declared))
    dispatched = set(_registry.dispatch_names())
    assert sorted(dispatched - set(declared)) == [], "dispatched but not in the registry"
    assert sorted(set(declared) - dispatched) == [], "in the registry but not dispatched"


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_declared_signatures_are_the_bindings(op: Op) -> None:
    for name, declared, runtime, method in _runtime(op):
        bound = [binding_params(s, method) for s in runtime.__wrapped__.__nb_signature__]
        expected = [registry_params(s) for s in declared]
        assert expected == bound, f"{name}: the registry's signatures differ from the binding's"


EXPECTED_CLASSES = {
    "rule": {"rule", "inplace"},
    "none": {"none"},
    "factory": {"factory"},
    "random": {"random"},
    "missing": {"missing"},
}


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_autograd_class_is_the_declared_one(op: Op) -> None:
    for name in op.dispatch_names():
        grad = op.grad_of(name)
        assert _registry.classify(name) in EXPECTED_CLASSES[grad], (name, grad)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"function": "(x: Tensor) -> Tensor", "grad": "maybe"}, "grad must be one of"),
        ({"function": "(x: Tensor"}, "does not parse"),
        ({"function": "(x: Tensor)"}, "has no return type"),
        ({"function": "(x: Tensor) -> Tensor", "dtypes": "float32, float8"}, "unknown dtype"),
        ({"function": "(x: Tensor) -> Tensor", "conj": "lazy"}, "conj must be one of"),
        ({}, "declares no variant"),
        ({"operators": ("add",)}, "is not a dunder"),
        (
            {"function": "(x: Tensor) -> Tensor", "kernel": (unary("A", "all"), unary("B", "all"))},
            "at most one kernel",
        ),
    ],
)
def test_bad_entries_are_refused_naming_the_op(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=rf"registry entry 'frob'.*{message}"):
        Op("frob", **fields)


def test_dtype_groups_expand_in_dtype_order() -> None:
    op = Op("frob", function="(x: Tensor) -> Tensor", dtypes="complex128, float")
    assert op.dtype_list() == ("float16", "bfloat16", "float32", "float64", "complex128")
    assert Op("frob", function="(x: Tensor) -> Tensor").dtype_list() is None


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: unary("sqrt", "float"), "CamelCase"),
        (lambda: unary("Sqrt", "floats"), "types must be one of"),
        (lambda: Kernel("ternary", "Fma"), "unknown kind"),  # type: ignore[arg-type]
        (lambda: Kernel("compare", "Lt", "float"), "run on every dtype"),
    ],
)
def test_bad_kernels_are_refused(make: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()


def test_a_kernel_declared_twice_must_agree() -> None:
    import gen_ops

    sign = Op("sign", function="(input: Tensor) -> Tensor", kernel=unary("Sign", "numeric"))
    sgn = Op("sgn", function="(input: Tensor) -> Tensor", kernel=unary("Sign", "all"))
    assert gen_ops.declared_kernels([sign, sign])["Sign"].types == "numeric"
    with pytest.raises(ValueError, match="'sgn': kernel Sign is declared differently"):
        gen_ops.declared_kernels([sign, sgn])


def test_kernel_error_names_default_to_snake_case() -> None:
    assert unary("SpecialBesselJ0", "float").error_name == "special_bessel_j0"
    assert binary("AddScaled", "numeric", name="add").error_name == "add"


def test_ops_bound_to_a_kernel_have_exactly_the_declared_variants() -> None:
    import gen_ops

    bound = [op for op in OPS for k in op.kernels() if k.bind]
    assert len(bound) > 90
    for op in bound:
        fn = getattr(_C, op.name)
        assert callable(fn), op.name
        assert hasattr(ember.Tensor, op.name) == bool(op.method), op.name
        assert hasattr(ember.Tensor, f"{op.name}_") == bool(op.inplace), op.name
    assert len(gen_ops.declared_kernels(OPS)) >= 101


def test_generated_files_are_current() -> None:
    import gen_ops

    for path, make in gen_ops.GENERATED:
        assert path.read_text() == make(OPS), f"{path} is stale: run tools/gen_ops.py"
