// What the LAPACK-backed linalg ops share: argument checks with torch's messages, batched
// matrices laid out for LAPACK, the loop that spreads a batch over the pool, and the checks of
// LAPACK's info that raise LinAlgError.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "ember/errors.h"
#include "ember/ops/copy.h"
#include "ember/ops/linalg_lapack.h"
#include "ember/parallel.h"
#include "ember/tensor.h"

namespace ember::linalg_detail {

// float32/float64 only, as torch's CPU linalg (no half types, no integers).
inline void check_float(const Tensor& a, const char* op) {
  const ScalarType t = a.dtype();
  EMBER_CHECK(t != ScalarType::Float16 && t != ScalarType::BFloat16, TypeError, "[", op,
              "] Low precision dtypes not supported. Got ", dtype_name(t));
  EMBER_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64, TypeError, "[", op,
              "] Expected a floating point tensor as input. Got ", dtype_name(t));
}

// float32/float64/complex64/complex128: the ops whose results are complex anyway (eig).
inline void check_float_or_complex(const Tensor& a, const char* op) {
  const ScalarType t = a.dtype();
  EMBER_CHECK(t != ScalarType::Float16 && t != ScalarType::BFloat16, TypeError, "[", op,
              "] Low precision dtypes not supported. Got ", dtype_name(t));
  EMBER_CHECK(t == ScalarType::Float32 || t == ScalarType::Float64 || is_complex(t), TypeError, "[",
              op, "] Expected a floating point or complex tensor as input. Got ", dtype_name(t));
}

inline void check_matrix(const Tensor& a, const char* op, const char* name = "A") {
  EMBER_CHECK(a.dim() >= 2, RuntimeError, "[", op, "] The input tensor ", name,
              " must have at least 2 dimensions.");
  // Fortran indexes a matrix with 32-bit integers.
  EMBER_CHECK(a.size(-2) * a.size(-1) <= 0x7fffffff, ValueError, "[", op, "] ", name, " of shape ",
              a.sizes(), " exceeds the 32-bit LAPACK limit per matrix");
}

inline void check_square(const Tensor& a, const char* op, const char* name = "A") {
  check_matrix(a, op, name);
  EMBER_CHECK(a.size(-1) == a.size(-2), RuntimeError, "[", op, "] ", name,
              " must be batches of square matrices, but they are ", a.size(-2), " by ", a.size(-1),
              " matrices");
}

inline void check_same_dtype(const Tensor& a, const Tensor& b, const char* op) {
  EMBER_CHECK(a.dtype() == b.dtype(), RuntimeError, "[", op,
              "] Expected A and B to have the same dtype, but found A of type ",
              dtype_name(a.dtype()), " and B of type ", dtype_name(b.dtype()), " instead");
}

inline Shape batch_shape(const Tensor& a) { return Shape(a.sizes().begin(), a.sizes().end() - 2); }

inline int64_t batch_count(const Shape& batch) {
  int64_t n = 1;
  for (int64_t s : batch) n *= s;
  return n;
}

inline Shape matrix_shape(Shape batch, int64_t rows, int64_t cols) {
  batch.push_back(rows);
  batch.push_back(cols);
  return batch;
}

// torch's broadcast of two batch shapes; raises naming `op`.
inline Shape broadcast_batch(const Shape& a, const Shape& b, const char* op) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    EMBER_CHECK(da == db || da == 1 || db == 1, RuntimeError, "[", op, "] the batch dimensions ", a,
                " and ", b, " cannot be broadcast together");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

// A new tensor of `sizes` whose matrices (last two dims) are column-major, one after another:
// the layout LAPACK reads, still a valid strided tensor for copy_ and for transposing back.
inline Tensor empty_column_major(const Shape& sizes, ScalarType dtype) {
  Shape swapped = sizes;
  std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  Shape strides = contiguous_strides(swapped);
  std::swap(strides[strides.size() - 1], strides[strides.size() - 2]);
  return Tensor::empty_strided(sizes, strides, dtype);
}

// a broadcast to `sizes` (batch dims may grow) and copied, column-major or row-major.
inline Tensor column_major_copy(const Tensor& a, const Shape& sizes) {
  Tensor t = empty_column_major(sizes, a.dtype());
  copy_(t, a);
  return t;
}
inline Tensor row_major_copy(const Tensor& a, const Shape& sizes) {
  Tensor t = Tensor::empty(sizes, a.dtype());
  copy_(t, a);
  return t;
}

// LAPACK's info per matrix (int32, shaped like the batch).
inline Tensor empty_info(const Shape& batch) { return Tensor::empty(batch, ScalarType::Int32); }

// Runs fn(begin, end) over the `count` matrices of a batch on the pool, LAPACK itself staying
// single-threaded; `cost` (about n^3) lets small matrices go many to a task.
inline void for_each_matrix(int64_t count, int64_t cost, FunctionRef<void(int64_t, int64_t)> fn) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(cost, 1));
  parallel_for(0, count, grain, fn);
}

// Calls fn(i, col0, cols) for every matrix i < count and block of its k right-hand-side columns:
// a batch smaller than the pool splits its columns so that one large system uses every thread.
inline void for_each_rhs_block(int64_t count, int64_t k, int64_t cost,
                               FunctionRef<void(int64_t, int64_t, int64_t)> fn) {
  if (count == 0) return;
  const int64_t threads = get_num_threads();
  // At least 64 columns per block: narrower triangular solves lose more than they gain.
  const int64_t blocks = count >= threads || in_parallel_region()
                             ? 1
                             : std::clamp<int64_t>(k / 64, 1, (threads + count - 1) / count);
  for_each_matrix(count * blocks, cost / blocks, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t i = t / blocks, b = t % blocks;
      const int64_t col0 = k * b / blocks, col1 = k * (b + 1) / blocks;
      fn(i, col0, col1 - col0);
    }
  });
}

// Calls fn(float{}) or fn(double{}) for the dtype (already checked by check_float).
template <typename Fn>
void dispatch_float(ScalarType t, Fn&& fn) {
  if (t == ScalarType::Float32) {
    fn(float{});
  } else {
    fn(double{});
  }
}

// dispatch_float, plus fn(std::complex<float>{}) / fn(std::complex<double>{}) for complex dtypes
// (already checked by check_float_or_complex).
template <typename Fn>
void dispatch_float_or_complex(ScalarType t, Fn&& fn) {
  if (t == ScalarType::ComplexFloat) {
    fn(std::complex<float>{});
  } else if (t == ScalarType::ComplexDouble) {
    fn(std::complex<double>{});
  } else {
    dispatch_float(t, fn);
  }
}

// LAPACK rejected one of its arguments: a bug in ember, never the user's input.
inline void check_arguments(int info, const char* op, const char* routine) {
  EMBER_CHECK(info >= 0, RuntimeError, "[", op, "] internal error: LAPACK ", routine,
              " rejected argument ", -info);
}

// The optimal workspace size a LAPACK query returned (at least 1).
template <typename T>
int workspace_size(T query) {
  return std::max(1, static_cast<int>(query));
}
template <typename T>
int workspace_size(std::complex<T> query) {
  return workspace_size(query.real());
}

// The prefix torch puts before a failure in a batch: "(Batch element 3): ".
inline std::string batch_prefix(bool batched, int64_t index) {
  return batched ? str("(Batch element ", index, "): ") : std::string();
}

// Raises LinAlgError (message from describe(info)) for the first matrix whose info is non-zero.
template <typename Describe>
void raise_on_info(const Tensor& infos, bool batched, const char* op, Describe describe) {
  const int32_t* info = infos.data<int32_t>();
  for (int64_t i = 0; i < infos.numel(); ++i) {
    if (info[i] != 0) {
      throw LinAlgError(str("[", op, "] ", batch_prefix(batched, i), describe(info[i])));
    }
  }
}

}  // namespace ember::linalg_detail
