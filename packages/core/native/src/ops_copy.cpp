// copy_, dtype conversion, clone/contiguous, resize_ and fill_.
#include <array>
#include <cstring>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/kernels.h"
#include "ember/ops.h"

namespace ember {

namespace {

// copy_ and fill_ share this; only fill_ may write into an expanded (self-aliasing) tensor.
const Tensor& copy_impl(const Tensor& dst, const Tensor& src_in, bool allow_overlap) {
  dst.check_writable("copy_");
  // torch's rule: a source partly overlapping the destination raises (checked on the source
  // itself, before broadcasting hides it behind zero strides).
  assert_no_partial_overlap(dst, src_in, "copy_");
  // Layouts that check cannot decide (strided views of one buffer) would read half-written
  // values: copy from a private clone of the source (numpy's rule).
  const bool aliased =
      src_in.storage() == dst.storage() &&
      (src_in.offset() != dst.offset() || src_in.strides() != dst.strides() ||
       src_in.sizes() != dst.sizes()) &&
      !(dst.is_non_overlapping_and_dense() && src_in.is_non_overlapping_and_dense());
  const Tensor src = aliased ? clone(src_in) : src_in;
  if (dst.numel() == 0 && src.numel() == 0 && dst.sizes() == src.sizes()) return dst;
  IterConfig config;
  config.has_compute_dtype = true;
  config.compute_dtype = dst.dtype();
  config.cast_inputs = false;
  config.cast_outputs = false;
  config.resize_outputs = false;
  config.allow_internal_overlap = allow_overlap;
  TensorIterator iter(allow_overlap ? "fill_" : "copy_", config);
  // The source must broadcast to the destination, not the other way round.
  const Shape shape = broadcast_shapes(dst.sizes(), src.sizes(), "copy_");
  EMBER_CHECK(shape == dst.sizes(), RuntimeError, "[copy_] source of shape ", src.sizes(),
              " cannot be broadcast to the destination shape ", dst.sizes());
  // The iterator takes its shape from the inputs: hand it the source expanded to dst's shape
  // (stride 0 on broadcast dims), or fill_ and any smaller source fail.
  Tensor expanded = src;
  if (src.sizes() != dst.sizes()) {
    const int64_t lead = dst.dim() - src.dim();
    Shape strides(dst.dim(), 0);
    for (int64_t i = 0; i < src.dim(); ++i) {
      strides[lead + i] = src.sizes()[i] == 1 ? 0 : src.strides()[i];
    }
    expanded = src.as_strided(dst.sizes(), strides, src.offset());
  }
  iter.add_output(dst).add_input(expanded);
  iter.build();
  iter.for_each(cpu_kernels().cast[static_cast<int>(dst.dtype())][static_cast<int>(src.dtype())]);
  // The kernel copies storage to storage; when exactly one side is a conjugate view the values
  // differ by a conjugation, applied to dst's storage after the copy.
  if (is_complex(dst.dtype()) && is_complex(src.dtype()) && dst.is_conj() != src.is_conj()) {
    negate_imag_(dst);
  }
  dst.bump_version();
  return dst;
}

}  // namespace

const Tensor& copy_(const Tensor& dst, const Tensor& src) { return copy_impl(dst, src, false); }

Tensor to_dtype(const Tensor& t, ScalarType dtype, bool copy) {
  if (t.dtype() == dtype && !copy) return t;
  if (t.dim() == 0) {
    // Python scalars take this path on almost every op: skip the iterator.
    Tensor out = Tensor::empty({}, dtype);
    cpu_kernels().cast[static_cast<int>(dtype)][static_cast<int>(t.dtype())](
        std::array<char*, 2>{out.data_bytes(), t.data_bytes()}.data(),
        std::array<int64_t, 2>{0, 0}.data(), 1, nullptr);
    out.impl().wrapped_number = t.is_wrapped_number();
    return out;
  }
  IterConfig config;
  config.has_compute_dtype = true;
  config.compute_dtype = dtype;
  config.cast_inputs = false;
  TensorIterator iter("to", config);
  iter.add_output(Tensor()).add_input(t);
  iter.build();
  iter.for_each(cpu_kernels().cast[static_cast<int>(dtype)][static_cast<int>(t.dtype())]);
  return iter.output();
}

Tensor contiguous(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor out = Tensor::empty(t.sizes(), t.dtype());
  copy_(out, t);
  return out;
}

Tensor clone(const Tensor& t) {
  // Like torch's preserve_format: a dense tensor keeps its strides, others become contiguous.
  bool any_negative = false;
  for (int64_t s : t.strides()) any_negative |= s < 0;
  // Negative strides (NumPy views) are not a layout ember allocates: those become contiguous.
  Tensor out = t.is_non_overlapping_and_dense() && !any_negative
                   ? Tensor::empty_strided(t.sizes(), t.strides(), t.dtype())
                   : Tensor::empty(t.sizes(), t.dtype());
  copy_(out, t);
  return out;
}

void resize_(const Tensor& t, const Shape& sizes) {
  const int64_t numel = checked_numel(sizes, "resize_");
  TensorImpl& impl = t.impl();
  const size_t needed = static_cast<size_t>((impl.offset + numel) * t.element_size());
  if (needed > impl.storage->nbytes()) {
    impl.storage = Storage::allocate(static_cast<size_t>(numel * t.element_size()));
    impl.offset = 0;
  }
  impl.sizes = sizes;
  impl.strides = contiguous_strides(sizes);
}

const Tensor& fill_tensor_(const Tensor& t, const Tensor& value) {
  EMBER_CHECK(value.dim() == 0, RuntimeError,
              "[fill_] only supports 0-dimension value tensor but got tensor with ", value.dim(),
              " dimensions");
  return copy_impl(t, value, true);
}

const Tensor& fill_(const Tensor& t, double value) {
  return copy_impl(t, Tensor::scalar(value, ScalarType::Float64), true);
}

const Tensor& fill_int_(const Tensor& t, int64_t value) {
  return copy_impl(t, Tensor::scalar_int(value, ScalarType::Int64), true);
}

double item_double(const Tensor& t, const char* op) {
  EMBER_CHECK(t.numel() == 1, RuntimeValueError, "[", op, "] a Tensor with ", t.numel(),
              " elements cannot be converted to a Python scalar");
  return visit_dtype_with_unsigned(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return static_cast<double>(static_cast<compute_t<T>>(*t.data<T>()));
  });
}

int64_t item_int(const Tensor& t, const char* op) {
  EMBER_CHECK(t.numel() == 1, RuntimeValueError, "[", op, "] a Tensor with ", t.numel(),
              " elements cannot be converted to a Python scalar");
  return visit_dtype_with_unsigned(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return static_cast<int64_t>(static_cast<compute_t<T>>(*t.data<T>()));
  });
}

}  // namespace ember
