"""``skip_init``: build a module without running its parameter initialisation."""

from __future__ import annotations

import inspect
from typing import Any, TypeVar

from ember.nn.modules.module import Module

__all__ = ["skip_init"]

_M = TypeVar("_M", bound=Module)


def skip_init(module_cls: type[_M], *args: Any, **kwargs: Any) -> _M:
    """Constructs ``module_cls(*args, **kwargs)`` with uninitialized parameters and buffers.

    Example:
        >>> tuple(ember.nn.utils.skip_init(ember.nn.Linear, 5, 1).weight.shape)
        (1, 5)
    """
    if not issubclass(module_cls, Module):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    final_device = kwargs.pop("device", "cpu")
    # ember has no meta device: the module is built on the CPU, then its storage replaced.
    return module_cls(*args, device="cpu", **kwargs).to_empty(device=final_device)
