// Fused optimizer steps: argument checks, per-tensor step counts and bias corrections, and the
// split of every parameter into blocks that the pool's threads claim (kernels/cpu/optim.cpp).
#include <algorithm>
#include <cmath>

#include "ember/errors.h"
#include "ember/kernels.h"
#include "ember/ops.h"
#include "ember/parallel.h"
#include "optim_common.h"

namespace ember {
using namespace optim_detail;  // NOLINT: the helpers of this family

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
