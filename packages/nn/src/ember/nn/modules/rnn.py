"""Recurrent layers: RNN, LSTM, GRU and their single-step cells, with torch's parameters.

Each layer projects the inputs of all time steps with one GEMM, then runs the recurrence as one
autograd node per layer and direction (``ember.nn._functional.recurrent``). Inputs may be padded
tensors (``(T, B, F)``, ``(B, T, F)`` with ``batch_first``, or unbatched ``(T, F)``) or a
``PackedSequence``; the output has the same form.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, overload

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional._checks import check_optional_tensors, check_tensor, check_tensors
from ember.nn._functional.dropout import dropout
from ember.nn._functional.recurrent import recurrent_layer
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter
from ember.nn.utils.rnn import PackedSequence

__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell", "RNNCellBase"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _init_uniform(module: Module, hidden_size: int) -> None:
    # torch's init for every recurrent weight and bias: U(-1/sqrt(hidden), 1/sqrt(hidden)).
    bound = 1.0 / math.sqrt(hidden_size) if hidden_size > 0 else 0.0
    with no_grad():
        for weight in module.parameters():
            weight.uniform_(-bound, bound)


class RNNBase(Module):
    """The shared machinery of :class:`RNN`, :class:`LSTM` and :class:`GRU`.

    Args:
        mode: ``"LSTM"``, ``"GRU"``, ``"RNN_TANH"`` or ``"RNN_RELU"``.
        input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
        proj_size, device, dtype: as in :class:`LSTM`.
    """

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if mode not in _GATES:
            raise ValueError(f"Unrecognized RNN mode: {mode}")
        if (
            not isinstance(dropout, numbers.Number)
            or isinstance(dropout, bool)
            or not 0 <= float(dropout) <= 1
        ):
            raise ValueError(
                "dropout should be a number in range [0, 1] representing the probability of an "
                "element being zeroed"
            )
        if float(dropout) > 0 and num_layers == 1:
            warnings.warn(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                "dropout expects num_layers greater than 1, but got "
                f"dropout={dropout} and num_layers={num_layers}",
                stacklevel=2,
            )
        if not isinstance(hidden_size, int) or isinstance(hidden_size, bool):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        gate_size = _GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        real_hidden = proj_size if proj_size > 0 else hidden_size
        names: list[str] = []
        for layer in range(num_layers):
            for direction in range(directions):
                layer_input = input_size if layer == 0 else real_hidden * directions
                suffix = "_reverse" if direction == 1 else ""
                shapes: list[tuple[str, tuple[int, ...]]] = [
                    (f"weight_ih_l{layer}{suffix}", (gate_size, layer_input)),
                    (f"weight_hh_l{layer}{suffix}", (gate_size, real_hidden)),
                ]
                if bias:
                    shapes += [
                        (f"bias_ih_l{layer}{suffix}", (gate_size,)),
                        (f"bias_hh_l{layer}{suffix}", (gate_size,)),
                    ]
                if proj_size > 0:
                    shapes.append((f"weight_hr_l{layer}{suffix}", (proj_size, hidden_size)))
                for name, shape in shapes:
                    setattr(self, name, Parameter(ember.empty(shape, dtype=dtype, device=device)))
                    names.append(name)
        self._flat_weights_names = names
        self._all_weights = [
            names[i : i + len(names) // (num_layers * directions)]
            for i in range(0, len(names), len(names) // (num_layers * directions))
        ]
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Tensor]:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters grouped by layer and direction, in torch's order."""
        return [[getattr(self, name) for name in group] for group in self._all_weights]

    def flatten_parameters(self) -> None:
        """No-op: ember keeps no fused weight buffer (torch compacts weights for cuDNN here)."""

    def reset_parameters(self) -> None:
        """Re-draws every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _init_uniform(self, self.hidden_size)

    def extra_repr(self) -> str:
        """``input_size, hidden_size`` and every non-default option, as torch prints them."""
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout:g}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _name(self) -> str:
        return type(self).__name__

    def _check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None:
        expected_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_dim:
            raise RuntimeError(
                f"{self._name()}: input must have {expected_dim} dimensions, got "
                f"{input.dim()} (shape {tuple(input.size())})"
            )
        if self.input_size != input.size()[-1]:
            raise RuntimeError(
                f"{self._name()}: input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.size()[-1]}"
            )

    def _check_hidden(self, hx: Tensor, expected: tuple[int, ...], what: str) -> None:
        if tuple(hx.size()) != expected:
            raise RuntimeError(
                f"{self._name()}: Expected {what} size {expected}, got {list(hx.size())}"
            )

    def _run(
        self,
        data: Tensor,
        batch_sizes: list[int],
        h0: Tensor,
        c0: Tensor | None,
    ) -> tuple[Tensor, Tensor, Tensor | None]:
        """All layers over packed rows ``data``; h0/c0 are ``(layers * dirs, B, *)``."""
        directions = 2 if self.bidirectional else 1
        weights = self._flat_weights
        per_dir = len(weights) // (self.num_layers * directions)
        gru = self.mode == "GRU"
        h_finals: list[Tensor] = []
        c_finals: list[Tensor] = []
        layer_input = data
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                idx = layer * directions + direction
                group = weights[idx * per_dir : (idx + 1) * per_dir]
                w_ih, w_hh = group[0], group[1]
                b_ih = group[2] if self.bias else None
                b_hh = group[3] if self.bias else None
                w_hr = group[-1] if self.proj_size > 0 else None
                bias_in = b_ih if gru or b_ih is None or b_hh is None else b_ih + b_hh
                if bias_in is None:
                    xp = ember.matmul(layer_input, w_ih.t())
                else:
                    xp = ember.addmm(bias_in, layer_input, w_ih.t())
                out, h_n, c_n = recurrent_layer(
                    xp,
                    h0[idx],
                    None if c0 is None else c0[idx],
                    w_hh,
                    b_hh if gru else None,
                    w_hr,
                    self.mode,
                    direction == 1,
                    batch_sizes,
                )
                outputs.append(out)
                h_finals.append(h_n)
                if c_n is not None:
                    c_finals.append(c_n)
            layer_input = outputs[0] if directions == 1 else ember.cat(outputs, dim=1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_input = dropout(layer_input, self.dropout)
        h_n_all = ember.stack(h_finals)
        c_n_all = ember.stack(c_finals) if c_finals else None
        return layer_input, h_n_all, c_n_all

    def _forward_impl(
        self, input: Tensor | PackedSequence, hx: Tensor | tuple[Tensor, Tensor] | None
    ) -> tuple[Tensor | PackedSequence, Tensor, Tensor | None]:
        if not isinstance(input, PackedSequence):
            check_tensor(input, "input", self)
        lstm = self.mode == "LSTM"
        directions = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        packed = isinstance(input, PackedSequence)
        unbatched = False
        sorted_indices = unsorted_indices = None
        if isinstance(input, PackedSequence):
            data, sizes_t, sorted_indices, unsorted_indices = input
            self._check_input(data, sizes_t)
            batch_sizes = [int(b) for b in sizes_t.tolist()]
            batch = batch_sizes[0] if batch_sizes else 0
        else:
            if input.dim() not in (2, 3):
                raise ValueError(
                    f"{self._name()}: Expected input to be 2D or 3D, got {input.dim()}D "
                    f"instead (shape {tuple(input.size())})"
                )
            unbatched = input.dim() == 2
            seq = input.unsqueeze(1) if unbatched else input
            if self.batch_first and not unbatched:
                seq = seq.transpose(0, 1)
            self._check_input(seq, None)
            steps, batch = seq.size()[0], seq.size()[1]
            batch_sizes = [batch] * steps
            data = seq.reshape(steps * batch, seq.size()[2])
        h_shape = (self.num_layers * directions, batch, real_hidden)
        c_shape = (self.num_layers * directions, batch, self.hidden_size)
        h0: Tensor
        c0: Tensor | None = None
        if hx is None:
            h0 = ember.zeros(h_shape, dtype=data.dtype, device=data.device)
            if lstm:
                c0 = ember.zeros(c_shape, dtype=data.dtype, device=data.device)
        else:
            if lstm:
                if not isinstance(hx, tuple) or len(hx) != 2:
                    raise RuntimeError(
                        f"{self._name()}: hx must be a tuple (h_0, c_0), got {type(hx).__name__}"
                    )
                h0, c0 = hx
            else:
                if isinstance(hx, tuple):
                    raise RuntimeError(f"{self._name()}: hx must be a Tensor, not a tuple")
                h0 = hx
            check_tensors(self, h_0=h0)
            check_optional_tensors(self, c_0=c0)
            want = 2 if unbatched else 3
            if h0.dim() != want or (c0 is not None and c0.dim() != want):
                kind = "unbatched 2-D" if unbatched else "batched 3-D"
                got = f"{h0.dim()}-D" if c0 is None else f"({h0.dim()}-D, {c0.dim()}-D)"
                raise RuntimeError(
                    f"{self._name()}: For {kind} input, hx should also be {want}-D but got "
                    f"{got} tensor"
                )
            if unbatched:
                h0 = h0.unsqueeze(1)
                c0 = None if c0 is None else c0.unsqueeze(1)
            if sorted_indices is not None:
                h0 = h0.index_select(1, sorted_indices)
                c0 = None if c0 is None else c0.index_select(1, sorted_indices)
            self._check_hidden(h0, h_shape, "hidden[0]" if lstm else "hidden")
            if c0 is not None:
                self._check_hidden(c0, c_shape, "hidden[1]")
        out, h_n, c_n = self._run(data, batch_sizes, h0, c0)
        if unsorted_indices is not None:
            h_n = h_n.index_select(1, unsorted_indices)
            c_n = None if c_n is None else c_n.index_select(1, unsorted_indices)
        if packed:
            assert isinstance(input, PackedSequence)
            result: Tensor | PackedSequence = PackedSequence(
                out, input.batch_sizes, sorted_indices, unsorted_indices
            )
            return result, h_n, c_n
        steps = len(batch_sizes)
        seq_out = out.reshape(steps, batch, out.size()[-1])
        if unbatched:
            return seq_out.squeeze(1), h_n.squeeze(1), None if c_n is None else c_n.squeeze(1)
        if self.batch_first:
            seq_out = seq_out.transpose(0, 1)
        return seq_out, h_n, c_n


class RNN(RNNBase):
    """Elman RNN: ``h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)``, act tanh or relu.

    Args:
        input_size: features of the input.
        hidden_size: features of the hidden state.
        num_layers: stacked layers.
        nonlinearity: ``"tanh"`` or ``"relu"``.
        bias: whether to use ``b_ih`` and ``b_hh``.
        batch_first: inputs/outputs are ``(B, T, F)``.
        dropout: dropout on the outputs of every layer but the last (training only).
        bidirectional: adds a reverse-direction layer at each level.

    Example:
        >>> rnn = ember.nn.RNN(10, 20, 2)
        >>> out, h_n = rnn(ember.randn(5, 3, 10))
        >>> out.shape, h_n.shape
        (ember.Size([5, 3, 20]), ember.Size([2, 3, 20]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(
            mode, input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, 0, device, dtype,
        )  # fmt: skip
        self.nonlinearity = nonlinearity

    @overload
    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]: ...
    @overload
    def forward(
        self, input: PackedSequence, hx: Tensor | None = None
    ) -> tuple[PackedSequence, Tensor]: ...
    def forward(self, input: Any, hx: Tensor | None = None) -> tuple[Any, Tensor]:
        """Runs the layers; returns ``(output, h_n)``."""
        out, h_n, _ = self._forward_impl(input, hx)
        return out, h_n


class LSTM(RNNBase):
    """Long short-term memory layers, torch's equations, gates ordered (i, f, g, o).

    Args:
        input_size: features of the input.
        hidden_size: features of the cell state.
        num_layers: stacked layers.
        bias: whether to use ``b_ih`` and ``b_hh``.
        batch_first: inputs/outputs are ``(B, T, F)``.
        dropout: dropout on the outputs of every layer but the last (training only).
        bidirectional: adds a reverse-direction layer at each level.
        proj_size: if > 0, ``h_t = W_hr (o_t * tanh(c_t))`` has ``proj_size`` features.

    Example:
        >>> lstm = ember.nn.LSTM(10, 20, 2, batch_first=True)
        >>> out, (h_n, c_n) = lstm(ember.randn(3, 5, 10))
        >>> out.shape, c_n.shape
        (ember.Size([3, 5, 20]), ember.Size([2, 3, 20]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            "LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, proj_size, device, dtype,
        )  # fmt: skip

    @overload
    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]: ...
    @overload
    def forward(
        self, input: PackedSequence, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[PackedSequence, tuple[Tensor, Tensor]]: ...
    def forward(
        self, input: Any, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Any, tuple[Tensor, Tensor]]:
        """Runs the layers; returns ``(output, (h_n, c_n))``."""
        out, h_n, c_n = self._forward_impl(input, hx)
        assert c_n is not None
        return out, (h_n, c_n)


class GRU(RNNBase):
    """Gated recurrent unit layers, torch's equations, gates ordered (r, z, n).

    ``n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_{t-1} + b_hn))``,
    ``h_t = (1 - z_t) * n_t + z_t * h_{t-1}``.

    Args:
        input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional:
            as in :class:`LSTM`.

    Example:
        >>> gru = ember.nn.GRU(10, 20)
        >>> out, h_n = gru(ember.randn(5, 3, 10))
        >>> h_n.shape
        ember.Size([1, 3, 20])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            "GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, 0, device, dtype,
        )  # fmt: skip

    @overload
    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]: ...
    @overload
    def forward(
        self, input: PackedSequence, hx: Tensor | None = None
    ) -> tuple[PackedSequence, Tensor]: ...
    def forward(self, input: Any, hx: Tensor | None = None) -> tuple[Any, Tensor]:
        """Runs the layers; returns ``(output, h_n)``."""
        out, h_n, _ = self._forward_impl(input, hx)
        return out, h_n


class RNNCellBase(Module):
    """Shared parameters and checks of the single-step cells."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(
            ember.empty((num_chunks * hidden_size, input_size), dtype=dtype, device=device)
        )
        self.weight_hh = Parameter(
            ember.empty((num_chunks * hidden_size, hidden_size), dtype=dtype, device=device)
        )
        if bias:
            self.bias_ih = Parameter(
                ember.empty((num_chunks * hidden_size,), dtype=dtype, device=device)
            )
            self.bias_hh = Parameter(
                ember.empty((num_chunks * hidden_size,), dtype=dtype, device=device)
            )
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-draws every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        _init_uniform(self, self.hidden_size)

    def extra_repr(self) -> str:
        """``input_size, hidden_size`` plus non-default options, as torch prints them."""
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _step(
        self, mode: str, input: Tensor, hx: Tensor | None, cx: Tensor | None
    ) -> tuple[Tensor, Tensor | None]:
        name = type(self).__name__
        check_tensor(input, "input", self)
        check_optional_tensors(self, hx=hx, cx=cx)
        if input.dim() not in (1, 2):
            raise ValueError(
                f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead "
                f"(shape {tuple(input.size())})"
            )
        if input.size()[-1] != self.input_size:
            raise RuntimeError(
                f"{name}: input has inconsistent input_size: got {input.size()[-1]} expected "
                f"{self.input_size}"
            )
        unbatched = input.dim() == 1
        x = input.unsqueeze(0) if unbatched else input
        batch = x.size()[0]
        states: list[Tensor | None] = []
        for state in (hx, cx):
            if state is None:
                states.append(None)
                continue
            if state.dim() != input.dim():
                raise RuntimeError(
                    f"{name}: hidden state must be {input.dim()}-D like the input, got shape "
                    f"{tuple(state.size())}"
                )
            s = state.unsqueeze(0) if unbatched else state
            if s.size()[0] != batch:
                raise RuntimeError(
                    f"{name}: Input batch size {batch} doesn't match hidden0 batch size "
                    f"{s.size()[0]}"
                )
            if s.size()[1] != self.hidden_size:
                raise RuntimeError(
                    f"{name}: hidden0 has inconsistent hidden_size: got {s.size()[1]}, "
                    f"expected {self.hidden_size}"
                )
            states.append(s)
        h0 = states[0]
        if h0 is None:
            h0 = ember.zeros((batch, self.hidden_size), dtype=x.dtype, device=x.device)
        c0 = states[1]
        if mode == "LSTM" and c0 is None:
            c0 = ember.zeros((batch, self.hidden_size), dtype=x.dtype, device=x.device)
        b_ih: Tensor | None = self.bias_ih
        b_hh: Tensor | None = self.bias_hh
        gru = mode == "GRU"
        bias_in = b_ih if gru or b_ih is None or b_hh is None else b_ih + b_hh
        w_ih: Tensor = self.weight_ih
        xp = ember.matmul(x, w_ih.t()) if bias_in is None else ember.addmm(bias_in, x, w_ih.t())
        h, _, c = recurrent_layer(
            xp, h0, c0, self.weight_hh, b_hh if gru else None, None, mode, False, [batch]
        )
        if unbatched:
            return h.squeeze(0), None if c is None else c.squeeze(0)
        return h, c


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: ``h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)``.

    Example:
        >>> cell = ember.nn.RNNCell(10, 20)
        >>> cell(ember.randn(3, 10)).shape
        ember.Size([3, 20])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """Returns the next hidden state."""
        mode = "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"
        return self._step(mode, input, hx, None)[0]


class LSTMCell(RNNCellBase):
    """One LSTM step; returns ``(h', c')``.

    Example:
        >>> cell = ember.nn.LSTMCell(10, 20)
        >>> h, c = cell(ember.randn(3, 10))
        >>> c.shape
        ember.Size([3, 20])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, Tensor]:
        """Returns ``(h', c')``; ``hx`` defaults to zeros."""
        h0, c0 = (None, None) if hx is None else hx
        h, c = self._step("LSTM", input, h0, c0)
        assert c is not None
        return h, c


class GRUCell(RNNCellBase):
    """One GRU step; returns ``h'``.

    Example:
        >>> cell = ember.nn.GRUCell(10, 20)
        >>> cell(ember.randn(10)).shape
        ember.Size([20])
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        """Returns the next hidden state."""
        return self._step("GRU", input, hx, None)[0]
