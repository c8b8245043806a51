// Private fused optimizer steps for ember.optim: _fused_adam_, _fused_sgd_, _fused_rmsprop_,
// _fused_adagrad_, _fused_adadelta_, _fused_adamax_, _fused_nadam_, _fused_radam_, _fused_asgd_
// and _fused_rprop_ (not differentiable: they write parameters in place outside autograd).
#include "python_api.h"

namespace ember::py {

// A list/tuple argument of Tensors (shared with optim_adaptive.cpp).
std::vector<Tensor> optim_tensor_list(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(nb::isinstance<nb::list>(h) || nb::isinstance<nb::tuple>(h), TypeError, "[", op,
              "] argument '", arg, "' must be a list of Tensors, not ",
              nb::type_name(h.type()).c_str());
  std::vector<Tensor> out;
  for (nb::handle item : h) out.push_back(tensor_argument(item, op, arg));
  return out;
}

void init_optim_adaptive(nb::module_& m);

void init_optim(nb::module_& m) {
  m.def(
      "_fused_adam_",
      [](nb::handle params, nb::handle grads, nb::handle exp_avgs, nb::handle exp_avg_sqs,
         nb::handle max_exp_avg_sqs, nb::handle state_steps, double lr, double beta1, double beta2,
         double weight_decay, double eps, bool amsgrad, bool maximize, bool decoupled) {
        const char* op = "_fused_adam_";
        fused_adam_(optim_tensor_list(params, op, "params"), optim_tensor_list(grads, op, "grads"),
                    optim_tensor_list(exp_avgs, op, "exp_avgs"),
                    optim_tensor_list(exp_avg_sqs, op, "exp_avg_sqs"),
                    optim_tensor_list(max_exp_avg_sqs, op, "max_exp_avg_sqs"),
                    optim_tensor_list(state_steps, op, "state_steps"), lr, beta1, beta2,
                    weight_decay, eps, amsgrad, maximize, decoupled);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("exp_avgs"), nb::arg("exp_avg_sqs"),
      nb::arg("max_exp_avg_sqs"), nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"),
      nb::arg("beta1"), nb::arg("beta2"), nb::arg("weight_decay"), nb::arg("eps"),
      nb::arg("amsgrad"), nb::arg("maximize"), nb::arg("decoupled"));
  m.def(
      "_fused_sgd_",
      [](nb::handle params, nb::handle grads, nb::handle momentum_buffers,
         const std::vector<bool>& new_buffers, double lr, double momentum, double dampening,
         double weight_decay, bool nesterov, bool maximize) {
        const char* op = "_fused_sgd_";
        fused_sgd_(optim_tensor_list(params, op, "params"), optim_tensor_list(grads, op, "grads"),
                   optim_tensor_list(momentum_buffers, op, "momentum_buffers"), new_buffers, lr,
                   momentum, dampening, weight_decay, nesterov, maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("momentum_buffers"), nb::arg("new_buffers"),
      nb::kw_only(), nb::arg("lr"), nb::arg("momentum"), nb::arg("dampening"),
      nb::arg("weight_decay"), nb::arg("nesterov"), nb::arg("maximize"));
  init_optim_adaptive(m);
}

}  // namespace ember::py
