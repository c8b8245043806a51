// Fused optimizer steps (Adam/AdamW, SGD with momentum) over one contiguous block: every element
// of p/g/m/v is read once and written once. The arithmetic repeats, operation by operation, what
// torch's single-tensor algorithm does with ember's elementwise kernels (ember.optim's reference
// path), and the file is compiled with -ffp-contract=off: where ember's kernels contract a + s * b
// to one FMA (the ISA has FMA), this file calls std::fma, so both paths give the same bits.
#include <cmath>

#include "loops.h"
#include "optim_math.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

// kWd: 0 no weight decay, 1 L2 (added to the gradient), 2 decoupled (AdamW).
template <typename T, bool kAmsgrad, bool kMaximize, int kWd>
void adam_block(char* param, const char* grad, char* exp_avg, char* exp_avg_sq,
                char* max_exp_avg_sq, int64_t n, const AdamStepParams& p) {
  T* __restrict pp = reinterpret_cast<T*>(param);
  const T* __restrict gp = reinterpret_cast<const T*>(grad);
  T* __restrict mp = reinterpret_cast<T*>(exp_avg);
  T* __restrict vp = reinterpret_cast<T*>(exp_avg_sq);
  T* __restrict vmaxp = reinterpret_cast<T*>(max_exp_avg_sq);
  const T wd = static_cast<T>(p.weight_decay);
  const T decay = static_cast<T>(1.0 - p.lr * p.weight_decay);
  const T w1 = static_cast<T>(1.0 - p.beta1);
  const T beta2 = static_cast<T>(p.beta2);
  const T w2 = static_cast<T>(1.0 - p.beta2);
  const T bc2 = static_cast<T>(p.bias_correction2_sqrt);
  const T eps = static_cast<T>(p.eps);
  const T neg_step = static_cast<T>(-p.step_size);
  for (int64_t i = 0; i < n; ++i) {
    T g = kMaximize ? -gp[i] : gp[i];
    T x = pp[i];
    if constexpr (kWd == 1) g = add_scaled(g, wd, x);
    if constexpr (kWd == 2) x = x * decay;
    const T m = lerp(mp[i], g, w1);
    const T v = add_scaled(vp[i] * beta2, w2, g * g);
    mp[i] = m;
    vp[i] = v;
    T src = v;
    if constexpr (kAmsgrad) {
      src = maximum(vmaxp[i], v);
      vmaxp[i] = src;
    }
    const T denom = std::sqrt(src) / bc2 + eps;
    pp[i] = add_scaled(x, neg_step, m / denom);
  }
}

template <typename T, bool kAmsgrad, bool kMaximize>
AdamStepLoop pick_adam_wd(const AdamStepParams& p) {
  if (p.weight_decay == 0) return &adam_block<T, kAmsgrad, kMaximize, 0>;
  if (p.decoupled) return &adam_block<T, kAmsgrad, kMaximize, 2>;
  return &adam_block<T, kAmsgrad, kMaximize, 1>;
}

// Picks the instantiation for the flags, then runs it: one indirect call per block.
template <typename T>
void adam_step(char* param, const char* grad, char* exp_avg, char* exp_avg_sq, char* max_exp_avg_sq,
               int64_t n, const AdamStepParams& p) {
  AdamStepLoop loop;
  if (p.amsgrad) {
    loop = p.maximize ? pick_adam_wd<T, true, true>(p) : pick_adam_wd<T, true, false>(p);
  } else {
    loop = p.maximize ? pick_adam_wd<T, false, true>(p) : pick_adam_wd<T, false, false>(p);
  }
  loop(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, n, p);
}

// kMomentum: 0 none, 1 existing buffer, 2 new buffer (a copy of the gradient), 3 and 4 the same
// with Nesterov: each variant is a straight loop the compiler vectorizes.
template <typename T, int kMomentum, bool kMaximize, bool kWd>
void sgd_block(char* param, const char* grad, char* momentum_buffer, int64_t n,
               const SgdStepParams& p) {
  T* __restrict pp = reinterpret_cast<T*>(param);
  const T* __restrict gp = reinterpret_cast<const T*>(grad);
  T* __restrict bp = reinterpret_cast<T*>(momentum_buffer);
  const T wd = static_cast<T>(p.weight_decay);
  const T momentum = static_cast<T>(p.momentum);
  const T w = static_cast<T>(1.0 - p.dampening);
  const T neg_lr = static_cast<T>(-p.lr);
  constexpr bool kNew = kMomentum == 2 || kMomentum == 4;
  constexpr bool kNesterov = kMomentum >= 3;
  for (int64_t i = 0; i < n; ++i) {
    T g = kMaximize ? -gp[i] : gp[i];
    const T x = pp[i];
    if constexpr (kWd) g = add_scaled(g, wd, x);
    if constexpr (kMomentum != 0) {
      const T b = kNew ? g : add_scaled(bp[i] * momentum, w, g);
      bp[i] = b;
      g = kNesterov ? add_scaled(g, momentum, b) : b;
    }
    pp[i] = add_scaled(x, neg_lr, g);
  }
}

template <typename T, int kMomentum>
SgdStepLoop pick_sgd_flags(const SgdStepParams& p) {
  const bool wd = p.weight_decay != 0;
  if (p.maximize) {
    return wd ? &sgd_block<T, kMomentum, true, true> : &sgd_block<T, kMomentum, true, false>;
  }
  return wd ? &sgd_block<T, kMomentum, false, true> : &sgd_block<T, kMomentum, false, false>;
}

template <typename T>
void sgd_step(char* param, const char* grad, char* momentum_buffer, int64_t n,
              const SgdStepParams& p) {
  SgdStepLoop loop;
  if (p.momentum == 0) {
    loop = pick_sgd_flags<T, 0>(p);
  } else if (p.nesterov) {
    loop = p.first_step ? pick_sgd_flags<T, 4>(p) : pick_sgd_flags<T, 3>(p);
  } else {
    loop = p.first_step ? pick_sgd_flags<T, 2>(p) : pick_sgd_flags<T, 1>(p);
  }
  loop(param, grad, momentum_buffer, n, p);
}

}  // namespace

void fill_optim_adaptive(KernelTable& t);  // optim_adaptive.cpp

void fill_optim(KernelTable& t) {
  fill_optim_adaptive(t);
  t.adam_step[static_cast<int>(ScalarType::Float32)] = &adam_step<float>;
  t.adam_step[static_cast<int>(ScalarType::Float64)] = &adam_step<double>;
  t.sgd_step[static_cast<int>(ScalarType::Float32)] = &sgd_step<float>;
  t.sgd_step[static_cast<int>(ScalarType::Float64)] = &sgd_step<double>;
}

}  // namespace ember::cpu::EMBER_ISA_NS
