// Fused optimizer steps: one call updates every parameter of a group (lists of same-dtype,
// contiguous float32/float64 tensors) in place, reading p/g/m/v once (ember.optim's default path).
#pragma once

#include <vector>

#include "ember/tensor.h"

namespace ember {

// torch's Adam/AdamW (decoupled=true) update, its single-tensor order of operations. Each
// state_steps[i] (a one-element float tensor) is incremented first; max_exp_avg_sqs is empty
// unless amsgrad.
void fused_adam_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                 const std::vector<Tensor>& exp_avgs, const std::vector<Tensor>& exp_avg_sqs,
                 const std::vector<Tensor>& max_exp_avg_sqs, const std::vector<Tensor>& state_steps,
                 double lr, double beta1, double beta2, double weight_decay, double eps,
                 bool amsgrad, bool maximize, bool decoupled);

// torch's SGD update. momentum_buffers is empty when momentum == 0; buffer i is overwritten by
// a copy of the (decayed) gradient when new_buffers[i] (torch's first step).
void fused_sgd_(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
                const std::vector<Tensor>& momentum_buffers, const std::vector<bool>& new_buffers,
                double lr, double momentum, double dampening, double weight_decay, bool nesterov,
                bool maximize);

// The other fused steps, each torch's single-tensor algorithm (ember.optim's reference path) in one
// pass. State lists are empty where the option is off (RMSprop's momentum_buffers/grad_avgs);
// 0-d float state (steps, NAdam's mu_products, ASGD's etas and mus) is updated here too.
using TensorList = std::vector<Tensor>;
void fused_rmsprop_(const TensorList& params, const TensorList& grads,
                    const TensorList& square_avgs, const TensorList& momentum_buffers,
                    const TensorList& grad_avgs, const TensorList& state_steps, double lr,
                    double alpha, double eps, double weight_decay, double momentum, bool centered,
                    bool maximize);
void fused_adagrad_(const TensorList& params, const TensorList& grads, const TensorList& state_sums,
                    const TensorList& state_steps, double lr, double lr_decay, double weight_decay,
                    double eps, bool maximize);
void fused_adadelta_(const TensorList& params, const TensorList& grads,
                     const TensorList& square_avgs, const TensorList& acc_deltas,
                     const TensorList& state_steps, double lr, double rho, double eps,
                     double weight_decay, bool maximize);
void fused_adamax_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                   const TensorList& exp_infs, const TensorList& state_steps, double lr,
                   double beta1, double beta2, double eps, double weight_decay, bool maximize);
void fused_nadam_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                  const TensorList& exp_avg_sqs, const TensorList& mu_products,
                  const TensorList& state_steps, double lr, double beta1, double beta2, double eps,
                  double weight_decay, double momentum_decay, bool decoupled, bool maximize);
void fused_radam_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                  const TensorList& exp_avg_sqs, const TensorList& state_steps, double lr,
                  double beta1, double beta2, double eps, double weight_decay, bool decoupled,
                  bool maximize);
void fused_asgd_(const TensorList& params, const TensorList& grads, const TensorList& axs,
                 const TensorList& mus, const TensorList& etas, const TensorList& state_steps,
                 double lr, double lambd, double alpha, double t0, double weight_decay,
                 bool maximize);
void fused_rprop_(const TensorList& params, const TensorList& grads, const TensorList& prevs,
                  const TensorList& step_sizes, const TensorList& state_steps, double etaminus,
                  double etaplus, double step_size_min, double step_size_max, bool maximize);

}  // namespace ember
