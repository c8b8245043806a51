// The normalization natives behind ember.nn.functional's layer_norm, rms_norm, group_norm and
// batch_norm (src/ops_norm.cpp), as private functions of ember._C. Conversion only.
#include "python_api.h"

namespace ember::py {
namespace {

Tensor optional_arg(nb::handle h, const char* op, const char* arg) {
  return h.is_none() ? Tensor() : tensor_argument(h, op, arg);
}

nb::object maybe(const Tensor& t) { return t.defined() ? wrap(t) : nb::none(); }

nb::object wrap3(const Tensor3& r) {
  return nb::make_tuple(maybe(std::get<0>(r)), maybe(std::get<1>(r)), maybe(std::get<2>(r)));
}

// output_mask: which of (input, weight, bias) the backward pass computes.
GradMask mask_arg(nb::handle h, const char* op, size_t n) {
  EMBER_CHECK(nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h), TypeError, "[", op,
              "] argument 'output_mask' must be a sequence of ", n, " bools, not ",
              nb::type_name(h.type()).c_str());
  GradMask m{false, false, false};
  EMBER_CHECK(nb::len(h) == n, ValueError, "[", op, "] output_mask must hold ", n, " bools, got ",
              nb::len(h));
  size_t i = 0;
  for (nb::handle item : h) m[i++] = nb::cast<bool>(item);
  return m;
}

}  // namespace

void init_norm(nb::module_& m) {
  m.def(
      "_nn_layer_norm",
      [](nb::handle input, nb::handle weight, nb::handle bias, int64_t normalized_ndim,
         double eps) {
        const char* op = "layer_norm";
        return wrap3(layer_norm_forward(
            tensor_argument(input, op, "input"), optional_arg(weight, op, "weight"),
            optional_arg(bias, op, "bias"), normalized_ndim, eps, false));
      },
      nb::arg("input").none(), nb::arg("weight").none(), nb::arg("bias").none(),
      nb::arg("normalized_ndim"), nb::arg("eps"),
      "Layer norm over the last normalized_ndim dims: (output, mean, rstd).");
  m.def(
      "_nn_layer_norm_backward",
      [](nb::handle grad_output, nb::handle input, nb::handle weight, int64_t normalized_ndim,
         double eps, nb::handle output_mask) {
        const char* op = "layer_norm_backward";
        return wrap3(layer_norm_backward(tensor_argument(grad_output, op, "grad_output"),
                                         tensor_argument(input, op, "input"),
                                         optional_arg(weight, op, "weight"), normalized_ndim, eps,
                                         false, mask_arg(output_mask, op, 3)));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("weight").none(),
      nb::arg("normalized_ndim"), nb::arg("eps"), nb::arg("output_mask").none(),
      "(grad_input, grad_weight, grad_bias) of _nn_layer_norm (statistics recomputed), None "
      "where output_mask is False.");
  m.def(
      "_nn_rms_norm",
      [](nb::handle input, nb::handle weight, int64_t normalized_ndim, double eps) {
        const char* op = "rms_norm";
        const Tensor3 r = layer_norm_forward(tensor_argument(input, op, "input"),
                                             optional_arg(weight, op, "weight"), Tensor(),
                                             normalized_ndim, eps, true);
        return nb::make_tuple(wrap(std::get<0>(r)), wrap(std::get<2>(r)));
      },
      nb::arg("input").none(), nb::arg("weight").none(), nb::arg("normalized_ndim"), nb::arg("eps"),
      "RMS norm over the last normalized_ndim dims: (output, rstd).");
  m.def(
      "_nn_rms_norm_backward",
      [](nb::handle grad_output, nb::handle input, nb::handle weight, int64_t normalized_ndim,
         double eps, nb::handle output_mask) {
        const char* op = "rms_norm_backward";
        GradMask mask = mask_arg(output_mask, op, 2);
        const Tensor3 r = layer_norm_backward(tensor_argument(grad_output, op, "grad_output"),
                                              tensor_argument(input, op, "input"),
                                              optional_arg(weight, op, "weight"), normalized_ndim,
                                              eps, true, {mask[0], mask[1], false});
        return nb::make_tuple(maybe(std::get<0>(r)), maybe(std::get<1>(r)));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("weight").none(),
      nb::arg("normalized_ndim"), nb::arg("eps"), nb::arg("output_mask").none(),
      "(grad_input, grad_weight) of _nn_rms_norm, None where output_mask is False.");
  m.def(
      "_nn_group_norm",
      [](nb::handle input, nb::handle weight, nb::handle bias, int64_t num_groups, double eps) {
        const char* op = "group_norm";
        return wrap3(group_norm_forward(tensor_argument(input, op, "input"),
                                        optional_arg(weight, op, "weight"),
                                        optional_arg(bias, op, "bias"), num_groups, eps));
      },
      nb::arg("input").none(), nb::arg("weight").none(), nb::arg("bias").none(),
      nb::arg("num_groups"), nb::arg("eps"),
      "Group norm of [N, C, *]: (output, mean, rstd), the statistics [N, num_groups].");
  m.def(
      "_nn_group_norm_backward",
      [](nb::handle grad_output, nb::handle input, nb::handle weight, int64_t num_groups,
         double eps, nb::handle output_mask) {
        const char* op = "group_norm_backward";
        return wrap3(group_norm_backward(
            tensor_argument(grad_output, op, "grad_output"), tensor_argument(input, op, "input"),
            optional_arg(weight, op, "weight"), num_groups, eps, mask_arg(output_mask, op, 3)));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("weight").none(),
      nb::arg("num_groups"), nb::arg("eps"), nb::arg("output_mask").none(),
      "(grad_input, grad_weight, grad_bias) of _nn_group_norm, None where output_mask is False.");
  m.def(
      "_nn_batch_norm",
      [](nb::handle input, nb::handle weight, nb::handle bias, nb::handle running_mean,
         nb::handle running_var, bool training, double momentum, double eps) {
        const char* op = "batch_norm";
        return wrap3(batch_norm_forward(
            tensor_argument(input, op, "input"), optional_arg(weight, op, "weight"),
            optional_arg(bias, op, "bias"), optional_arg(running_mean, op, "running_mean"),
            optional_arg(running_var, op, "running_var"), training, momentum, eps));
      },
      nb::arg("input").none(), nb::arg("weight").none(), nb::arg("bias").none(),
      nb::arg("running_mean").none(), nb::arg("running_var").none(), nb::arg("training"),
      nb::arg("momentum"), nb::arg("eps"),
      "Batch norm of [N, C, *]: (output, mean, invstd) per channel; training updates the "
      "running statistics in place.");
  m.def(
      "_nn_batch_norm_backward",
      [](nb::handle grad_output, nb::handle input, nb::handle weight, nb::handle running_mean,
         nb::handle running_var, bool training, double eps, nb::handle output_mask) {
        const char* op = "batch_norm_backward";
        return wrap3(batch_norm_backward(
            tensor_argument(grad_output, op, "grad_output"), tensor_argument(input, op, "input"),
            optional_arg(weight, op, "weight"), optional_arg(running_mean, op, "running_mean"),
            optional_arg(running_var, op, "running_var"), training, eps,
            mask_arg(output_mask, op, 3)));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("weight").none(),
      nb::arg("running_mean").none(), nb::arg("running_var").none(), nb::arg("training"),
      nb::arg("eps"), nb::arg("output_mask").none(),
      "(grad_input, grad_weight, grad_bias) of _nn_batch_norm, None where output_mask is False.");
}

}  // namespace ember::py
