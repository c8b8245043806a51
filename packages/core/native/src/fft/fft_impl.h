// FFT internals shared by the files of src/fft: plans (factorization and twiddles), the
// Stockham mixed-radix executor, Bluestein's algorithm and the real-input kernels.
//
// Every executor transforms a block of `inner` interleaved lines: element j of line q is at
// data[j * inner + q]. Stockham's self-sorting passes already walk such blocks, so a transform
// along any dim of a contiguous tensor runs without transposes, vectorized along `inner`.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace ember::fft {

template <typename T>
struct Cpx {
  T re, im;
};

// One Stockham pass: `radix`-point butterflies over sub-transforms of length radix * m.
struct Stage {
  int radix;
  int64_t m;
  int64_t twiddle_offset;  // into FftPlan::twiddles: m * (radix - 1) entries, [j][t - 1]
  int64_t root_offset;     // into FftPlan::roots: radix entries (generic odd radices only)
};

// Largest prime handled by a generic O(p^2) butterfly; larger prime factors use Bluestein.
constexpr int64_t kMaxGenericRadix = 31;

template <typename T>
struct FftPlan {
  int64_t n = 1;
  std::vector<Stage> stages;  // empty for n == 1 and for Bluestein plans
  std::vector<Cpx<T>> twiddles;
  std::vector<Cpx<T>> roots;
  // Bluestein: a circular convolution of length conv_n (2/3/5-smooth, >= 2n - 1).
  bool bluestein = false;
  int64_t conv_n = 0;
  std::shared_ptr<const FftPlan<T>> conv;
  std::vector<Cpx<T>> chirp;   // exp(-i pi k^2 / n), k < n
  std::vector<Cpx<T>> kernel;  // FFT(conj chirp, wrapped to conv_n) / conv_n

  // Complex elements of scratch that execute() needs for a block of `inner` lines.
  int64_t scratch_size(int64_t inner) const { return (bluestein ? 2 * conv_n : n) * inner; }
};

// The (cached, immutable) plan for length n >= 1; thread-safe.
template <typename T>
std::shared_ptr<const FftPlan<T>> get_plan(int64_t n);

// Real transforms of even length n: a complex plan of n/2 and exp(-2 pi i k / n), k < n/2.
template <typename T>
struct RealPlan {
  std::shared_ptr<const FftPlan<T>> half;
  std::vector<Cpx<T>> twiddles;
};
template <typename T>
std::shared_ptr<const RealPlan<T>> get_real_plan(int64_t n);

// Unnormalized transform of the block src[n][inner] into out[n][inner] (forward: sign -1).
// out may equal src (in place); scratch holds plan.scratch_size(inner) elements and may not
// alias either. Large blocks run their passes on the thread pool.
template <typename T>
void execute(const FftPlan<T>& plan, const Cpx<T>* src, Cpx<T>* out, Cpx<T>* scratch, int64_t inner,
             bool forward);

// Builds the Bluestein fields of `plan` (bluestein.cpp) and runs such a plan.
template <typename T>
void build_bluestein(FftPlan<T>& plan);
template <typename T>
void execute_bluestein(const FftPlan<T>& plan, const Cpx<T>* src, Cpx<T>* out, Cpx<T>* scratch,
                       int64_t inner, bool forward);

// exp(sign * 2 pi i * k / n) computed in double from the exact residue k mod n.
template <typename T>
Cpx<T> unit_root(int64_t k, int64_t n, int sign);

// parallel_for's grain for items that each cost about `cost` element operations.
inline int64_t grain_for(int64_t cost) {
  constexpr int64_t kGrainOps = 16384;
  return cost >= kGrainOps ? 1 : kGrainOps / cost;
}

}  // namespace ember::fft

namespace ember::fft {

// Real-to-complex transform of the real block src[n][inner] into out[nout][inner], nout = n/2+1
// (onesided) or n, every value multiplied by `scale`. `work` is resized as needed (real.cpp).
template <typename T>
void r2c_block(const T* src, Cpx<T>* out, int64_t n, int64_t inner, bool onesided, T scale,
               std::vector<Cpx<T>>& work);

// Complex-to-real inverse transform of the Hermitian half src[n/2+1][inner] into the real block
// out[n][inner], times `scale`. The imaginary parts of frequencies 0 and n/2 are ignored.
template <typename T>
void c2r_block(const Cpx<T>* src, T* out, int64_t n, int64_t inner, T scale,
               std::vector<Cpx<T>>& work);

}  // namespace ember::fft
