// Softmax backward and fused cross-entropy (and, at the end, binary cross-entropy with logits)
// over a [outer, C, inner] view of a contiguous tensor:
// rows (inner == 1) run along C; otherwise each outer slice runs C times over `inner` lanes, so
// the inner loops stay contiguous and vectorize.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/parallel.h"
#include "float_acc.h"

namespace ember {
namespace {

using float_acc::Acc;
using float_acc::acc_dtype;
using float_acc::as_acc;
using float_acc::check_float;
using float_acc::dispatch_float;
using float_acc::ptr_or_null;
using float_acc::RowTasks;
using float_acc::vexp;

struct Layout {
  int64_t outer = 1, C = 1, inner = 1;
};

Layout layout_along(const Shape& sizes, int64_t d) {
  Layout l;
  for (int64_t e = 0; e < static_cast<int64_t>(sizes.size()); ++e) {
    (e < d ? l.outer : e == d ? l.C : l.inner) *= sizes[e];
  }
  return l;
}

// softmax: gi = y (g - sum g y); log_softmax: gi = g - exp(y) sum g.
template <typename T, typename A, bool LOG>
EMBER_ROW_CLONES void softmax_backward_slice(const T* g, const T* y, T* gi, const Layout& l,
                                             std::vector<A>& acc) {
  if (l.inner == 1) {
    A s = 0;
    if (LOG) {
#pragma omp simd reduction(+ : s)
      for (int64_t c = 0; c < l.C; ++c) s += static_cast<A>(g[c]);
#pragma omp simd
      for (int64_t c = 0; c < l.C; ++c)
        gi[c] = static_cast<T>(static_cast<A>(g[c]) - vexp(static_cast<A>(y[c])) * s);
    } else {
#pragma omp simd reduction(+ : s)
      for (int64_t c = 0; c < l.C; ++c) s += static_cast<A>(g[c]) * static_cast<A>(y[c]);
#pragma omp simd
      for (int64_t c = 0; c < l.C; ++c)
        gi[c] = static_cast<T>(static_cast<A>(y[c]) * (static_cast<A>(g[c]) - s));
    }
    return;
  }
  A* s = acc.data();
  std::fill(s, s + l.inner, A(0));
  for (int64_t c = 0; c < l.C; ++c) {
    const T* gc = g + c * l.inner;
    const T* yc = y + c * l.inner;
#pragma omp simd
    for (int64_t j = 0; j < l.inner; ++j)
      s[j] += LOG ? static_cast<A>(gc[j]) : static_cast<A>(gc[j]) * static_cast<A>(yc[j]);
  }
  for (int64_t c = 0; c < l.C; ++c) {
    const T* gc = g + c * l.inner;
    const T* yc = y + c * l.inner;
    T* oc = gi + c * l.inner;
#pragma omp simd
    for (int64_t j = 0; j < l.inner; ++j) {
      const A gv = static_cast<A>(gc[j]), yv = static_cast<A>(yc[j]);
      oc[j] = static_cast<T>(LOG ? gv - vexp(yv) * s[j] : yv * (gv - s[j]));
    }
  }
}

struct CeArgs {
  Layout l;
  int64_t ignore_index;
  double smoothing;
};

// Checks every target (outside the parallel loop, so the error is raised on the caller).
void check_targets(const int64_t* t, int64_t n, int64_t classes, int64_t ignore_index) {
  for (int64_t i = 0; i < n; ++i) {
    EMBER_CHECK(t[i] == ignore_index || (t[i] >= 0 && t[i] < classes), IndexError, "Target ", t[i],
                " is out of bounds.");
  }
}

// Forward over outer slices [o0, o1): logsumexp per position, the per-position loss (when
// `loss` is given: reduction none) and the partial sums of loss and of the picked weights.
template <typename T, typename A>
EMBER_ROW_CLONES void ce_forward_slices(const T* x, const int64_t* t, const A* w, A sum_w, T* loss,
                                        A* lse, const CeArgs& a, int64_t o0, int64_t o1,
                                        double* loss_sum, double* weight_sum, std::vector<A>& buf) {
  const Layout& l = a.l;
  const A eps = static_cast<A>(a.smoothing), cls = static_cast<A>(l.C);
  const A keep = A(1) - eps, spread = eps / cls;
  double ls = 0, ws = 0;
  for (int64_t o = o0; o < o1; ++o) {
    const T* xs = x + o * l.C * l.inner;
    A* mx = buf.data();
    A* se = mx + l.inner;
    A* wx = se + l.inner;  // sum_c w_c x_c (smoothing)
    if (l.inner == 1) {
      A m = -std::numeric_limits<A>::infinity();
#pragma omp simd reduction(max : m)
      for (int64_t c = 0; c < l.C; ++c) m = std::max(m, static_cast<A>(xs[c]));
      A s = 0, sx = 0;
      if (w) {
#pragma omp simd reduction(+ : s, sx)
        for (int64_t c = 0; c < l.C; ++c) {
          const A xv = static_cast<A>(xs[c]);
          s += vexp(xv - m);
          sx += w[c] * xv;
        }
      } else {
#pragma omp simd reduction(+ : s, sx)
        for (int64_t c = 0; c < l.C; ++c) {
          const A xv = static_cast<A>(xs[c]);
          s += vexp(xv - m);
          sx += xv;
        }
      }
      mx[0] = m, se[0] = s, wx[0] = sx;
    } else {
      std::fill(mx, mx + l.inner, -std::numeric_limits<A>::infinity());
      std::fill(se, se + 2 * l.inner, A(0));
      for (int64_t c = 0; c < l.C; ++c) {
        const T* xc = xs + c * l.inner;
#pragma omp simd
        for (int64_t j = 0; j < l.inner; ++j) mx[j] = std::max(mx[j], static_cast<A>(xc[j]));
      }
      for (int64_t c = 0; c < l.C; ++c) {
        const T* xc = xs + c * l.inner;
        const A wc = w ? w[c] : A(1);
#pragma omp simd
        for (int64_t j = 0; j < l.inner; ++j) {
          const A xv = static_cast<A>(xc[j]);
          se[j] += vexp(xv - mx[j]);
          wx[j] += wc * xv;
        }
      }
    }
    for (int64_t j = 0; j < l.inner; ++j) {
      const int64_t pos = o * l.inner + j;
      const A lse_v = mx[j] + std::log(se[j]);
      lse[pos] = lse_v;
      const int64_t ti = t[pos];
      A li = 0;
      if (ti != a.ignore_index) {
        const A wt = w ? w[ti] : A(1);
        const A nll = wt * (lse_v - static_cast<A>(xs[ti * l.inner + j]));
        li = eps > 0 ? keep * nll + spread * (lse_v * sum_w - wx[j]) : nll;
        ws += wt;
      }
      if (loss) loss[pos] = static_cast<T>(li);
      ls += li;
    }
  }
  *loss_sum = ls;
  *weight_sum = ws;
}

// dx_c = s (p_c ((1 - eps) w_t + eps / C sum_w) - (1 - eps) w_t [c == t] - eps / C w_c) at
// every valid position, s the incoming gradient (per position for reduction none).
template <typename T, typename A>
EMBER_ROW_CLONES void ce_backward_slices(const T* x, const int64_t* t, const A* w, A sum_w,
                                         const A* lse, const T* g_none, A g_scalar, T* gx,
                                         const CeArgs& a, int64_t o0, int64_t o1,
                                         std::vector<A>& buf) {
  const Layout& l = a.l;
  const A eps = static_cast<A>(a.smoothing), cls = static_cast<A>(l.C);
  const A keep = A(1) - eps, spread = eps / cls;
  A* scale = buf.data();  // s per lane
  A* pcoef = scale + l.inner;
  A* shift = pcoef + l.inner;  // lse per lane
  for (int64_t o = o0; o < o1; ++o) {
    const T* xs = x + o * l.C * l.inner;
    T* gs = gx + o * l.C * l.inner;
    for (int64_t j = 0; j < l.inner; ++j) {
      const int64_t pos = o * l.inner + j;
      const int64_t ti = t[pos];
      const bool valid = ti != a.ignore_index;
      const A s = valid ? (g_none ? static_cast<A>(g_none[pos]) : g_scalar) : A(0);
      const A wt = valid && w ? w[ti] : A(1);
      scale[j] = s;
      pcoef[j] = s * (keep * wt + spread * sum_w);
      shift[j] = lse[pos];
    }
    if (l.inner == 1) {
      const A pc = pcoef[0], sh = shift[0], sp = scale[0] * spread;
      if (w) {
#pragma omp simd
        for (int64_t c = 0; c < l.C; ++c)
          gs[c] = static_cast<T>(pc * vexp(static_cast<A>(xs[c]) - sh) - sp * w[c]);
      } else {
#pragma omp simd
        for (int64_t c = 0; c < l.C; ++c)
          gs[c] = static_cast<T>(pc * vexp(static_cast<A>(xs[c]) - sh) - sp);
      }
    } else {
      for (int64_t c = 0; c < l.C; ++c) {
        const T* xc = xs + c * l.inner;
        T* oc = gs + c * l.inner;
        const A wc = (w ? w[c] : A(1)) * spread;
#pragma omp simd
        for (int64_t j = 0; j < l.inner; ++j)
          oc[j] = static_cast<T>(pcoef[j] * vexp(static_cast<A>(xc[j]) - shift[j]) - scale[j] * wc);
      }
    }
    for (int64_t j = 0; j < l.inner; ++j) {
      const int64_t ti = t[o * l.inner + j];
      if (ti == a.ignore_index) continue;
      const A wt = w ? w[ti] : A(1);
      T& dst = gs[ti * l.inner + j];
      dst = static_cast<T>(static_cast<A>(dst) - scale[j] * keep * wt);
    }
  }
}

struct CeInputs {
  Tensor x, t, w;
  CeArgs a;
};

CeInputs ce_inputs(const Tensor& input, const Tensor& target, const Tensor& weight,
                   int64_t ignore_index, double smoothing, const char* op) {
  check_float(input, op, "input");
  EMBER_CHECK(input.dim() >= 2, RuntimeError, "[", op,
              "] expected input of at least 2 dims (N, C, *), got shape ", input.sizes());
  EMBER_CHECK(target.dtype() == ScalarType::Int64, RuntimeError, "[", op,
              "] expected int64 class-index targets, got ", dtype_name(target.dtype()));
  Shape expected = input.sizes();
  expected.erase(expected.begin() + 1);
  EMBER_CHECK(target.sizes() == expected, RuntimeError, "[", op, "] expected target of shape ",
              expected, " for input of shape ", input.sizes(), ", got ", target.sizes());
  EMBER_CHECK(smoothing >= 0.0 && smoothing <= 1.0, RuntimeError, "[", op,
              "] label_smoothing must be between 0.0 and 1.0, got ", smoothing);
  const int64_t C = input.sizes()[1];
  if (weight.defined()) {
    check_float(weight, op, "weight");
    EMBER_CHECK(weight.dim() == 1 && weight.numel() == C, RuntimeError, "[", op,
                "] weight tensor should be defined either for all ", C,
                " classes or no classes but got weight tensor of shape: ", weight.sizes());
  }
  const ScalarType acc = acc_dtype(input.dtype());
  return {contiguous(input), contiguous(target), as_acc(weight, acc),
          CeArgs{layout_along(input.sizes(), 1), ignore_index, smoothing}};
}

template <typename A>
A weight_sum(const A* w, int64_t C) {
  if (!w) return static_cast<A>(C);
  A s = 0;
  for (int64_t c = 0; c < C; ++c) s += w[c];
  return s;
}

}  // namespace

Tensor softmax_backward(const Tensor& grad_output, const Tensor& output, int64_t dim, bool log) {
  const char* op = log ? "log_softmax_backward" : "softmax_backward";
  check_float(output, op, "output");
  EMBER_CHECK(grad_output.sizes() == output.sizes(), RuntimeError, "[", op,
              "] expected grad_output and output of one shape, got ", grad_output.sizes(), " and ",
              output.sizes());
  const int64_t d = output.dim() == 0 ? 0 : wrap_dim(dim, output.dim(), op);
  const Tensor y = contiguous(output);
  const Tensor g = contiguous(
      grad_output.dtype() == output.dtype() ? grad_output : to_dtype(grad_output, output.dtype()));
  Tensor gi = Tensor::empty(output.sizes(), output.dtype());
  const Layout l = output.dim() == 0 ? Layout{} : layout_along(output.sizes(), d);
  if (output.numel() == 0) return gi;
  dispatch_float(output.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const T *gp = g.data<T>(), *yp = y.data<T>();
    T* op_ = gi.data<T>();
    const int64_t slice = l.C * l.inner;
    RowTasks(l.outer, slice).run([&](int64_t, int64_t o0, int64_t o1) {
      std::vector<A> acc(static_cast<size_t>(l.inner));
      for (int64_t o = o0; o < o1; ++o) {
        if (log) {
          softmax_backward_slice<T, A, true>(gp + o * slice, yp + o * slice, op_ + o * slice, l,
                                             acc);
        } else {
          softmax_backward_slice<T, A, false>(gp + o * slice, yp + o * slice, op_ + o * slice, l,
                                              acc);
        }
      }
    });
  });
  return gi;
}

std::tuple<Tensor, Tensor, Tensor> cross_entropy_forward(const Tensor& input, const Tensor& target,
                                                         const Tensor& weight,
                                                         LossReduction reduction,
                                                         int64_t ignore_index, double smoothing) {
  const char* op = "cross_entropy";
  const CeInputs in = ce_inputs(input, target, weight, ignore_index, smoothing, op);
  const Layout& l = in.a.l;
  const int64_t positions = l.outer * l.inner;
  const ScalarType acc = acc_dtype(input.dtype());
  check_targets(in.t.data<int64_t>(), positions, l.C, ignore_index);
  Tensor lse = Tensor::empty(target.sizes(), acc);
  Tensor loss = reduction == LossReduction::None ? Tensor::empty(target.sizes(), input.dtype())
                                                 : Tensor::empty({}, input.dtype());
  Tensor total = Tensor::empty({}, acc);
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const A* wp = ptr_or_null<A>(in.w);
    const A sum_w = weight_sum(wp, l.C);
    const RowTasks tasks(l.outer, l.C * l.inner);
    std::vector<double> ls(static_cast<size_t>(tasks.tasks), 0.0), ws(ls);
    if (positions > 0) {
      const T* xp = in.x.data<T>();
      const int64_t* tp = in.t.data<int64_t>();
      T* lp = reduction == LossReduction::None ? loss.data<T>() : nullptr;
      A* sp = lse.data<A>();
      tasks.run([&](int64_t k, int64_t o0, int64_t o1) {
        std::vector<A> buf(static_cast<size_t>(3 * l.inner));
        ce_forward_slices<T, A>(xp, tp, wp, sum_w, lp, sp, in.a, o0, o1, &ls[k], &ws[k], buf);
      });
    }
    double loss_sum = 0, w_sum = 0;
    for (size_t k = 0; k < ls.size(); ++k) loss_sum += ls[k], w_sum += ws[k];
    total.data<A>()[0] = static_cast<A>(w_sum);
    if (reduction == LossReduction::Sum) loss.data<T>()[0] = static_cast<T>(loss_sum);
    // 'mean' divides by the summed target weights (0 / 0 = nan when every target is ignored).
    if (reduction == LossReduction::Mean) loss.data<T>()[0] = static_cast<T>(loss_sum / w_sum);
  });
  return {loss, lse, total};
}

Tensor cross_entropy_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                              const Tensor& weight, const Tensor& logsumexp,
                              const Tensor& total_weight, LossReduction reduction,
                              int64_t ignore_index, double smoothing) {
  const char* op = "cross_entropy_backward";
  const CeInputs in = ce_inputs(input, target, weight, ignore_index, smoothing, op);
  const Layout& l = in.a.l;
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor lse = as_acc(logsumexp, acc);
  EMBER_CHECK(lse.sizes() == target.sizes(), RuntimeError, "[", op,
              "] expected logsumexp of the target's shape ", target.sizes(), ", got ", lse.sizes());
  const bool per_position = reduction == LossReduction::None;
  EMBER_CHECK(per_position ? grad.sizes() == target.sizes() : grad.numel() == 1, RuntimeError, "[",
              op, "] expected a gradient of shape ", per_position ? target.sizes() : Shape{},
              ", got ", grad.sizes());
  const Tensor g = contiguous(grad.dtype() == input.dtype() ? grad : to_dtype(grad, input.dtype()));
  Tensor gx = Tensor::empty(input.sizes(), input.dtype());
  if (input.numel() == 0) return gx;
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const A* wp = ptr_or_null<A>(in.w);
    const A sum_w = weight_sum(wp, l.C);
    A g_scalar = per_position ? A(0) : static_cast<A>(g.data<T>()[0]);
    if (reduction == LossReduction::Mean) {
      g_scalar /= static_cast<A>(item_double(total_weight, op));
    }
    const T* gn = per_position ? g.data<T>() : nullptr;
    const T* xp = in.x.data<T>();
    const int64_t* tp = in.t.data<int64_t>();
    const A* sp = lse.data<A>();
    T* out = gx.data<T>();
    RowTasks(l.outer, l.C * l.inner).run([&](int64_t, int64_t o0, int64_t o1) {
      std::vector<A> buf(static_cast<size_t>(3 * l.inner));
      ce_backward_slices<T, A>(xp, tp, wp, sum_w, sp, gn, g_scalar, out, in.a, o0, o1, buf);
    });
  });
  return gx;
}

// ---- binary cross-entropy with logits.

namespace {

struct BceInputs {
  Tensor input, target, weight, pos_weight;  // contiguous, one shape, one dtype
};

BceInputs bce_inputs(const Tensor& input, const Tensor& target, const Tensor& weight,
                     const Tensor& pos_weight, const char* op) {
  const ScalarType dt = input.dtype();
  EMBER_CHECK(dt == ScalarType::Float32 || dt == ScalarType::Float64, TypeError, "[", op,
              "] expected a float32 or float64 input, got ", dtype_name(dt));
  EMBER_CHECK(target.sizes() == input.sizes(), ValueError, "[", op, "] Target size (",
              target.sizes(), ") must be the same as input size (", input.sizes(), ")");
  auto same = [&](const Tensor& t, const char* what) {
    if (!t.defined()) return Tensor();
    EMBER_CHECK(t.dtype() == dt, TypeError, "[", op, "] expected ", what, " of dtype ",
                dtype_name(dt), ", got ", dtype_name(t.dtype()));
    broadcast_shapes(t.sizes(), input.sizes(), op);
    return contiguous(expand(t, input.sizes()));
  };
  return {contiguous(input), same(target, "target"), same(weight, "weight"),
          same(pos_weight, "pos_weight")};
}

// Runs fn(begin, end, chunk) over [0, n) in the chunks parallel_for would use: the same split
// for every call with the same n and thread count, so reductions are reproducible.
template <typename F>
int64_t over_chunks(int64_t n, F&& fn) {
  const int64_t chunks = parallel_chunks(0, n, kParallelGrain);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) fn(n * c / chunks, n * (c + 1) / chunks, c);
  });
  return chunks;
}

template <typename T>
T softplus_neg(T x) {  // log(1 + exp(-x)), without overflow
  return std::log1p(std::exp(-std::abs(x))) + std::max(-x, T(0));
}

template <typename T>
Tensor bce_forward(const BceInputs& in, LossReduction red) {
  const int64_t n = in.input.numel();
  const T* x = in.input.data<T>();
  const T* t = in.target.data<T>();
  const T* w = in.weight.defined() ? in.weight.data<T>() : nullptr;
  const T* pw = in.pos_weight.defined() ? in.pos_weight.data<T>() : nullptr;
  auto loss_at = [&](int64_t i) {
    const T lw = pw ? T(1) + (pw[i] - T(1)) * t[i] : T(1);
    const T l = (T(1) - t[i]) * x[i] + lw * softplus_neg(x[i]);
    return w ? l * w[i] : l;
  };
  if (red == LossReduction::None) {
    Tensor out = Tensor::empty(in.input.sizes(), in.input.dtype());
    T* o = out.data<T>();
    parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) o[i] = loss_at(i);
    });
    return out;
  }
  std::vector<double> partial(static_cast<size_t>(parallel_chunks(0, n, kParallelGrain)) + 1, 0.0);
  over_chunks(n, [&](int64_t b, int64_t e, int64_t c) {
    double s = 0;
    for (int64_t i = b; i < e; ++i) s += static_cast<double>(loss_at(i));
    partial[static_cast<size_t>(c)] = s;
  });
  double total = 0;
  for (double s : partial) total += s;
  if (red == LossReduction::Mean) total /= static_cast<double>(n);  // n == 0: nan, as torch
  Tensor out = Tensor::empty({}, in.input.dtype());
  *out.data<T>() = static_cast<T>(total);
  return out;
}

template <typename T>
Tensor bce_backward(const Tensor& grad_output, const BceInputs& in, LossReduction red) {
  const int64_t n = in.input.numel();
  const T* x = in.input.data<T>();
  const T* t = in.target.data<T>();
  const T* w = in.weight.defined() ? in.weight.data<T>() : nullptr;
  const T* pw = in.pos_weight.defined() ? in.pos_weight.data<T>() : nullptr;
  Tensor go;
  T scale = T(1);
  if (red == LossReduction::None) {
    go = contiguous(expand(to_dtype(grad_output, in.input.dtype()), in.input.sizes()));
  } else {
    scale =
        static_cast<T>(item_double(grad_output, "nn_binary_cross_entropy_with_logits_backward"));
    if (red == LossReduction::Mean) scale /= static_cast<T>(n);
  }
  const T* g = go.defined() ? go.data<T>() : nullptr;
  Tensor out = Tensor::empty(in.input.sizes(), in.input.dtype());
  T* o = out.data<T>();
  parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      // d/dx [(1 - t) x + lw softplus(-x)] = (1 - t) - lw sigmoid(-x)
      const T lw = pw ? T(1) + (pw[i] - T(1)) * t[i] : T(1);
      T d = (T(1) - t[i]) - lw / (T(1) + std::exp(x[i]));
      if (w) d *= w[i];
      o[i] = d * (g ? g[i] : scale);
    }
  });
  return out;
}

}  // namespace

Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        LossReduction red) {
  const char* op = "nn_binary_cross_entropy_with_logits";
  const BceInputs in = bce_inputs(input, target, weight, pos_weight, op);
  return input.dtype() == ScalarType::Float64 ? bce_forward<double>(in, red)
                                              : bce_forward<float>(in, red);
}

Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad_output, const Tensor& input,
                                                 const Tensor& target, const Tensor& weight,
                                                 const Tensor& pos_weight, LossReduction red) {
  const char* op = "nn_binary_cross_entropy_with_logits_backward";
  const BceInputs in = bce_inputs(input, target, weight, pos_weight, op);
  if (red == LossReduction::None) {
    EMBER_CHECK(grad_output.sizes() == input.sizes(), RuntimeError, "[", op, "] grad_output of ",
                "shape ", grad_output.sizes(), " does not match the input's ", input.sizes());
  } else {
    EMBER_CHECK(grad_output.numel() == 1, RuntimeError, "[", op, "] expected a 1-element ",
                "grad_output for a reduced loss, got shape ", grad_output.sizes());
  }
  return input.dtype() == ScalarType::Float64 ? bce_backward<double>(grad_output, in, red)
                                              : bce_backward<float>(grad_output, in, red);
}

}  // namespace ember
