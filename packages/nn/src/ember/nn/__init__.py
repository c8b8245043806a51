"""Neural-network modules, layers, losses and functional ops with PyTorch's API."""

# Module core, parameters, containers, linear layers, init, utils (branch nn-module).
from ember.nn import functional, init, parameter, utils

# Recurrent layers and attention (branch nn-seq).
from ember.nn.modules import (
    GRU,
    LSTM,
    RNN,
    Bilinear,
    Flatten,
    GRUCell,
    Identity,
    LazyLinear,
    LazyModuleMixin,
    Linear,
    LSTMCell,
    Module,
    ModuleDict,
    ModuleList,
    MultiheadAttention,
    ParameterDict,
    ParameterList,
    RNNBase,
    RNNCell,
    RNNCellBase,
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
    # nn-seq
    "GRU",
    "LSTM",
    "RNN",
    "GRUCell",
    "LSTMCell",
    "MultiheadAttention",
    "RNNBase",
    "RNNCell",
    "RNNCellBase",
]
