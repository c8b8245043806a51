// A strided view over refcounted storage: sizes, strides (in elements), an offset and a dtype.
// `Tensor` is a cheap handle; copies share the same TensorImpl, views get their own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "ember/dtype.h"
#include "ember/storage.h"

namespace ember {

using Shape = std::vector<int64_t>;

// How many TensorImpls have their conj bit set right now. The op dispatcher skips its scan for
// conjugate views while this is 0, so code that never calls conj() pays one load per op.
extern std::atomic<int64_t> g_live_conj_tensors;
inline bool any_conj_tensor_alive() {
  return g_live_conj_tensors.load(std::memory_order_relaxed) != 0;
}

struct TensorImpl {
  TensorImpl() = default;
  TensorImpl(const TensorImpl&) = delete;  // the live-conj count tracks each impl once
  TensorImpl& operator=(const TensorImpl&) = delete;
  ~TensorImpl() {
    if (conj_) g_live_conj_tensors.fetch_sub(1, std::memory_order_relaxed);
  }

  std::shared_ptr<Storage> storage;
  Shape sizes;
  Shape strides;
  int64_t offset = 0;
  ScalarType dtype = ScalarType::Float32;
  // A Python number turned into a 0-d tensor; it promotes like torch's "wrapped number".
  bool wrapped_number = false;
  // Autograd state. The core never reads it: the binding layer's grad dispatch checks the bit,
  // and ember.autograd keeps its per-tensor record (grad_fn, grad, hooks) in the opaque handle.
  bool requires_grad = false;
  std::shared_ptr<void> autograd_meta;
  // The tensor this one is a view of (the root of a chain of views), weakly: ember.autograd gives
  // it a history when an in-place op writes a gradient-carrying value through this view. Set by
  // as_strided (every view), cleared by detach.
  std::weak_ptr<TensorImpl> view_base;

  // The lazy conjugate bit (torch's is_conj): the elements are the complex conjugates of what
  // the storage holds. Only complex tensors carry it; views made with as_strided inherit it.
  bool is_conj() const { return conj_; }
  void set_conj(bool on) {
    if (on == conj_) return;
    conj_ = on;
    g_live_conj_tensors.fetch_add(on ? 1 : -1, std::memory_order_relaxed);
  }

 private:
  bool conj_ = false;
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // Uninitialized contiguous tensor.
  static Tensor empty(const Shape& sizes, ScalarType dtype);
  // Uninitialized tensor with explicit strides (must not overlap when written).
  static Tensor empty_strided(const Shape& sizes, const Shape& strides, ScalarType dtype);
  // A 0-d tensor holding a Python scalar.
  static Tensor scalar(double value, ScalarType dtype, bool wrapped_number = false);
  static Tensor scalar_int(int64_t value, ScalarType dtype, bool wrapped_number = false);
  static Tensor scalar_complex(std::complex<double> value, ScalarType dtype,
                               bool wrapped_number = false);

  bool defined() const { return impl_ != nullptr; }
  TensorImpl& impl() const { return *impl_; }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool same_impl(const Tensor& other) const { return impl_ == other.impl_; }

  const Shape& sizes() const { return impl_->sizes; }
  const Shape& strides() const { return impl_->strides; }
  int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
  int64_t size(int64_t d) const;    // accepts negative dims
  int64_t stride(int64_t d) const;  // accepts negative dims
  int64_t numel() const;
  int64_t offset() const { return impl_->offset; }
  ScalarType dtype() const { return impl_->dtype; }
  int64_t element_size() const { return ember::element_size(impl_->dtype); }
  bool is_contiguous() const;
  // Whether the elements exactly tile a dense block of memory in some order (any permutation).
  bool is_non_overlapping_and_dense() const;
  bool is_wrapped_number() const { return impl_->wrapped_number; }
  bool is_conj() const { return impl_->is_conj(); }
  const std::shared_ptr<Storage>& storage() const { return impl_->storage; }

  char* data_bytes() const {
    return static_cast<char*>(impl_->storage->data()) + impl_->offset * element_size();
  }
  template <typename T>
  T* data() const {
    return reinterpret_cast<T*>(data_bytes());
  }

  // A view sharing storage with new geometry (no checks beyond bounds); keeps the conj bit.
  Tensor as_strided(const Shape& sizes, const Shape& strides, int64_t offset) const;
  // Records an in-place write (the storage's version counter).
  void bump_version() const { impl_->storage->bump_version(); }
  // Raises when the storage is read-only (e.g. a read-only NumPy array).
  void check_writable(const char* op) const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

// Normalizes a possibly negative dim for a tensor of rank `ndim`; raises IndexError naming `op`.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);
// Product of sizes with overflow detection (raises ValueError naming `op`).
int64_t checked_numel(const Shape& sizes, const char* op);
Shape contiguous_strides(const Shape& sizes);

}  // namespace ember
