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

# Recurrent layers, attention, transformers (branch nn-seq).
from ember.nn.modules.attention import MultiheadAttention
from ember.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from ember.nn.modules.transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
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
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
]
