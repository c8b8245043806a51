"""Neural-network modules, layers, losses and functional ops with PyTorch's API."""

# Module core, parameters, containers, linear layers, init, utils (branch nn-module).
from ember.nn import functional, init, parameter, utils
from ember.nn._factory import factory_kwargs
from ember.nn.modules import (
    Bilinear,
    Container,
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
    "Container",
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
    "factory_kwargs",
    "functional",
    "init",
    "parameter",
    "utils",
]
