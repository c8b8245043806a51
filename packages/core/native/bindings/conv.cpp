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
}

}  // namespace ember::py
