// Tensor geometry: allocation, contiguity, dim wrapping and overflow-checked sizes.
#include "ember/tensor.h"

#include <algorithm>
#include <numeric>

#include "ember/checked_math.h"
#include "ember/errors.h"

namespace ember {

std::atomic<int64_t> g_live_conj_tensors{0};

int64_t checked_numel(const Shape& sizes, const char* op) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    EMBER_CHECK(s >= 0, ValueError, "[", op, "] sizes must be non-negative, got ", sizes);
    EMBER_CHECK(!__builtin_mul_overflow(n, s, &n), ValueError, "[", op,
                "] the number of elements of a tensor of shape ", sizes,
                " overflows a 64-bit integer");
  }
  return n;
}

Shape contiguous_strides(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s = checked_mul(s, std::max<int64_t>(sizes[i], 1), "empty", "the stride of a tensor");
  }
  return strides;
}

Tensor Tensor::empty(const Shape& sizes, ScalarType dtype) {
  return empty_strided(sizes, contiguous_strides(sizes), dtype);
}

Tensor Tensor::empty_strided(const Shape& sizes, const Shape& strides, ScalarType dtype) {
  const int64_t numel = checked_numel(sizes, "empty");
  EMBER_CHECK(sizes.size() == strides.size(), ValueError, "[empty_strided] sizes ", sizes,
              " and strides ", strides, " must have the same length");
  // Bytes needed: one past the furthest element reachable by the strides.
  int64_t extent = 0;
  if (numel > 0) {
    for (size_t i = 0; i < sizes.size(); ++i) {
      EMBER_CHECK(strides[i] >= 0, ValueError, "[empty_strided] negative strides ", strides,
                  " are not supported");
      int64_t reach;
      EMBER_CHECK(!__builtin_mul_overflow(sizes[i] - 1, strides[i], &reach) &&
                      !__builtin_add_overflow(extent, reach, &extent),
                  ValueError, "[empty_strided] storage for shape ", sizes, " overflows");
    }
    extent += 1;
  }
  int64_t nbytes;
  EMBER_CHECK(!__builtin_mul_overflow(extent, ember::element_size(dtype), &nbytes), ValueError,
              "[empty] a tensor of shape ", sizes, " and dtype ", dtype_name(dtype),
              " needs more bytes than fit in 64 bits");
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = Storage::allocate(static_cast<size_t>(nbytes));
  impl->sizes = sizes;
  impl->strides = strides;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor Tensor::scalar(double value, ScalarType dtype, bool wrapped_number) {
  Tensor t = empty({}, dtype);
  visit_every_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *t.data<T>() = static_cast<T>(value);
  });
  t.impl().wrapped_number = wrapped_number;
  return t;
}

Tensor Tensor::scalar_int(int64_t value, ScalarType dtype, bool wrapped_number) {
  Tensor t = empty({}, dtype);
  visit_every_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      *t.data<T>() = T(static_cast<float>(value));
    } else {
      *t.data<T>() = static_cast<T>(value);
    }
  });
  t.impl().wrapped_number = wrapped_number;
  return t;
}

Tensor Tensor::scalar_complex(std::complex<double> value, ScalarType dtype, bool wrapped_number) {
  EMBER_CHECK(is_complex(dtype), TypeError, "[scalar_complex] expected a complex dtype, got ",
              dtype_name(dtype));
  Tensor t = empty({}, dtype);
  if (dtype == ScalarType::ComplexFloat) {
    *t.data<std::complex<float>>() = std::complex<float>(value);
  } else {
    *t.data<std::complex<double>>() = value;
  }
  t.impl().wrapped_number = wrapped_number;
  return t;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  const int64_t rank = std::max<int64_t>(ndim, 1);  // a 0-d tensor accepts dim 0 and -1
  EMBER_CHECK(dim >= -rank && dim < rank, IndexError, "[", op,
              "] Dimension out of range (expected to be in range of [", -rank, ", ", rank - 1,
              "], but got ", dim, ")");
  return dim < 0 ? dim + rank : dim;
}

// NOTE: wrap_dim lets a 0-d tensor take dim 0/-1 (reductions do); here it has no entry to read.
int64_t Tensor::size(int64_t d) const {
  EMBER_CHECK(dim() > 0, IndexError, "[size] Dimension specified as ", d,
              " but tensor has no dimensions");
  return sizes()[wrap_dim(d, dim(), "size")];
}
int64_t Tensor::stride(int64_t d) const {
  EMBER_CHECK(dim() > 0, IndexError, "[stride] Dimension specified as ", d,
              " but tensor has no dimensions");
  return strides()[wrap_dim(d, dim(), "stride")];
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t s : sizes()) n *= s;
  return n;
}

bool Tensor::is_contiguous() const {
  if (numel() == 0) return true;  // as torch: strides of an empty tensor do not matter
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    const int64_t s = impl_->sizes[i];
    if (s == 0) return true;
    if (s != 1 && impl_->strides[i] != expected) return false;
    expected *= s;
  }
  return true;
}

bool Tensor::is_non_overlapping_and_dense() const {
  const int64_t n = dim();
  if (n <= 1) return n == 0 || impl_->sizes[0] <= 1 || impl_->strides[0] == 1;
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (impl_->sizes[a] < 2) return false;
    if (impl_->sizes[b] < 2) return true;
    return impl_->strides[a] < impl_->strides[b];
  });
  int64_t expected = 1;
  for (int64_t d : perm) {
    const int64_t s = impl_->sizes[d];
    if (s == 0) return true;
    if (s == 1) continue;
    if (impl_->strides[d] != expected) return false;
    expected *= s;
  }
  return true;
}

Tensor Tensor::as_strided(const Shape& sizes, const Shape& strides, int64_t offset) const {
  checked_numel(sizes, "view");  // so numel() never overflows on any view
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = impl_->storage;
  impl->sizes = sizes;
  impl->strides = strides;
  impl->offset = offset;
  impl->dtype = impl_->dtype;
  auto base = impl_->view_base.lock();
  impl->view_base = base ? base : impl_;
  impl->set_conj(impl_->is_conj());
  return Tensor(std::move(impl));
}

void Tensor::check_writable(const char* op) const {
  EMBER_CHECK(impl_->storage->writable(), ValueError, "[", op,
              "] the tensor's memory is read-only (it wraps a read-only buffer)");
}

}  // namespace ember
