// The window gathers behind ember.nn's convolution, pooling and unfold/fold, as private functions
// of ember._C (ember.nn.functional gives them torch's public arguments and checks).
#include "python_api.h"

namespace ember::py {
namespace {

WindowGeometry geometry(nb::handle kernel, nb::handle dilation, nb::handle padding,
                        nb::handle stride, nb::handle output_size, const char* op) {
  return {to_int_list(kernel, op, "kernel_size"), to_int_list(dilation, op, "dilation"),
          to_int_list(padding, op, "padding"), to_int_list(stride, op, "stride"),
          to_int_list(output_size, op, "output_size")};
}

}  // namespace

void init_conv(nb::module_& m) {
  m.def(
      "_nn_im2col",
      [](nb::handle input, nb::handle kernel, nb::handle dilation, nb::handle padding,
         nb::handle stride, nb::handle output_size, double pad_value) {
        const char* op = "nn_im2col";
        return wrap(im2col(tensor_argument(input, op, "input"),
                           geometry(kernel, dilation, padding, stride, output_size, op),
                           pad_value));
      },
      nb::arg("input").none(), nb::arg("kernel_size").none(), nb::arg("dilation").none(),
      nb::arg("padding").none(), nb::arg("stride").none(), nb::arg("output_size").none(),
      nb::arg("pad_value") = 0.0,
      "Every window of a [N, C, *spatial] input as columns: [N, C * prod(kernel_size), "
      "prod(output_size)]; positions outside the input read pad_value.");
  m.def(
      "_nn_col2im",
      [](nb::handle columns, nb::handle input_size, nb::handle kernel, nb::handle dilation,
         nb::handle padding, nb::handle stride, nb::handle output_size) {
        const char* op = "nn_col2im";
        return wrap(col2im(tensor_argument(columns, op, "columns"),
                           to_int_list(input_size, op, "input_size"),
                           geometry(kernel, dilation, padding, stride, output_size, op)));
      },
      nb::arg("columns").none(), nb::arg("input_size").none(), nb::arg("kernel_size").none(),
      nb::arg("dilation").none(), nb::arg("padding").none(), nb::arg("stride").none(),
      nb::arg("output_size").none(),
      "The adjoint of _nn_im2col: sums [N, C * prod(kernel_size), prod(output_size)] columns "
      "back into a [N, C, *input_size] tensor.");
  // The convolution natives: kernel sizes come from the weight (forward, input gradient) or
  // kernel_size (weight gradient); output sizes from output_size or grad_output.
  m.def(
      "_nn_conv",
      [](nb::handle input, nb::handle weight, nb::handle bias, nb::handle stride,
         nb::handle padding, nb::handle dilation, nb::handle groups, nb::handle output_size) {
        const char* op = "nn_conv";
        return wrap(
            conv_forward(tensor_argument(input, op, "input"), tensor_argument(weight, op, "weight"),
                         bias.is_none() ? Tensor() : tensor_argument(bias, op, "bias"),
                         geometry(nb::make_tuple(), dilation, padding, stride, output_size, op),
                         int_argument(groups, op, "groups")));
      },
      nb::arg("input").none(), nb::arg("weight").none(), nb::arg("bias").none(),
      nb::arg("stride").none(), nb::arg("padding").none(), nb::arg("dilation").none(),
      nb::arg("groups").none(), nb::arg("output_size").none(),
      "Convolution (cross-correlation) of a [N, C, *spatial] input with a [C_out, C / groups, "
      "*kernel] weight and optional [C_out] bias -> [N, C_out, *output_size].");
  m.def(
      "_nn_conv_input_grad",
      [](nb::handle grad_output, nb::handle weight, nb::handle input_size, nb::handle stride,
         nb::handle padding, nb::handle dilation, nb::handle groups) {
        const char* op = "nn_conv_input_grad";
        return wrap(conv_input_grad(
            tensor_argument(grad_output, op, "grad_output"), tensor_argument(weight, op, "weight"),
            to_int_list(input_size, op, "input_size"),
            geometry(nb::make_tuple(), dilation, padding, stride, nb::make_tuple(), op),
            int_argument(groups, op, "groups")));
      },
      nb::arg("grad_output").none(), nb::arg("weight").none(), nb::arg("input_size").none(),
      nb::arg("stride").none(), nb::arg("padding").none(), nb::arg("dilation").none(),
      nb::arg("groups").none(),
      "The gradient of _nn_conv's input (a transposed convolution): [N, C_out, *out] -> [N, C, "
      "*input_size].");
  m.def(
      "_nn_conv_weight_grad",
      [](nb::handle grad_output, nb::handle input, nb::handle kernel_size, nb::handle stride,
         nb::handle padding, nb::handle dilation, nb::handle groups) {
        const char* op = "nn_conv_weight_grad";
        return wrap(conv_weight_grad(
            tensor_argument(grad_output, op, "grad_output"), tensor_argument(input, op, "input"),
            geometry(kernel_size, dilation, padding, stride, nb::make_tuple(), op),
            int_argument(groups, op, "groups")));
      },
      nb::arg("grad_output").none(), nb::arg("input").none(), nb::arg("kernel_size").none(),
      nb::arg("stride").none(), nb::arg("padding").none(), nb::arg("dilation").none(),
      nb::arg("groups").none(),
      "The gradient of _nn_conv's weight: [N, C_out, *out] and [N, C, *spatial] -> [C_out, "
      "C / groups, *kernel_size].");
  // The pooling natives: ember.nn.functional computes the output size (ceil_mode) and checks
  // torch's arguments; each backward is a native of its own (derivatives/conv.py).
  m.def(
      "_nn_max_pool",
      [](nb::handle input, nb::handle kernel, nb::handle stride, nb::handle padding,
         nb::handle dilation, nb::handle output_size, bool with_indices) {
        const char* op = "nn_max_pool";
        auto [values, indices] =
            max_pool(tensor_argument(input, op, "input"),
                     geometry(kernel, dilation, padding, stride, output_size, op), with_indices);
        return nb::make_tuple(wrap(values), wrap(indices));
      },
      nb::arg("input").none(), nb::arg("kernel_size").none(), nb::arg("stride").none(),
      nb::arg("padding").none(), nb::arg("dilation").none(), nb::arg("output_size").none(),
      nb::arg("with_indices"),
      "(values, indices) of the max pool of a [N, C, *spatial] input; indices are flat in each "
      "input plane (empty without with_indices).");
  m.def(
      "_nn_max_pool_backward",
      [](nb::handle grad_output, nb::handle indices, nb::handle input_size) {
        const char* op = "nn_max_pool_backward";
        return wrap(max_pool_backward(tensor_argument(grad_output, op, "grad_output"),
                                      tensor_argument(indices, op, "indices"),
                                      to_int_list(input_size, op, "input_size")));
      },
      nb::arg("grad_output").none(), nb::arg("indices").none(), nb::arg("input_size").none(),
      "Sums grad_output [N, C, *out] into [N, C, *input_size] at the max pool's indices.");
  m.def(
      "_nn_avg_pool",
      [](nb::handle input, nb::handle kernel, nb::handle stride, nb::handle padding,
         nb::handle output_size, bool count_include_pad, nb::handle divisor_override) {
        const char* op = "nn_avg_pool";
        WindowGeometry g = geometry(kernel, nb::make_tuple(), padding, stride, output_size, op);
        g.dilation.assign(g.kernel.size(), 1);
        return wrap(
            avg_pool(tensor_argument(input, op, "input"), g, count_include_pad,
                     optional_int_argument(divisor_override, op, "divisor_override").value_or(0)));
      },
      nb::arg("input").none(), nb::arg("kernel_size").none(), nb::arg("stride").none(),
      nb::arg("padding").none(), nb::arg("output_size").none(), nb::arg("count_include_pad"),
      nb::arg("divisor_override").none(),
      "The average of each window of a [N, C, *spatial] input -> [N, C, *output_size].");
  m.def(
      "_nn_avg_pool_backward",
      [](nb::handle grad_output, nb::handle input_size, nb::handle kernel, nb::handle stride,
         nb::handle padding, bool count_include_pad, nb::handle divisor_override) {
        const char* op = "nn_avg_pool_backward";
        const Tensor go = tensor_argument(grad_output, op, "grad_output");
        WindowGeometry g =
            geometry(kernel, nb::make_tuple(), padding, stride, nb::make_tuple(), op);
        g.dilation.assign(g.kernel.size(), 1);
        if (go.dim() >= 2) g.out_size.assign(go.sizes().begin() + 2, go.sizes().end());
        return wrap(avg_pool_backward(
            go, to_int_list(input_size, op, "input_size"), g, count_include_pad,
            optional_int_argument(divisor_override, op, "divisor_override").value_or(0)));
      },
      nb::arg("grad_output").none(), nb::arg("input_size").none(), nb::arg("kernel_size").none(),
      nb::arg("stride").none(), nb::arg("padding").none(), nb::arg("count_include_pad"),
      nb::arg("divisor_override").none(),
      "The adjoint of _nn_avg_pool: grad_output [N, C, *out] -> [N, C, *input_size].");
}

}  // namespace ember::py
