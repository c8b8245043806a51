"""Errors that name the layer: ``[Linear(in_features=10, out_features=5) at 'encoder.fc1'] ...``.

An exception raised inside a built-in layer's ``forward`` gets the layer's description; each
enclosing ``Module.__call__`` it propagates through appends itself to the exception's trace and
rewrites the message with the path from the outermost module seen so far. The exception keeps
its type and traceback (only ``args[0]`` changes), and nothing runs unless an exception does.
"""

from __future__ import annotations

import itertools
from typing import Any

_ANNOTATED = (RuntimeError, ValueError, TypeError, IndexError)


def describe(module: Any) -> str:
    """``Linear(in_features=10, out_features=5)``: the module's name and one-line config."""
    extra = module.extra_repr().replace("\n", ", ")
    return f"{module._get_name()}({extra})"


def _path(trace: list[Any]) -> str:
    # trace: innermost (the raising layer) first. Each step looks the child up below its caller.
    names: list[str] = []
    for child, parent in itertools.pairwise(trace):
        # The child may sit below containers that were indexed, not called (ModuleList).
        for name, mod in parent.named_modules():
            if mod is child and name:
                names.append(name)
                break
        else:
            names.append(f"<{child._get_name()}>")
    return ".".join(reversed(names))


def annotate(module: Any, exc: BaseException) -> None:
    """Adds ``module`` to ``exc``'s trace (starting one when ``module`` is a built-in layer)."""
    trace: list[Any] | None = getattr(exc, "_ember_nn_trace", None)
    if trace is None:
        if not type(module)._ember_builtin or not isinstance(exc, _ANNOTATED):
            return
        if not exc.args or not isinstance(exc.args[0], str):
            return
        try:
            trace = [module]
            exc._ember_nn_trace = trace  # type: ignore[union-attr]
            exc._ember_nn_message = exc.args[0]  # type: ignore[union-attr]
            exc._ember_nn_layer = describe(module)  # type: ignore[union-attr]
        except AttributeError:  # an exception type without a __dict__
            return
    elif trace[-1] is not module:
        trace.append(module)
    path = _path(trace)
    where = f" at '{path}'" if path else ""
    message = f"[{exc._ember_nn_layer}{where}] {exc._ember_nn_message}"  # type: ignore[attr-defined]
    exc.args = (message, *exc.args[1:])
