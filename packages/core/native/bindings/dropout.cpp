// Dropout as private functions of ember._C (ember.nn.functional.dropout checks torch's arguments
// and routes contiguous floating-point inputs here).
#include "ember/ops/dropout.h"

#include "python_api.h"

namespace ember::py {

void init_dropout(nb::module_& m) {
  m.def(
      "_nn_dropout",
      [](nb::handle input, double p, nb::handle generator) {
        const char* op = "nn_dropout";
        auto [out, mask] =
            dropout(tensor_argument(input, op, "input"), p, to_generator(generator, op));
        return nb::make_tuple(wrap(out), wrap(mask));
      },
      nb::arg("input").none(), nb::arg("p"), nb::arg("generator").none() = nb::none(),
      "(output, mask): input with each element zeroed with probability p and the rest scaled by "
      "1 / (1 - p); mask holds the keep bits, 8 per byte.");
  m.def(
      "_nn_dropout_backward",
      [](nb::handle grad_output, nb::handle mask, double p) {
        const char* op = "nn_dropout_backward";
        return wrap(dropout_backward(tensor_argument(grad_output, op, "grad_output"),
                                     tensor_argument(mask, op, "mask"), p));
      },
      nb::arg("grad_output").none(), nb::arg("mask").none(), nb::arg("p"),
      "grad_output scaled by 1 / (1 - p) where _nn_dropout's mask kept the element, else 0.");
}

}  // namespace ember::py
