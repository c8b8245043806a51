// Bluestein's (chirp-z) algorithm for lengths with a prime factor above kMaxGenericRadix:
// with c_k = exp(-i pi k^2 / n) and jk = (j^2 + k^2 - (k - j)^2) / 2,
//   X_k = c_k * sum_j (x_j c_j) conj(c_(k-j)),
// a circular convolution that runs as FFTs of a 2/3/5-smooth length conv_n >= 2n - 1.
#include <vector>

#include "ember/parallel.h"
#include "fft_impl.h"

namespace ember::fft {
namespace {

// Smallest 2^a 3^b 5^c >= n.
int64_t smooth_length(int64_t n) {
  int64_t best = 1;
  while (best < n) best *= 2;
  for (int64_t p5 = 1; p5 < best; p5 *= 5) {
    for (int64_t p35 = p5; p35 < best; p35 *= 3) {
      int64_t v = p35;
      while (v < n) v *= 2;
      if (v < best) best = v;
    }
  }
  return best;
}

template <typename T>
inline Cpx<T> mul(Cpx<T> a, Cpx<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <typename T>
inline Cpx<T> conj(Cpx<T> a) {
  return {a.re, -a.im};
}

}  // namespace

template <typename T>
void build_bluestein(FftPlan<T>& plan) {
  const int64_t n = plan.n;
  plan.bluestein = true;
  plan.conv_n = smooth_length(2 * n - 1);
  plan.conv = get_plan<T>(plan.conv_n);
  plan.chirp.resize(n);
  // k^2 mod 2n keeps the angle exact for large k (k < 2^31 here, so k * k fits in int64).
  for (int64_t k = 0; k < n; ++k) plan.chirp[k] = unit_root<T>((k * k) % (2 * n), 2 * n, -1);
  // The kernel is computed in double and rounded once: it carries the whole convolution.
  const int64_t m = plan.conv_n;
  std::vector<Cpx<double>> b(m, Cpx<double>{0, 0});
  for (int64_t k = 0; k < n; ++k) {
    const Cpx<double> c = unit_root<double>((k * k) % (2 * n), 2 * n, 1);
    b[k] = c;
    if (k > 0) b[m - k] = c;
  }
  std::vector<Cpx<double>> spectrum(m), scratch(get_plan<double>(m)->scratch_size(1));
  execute(*get_plan<double>(m), b.data(), spectrum.data(), scratch.data(), 1, true);
  plan.kernel.resize(m);
  for (int64_t k = 0; k < m; ++k) {
    plan.kernel[k] = {static_cast<T>(spectrum[k].re / m), static_cast<T>(spectrum[k].im / m)};
  }
}

template <typename T>
void execute_bluestein(const FftPlan<T>& plan, const Cpx<T>* src, Cpx<T>* out, Cpx<T>* scratch,
                       int64_t inner, bool forward) {
  // The inverse transform is conj(forward(conj(x))): the conjugations fold into the chirps.
  const int64_t n = plan.n, m = plan.conv_n;
  Cpx<T>* a = scratch;
  Cpx<T>* work = scratch + m * inner;
  const Cpx<T>* chirp = plan.chirp.data();
  parallel_for(0, m, grain_for(inner), [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      Cpx<T>* row = a + k * inner;
      if (k >= n) {
        for (int64_t q = 0; q < inner; ++q) row[q] = {0, 0};
        continue;
      }
      const Cpx<T> c = chirp[k];
      const Cpx<T>* in = src + k * inner;
      for (int64_t q = 0; q < inner; ++q) row[q] = mul(forward ? in[q] : conj(in[q]), c);
    }
  });
  execute(*plan.conv, a, a, work, inner, true);
  const Cpx<T>* kernel = plan.kernel.data();
  parallel_for(0, m, grain_for(inner), [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      for (int64_t q = 0; q < inner; ++q) a[k * inner + q] = mul(a[k * inner + q], kernel[k]);
    }
  });
  execute(*plan.conv, a, a, work, inner, false);
  parallel_for(0, n, grain_for(inner), [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      const Cpx<T> c = chirp[k];
      for (int64_t q = 0; q < inner; ++q) {
        const Cpx<T> v = mul(a[k * inner + q], c);
        out[k * inner + q] = forward ? v : conj(v);
      }
    }
  });
}

template void build_bluestein<float>(FftPlan<float>&);
template void build_bluestein<double>(FftPlan<double>&);
template void execute_bluestein<float>(const FftPlan<float>&, const Cpx<float>*, Cpx<float>*,
                                       Cpx<float>*, int64_t, bool);
template void execute_bluestein<double>(const FftPlan<double>&, const Cpx<double>*, Cpx<double>*,
                                        Cpx<double>*, int64_t, bool);

}  // namespace ember::fft
