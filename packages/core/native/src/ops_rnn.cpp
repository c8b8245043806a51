// Fused LSTM / GRU cells (ops/rnn.h). Each row of the batch is one pass over its gates; the row
// loops are compiled once per ISA (target attributes) so that fastmath's exp vectorizes, and the
// rows split over the pool when a step has enough of them.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "ember/errors.h"
#include "ember/kernels.h"
#include "ember/ops.h"
#include "ember/parallel.h"
#include "fast_exp.h"

namespace ember {
namespace {

// A 2-D operand as a base pointer and a row stride (elements).
template <typename T>
struct Rows {
  T* p;
  int64_t ld;
  T* row(int64_t b) const { return p + b * ld; }
};

template <typename T>
struct LstmArgs {
  Rows<T> gates, c_prev, c, h;
};

template <typename T>
struct LstmBackArgs {
  Rows<T> acts, c, c_prev, dh, dc, grad;
};

template <typename T>
struct GruArgs {
  Rows<T> xg, hg, h_prev, acts, hn, h;
};

template <typename T>
struct GruBackArgs {
  Rows<T> acts, hn, h_prev, dh, gx, gh, dh_prev;
};

template <typename T>
[[gnu::always_inline]] inline void lstm_rows(const LstmArgs<T>& a, int64_t H, int64_t b0,
                                             int64_t b1) {
  for (int64_t b = b0; b < b1; ++b) {
    T* g = a.gates.row(b);
    const T* cp = a.c_prev.row(b);
    T* c = a.c.row(b);
    T* h = a.h.row(b);
#pragma omp simd
    for (int64_t j = 0; j < H; ++j) {
      const T i = fastmath::sigmoid(g[j]);
      const T f = fastmath::sigmoid(g[H + j]);
      const T gg = fastmath::tanh(g[2 * H + j]);
      const T o = fastmath::sigmoid(g[3 * H + j]);
      const T cn = f * cp[j] + i * gg;
      g[j] = i;
      g[H + j] = f;
      g[2 * H + j] = gg;
      g[3 * H + j] = o;
      c[j] = cn;
      h[j] = o * fastmath::tanh(cn);
    }
  }
}

template <typename T>
[[gnu::always_inline]] inline void lstm_back_rows(const LstmBackArgs<T>& a, int64_t H, int64_t b0,
                                                  int64_t b1) {
  for (int64_t b = b0; b < b1; ++b) {
    const T* g = a.acts.row(b);
    const T* c = a.c.row(b);
    const T* cp = a.c_prev.row(b);
    const T* dh = a.dh.row(b);
    T* dc = a.dc.row(b);
    T* d = a.grad.row(b);
#pragma omp simd
    for (int64_t j = 0; j < H; ++j) {
      const T i = g[j], f = g[H + j], gg = g[2 * H + j], o = g[3 * H + j];
      const T tc = fastmath::tanh(c[j]);
      const T dct = dc[j] + dh[j] * o * (T(1) - tc * tc);
      d[j] = dct * gg * i * (T(1) - i);
      d[H + j] = dct * cp[j] * f * (T(1) - f);
      d[2 * H + j] = dct * i * (T(1) - gg * gg);
      d[3 * H + j] = dh[j] * tc * o * (T(1) - o);
      dc[j] = dct * f;
    }
  }
}

template <typename T>
[[gnu::always_inline]] inline void gru_rows(const GruArgs<T>& a, int64_t H, int64_t b0,
                                            int64_t b1) {
  for (int64_t b = b0; b < b1; ++b) {
    const T* xg = a.xg.row(b);
    const T* hg = a.hg.row(b);
    const T* hp = a.h_prev.row(b);
    T* act = a.acts.row(b);
    T* hn = a.hn.row(b);
    T* h = a.h.row(b);
#pragma omp simd
    for (int64_t j = 0; j < H; ++j) {
      const T r = fastmath::sigmoid(xg[j] + hg[j]);
      const T z = fastmath::sigmoid(xg[H + j] + hg[H + j]);
      const T hnj = hg[2 * H + j];
      const T n = fastmath::tanh(xg[2 * H + j] + r * hnj);
      act[j] = r;
      act[H + j] = z;
      act[2 * H + j] = n;
      hn[j] = hnj;
      h[j] = n + z * (hp[j] - n);
    }
  }
}

template <typename T>
[[gnu::always_inline]] inline void gru_back_rows(const GruBackArgs<T>& a, int64_t H, int64_t b0,
                                                 int64_t b1) {
  for (int64_t b = b0; b < b1; ++b) {
    const T* act = a.acts.row(b);
    const T* hn = a.hn.row(b);
    const T* hp = a.h_prev.row(b);
    const T* dh = a.dh.row(b);
    T* gx = a.gx.row(b);
    T* gh = a.gh.row(b);
    T* dp = a.dh_prev.row(b);
#pragma omp simd
    for (int64_t j = 0; j < H; ++j) {
      const T r = act[j], z = act[H + j], n = act[2 * H + j];
      const T dn = dh[j] * (T(1) - z) * (T(1) - n * n);
      const T dr = dn * hn[j] * r * (T(1) - r);
      const T dz = dh[j] * (hp[j] - n) * z * (T(1) - z);
      gx[j] = dr;
      gx[H + j] = dz;
      gx[2 * H + j] = dn;
      gh[j] = dr;
      gh[H + j] = dz;
      gh[2 * H + j] = dn * r;
      dp[j] = dh[j] * z;
    }
  }
}

// One copy of each float32 row loop per ISA; double stays on the baseline build (libm).
#define EMBER_RNN_ISA_COPIES(fn, Args)                                                            \
  __attribute__((target("avx512f,avx512dq,avx512vl,fma"))) void fn##_avx512(                      \
      const Args<float>& a, int64_t H, int64_t b0, int64_t b1) {                                  \
    fn(a, H, b0, b1);                                                                             \
  }                                                                                               \
  __attribute__((target("avx2,fma"))) void fn##_avx2(const Args<float>& a, int64_t H, int64_t b0, \
                                                     int64_t b1) {                                \
    fn(a, H, b0, b1);                                                                             \
  }                                                                                               \
  template <typename T>                                                                           \
  void fn##_any(const Args<T>& a, int64_t H, int64_t b0, int64_t b1) {                            \
    if constexpr (std::is_same_v<T, float>) {                                                     \
      static const char* cap = cpu_capability();                                                  \
      if (std::strcmp(cap, "avx512") == 0) return fn##_avx512(a, H, b0, b1);                      \
      if (std::strcmp(cap, "avx2") == 0) return fn##_avx2(a, H, b0, b1);                          \
    }                                                                                             \
    fn(a, H, b0, b1);                                                                             \
  }

EMBER_RNN_ISA_COPIES(lstm_rows, LstmArgs)
EMBER_RNN_ISA_COPIES(lstm_back_rows, LstmBackArgs)
EMBER_RNN_ISA_COPIES(gru_rows, GruArgs)
EMBER_RNN_ISA_COPIES(gru_back_rows, GruBackArgs)
#undef EMBER_RNN_ISA_COPIES

struct Operand {
  const Tensor* t;
  const char* name;
  int64_t cols;  // expected columns (rows are the batch)
  bool output;
};

// Checks every operand ([B, cols], one float dtype, unit inner stride, outputs writable) and
// returns the batch size and the dtype.
std::pair<int64_t, ScalarType> check_operands(const std::vector<Operand>& ops, const char* op,
                                              int64_t H, int64_t gates) {
  const Tensor& first = *ops[0].t;
  EMBER_CHECK(first.dim() == 2, RuntimeError, "[", op, "] expected ", ops[0].name,
              " to be 2-D [batch, ", gates, " * hidden], got shape ", first.sizes());
  const ScalarType dt = first.dtype();
  EMBER_CHECK(dt == ScalarType::Float32 || dt == ScalarType::Float64, TypeError, "[", op,
              "] supports float32 and float64, got ", dtype_name(dt));
  const int64_t B = first.size(0);
  for (const Operand& o : ops) {
    const Tensor& t = *o.t;
    EMBER_CHECK(t.defined(), ValueError, "[", op, "] ", o.name, " is None");
    EMBER_CHECK(t.dtype() == dt, TypeError, "[", op, "] expected ", o.name, " to have dtype ",
                dtype_name(dt), " like ", ops[0].name, ", got ", dtype_name(t.dtype()));
    EMBER_CHECK(t.dim() == 2 && t.size(0) == B && t.size(1) == o.cols, RuntimeError, "[", op,
                "] expected ", o.name, " of shape [", B, ", ", o.cols, "] (hidden size ", H,
                "), got shape ", t.sizes());
    EMBER_CHECK(t.size(0) == 0 || t.size(1) <= 1 || t.stride(1) == 1, RuntimeError, "[", op,
                "] expected ", o.name, " to have unit stride along its rows, got strides ",
                t.strides());
    if (o.output) t.check_writable(op);
  }
  return {B, dt};
}

template <typename T>
Rows<T> rows(const Tensor& t) {
  return {t.data<T>(), t.stride(0)};
}

// Runs fn(b0, b1) over the batch rows, split over the pool when a step is big enough.
template <typename Fn>
void over_rows(int64_t B, int64_t per_row, Fn&& fn) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, per_row));
  parallel_for(0, B, grain, [&](int64_t b0, int64_t b1) { fn(b0, b1); });
}

void bump(std::initializer_list<const Tensor*> outs) {
  for (const Tensor* t : outs) t->bump_version();
}

}  // namespace

Tensor lstm_cell(const Tensor& gates, const Tensor& c_prev, const Tensor& c_out,
                 const Tensor& h_out) {
  const char* op = "nn_lstm_cell";
  EMBER_CHECK(gates.defined() && gates.dim() == 2 && gates.size(1) % 4 == 0, RuntimeError, "[", op,
              "] expected gates of shape [batch, 4 * hidden], got ",
              gates.defined() ? gates.sizes() : Shape{});
  const int64_t H = gates.size(1) / 4;
  const auto [B, dt] = check_operands({{&gates, "gates", 4 * H, true},
                                       {&c_prev, "c_prev", H, false},
                                       {&c_out, "c_out", H, true},
                                       {&h_out, "h_out", H, true}},
                                      op, H, 4);
  if (B > 0 && H > 0) {
    if (dt == ScalarType::Float32) {
      const LstmArgs<float> a{rows<float>(gates), rows<float>(c_prev), rows<float>(c_out),
                              rows<float>(h_out)};
      over_rows(B, 4 * H, [&](int64_t b0, int64_t b1) { lstm_rows_any(a, H, b0, b1); });
    } else {
      const LstmArgs<double> a{rows<double>(gates), rows<double>(c_prev), rows<double>(c_out),
                               rows<double>(h_out)};
      over_rows(B, 4 * H, [&](int64_t b0, int64_t b1) { lstm_rows_any(a, H, b0, b1); });
    }
  }
  bump({&gates, &c_out, &h_out});
  return h_out;
}

Tensor lstm_cell_backward(const Tensor& acts, const Tensor& c, const Tensor& c_prev,
                          const Tensor& dh, const Tensor& dc, const Tensor& grad_gates) {
  const char* op = "nn_lstm_cell_backward";
  EMBER_CHECK(acts.defined() && acts.dim() == 2 && acts.size(1) % 4 == 0, RuntimeError, "[", op,
              "] expected acts of shape [batch, 4 * hidden], got ",
              acts.defined() ? acts.sizes() : Shape{});
  const int64_t H = acts.size(1) / 4;
  const auto [B, dt] = check_operands({{&acts, "acts", 4 * H, false},
                                       {&c, "c", H, false},
                                       {&c_prev, "c_prev", H, false},
                                       {&dh, "dh", H, false},
                                       {&dc, "dc", H, true},
                                       {&grad_gates, "grad_gates", 4 * H, true}},
                                      op, H, 4);
  if (B > 0 && H > 0) {
    if (dt == ScalarType::Float32) {
      const LstmBackArgs<float> a{rows<float>(acts), rows<float>(c),  rows<float>(c_prev),
                                  rows<float>(dh),   rows<float>(dc), rows<float>(grad_gates)};
      over_rows(B, 4 * H, [&](int64_t b0, int64_t b1) { lstm_back_rows_any(a, H, b0, b1); });
    } else {
      const LstmBackArgs<double> a{rows<double>(acts), rows<double>(c),  rows<double>(c_prev),
                                   rows<double>(dh),   rows<double>(dc), rows<double>(grad_gates)};
      over_rows(B, 4 * H, [&](int64_t b0, int64_t b1) { lstm_back_rows_any(a, H, b0, b1); });
    }
  }
  bump({&dc, &grad_gates});
  return grad_gates;
}

Tensor gru_cell(const Tensor& x_gates, const Tensor& h_gates, const Tensor& h_prev,
                const Tensor& acts_out, const Tensor& hn_out, const Tensor& h_out) {
  const char* op = "nn_gru_cell";
  EMBER_CHECK(x_gates.defined() && x_gates.dim() == 2 && x_gates.size(1) % 3 == 0, RuntimeError,
              "[", op, "] expected x_gates of shape [batch, 3 * hidden], got ",
              x_gates.defined() ? x_gates.sizes() : Shape{});
  const int64_t H = x_gates.size(1) / 3;
  const auto [B, dt] = check_operands({{&x_gates, "x_gates", 3 * H, false},
                                       {&h_gates, "h_gates", 3 * H, false},
                                       {&h_prev, "h_prev", H, false},
                                       {&acts_out, "acts_out", 3 * H, true},
                                       {&hn_out, "hn_out", H, true},
                                       {&h_out, "h_out", H, true}},
                                      op, H, 3);
  if (B > 0 && H > 0) {
    if (dt == ScalarType::Float32) {
      const GruArgs<float> a{rows<float>(x_gates),  rows<float>(h_gates), rows<float>(h_prev),
                             rows<float>(acts_out), rows<float>(hn_out),  rows<float>(h_out)};
      over_rows(B, 3 * H, [&](int64_t b0, int64_t b1) { gru_rows_any(a, H, b0, b1); });
    } else {
      const GruArgs<double> a{rows<double>(x_gates),  rows<double>(h_gates), rows<double>(h_prev),
                              rows<double>(acts_out), rows<double>(hn_out),  rows<double>(h_out)};
      over_rows(B, 3 * H, [&](int64_t b0, int64_t b1) { gru_rows_any(a, H, b0, b1); });
    }
  }
  bump({&acts_out, &hn_out, &h_out});
  return h_out;
}

Tensor gru_cell_backward(const Tensor& acts, const Tensor& hn, const Tensor& h_prev,
                         const Tensor& dh, const Tensor& grad_x, const Tensor& grad_h,
                         const Tensor& dh_prev) {
  const char* op = "nn_gru_cell_backward";
  EMBER_CHECK(acts.defined() && acts.dim() == 2 && acts.size(1) % 3 == 0, RuntimeError, "[", op,
              "] expected acts of shape [batch, 3 * hidden], got ",
              acts.defined() ? acts.sizes() : Shape{});
  const int64_t H = acts.size(1) / 3;
  const auto [B, dt] = check_operands({{&acts, "acts", 3 * H, false},
                                       {&hn, "hn", H, false},
                                       {&h_prev, "h_prev", H, false},
                                       {&dh, "dh", H, false},
                                       {&grad_x, "grad_x", 3 * H, true},
                                       {&grad_h, "grad_h", 3 * H, true},
                                       {&dh_prev, "dh_prev", H, true}},
                                      op, H, 3);
  if (B > 0 && H > 0) {
    if (dt == ScalarType::Float32) {
      const GruBackArgs<float> a{rows<float>(acts),   rows<float>(hn),     rows<float>(h_prev),
                                 rows<float>(dh),     rows<float>(grad_x), rows<float>(grad_h),
                                 rows<float>(dh_prev)};
      over_rows(B, 3 * H, [&](int64_t b0, int64_t b1) { gru_back_rows_any(a, H, b0, b1); });
    } else {
      const GruBackArgs<double> a{rows<double>(acts),   rows<double>(hn),     rows<double>(h_prev),
                                  rows<double>(dh),     rows<double>(grad_x), rows<double>(grad_h),
                                  rows<double>(dh_prev)};
      over_rows(B, 3 * H, [&](int64_t b0, int64_t b1) { gru_back_rows_any(a, H, b0, b1); });
    }
  }
  bump({&grad_x, &grad_h, &dh_prev});
  return grad_h;
}

}  // namespace ember
