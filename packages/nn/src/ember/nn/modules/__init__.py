"""Module classes (torch.nn.modules): one block of re-exports per family."""

# Module core and containers (branch nn-module); attention, rnn, transformer: branch nn-seq.
from ember.nn.modules.attention import MultiheadAttention
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
from ember.nn.modules.rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from ember.nn.modules.transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

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
