// Index ops that write along one dim or through an index/mask: index_add, index_copy,
// index_fill, scatter_reduce (and scatter's reduce=), masked_scatter. Every index is checked
// before anything is written, so a bad call leaves the destination untouched.
#pragma once

#include <string>

#include "ember/ops/factory.h"
#include "ember/tensor.h"

namespace ember {

enum class ScatterReduce { Sum, Prod, Mean, Amax, Amin };

// torch's scatter_reduce names ('sum', 'prod', 'mean', 'amax', 'amin'), or with `legacy` the
// names of scatter's reduce= ('add', 'multiply'); raises RuntimeError naming `op` otherwise.
ScatterReduce scatter_reduce_kind(const std::string& name, bool legacy, const char* op);

// x[..., index[k], ...] += alpha * source[..., k, ...] along dim; duplicates accumulate.
const Tensor& index_add_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source,
                         Scalar alpha);
Tensor index_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source,
                 Scalar alpha, const Tensor& out = {});
// x[..., index[k], ...] = source[..., k, ...]; the last of duplicate indices wins.
const Tensor& index_copy_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source);
Tensor index_copy(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source,
                  const Tensor& out = {});
// x[..., index[k], ...] = value (a 0-d tensor or wrapped number); negative indices wrap.
const Tensor& index_fill_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& value);
Tensor index_fill(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& value);

// x[index[i][j]][j] = reduce(x[...], src[i][j]) for dim=0 (likewise per dim). `include_self`
// false reduces only the scattered values into the written positions. `src_is_value` takes a
// 0-d src for every index (scatter's value= form).
const Tensor& scatter_reduce_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                              ScatterReduce reduce, bool include_self, bool src_is_value = false,
                              const char* op = "scatter_reduce");
Tensor scatter_reduce(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                      ScatterReduce reduce, bool include_self, bool src_is_value = false,
                      const char* op = "scatter_reduce", const Tensor& out = {});

// Copies source's leading elements, in order, into x where the bool mask (broadcast to x) is
// True. The out-of-place form broadcasts x and mask together.
const Tensor& masked_scatter_(const Tensor& x, const Tensor& mask, const Tensor& source);
Tensor masked_scatter(const Tensor& x, const Tensor& mask, const Tensor& source);

}  // namespace ember
