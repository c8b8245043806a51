// The direct stride-1 convolution (conv_direct.h). An 8 x 48 register tile of outputs (8 output
// channels, 48 consecutive positions of the padded-width output grid) accumulates over every
// (channel, tap) pair with one broadcast weight and three vector loads per pair; positions past
// each row's end are computed from the padding and dropped.
#include "conv_direct.h"

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "ember/kernels.h"

namespace ember {
namespace {

constexpr int64_t kVec = 16;         // floats per AVX-512 register
constexpr int64_t kTile = 3 * kVec;  // output positions per micro-kernel call
constexpr int64_t kRows = 8;         // output channels per micro-kernel call

struct Padded {
  int64_t Hp, Wp, plane, P, Ppad, xsize;
};

Padded padded(const DirectConv& d) {
  Padded p{};
  p.Hp = d.OH + d.dh * (d.kh - 1);
  p.Wp = d.OW + d.dw * (d.kw - 1);
  p.plane = p.Hp * p.Wp;
  p.P = d.OH * p.Wp;
  p.Ppad = (p.P + kTile - 1) / kTile * kTile;
  // The last tile reads up to (Ppad - P) + (kw - 1) * dw past the last plane.
  p.xsize = d.Cg * p.plane + (p.Ppad - p.P) + d.dw * (d.kw - 1) + kVec;
  return p;
}

// MR output channels by NV vectors of positions (NV < 3 only for a plane's last tile).
template <int MR, int NV>
__attribute__((target("avx512f,fma"))) void micro(const float* x, const int64_t* off, int64_t kk,
                                                  const float* w, int64_t ldw, float* out,
                                                  int64_t ldo) {
  __m512 acc[MR][NV];
  for (int r = 0; r < MR; ++r) {
    for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_setzero_ps();
  }
  for (int64_t k = 0; k < kk; ++k) {
    const float* b = x + off[k];
    __m512 bv[NV];
    for (int v = 0; v < NV; ++v) bv[v] = _mm512_loadu_ps(b + v * kVec);
    for (int r = 0; r < MR; ++r) {
      const __m512 a = _mm512_set1_ps(w[r * ldw + k]);
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_fmadd_ps(a, bv[v], acc[r][v]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int v = 0; v < NV; ++v) _mm512_storeu_ps(out + r * ldo + v * kVec, acc[r][v]);
  }
}

using Micro = void (*)(const float*, const int64_t*, int64_t, const float*, int64_t, float*,
                       int64_t);
using MicroRow = std::array<Micro, kRows + 1>;

template <int NV, int... MR>
constexpr MicroRow micro_row(std::integer_sequence<int, MR...>) {
  return {nullptr, micro<MR + 1, NV>...};
}
// kMicro[nv - 1][mr]: nv vectors of positions, mr output channels.
constexpr std::array<MicroRow, 3> kMicro = {micro_row<1>(std::make_integer_sequence<int, kRows>{}),
                                            micro_row<2>(std::make_integer_sequence<int, kRows>{}),
                                            micro_row<3>(std::make_integer_sequence<int, kRows>{})};

// dw[r, q] += sum_p g[r * ldg + p] * x[off[q] + p] over p in [0, P), P a multiple of kVec: MR
// output channels by NK taps, each accumulator a vector of partial sums over p. With kLanes the
// vectors are added into lanes[(r * ldw + q) * kVec ...] (summed across lanes once per batch, not
// once per sample: a small plane's 16-lane sums would cost as much as its products).
template <int MR, int NK, bool kLanes>
__attribute__((target("avx512f,fma"))) void micro_dw(const float* g, int64_t ldg, const float* x,
                                                     const int64_t* off, int64_t P, float* dw,
                                                     int64_t ldw) {
  __m512 acc[MR][NK];
  for (int r = 0; r < MR; ++r) {
    for (int q = 0; q < NK; ++q) acc[r][q] = _mm512_setzero_ps();
  }
  const float* xs[NK];
  for (int q = 0; q < NK; ++q) xs[q] = x + off[q];
  for (int64_t p = 0; p < P; p += kVec) {
    __m512 b[NK];
    for (int q = 0; q < NK; ++q) b[q] = _mm512_loadu_ps(xs[q] + p);
    for (int r = 0; r < MR; ++r) {
      const __m512 a = _mm512_loadu_ps(g + r * ldg + p);
      for (int q = 0; q < NK; ++q) acc[r][q] = _mm512_fmadd_ps(a, b[q], acc[r][q]);
    }
  }
  for (int r = 0; r < MR; ++r) {
    for (int q = 0; q < NK; ++q) {
      if constexpr (kLanes) {
        float* lane = dw + (r * ldw + q) * kVec;
        _mm512_storeu_ps(lane, _mm512_add_ps(_mm512_loadu_ps(lane), acc[r][q]));
      } else {
        dw[r * ldw + q] += _mm512_reduce_add_ps(acc[r][q]);
      }
    }
  }
}

constexpr int kDwRows = 4, kDwTaps = 6;
using MicroDw = void (*)(const float*, int64_t, const float*, const int64_t*, int64_t, float*,
                         int64_t);
using DwTable = std::array<std::array<MicroDw, kDwTaps>, kDwRows>;

template <bool kLanes, int MR, int... NK>
constexpr std::array<MicroDw, kDwTaps> dw_row(std::integer_sequence<int, NK...>) {
  return {micro_dw<MR, NK + 1, kLanes>...};
}
template <bool kLanes>
constexpr DwTable dw_table() {
  constexpr auto taps = std::make_integer_sequence<int, kDwTaps>{};
  return {dw_row<kLanes, 1>(taps), dw_row<kLanes, 2>(taps), dw_row<kLanes, 3>(taps),
          dw_row<kLanes, 4>(taps)};
}
constexpr DwTable kMicroDw = dw_table<false>();
constexpr DwTable kMicroDwLanes = dw_table<true>();

// Lane accumulators past this many floats per thread would not stay in L2: such weights take
// their 16-lane sums per sample instead.
constexpr int64_t kMaxDwLanes = int64_t{1} << 18;

// The weight gradient with output channels in the vector lanes, for Cog a multiple of 16:
// acc[q * lda + o] += sum over the valid output positions (i, j) of x[off[q] + i * Wp + j] *
// gT[(i * OW + j) * ldg + o], for MR vectors of output channels and NK taps. No position is
// computed twice and no lane sum is needed (the padded-width kernel above wastes the padding
// columns and sums lanes); x is read by scalar broadcasts, which never split a cache line.
template <int MR, int NK>
__attribute__((target("avx512f,fma"))) void micro_dwt(const float* gT, int64_t ldg, const float* x,
                                                      const int64_t* off, int64_t OH, int64_t OW,
                                                      int64_t Wp, float* acc_mem, int64_t lda) {
  __m512 acc[NK][MR];
  for (int q = 0; q < NK; ++q) {
    for (int r = 0; r < MR; ++r) acc[q][r] = _mm512_loadu_ps(acc_mem + q * lda + r * kVec);
  }
  const float* xs[NK];
  for (int q = 0; q < NK; ++q) xs[q] = x + off[q];
  for (int64_t i = 0; i < OH; ++i) {
    const float* grow = gT + i * OW * ldg;
    const int64_t xrow = i * Wp;
    for (int64_t j = 0; j < OW; ++j) {
      __m512 a[MR];
      for (int r = 0; r < MR; ++r) a[r] = _mm512_loadu_ps(grow + j * ldg + r * kVec);
      for (int q = 0; q < NK; ++q) {
        const __m512 b = _mm512_set1_ps(xs[q][xrow + j]);
        for (int r = 0; r < MR; ++r) acc[q][r] = _mm512_fmadd_ps(a[r], b, acc[q][r]);
      }
    }
  }
  for (int q = 0; q < NK; ++q) {
    for (int r = 0; r < MR; ++r) _mm512_storeu_ps(acc_mem + q * lda + r * kVec, acc[q][r]);
  }
}

constexpr int kDwtRows = 2, kDwtTaps = 8;
using MicroDwt = void (*)(const float*, int64_t, const float*, const int64_t*, int64_t, int64_t,
                          int64_t, float*, int64_t);
using DwtTable = std::array<std::array<MicroDwt, kDwtTaps>, kDwtRows>;

template <int MR, int... NK>
constexpr std::array<MicroDwt, kDwtTaps> dwt_row(std::integer_sequence<int, NK...>) {
  return {micro_dwt<MR, NK + 1>...};
}
constexpr DwtTable kMicroDwt = {dwt_row<1>(std::make_integer_sequence<int, kDwtTaps>{}),
                                dwt_row<2>(std::make_integer_sequence<int, kDwtTaps>{})};

// The lanes-over-channels kernel computes no padding column but first transposes grad: measured
// to win with two vectors of channels where the padded grid wastes over ~15% (a 14 x 14 plane
// padded to 16 columns), to lose on wide planes or 16 channels.
bool dw_transposed(const DirectConv& d) {
  const Padded p = padded(d);
  return d.Cog % (kDwtRows * kVec) == 0 && d.OH * d.OW * 100 < 85 * p.Ppad;
}

float* align64(float* p) {
  return p + (kVec - (reinterpret_cast<uintptr_t>(p) / sizeof(float)) % kVec) % kVec;
}

// n zeros (a row's padding columns), in masked vector stores rather than a memset call.
__attribute__((target("avx512f"))) void zero_row(float* dst, int64_t n) {
  int64_t j = 0;
  for (; j + kVec <= n; j += kVec) _mm512_storeu_ps(dst + j, _mm512_setzero_ps());
  if (j < n) {
    _mm512_mask_storeu_ps(dst + j, static_cast<__mmask16>((1u << (n - j)) - 1),
                          _mm512_setzero_ps());
  }
}

// n floats from a strided row (stride 0: one value broadcast) into a dense one. Rows are short
// (a plane's width): masked vector moves, where a memcpy call per row cost ~10% of a pass.
__attribute__((target("avx512f"))) void copy_row(const float* src, int64_t stride, int64_t n,
                                                 float* dst) {
  if (stride == 1) {
    int64_t j = 0;
    for (; j + kVec <= n; j += kVec) _mm512_storeu_ps(dst + j, _mm512_loadu_ps(src + j));
    if (j < n) {
      const auto m = static_cast<__mmask16>((1u << (n - j)) - 1);
      _mm512_mask_storeu_ps(dst + j, m, _mm512_maskz_loadu_ps(m, src + j));
    }
  } else if (stride == 0) {
    std::fill(dst, dst + n, *src);
  } else {
    for (int64_t j = 0; j < n; ++j) dst[j] = src[j * stride];
  }
}

std::vector<int64_t> tap_offsets(const DirectConv& d, const Padded& p) {
  std::vector<int64_t> off(static_cast<size_t>(d.Cg * d.kh * d.kw));
  for (int64_t c = 0, k = 0; c < d.Cg; ++c) {
    for (int64_t a = 0; a < d.kh; ++a) {
      for (int64_t b = 0; b < d.kw; ++b, ++k) off[k] = c * p.plane + a * d.dh * p.Wp + b * d.dw;
    }
  }
  return off;
}

// Planes [0, Cg) of src into the padded buffer; the slack past the planes is zeroed.
void pad_planes(const DirectConv& d, const Padded& p, const Planes& src, float* x) {
  const int64_t jlo = std::clamp<int64_t>(d.pw, 0, p.Wp);
  const int64_t jhi = std::clamp<int64_t>(d.W + d.pw, jlo, p.Wp);
  for (int64_t c = 0; c < d.Cg; ++c) {
    for (int64_t i = 0; i < p.Hp; ++i) {
      float* row = x + c * p.plane + i * p.Wp;
      const int64_t si = i - d.ph;
      if (si < 0 || si >= d.H || jhi <= jlo) {
        zero_row(row, p.Wp);
        continue;
      }
      zero_row(row, jlo);
      copy_row(src.p + c * src.sc + si * src.sh + (jlo - d.pw) * src.sw, src.sw, jhi - jlo,
               row + jlo);
      zero_row(row + jhi, p.Wp - jhi);
    }
  }
  std::fill(x + d.Cg * p.plane, x + p.xsize, 0.0f);
}

}  // namespace

bool conv_direct_available() {
  static const bool ok = std::strcmp(cpu_capability(), "avx512") == 0;
  return ok;
}

int64_t conv_direct_scratch(const DirectConv& d) {
  const Padded p = padded(d);
  return p.xsize + d.Cog * p.Ppad + kVec;  // kVec: room to align the grad buffer
}

void conv_direct_f32(const DirectConv& d, const Planes& src, const float* weight, const float* bias,
                     float* out, float* scratch) {
  const Padded p = padded(d);
  const int64_t kk = d.Cg * d.kh * d.kw;
  const std::vector<int64_t> off = tap_offsets(d, p);
  float* x = scratch;
  float* acc = scratch + p.xsize;
  for (int64_t g = 0; g < d.G; ++g) {
    pad_planes(d, p, {src.p + g * d.Cg * src.sc, src.sc, src.sh, src.sw}, x);
    const float* w = weight + g * d.Cog * kk;
    // The last tile covers only the vectors the plane reaches (a 14 x 14 plane: 224 positions
    // of the padded grid, not 240).
    const int64_t pvec = (p.P + kVec - 1) / kVec * kVec;
    for (int64_t p0 = 0; p0 < pvec; p0 += kTile) {
      const int64_t nv = std::min<int64_t>(kTile, pvec - p0) / kVec;
      for (int64_t o0 = 0; o0 < d.Cog; o0 += kRows) {
        const int64_t mr = std::min(kRows, d.Cog - o0);
        kMicro[nv - 1][mr](x + p0, off.data(), kk, w + o0 * kk, kk, acc + o0 * p.Ppad + p0, p.Ppad);
      }
    }
    // The valid columns of each padded-width row, plus the bias.
    for (int64_t o = 0; o < d.Cog; ++o) {
      const float shift = bias != nullptr ? bias[g * d.Cog + o] : 0.0f;
      float* dst = out + (g * d.Cog + o) * d.OH * d.OW;
      for (int64_t i = 0; i < d.OH; ++i) {
        const float* row = acc + o * p.Ppad + i * p.Wp;
        for (int64_t j = 0; j < d.OW; ++j) dst[i * d.OW + j] = row[j] + shift;
      }
    }
  }
}

int64_t conv_direct_dw_lanes(const DirectConv& d) {
  if (dw_transposed(d)) return d.G * d.Cg * d.kh * d.kw * d.Cog;  // dw^T, [G][kk][Cog]
  const int64_t lanes = d.G * d.Cog * d.Cg * d.kh * d.kw * kVec;
  return lanes <= kMaxDwLanes ? lanes : 0;
}

void conv_direct_weight_grad_f32(const DirectConv& d, const float* src, const Planes& grad,
                                 float* dw, float* lanes, float* scratch) {
  const Padded p = padded(d);
  const int64_t plane = d.H * d.W;
  const int64_t kk = d.Cg * d.kh * d.kw;
  const std::vector<int64_t> off = tap_offsets(d, p);
  if (lanes != nullptr && dw_transposed(d)) {
    // grad transposed to [position][channel] rows, 64-byte aligned (aligned vector loads).
    float* gT = align64(scratch + p.xsize);
    const int64_t P = d.OH * d.OW;
    for (int64_t g = 0; g < d.G; ++g) {
      pad_planes(d, p, {src + g * d.Cg * plane, plane, d.W, 1}, scratch);
      const float* rows = grad.p + g * d.Cog * grad.sc;
      for (int64_t o = 0; o < d.Cog; ++o) {
        for (int64_t i = 0; i < d.OH; ++i) {
          const float* r = rows + o * grad.sc + i * grad.sh;
          for (int64_t j = 0; j < d.OW; ++j) gT[(i * d.OW + j) * d.Cog + o] = r[j * grad.sw];
        }
      }
      float* w = lanes + g * kk * d.Cog;
      for (int64_t o0 = 0; o0 < d.Cog; o0 += kDwtRows * kVec) {
        const int64_t mr = std::min<int64_t>(kDwtRows, (d.Cog - o0) / kVec);
        for (int64_t k0 = 0; k0 < kk; k0 += kDwtTaps) {
          const int64_t nk = std::min<int64_t>(kDwtTaps, kk - k0);
          kMicroDwt[mr - 1][nk - 1](gT + o0, d.Cog, scratch, off.data() + k0, d.OH, d.OW, p.Wp,
                                    w + k0 * d.Cog + o0, d.Cog);
        }
      }
    }
    return;
  }
  const DwTable& table = lanes != nullptr ? kMicroDwLanes : kMicroDw;
  float* acc = lanes != nullptr ? lanes : dw;
  const int64_t width = lanes != nullptr ? kVec : 1;
  float* x = scratch;
  float* gp = scratch + p.xsize;
  for (int64_t g = 0; g < d.G; ++g) {
    pad_planes(d, p, {src + g * d.Cg * plane, plane, d.W, 1}, x);
    // grad on the padded-width grid: zeros past each row's end and past the last row.
    for (int64_t o = 0; o < d.Cog; ++o) {
      const float* rows = grad.p + (g * d.Cog + o) * grad.sc;
      float* dst = gp + o * p.Ppad;
      for (int64_t i = 0; i < d.OH; ++i) {
        copy_row(rows + i * grad.sh, grad.sw, d.OW, dst + i * p.Wp);
        zero_row(dst + i * p.Wp + d.OW, p.Wp - d.OW);
      }
      std::fill(dst + p.P, dst + p.Ppad, 0.0f);
    }
    float* w = acc + g * d.Cog * kk * width;
    for (int64_t o0 = 0; o0 < d.Cog; o0 += kDwRows) {
      const int64_t mr = std::min<int64_t>(kDwRows, d.Cog - o0);
      for (int64_t k0 = 0; k0 < kk; k0 += kDwTaps) {
        const int64_t nk = std::min<int64_t>(kDwTaps, kk - k0);
        table[mr - 1][nk - 1](gp + o0 * p.Ppad, p.Ppad, x, off.data() + k0, p.Ppad,
                              w + (o0 * kk + k0) * width, kk);
      }
    }
  }
}

__attribute__((target("avx512f"))) void conv_direct_dw_finish(const DirectConv& d,
                                                              const float* lanes, float* dw) {
  const int64_t kk = d.Cg * d.kh * d.kw;
  if (dw_transposed(d)) {
    for (int64_t g = 0; g < d.G; ++g) {
      const float* t = lanes + g * kk * d.Cog;
      float* w = dw + g * d.Cog * kk;
      for (int64_t o = 0; o < d.Cog; ++o) {
        for (int64_t k = 0; k < kk; ++k) w[o * kk + k] += t[k * d.Cog + o];
      }
    }
    return;
  }
  const int64_t n = d.G * d.Cog * kk;
  for (int64_t i = 0; i < n; ++i) dw[i] += _mm512_reduce_add_ps(_mm512_loadu_ps(lanes + i * kVec));
}

}  // namespace ember
