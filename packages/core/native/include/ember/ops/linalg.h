// Matrix products. float32/float64 go to OpenBLAS; other dtypes use a blocked fallback loop.
#pragma once

#include <string>
#include <vector>

#include "ember/tensor.h"

namespace ember {

// torch.matmul: 1-D operands, batched broadcasting of leading dims.
Tensor matmul(const Tensor& a, const Tensor& b, const Tensor& out = {});
Tensor mm(const Tensor& a, const Tensor& b, const Tensor& out = {});
Tensor bmm(const Tensor& a, const Tensor& b, const Tensor& out = {});
Tensor mv(const Tensor& a, const Tensor& v, const Tensor& out = {});
Tensor dot(const Tensor& a, const Tensor& b);
Tensor outer(const Tensor& a, const Tensor& b);
// beta * input + alpha * (m1 @ m2)
Tensor addmm(const Tensor& input, const Tensor& m1, const Tensor& m2, double beta, double alpha,
             const Tensor& out = {});
Tensor tensordot(const Tensor& a, const Tensor& b, const std::vector<int64_t>& dims_a,
                 const std::vector<int64_t>& dims_b);

}  // namespace ember
