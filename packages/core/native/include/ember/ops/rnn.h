// Fused LSTM and GRU cells: given the gate pre-activations of one time step (the GEMMs are done
// by the caller), one pass applies the gate nonlinearities and the state update for a whole
// [batch, gates * hidden] block and writes what backward needs; each backward is one pass too.
// Every tensor is 2-D [batch, *] float32 or float64 with unit stride along its rows; outputs are
// written in place (views into the caller's per-sequence buffers).
#pragma once

#include "ember/tensor.h"

namespace ember {

// gates [B, 4H] (i, f, g, o pre-activations; overwritten with the activated gates), c_prev
// [B, H] -> c_out = f * c_prev + i * g and h_out = o * tanh(c_out); returns h_out.
Tensor lstm_cell(const Tensor& gates, const Tensor& c_prev, const Tensor& c_out,
                 const Tensor& h_out);
// acts [B, 4H] (activated gates), c [B, H] (the step's cell), c_prev [B, H], dh [B, H] (the
// gradient of h_out), dc [B, H] (of c_out; overwritten with the gradient of c_prev) ->
// grad_gates [B, 4H] (the gradient of the pre-activations); returns grad_gates.
Tensor lstm_cell_backward(const Tensor& acts, const Tensor& c, const Tensor& c_prev,
                          const Tensor& dh, const Tensor& dc, const Tensor& grad_gates);
// x_gates, h_gates [B, 3H] (x W_ih^T + b_ih and h W_hh^T + b_hh, gates r, z, n), h_prev [B, H]
// -> acts_out [B, 3H] (r, z, n), hn_out [B, H] (h_gates' n part, for backward) and h_out =
// n + z * (h_prev - n); returns h_out.
Tensor gru_cell(const Tensor& x_gates, const Tensor& h_gates, const Tensor& h_prev,
                const Tensor& acts_out, const Tensor& hn_out, const Tensor& h_out);
// acts [B, 3H], hn [B, H], h_prev [B, H], dh [B, H] -> grad_x [B, 3H] and grad_h [B, 3H] (the
// gradients of x_gates and h_gates) and dh_prev [B, H] = dh * z (h_prev's direct share; the
// caller adds grad_h @ W_hh); returns grad_h.
Tensor gru_cell_backward(const Tensor& acts, const Tensor& hn, const Tensor& h_prev,
                         const Tensor& dh, const Tensor& grad_x, const Tensor& grad_h,
                         const Tensor& dh_prev);

}  // namespace ember
