// A tensor seen as rows along one dim: the dim moved last, as a contiguous (positions, len)
// block, and the way back. Use it when each run needs a private contiguous copy that the loop
// reorders or reads at random (sort, topk, median/mode, quantile, cummax's index tracking).
// Ops that read each run once in order (reductions along dims, cumsum/cumprod) use
// reduce_dim_loops.h instead: it walks the runs in place through the iterator, without a copy.
#pragma once

#include "ember/ops.h"

namespace ember::rows_last {

// Number of runs along dim d (the product of the other sizes); a 0-d tensor is one run.
inline int64_t count(const Tensor& x, int64_t d) {
  int64_t n = 1;
  for (int64_t e = 0; e < x.dim(); ++e) n *= e == d ? 1 : x.sizes()[e];
  return n;
}

// x with dim d moved last, contiguous, viewed as (count, len).
inline Tensor block(const Tensor& x, int64_t d) {
  const int64_t len = x.dim() == 0 ? 1 : x.sizes()[d];
  const Tensor m = x.dim() == 0 ? contiguous(x) : contiguous(movedim(x, {d}, {x.dim() - 1}));
  return m.as_strided({count(x, d), len}, {len, 1}, m.offset());
}

// A contiguous (count, len) result back in x's layout with `len` along d (keepdim shape);
// `keepdim` false drops d (len must be 1 then). 0-d inputs give 0-d results.
inline Tensor unblock(const Tensor& t, const Tensor& x, int64_t d, int64_t len, bool keepdim) {
  if (x.dim() == 0) return reshape(t, {});
  Shape last = x.sizes();
  last.erase(last.begin() + d);
  if (!keepdim) return reshape(t, last);
  last.push_back(len);
  return contiguous(movedim(reshape(t, last), {x.dim() - 1}, {d}));
}

}  // namespace ember::rows_last
