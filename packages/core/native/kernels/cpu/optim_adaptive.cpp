// Fused steps of RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD and Rprop over one
// contiguous block: p/g/state read once, written once. Each loop repeats, operation by operation
// and rounding by rounding, the op-by-op reference path of its ember.optim class (torch's
// single-tensor algorithm); the file is compiled with -ffp-contract=off (see optim_math.h).
// Flags that change what is read are template bits, so every variant is a straight loop.
#include <array>
#include <cmath>
#include <utility>

#include "loops.h"
#include "optim_math.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

constexpr int kMax = 1;  // maximize
constexpr int kWd = 2;   // weight_decay != 0

template <typename T, int F>
inline T signed_grad(const T* gp, int64_t i) {
  return (F & kMax) ? -gp[i] : gp[i];
}

template <typename T>
inline T* state_ptr(char* const* state, int k) {
  return reinterpret_cast<T*>(state[k]);
}

// RMSprop. a = alpha, b = momentum; state: square_avg, momentum_buffer?, grad_avg?.
// Bits: 4 centered, 8 momentum.
template <typename T, int F>
struct Rmsprop {
  static constexpr int kVariants = 16;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0) | (p.centered ? 4 : 0) |
           (p.momentum ? 8 : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    constexpr bool kCentered = F & 4, kMomentum = F & 8;
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict vp = state_ptr<T>(state, 0);
    T* __restrict bp = kMomentum ? state_ptr<T>(state, 1) : nullptr;
    T* __restrict ap = kCentered ? state_ptr<T>(state, kMomentum ? 2 : 1) : nullptr;
    const T wd = static_cast<T>(p.weight_decay), alpha = static_cast<T>(p.a);
    const T w = static_cast<T>(1.0 - p.a), mom = static_cast<T>(p.b);
    const T eps = static_cast<T>(p.eps), neg_lr = static_cast<T>(-p.lr);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      const T x = pp[i];
      if constexpr (F & kWd) g = add_scaled(g, wd, x);
      const T v = add_scaled(vp[i] * alpha, w, g * g);
      vp[i] = v;
      T avg;
      if constexpr (kCentered) {
        const T ga = lerp(ap[i], g, w);
        ap[i] = ga;
        avg = std::sqrt(add_scaled(v, T(-1), ga * ga));
      } else {
        avg = std::sqrt(v);
      }
      avg = avg + eps;
      if constexpr (kMomentum) {
        const T b = add_scaled(bp[i] * mom, T(1), g / avg);
        bp[i] = b;
        pp[i] = add_scaled(x, neg_lr, b);
      } else {
        pp[i] = add_scaled(x, neg_lr, g / avg);
      }
    }
  }
};

// Adagrad. lr = the decayed lr of this step; state: sum.
template <typename T, int F>
struct Adagrad {
  static constexpr int kVariants = 4;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict sp = state_ptr<T>(state, 0);
    const T wd = static_cast<T>(p.weight_decay), eps = static_cast<T>(p.eps);
    const T neg_lr = static_cast<T>(-p.lr);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      const T x = pp[i];
      if constexpr (F & kWd) g = add_scaled(g, wd, x);
      const T s = add_scaled(sp[i], T(1), g * g);
      sp[i] = s;
      pp[i] = add_scaled(x, neg_lr, g / (std::sqrt(s) + eps));
    }
  }
};

// Adadelta. a = rho; state: square_avg, acc_delta.
template <typename T, int F>
struct Adadelta {
  static constexpr int kVariants = 4;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict vp = state_ptr<T>(state, 0);
    T* __restrict up = state_ptr<T>(state, 1);
    const T wd = static_cast<T>(p.weight_decay), eps = static_cast<T>(p.eps);
    const T rho = static_cast<T>(p.a), w = static_cast<T>(1.0 - p.a);
    const T neg_lr = static_cast<T>(-p.lr);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      const T x = pp[i];
      if constexpr (F & kWd) g = add_scaled(g, wd, x);
      const T v = add_scaled(vp[i] * rho, w, g * g);
      vp[i] = v;
      const T std_ = std::sqrt(v + eps);
      const T delta = (std::sqrt(up[i] + eps) / std_) * g;
      up[i] = add_scaled(up[i] * rho, w, delta * delta);
      pp[i] = add_scaled(x, neg_lr, delta);
    }
  }
};

// Adamax. a = beta1, b = beta2, lr = lr / (1 - beta1^step); state: exp_avg, exp_inf.
template <typename T, int F>
struct Adamax {
  static constexpr int kVariants = 4;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict mp = state_ptr<T>(state, 0);
    T* __restrict up = state_ptr<T>(state, 1);
    const T wd = static_cast<T>(p.weight_decay), eps = static_cast<T>(p.eps);
    const T w1 = static_cast<T>(1.0 - p.a), beta2 = static_cast<T>(p.b);
    const T neg_lr = static_cast<T>(-p.lr);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      const T x = pp[i];
      if constexpr (F & kWd) g = add_scaled(g, wd, x);
      const T m = lerp(mp[i], g, w1);
      mp[i] = m;
      const T u = maximum(up[i] * beta2, std::fabs(g) + eps);
      up[i] = u;
      pp[i] = add_scaled(x, neg_lr, m / u);
    }
  }
};

// NAdam. a = beta1, b = beta2, c = 1 - beta2^step, d and e the two addcdiv values of torch's
// step (on grad and on exp_avg); state: exp_avg, exp_avg_sq. Bit 4: decoupled weight decay.
template <typename T, int F>
struct Nadam {
  static constexpr int kVariants = 8;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0) | (p.decoupled ? 4 : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    constexpr bool kDecoupled = F & 4;
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict mp = state_ptr<T>(state, 0);
    T* __restrict vp = state_ptr<T>(state, 1);
    const T wd = static_cast<T>(p.weight_decay), eps = static_cast<T>(p.eps);
    const T decay = static_cast<T>(1.0 - p.lr * p.weight_decay);
    const T w1 = static_cast<T>(1.0 - p.a), beta2 = static_cast<T>(p.b);
    const T w2 = static_cast<T>(1.0 - p.b), bc2 = static_cast<T>(p.c);
    const T value_g = static_cast<T>(p.d), value_m = static_cast<T>(p.e);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      T x = pp[i];
      if constexpr ((F & kWd) && kDecoupled) x = x * decay;
      if constexpr ((F & kWd) && !kDecoupled) g = add_scaled(g, wd, x);
      const T m = lerp(mp[i], g, w1);
      mp[i] = m;
      const T v = add_scaled(vp[i] * beta2, w2, g * g);
      vp[i] = v;
      const T denom = std::sqrt(v / bc2) + eps;
      x = add_scaled(x, value_g, g / denom);
      pp[i] = add_scaled(x, value_m, m / denom);
    }
  }
};

// RAdam. a = beta1, b = beta2, c = 1 - beta1^step, d = the rectification term, e =
// sqrt(1 - beta2^step); state: exp_avg, exp_avg_sq. Bits: 4 decoupled, 8 rectified (rho_t > 5).
template <typename T, int F>
struct Radam {
  static constexpr int kVariants = 16;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0) | (p.decoupled ? 4 : 0) |
           (p.centered ? 8 : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    constexpr bool kDecoupled = F & 4, kRectified = F & 8;
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict mp = state_ptr<T>(state, 0);
    T* __restrict vp = state_ptr<T>(state, 1);
    const T wd = static_cast<T>(p.weight_decay), eps = static_cast<T>(p.eps);
    const T decay = static_cast<T>(1.0 - p.lr * p.weight_decay);
    const T w1 = static_cast<T>(1.0 - p.a), beta2 = static_cast<T>(p.b);
    const T w2 = static_cast<T>(1.0 - p.b), bc1 = static_cast<T>(p.c);
    const T lr = static_cast<T>(p.lr), rect = static_cast<T>(p.d);
    const T bc2_sqrt = static_cast<T>(p.e);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      T x = pp[i];
      if constexpr ((F & kWd) && kDecoupled) x = x * decay;
      if constexpr ((F & kWd) && !kDecoupled) g = add_scaled(g, wd, x);
      const T m = lerp(mp[i], g, w1);
      mp[i] = m;
      const T v = add_scaled(vp[i] * beta2, w2, g * g);
      vp[i] = v;
      const T corrected_lr = (m / bc1) * lr;
      if constexpr (kRectified) {
        const T adaptive_lr = bc2_sqrt / (std::sqrt(v) + eps);
        pp[i] = add_scaled(x, T(-1), (corrected_lr * adaptive_lr) * rect);
      } else {
        pp[i] = add_scaled(x, T(-1), corrected_lr);
      }
    }
  }
};

// ASGD. lr = eta, a = lambd, b = mu; state: ax. Bit 4: averaging (mu != 1), else ax = p.
template <typename T, int F>
struct Asgd {
  static constexpr int kVariants = 8;
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (p.weight_decay != 0 ? kWd : 0) | (p.centered ? 4 : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict ap = state_ptr<T>(state, 0);
    const T wd = static_cast<T>(p.weight_decay);
    const T decay = static_cast<T>(1.0 - p.a * p.lr), neg_eta = static_cast<T>(-p.lr);
    const T mu = static_cast<T>(p.b);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      const T x = pp[i];
      if constexpr (F & kWd) g = add_scaled(g, wd, x);
      const T y = add_scaled(x * decay, neg_eta, g);
      pp[i] = y;
      if constexpr (F & 4) {
        ap[i] = add_scaled(ap[i], T(1), (y - ap[i]) * mu);
      } else {
        ap[i] = y;
      }
    }
  }
};

// ember's sign: 0 for zeros and NaN.
template <typename T>
inline T sign_of(T x) {
  return static_cast<T>((T(0) < x) - (x < T(0)));
}

// Rprop. a = etaminus, b = etaplus, c = step_size_min, d = step_size_max; state: prev, step_size.
template <typename T, int F>
struct Rprop {
  static constexpr int kVariants = 4;
  // Bit 2: a NaN bound (never in practice) makes every size NaN or that bound.
  static int flags(const OptimStepParams& p) {
    return (p.maximize ? kMax : 0) | (std::isnan(p.c) || std::isnan(p.d) ? 2 : 0);
  }
  static void run(char* param, const char* grad, char* const* state, int64_t n,
                  const OptimStepParams& p) {
    T* __restrict pp = reinterpret_cast<T*>(param);
    const T* __restrict gp = reinterpret_cast<const T*>(grad);
    T* __restrict prevp = state_ptr<T>(state, 0);
    T* __restrict sp = state_ptr<T>(state, 1);
    const T etaminus = static_cast<T>(p.a), etaplus = static_cast<T>(p.b);
    const T lo = static_cast<T>(p.c), hi = static_cast<T>(p.d);
    for (int64_t i = 0; i < n; ++i) {
      T g = signed_grad<T, F>(gp, i);
      // The reference's three masked writes, in order: >0 -> etaplus, <0 -> etaminus, 0 -> 1.
      // Every choice is a select_value (a mask, no branch): GCC left the ternaries as control
      // flow and ran this loop scalar (22 GB/s against ~60 for the other fused steps).
      T s = sign_of(g * prevp[i]);
      s = select_value(s > 0, etaplus, s);
      s = select_value(s < 0, etaminus, s);
      s = select_value(s == 0, T(1), s);
      // clamp_(lo, hi) as ember's ClampBoth: a NaN size stays NaN (both tests are false).
      T size = sp[i] * s;
      if constexpr (F & 2) {
        size = select_value(std::isnan(size), size, std::isnan(lo) ? lo : hi);
      } else {
        size = select_value(size < lo, lo, size);
        size = select_value(size > hi, hi, size);
      }
      sp[i] = size;
      g = select_value(s == etaminus, T(0), g);
      pp[i] = add_scaled(pp[i], T(-1), sign_of(g) * size);
      prevp[i] = g;
    }
  }
};

template <typename T, template <typename, int> class K, int... F>
constexpr std::array<OptimStepLoop, sizeof...(F)> variants(std::integer_sequence<int, F...>) {
  return {&K<T, F>::run...};
}

// Picks the variant for the flags, then runs it: one indirect call per block.
template <typename T, template <typename, int> class K>
void step_loop(char* param, const char* grad, char* const* state, int64_t n,
               const OptimStepParams& p) {
  static constexpr auto kLoops =
      variants<T, K>(std::make_integer_sequence<int, K<T, 0>::kVariants>{});
  kLoops[static_cast<size_t>(K<T, 0>::flags(p))](param, grad, state, n, p);
}

template <template <typename, int> class K>
void fill_algo(KernelTable& t, OptimAlgo algo) {
  t.optim_step[static_cast<int>(algo)][static_cast<int>(ScalarType::Float32)] =
      &step_loop<float, K>;
  t.optim_step[static_cast<int>(algo)][static_cast<int>(ScalarType::Float64)] =
      &step_loop<double, K>;
}

}  // namespace

void fill_optim_adaptive(KernelTable& t) {
  fill_algo<Rmsprop>(t, OptimAlgo::kRMSprop);
  fill_algo<Adagrad>(t, OptimAlgo::kAdagrad);
  fill_algo<Adadelta>(t, OptimAlgo::kAdadelta);
  fill_algo<Adamax>(t, OptimAlgo::kAdamax);
  fill_algo<Nadam>(t, OptimAlgo::kNAdam);
  fill_algo<Radam>(t, OptimAlgo::kRAdam);
  fill_algo<Asgd>(t, OptimAlgo::kASGD);
  fill_algo<Rprop>(t, OptimAlgo::kRprop);
}

}  // namespace ember::cpu::EMBER_ISA_NS
