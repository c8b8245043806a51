// Shared by the fused optimizer steps (ops_optim.cpp, ops_optim_adaptive.cpp): argument checks,
// the per-tensor step counter, and the split of every parameter into blocks the pool's threads
// claim.
#pragma once

#include <algorithm>
#include <vector>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember::optim_detail {

// Elements per task: big enough to amortize the claim, small enough to balance 100 tensors of
// unequal sizes over the threads.
constexpr int64_t kBlock = 1 << 16;

inline void check_list(const std::vector<Tensor>& ts, const std::vector<Tensor>& params,
                       const char* op, const char* what) {
  EMBER_CHECK(ts.size() == params.size(), ValueError, "[", op, "] expected ", params.size(), " ",
              what, ", got ", ts.size());
  for (size_t i = 0; i < ts.size(); ++i) {
    const Tensor& t = ts[i];
    EMBER_CHECK(t.defined(), ValueError, "[", op, "] ", what, "[", i, "] is None");
    EMBER_CHECK(t.dtype() == params[i].dtype(), TypeError, "[", op, "] ", what, "[", i,
                "] has dtype ", dtype_name(t.dtype()), " but the parameter has ",
                dtype_name(params[i].dtype()));
    EMBER_CHECK(t.sizes() == params[i].sizes(), ValueError, "[", op, "] ", what, "[", i,
                "] has shape ", t.sizes(), " but the parameter has shape ", params[i].sizes());
    EMBER_CHECK(t.is_contiguous() && !t.is_conj(), ValueError, "[", op, "] ", what, "[", i,
                "] must be contiguous");
  }
}

inline void check_params(const std::vector<Tensor>& params, const char* op) {
  for (size_t i = 0; i < params.size(); ++i) {
    const Tensor& p = params[i];
    EMBER_CHECK(p.defined(), ValueError, "[", op, "] params[", i, "] is None");
    EMBER_CHECK(p.dtype() == ScalarType::Float32 || p.dtype() == ScalarType::Float64, TypeError,
                "[", op, "] supports float32 and float64 parameters, got ", dtype_name(p.dtype()),
                " for params[", i, "]");
    EMBER_CHECK(p.dtype() == params[0].dtype(), TypeError, "[", op,
                "] every parameter of one call must have the same dtype: params[0] is ",
                dtype_name(params[0].dtype()), ", params[", i, "] is ", dtype_name(p.dtype()));
    EMBER_CHECK(p.is_contiguous(), ValueError, "[", op, "] params[", i, "] must be contiguous");
    p.check_writable(op);
  }
}

struct Block {
  int64_t tensor, begin, size;
};

inline std::vector<Block> split_blocks(const std::vector<Tensor>& params) {
  std::vector<Block> blocks;
  for (size_t i = 0; i < params.size(); ++i) {
    const int64_t n = params[i].numel();
    for (int64_t b = 0; b < n; b += kBlock) {
      blocks.push_back({static_cast<int64_t>(i), b, std::min(kBlock, n - b)});
    }
  }
  return blocks;
}

// Runs fn(block) for every block, on the pool when there is enough work.
template <typename F>
void run_blocks(const std::vector<Block>& blocks, int64_t total, F&& fn) {
  if (total < kParallelGrain || blocks.size() < 2) {
    for (const Block& b : blocks) fn(b);
    return;
  }
  parallel_tasks(static_cast<int64_t>(blocks.size()),
                 [&](int64_t k) { fn(blocks[static_cast<size_t>(k)]); });
}

// state_steps[i] += 1, returning the new count (torch keeps the step as a float tensor).
inline double increment_step(const Tensor& step, size_t i, const char* op) {
  EMBER_CHECK(step.defined() && step.numel() == 1, ValueError, "[", op, "] state_steps[", i,
              "] must be a one-element tensor");
  double value;
  if (step.dtype() == ScalarType::Float32) {
    float* d = step.data<float>();
    *d += 1.0f;
    value = *d;
  } else if (step.dtype() == ScalarType::Float64) {
    double* d = step.data<double>();
    *d += 1.0;
    value = *d;
  } else {
    EMBER_CHECK(false, TypeError, "[", op, "] state_steps[", i,
                "] must be float32 or float64, got ", dtype_name(step.dtype()));
  }
  step.bump_version();
  return value;
}

inline int64_t total_numel(const std::vector<Tensor>& ts) {
  int64_t n = 0;
  for (const Tensor& t : ts) n += t.numel();
  return n;
}

}  // namespace ember::optim_detail
