// The one iteration engine shared by elementwise ops, casts and reductions (TensorIterator).
//
// It broadcasts the operands, works out the dtype to compute in (PyTorch's promotion rules),
// allocates missing outputs in the inputs' memory order, reorders dims so the innermost has the
// smallest strides, merges dims that are contiguous across every operand, and finally calls a
// 1-D loop over runs of the innermost dim, split across threads above a grain size.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/dtype.h"
#include "ember/parallel.h"
#include "ember/tensor.h"

namespace ember {

// A kernel's inner loop: data[0..nout) are outputs, the rest inputs; strides are in bytes for the
// innermost dim; `params` carries op parameters such as add's alpha.
using Loop1d = void (*)(char** data, const int64_t* strides, int64_t n, const void* params);

constexpr int kMaxOperands = 5;

struct IterConfig {
  // The compute dtype is the promoted dtype of all inputs (torch.result_type); else the first
  // input's (unless forced below).
  bool promote_inputs = true;
  // Inputs of another dtype are converted to the compute dtype before the loop; else the kernel
  // reads each input's own dtype (casts).
  bool cast_inputs = true;
  // A given output of another dtype gets a temporary that is cast back afterwards; else the
  // kernel writes the output's own dtype (casts).
  bool cast_outputs = true;
  // A given output of the wrong shape is resized (torch's out= rule); else it is an error
  // (in-place ops and copy_).
  bool resize_outputs = true;
  // Integer inputs are promoted to the default float dtype (true division, sqrt, exp, ...).
  bool promote_int_to_float = false;
  // The dtype outputs are allocated with when not given (e.g. bool for comparisons);
  // by default the compute dtype.
  bool has_output_dtype = false;
  ScalarType output_dtype = ScalarType::Float32;
  // Forces the compute dtype (e.g. casts), bypassing promotion.
  bool has_compute_dtype = false;
  ScalarType compute_dtype = ScalarType::Float32;
  // An existing output with another dtype is allowed (computed in a temporary and cast back)
  // when torch.can_cast(compute -> out dtype).
  bool check_out_cast = true;
  // A given output whose elements alias each other (expanded) is an error, as in torch; fill_
  // writes one value everywhere, so it may allow it.
  bool allow_internal_overlap = false;

  // Every operand read and written in its own dtype, with no promotion, casts or resizing: for
  // kernels that move raw elements (gather, scatter, index_add) computing in `dtype`.
  static IterConfig raw(ScalarType dtype) {
    IterConfig c;
    c.promote_inputs = false;
    c.cast_inputs = false;
    c.cast_outputs = false;
    c.resize_outputs = false;
    c.check_out_cast = false;
    c.has_compute_dtype = true;
    c.compute_dtype = dtype;
    return c;
  }
};

class TensorIterator {
 public:
  // `op` names the operation in error messages.
  explicit TensorIterator(const char* op, IterConfig config = {}) : op_(op), config_(config) {}

  // An output; an undefined tensor is allocated by build().
  TensorIterator& add_output(const Tensor& out);
  TensorIterator& add_input(const Tensor& in);
  void build();

  ScalarType compute_dtype() const { return compute_dtype_; }
  const Shape& shape() const { return shape_; }  // broadcast shape, in logical dim order
  int64_t numel() const { return numel_; }
  // The outputs as the user sees them (the `out=` tensors when given).
  Tensor output(int i = 0) const { return outputs_[i]; }

  // Runs `loop` over every element, in parallel when numel >= grain. Casts temporary
  // outputs back into the user's outputs afterwards.
  void for_each(Loop1d loop, const void* params = nullptr, int64_t grain = kParallelGrain);

  // --- reduction support (used by ops_reduce.cpp) ---
  // Iteration geometry after reorder + coalesce: ndim, sizes, byte strides per operand.
  int64_t iter_ndim() const { return static_cast<int64_t>(iter_shape_.size()); }
  const Shape& iter_shape() const { return iter_shape_; }
  const Shape& iter_strides(int operand) const { return strides_[operand]; }
  char* iter_data(int operand) const { return data_[operand]; }
  int num_operands() const { return static_cast<int>(data_.size()); }
  // Runs `loop` serially over the sub-box [begin, end) along iteration dim `dim` (all others
  // whole), with data pointers overridden by `data` when given.
  void serial_for_each_box(Loop1d loop, const void* params, int64_t dim, int64_t begin, int64_t end,
                           char* const* data = nullptr) const;
  // Runs `loop` serially over linear indices [begin, end) of the iteration space.
  void serial_for_each(Loop1d loop, const void* params, int64_t begin, int64_t end,
                       char* const* data = nullptr) const;
  void finish();  // casts temporaries back into user outputs (for_each calls it)

  // For reductions: the output operand may have zero strides where the input does not.
  void allow_broadcast_outputs() { broadcast_outputs_ = true; }

 private:
  void compute_shape();
  void compute_dtypes();
  void allocate_outputs(const std::vector<int64_t>& perm);
  std::vector<int64_t> compute_permutation() const;
  void coalesce(const std::vector<int64_t>& perm);

  const char* op_;
  IterConfig config_;
  std::vector<Tensor> outputs_;    // as given (maybe undefined) then as returned
  std::vector<Tensor> work_outs_;  // what the kernel writes (a temporary when dtypes differ)
  std::vector<Tensor> inputs_;     // after casting to the compute dtype
  Shape shape_;
  int64_t numel_ = 0;
  ScalarType compute_dtype_ = ScalarType::Float32;
  bool broadcast_outputs_ = false;
  // Iteration geometry.
  Shape iter_shape_;
  std::vector<Shape> strides_;  // [operand][iter dim], bytes
  std::vector<char*> data_;
};

// Whether two indices of t reach one element for sure (a zero stride on a dim of size > 1),
// the case torch's has_internal_overlap rejects for written-to tensors.
bool has_internal_overlap(const Tensor& t);
// Raises torch's RuntimeError for writing into such a tensor, naming `op`.
void assert_no_internal_overlap(const Tensor& t, const char* op);
// torch's partial-overlap rule for an output and an input: raises when they share some but not
// all elements (dense views only; other layouts cannot be decided cheaply and pass).
void assert_no_partial_overlap(const Tensor& out, const Tensor& in, const char* op);

// Broadcasts two shapes by PyTorch's rules; raises RuntimeError naming `op` and both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

// torch.result_type over tensors (0-d and wrapped numbers participate by torch's rules).
ScalarType result_type(const std::vector<Tensor>& tensors);

}  // namespace ember
