// TensorIterator: broadcast, promote, lay out outputs, reorder, coalesce, and loop.
#include "ember/iterator.h"

#include <algorithm>
#include <optional>

#include "ember/errors.h"
#include "ember/ops.h"

namespace ember {

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    EMBER_CHECK(da == db || da == 1 || db == 1, RuntimeError, "[", op, "] shapes ", a, " and ", b,
                " cannot be broadcast together: sizes ", da, " and ", db, " differ at dimension ",
                i, " (counting from the left of the broadcast shape)");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {

std::optional<ScalarType> promote_optional(std::optional<ScalarType> a, ScalarType b) {
  return a ? promote_types(*a, b) : b;
}

// torch's combine_categories: a lower-priority operand only matters when it is of a higher
// category (bool < integer < floating) than the higher-priority result.
std::optional<ScalarType> combine_categories(std::optional<ScalarType> higher,
                                             std::optional<ScalarType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher)) return higher;
  // A complex operand of lower priority keeps a floating higher's precision (float64 ->
  // complex128).
  if (is_complex(*lower)) return is_floating(*higher) ? to_complex_type(*higher) : *lower;
  if (is_floating(*higher)) return higher;
  if (*higher == ScalarType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
  return higher;
}

}  // namespace

ScalarType result_type(const std::vector<Tensor>& tensors) {
  std::optional<ScalarType> dim_result, zero_dim_result, wrapped_result;
  for (const Tensor& t : tensors) {
    if (t.is_wrapped_number()) {
      const ScalarType current = is_complex(t.dtype())    ? default_complex_dtype()
                                 : is_floating(t.dtype()) ? default_dtype()
                                                          : t.dtype();
      wrapped_result = promote_optional(wrapped_result, current);
    } else if (t.dim() == 0) {
      zero_dim_result = promote_optional(zero_dim_result, t.dtype());
    } else {
      dim_result = promote_optional(dim_result, t.dtype());
    }
  }
  auto result = combine_categories(dim_result, combine_categories(zero_dim_result, wrapped_result));
  return result.value_or(default_dtype());
}

TensorIterator& TensorIterator::add_output(const Tensor& out) {
  outputs_.push_back(out);
  return *this;
}

TensorIterator& TensorIterator::add_input(const Tensor& in) {
  inputs_.push_back(in);
  return *this;
}

void TensorIterator::compute_shape() {
  shape_.clear();
  for (const Tensor& in : inputs_) shape_ = broadcast_shapes(shape_, in.sizes(), op_);
  numel_ = checked_numel(shape_, op_);
  if (broadcast_outputs_) return;
  for (Tensor& out : outputs_) {
    if (!out.defined() || out.sizes() == shape_) continue;
    EMBER_CHECK(config_.resize_outputs, RuntimeError, "[", op_, "] output with shape ", out.sizes(),
                " doesn't match the broadcast shape ", shape_);
    resize_out(out, shape_, op_);
  }
}

void TensorIterator::compute_dtypes() {
  if (config_.has_compute_dtype) {
    compute_dtype_ = config_.compute_dtype;
  } else if (config_.promote_inputs) {
    compute_dtype_ = result_type(inputs_);
  } else {
    compute_dtype_ = inputs_.empty() ? default_dtype() : inputs_[0].dtype();
  }
  if (config_.promote_int_to_float && !is_floating(compute_dtype_) && !is_complex(compute_dtype_)) {
    compute_dtype_ = default_dtype();
  }
  if (config_.cast_inputs) {
    for (Tensor& in : inputs_) {
      if (in.dtype() != compute_dtype_) in = to_dtype(in, compute_dtype_);
    }
  }
  const ScalarType out_dtype = config_.has_output_dtype ? config_.output_dtype : compute_dtype_;
  work_outs_.clear();
  for (const Tensor& out : outputs_) {
    if (!out.defined() || out.dtype() == out_dtype || !config_.cast_outputs) {
      work_outs_.push_back(out);
      continue;
    }
    if (config_.check_out_cast) check_out_dtype(out, out_dtype, op_);
    work_outs_.push_back(Tensor());  // allocated with the iteration layout below
  }
}

// Iteration order, innermost first: dims sorted by the operands' strides (torch's rule), so
// memory is walked in order whatever the views' layouts.
std::vector<int64_t> TensorIterator::compute_permutation() const {
  const int64_t ndim = static_cast<int64_t>(shape_.size());
  std::vector<int64_t> perm(ndim);
  for (int64_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  std::vector<const Tensor*> known;
  for (const Tensor& out : work_outs_)
    if (out.defined()) known.push_back(&out);
  for (const Tensor& in : inputs_) known.push_back(&in);
  auto stride_of = [&](const Tensor& t, int64_t d) -> int64_t {
    const int64_t offset = ndim - t.dim();
    if (d < offset || t.sizes()[d - offset] == 1) return 0;
    const int64_t s = t.strides()[d - offset];
    return s < 0 ? -s : s;
  };
  // 1: dim0 should move outside dim1; 0: keep the order.
  auto should_swap = [&](int64_t dim0, int64_t dim1) {
    for (const Tensor* t : known) {
      if (broadcast_outputs_ && t == &work_outs_[0]) continue;
      const int64_t s0 = stride_of(*t, dim0), s1 = stride_of(*t, dim1);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return 0;
      if (s0 > s1) return 1;
      if (shape_[dim0] > shape_[dim1]) return 1;
    }
    return 0;
  };
  for (int64_t i = 1; i < ndim; ++i) {
    for (int64_t j = i; j > 0 && should_swap(perm[j - 1], perm[j]); --j) {
      std::swap(perm[j - 1], perm[j]);
    }
  }
  return perm;
}

void TensorIterator::allocate_outputs(const std::vector<int64_t>& perm) {
  const ScalarType out_dtype = config_.has_output_dtype ? config_.output_dtype : compute_dtype_;
  Shape strides(shape_.size());
  int64_t running = 1;
  for (int64_t d : perm) {
    strides[d] = running;
    running *= std::max<int64_t>(shape_[d], 1);
  }
  for (size_t i = 0; i < work_outs_.size(); ++i) {
    if (work_outs_[i].defined()) continue;
    work_outs_[i] = Tensor::empty_strided(shape_, strides, out_dtype);
    if (!outputs_[i].defined()) outputs_[i] = work_outs_[i];
  }
}

void TensorIterator::coalesce(const std::vector<int64_t>& perm) {
  const int64_t ndim = static_cast<int64_t>(shape_.size());
  std::vector<const Tensor*> operands;
  for (const Tensor& out : work_outs_) operands.push_back(&out);
  for (const Tensor& in : inputs_) operands.push_back(&in);
  const size_t nops = operands.size();
  iter_shape_.assign(ndim, 1);
  strides_.assign(nops, Shape(ndim, 0));
  data_.resize(nops);
  for (size_t k = 0; k < nops; ++k) {
    const Tensor& t = *operands[k];
    data_[k] = t.data_bytes();
    const int64_t offset = ndim - t.dim();
    const int64_t esize = t.element_size();
    for (int64_t i = 0; i < ndim; ++i) {
      const int64_t d = perm[i];
      if (d >= offset && t.sizes()[d - offset] != 1)
        strides_[k][i] = t.strides()[d - offset] * esize;
    }
  }
  for (int64_t i = 0; i < ndim; ++i) iter_shape_[i] = shape_[perm[i]];
  // Merge dim i into `prev` when every operand steps through both as one.
  int64_t prev = 0;
  for (int64_t i = 1; i < ndim; ++i) {
    bool mergeable = iter_shape_[prev] == 1 || iter_shape_[i] == 1;
    if (!mergeable) {
      mergeable = true;
      for (size_t k = 0; k < nops && mergeable; ++k) {
        mergeable = strides_[k][prev] * iter_shape_[prev] == strides_[k][i];
      }
    }
    if (mergeable) {
      if (iter_shape_[prev] == 1) {
        for (size_t k = 0; k < nops; ++k) strides_[k][prev] = strides_[k][i];
      }
      iter_shape_[prev] *= iter_shape_[i];
    } else {
      ++prev;
      iter_shape_[prev] = iter_shape_[i];
      for (size_t k = 0; k < nops; ++k) strides_[k][prev] = strides_[k][i];
    }
  }
  const int64_t kept = ndim == 0 ? 1 : prev + 1;
  iter_shape_.resize(kept, 1);
  for (auto& s : strides_) s.resize(kept, 0);
}

bool has_internal_overlap(const Tensor& t) {
  if (t.numel() == 0) return false;  // numpy gives empty arrays all-zero strides
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] > 1 && t.strides()[d] == 0) return true;
  }
  return false;
}

void assert_no_internal_overlap(const Tensor& t, const char* op) {
  EMBER_CHECK(!has_internal_overlap(t), RuntimeError, "[", op,
              "] unsupported operation: more than one element of the written-to tensor refers to "
              "a single memory location. Please clone() the tensor before performing the "
              "operation (shape ",
              t.sizes(), ", strides ", t.strides(), ")");
}

// torch's partial-overlap rule: an output and an input over one storage must be the same view
// (same start, sizes, strides, dtype) or not share a byte. Only dense views are compared
// (byte ranges then tell exactly); other layouts are torch's "too hard" case and pass.
void assert_no_partial_overlap(const Tensor& out, const Tensor& in, const char* op) {
  if (out.storage() != in.storage() || out.numel() == 0 || in.numel() == 0) return;
  const char* a = out.data_bytes();
  const char* b = in.data_bytes();
  if (a == b && out.sizes() == in.sizes() && out.strides() == in.strides() &&
      out.element_size() == in.element_size()) {
    return;  // the same elements: in-place ops read each before writing it
  }
  if (!out.is_non_overlapping_and_dense() || !in.is_non_overlapping_and_dense()) return;
  const char* a_end = a + out.numel() * out.element_size();
  const char* b_end = b + in.numel() * in.element_size();
  EMBER_CHECK(a_end <= b || b_end <= a, RuntimeError, "[", op,
              "] unsupported operation: some elements of the input tensor and the written-to "
              "tensor refer to a single memory location. Please clone() the tensor before "
              "performing the operation.");
}

void TensorIterator::build() {
  EMBER_CHECK(outputs_.size() + inputs_.size() <= kMaxOperands, RuntimeError, "[", op_,
              "] too many operands");
  // Given outputs (out=, in-place self) may wrap read-only memory, e.g. a read-only NumPy array.
  for (const Tensor& out : outputs_) {
    if (!out.defined()) continue;
    out.check_writable(op_);
    // NOTE: reductions hand in their own zero-stride view of the output (broadcast_outputs_).
    if (!config_.allow_internal_overlap && !broadcast_outputs_)
      assert_no_internal_overlap(out, op_);
    for (const Tensor& in : inputs_) assert_no_partial_overlap(out, in, op_);
  }
  compute_shape();
  compute_dtypes();
  const auto perm = compute_permutation();
  allocate_outputs(perm);
  coalesce(perm);
}

namespace {

void iterate(const Shape& shape, const std::vector<Shape>& strides, char* const* base, size_t nops,
             Loop1d loop, const void* params, int64_t begin, int64_t end) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  int64_t counter[64];
  char* ptrs[kMaxOperands];
  int64_t inner_strides[kMaxOperands];
  int64_t idx = begin;
  for (size_t k = 0; k < nops; ++k) {
    ptrs[k] = base[k];
    inner_strides[k] = strides[k][0];
  }
  for (int64_t d = 0; d < ndim; ++d) {
    counter[d] = idx % shape[d];
    idx /= shape[d];
    for (size_t k = 0; k < nops; ++k) ptrs[k] += counter[d] * strides[k][d];
  }
  int64_t remaining = end - begin;
  while (remaining > 0) {
    const int64_t n = std::min(shape[0] - counter[0], remaining);
    loop(ptrs, inner_strides, n, params);
    remaining -= n;
    if (remaining == 0) break;
    counter[0] += n;
    for (size_t k = 0; k < nops; ++k) ptrs[k] += n * strides[k][0];
    for (int64_t d = 0; d < ndim - 1 && counter[d] == shape[d]; ++d) {
      counter[d] = 0;
      ++counter[d + 1];
      for (size_t k = 0; k < nops; ++k) {
        ptrs[k] += strides[k][d + 1] - shape[d] * strides[k][d];
      }
    }
  }
}

}  // namespace

void TensorIterator::serial_for_each(Loop1d loop, const void* params, int64_t begin, int64_t end,
                                     char* const* data) const {
  if (begin >= end) return;
  iterate(iter_shape_, strides_, data ? data : data_.data(), data_.size(), loop, params, begin,
          end);
}

void TensorIterator::serial_for_each_box(Loop1d loop, const void* params, int64_t dim,
                                         int64_t begin, int64_t end, char* const* data) const {
  if (begin >= end) return;
  Shape shape = iter_shape_;
  shape[dim] = end - begin;
  char* ptrs[kMaxOperands];
  char* const* base = data ? data : data_.data();
  for (size_t k = 0; k < data_.size(); ++k) ptrs[k] = base[k] + begin * strides_[k][dim];
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  iterate(shape, strides_, ptrs, data_.size(), loop, params, 0, total);
}

void TensorIterator::for_each(Loop1d loop, const void* params, int64_t grain) {
  if (numel_ > 0) {
    if (numel_ < grain || get_num_threads() == 1) {
      serial_for_each(loop, params, 0, numel_);
    } else {
      parallel_for(0, numel_, grain,
                   [&](int64_t begin, int64_t end) { serial_for_each(loop, params, begin, end); });
    }
  }
  finish();
}

void TensorIterator::finish() {
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (!outputs_[i].same_impl(work_outs_[i])) copy_(outputs_[i], work_outs_[i]);
  }
}

}  // namespace ember
