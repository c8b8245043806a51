// The fully connected layer behind ember.nn.Linear and F.linear: y = x @ W^T + b as one op, so
// autograd records one node (not a transpose view and an addmm) and the weight gradient comes
// out contiguous in W's layout (g^T @ x, not the transpose of x^T @ g).
#pragma once

#include "ember/tensor.h"

namespace ember {

// input [*, in], weight [out, in], optional bias [out] or [] (undefined for none) -> [*, out].
// Leading dims fold into the rows of one GEMM, with the bias folded in (addmm).
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias);

}  // namespace ember
