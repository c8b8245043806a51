// The FFT op front-ends: argument checks, layout (a contiguous working copy, transforms along
// each dim as blocks of interleaved lines), batching over the thread pool and normalization.
#include "ember/ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ember/errors.h"
#include "ember/fft.h"
#include "ember/parallel.h"
#include "fft_impl.h"

namespace ember {

FftNorm parse_fft_norm(const std::string& norm, const char* op) {
  if (norm == "backward") return FftNorm::Backward;
  if (norm == "ortho") return FftNorm::Ortho;
  if (norm == "forward") return FftNorm::Forward;
  throw ValueError(str("[", op, "] Invalid normalization mode: \"", norm,
                       "\" (expected \"backward\", \"ortho\" or \"forward\")"));
}

namespace {

using fft::Cpx;

void check_float(const Tensor& x, const char* op) {
  EMBER_CHECK(x.dtype() == ScalarType::Float32 || x.dtype() == ScalarType::Float64, TypeError, "[",
              op, "] expected a float32 or float64 tensor, got ", dtype_name(x.dtype()));
}

void check_complex_layout(const Tensor& x, const char* op) {
  EMBER_CHECK(x.dim() >= 1 && x.size(-1) == 2, ValueError, "[", op,
              "] expected complex values as a trailing dim of size 2, got shape ", x.sizes());
}

// Wraps `dims` against `ndim` and checks that they are distinct and that every transformed
// length is at least 1.
std::vector<int64_t> check_dims(std::vector<int64_t> dims, const Shape& sizes, int64_t ndim,
                                const char* op) {
  // wrap_dim lets a 0-d tensor take dim 0, but there is no dim to transform.
  EMBER_CHECK(ndim >= 1 || dims.empty(), IndexError, "[", op, "] Dimension out of range: dims ",
              dims, " given for a transform of a 0-d tensor");
  for (int64_t& d : dims) d = wrap_dim(d, ndim, op);
  std::vector<int64_t> sorted = dims;
  std::sort(sorted.begin(), sorted.end());
  EMBER_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), ValueError, "[", op,
              "] dims must be distinct, got ", dims);
  for (int64_t d : dims) {
    EMBER_CHECK(sizes[d] >= 1, ValueError, "[", op, "] Invalid number of data points (", sizes[d],
                ") specified along dim ", d);
  }
  return dims;
}

double norm_scale(FftNorm norm, bool forward, double points) {
  if (norm == FftNorm::Ortho) return 1.0 / std::sqrt(points);
  const bool scaled = (norm == FftNorm::Backward) != forward;
  return scaled ? 1.0 / points : 1.0;
}

// Product of sizes[begin:end] (the complex dims of a (..., 2) tensor end at dim() - 1).
int64_t span(const Shape& sizes, int64_t begin, int64_t end) {
  int64_t p = 1;
  for (int64_t d = begin; d < end; ++d) p *= sizes[d];
  return p;
}

// In-place unnormalized transform of the contiguous complex tensor `data` (complex sizes
// `sizes`) along dim d: one block of n x inner lines per index of the leading dims.
template <typename T>
void c2c_dim(Cpx<T>* data, const Shape& sizes, int64_t d, bool forward) {
  const int64_t cdim = static_cast<int64_t>(sizes.size());
  const int64_t outer = span(sizes, 0, d), n = sizes[d], inner = span(sizes, d + 1, cdim);
  if (n == 1 || outer * inner == 0) return;
  const auto plan = fft::get_plan<T>(n);
  const int64_t block = n * inner;
  parallel_for(0, outer, fft::grain_for(5 * block), [&](int64_t b, int64_t e) {
    std::vector<Cpx<T>> scratch(plan->scratch_size(inner));
    for (int64_t o = b; o < e; ++o) {
      fft::execute(*plan, data + o * block, data + o * block, scratch.data(), inner, forward);
    }
  });
}

template <typename T>
void scale_(T* data, int64_t count, double scale) {
  if (scale == 1.0) return;
  const T s = static_cast<T>(scale);
  parallel_for(0, count, kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) data[i] *= s;
  });
}

// A contiguous copy that this op may overwrite.
Tensor working_copy(const Tensor& x) {
  Tensor out = Tensor::empty(x.sizes(), x.dtype());
  copy_(out, x);
  return out;
}

template <typename T>
Tensor c2c_impl(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool forward) {
  Tensor out = working_copy(x);
  const Shape csizes(x.sizes().begin(), x.sizes().end() - 1);
  double points = 1;
  for (int64_t d : dims) {
    c2c_dim(out.data<Cpx<T>>(), csizes, d, forward);
    points *= static_cast<double>(csizes[d]);
  }
  scale_(out.data<T>(), out.numel(), norm_scale(norm, forward, points));
  return out;
}

template <typename T>
Tensor r2c_impl(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool onesided) {
  const Tensor input = contiguous(x);
  const int64_t last = dims.back(), n = x.size(last), ndim = x.dim();
  Shape csizes = x.sizes();
  csizes[last] = onesided ? n / 2 + 1 : n;
  Shape out_sizes = csizes;
  out_sizes.push_back(2);
  Tensor out = Tensor::empty(out_sizes, x.dtype());
  double points = 1;
  for (int64_t d : dims) points *= static_cast<double>(x.size(d));
  const T scale = static_cast<T>(norm_scale(norm, true, points));
  const int64_t outer = span(x.sizes(), 0, last), inner = span(x.sizes(), last + 1, ndim);
  const int64_t in_block = n * inner, out_block = csizes[last] * inner;
  const T* src = input.data<T>();
  Cpx<T>* dst = out.data<Cpx<T>>();
  if (outer * inner > 0) {
    parallel_for(0, outer, fft::grain_for(5 * in_block), [&](int64_t b, int64_t e) {
      std::vector<Cpx<T>> work;
      for (int64_t o = b; o < e; ++o) {
        fft::r2c_block(src + o * in_block, dst + o * out_block, n, inner, onesided, scale, work);
      }
    });
  }
  for (size_t i = 0; i + 1 < dims.size(); ++i) c2c_dim(dst, csizes, dims[i], true);
  return out;
}

template <typename T>
Tensor c2r_impl(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, int64_t n) {
  const int64_t last = dims.back();
  // The other dims first, as complex transforms (they need a copy to work in).
  Tensor spectrum = dims.size() > 1 ? working_copy(x) : contiguous(x);
  const Shape csizes(x.sizes().begin(), x.sizes().end() - 1);
  double points = static_cast<double>(n);
  for (size_t i = 0; i + 1 < dims.size(); ++i) {
    c2c_dim(spectrum.data<Cpx<T>>(), csizes, dims[i], false);
    points *= static_cast<double>(csizes[dims[i]]);
  }
  Shape out_sizes = csizes;
  out_sizes[last] = n;
  Tensor out = Tensor::empty(out_sizes, x.dtype());
  const T scale = static_cast<T>(norm_scale(norm, false, points));
  const int64_t cdim = static_cast<int64_t>(csizes.size());
  const int64_t outer = span(csizes, 0, last), inner = span(csizes, last + 1, cdim);
  const int64_t in_block = csizes[last] * inner, out_block = n * inner;
  const Cpx<T>* src = spectrum.data<Cpx<T>>();
  T* dst = out.data<T>();
  if (outer * inner > 0) {
    parallel_for(0, outer, fft::grain_for(5 * out_block), [&](int64_t b, int64_t e) {
      std::vector<Cpx<T>> work;
      for (int64_t o = b; o < e; ++o) {
        fft::c2r_block(src + o * in_block, dst + o * out_block, n, inner, scale, work);
      }
    });
  }
  return out;
}

}  // namespace

Tensor fft_c2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool forward) {
  const char* op = "fft_c2c";
  check_float(x, op);
  check_complex_layout(x, op);
  const Shape csizes(x.sizes().begin(), x.sizes().end() - 1);
  const auto d = check_dims(dims, csizes, x.dim() - 1, op);
  return x.dtype() == ScalarType::Float32 ? c2c_impl<float>(x, d, norm, forward)
                                          : c2c_impl<double>(x, d, norm, forward);
}

Tensor fft_r2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool onesided) {
  const char* op = "fft_r2c";
  check_float(x, op);
  EMBER_CHECK(!dims.empty(), ValueError, "[", op, "] needs at least one dim to transform");
  const auto d = check_dims(dims, x.sizes(), x.dim(), op);
  return x.dtype() == ScalarType::Float32 ? r2c_impl<float>(x, d, norm, onesided)
                                          : r2c_impl<double>(x, d, norm, onesided);
}

Tensor fft_c2r(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm,
               int64_t last_dim_size) {
  const char* op = "fft_c2r";
  check_float(x, op);
  check_complex_layout(x, op);
  EMBER_CHECK(!dims.empty(), ValueError, "[", op, "] needs at least one dim to transform");
  const Shape csizes(x.sizes().begin(), x.sizes().end() - 1);
  const auto d = check_dims(dims, csizes, x.dim() - 1, op);
  EMBER_CHECK(last_dim_size >= 1, ValueError, "[", op, "] Invalid number of data points (",
              last_dim_size, ") specified");
  const int64_t have = csizes[d.back()];
  EMBER_CHECK(have >= last_dim_size / 2 + 1, ValueError, "[", op, "] an output length of ",
              last_dim_size, " needs ", last_dim_size / 2 + 1, " input values along dim ", d.back(),
              ", got ", have);
  return x.dtype() == ScalarType::Float32 ? c2r_impl<float>(x, d, norm, last_dim_size)
                                          : c2r_impl<double>(x, d, norm, last_dim_size);
}

}  // namespace ember
