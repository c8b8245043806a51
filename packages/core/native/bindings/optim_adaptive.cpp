// Bindings of the fused RMSprop/Adagrad/Adadelta/Adamax/NAdam/RAdam/ASGD/Rprop steps (private:
// ember.optim calls them with its state lists; see native/src/ops_optim_adaptive.cpp).
#include "python_api.h"

namespace ember::py {

std::vector<Tensor> optim_tensor_list(nb::handle h, const char* op, const char* arg);

namespace {

// The lists named in args, converted in order.
template <size_t N>
std::array<TensorList, N> lists(const char* op, const std::array<nb::handle, N>& hs,
                                const std::array<const char*, N>& names) {
  std::array<TensorList, N> out;
  for (size_t k = 0; k < N; ++k) out[k] = optim_tensor_list(hs[k], op, names[k]);
  return out;
}

}  // namespace

void init_optim_adaptive(nb::module_& m) {
  m.def(
      "_fused_rmsprop_",
      [](nb::handle params, nb::handle grads, nb::handle square_avgs, nb::handle momentum_buffers,
         nb::handle grad_avgs, nb::handle state_steps, double lr, double alpha, double eps,
         double weight_decay, double momentum, bool centered, bool maximize) {
        auto l = lists<6>(
            "_fused_rmsprop_",
            {params, grads, square_avgs, momentum_buffers, grad_avgs, state_steps},
            {"params", "grads", "square_avgs", "momentum_buffers", "grad_avgs", "state_steps"});
        fused_rmsprop_(l[0], l[1], l[2], l[3], l[4], l[5], lr, alpha, eps, weight_decay, momentum,
                       centered, maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("square_avgs"), nb::arg("momentum_buffers"),
      nb::arg("grad_avgs"), nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"), nb::arg("alpha"),
      nb::arg("eps"), nb::arg("weight_decay"), nb::arg("momentum"), nb::arg("centered"),
      nb::arg("maximize"));
  m.def(
      "_fused_adagrad_",
      [](nb::handle params, nb::handle grads, nb::handle state_sums, nb::handle state_steps,
         double lr, double lr_decay, double weight_decay, double eps, bool maximize) {
        auto l = lists<4>("_fused_adagrad_", {params, grads, state_sums, state_steps},
                          {"params", "grads", "state_sums", "state_steps"});
        fused_adagrad_(l[0], l[1], l[2], l[3], lr, lr_decay, weight_decay, eps, maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("state_sums"), nb::arg("state_steps"),
      nb::kw_only(), nb::arg("lr"), nb::arg("lr_decay"), nb::arg("weight_decay"), nb::arg("eps"),
      nb::arg("maximize"));
  m.def(
      "_fused_adadelta_",
      [](nb::handle params, nb::handle grads, nb::handle square_avgs, nb::handle acc_deltas,
         nb::handle state_steps, double lr, double rho, double eps, double weight_decay,
         bool maximize) {
        auto l = lists<5>("_fused_adadelta_", {params, grads, square_avgs, acc_deltas, state_steps},
                          {"params", "grads", "square_avgs", "acc_deltas", "state_steps"});
        fused_adadelta_(l[0], l[1], l[2], l[3], l[4], lr, rho, eps, weight_decay, maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("square_avgs"), nb::arg("acc_deltas"),
      nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"), nb::arg("rho"), nb::arg("eps"),
      nb::arg("weight_decay"), nb::arg("maximize"));
  m.def(
      "_fused_adamax_",
      [](nb::handle params, nb::handle grads, nb::handle exp_avgs, nb::handle exp_infs,
         nb::handle state_steps, double lr, double beta1, double beta2, double eps,
         double weight_decay, bool maximize) {
        auto l = lists<5>("_fused_adamax_", {params, grads, exp_avgs, exp_infs, state_steps},
                          {"params", "grads", "exp_avgs", "exp_infs", "state_steps"});
        fused_adamax_(l[0], l[1], l[2], l[3], l[4], lr, beta1, beta2, eps, weight_decay, maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("exp_avgs"), nb::arg("exp_infs"),
      nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"), nb::arg("beta1"), nb::arg("beta2"),
      nb::arg("eps"), nb::arg("weight_decay"), nb::arg("maximize"));
  m.def(
      "_fused_nadam_",
      [](nb::handle params, nb::handle grads, nb::handle exp_avgs, nb::handle exp_avg_sqs,
         nb::handle mu_products, nb::handle state_steps, double lr, double beta1, double beta2,
         double eps, double weight_decay, double momentum_decay, bool decoupled, bool maximize) {
        auto l = lists<6>(
            "_fused_nadam_", {params, grads, exp_avgs, exp_avg_sqs, mu_products, state_steps},
            {"params", "grads", "exp_avgs", "exp_avg_sqs", "mu_products", "state_steps"});
        fused_nadam_(l[0], l[1], l[2], l[3], l[4], l[5], lr, beta1, beta2, eps, weight_decay,
                     momentum_decay, decoupled, maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("exp_avgs"), nb::arg("exp_avg_sqs"),
      nb::arg("mu_products"), nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"),
      nb::arg("beta1"), nb::arg("beta2"), nb::arg("eps"), nb::arg("weight_decay"),
      nb::arg("momentum_decay"), nb::arg("decoupled"), nb::arg("maximize"));
  m.def(
      "_fused_radam_",
      [](nb::handle params, nb::handle grads, nb::handle exp_avgs, nb::handle exp_avg_sqs,
         nb::handle state_steps, double lr, double beta1, double beta2, double eps,
         double weight_decay, bool decoupled, bool maximize) {
        auto l = lists<5>("_fused_radam_", {params, grads, exp_avgs, exp_avg_sqs, state_steps},
                          {"params", "grads", "exp_avgs", "exp_avg_sqs", "state_steps"});
        fused_radam_(l[0], l[1], l[2], l[3], l[4], lr, beta1, beta2, eps, weight_decay, decoupled,
                     maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("exp_avgs"), nb::arg("exp_avg_sqs"),
      nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"), nb::arg("beta1"), nb::arg("beta2"),
      nb::arg("eps"), nb::arg("weight_decay"), nb::arg("decoupled"), nb::arg("maximize"));
  m.def(
      "_fused_asgd_",
      [](nb::handle params, nb::handle grads, nb::handle axs, nb::handle mus, nb::handle etas,
         nb::handle state_steps, double lr, double lambd, double alpha, double t0,
         double weight_decay, bool maximize) {
        auto l = lists<6>("_fused_asgd_", {params, grads, axs, mus, etas, state_steps},
                          {"params", "grads", "axs", "mus", "etas", "state_steps"});
        fused_asgd_(l[0], l[1], l[2], l[3], l[4], l[5], lr, lambd, alpha, t0, weight_decay,
                    maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("axs"), nb::arg("mus"), nb::arg("etas"),
      nb::arg("state_steps"), nb::kw_only(), nb::arg("lr"), nb::arg("lambd"), nb::arg("alpha"),
      nb::arg("t0"), nb::arg("weight_decay"), nb::arg("maximize"));
  m.def(
      "_fused_rprop_",
      [](nb::handle params, nb::handle grads, nb::handle prevs, nb::handle step_sizes,
         nb::handle state_steps, double etaminus, double etaplus, double step_size_min,
         double step_size_max, bool maximize) {
        auto l = lists<5>("_fused_rprop_", {params, grads, prevs, step_sizes, state_steps},
                          {"params", "grads", "prevs", "step_sizes", "state_steps"});
        fused_rprop_(l[0], l[1], l[2], l[3], l[4], etaminus, etaplus, step_size_min, step_size_max,
                     maximize);
      },
      nb::arg("params"), nb::arg("grads"), nb::arg("prevs"), nb::arg("step_sizes"),
      nb::arg("state_steps"), nb::kw_only(), nb::arg("etaminus"), nb::arg("etaplus"),
      nb::arg("step_size_min"), nb::arg("step_size_max"), nb::arg("maximize"));
}

}  // namespace ember::py
