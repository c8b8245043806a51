// Fused optimizer steps: argument checks, per-tensor step counts and bias corrections, and the
// split of every parameter into blocks that the pool's threads claim (kernels/cpu/optim.cpp).
#include <algorithm>
#include <cmath>

#include "ember/errors.h"
#include "ember/kernels.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

// Elements per task: big enough to amortize the claim, small enough to balance 100 tensors of
// unequal sizes over the threads.
constexpr int64_t kBlock = 1 << 16;

void check_list(const std::vector<Tensor>& ts, const std::vector<Tensor>& params, const char* op,
                const char* what) {
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

void check_params(const std::vector<Tensor>& params, const char* op) {
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

std::vector<Block> split_blocks(const std::vector<Tensor>& params) {
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
double increment_step(const Tensor& step, size_t i, const char* op) {
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

int64_t total_numel(const std::vector<Tensor>& ts) {
  int64_t n = 0;
  for (const Tensor& t : ts) n += t.numel();
  return n;
}

}  // namespace

void fused_adam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                 const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                 const std::vector<Tensor>& max_exp_avg_sqs, const std::vector<Tensor>& state_steps,
                 double lr, double beta1, double beta2, double weight_decay, double eps,
                 bool amsgrad, bool maximize, bool decoupled) {
  const char* op = "_fused_adam_";
  check_params(params, op);
  check_list(grads, params, op, "grads");
  check_list(exp_avgs, params, op, "exp_avgs");
  check_list(exp_avg_sqs, params, op, "exp_avg_sqs");
  if (amsgrad) check_list(max_exp_avg_sqs, params, op, "max_exp_avg_sqs");
  EMBER_CHECK(state_steps.size() == params.size(), ValueError, "[", op, "] expected ",
              params.size(), " state_steps, got ", state_steps.size());
  if (params.empty()) return;
  const AdamStepLoop loop = cpu_kernels().adam_step[static_cast<int>(params[0].dtype())];
  std::vector<AdamStepParams> per_tensor(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = increment_step(state_steps[i], i, op);
    AdamStepParams& p = per_tensor[i];
    p = {lr, beta1, beta2, weight_decay, eps, 0, 0, amsgrad, maximize, decoupled};
    // torch: step_size = lr / (1 - beta1**step), bias_correction2**0.5, in Python floats.
    p.step_size = lr / (1 - std::pow(beta1, step));
    p.bias_correction2_sqrt = std::sqrt(1 - std::pow(beta2, step));
    params[i].bump_version();
    exp_avgs[i].bump_version();
    exp_avg_sqs[i].bump_version();
    if (amsgrad) max_exp_avg_sqs[i].bump_version();
  }
  const std::vector<Block> blocks = split_blocks(params);
  run_blocks(blocks, total_numel(params), [&](const Block& b) {
    const size_t i = static_cast<size_t>(b.tensor);
    const int64_t off = b.begin * params[i].element_size();
    loop(params[i].data_bytes() + off, grads[i].data_bytes() + off, exp_avgs[i].data_bytes() + off,
         exp_avg_sqs[i].data_bytes() + off,
         amsgrad ? max_exp_avg_sqs[i].data_bytes() + off : nullptr, b.size, per_tensor[i]);
  });
}

void fused_sgd_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                const std::vector<Tensor>& momentum_buffers, const std::vector<bool>& new_buffers,
                double lr, double momentum, double dampening, double weight_decay, bool nesterov,
                bool maximize) {
  const char* op = "_fused_sgd_";
  check_params(params, op);
  check_list(grads, params, op, "grads");
  const bool has_momentum = momentum != 0;
  if (has_momentum) {
    check_list(momentum_buffers, params, op, "momentum_buffers");
    EMBER_CHECK(new_buffers.size() == params.size(), ValueError, "[", op, "] expected ",
                params.size(), " new_buffers flags, got ", new_buffers.size());
  }
  if (params.empty()) return;
  const SgdStepLoop loop = cpu_kernels().sgd_step[static_cast<int>(params[0].dtype())];
  std::vector<SgdStepParams> per_tensor(params.size());
  for (size_t i = 0; i < params.size(); ++i) {
    per_tensor[i] = {
        lr, momentum, dampening, weight_decay, nesterov, maximize, has_momentum && new_buffers[i]};
    params[i].bump_version();
    if (has_momentum) momentum_buffers[i].bump_version();
  }
  const std::vector<Block> blocks = split_blocks(params);
  run_blocks(blocks, total_numel(params), [&](const Block& b) {
    const size_t i = static_cast<size_t>(b.tensor);
    const int64_t off = b.begin * params[i].element_size();
    loop(params[i].data_bytes() + off, grads[i].data_bytes() + off,
         has_momentum ? momentum_buffers[i].data_bytes() + off : nullptr, b.size, per_tensor[i]);
  });
}

}  // namespace ember
