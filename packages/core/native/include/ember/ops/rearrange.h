// Shape ops that copy: flips, rolls, repeats and triangular masks (torch semantics).
#pragma once

#include <optional>
#include <vector>

#include "ember/tensor.h"

namespace ember {

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims);
Tensor fliplr(const Tensor& x);  // needs >= 2 dims
Tensor flipud(const Tensor& x);  // needs >= 1 dim
// Empty `dims` rolls the flattened tensor (then `shifts` must have one entry).
Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims);
Tensor repeat(const Tensor& x, const std::vector<int64_t>& repeats);
Tensor tile(const Tensor& x, const std::vector<int64_t>& dims);
// Lower/upper triangle of the last two dims; the rest becomes zero.
Tensor tril(const Tensor& x, int64_t diagonal);
Tensor triu(const Tensor& x, int64_t diagonal);
const Tensor& tril_(const Tensor& x, int64_t diagonal);
const Tensor& triu_(const Tensor& x, int64_t diagonal);

// 1-d input: a matrix with it on diagonal `diagonal`; 2-d input: a copy of that diagonal.
Tensor diag(const Tensor& x, int64_t diagonal);
// The last dim of x placed on the (offset, dim1, dim2) diagonal of a new zero tensor.
Tensor diag_embed(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2);
Tensor diagflat(const Tensor& x, int64_t offset);
Tensor trace(const Tensor& x);  // 2-d only; integers sum into int64 (as sum)

// expand with torch.broadcast_to's name in errors (-1 keeps a size).
Tensor broadcast_to(const Tensor& x, const Shape& shape);
Shape broadcast_shapes(const std::vector<Shape>& shapes);
std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& tensors);
// Views with at least n dims (torch's placement of the new size-1 dims).
Tensor atleast_1d(const Tensor& x);
Tensor atleast_2d(const Tensor& x);
Tensor atleast_3d(const Tensor& x);

// cat after atleast_nd (torch's hstack/vstack/dstack/column_stack); `out` as cat's.
Tensor hstack(const std::vector<Tensor>& tensors, const Tensor& out = {});
Tensor vstack(const std::vector<Tensor>& tensors, const Tensor& out = {});
Tensor dstack(const std::vector<Tensor>& tensors, const Tensor& out = {});
Tensor column_stack(const std::vector<Tensor>& tensors, const Tensor& out = {});

// Views: `sections` nearly equal parts, or parts cut at `indices` (Python slice semantics).
std::vector<Tensor> tensor_split(const Tensor& x, int64_t sections, int64_t dim);
std::vector<Tensor> tensor_split_indices(const Tensor& x, const std::vector<int64_t>& indices,
                                         int64_t dim);
// numpy-style splits along dim 1 (dim 0 for 1-d), 0 and 2; `sections` must divide the size.
// Exactly one of `sections` / `indices` is used: indices when sections is nullopt.
std::vector<Tensor> hsplit(const Tensor& x, std::optional<int64_t> sections,
                           const std::vector<int64_t>& indices);
std::vector<Tensor> vsplit(const Tensor& x, std::optional<int64_t> sections,
                           const std::vector<int64_t>& indices);
std::vector<Tensor> dsplit(const Tensor& x, std::optional<int64_t> sections,
                           const std::vector<int64_t>& indices);

// Views: tensor i expanded along output dim i ("ij"); "xy" swaps the first two output dims.
std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, bool xy);
// Kronecker product over all dims (shapes padded with leading 1s); dtypes promote as mul.
Tensor kron(const Tensor& a, const Tensor& b);

}  // namespace ember
