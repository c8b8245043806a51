// The softmax backward and fused cross-entropy natives behind ember.nn.functional
// (src/ops_loss.cpp), as private functions of ember._C. Conversion only.
#include <string>

#include "python_api.h"

namespace ember::py {
namespace {

LossReduction reduction_arg(const std::string& r, const char* op) {
  if (r == "none") return LossReduction::None;
  if (r == "mean") return LossReduction::Mean;
  EMBER_CHECK(r == "sum", ValueError, "[", op, "] ", r, " is not a valid value for reduction");
  return LossReduction::Sum;
}

}  // namespace

void init_loss(nb::module_& m) {
  m.def(
      "_nn_softmax_backward",
      [](nb::handle grad_output, nb::handle output, int64_t dim, bool log) {
        const char* op = log ? "log_softmax_backward" : "softmax_backward";
        return wrap(softmax_backward(tensor_argument(grad_output, op, "grad_output"),
                                     tensor_argument(output, op, "output"), dim, log));
      },
      nb::arg("grad_output").none(), nb::arg("output").none(), nb::arg("dim"), nb::arg("log"),
      "The input gradient of softmax (log: log_softmax) along dim, from its output.");
  m.def(
      "_nn_cross_entropy",
      [](nb::handle input, nb::handle target, nb::handle weight, const std::string& reduction,
         int64_t ignore_index, double label_smoothing) {
        const char* op = "cross_entropy";
        auto [loss, lse, total] = cross_entropy_forward(
            tensor_argument(input, op, "input"), tensor_argument(target, op, "target"),
            weight.is_none() ? Tensor() : tensor_argument(weight, op, "weight"),
            reduction_arg(reduction, op), ignore_index, label_smoothing);
        return nb::make_tuple(wrap(loss), wrap(lse), wrap(total));
      },
      nb::arg("input").none(), nb::arg("target").none(), nb::arg("weight").none(),
      nb::arg("reduction"), nb::arg("ignore_index"), nb::arg("label_smoothing"),
      "Cross-entropy of logits [N, C, *] and class indices: (loss, logsumexp, total_weight).");
  m.def(
      "_nn_cross_entropy_backward",
      [](nb::handle grad, nb::handle input, nb::handle target, nb::handle weight,
         nb::handle logsumexp, nb::handle total_weight, const std::string& reduction,
         int64_t ignore_index, double label_smoothing) {
        const char* op = "cross_entropy_backward";
        return wrap(cross_entropy_backward(
            tensor_argument(grad, op, "grad"), tensor_argument(input, op, "input"),
            tensor_argument(target, op, "target"),
            weight.is_none() ? Tensor() : tensor_argument(weight, op, "weight"),
            tensor_argument(logsumexp, op, "logsumexp"),
            tensor_argument(total_weight, op, "total_weight"), reduction_arg(reduction, op),
            ignore_index, label_smoothing));
      },
      nb::arg("grad").none(), nb::arg("input").none(), nb::arg("target").none(),
      nb::arg("weight").none(), nb::arg("logsumexp").none(), nb::arg("total_weight").none(),
      nb::arg("reduction"), nb::arg("ignore_index"), nb::arg("label_smoothing"),
      "The input gradient of _nn_cross_entropy's loss, in one pass.");
  m.def(
      "_nn_binary_cross_entropy_with_logits",
      [](nb::handle input, nb::handle target, nb::handle weight, nb::handle pos_weight,
         const std::string& reduction) {
        const char* op = "nn_binary_cross_entropy_with_logits";
        return wrap(binary_cross_entropy_with_logits(
            tensor_argument(input, op, "input"), tensor_argument(target, op, "target"),
            to_optional_tensor(weight, op, "weight"),
            to_optional_tensor(pos_weight, op, "pos_weight"), reduction_arg(reduction, op)));
      },
      nb::arg("input").none(), nb::arg("target").none(), nb::arg("weight").none() = nb::none(),
      nb::arg("pos_weight").none() = nb::none(), nb::arg("reduction") = "mean",
      "Sigmoid + binary cross-entropy in one pass (reduction: none, mean or sum).");
  m.def(
      "_nn_binary_cross_entropy_with_logits_backward",
      [](nb::handle grad_output, nb::handle input, nb::handle target, nb::handle weight,
         nb::handle pos_weight, const std::string& reduction) {
        const char* op = "nn_binary_cross_entropy_with_logits_backward";
        return wrap(binary_cross_entropy_with_logits_backward(
            tensor_argument(grad_output, op, "grad_output"), tensor_argument(input, op, "input"),
            tensor_argument(target, op, "target"), to_optional_tensor(weight, op, "weight"),
            to_optional_tensor(pos_weight, op, "pos_weight"), reduction_arg(reduction, op)));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("target").none(),
      nb::arg("weight").none() = nb::none(), nb::arg("pos_weight").none() = nb::none(),
      nb::arg("reduction") = "mean",
      "The gradient of _nn_binary_cross_entropy_with_logits with respect to its input.");
}

}  // namespace ember::py
