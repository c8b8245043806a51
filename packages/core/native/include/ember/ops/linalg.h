// Matrix products. float32/float64 go to OpenBLAS (transposed views are passed with BLAS's trans
// flags, not copied); float16/bfloat16 compute in float32 through OpenBLAS and round; integer
// dtypes use a plain loop that accumulates (and wraps) in their own type, like torch.
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
// 1-D x 1-D of one dtype; vdot is the same for real dtypes.
Tensor dot(const Tensor& a, const Tensor& b, const Tensor& out = {});
Tensor vdot(const Tensor& a, const Tensor& b, const Tensor& out = {});
// Promotes like `*` (torch.outer / ger).
Tensor outer(const Tensor& a, const Tensor& b, const Tensor& out = {});
// beta * input + alpha * (m1 @ m2); input broadcasts to the product's shape. Integer dtypes
// truncate alpha and beta to integers (torch does the same). With beta == 0 input is ignored.
Tensor addmm(const Tensor& input, const Tensor& m1, const Tensor& m2, double beta, double alpha,
             const Tensor& out = {});
Tensor addmv(const Tensor& input, const Tensor& mat, const Tensor& vec, double beta, double alpha,
             const Tensor& out = {});
Tensor baddbmm(const Tensor& input, const Tensor& b1, const Tensor& b2, double beta, double alpha,
               const Tensor& out = {});
// In-place forms: self must already have the product's shape.
const Tensor& addmm_(const Tensor& self, const Tensor& m1, const Tensor& m2, double beta,
                     double alpha);
const Tensor& addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, double beta,
                     double alpha);
const Tensor& baddbmm_(const Tensor& self, const Tensor& b1, const Tensor& b2, double beta,
                       double alpha);
// Contracts dims_a of a with dims_b of b (same length, negative dims allowed).
Tensor tensordot(const Tensor& a, const Tensor& b, const std::vector<int64_t>& dims_a,
                 const std::vector<int64_t>& dims_b, const Tensor& out = {});
// tensordot(a, b, dims=n): the last n dims of a with the first n dims of b.
Tensor tensordot_n(const Tensor& a, const Tensor& b, int64_t dims, const Tensor& out = {});
// torch.einsum: explicit ("ij,jk->ik") and implicit ("ij,jk") modes, repeated subscripts
// (diagonals), "..." broadcasting; contractions reduce to bmm.
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);

}  // namespace ember
