"""Module classes (torch.nn.modules): one block of re-exports per family."""

# Module core and containers (branch nn-module).
from ember.nn.modules.container import (
    Container,
    ModuleDict,
    ModuleList,
    ParameterDict,
    ParameterList,
    Sequential,
)
from ember.nn.modules.flatten import Flatten, Unflatten
from ember.nn.modules.lazy import LazyModuleMixin
from ember.nn.modules.linear import Bilinear, Identity, LazyLinear, Linear
from ember.nn.modules.module import Module

__all__ = [
    # nn-module
    "Bilinear",
    "Container",
    "Flatten",
    "Identity",
    "LazyLinear",
    "LazyModuleMixin",
    "Linear",
    "Module",
    "ModuleDict",
    "ModuleList",
    "ParameterDict",
    "ParameterList",
    "Sequential",
    "Unflatten",
]
