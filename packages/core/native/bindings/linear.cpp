// The fully connected layer as a private function of ember._C (ember.nn.functional.linear gives
// it torch's public signature and checks).
#include "ember/ops/linear.h"

#include "python_api.h"

namespace ember::py {

void init_linear(nb::module_& m) {
  m.def(
      "_nn_linear",
      [](nb::handle input, nb::handle weight, nb::handle bias) {
        const char* op = "nn_linear";
        return wrap(linear(tensor_argument(input, op, "input"),
                           tensor_argument(weight, op, "weight"),
                           to_optional_tensor(bias, op, "bias")));
      },
      nb::arg("input").none(), nb::arg("weight").none(), nb::arg("bias").none() = nb::none(),
      "input [*, in] @ weight[out, in]^T + bias[out] -> [*, out], one GEMM.");
}

}  // namespace ember::py
