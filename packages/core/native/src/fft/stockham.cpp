// The Stockham self-sorting mixed-radix FFT (decimation in frequency). Pass k splits every
// sub-transform of length p * m into p interleaved ones of length m:
//   y[q + s (p j + t)] = w^(j t) * sum_k x[q + s (j + k m)] * e^(-2 pi i t k / p)
// with w = e^(-2 pi i / (p m)) and s the product of the earlier radices (times `inner`), so the
// output lands in natural order without a bit-reversal pass and the q loop is contiguous.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "ember/parallel.h"
#include "fft_impl.h"

namespace ember::fft {
namespace {

template <typename T>
inline Cpx<T> add(Cpx<T> a, Cpx<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T>
inline Cpx<T> sub(Cpx<T> a, Cpx<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <typename T>
inline Cpx<T> scale(Cpx<T> a, T s) {
  return {a.re * s, a.im * s};
}
// a * b, or a * conj(b) for the inverse direction. Written out: std::complex's operator* calls
// a library routine for its NaN/inf handling.
template <bool Fwd, typename T>
inline Cpx<T> mul(Cpx<T> a, Cpx<T> b) {
  if constexpr (Fwd) return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return {a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im};
}
// -i * a (forward) or +i * a (inverse).
template <bool Fwd, typename T>
inline Cpx<T> rot(Cpx<T> a) {
  if constexpr (Fwd) return {a.im, -a.re};
  return {-a.im, a.re};
}

// The butterflies of one pass for the flattened (j, q) indices [begin, end), j < m, q < s.
template <int P, bool Fwd, typename T>
void pass(const Cpx<T>* __restrict x, Cpx<T>* __restrict y, int p, int64_t m, int64_t s,
          const Cpx<T>* tw, const Cpx<T>* roots, int64_t begin, int64_t end) {
  const int radix = P ? P : p;
  for (int64_t j = begin / s; j * s < end; ++j) {
    const int64_t q0 = std::max<int64_t>(begin - j * s, 0);
    const int64_t q1 = std::min<int64_t>(end - j * s, s);
    const Cpx<T>* w = tw + j * (radix - 1);
    const Cpx<T>* xj = x + s * j;
    Cpx<T>* yj = y + s * radix * j;
    if constexpr (P == 2) {
      for (int64_t q = q0; q < q1; ++q) {
        const Cpx<T> a0 = xj[q], a1 = xj[q + s * m];
        yj[q] = add(a0, a1);
        yj[q + s] = mul<Fwd>(sub(a0, a1), w[0]);
      }
    } else if constexpr (P == 3) {
      const T h = static_cast<T>(0.86602540378443864676);  // sin(2 pi / 3)
      for (int64_t q = q0; q < q1; ++q) {
        const Cpx<T> a0 = xj[q], a1 = xj[q + s * m], a2 = xj[q + 2 * s * m];
        const Cpx<T> t = add(a1, a2);
        const Cpx<T> c = sub(a0, scale(t, T(0.5)));
        const Cpx<T> d = rot<Fwd>(scale(sub(a1, a2), h));
        yj[q] = add(a0, t);
        yj[q + s] = mul<Fwd>(add(c, d), w[0]);
        yj[q + 2 * s] = mul<Fwd>(sub(c, d), w[1]);
      }
    } else if constexpr (P == 4) {
      for (int64_t q = q0; q < q1; ++q) {
        const Cpx<T> a0 = xj[q], a1 = xj[q + s * m], a2 = xj[q + 2 * s * m], a3 = xj[q + 3 * s * m];
        const Cpx<T> t0 = add(a0, a2), t1 = sub(a0, a2), t2 = add(a1, a3);
        const Cpx<T> t3 = rot<Fwd>(sub(a1, a3));
        yj[q] = add(t0, t2);
        yj[q + s] = mul<Fwd>(add(t1, t3), w[0]);
        yj[q + 2 * s] = mul<Fwd>(sub(t0, t2), w[1]);
        yj[q + 3 * s] = mul<Fwd>(sub(t1, t3), w[2]);
      }
    } else if constexpr (P == 5) {
      // cos and sin of 2 pi / 5 and 4 pi / 5.
      const T c1 = static_cast<T>(0.30901699437494742410);
      const T c2 = static_cast<T>(-0.80901699437494742410);
      const T s1 = static_cast<T>(0.95105651629515357212);
      const T s2 = static_cast<T>(0.58778525229247312917);
      for (int64_t q = q0; q < q1; ++q) {
        const Cpx<T> a0 = xj[q], a1 = xj[q + s * m], a2 = xj[q + 2 * s * m], a3 = xj[q + 3 * s * m],
                     a4 = xj[q + 4 * s * m];
        const Cpx<T> t1 = add(a1, a4), t2 = add(a2, a3), d1 = sub(a1, a4), d2 = sub(a2, a3);
        const Cpx<T> m1 = add(a0, add(scale(t1, c1), scale(t2, c2)));
        const Cpx<T> m2 = add(a0, add(scale(t1, c2), scale(t2, c1)));
        const Cpx<T> n1 = rot<Fwd>(add(scale(d1, s1), scale(d2, s2)));
        const Cpx<T> n2 = rot<Fwd>(sub(scale(d1, s2), scale(d2, s1)));
        yj[q] = add(a0, add(t1, t2));
        yj[q + s] = mul<Fwd>(add(m1, n1), w[0]);
        yj[q + 2 * s] = mul<Fwd>(add(m2, n2), w[1]);
        yj[q + 3 * s] = mul<Fwd>(sub(m2, n2), w[2]);
        yj[q + 4 * s] = mul<Fwd>(sub(m1, n1), w[3]);
      }
    } else {
      // Generic odd prime: a direct p-point DFT with the p-th roots of unity.
      Cpx<T> a[kMaxGenericRadix];
      for (int64_t q = q0; q < q1; ++q) {
        for (int k = 0; k < p; ++k) a[k] = xj[q + k * s * m];
        for (int t = 0; t < p; ++t) {
          Cpx<T> acc = a[0];
          for (int k = 1, r = t; k < p; ++k, r = (r + t) % p) {
            acc = add(acc, mul<Fwd>(a[k], roots[r]));
          }
          yj[q + t * s] = t == 0 ? acc : mul<Fwd>(acc, w[t - 1]);
        }
      }
    }
  }
}

template <bool Fwd, typename T>
void run_pass(const Stage& st, const Cpx<T>* tw, const Cpx<T>* roots, const Cpx<T>* x, Cpx<T>* y,
              int64_t s) {
  const int64_t count = st.m * s;
  parallel_for(0, count, grain_for(4 * st.radix), [&](int64_t b, int64_t e) {
    const Cpx<T>* w = tw + st.twiddle_offset;
    const Cpx<T>* r = roots + st.root_offset;
    switch (st.radix) {
      case 2:
        return pass<2, Fwd>(x, y, 2, st.m, s, w, r, b, e);
      case 3:
        return pass<3, Fwd>(x, y, 3, st.m, s, w, r, b, e);
      case 4:
        return pass<4, Fwd>(x, y, 4, st.m, s, w, r, b, e);
      case 5:
        return pass<5, Fwd>(x, y, 5, st.m, s, w, r, b, e);
      default:
        return pass<0, Fwd>(x, y, st.radix, st.m, s, w, r, b, e);
    }
  });
}

template <typename T>
void copy_block(const Cpx<T>* src, Cpx<T>* dst, int64_t count) {
  parallel_for(0, count, grain_for(1), [&](int64_t b, int64_t e) {
    std::memcpy(dst + b, src + b, static_cast<size_t>(e - b) * sizeof(Cpx<T>));
  });
}

}  // namespace

template <typename T>
void execute(const FftPlan<T>& plan, const Cpx<T>* src, Cpx<T>* out, Cpx<T>* scratch, int64_t inner,
             bool forward) {
  if (plan.bluestein) return execute_bluestein(plan, src, out, scratch, inner, forward);
  const size_t passes = plan.stages.size();
  if (passes == 0) {
    if (src != out) copy_block(src, out, plan.n * inner);
    return;
  }
  // Pass i writes buffers[i % 2]; the order is chosen so that the last pass writes `out`.
  // The first pass may overwrite its source only if that source is not read again (passes > 1
  // and the source is the other buffer), so an in-place odd-pass transform first moves src.
  if (src == out && passes % 2 == 1) {
    copy_block(src, scratch, plan.n * inner);
    src = scratch;
  }
  Cpx<T>* buffers[2] = {out, scratch};
  if (passes % 2 == 0) std::swap(buffers[0], buffers[1]);
  const Cpx<T>* x = src;
  int64_t s = inner;
  for (size_t i = 0; i < passes; ++i) {
    const Stage& st = plan.stages[i];
    Cpx<T>* y = buffers[i % 2];
    if (forward) {
      run_pass<true>(st, plan.twiddles.data(), plan.roots.data(), x, y, s);
    } else {
      run_pass<false>(st, plan.twiddles.data(), plan.roots.data(), x, y, s);
    }
    x = y;
    s *= st.radix;
  }
}

template void execute<float>(const FftPlan<float>&, const Cpx<float>*, Cpx<float>*, Cpx<float>*,
                             int64_t, bool);
template void execute<double>(const FftPlan<double>&, const Cpx<double>*, Cpx<double>*,
                              Cpx<double>*, int64_t, bool);

}  // namespace ember::fft
