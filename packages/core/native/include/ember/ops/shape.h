// Views (sharing storage) and shape ops that copy (cat, stack, ...). Views follow torch: they
// raise when the geometry does not allow a view (use reshape). Every view gets its own
// TensorImpl, so the in-place geometry ops (squeeze_, ...) never change another tensor's shape.
#pragma once

#include <optional>
#include <vector>

#include "ember/tensor.h"

namespace ember {

// `shape` with its one allowed -1 replaced so that the product is `numel`; raises naming `op`.
Shape infer_size(const Shape& shape, int64_t numel, const char* op);
// torch's computeStride: strides giving `x` the new shape without copying, if any exist.
std::optional<Shape> view_strides(const Shape& sizes, const Shape& strides, const Shape& shape);

// `shape` may contain one -1, inferred from the number of elements.
Tensor view(const Tensor& x, const Shape& shape);
// Reinterprets the bytes as another dtype (torch's view(dtype)).
Tensor view_dtype(const Tensor& x, ScalarType dtype);
Tensor reshape(const Tensor& x, const Shape& shape);  // a view when possible, else a copy
Tensor alias(const Tensor& x);                        // a new view with the same geometry
Tensor permute(const Tensor& x, const std::vector<int64_t>& dims);
Tensor transpose(const Tensor& x, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& x);             // 0-d, 1-d unchanged; 2-d transposed; else error
Tensor mT(const Tensor& x);            // transposes the last two dims (needs >= 2 dims)
Tensor reverse_dims(const Tensor& x);  // Tensor.T
Tensor expand(const Tensor& x, const Shape& shape);  // -1 keeps a size
// nullopt squeezes every size-1 dim; otherwise only the listed dims that have size 1.
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

// In-place geometry changes of `x`'s own TensorImpl (torch's squeeze_, unsqueeze_, ...).
void squeeze_(const Tensor& x, const std::optional<std::vector<int64_t>>& dims);
void unsqueeze_(const Tensor& x, int64_t dim);
void transpose_(const Tensor& x, int64_t dim0, int64_t dim1);
void t_(const Tensor& x);

// Inputs are promoted to a common dtype; 1-d empty tensors are skipped (torch's legacy rule).
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim, const Tensor& out = {});
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim, const Tensor& out = {});
// split by a chunk size or by explicit sizes; chunk into n (nearly) equal parts.
std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim);
std::vector<Tensor> split_with_sizes(const Tensor& x, const std::vector<int64_t>& sizes,
                                     int64_t dim);
std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim);

// Basic indexing: x[i, a:b:c, ..., None]. The result is always a view of x.
struct IndexItem {
  enum class Kind { Integer, Slice, Ellipsis, NewAxis };
  Kind kind = Kind::Integer;
  int64_t index = 0;                   // Integer
  std::optional<int64_t> start, stop;  // Slice
  int64_t step = 1;
  static IndexItem integer(int64_t i) { return {Kind::Integer, i, {}, {}, 1}; }
  static IndexItem slice(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step) {
    return {Kind::Slice, 0, start, stop, step};
  }
  static IndexItem ellipsis() { return {Kind::Ellipsis, 0, {}, {}, 1}; }
  static IndexItem new_axis() { return {Kind::NewAxis, 0, {}, {}, 1}; }
};
Tensor index(const Tensor& x, const std::vector<IndexItem>& items);
// x[items] = value: value is broadcast to the indexed view (leading size-1 dims dropped first)
// and converted to x's dtype.
void index_put_(const Tensor& x, const std::vector<IndexItem>& items, const Tensor& value);

}  // namespace ember
