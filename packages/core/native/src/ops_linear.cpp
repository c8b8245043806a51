// linear(): one GEMM over the rows of the input, with the bias added by the GEMM itself.
#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/ops/linear.h"

namespace ember {

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const char* op = "nn_linear";
  EMBER_CHECK(weight.dim() == 2, RuntimeError, "[", op, "] expected a 2-D weight [out, in], got ",
              "shape ", weight.sizes());
  EMBER_CHECK(input.dim() >= 1, RuntimeError, "[", op, "] expected an input of at least 1 ",
              "dimension, got a 0-d tensor");
  const int64_t in = weight.sizes()[1], out = weight.sizes()[0];
  EMBER_CHECK(input.sizes().back() == in, RuntimeError, "[", op, "] input's last dimension must ",
              "match weight's (", in, "): input shape ", input.sizes(), ", weight shape ",
              weight.sizes());
  EMBER_CHECK(!bias.defined() || bias.dim() == 0 || (bias.dim() == 1 && bias.sizes()[0] == out),
              RuntimeError, "[", op, "] expected a bias of shape [", out, "] or [], got shape ",
              bias.sizes());
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < input.dim(); ++d) rows *= input.sizes()[d];
  const Tensor x2 = input.dim() == 2 ? input : reshape(input, Shape{rows, in});
  const Tensor wt = transpose(weight, 0, 1);
  const Tensor y2 = bias.defined() ? addmm(bias, x2, wt, 1.0, 1.0) : mm(x2, wt);
  if (input.dim() == 2) return y2;
  Shape shape(input.sizes().begin(), input.sizes().end() - 1);
  shape.push_back(out);
  return view(y2, shape);
}

}  // namespace ember
