"""Neural-network modules, layers, losses and functional ops with PyTorch's API."""

# Module core, parameters, containers, linear layers, init, utils (branch nn-module).
from ember.nn import functional, init, parameter, utils
from ember.nn.modules import (
    Bilinear,
    Flatten,
    Identity,
    LazyLinear,
    LazyModuleMixin,
    Linear,
    Module,
    ModuleDict,
    ModuleList,
    ParameterDict,
    ParameterList,
    Sequential,
    Unflatten,
)
from ember.nn.parameter import Buffer, Parameter, UninitializedBuffer, UninitializedParameter

__all__ = [
    # nn-module
    "Bilinear",
    "Buffer",
    "Flatten",
    "Identity",
    "LazyLinear",
    "LazyModuleMixin",
    "Linear",
    "Module",
    "ModuleDict",
    "ModuleList",
    "Parameter",
    "ParameterDict",
    "ParameterList",
    "Sequential",
    "UninitializedBuffer",
    "UninitializedParameter",
    "Unflatten",
    "functional",
    "init",
    "parameter",
    "utils",
]
