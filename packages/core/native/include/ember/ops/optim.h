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

}  // namespace ember
