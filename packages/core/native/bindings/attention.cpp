// The fused attention behind ember.nn.functional.scaled_dot_product_attention, as private
// functions of ember._C (ember.nn's autograd Function pairs forward and backward).
#include "python_api.h"

namespace ember::py {
namespace {

Tensor optional_mask(nb::handle mask, const char* op) {
  return mask.is_none() ? Tensor() : tensor_argument(mask, op, "mask");
}

}  // namespace

void init_attention(nb::module_& m) {
  m.def(
      "_nn_flash_attention",
      [](nb::handle query, nb::handle key, nb::handle value, nb::handle mask, bool is_causal,
         double scale) {
        const char* op = "nn_flash_attention";
        auto [out, lse] = flash_attention(
            tensor_argument(query, op, "query"), tensor_argument(key, op, "key"),
            tensor_argument(value, op, "value"), optional_mask(mask, op), is_causal, scale);
        return nb::make_tuple(wrap(out), wrap(lse));
      },
      nb::arg("query").none(), nb::arg("key").none(), nb::arg("value").none(),
      nb::arg("mask").none(), nb::arg("is_causal"), nb::arg("scale"),
      "Tiled softmax(q k^T * scale + mask) v over [B, H, L, E] inputs: (out [B, H, L, Ev], row "
      "logsumexp [B, H, L]).");
  m.def(
      "_nn_flash_attention_backward",
      [](nb::handle grad_out, nb::handle query, nb::handle key, nb::handle value, nb::handle out,
         nb::handle lse, nb::handle mask, bool is_causal, double scale) {
        const char* op = "nn_flash_attention_backward";
        auto [dq, dk, dv] = flash_attention_backward(
            tensor_argument(grad_out, op, "grad_out"), tensor_argument(query, op, "query"),
            tensor_argument(key, op, "key"), tensor_argument(value, op, "value"),
            tensor_argument(out, op, "out"), tensor_argument(lse, op, "lse"),
            optional_mask(mask, op), is_causal, scale);
        return nb::make_tuple(wrap(dq), wrap(dk), wrap(dv));
      },
      nb::arg("grad_out").none(), nb::arg("query").none(), nb::arg("key").none(),
      nb::arg("value").none(), nb::arg("out").none(), nb::arg("lse").none(), nb::arg("mask").none(),
      nb::arg("is_causal"), nb::arg("scale"),
      "The gradients (dq, dk, dv) of _nn_flash_attention, recomputing each tile's "
      "probabilities from lse.");
}

}  // namespace ember::py
