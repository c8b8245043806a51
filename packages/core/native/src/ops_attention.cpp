// Tiled attention (ops/attention.h). Forward: one task per (batch*head, block of queries) keeps a
// running row max and sum while it walks the key blocks (scores with GEMM, exp in a vectorized
// pass, P @ V with GEMM into the output rows). Backward: one task per (batch*head, chunk of key
// blocks) owns its dK/dV rows and recomputes P from lse; dQ goes to the output directly or, when
// one head is split over several tasks, to per-task buffers summed at the end.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ember/blas.h"
#include "ember/errors.h"
#include "ember/kernels.h"
#include "ember/ops.h"
#include "ember/parallel.h"
#include "fast_exp.h"

namespace ember {
namespace {

constexpr int64_t kFwdQ = 64, kFwdK = 256;  // forward tile: queries x keys
constexpr int64_t kBwdQ = 128, kBwdK = 128;

template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    blas_gemm_f32(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    blas_gemm_f64(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

// C[m, :n] += alpha * sum_k A(m, k) * B[k, :n] with A(m, k) = a[m * ars + k * acs]: the
// products whose output is only head_dim wide (P @ V and three of the backward's), where
// OpenBLAS's small-N path runs at half speed. 4 x 64 register tiles over L1-sized K chunks;
// n must be a multiple of 16 (callers check).
template <int MR, int NV>
__attribute__((target("avx512f,fma"))) void rank_tile(float* c, int64_t ldc, const float* a,
                                                      int64_t ars, int64_t acs, const float* b,
                                                      int64_t ldb, int64_t k, float alpha) {
  __m512 acc[MR][NV];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_setzero_ps();
  for (int64_t kk = 0; kk < k; ++kk) {
    const float* brow = b + kk * ldb;
    __m512 bv[NV];
    for (int j = 0; j < NV; ++j) bv[j] = _mm512_loadu_ps(brow + 16 * j);
    for (int i = 0; i < MR; ++i) {
      const __m512 av = _mm512_set1_ps(a[i * ars + kk * acs]);
      for (int j = 0; j < NV; ++j) acc[i][j] = _mm512_fmadd_ps(av, bv[j], acc[i][j]);
    }
  }
  const __m512 al = _mm512_set1_ps(alpha);
  for (int i = 0; i < MR; ++i) {
    for (int j = 0; j < NV; ++j) {
      float* cp = c + i * ldc + 16 * j;
      _mm512_storeu_ps(cp, _mm512_fmadd_ps(acc[i][j], al, _mm512_loadu_ps(cp)));
    }
  }
}

template <int NV>
__attribute__((target("avx512f,fma"))) void rank_rows(float* c, int64_t ldc, const float* a,
                                                      int64_t ars, int64_t acs, const float* b,
                                                      int64_t ldb, int64_t m, int64_t k,
                                                      float alpha) {
  constexpr int64_t kChunk = 64;  // rows of B per pass: 64 x 64 floats stay in L1
  for (int64_t k0 = 0; k0 < k; k0 += kChunk) {
    const int64_t kc = std::min(kChunk, k - k0);
    const float* ak = a + k0 * acs;
    const float* bk = b + k0 * ldb;
    int64_t i = 0;
    for (; i + 4 <= m; i += 4)
      rank_tile<4, NV>(c + i * ldc, ldc, ak + i * ars, ars, acs, bk, ldb, kc, alpha);
    for (; i < m; ++i)
      rank_tile<1, NV>(c + i * ldc, ldc, ak + i * ars, ars, acs, bk, ldb, kc, alpha);
  }
}

bool rank_update_available() {
  static const bool ok = std::strcmp(cpu_capability(), "avx512") == 0;
  return ok;
}

// C[m, n] += alpha * A(m, k) @ B[k, n], by rank_rows where it applies, else by GEMM (A given
// by its strides: row-major when acs == 1, transposed when ars == 1).
template <typename T>
void accumulate(T* c, int64_t ldc, const T* a, int64_t ars, int64_t acs, const T* b, int64_t ldb,
                int64_t m, int64_t n, int64_t k, T alpha) {
  if constexpr (std::is_same_v<T, float>) {
    if (rank_update_available() && n % 16 == 0 && n > 0) {
      for (int64_t j0 = 0; j0 < n; j0 += 64) {
        switch (std::min<int64_t>(4, (n - j0) / 16)) {
          case 4:
            rank_rows<4>(c + j0, ldc, a, ars, acs, b + j0, ldb, m, k, alpha);
            break;
          case 3:
            rank_rows<3>(c + j0, ldc, a, ars, acs, b + j0, ldb, m, k, alpha);
            break;
          case 2:
            rank_rows<2>(c + j0, ldc, a, ars, acs, b + j0, ldb, m, k, alpha);
            break;
          default:
            rank_rows<1>(c + j0, ldc, a, ars, acs, b + j0, ldb, m, k, alpha);
            break;
        }
      }
      return;
    }
  }
  const bool trans = acs != 1;
  // A one-row (or one-column) A has an arbitrary stride along its single line: BLAS wants one
  // at least as long as the line.
  const int64_t lda = trans ? std::max(acs, m) : std::max(ars, k);
  gemm<T>(trans, false, m, n, k, alpha, a, lda, b, ldb, T(1), c, ldc);
}

// A [B, H, rows, cols] operand: element (b, h, r, c) at p[b * sb + h * sh + r * sr + c * sc].
template <typename T>
struct View {
  const T* p;
  int64_t sb, sh, sr, sc;
  const T* at(int64_t b, int64_t h) const { return p + b * sb + h * sh; }
};

template <typename T>
View<T> view(const Tensor& t) {
  return {t.data<T>(), t.stride(0), t.stride(1), t.stride(2), t.stride(3)};
}

// p[c] = exp(s[c] - shift) for c < n, returning the sum (the vectorized hot loop).
template <typename T>
[[gnu::always_inline]] inline T exp_shift_sum(T* s, int64_t n, T shift) {
  T sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t c = 0; c < n; ++c) {
    const T p = fastmath::exp(s[c] - shift);
    s[c] = p;
    sum += p;
  }
  return sum;
}

// ds[c] = p[c] * (dp[c] - d) (the softmax backward of one row).
template <typename T>
[[gnu::always_inline]] inline void softmax_grad_row(const T* p, T* dp, int64_t n, T d) {
#pragma omp simd
  for (int64_t c = 0; c < n; ++c) dp[c] = p[c] * (dp[c] - d);
}

__attribute__((target("avx512f,avx512dq,avx512vl,fma"))) float exp_shift_sum_avx512(float* s,
                                                                                    int64_t n,
                                                                                    float shift) {
  return exp_shift_sum(s, n, shift);
}
__attribute__((target("avx2,fma"))) float exp_shift_sum_avx2(float* s, int64_t n, float shift) {
  return exp_shift_sum(s, n, shift);
}

template <typename T>
T exp_shift_sum_any(T* s, int64_t n, T shift) {
  if constexpr (std::is_same_v<T, float>) {
    static const char* cap = cpu_capability();
    if (std::strcmp(cap, "avx512") == 0) return exp_shift_sum_avx512(s, n, shift);
    if (std::strcmp(cap, "avx2") == 0) return exp_shift_sum_avx2(s, n, shift);
  }
  return exp_shift_sum(s, n, shift);
}

struct AttnDims {
  int64_t B, H, L, S, E, Ev;
};

// Adds the mask and the causal -inf to a [rows, cols] tile of scores at (i0, j0).
template <typename T>
void mask_tile(T* s, int64_t rows, int64_t cols, int64_t i0, int64_t j0, const View<T>* mask,
               int64_t b, int64_t h, bool causal) {
  constexpr T kNegInf = -std::numeric_limits<T>::infinity();
  if (mask != nullptr) {
    const T* m = mask->at(b, h);
    for (int64_t r = 0; r < rows; ++r) {
      const T* mr = m + (i0 + r) * mask->sr + j0 * mask->sc;
      T* sr = s + r * cols;
      if (mask->sc == 1) {
#pragma omp simd
        for (int64_t c = 0; c < cols; ++c) sr[c] += mr[c];
      } else {
        for (int64_t c = 0; c < cols; ++c) sr[c] += mr[c * mask->sc];
      }
    }
  }
  if (causal && j0 + cols - 1 > i0) {
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t first = std::max<int64_t>(0, i0 + r + 1 - j0);  // first masked column
      for (int64_t c = first; c < cols; ++c) s[r * cols + c] = kNegInf;
    }
  }
}

template <typename T>
void forward_kernel(const AttnDims& d, const View<T>& q, const View<T>& k, const View<T>& v,
                    const View<T>* mask, bool causal, T scale, T* out, T* lse) {
  const int64_t qblocks = (d.L + kFwdQ - 1) / kFwdQ;
  parallel_tasks(d.B * d.H * qblocks, [&](int64_t task) {
    const int64_t bh = task / qblocks, i0 = (task % qblocks) * kFwdQ;
    const int64_t b = bh / d.H, h = bh % d.H;
    const int64_t rows = std::min(kFwdQ, d.L - i0);
    std::vector<T> sbuf(static_cast<size_t>(kFwdQ * kFwdK));
    std::vector<T> m(static_cast<size_t>(rows), -std::numeric_limits<T>::infinity());
    std::vector<T> l(static_cast<size_t>(rows), T(0));
    T* acc = out + (bh * d.L + i0) * d.Ev;
    std::fill(acc, acc + rows * d.Ev, T(0));
    const T* qi = q.at(b, h) + i0 * q.sr;
    const int64_t kend = causal ? std::min(d.S, i0 + rows) : d.S;
    for (int64_t j0 = 0; j0 < kend; j0 += kFwdK) {
      const int64_t cols = std::min(kFwdK, kend - j0);
      T* s = sbuf.data();
      gemm<T>(false, true, rows, cols, d.E, scale, qi, q.sr, k.at(b, h) + j0 * k.sr, k.sr, T(0), s,
              cols);
      mask_tile(s, rows, cols, i0, j0, mask, b, h, causal);
      for (int64_t r = 0; r < rows; ++r) {
        T* sr = s + r * cols;
        T mx = m[r];
#pragma omp simd reduction(max : mx)
        for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, sr[c]);
        if (mx == -std::numeric_limits<T>::infinity()) {  // every key so far masked
          std::fill(sr, sr + cols, T(0));
          continue;
        }
        const T alpha = fastmath::exp(m[r] - mx);
        const T sum = exp_shift_sum_any(sr, cols, mx);
        l[r] = l[r] * alpha + sum;
        m[r] = mx;
        if (alpha != T(1)) {
          T* ar = acc + r * d.Ev;
          for (int64_t e = 0; e < d.Ev; ++e) ar[e] *= alpha;
        }
      }
      accumulate<T>(acc, d.Ev, s, cols, 1, v.at(b, h) + j0 * v.sr, v.sr, rows, d.Ev, cols, T(1));
    }
    for (int64_t r = 0; r < rows; ++r) {
      T* ar = acc + r * d.Ev;
      const T inv = l[r] > T(0) ? T(1) / l[r] : T(0);
      for (int64_t e = 0; e < d.Ev; ++e) ar[e] *= inv;
      lse[bh * d.L + i0 + r] = l[r] > T(0) ? m[r] + std::log(l[r]) : T(0);
    }
  });
}

template <typename T>
void backward_kernel(const AttnDims& d, const View<T>& go, const View<T>& q, const View<T>& k,
                     const View<T>& v, const T* lse, const T* delta, const View<T>* mask,
                     bool causal, T scale, T* dq, T* dk, T* dv) {
  const int64_t kblocks = (d.S + kBwdK - 1) / kBwdK;
  const int64_t BH = d.B * d.H;
  // Split a head's key blocks over several tasks only when there are too few heads to go round.
  const int64_t want = 2 * static_cast<int64_t>(get_num_threads());
  const int64_t chunks = BH >= want ? 1 : std::min(kblocks, (want + BH - 1) / BH);
  const int64_t per_chunk = (kblocks + chunks - 1) / chunks;
  std::vector<T> dq_parts;
  if (chunks > 1) dq_parts.assign(static_cast<size_t>(chunks * BH * d.L * d.E), T(0));
  parallel_tasks(BH * chunks, [&](int64_t task) {
    const int64_t bh = task / chunks, chunk = task % chunks;
    const int64_t b = bh / d.H, h = bh % d.H;
    T* dq_bh = chunks > 1 ? dq_parts.data() + (chunk * BH + bh) * d.L * d.E : dq + bh * d.L * d.E;
    std::vector<T> pbuf(static_cast<size_t>(kBwdQ * kBwdK)), dpbuf(pbuf.size());
    const T* qh = q.at(b, h);
    const T* goh = go.at(b, h);
    const int64_t jb1 = std::min(kblocks, (chunk + 1) * per_chunk);
    for (int64_t jb = chunk * per_chunk; jb < jb1; ++jb) {
      const int64_t j0 = jb * kBwdK, cols = std::min(kBwdK, d.S - j0);
      const T* kj = k.at(b, h) + j0 * k.sr;
      const T* vj = v.at(b, h) + j0 * v.sr;
      T* dkj = dk + (bh * d.S + j0) * d.E;
      T* dvj = dv + (bh * d.S + j0) * d.Ev;
      std::fill(dkj, dkj + cols * d.E, T(0));
      std::fill(dvj, dvj + cols * d.Ev, T(0));
      // Causal: query rows before j0 see none of these keys.
      const int64_t istart = causal ? (std::min(j0, d.L) / kBwdQ) * kBwdQ : 0;
      for (int64_t i0 = istart; i0 < d.L; i0 += kBwdQ) {
        const int64_t rows = std::min(kBwdQ, d.L - i0);
        T* p = pbuf.data();
        T* dp = dpbuf.data();
        const T* qi = qh + i0 * q.sr;
        const T* goi = goh + i0 * go.sr;
        gemm<T>(false, true, rows, cols, d.E, scale, qi, q.sr, kj, k.sr, T(0), p, cols);
        mask_tile(p, rows, cols, i0, j0, mask, b, h, causal);
        for (int64_t r = 0; r < rows; ++r) {
          exp_shift_sum_any(p + r * cols, cols, lse[bh * d.L + i0 + r]);
        }
        accumulate<T>(dvj, d.Ev, p, 1, cols, goi, go.sr, cols, d.Ev, rows, T(1));
        gemm<T>(false, true, rows, cols, d.Ev, T(1), goi, go.sr, vj, v.sr, T(0), dp, cols);
        for (int64_t r = 0; r < rows; ++r) {
          softmax_grad_row(p + r * cols, dp + r * cols, cols, delta[bh * d.L + i0 + r]);
        }
        accumulate<T>(dq_bh + i0 * d.E, d.E, dp, cols, 1, kj, k.sr, rows, d.E, cols, scale);
        accumulate<T>(dkj, d.E, dp, 1, cols, qi, q.sr, cols, d.E, rows, scale);
      }
    }
  });
  if (chunks > 1) {
    const int64_t n = BH * d.L * d.E;
    parallel_for(0, n, kParallelGrain, [&](int64_t e0, int64_t e1) {
      for (int64_t c = 0; c < chunks; ++c) {
        const T* part = dq_parts.data() + c * n;
        for (int64_t e = e0; e < e1; ++e) dq[e] += part[e];
      }
    });
  }
}

// A 4-D float operand whose last dim has unit stride (copied when it has not).
Tensor rows_in_place(const Tensor& t) {
  return t.size(3) <= 1 || t.stride(3) == 1 ? t : contiguous(t);
}

AttnDims check_qkv(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask,
                   const char* op) {
  for (const auto& [t, name] : {std::pair{&q, "query"}, {&k, "key"}, {&v, "value"}}) {
    EMBER_CHECK(t->defined() && t->dim() == 4, RuntimeError, "[", op, "] expected ", name,
                " to be 4-D [batch, heads, seq, feature], got shape ",
                t->defined() ? t->sizes() : Shape{});
    EMBER_CHECK(t->dtype() == ScalarType::Float32 || t->dtype() == ScalarType::Float64, TypeError,
                "[", op, "] supports float32 and float64, got ", name, " of dtype ",
                dtype_name(t->dtype()));
    EMBER_CHECK(t->dtype() == q.dtype(), TypeError, "[", op,
                "] expected query, key and value of one dtype, got ", dtype_name(q.dtype()),
                " and ", dtype_name(t->dtype()));
  }
  const AttnDims d{q.size(0), q.size(1), q.size(2), k.size(2), q.size(3), v.size(3)};
  EMBER_CHECK(k.size(0) == d.B && k.size(1) == d.H && k.size(3) == d.E && v.size(0) == d.B &&
                  v.size(1) == d.H && v.size(2) == d.S,
              RuntimeError, "[", op, "] expected key [", d.B, ", ", d.H, ", S, ", d.E,
              "] and value [", d.B, ", ", d.H, ", S, Ev] for query of shape ", q.sizes(),
              ", got key ", k.sizes(), " and value ", v.sizes());
  if (mask.defined()) {
    EMBER_CHECK(mask.dtype() == q.dtype(), TypeError, "[", op, "] expected a float mask of dtype ",
                dtype_name(q.dtype()), ", got ", dtype_name(mask.dtype()));
    EMBER_CHECK(mask.sizes() == Shape({d.B, d.H, d.L, d.S}), RuntimeError, "[", op,
                "] expected the mask viewed as [", d.B, ", ", d.H, ", ", d.L, ", ", d.S,
                "], got shape ", mask.sizes());
  }
  return d;
}

}  // namespace

std::pair<Tensor, Tensor> flash_attention(const Tensor& query, const Tensor& key,
                                          const Tensor& value, const Tensor& mask, bool is_causal,
                                          double scale) {
  const char* op = "nn_flash_attention";
  const AttnDims d = check_qkv(query, key, value, mask, op);
  EMBER_CHECK(!(is_causal && mask.defined()), RuntimeError, "[", op,
              "] takes either a mask or is_causal, not both");
  const ScalarType dt = query.dtype();
  Tensor out = Tensor::empty({d.B, d.H, d.L, d.Ev}, dt);
  Tensor lse = Tensor::empty({d.B, d.H, d.L}, dt);
  if (out.numel() == 0 && lse.numel() == 0) return {out, lse};
  const Tensor q = rows_in_place(query), k = rows_in_place(key), v = rows_in_place(value);
  const Tensor m = mask.defined() ? mask : Tensor();
  auto run = [&](auto zero) {
    using T = decltype(zero);
    const View<T> mv = m.defined() ? view<T>(m) : View<T>{};
    forward_kernel<T>(d, view<T>(q), view<T>(k), view<T>(v), m.defined() ? &mv : nullptr, is_causal,
                      static_cast<T>(scale), out.data<T>(), lse.data<T>());
  };
  if (dt == ScalarType::Float32) {
    run(0.0f);
  } else {
    run(0.0);
  }
  return {out, lse};
}

std::tuple<Tensor, Tensor, Tensor> flash_attention_backward(const Tensor& grad_out,
                                                            const Tensor& query, const Tensor& key,
                                                            const Tensor& value, const Tensor& out,
                                                            const Tensor& lse, const Tensor& mask,
                                                            bool is_causal, double scale) {
  const char* op = "nn_flash_attention_backward";
  const AttnDims d = check_qkv(query, key, value, mask, op);
  const ScalarType dt = query.dtype();
  for (const auto& [t, name] : {std::pair{&grad_out, "grad_out"}, {&out, "out"}}) {
    EMBER_CHECK(t->defined() && t->sizes() == Shape({d.B, d.H, d.L, d.Ev}) && t->dtype() == dt,
                RuntimeError, "[", op, "] expected ", name, " of shape [", d.B, ", ", d.H, ", ",
                d.L, ", ", d.Ev, "] and dtype ", dtype_name(dt), ", got ",
                t->defined() ? t->sizes() : Shape{});
  }
  EMBER_CHECK(lse.defined() && lse.sizes() == Shape({d.B, d.H, d.L}) && lse.dtype() == dt,
              RuntimeError, "[", op, "] expected lse of shape [", d.B, ", ", d.H, ", ", d.L,
              "], got ", lse.defined() ? lse.sizes() : Shape{});
  Tensor dq = Tensor::empty({d.B, d.H, d.L, d.E}, dt);
  Tensor dk = Tensor::empty({d.B, d.H, d.S, d.E}, dt);
  Tensor dv = Tensor::empty({d.B, d.H, d.S, d.Ev}, dt);
  const Tensor q = rows_in_place(query), k = rows_in_place(key), v = rows_in_place(value);
  const Tensor go = rows_in_place(grad_out), o = contiguous(out), ls = contiguous(lse);
  auto run = [&](auto zero) {
    using T = decltype(zero);
    const int64_t BH = d.B * d.H;
    std::fill(dq.data<T>(), dq.data<T>() + dq.numel(), T(0));  // chunks add into it
    if (BH * d.L == 0 || d.S == 0) {
      std::fill(dk.data<T>(), dk.data<T>() + dk.numel(), T(0));
      std::fill(dv.data<T>(), dv.data<T>() + dv.numel(), T(0));
      return;
    }
    // delta[row] = sum(grad_out * out) over the row: the softmax backward's row term.
    std::vector<T> delta(static_cast<size_t>(BH * d.L));
    const View<T> gv = view<T>(go);
    const T* od = o.data<T>();
    parallel_for(0, BH * d.L, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, d.Ev)),
                 [&](int64_t r0, int64_t r1) {
                   for (int64_t r = r0; r < r1; ++r) {
                     const int64_t bh = r / d.L, i = r % d.L;
                     const T* g = gv.at(bh / d.H, bh % d.H) + i * gv.sr;
                     const T* orow = od + r * d.Ev;
                     T s = 0;
                     for (int64_t e = 0; e < d.Ev; ++e) s += g[e] * orow[e];
                     delta[static_cast<size_t>(r)] = s;
                   }
                 });
    const Tensor m = mask.defined() ? mask : Tensor();
    const View<T> mv = m.defined() ? view<T>(m) : View<T>{};
    backward_kernel<T>(d, gv, view<T>(q), view<T>(k), view<T>(v), ls.data<T>(), delta.data(),
                       m.defined() ? &mv : nullptr, is_causal, static_cast<T>(scale), dq.data<T>(),
                       dk.data<T>(), dv.data<T>());
  };
  if (dt == ScalarType::Float32) {
    run(0.0f);
  } else {
    run(0.0);
  }
  return {dq, dk, dv};
}

}  // namespace ember
