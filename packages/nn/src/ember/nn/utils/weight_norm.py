"""Legacy hook-based ``weight_norm`` / ``remove_weight_norm`` (torch.nn.utils.weight_norm).

Prefer ``ember.nn.utils.parametrizations.weight_norm``; this form keeps torch's older
state-dict keys ``weight_g`` / ``weight_v``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ember.nn._functional._checks import check_module
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter
from ember.nn.utils.parametrizations import _norm_except_dim

__all__ = ["WeightNorm", "remove_weight_norm", "weight_norm"]

_M = TypeVar("_M", bound=Module)


class WeightNorm:
    """The forward pre-hook that recomputes ``weight`` from ``weight_g`` and ``weight_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return v * (g / _norm_except_dim(v, self.dim))

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> WeightNorm:
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(_norm_except_dim(weight, fn.dim).detach()))
        module.register_parameter(name + "_v", Parameter(weight.detach()))
        object.__setattr__(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: Module, inputs: Any) -> None:
        object.__setattr__(module, self.name, self.compute_weight(module))


def weight_norm(module: _M, name: str = "weight", dim: int = 0) -> _M:
    """Adds ``<name>_g`` (magnitude) and ``<name>_v`` (direction); ``<name>`` is recomputed
    before every forward.

    Example:
        >>> m = ember.nn.utils.weight_norm(ember.nn.Linear(20, 40), name="weight")
        >>> tuple(m.weight_g.shape), tuple(m.weight_v.shape)
        ((40, 1), (40, 20))
    """
    check_module(module, "module", "weight_norm")
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: _M, name: str = "weight") -> _M:
    """Removes the weight-norm reparametrization, leaving the current weight as a Parameter.

    Example:
        >>> m = ember.nn.utils.remove_weight_norm(ember.nn.utils.weight_norm(ember.nn.Linear(2, 2)))
        >>> sorted(n for n, _ in m.named_parameters())
        ['bias', 'weight']
    """
    check_module(module, "module", "remove_weight_norm")
    hooks = module._forward_pre_hooks
    for k, hook in list(hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
