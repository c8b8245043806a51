// The fused loss kernels as private functions of ember._C (ember.nn.functional gives them
// torch's public signatures, checks and reduction names).
#include "ember/ops/loss.h"

#include "python_api.h"

namespace ember::py {

void init_loss(nb::module_& m) {
  m.def(
      "_nn_binary_cross_entropy_with_logits",
      [](nb::handle input, nb::handle target, nb::handle weight, nb::handle pos_weight,
         nb::handle reduction) {
        const char* op = "nn_binary_cross_entropy_with_logits";
        return wrap(binary_cross_entropy_with_logits(
            tensor_argument(input, op, "input"), tensor_argument(target, op, "target"),
            to_optional_tensor(weight, op, "weight"),
            to_optional_tensor(pos_weight, op, "pos_weight"),
            int_argument(reduction, op, "reduction")));
      },
      nb::arg("input").none(), nb::arg("target").none(), nb::arg("weight").none() = nb::none(),
      nb::arg("pos_weight").none() = nb::none(), nb::arg("reduction").none() = 1,
      "Sigmoid + binary cross-entropy in one pass; reduction 0 none, 1 mean, 2 sum.");
  m.def(
      "_nn_binary_cross_entropy_with_logits_backward",
      [](nb::handle grad_output, nb::handle input, nb::handle target, nb::handle weight,
         nb::handle pos_weight, nb::handle reduction) {
        const char* op = "nn_binary_cross_entropy_with_logits_backward";
        return wrap(binary_cross_entropy_with_logits_backward(
            tensor_argument(grad_output, op, "grad_output"), tensor_argument(input, op, "input"),
            tensor_argument(target, op, "target"), to_optional_tensor(weight, op, "weight"),
            to_optional_tensor(pos_weight, op, "pos_weight"),
            int_argument(reduction, op, "reduction")));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("target").none(),
      nb::arg("weight").none() = nb::none(), nb::arg("pos_weight").none() = nb::none(),
      nb::arg("reduction").none() = 1,
      "The gradient of _nn_binary_cross_entropy_with_logits with respect to its input.");
}

}  // namespace ember::py
