"""``functional_call``: run a module with some parameters/buffers swapped for given tensors."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from ember._tensor import Tensor
from ember.nn.modules.module import Module

__all__ = ["functional_call"]


def _merge(dicts: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    if isinstance(dicts, Mapping):
        return dict(dicts)
    merged: dict[str, Any] = {}
    for d in dicts:
        repeated = sorted(set(merged) & set(d))
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous"
            )
        merged.update(d)
    return merged


def _tied_names(module: Module) -> dict[str, list[str]]:
    # Every name of each tensor that appears under several names (tied weights).
    names: dict[int, list[str]] = {}
    for name, t in (
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ):
        names.setdefault(id(t), []).append(name)
    return {n: group for group in names.values() if len(group) > 1 for n in group}


@contextlib.contextmanager
def _reparametrize(
    module: Module, tensors: dict[str, Any], tie_weights: bool, strict: bool
) -> Iterator[None]:
    if tie_weights:
        tied = _tied_names(module)
        for name in list(tensors):
            for other in tied.get(name, []):
                if other in tensors and tensors[other] is not tensors[name]:
                    raise ValueError(
                        f"functional_call got multiple values for keys ['{name}', '{other}'], "
                        "which are tied. Consider using tie_weights=False"
                    )
                tensors.setdefault(other, tensors[name])
    if strict:
        known = {n for n, _ in module.named_parameters(remove_duplicate=False)} | {
            n for n, _ in module.named_buffers(remove_duplicate=False)
        }
        missing = sorted(known - set(tensors))
        unexpected = sorted(set(tensors) - known)
        if missing or unexpected:
            msgs = []
            if unexpected:
                msgs.append("Unexpected key(s): {}.".format(", ".join(map(repr, unexpected))))
            if missing:
                msgs.append("Missing key(s): {}.".format(", ".join(map(repr, missing))))
            raise RuntimeError(
                "Error(s) in reparametrizing for {}:\n\t{}".format(
                    module._get_name(), "\n\t".join(msgs)
                )
            )
    saved: list[tuple[dict[str, Any], str, Any, bool]] = []
    try:
        for name, value in tensors.items():
            path, _, attr = name.rpartition(".")
            sub = module.get_submodule(path)
            if attr in sub._parameters:
                table: dict[str, Any] = sub._parameters
            elif attr in sub._buffers:
                table = sub._buffers
            else:
                # A new name: set as a plain attribute for the call, removed afterwards.
                table = sub.__dict__
            saved.append((table, attr, table.get(attr), attr in table))
            table[attr] = value  # direct: the value may be a plain tensor (not a Parameter)
        yield
    finally:
        for table, attr, old, existed in reversed(saved):
            if existed:
                table[attr] = old
            else:
                del table[attr]


def functional_call(
    module: Module,
    parameter_and_buffer_dicts: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Calls ``module(*args, **kwargs)`` with the named parameters/buffers replaced.

    The module is restored afterwards (also when the call raises). Gradients flow to the given
    tensors, which makes this the tool for per-sample gradients and meta-learning.

    Example:
        >>> lin = ember.nn.Linear(2, 1)
        >>> w = {"weight": ember.ones(1, 2), "bias": ember.zeros(1)}
        >>> ember.nn.utils.stateless.functional_call(lin, w, (ember.ones(1, 2),))
        tensor([[2.]])
    """
    tensors = _merge(parameter_and_buffer_dicts)
    for name, value in tensors.items():
        if not isinstance(value, Tensor) and value is not None:
            raise TypeError(
                f"[functional_call] expected a Tensor for '{name}', got {type(value).__name__}"
            )
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize(module, tensors, tie_weights, strict):
        return module(*args, **kwargs)
