// The row path of index_add_/index_copy_/index_fill_ (ops_index_scatter.cpp holds the checks and
// the general path): x[o, index[k], :] op= source[o, k, :] when the dims after the indexed one form
// one run ("row") in both x and source, and the dims before it one outer stride.
#pragma once

#include <cstdint>

#include "ember/tensor.h"

namespace ember {

enum class AlongKind { Add, Copy, Fill };

// Runs the update by rows and returns true, or returns false having written nothing when the
// layout, row length or dtype is not one this path takes. `index` holds `count` checked int64
// values in [0, x.size(d)); source has x's shape with `count` along d and shares no memory with x.
bool index_along_rows(AlongKind kind, const Tensor& x, const Tensor& source, int64_t d,
                      const int64_t* index, int64_t count, double alpha, int64_t alpha_int);

}  // namespace ember
