// Views (sharing storage) and shape ops that copy (cat, stack, ...). Views follow torch: they
// raise when the geometry does not allow a view (use reshape).
#pragma once

#include <optional>
#include <vector>

#include "ember/tensor.h"

namespace ember {

// `shape` may contain one -1, inferred from the number of elements.
Tensor view(const Tensor& x, const Shape& shape);
Tensor reshape(const Tensor& x, const Shape& shape);
Tensor permute(const Tensor& x, const std::vector<int64_t>& dims);
Tensor transpose(const Tensor& x, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& x);      // 0-d, 1-d unchanged; 2-d transposed; else error
Tensor mT(const Tensor& x);     // transposes the last two dims (needs >= 2 dims)
Tensor expand(const Tensor& x, const Shape& shape);  // -1 keeps a size
Tensor squeeze(const Tensor& x, const std::optional<std::vector<int64_t>>& dims);
Tensor unsqueeze(const Tensor& x, int64_t dim);
Tensor flatten(const Tensor& x, int64_t start_dim, int64_t end_dim);
Tensor unflatten(const Tensor& x, int64_t dim, const Shape& sizes);
Tensor narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length);
Tensor select(const Tensor& x, int64_t dim, int64_t index);
// Python slice semantics clamped like torch: step must be > 0.
Tensor slice(const Tensor& x, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> stop, int64_t step);
std::vector<Tensor> unbind(const Tensor& x, int64_t dim);
Tensor movedim(const Tensor& x, const std::vector<int64_t>& source,
               const std::vector<int64_t>& destination);
Tensor diagonal(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2);

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim, const Tensor& out = {});
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim, const Tensor& out = {});
// split by a chunk size or by explicit sizes; chunk into n (nearly) equal parts.
std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim);
std::vector<Tensor> split_with_sizes(const Tensor& x, const std::vector<int64_t>& sizes,
                                     int64_t dim);
std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim);

}  // namespace ember
