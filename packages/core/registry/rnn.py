"""The rnn family (fields: registry/_schema.py).

The fused cells behind ember.nn's LSTM and GRU layers and cells: the caller computes the gate
pre-activations with GEMMs, each cell op does the nonlinearities and the state update of one
time step in one pass, writing into the caller's buffers (ember.nn's time loop is the autograd
node, so these carry no gradients of their own).
"""

from registry._schema import Op

OPS = [
    Op(
        "_nn_lstm_cell",
        function="(gates: Tensor, c_prev: Tensor, c_out: Tensor, h_out: Tensor) -> Tensor",
        grad="none",
        doc=(
            "One LSTM step: activates [B, 4H] gates (i, f, g, o) in place, writes "
            "c_out = f * c_prev + i * g and h_out = o * tanh(c_out); returns h_out."
        ),
        example=(
            ">>> gates = ember.zeros(1, 4)\n"
            ">>> c, h = ember.empty(1, 1), ember.empty(1, 1)\n"
            ">>> _ = ember._C._nn_lstm_cell(gates, ember.ones(1, 1), c, h)\n"
            ">>> gates.tolist(), c.item()  # sigmoid(0) = 0.5, tanh(0) = 0\n"
            "([[0.5, 0.5, 0.0, 0.5]], 0.5)"
        ),
    ),
    Op(
        "_nn_lstm_cell_backward",
        function=(
            "(acts: Tensor, c: Tensor, c_prev: Tensor, dh: Tensor, dc: Tensor, "
            "grad_gates: Tensor) -> Tensor"
        ),
        grad="none",
        doc=(
            "The backward of _nn_lstm_cell: writes the [B, 4H] gradient of the gate "
            "pre-activations into grad_gates and replaces dc with the gradient of c_prev."
        ),
    ),
    Op(
        "_nn_gru_cell",
        function=(
            "(x_gates: Tensor, h_gates: Tensor, h_prev: Tensor, acts_out: Tensor, "
            "hn_out: Tensor, h_out: Tensor) -> Tensor"
        ),
        grad="none",
        doc=(
            "One GRU step from [B, 3H] input-side and hidden-side pre-activations (r, z, n): "
            "writes acts_out, hn_out (the hidden side's n part) and h_out; returns h_out."
        ),
    ),
    Op(
        "_nn_gru_cell_backward",
        function=(
            "(acts: Tensor, hn: Tensor, h_prev: Tensor, dh: Tensor, grad_x: Tensor, "
            "grad_h: Tensor, dh_prev: Tensor) -> Tensor"
        ),
        grad="none",
        doc=(
            "The backward of _nn_gru_cell: writes the gradients of both pre-activations into "
            "grad_x and grad_h and dh * z into dh_prev; returns grad_h."
        ),
    ),
]
