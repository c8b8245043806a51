"""The op registry: one declaration per op, grouped by family (one module per family).

tools/gen_ops.py generates from it the typed stubs, the autograd classification, the conjugate
view traits, the op reference (docs/ops.md) and the rows of the registry tests. Add an op by
adding an ``Op(...)`` entry to its family's module (see _schema.py for the fields), then run
``uv run python tools/gen_ops.py``.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path

from registry._schema import Op

HERE = Path(__file__).resolve().parent


def families() -> list[str]:
    """The family modules, sorted: every ``registry/<family>.py``."""
    return sorted(p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_"))


def all_ops() -> list[Op]:
    """Every declared op, each with its family set; names are unique across families."""
    ops: list[Op] = []
    seen: dict[str, str] = {}
    for family in families():
        module = importlib.import_module(f"registry.{family}")
        for op in module.OPS:
            if op.name in seen:
                raise ValueError(
                    f"registry: {op.name!r} is declared in {seen[op.name]}.py and {family}.py"
                )
            seen[op.name] = family
            ops.append(dataclasses.replace(op, family=family))
    return ops
