// Real-input transforms. An even length n runs as one complex FFT of n/2 points on
// z_j = x_2j + i x_2j+1, whose spectrum Z splits into the even and odd halves' spectra:
//   X_k = (Z_k + conj Z_(h-k)) / 2 - i W^k (Z_k - conj Z_(h-k)) / 2,   W = e^(-2 pi i / n),
// and c2r inverts that step before an inverse FFT of n/2 points. Odd lengths go through a
// full complex transform.
#include <cstring>

#include "ember/parallel.h"
#include "fft_impl.h"

namespace ember::fft {
namespace {

template <typename T>
inline Cpx<T> conj(Cpx<T> a) {
  return {a.re, -a.im};
}

template <typename T>
void resize_work(std::vector<Cpx<T>>& work, int64_t size) {
  if (static_cast<int64_t>(work.size()) < size) work.resize(size);
}

}  // namespace

template <typename T>
void r2c_block(const T* src, Cpx<T>* out, int64_t n, int64_t inner, bool onesided, T scale,
               std::vector<Cpx<T>>& work) {
  const int64_t nout = onesided ? n / 2 + 1 : n;
  if (n % 2 == 1) {
    const auto plan = get_plan<T>(n);
    resize_work(work, n * inner + plan->scratch_size(inner));
    Cpx<T>* z = work.data();
    for (int64_t i = 0; i < n * inner; ++i) z[i] = {src[i], T(0)};
    execute(*plan, z, z, z + n * inner, inner, true);
    for (int64_t i = 0; i < nout * inner; ++i) out[i] = {z[i].re * scale, z[i].im * scale};
    return;
  }
  const int64_t h = n / 2;
  const auto plan = get_real_plan<T>(n);
  resize_work(work, h * inner + plan->half->scratch_size(inner));
  Cpx<T>* z = work.data();
  Cpx<T>* scratch = z + h * inner;
  if (inner == 1) {
    // A contiguous real line already is the interleaved z.
    execute(*plan->half, reinterpret_cast<const Cpx<T>*>(src), z, scratch, 1, true);
  } else {
    for (int64_t j = 0; j < h; ++j) {
      const T* even = src + 2 * j * inner;
      const T* odd = even + inner;
      for (int64_t q = 0; q < inner; ++q) z[j * inner + q] = {even[q], odd[q]};
    }
    execute(*plan->half, z, z, scratch, inner, true);
  }
  const Cpx<T>* tw = plan->twiddles.data();
  const T half = scale / 2;
  parallel_for(0, h + 1, grain_for(8 * inner), [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      const Cpx<T>* zk = z + (k % h) * inner;
      const Cpx<T>* zc = z + ((h - k) % h) * inner;
      const Cpx<T> w = k < h ? tw[k] : Cpx<T>{T(-1), T(0)};
      for (int64_t q = 0; q < inner; ++q) {
        const Cpx<T> a = zk[q], c = conj(zc[q]);
        const Cpx<T> sum = {a.re + c.re, a.im + c.im}, dif = {a.re - c.re, a.im - c.im};
        // -i * w * dif
        const Cpx<T> wd = {w.re * dif.re - w.im * dif.im, w.re * dif.im + w.im * dif.re};
        out[k * inner + q] = {(sum.re + wd.im) * half, (sum.im - wd.re) * half};
      }
    }
  });
  for (int64_t k = h + 1; k < nout; ++k) {
    for (int64_t q = 0; q < inner; ++q) out[k * inner + q] = conj(out[(n - k) * inner + q]);
  }
}

template <typename T>
void c2r_block(const Cpx<T>* src, T* out, int64_t n, int64_t inner, T scale,
               std::vector<Cpx<T>>& work) {
  // Frequency k of line q with the imaginary parts of 0 and n/2 dropped (a real signal has none).
  auto at = [&](int64_t k, int64_t q) {
    Cpx<T> v = src[k * inner + q];
    if (k == 0 || 2 * k == n) v.im = 0;
    return v;
  };
  if (n % 2 == 1) {
    const auto plan = get_plan<T>(n);
    resize_work(work, n * inner + plan->scratch_size(inner));
    Cpx<T>* z = work.data();
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t q = 0; q < inner; ++q) {
        z[k * inner + q] = 2 * k <= n ? at(k, q) : conj(at(n - k, q));
      }
    }
    execute(*plan, z, z, z + n * inner, inner, false);
    for (int64_t i = 0; i < n * inner; ++i) out[i] = z[i].re * scale;
    return;
  }
  const int64_t h = n / 2;
  const auto plan = get_real_plan<T>(n);
  resize_work(work, h * inner + plan->half->scratch_size(inner));
  Cpx<T>* z = work.data();
  Cpx<T>* scratch = z + h * inner;
  const Cpx<T>* tw = plan->twiddles.data();
  parallel_for(0, h, grain_for(8 * inner), [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) {
      const Cpx<T> w = tw[k];
      for (int64_t q = 0; q < inner; ++q) {
        const Cpx<T> a = at(k, q), c = conj(at(h - k, q));
        const Cpx<T> sum = {a.re + c.re, a.im + c.im}, dif = {a.re - c.re, a.im - c.im};
        // i * conj(w) * dif
        const Cpx<T> wd = {w.re * dif.re + w.im * dif.im, w.re * dif.im - w.im * dif.re};
        z[k * inner + q] = {(sum.re - wd.im) * scale, (sum.im + wd.re) * scale};
      }
    }
  });
  if (inner == 1) {
    // The interleaved result is the real line itself.
    execute(*plan->half, z, reinterpret_cast<Cpx<T>*>(out), scratch, 1, false);
    return;
  }
  execute(*plan->half, z, z, scratch, inner, false);
  for (int64_t j = 0; j < h; ++j) {
    T* even = out + 2 * j * inner;
    T* odd = even + inner;
    for (int64_t q = 0; q < inner; ++q) {
      even[q] = z[j * inner + q].re;
      odd[q] = z[j * inner + q].im;
    }
  }
}

template void r2c_block<float>(const float*, Cpx<float>*, int64_t, int64_t, bool, float,
                               std::vector<Cpx<float>>&);
template void r2c_block<double>(const double*, Cpx<double>*, int64_t, int64_t, bool, double,
                                std::vector<Cpx<double>>&);
template void c2r_block<float>(const Cpx<float>*, float*, int64_t, int64_t, float,
                               std::vector<Cpx<float>>&);
template void c2r_block<double>(const Cpx<double>*, double*, int64_t, int64_t, double,
                                std::vector<Cpx<double>>&);

}  // namespace ember::fft
