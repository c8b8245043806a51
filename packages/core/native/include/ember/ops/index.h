// Advanced indexing (integer/bool tensor indices, numpy/torch placement rules) and the index
// ops built on the same gather/put kernels: index_select, gather, scatter, take, masked_*,
// nonzero. Results of advanced indexing are copies; every index is range-checked.
#pragma once

#include <optional>
#include <vector>

#include "ember/ops/shape.h"
#include "ember/tensor.h"

namespace ember {

// One item of x[...]: a basic item (int, slice, None, Ellipsis) or an index tensor
// (int64/int32 indices, bool/uint8 masks; a 0-d bool acts as a new dim of size 1 or 0).
struct AdvancedItem {
  IndexItem basic;
  Tensor tensor;  // defined for tensor items
  bool is_tensor() const { return tensor.defined(); }
};

// x[items] where at least one item is a tensor (a copy). Basic items apply first (as views),
// then the tensor indices: adjacent ones put their broadcast shape in place, separated ones
// move it to the front.
Tensor index_advanced(const Tensor& x, const std::vector<AdvancedItem>& items);
// x[items] = value (value broadcast to the indexing result, cast to x's dtype); `accumulate`
// adds into x, summing duplicates. Every index is checked before anything is written.
void index_put_advanced_(const Tensor& x, const std::vector<AdvancedItem>& items,
                         const Tensor& value, bool accumulate, const char* op = "index");
// Tensor.index_put_(indices, values, accumulate): undefined entries mean `:`; values must
// have x's dtype (as torch requires).
const Tensor& index_put_(const Tensor& x, const std::vector<Tensor>& indices, const Tensor& values,
                         bool accumulate);
Tensor index_put(const Tensor& x, const std::vector<Tensor>& indices, const Tensor& values,
                 bool accumulate);

// `out`, when given, must have the result's dtype; it is resized to the result's shape.
Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& out = {});
Tensor gather(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& out = {});
// scatter_(dim, index, src) / scatter_add_; `src` may be a 0-d value (scatter's value= form).
const Tensor& scatter_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                       bool add, bool src_is_value);
Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, bool add,
               bool src_is_value);
Tensor take(const Tensor& x, const Tensor& index, const Tensor& out = {});
Tensor take_along_dim(const Tensor& x, const Tensor& indices, std::optional<int64_t> dim,
                      const Tensor& out = {});

// value is 0-d (a wrapped number or a 0-d tensor); mask is bool and broadcasts with x.
Tensor masked_fill(const Tensor& x, const Tensor& mask, const Tensor& value);
const Tensor& masked_fill_(const Tensor& x, const Tensor& mask, const Tensor& value);
Tensor masked_select(const Tensor& x, const Tensor& mask, const Tensor& out = {});

// (n, x.dim()) int64 coordinates of the nonzero elements, in row-major order.
Tensor nonzero(const Tensor& x, const Tensor& out = {});
std::vector<Tensor> nonzero_tuple(const Tensor& x);  // one 1-d tensor per dim (0-d: one)

}  // namespace ember
