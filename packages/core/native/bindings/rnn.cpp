// The fused LSTM/GRU cells behind ember.nn's recurrent layers, as private functions of ember._C
// (ember.nn's time loop owns autograd: these write into the buffers it hands over).
#include "python_api.h"

namespace ember::py {

void init_rnn(nb::module_& m) {
  m.def(
      "_nn_lstm_cell",
      [](nb::handle gates, nb::handle c_prev, nb::handle c_out, nb::handle h_out) {
        const char* op = "nn_lstm_cell";
        return wrap(
            lstm_cell(tensor_argument(gates, op, "gates"), tensor_argument(c_prev, op, "c_prev"),
                      tensor_argument(c_out, op, "c_out"), tensor_argument(h_out, op, "h_out")));
      },
      nb::arg("gates").none(), nb::arg("c_prev").none(), nb::arg("c_out").none(),
      nb::arg("h_out").none(),
      "One LSTM step from [B, 4H] gate pre-activations (activated in place): writes c_out and "
      "h_out [B, H]; returns h_out.");
  m.def(
      "_nn_lstm_cell_backward",
      [](nb::handle acts, nb::handle c, nb::handle c_prev, nb::handle dh, nb::handle dc,
         nb::handle grad_gates) {
        const char* op = "nn_lstm_cell_backward";
        return wrap(lstm_cell_backward(
            tensor_argument(acts, op, "acts"), tensor_argument(c, op, "c"),
            tensor_argument(c_prev, op, "c_prev"), tensor_argument(dh, op, "dh"),
            tensor_argument(dc, op, "dc"), tensor_argument(grad_gates, op, "grad_gates")));
      },
      nb::arg("acts").none(), nb::arg("c").none(), nb::arg("c_prev").none(), nb::arg("dh").none(),
      nb::arg("dc").none(), nb::arg("grad_gates").none(),
      "The backward of _nn_lstm_cell: writes grad_gates [B, 4H] and replaces dc with the "
      "gradient of c_prev; returns grad_gates.");
  m.def(
      "_nn_gru_cell",
      [](nb::handle x_gates, nb::handle h_gates, nb::handle h_prev, nb::handle acts_out,
         nb::handle hn_out, nb::handle h_out) {
        const char* op = "nn_gru_cell";
        return wrap(gru_cell(
            tensor_argument(x_gates, op, "x_gates"), tensor_argument(h_gates, op, "h_gates"),
            tensor_argument(h_prev, op, "h_prev"), tensor_argument(acts_out, op, "acts_out"),
            tensor_argument(hn_out, op, "hn_out"), tensor_argument(h_out, op, "h_out")));
      },
      nb::arg("x_gates").none(), nb::arg("h_gates").none(), nb::arg("h_prev").none(),
      nb::arg("acts_out").none(), nb::arg("hn_out").none(), nb::arg("h_out").none(),
      "One GRU step from [B, 3H] input-side and hidden-side gate pre-activations: writes "
      "acts_out (r, z, n), hn_out and h_out; returns h_out.");
  m.def(
      "_nn_gru_cell_backward",
      [](nb::handle acts, nb::handle hn, nb::handle h_prev, nb::handle dh, nb::handle grad_x,
         nb::handle grad_h, nb::handle dh_prev) {
        const char* op = "nn_gru_cell_backward";
        return wrap(gru_cell_backward(
            tensor_argument(acts, op, "acts"), tensor_argument(hn, op, "hn"),
            tensor_argument(h_prev, op, "h_prev"), tensor_argument(dh, op, "dh"),
            tensor_argument(grad_x, op, "grad_x"), tensor_argument(grad_h, op, "grad_h"),
            tensor_argument(dh_prev, op, "dh_prev")));
      },
      nb::arg("acts").none(), nb::arg("hn").none(), nb::arg("h_prev").none(), nb::arg("dh").none(),
      nb::arg("grad_x").none(), nb::arg("grad_h").none(), nb::arg("dh_prev").none(),
      "The backward of _nn_gru_cell: writes grad_x and grad_h [B, 3H] (the gradients of the "
      "two gate pre-activations) and dh_prev = dh * z; returns grad_h.");
}

}  // namespace ember::py
