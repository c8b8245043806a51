// The element types of the fused nn kernels (ops_norm.cpp, ops_loss.cpp): float16/bfloat16/
// float32 accumulate in float, float64 in double; dispatch_float picks the element type.
#pragma once

#include <algorithm>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

// The row loops are compiled for AVX-512, AVX2 and the baseline, picked at load time (GCC's
// target_clones; _C itself is built for the baseline ISA only).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EMBER_ROW_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define EMBER_ROW_CLONES
#endif

// libmvec's SIMD exp/log (as kernels/cpu/math_ops.h declares them): `omp simd` loops that call
// them vectorize instead of calling the scalar libm once per element.
extern "C" {
#pragma omp declare simd notinbranch
float expf(float);
#pragma omp declare simd notinbranch
double exp(double);
}

namespace ember::float_acc {

inline float vexp(float x) { return expf(x); }
inline double vexp(double x) { return exp(x); }

template <typename T>
struct Acc {
  using type = float;
};
template <>
struct Acc<double> {
  using type = double;
};

inline ScalarType acc_dtype(ScalarType dt) {
  return dt == ScalarType::Float64 ? ScalarType::Float64 : ScalarType::Float32;
}

inline void check_float(const Tensor& t, const char* op, const char* what) {
  const ScalarType dt = t.dtype();
  EMBER_CHECK(dt == ScalarType::Float32 || dt == ScalarType::Float64 || dt == ScalarType::Float16 ||
                  dt == ScalarType::BFloat16,
              RuntimeError, "[", op, "] expected a floating point ", what,
              " (float16, bfloat16, float32 or float64), got ", dtype_name(dt));
}

// A small parameter (weight, bias, statistics) as a contiguous tensor of the accumulation type.
inline Tensor as_acc(const Tensor& t, ScalarType acc) {
  if (!t.defined()) return t;
  return contiguous(t.dtype() == acc ? t : to_dtype(t, acc));
}

template <typename A>
const A* ptr_or_null(const Tensor& t) {
  return t.defined() ? t.data<A>() : nullptr;
}

// Calls fn(T{}) for a floating element type (check_float first).
template <typename Fn>
void dispatch_float(ScalarType dt, Fn&& fn) {
  switch (dt) {
    case ScalarType::Float32:
      fn(float{});
      break;
    case ScalarType::Float64:
      fn(double{});
      break;
    case ScalarType::Float16:
      fn(Half{});
      break;
    default:
      fn(BFloat16{});
      break;
  }
}

// Splits [0, rows) into one task per thread (fewer for small inputs): task k owns rows
// [bounds(k), bounds(k + 1)) and its own slice of the partial sums.
struct RowTasks {
  int64_t rows, tasks;
  RowTasks(int64_t rows_, int64_t row_len) : rows(rows_) {
    const int64_t by_work =
        std::max<int64_t>(1, rows * std::max<int64_t>(row_len, 1) / kParallelGrain);
    tasks = std::max<int64_t>(1, std::min<int64_t>({get_num_threads(), by_work, rows}));
  }
  int64_t bound(int64_t k) const { return rows * k / tasks; }
  template <typename Fn>
  void run(Fn&& fn) const {
    if (tasks == 1 || in_parallel_region()) {
      for (int64_t k = 0; k < tasks; ++k) fn(k, bound(k), bound(k + 1));
      return;
    }
    parallel_tasks(tasks, [&](int64_t k) { fn(k, bound(k), bound(k + 1)); });
  }
};

}  // namespace ember::float_acc
