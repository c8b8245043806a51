// Front-ends of the fused RMSprop/Adagrad/Adadelta/Adamax/NAdam/RAdam/ASGD/Rprop steps: argument
// checks, the per-tensor scalars (step counts, bias corrections, learning rates) computed in
// doubles exactly as the Python reference computes them, then one blocked pass over all tensors.
#include <cmath>

#include "ember/errors.h"
#include "ember/kernels.h"
#include "ember/ops.h"
#include "optim_common.h"

namespace ember {
namespace {

using optim_detail::Block;

// A 0-d float state tensor (step, mu_product, eta, mu) as a double.
double read_scalar(const Tensor& t, const char* op, const char* what, size_t i) {
  EMBER_CHECK(t.defined() && t.numel() == 1, ValueError, "[", op, "] ", what, "[", i,
              "] must be a one-element tensor");
  if (t.dtype() == ScalarType::Float32) return *t.data<float>();
  EMBER_CHECK(t.dtype() == ScalarType::Float64, TypeError, "[", op, "] ", what, "[", i,
              "] must be float32 or float64, got ", dtype_name(t.dtype()));
  return *t.data<double>();
}

// Stores v rounded to the tensor's dtype (what copy_ from a Python float does).
void write_scalar(const Tensor& t, double v) {
  if (t.dtype() == ScalarType::Float32) {
    *t.data<float>() = static_cast<float>(v);
  } else {
    *t.data<double>() = v;
  }
  t.bump_version();
}

// t *= v in the tensor's dtype (the scalar rounded first, as ember's mul with a Python float).
double scale_scalar(const Tensor& t, double v) {
  if (t.dtype() == ScalarType::Float32) {
    float* d = t.data<float>();
    *d = *d * static_cast<float>(v);
    t.bump_version();
    return *d;
  }
  double* d = t.data<double>();
  *d *= v;
  t.bump_version();
  return *d;
}

void check_scalars(const TensorList& ts, const TensorList& params, const char* op,
                   const char* what) {
  EMBER_CHECK(ts.size() == params.size(), ValueError, "[", op, "] expected ", params.size(), " ",
              what, ", got ", ts.size());
  for (size_t i = 0; i < ts.size(); ++i) read_scalar(ts[i], op, what, i);
}

// Checks params/grads/state/steps; states are (list, name) pairs, every list one per parameter.
void check_lists(const char* op, const TensorList& params, const TensorList& grads,
                 std::initializer_list<std::pair<const TensorList*, const char*>> states,
                 const TensorList& state_steps) {
  optim_detail::check_params(params, op);
  optim_detail::check_list(grads, params, op, "grads");
  for (const auto& [list, name] : states) optim_detail::check_list(*list, params, op, name);
  check_scalars(state_steps, params, op, "state_steps");
}

// One pass over every block of every parameter: states[k][i] is state k of parameter i.
void run_step(OptimAlgo algo, const TensorList& params, const TensorList& grads,
              const std::vector<const TensorList*>& states,
              const std::vector<OptimStepParams>& per_tensor) {
  if (params.empty()) return;
  const OptimStepLoop loop =
      cpu_kernels().optim_step[static_cast<int>(algo)][static_cast<int>(params[0].dtype())];
  for (size_t i = 0; i < params.size(); ++i) {
    params[i].bump_version();
    for (const TensorList* s : states) (*s)[i].bump_version();
  }
  const std::vector<Block> blocks = optim_detail::split_blocks(params);
  optim_detail::run_blocks(blocks, optim_detail::total_numel(params), [&](const Block& b) {
    const size_t i = static_cast<size_t>(b.tensor);
    const int64_t off = b.begin * params[i].element_size();
    char* state_ptrs[3] = {nullptr, nullptr, nullptr};
    for (size_t k = 0; k < states.size(); ++k) state_ptrs[k] = (*states[k])[i].data_bytes() + off;
    loop(params[i].data_bytes() + off, grads[i].data_bytes() + off, state_ptrs, b.size,
         per_tensor[i]);
  });
}

OptimStepParams base_params(double lr, double weight_decay, double eps, bool maximize) {
  OptimStepParams p{};
  p.lr = lr;
  p.weight_decay = weight_decay;
  p.eps = eps;
  p.maximize = maximize;
  return p;
}

}  // namespace

void fused_rmsprop_(const TensorList& params, const TensorList& grads,
                    const TensorList& square_avgs, const TensorList& momentum_buffers,
                    const TensorList& grad_avgs, const TensorList& state_steps, double lr,
                    double alpha, double eps, double weight_decay, double momentum, bool centered,
                    bool maximize) {
  const char* op = "_fused_rmsprop_";
  check_lists(op, params, grads, {{&square_avgs, "square_avgs"}}, state_steps);
  std::vector<const TensorList*> states = {&square_avgs};
  if (momentum > 0) {
    optim_detail::check_list(momentum_buffers, params, op, "momentum_buffers");
    states.push_back(&momentum_buffers);
  }
  if (centered) {
    optim_detail::check_list(grad_avgs, params, op, "grad_avgs");
    states.push_back(&grad_avgs);
  }
  OptimStepParams p = base_params(lr, weight_decay, eps, maximize);
  p.a = alpha;
  p.b = momentum;
  p.centered = centered;
  p.momentum = momentum > 0;
  for (size_t i = 0; i < params.size(); ++i) optim_detail::increment_step(state_steps[i], i, op);
  run_step(OptimAlgo::kRMSprop, params, grads, states,
           std::vector<OptimStepParams>(params.size(), p));
}

void fused_adagrad_(const TensorList& params, const TensorList& grads, const TensorList& state_sums,
                    const TensorList& state_steps, double lr, double lr_decay, double weight_decay,
                    double eps, bool maximize) {
  const char* op = "_fused_adagrad_";
  check_lists(op, params, grads, {{&state_sums, "state_sums"}}, state_steps);
  std::vector<OptimStepParams> per_tensor(params.size(),
                                          base_params(lr, weight_decay, eps, maximize));
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = optim_detail::increment_step(state_steps[i], i, op);
    per_tensor[i].lr = lr / (1 + (step - 1) * lr_decay);  // torch's clr
  }
  run_step(OptimAlgo::kAdagrad, params, grads, {&state_sums}, per_tensor);
}

void fused_adadelta_(const TensorList& params, const TensorList& grads,
                     const TensorList& square_avgs, const TensorList& acc_deltas,
                     const TensorList& state_steps, double lr, double rho, double eps,
                     double weight_decay, bool maximize) {
  const char* op = "_fused_adadelta_";
  check_lists(op, params, grads, {{&square_avgs, "square_avgs"}, {&acc_deltas, "acc_deltas"}},
              state_steps);
  OptimStepParams p = base_params(lr, weight_decay, eps, maximize);
  p.a = rho;
  for (size_t i = 0; i < params.size(); ++i) optim_detail::increment_step(state_steps[i], i, op);
  run_step(OptimAlgo::kAdadelta, params, grads, {&square_avgs, &acc_deltas},
           std::vector<OptimStepParams>(params.size(), p));
}

void fused_adamax_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                   const TensorList& exp_infs, const TensorList& state_steps, double lr,
                   double beta1, double beta2, double eps, double weight_decay, bool maximize) {
  const char* op = "_fused_adamax_";
  check_lists(op, params, grads, {{&exp_avgs, "exp_avgs"}, {&exp_infs, "exp_infs"}}, state_steps);
  OptimStepParams p = base_params(lr, weight_decay, eps, maximize);
  p.a = beta1;
  p.b = beta2;
  std::vector<OptimStepParams> per_tensor(params.size(), p);
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = optim_detail::increment_step(state_steps[i], i, op);
    per_tensor[i].lr = lr / (1 - std::pow(beta1, step));  // torch's clr
  }
  run_step(OptimAlgo::kAdamax, params, grads, {&exp_avgs, &exp_infs}, per_tensor);
}

void fused_nadam_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                  const TensorList& exp_avg_sqs, const TensorList& mu_products,
                  const TensorList& state_steps, double lr, double beta1, double beta2, double eps,
                  double weight_decay, double momentum_decay, bool decoupled, bool maximize) {
  const char* op = "_fused_nadam_";
  check_lists(op, params, grads, {{&exp_avgs, "exp_avgs"}, {&exp_avg_sqs, "exp_avg_sqs"}},
              state_steps);
  check_scalars(mu_products, params, op, "mu_products");
  OptimStepParams p = base_params(lr, weight_decay, eps, maximize);
  p.a = beta1;
  p.b = beta2;
  p.decoupled = decoupled;
  std::vector<OptimStepParams> per_tensor(params.size(), p);
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = optim_detail::increment_step(state_steps[i], i, op);
    const double mu = beta1 * (1.0 - 0.5 * std::pow(0.96, step * momentum_decay));
    const double mu_next = beta1 * (1.0 - 0.5 * std::pow(0.96, (step + 1) * momentum_decay));
    const double mu_product = scale_scalar(mu_products[i], mu);
    const double mu_product_next = mu_product * mu_next;
    per_tensor[i].c = 1 - std::pow(beta2, step);
    per_tensor[i].d = -lr * (1.0 - mu) / (1.0 - mu_product);
    per_tensor[i].e = (-lr * mu_next) / (1.0 - mu_product_next);
  }
  run_step(OptimAlgo::kNAdam, params, grads, {&exp_avgs, &exp_avg_sqs}, per_tensor);
}

void fused_radam_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                  const TensorList& exp_avg_sqs, const TensorList& state_steps, double lr,
                  double beta1, double beta2, double eps, double weight_decay, bool decoupled,
                  bool maximize) {
  const char* op = "_fused_radam_";
  check_lists(op, params, grads, {{&exp_avgs, "exp_avgs"}, {&exp_avg_sqs, "exp_avg_sqs"}},
              state_steps);
  OptimStepParams p = base_params(lr, weight_decay, eps, maximize);
  p.a = beta1;
  p.b = beta2;
  p.decoupled = decoupled;
  std::vector<OptimStepParams> per_tensor(params.size(), p);
  const double rho_inf = 2 / (1 - beta2) - 1;
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = optim_detail::increment_step(state_steps[i], i, op);
    const double bias_correction2 = 1 - std::pow(beta2, step);
    const double rho_t = rho_inf - 2 * step * std::pow(beta2, step) / bias_correction2;
    OptimStepParams& q = per_tensor[i];
    q.c = 1 - std::pow(beta1, step);
    q.centered = rho_t > 5.0;  // rectified
    if (q.centered) {
      q.d = std::pow((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t),
                     0.5);
      q.e = std::pow(bias_correction2, 0.5);
    }
  }
  run_step(OptimAlgo::kRAdam, params, grads, {&exp_avgs, &exp_avg_sqs}, per_tensor);
}

void fused_asgd_(const TensorList& params, const TensorList& grads, const TensorList& axs,
                 const TensorList& mus, const TensorList& etas, const TensorList& state_steps,
                 double lr, double lambd, double alpha, double t0, double weight_decay,
                 bool maximize) {
  const char* op = "_fused_asgd_";
  check_lists(op, params, grads, {{&axs, "axs"}}, state_steps);
  check_scalars(mus, params, op, "mus");
  check_scalars(etas, params, op, "etas");
  std::vector<OptimStepParams> per_tensor(params.size(),
                                          base_params(lr, weight_decay, 0, maximize));
  for (size_t i = 0; i < params.size(); ++i) {
    const double step = optim_detail::increment_step(state_steps[i], i, op);
    OptimStepParams& q = per_tensor[i];
    q.lr = read_scalar(etas[i], op, "etas", i);
    q.a = lambd;
    q.b = read_scalar(mus[i], op, "mus", i);
    q.centered = q.b != 1;  // averaging has started
    // The next step's eta and mu (torch updates them after the parameter).
    write_scalar(etas[i], lr / std::pow(1 + lambd * lr * step, alpha));
    write_scalar(mus[i], 1 / std::max(1.0, step - t0));
  }
  run_step(OptimAlgo::kASGD, params, grads, {&axs}, per_tensor);
}

void fused_rprop_(const TensorList& params, const TensorList& grads, const TensorList& prevs,
                  const TensorList& step_sizes, const TensorList& state_steps, double etaminus,
                  double etaplus, double step_size_min, double step_size_max, bool maximize) {
  const char* op = "_fused_rprop_";
  check_lists(op, params, grads, {{&prevs, "prevs"}, {&step_sizes, "step_sizes"}}, state_steps);
  OptimStepParams p = base_params(0, 0, 0, maximize);
  p.a = etaminus;
  p.b = etaplus;
  p.c = step_size_min;
  p.d = step_size_max;
  for (size_t i = 0; i < params.size(); ++i) optim_detail::increment_step(state_steps[i], i, op);
  run_step(OptimAlgo::kRprop, params, grads, {&prevs, &step_sizes},
           std::vector<OptimStepParams>(params.size(), p));
}

}  // namespace ember
