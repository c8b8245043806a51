// Layer, RMS, group and batch norm: one native pass forward (statistics, then the normalized and
// affine output while the row is in cache) and one backward (both row sums, then the input
// gradient; weight/bias gradients from per-task partial sums, added up at the end).
#include <algorithm>
#include <cmath>
#include <vector>

#include "ember/errors.h"
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

// Sums the per-task partials [tasks, n] into dst [n] (of the parameter's dtype).
template <typename A>
Tensor sum_partials(const std::vector<A>& partial, int64_t tasks, int64_t n, ScalarType acc,
                    ScalarType out_dt, const Shape& shape) {
  Tensor r = Tensor::empty(shape, acc);
  A* d = r.data<A>();
  for (int64_t i = 0; i < n; ++i) d[i] = 0;
  for (int64_t k = 0; k < tasks; ++k) {
    const A* p = partial.data() + k * n;
    for (int64_t i = 0; i < n; ++i) d[i] += p[i];
  }
  return out_dt == acc ? r : to_dtype(r, out_dt);
}

// ---- layer norm / RMS norm ----------------------------------------------------------------

// The mean (0 for RMS) and rstd of one row, two passes over it (the row stays in cache).
template <typename T, typename A, bool RMS>
__attribute__((always_inline)) inline void row_stats(const T* xr, int64_t n, A eps, A* mean,
                                                     A* rstd) {
  A mu = 0;
  if (!RMS) {
    A s = 0;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < n; ++i) s += static_cast<A>(xr[i]);
    mu = s / static_cast<A>(n);
  }
  A sq = 0;
#pragma omp simd reduction(+ : sq)
  for (int64_t i = 0; i < n; ++i) {
    const A d = static_cast<A>(xr[i]) - mu;
    sq += d * d;
  }
  *mean = mu;
  *rstd = A(1) / std::sqrt(sq / static_cast<A>(n) + eps);
}

// grad_input rows (statistics recomputed from x, so backward saves no forward output; w is never
// null: ones when there is no weight), and this task's partial sums of g * xhat (gw) and g (gb)
// when wanted.
template <typename T, typename A, bool RMS>
EMBER_ROW_CLONES void layer_norm_backward_rows(const T* g, const T* x, const A* w, T* gi, A* gw,
                                               A* gb, int64_t r0, int64_t r1, int64_t n, A eps) {
  const A inv_n = A(1) / static_cast<A>(n);
  for (int64_t r = r0; r < r1; ++r) {
    const T* gr = g + r * n;
    const T* xr = x + r * n;
    A mu, rs;
    row_stats<T, A, RMS>(xr, n, eps, &mu, &rs);
    if (gi) {
      A s1 = 0, s2 = 0;  // sum(g w), sum(g w xhat)
#pragma omp simd reduction(+ : s1, s2)
      for (int64_t i = 0; i < n; ++i) {
        const A gw_i = static_cast<A>(gr[i]) * w[i];
        s1 += gw_i;
        s2 += gw_i * (static_cast<A>(xr[i]) - mu) * rs;
      }
      const A c1 = RMS ? A(0) : s1 * inv_n, c2 = s2 * inv_n;
      T* out = gi + r * n;
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) {
        const A xhat = (static_cast<A>(xr[i]) - mu) * rs;
        const A gw_i = static_cast<A>(gr[i]) * w[i];
        out[i] = static_cast<T>((gw_i - c1 - xhat * c2) * rs);
      }
    }
    if (gw) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i)
        gw[i] += static_cast<A>(gr[i]) * (static_cast<A>(xr[i]) - mu) * rs;
    }
    if (gb) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) gb[i] += static_cast<A>(gr[i]);
    }
  }
}

template <typename T, typename A, bool RMS>
EMBER_ROW_CLONES void layer_norm_rows(const T* x, T* y, const A* w, const A* b, A* mean_out,
                                      A* rstd_out, int64_t r0, int64_t r1, int64_t n, A eps) {
  for (int64_t r = r0; r < r1; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    A mean, rstd;
    row_stats<T, A, RMS>(xr, n, eps, &mean, &rstd);
    if (mean_out) mean_out[r] = mean;
    rstd_out[r] = rstd;
    if (w && b) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i)
        yr[i] = static_cast<T>((static_cast<A>(xr[i]) - mean) * rstd * w[i] + b[i]);
    } else if (w) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i)
        yr[i] = static_cast<T>((static_cast<A>(xr[i]) - mean) * rstd * w[i]);
    } else if (b) {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i)
        yr[i] = static_cast<T>((static_cast<A>(xr[i]) - mean) * rstd + b[i]);
    } else {
#pragma omp simd
      for (int64_t i = 0; i < n; ++i) yr[i] = static_cast<T>((static_cast<A>(xr[i]) - mean) * rstd);
    }
  }
}

struct RowSplit {
  Shape lead, normalized;
  int64_t rows = 1, n = 1;
};

RowSplit split_rows(const Tensor& input, int64_t normalized_ndim, const char* op) {
  EMBER_CHECK(normalized_ndim >= 1 && normalized_ndim <= input.dim(), RuntimeError, "[", op,
              "] normalized_ndim must be in [1, ", input.dim(), "] for an input of shape ",
              input.sizes(), ", got ", normalized_ndim);
  RowSplit s;
  const int64_t k = input.dim() - normalized_ndim;
  for (int64_t d = 0; d < input.dim(); ++d) {
    (d < k ? s.lead : s.normalized).push_back(input.sizes()[d]);
    (d < k ? s.rows : s.n) *= input.sizes()[d];
  }
  return s;
}

void check_param(const Tensor& t, const Shape& shape, const char* op, const char* what) {
  if (!t.defined()) return;
  check_float(t, op, what);
  EMBER_CHECK(t.sizes() == shape, RuntimeError, "[", op, "] expected ", what, " of shape ", shape,
              ", got ", t.sizes());
}

void check_same_shape(const Tensor& a, const Tensor& b, const char* op, const char* what) {
  EMBER_CHECK(a.sizes() == b.sizes(), RuntimeError, "[", op, "] expected ", what,
              " of one shape, got ", a.sizes(), " and ", b.sizes());
}

// grad_output in the input's dtype (autocast may hand back another one), contiguous.
Tensor grad_like(const Tensor& grad_output, const Tensor& input) {
  return contiguous(grad_output.dtype() == input.dtype() ? grad_output
                                                         : to_dtype(grad_output, input.dtype()));
}

Shape keep_shape(const Shape& lead, int64_t ones) {
  Shape s = lead;
  s.insert(s.end(), static_cast<size_t>(ones), 1);
  return s;
}

}  // namespace

Tensor3 layer_norm_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           int64_t normalized_ndim, double eps, bool rms) {
  const char* op = rms ? "rms_norm" : "layer_norm";
  check_float(input, op, "input");
  const RowSplit s = split_rows(input, normalized_ndim, op);
  check_param(weight, s.normalized, op, "weight");
  check_param(bias, s.normalized, op, "bias");
  EMBER_CHECK(!(rms && bias.defined()), RuntimeError, "[", op, "] takes no bias");
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor x = contiguous(input), w = as_acc(weight, acc), b = as_acc(bias, acc);
  Tensor out = Tensor::empty(input.sizes(), input.dtype());
  const Shape st = keep_shape(s.lead, normalized_ndim);
  Tensor mean = rms ? Tensor() : Tensor::empty(st, acc);
  Tensor rstd = Tensor::empty(st, acc);
  if (s.rows == 0) return {out, mean, rstd};
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const T* xp = x.data<T>();
    T* yp = out.data<T>();
    const A *wp = ptr_or_null<A>(w), *bp = ptr_or_null<A>(b);
    A* mp = rms ? nullptr : mean.data<A>();
    A* rp = rstd.data<A>();
    const RowTasks tasks(s.rows, s.n);
    tasks.run([&](int64_t, int64_t r0, int64_t r1) {
      if (rms) {
        layer_norm_rows<T, A, true>(xp, yp, wp, bp, mp, rp, r0, r1, s.n, static_cast<A>(eps));
      } else {
        layer_norm_rows<T, A, false>(xp, yp, wp, bp, mp, rp, r0, r1, s.n, static_cast<A>(eps));
      }
    });
  });
  return {out, mean, rstd};
}

Tensor3 layer_norm_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            int64_t normalized_ndim, double eps, bool rms, GradMask mask) {
  const char* op = rms ? "rms_norm_backward" : "layer_norm_backward";
  check_float(input, op, "input");
  check_same_shape(grad_output, input, op, "grad_output and input");
  const RowSplit s = split_rows(input, normalized_ndim, op);
  check_param(weight, s.normalized, op, "weight");
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor g = grad_like(grad_output, input), x = contiguous(input);
  // No weight reads as ones: one branch-free inner loop for both cases.
  const Tensor w = weight.defined() ? as_acc(weight, acc) : ones({s.n}, acc);
  Tensor gi = mask[0] ? Tensor::empty(input.sizes(), input.dtype()) : Tensor();
  const bool want_w = mask[1] && weight.defined(), want_b = mask[2] && !rms;
  Tensor gw, gb;
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const RowTasks tasks(s.rows, s.n);
    const A ae = static_cast<A>(eps);
    std::vector<A> pw(want_w ? tasks.tasks * s.n : 0, A(0)),
        pb(want_b ? tasks.tasks * s.n : 0, A(0));
    if (s.rows > 0) {
      const T *gp = g.data<T>(), *xp = x.data<T>();
      const A* wp = ptr_or_null<A>(w);
      T* gip = gi.defined() ? gi.data<T>() : nullptr;
      tasks.run([&](int64_t k, int64_t r0, int64_t r1) {
        A* wk = want_w ? pw.data() + k * s.n : nullptr;
        A* bk = want_b ? pb.data() + k * s.n : nullptr;
        if (rms) {
          layer_norm_backward_rows<T, A, true>(gp, xp, wp, gip, wk, bk, r0, r1, s.n, ae);
        } else {
          layer_norm_backward_rows<T, A, false>(gp, xp, wp, gip, wk, bk, r0, r1, s.n, ae);
        }
      });
    }
    if (want_w) gw = sum_partials(pw, tasks.tasks, s.n, acc, weight.dtype(), s.normalized);
    if (want_b)
      gb = sum_partials(pb, tasks.tasks, s.n, acc,
                        weight.defined() ? weight.dtype() : input.dtype(), s.normalized);
  });
  return {gi, gw, gb};
}

// ---- group norm -----------------------------------------------------------------------------

namespace {

struct GroupGeo {
  int64_t N, C, G, Cg, S;  // S: spatial elements per channel
};

GroupGeo group_geo(const Tensor& input, int64_t groups, const char* op) {
  EMBER_CHECK(input.dim() >= 2, RuntimeError, "[", op,
              "] expected an input of at least 2 dims (N, C, *), got shape ", input.sizes());
  GroupGeo g{input.sizes()[0], input.sizes()[1], groups, 0, 1};
  EMBER_CHECK(groups > 0 && g.C % groups == 0, RuntimeError, "[", op, "] expected the channels (",
              g.C, ") to be divisible by num_groups, got ", groups);
  g.Cg = g.C / groups;
  for (int64_t d = 2; d < input.dim(); ++d) g.S *= input.sizes()[d];
  return g;
}

template <typename T, typename A>
EMBER_ROW_CLONES void group_norm_rows(const T* x, T* y, const A* w, const A* b, A* mean, A* rstd,
                                      const GroupGeo& q, int64_t r0, int64_t r1, A eps) {
  const int64_t len = q.Cg * q.S;
  for (int64_t r = r0; r < r1; ++r) {
    const T* xr = x + r * len;
    T* yr = y + r * len;
    row_stats<T, A, false>(xr, len, eps, &mean[r], &rstd[r]);
    const A mu = mean[r], rs = rstd[r];
    const int64_t c0 = (r % q.G) * q.Cg;
    for (int64_t c = 0; c < q.Cg; ++c) {
      const A scale = rs * (w ? w[c0 + c] : A(1));
      const A shift = (b ? b[c0 + c] : A(0)) - mu * scale;
      const T* xc = xr + c * q.S;
      T* yc = yr + c * q.S;
#pragma omp simd
      for (int64_t i = 0; i < q.S; ++i)
        yc[i] = static_cast<T>(static_cast<A>(xc[i]) * scale + shift);
    }
  }
}

// Per (row, channel): sg = sum g and sgx = sum g (x - mean), into sums[(r * Cg + c) * 2 + {0, 1}]
// (the row's statistics recomputed in the same pass); then the input gradient of the row.
template <typename T, typename A>
EMBER_ROW_CLONES void group_norm_backward_rows(const T* g, const T* x, A* mean, A* rstd, const A* w,
                                               T* gi, A* sums, const GroupGeo& q, int64_t r0,
                                               int64_t r1, A eps) {
  const int64_t len = q.Cg * q.S;
  const A inv = A(1) / static_cast<A>(len);
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t c0 = (r % q.G) * q.Cg;
    // One pass for the statistics and the per-channel sums, shifted by the row's first element
    // (so neither the variance nor sum g (x - mean) cancels when the mean is large).
    const A shift = len > 0 ? static_cast<A>(x[r * len]) : A(0);
    A sd = 0, sdd = 0;
    for (int64_t c = 0; c < q.Cg; ++c) {
      const T* gc = g + r * len + c * q.S;
      const T* xc = x + r * len + c * q.S;
      A sg = 0, sgd = 0, cd = 0, cdd = 0;
#pragma omp simd reduction(+ : sg, sgd, cd, cdd)
      for (int64_t i = 0; i < q.S; ++i) {
        const A gv = static_cast<A>(gc[i]), d = static_cast<A>(xc[i]) - shift;
        sg += gv;
        sgd += gv * d;
        cd += d;
        cdd += d * d;
      }
      sums[(r * q.Cg + c) * 2] = sg;
      sums[(r * q.Cg + c) * 2 + 1] = sgd;
      sd += cd;
      sdd += cdd;
    }
    const A md = sd * inv;
    const A mu = shift + md;
    const A rs = A(1) / std::sqrt(std::max(sdd * inv - md * md, A(0)) + eps);
    mean[r] = mu;
    rstd[r] = rs;
    A s1 = 0, s2 = 0;  // sum(g w), sum(g w xhat)
    for (int64_t c = 0; c < q.Cg; ++c) {
      const A sg = sums[(r * q.Cg + c) * 2];
      // sum g (x - mean), kept for the weight gradient
      const A sgx = sums[(r * q.Cg + c) * 2 + 1] - md * sg;
      sums[(r * q.Cg + c) * 2 + 1] = sgx;
      const A wc = w ? w[c0 + c] : A(1);
      s1 += wc * sg;
      s2 += wc * sgx * rs;
    }
    if (!gi) continue;
    const A c1 = s1 * inv, c2 = s2 * inv;
    for (int64_t c = 0; c < q.Cg; ++c) {
      const A wc = w ? w[c0 + c] : A(1);
      const T* gc = g + r * len + c * q.S;
      const T* xc = x + r * len + c * q.S;
      T* oc = gi + r * len + c * q.S;
#pragma omp simd
      for (int64_t i = 0; i < q.S; ++i) {
        const A xhat = (static_cast<A>(xc[i]) - mu) * rs;
        oc[i] = static_cast<T>((static_cast<A>(gc[i]) * wc - c1 - xhat * c2) * rs);
      }
    }
  }
}

}  // namespace

Tensor3 group_norm_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           int64_t groups, double eps) {
  const char* op = "group_norm";
  check_float(input, op, "input");
  const GroupGeo q = group_geo(input, groups, op);
  check_param(weight, {q.C}, op, "weight");
  check_param(bias, {q.C}, op, "bias");
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor x = contiguous(input), w = as_acc(weight, acc), b = as_acc(bias, acc);
  Tensor out = Tensor::empty(input.sizes(), input.dtype());
  Tensor mean = Tensor::empty({q.N, q.G}, acc), rstd = Tensor::empty({q.N, q.G}, acc);
  if (q.N == 0) return {out, mean, rstd};
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const T* xp = x.data<T>();
    T* yp = out.data<T>();
    const A *wp = ptr_or_null<A>(w), *bp = ptr_or_null<A>(b);
    A *mp = mean.data<A>(), *rp = rstd.data<A>();
    RowTasks(q.N * q.G, q.Cg * q.S).run([&](int64_t, int64_t r0, int64_t r1) {
      group_norm_rows<T, A>(xp, yp, wp, bp, mp, rp, q, r0, r1, static_cast<A>(eps));
    });
  });
  return {out, mean, rstd};
}

Tensor3 group_norm_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            int64_t groups, double eps, GradMask mask) {
  const char* op = "group_norm_backward";
  check_float(input, op, "input");
  check_same_shape(grad_output, input, op, "grad_output and input");
  const GroupGeo q = group_geo(input, groups, op);
  check_param(weight, {q.C}, op, "weight");
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor g = grad_like(grad_output, input);
  const Tensor x = contiguous(input), w = as_acc(weight, acc);
  Tensor gi = mask[0] ? Tensor::empty(input.sizes(), input.dtype()) : Tensor();
  Tensor gw, gb;
  const ScalarType pdt = weight.defined() ? weight.dtype() : input.dtype();
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const int64_t rows = q.N * q.G;
    std::vector<A> sums(static_cast<size_t>(rows * q.Cg * 2)), mu(static_cast<size_t>(rows)),
        rs(static_cast<size_t>(rows));
    if (rows > 0) {
      const T *gp = g.data<T>(), *xp = x.data<T>();
      A *mp = mu.data(), *rp = rs.data();
      const A* wp = ptr_or_null<A>(w);
      T* gip = gi.defined() ? gi.data<T>() : nullptr;
      RowTasks(rows, q.Cg * q.S).run([&](int64_t, int64_t r0, int64_t r1) {
        group_norm_backward_rows<T, A>(gp, xp, mp, rp, wp, gip, sums.data(), q, r0, r1,
                                       static_cast<A>(eps));
      });
    }
    // Per channel over the batch: gw = sum sgx rstd, gb = sum sg.
    const bool want_w = mask[1] && weight.defined(), want_b = mask[2];
    if (!want_w && !want_b) return;
    std::vector<A> dw(static_cast<size_t>(q.C), A(0)), db(static_cast<size_t>(q.C), A(0));
    for (int64_t n = 0; n < q.N; ++n) {
      for (int64_t gr = 0; gr < q.G; ++gr) {
        const int64_t r = n * q.G + gr;
        for (int64_t c = 0; c < q.Cg; ++c) {
          const A sg = sums[(r * q.Cg + c) * 2], sgx = sums[(r * q.Cg + c) * 2 + 1];
          dw[gr * q.Cg + c] += sgx * rs[r];
          db[gr * q.Cg + c] += sg;
        }
      }
    }
    if (want_w) gw = sum_partials(dw, 1, q.C, acc, pdt, {q.C});
    if (want_b) gb = sum_partials(db, 1, q.C, acc, pdt, {q.C});
  });
  return {gi, gw, gb};
}

// ---- batch norm -----------------------------------------------------------------------------

namespace {

struct ChannelGeo {
  int64_t N, C, S;
};

ChannelGeo channel_geo(const Tensor& input, const char* op) {
  EMBER_CHECK(input.dim() >= 2, RuntimeError, "[", op,
              "] expected an input of at least 2 dims (N, C, *), got shape ", input.sizes());
  ChannelGeo g{input.sizes()[0], input.sizes()[1], 1};
  for (int64_t d = 2; d < input.dim(); ++d) g.S *= input.sizes()[d];
  return g;
}

// running = (1 - momentum) * running + momentum * stat, in the running tensor's own dtype. The
// version is left alone: autograd saves the running statistics (for the eval-mode gradient)
// before this call, and the training-mode gradient never reads them.
void update_running(const Tensor& running, const std::vector<double>& stat, double momentum,
                    const char* op, const char* what) {
  check_float(running, op, what);
  EMBER_CHECK(running.is_contiguous(), RuntimeError, "[", op, "] expected a contiguous ", what);
  running.check_writable(op);
  dispatch_float(running.dtype(), [&](auto tag) {
    using R = decltype(tag);
    R* p = running.data<R>();
    for (size_t c = 0; c < stat.size(); ++c) {
      p[c] = static_cast<R>((1.0 - momentum) * static_cast<double>(p[c]) + momentum * stat[c]);
    }
  });
}

// Per-channel sum and centred sum of squares of x[:, c, :].
template <typename T, typename A>
EMBER_ROW_CLONES void channel_stats(const T* x, const ChannelGeo& q, int64_t c, A* mean, A* var) {
  A s = 0;
  for (int64_t n = 0; n < q.N; ++n) {
    const T* p = x + (n * q.C + c) * q.S;
#pragma omp simd reduction(+ : s)
    for (int64_t i = 0; i < q.S; ++i) s += static_cast<A>(p[i]);
  }
  const A count = static_cast<A>(q.N * q.S);
  const A mu = s / count;
  A sq = 0;
  for (int64_t n = 0; n < q.N; ++n) {
    const T* p = x + (n * q.C + c) * q.S;
#pragma omp simd reduction(+ : sq)
    for (int64_t i = 0; i < q.S; ++i) {
      const A d = static_cast<A>(p[i]) - mu;
      sq += d * d;
    }
  }
  *mean = mu;
  *var = sq / count;
}

// y = x * scale + shift over one plane.
template <typename T, typename A>
EMBER_ROW_CLONES void affine_plane(const T* x, T* y, int64_t n, A scale, A shift) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(static_cast<A>(x[i]) * scale + shift);
}

// Adds sum g, sum g d, sum d and sum d^2 (d = x - shift) over one plane to s[0..3].
template <typename T, typename A>
EMBER_ROW_CLONES void grad_sums_plane(const T* g, const T* x, int64_t n, A shift, A* s) {
  A sg = 0, sgd = 0, sd = 0, sdd = 0;
#pragma omp simd reduction(+ : sg, sgd, sd, sdd)
  for (int64_t i = 0; i < n; ++i) {
    const A gv = static_cast<A>(g[i]), d = static_cast<A>(x[i]) - shift;
    sg += gv;
    sgd += gv * d;
    sd += d;
    sdd += d * d;
  }
  s[0] += sg, s[1] += sgd, s[2] += sd, s[3] += sdd;
}

// gi = (g - c1 - (x - m) rs c2) * scale over one plane.
template <typename T, typename A>
EMBER_ROW_CLONES void grad_plane(const T* g, const T* x, T* gi, int64_t n, A m, A rs, A c1, A c2,
                                 A scale) {
#pragma omp simd
  for (int64_t i = 0; i < n; ++i) {
    const A xhat = (static_cast<A>(x[i]) - m) * rs;
    gi[i] = static_cast<T>((static_cast<A>(g[i]) - c1 - xhat * c2) * scale);
  }
}

// Channels split over the pool; fn(c) does one channel.
template <typename Fn>
void for_channels(const ChannelGeo& q, Fn&& fn) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, q.N * q.S));
  parallel_for(0, q.C, grain, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) fn(c);
  });
}

}  // namespace

Tensor3 batch_norm_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                           const Tensor& running_mean, const Tensor& running_var, bool training,
                           double momentum, double eps) {
  const char* op = "batch_norm";
  check_float(input, op, "input");
  const ChannelGeo q = channel_geo(input, op);
  check_param(weight, {q.C}, op, "weight");
  check_param(bias, {q.C}, op, "bias");
  check_param(running_mean, {q.C}, op, "running_mean");
  check_param(running_var, {q.C}, op, "running_var");
  EMBER_CHECK(training || (running_mean.defined() && running_var.defined()), RuntimeError, "[", op,
              "] running_mean and running_var must be defined when training=False");
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor x = contiguous(input), w = as_acc(weight, acc), b = as_acc(bias, acc);
  Tensor out = Tensor::empty(input.sizes(), input.dtype());
  Tensor mean = Tensor::empty({q.C}, acc), invstd = Tensor::empty({q.C}, acc);
  const int64_t count = q.N * q.S;
  std::vector<double> batch_mean, batch_var;
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    A *mp = mean.data<A>(), *ip = invstd.data<A>();
    if (!training) {
      const Tensor rm = as_acc(running_mean, acc), rv = as_acc(running_var, acc);
      for (int64_t c = 0; c < q.C; ++c) {
        mp[c] = rm.data<A>()[c];
        ip[c] = A(1) / std::sqrt(rv.data<A>()[c] + static_cast<A>(eps));
      }
    }
    const T* xp = x.data<T>();
    T* yp = out.data<T>();
    const A *wp = ptr_or_null<A>(w), *bp = ptr_or_null<A>(b);
    std::vector<A> var(static_cast<size_t>(q.C));
    for_channels(q, [&](int64_t c) {
      if (training) {
        channel_stats<T, A>(xp, q, c, &mp[c], &var[c]);
        ip[c] = A(1) / std::sqrt(var[c] + static_cast<A>(eps));
      }
      const A scale = ip[c] * (wp ? wp[c] : A(1));
      const A shift = (bp ? bp[c] : A(0)) - mp[c] * scale;
      for (int64_t n = 0; n < q.N; ++n) {
        affine_plane<T, A>(xp + (n * q.C + c) * q.S, yp + (n * q.C + c) * q.S, q.S, scale, shift);
      }
    });
    if (training) {
      batch_mean.assign(mp, mp + q.C);
      const double unbias =
          static_cast<double>(count) / static_cast<double>(std::max<int64_t>(count - 1, 1));
      for (int64_t c = 0; c < q.C; ++c) batch_var.push_back(static_cast<double>(var[c]) * unbias);
    }
  });
  if (training && count > 0) {
    if (running_mean.defined())
      update_running(running_mean, batch_mean, momentum, op, "running_mean");
    if (running_var.defined()) update_running(running_var, batch_var, momentum, op, "running_var");
  }
  return {out, mean, invstd};
}

Tensor3 batch_norm_backward(const Tensor& grad_output, const Tensor& input, const Tensor& weight,
                            const Tensor& running_mean, const Tensor& running_var, bool training,
                            double eps, GradMask mask) {
  const char* op = "batch_norm_backward";
  check_float(input, op, "input");
  check_same_shape(grad_output, input, op, "grad_output and input");
  const ChannelGeo q = channel_geo(input, op);
  check_param(weight, {q.C}, op, "weight");
  EMBER_CHECK(training || (running_mean.defined() && running_var.defined()), RuntimeError, "[", op,
              "] running_mean and running_var must be defined when training=False");
  const ScalarType acc = acc_dtype(input.dtype());
  const Tensor rm = training ? Tensor() : as_acc(running_mean, acc);
  const Tensor rv = training ? Tensor() : as_acc(running_var, acc);
  const Tensor g = grad_like(grad_output, input);
  const Tensor x = contiguous(input), w = as_acc(weight, acc);
  Tensor gi = mask[0] ? Tensor::empty(input.sizes(), input.dtype()) : Tensor();
  const bool want_w = mask[1] && weight.defined(), want_b = mask[2];
  Tensor gw = want_w ? Tensor::empty({q.C}, acc) : Tensor();
  Tensor gb = want_b ? Tensor::empty({q.C}, acc) : Tensor();
  dispatch_float(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using A = typename Acc<T>::type;
    const T *gp = g.data<T>(), *xp = x.data<T>();
    const A* wp = ptr_or_null<A>(w);
    T* gip = gi.defined() ? gi.data<T>() : nullptr;
    const A count = static_cast<A>(q.N * q.S);
    for_channels(q, [&](int64_t c) {
      // One pass for sum g, sum g x and (training) the batch statistics, shifted by the
      // channel's first element so that the variance does not cancel.
      const A shift = q.N * q.S > 0 ? static_cast<A>(xp[c * q.S]) : A(0);
      A sums[4] = {0, 0, 0, 0};
      for (int64_t n = 0; n < q.N; ++n) {
        const int64_t off = (n * q.C + c) * q.S;
        grad_sums_plane<T, A>(gp + off, xp + off, q.S, shift, sums);
      }
      const A sg = sums[0], sgd = sums[1], sd = sums[2], sdd = sums[3];
      A m, rs;
      if (training) {
        const A md = sd / count;
        m = shift + md;
        rs = A(1) / std::sqrt(std::max(sdd / count - md * md, A(0)) + static_cast<A>(eps));
      } else {
        m = rm.data<A>()[c];
        rs = A(1) / std::sqrt(rv.data<A>()[c] + static_cast<A>(eps));
      }
      const A sgx = (sgd - (m - shift) * sg) * rs;  // sum g * xhat
      if (want_w) gw.data<A>()[c] = sgx;
      if (want_b) gb.data<A>()[c] = sg;
      if (!gip) return;
      const A scale = rs * (wp ? wp[c] : A(1));
      // Training: the statistics depend on x too (mean and xhat terms); eval: a fixed affine map.
      const A c1 = training ? sg / count : A(0), c2 = training ? sgx / count : A(0);
      for (int64_t n = 0; n < q.N; ++n) {
        const int64_t off = (n * q.C + c) * q.S;
        grad_plane<T, A>(gp + off, xp + off, gip + off, q.S, m, rs, c1, c2, scale);
      }
    });
  });
  const ScalarType pdt = weight.defined() ? weight.dtype() : input.dtype();
  if (gw.defined() && pdt != acc) gw = to_dtype(gw, pdt);
  if (gb.defined() && pdt != acc) gb = to_dtype(gb, pdt);
  return {gi, gw, gb};
}

}  // namespace ember
