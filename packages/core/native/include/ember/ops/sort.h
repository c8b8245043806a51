// Sorting and selection along one dim: sort/argsort/msort, topk, kthvalue, median, and binary
// search (searchsorted/bucketize). NaN orders as the largest value, as in torch.
#pragma once

#include <optional>
#include <tuple>
#include <utility>

#include "ember/tensor.h"

namespace ember {

// (values, indices); always stable: equal elements keep their order (descending too).
std::pair<Tensor, Tensor> sort(const Tensor& x, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor& x, int64_t dim = -1, bool descending = false);
// The k largest (or smallest) elements along dim, in order; `sorted` is accepted but the result
// is always sorted. Bool inputs raise RuntimeError like torch on CPU.
std::pair<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim = -1, bool largest = true,
                               bool sorted = true);
// The k-th smallest element (1-based) along dim and its index.
std::pair<Tensor, Tensor> kthvalue(const Tensor& x, int64_t k, int64_t dim = -1,
                                   bool keepdim = false);
// The lower median; NaN if the run holds one (the index of the first NaN).
std::pair<Tensor, Tensor> median_dim(const Tensor& x, int64_t dim, bool keepdim = false);
Tensor median(const Tensor& x);  // over all elements, 0-d

// For each value, its insertion index into the innermost dim of `sorted_sequence` (1-D, or
// with the same leading dims as `values`). `sorter` (optional, int64) sorts an unsorted
// sequence. Results are int64, or int32 with out_int32.
Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, bool out_int32 = false,
                    bool right = false, const Tensor& sorter = {}, const Tensor& out = {},
                    const char* op = "searchsorted");
// searchsorted with 1-D `boundaries` (argument order of torch.bucketize).
Tensor bucketize(const Tensor& input, const Tensor& boundaries, bool out_int32 = false,
                 bool right = false, const Tensor& out = {});

// Keeps the first of every run of equal consecutive elements (dim unset: of the flattened
// tensor) or slices along dim: (values, inverse indices, counts). NaN never equals NaN.
std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& x,
                                                      std::optional<int64_t> dim = std::nullopt);

// out= helpers: check dtypes like torch (values of x's dtype, indices int64), resize and copy.
void deliver_pair(const std::pair<Tensor, Tensor>& result, const Tensor& values,
                  const Tensor& indices, const char* op);

}  // namespace ember
