// More shape and construction ops with torch's semantics: rotations, interleaved repeats,
// triangle indices, sliding-window and raw strided views, products of index sets, block
// diagonals and the cross product; plus the out= rule these ops share.
#pragma once

#include <optional>
#include <vector>

#include "ember/tensor.h"

namespace ember {

// Rotates by 90 degrees k times in the plane of `dims` (from the first towards the second).
Tensor rot90(const Tensor& x, int64_t k, const std::vector<int64_t>& dims);

// Repeats each element `repeats` times along `dim` (the flattened tensor when nullopt).
// `output_size`, when given, must equal the result's size along dim.
Tensor repeat_interleave(const Tensor& x, int64_t repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size);
// Per-element counts: `repeats` is 0-d or 1-d with x.size(dim) entries (int32/int64).
Tensor repeat_interleave(const Tensor& x, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size);
// torch.repeat_interleave(repeats): index i repeated repeats[i] times (repeats' dtype).
Tensor repeat_interleave_indices(const Tensor& repeats, std::optional<int64_t> output_size);

// The (2, N) coordinates of the lower/upper triangle of a row x col matrix, row by row.
Tensor tril_indices(int64_t row, int64_t col, int64_t offset, ScalarType dtype);
Tensor triu_indices(int64_t row, int64_t col, int64_t offset, ScalarType dtype);

// Tensor.unfold: a view of every `size`-long window along `dim`, `step` apart (a new last dim).
Tensor unfold(const Tensor& x, int64_t dim, int64_t size, int64_t step);
// A view with the given geometry over x's storage (offset defaults to x's), bounds-checked.
Tensor as_strided_checked(const Tensor& x, const Shape& size, const Shape& stride,
                          std::optional<int64_t> storage_offset, const char* op = "as_strided");
// Gives x itself that geometry (Tensor.as_strided_).
void as_strided_(const Tensor& x, const Shape& size, const Shape& stride,
                 std::optional<int64_t> storage_offset);

// Rows of every combination of one element from each 1-d tensor (itertools.product).
Tensor cartesian_prod(const std::vector<Tensor>& tensors);
// Rows of the r-length combinations of a 1-d tensor's elements (itertools.combinations or
// combinations_with_replacement), in lexicographic order of positions.
Tensor combinations(const Tensor& x, int64_t r, bool with_replacement);
// The tensors (0-, 1- or 2-d) placed along the diagonal of a zero matrix; dtypes promote.
Tensor block_diag(const std::vector<Tensor>& tensors);

// torch.linalg.cross: 3-vectors along `dim` (default -1), batch dims broadcast.
Tensor linalg_cross(const Tensor& a, const Tensor& b, int64_t dim, const Tensor& out = {});
// torch.cross: without dim, the first dim of a's shape that has size 3.
Tensor cross(const Tensor& a, const Tensor& b, std::optional<int64_t> dim, const Tensor& out = {});

}  // namespace ember
