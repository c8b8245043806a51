// im2col / col2im over 1 to 3 spatial dims (a 1-d or 2-d problem runs as 3-d with unit dims).
// Each (n, c) plane is independent: its K rows of columns come from it alone, so planes split
// over the pool without races, and col2im needs no atomics.
#include <algorithm>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "conv_direct.h"
#include "conv_window.h"
#include "ember/blas.h"
#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

using window::compute_dtype;
using window::Geo3;
using window::in_dtype;
using window::plane_grain;
using window::to_geo3;
using window::valid_range;

// Walks every (kernel position, output row) pair of one plane: fn(row_of_columns, input_row or
// nullptr when the row is outside the input, first valid ow, end of valid ow, input offset of
// ow = 0) for the innermost dim.
template <typename Fn>
void for_each_row(const Geo3& g, Fn fn) {
  const int64_t L = g.out_numel();
  int64_t kidx = 0;
  for (int64_t kd = 0; kd < g.k[0]; ++kd) {
    for (int64_t kh = 0; kh < g.k[1]; ++kh) {
      for (int64_t kw = 0; kw < g.k[2]; ++kw, ++kidx) {
        const int64_t w_off = kw * g.dil[2] - g.pad[2];
        int64_t lo, hi;
        valid_range(g.in[2], g.str[2], w_off, g.out[2], &lo, &hi);
        for (int64_t od = 0; od < g.out[0]; ++od) {
          const int64_t id = od * g.str[0] - g.pad[0] + kd * g.dil[0];
          const bool d_in = id >= 0 && id < g.in[0];
          for (int64_t oh = 0; oh < g.out[1]; ++oh) {
            const int64_t ih = oh * g.str[1] - g.pad[1] + kh * g.dil[1];
            const bool inside = d_in && ih >= 0 && ih < g.in[1];
            const int64_t col = kidx * L + (od * g.out[1] + oh) * g.out[2];
            fn(col, inside ? (id * g.in[1] + ih) * g.in[2] : int64_t{-1}, lo, hi, w_off);
          }
        }
      }
    }
  }
}

// The columns [K, L] of planes [p0, p1) of one sample, plane p at dst + (p - p0) * K * L.
template <typename T>
void im2col_planes(const T* x, T* cols, const Geo3& g, int64_t p0, int64_t p1, T pad) {
  const int64_t K = g.kernel_numel(), L = g.out_numel(), S = g.in_numel();
  const int64_t sw = g.str[2], ow_n = g.out[2];
  for (int64_t p = p0; p < p1; ++p) {
    const T* src = x + p * S;
    T* dst = cols + (p - p0) * K * L;
    for_each_row(g, [&](int64_t col, int64_t in_row, int64_t lo, int64_t hi, int64_t w_off) {
      T* out = dst + col;
      if (in_row < 0) {
        std::fill(out, out + ow_n, pad);
        return;
      }
      std::fill(out, out + lo, pad);
      const T* row = src + in_row + w_off;
      if (sw == 1) {
        std::memcpy(out + lo, row + lo, sizeof(T) * (hi - lo));
      } else {
        for (int64_t ow = lo; ow < hi; ++ow) out[ow] = row[ow * sw];
      }
      std::fill(out + hi, out + ow_n, pad);
    });
  }
}

// The adjoint of im2col_planes: overwrites planes [p0, p1) of x with the sums of their columns.
template <typename T>
void col2im_planes(const T* cols, T* x, const Geo3& g, int64_t p0, int64_t p1) {
  const int64_t K = g.kernel_numel(), L = g.out_numel(), S = g.in_numel();
  const int64_t sw = g.str[2];
  for (int64_t p = p0; p < p1; ++p) {
    const T* src = cols + (p - p0) * K * L;
    T* dst = x + p * S;
    std::fill(dst, dst + S, T(0));
    for_each_row(g, [&](int64_t col, int64_t in_row, int64_t lo, int64_t hi, int64_t w_off) {
      if (in_row < 0) return;
      const T* in = src + col;
      T* row = dst + in_row + w_off;
      if (sw == 1) {
        for (int64_t ow = lo; ow < hi; ++ow) row[ow] += in[ow];
      } else {
        for (int64_t ow = lo; ow < hi; ++ow) row[ow * sw] += in[ow];
      }
    });
  }
}

// Planes split over the pool (serially when called inside a parallel region).
template <typename T>
void im2col_kernel(const T* x, T* cols, const Geo3& g, int64_t planes, T pad) {
  const int64_t KL = g.kernel_numel() * g.out_numel();
  parallel_for(0, planes, plane_grain(g), [&](int64_t begin, int64_t end) {
    im2col_planes(x, cols + begin * KL, g, begin, end, pad);
  });
}

template <typename T>
void col2im_kernel(const T* cols, T* x, const Geo3& g, int64_t planes) {
  const int64_t KL = g.kernel_numel() * g.out_numel();
  parallel_for(0, planes, plane_grain(g), [&](int64_t begin, int64_t end) {
    col2im_planes(cols + begin * KL, x, g, begin, end);
  });
}

}  // namespace

Tensor im2col(const Tensor& input, const WindowGeometry& wg, double pad_value) {
  const char* op = "nn_im2col";
  const int64_t d = static_cast<int64_t>(wg.kernel.size());
  EMBER_CHECK(input.dim() == d + 2, RuntimeError, "[", op,
              "] expected a [N, C, *spatial] input with ", d, " spatial dims, got shape ",
              input.sizes());
  const ScalarType ct = compute_dtype(input.dtype(), op);
  const Shape spatial(input.sizes().begin() + 2, input.sizes().end());
  const Geo3 g = to_geo3(spatial, wg, op);
  const int64_t N = input.size(0), C = input.size(1);
  Tensor x = contiguous(input.dtype() == ct ? input : to_dtype(input, ct));
  Tensor cols = Tensor::empty({N, C * g.kernel_numel(), g.out_numel()}, ct);
  if (cols.numel() > 0) {
    if (ct == ScalarType::Float64) {
      im2col_kernel<double>(x.data<double>(), cols.data<double>(), g, N * C, pad_value);
    } else {
      im2col_kernel<float>(x.data<float>(), cols.data<float>(), g, N * C,
                           static_cast<float>(pad_value));
    }
  }
  return ct == input.dtype() ? cols : to_dtype(cols, input.dtype());
}

Tensor col2im(const Tensor& columns, const Shape& input_size, const WindowGeometry& wg) {
  const char* op = "nn_col2im";
  const ScalarType ct = compute_dtype(columns.dtype(), op);
  const Geo3 g = to_geo3(input_size, wg, op);
  const int64_t K = g.kernel_numel(), L = g.out_numel();
  EMBER_CHECK(columns.dim() == 3 && columns.size(1) % K == 0 && columns.size(2) == L, RuntimeError,
              "[", op, "] expected columns of shape [N, C * ", K, ", ", L, "] for kernel_size ",
              wg.kernel, " and output size ", wg.out_size, ", got shape ", columns.sizes());
  const int64_t N = columns.size(0), C = columns.size(1) / K;
  Shape out_shape{N, C};
  out_shape.insert(out_shape.end(), input_size.begin(), input_size.end());
  Tensor cols = contiguous(columns.dtype() == ct ? columns : to_dtype(columns, ct));
  Tensor x = Tensor::empty(out_shape, ct);
  if (x.numel() > 0) {
    if (ct == ScalarType::Float64) {
      col2im_kernel<double>(cols.data<double>(), x.data<double>(), g, N * C);
    } else {
      col2im_kernel<float>(cols.data<float>(), x.data<float>(), g, N * C);
    }
  }
  return ct == columns.dtype() ? x : to_dtype(x, columns.dtype());
}

namespace {

// The sizes of one convolution, checked against each other once. Channels split into `G` groups
// of `Cg` input and `Cog` output channels; `KK` = Cg * K is one group's GEMM depth.
struct ConvDims {
  Geo3 g;
  int64_t N, C, Cout, G, Cg, Cog, K, L, S, KK;
  // A 1x1 kernel with unit stride, no padding and the input's size: the input is its own columns.
  bool direct;
};

ConvDims conv_dims(const Shape& input, const Shape& weight, const Shape& out_size,
                   const WindowGeometry& wg, int64_t groups, const char* op) {
  const size_t d = out_size.size();
  EMBER_CHECK(d >= 1 && d <= 3 && input.size() == d + 2 && weight.size() == d + 2, RuntimeError,
              "[", op, "] expected a [N, C, *spatial] input and a [C_out, C / groups, *kernel] ",
              "weight with 1 to 3 spatial dims, got input of shape ", input, ", weight of shape ",
              weight, " and output size ", out_size);
  EMBER_CHECK(groups > 0 && weight[0] % groups == 0 && weight[1] * groups == input[1], RuntimeError,
              "[", op, "] groups=", groups, " does not fit input of shape ", input,
              " and weight of shape ", weight,
              ": expected C_out divisible by groups and C = weight.size(1) * groups");
  WindowGeometry full = wg;
  full.kernel.assign(weight.begin() + 2, weight.end());
  full.out_size = out_size;
  ConvDims c{};
  c.g = to_geo3(Shape(input.begin() + 2, input.end()), full, op);
  c.N = input[0];
  c.C = input[1];
  c.Cout = weight[0];
  c.G = groups;
  c.Cg = c.C / groups;
  c.Cog = c.Cout / groups;
  c.K = c.g.kernel_numel();
  c.L = c.g.out_numel();
  c.S = c.g.in_numel();
  c.KK = c.Cg * c.K;
  c.direct = c.K == 1 && c.L == c.S;
  for (int i = 0; i < 3; ++i) {
    c.direct = c.direct && c.g.str[i] == 1 && c.g.pad[i] == 0 && c.g.out[i] == c.g.in[i];
  }
  return c;
}

template <typename T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
          int64_t ldb, T beta, T* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    blas_gemm_f32(ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
  } else {
    blas_gemm_f64(ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
  }
}

// Whether the direct float32 kernel (conv_direct.h) runs c: stride 1 over at most 2 spatial
// dims, not a 1x1 pointwise product (BLAS does that best), and a sample per thread (one sample
// on one thread would leave the others idle, where BLAS splits its product).
bool direct_applies(const ConvDims& c) {
  const Geo3& g = c.g;
  return conv_direct_available() && !c.direct && g.in[0] == 1 && g.k[0] == 1 && g.out[0] == 1 &&
         g.pad[0] == 0 && g.str[1] == 1 && g.str[2] == 1 &&
         (c.N >= get_num_threads() || get_num_threads() == 1);
}

DirectConv direct_forward(const ConvDims& c) {
  const Geo3& g = c.g;
  return {c.G,      c.Cg,     c.Cog,    g.in[1],  g.in[2],  g.k[1],  g.k[2],
          g.dil[1], g.dil[2], g.pad[1], g.pad[2], g.out[1], g.out[2]};
}

// The input gradient at stride 1 is the convolution of grad_output with the flipped kernel,
// channels swapped within each group, padded by dil * (k - 1) - pad.
DirectConv direct_input_grad(const ConvDims& c) {
  const Geo3& g = c.g;
  return {c.G,
          c.Cog,
          c.Cg,
          g.out[1],
          g.out[2],
          g.k[1],
          g.k[2],
          g.dil[1],
          g.dil[2],
          g.dil[1] * (g.k[1] - 1) - g.pad[1],
          g.dil[2] * (g.k[2] - 1) - g.pad[2],
          g.in[1],
          g.in[2]};
}

std::vector<float> flipped_weight(const ConvDims& c, const float* w) {
  const int64_t K = c.K;
  std::vector<float> f(static_cast<size_t>(c.Cout * c.KK));
  for (int64_t gi = 0; gi < c.G; ++gi) {
    for (int64_t o = 0; o < c.Cog; ++o) {
      for (int64_t ci = 0; ci < c.Cg; ++ci) {
        const float* src = w + ((gi * c.Cog + o) * c.Cg + ci) * K;
        float* dst = f.data() + ((gi * c.Cg + ci) * c.Cog + o) * K;
        for (int64_t t = 0; t < K; ++t) dst[K - 1 - t] = src[t];
      }
    }
  }
  return f;
}

// A [N, C, *spatial] float32 tensor as strided samples (the last two dims are the plane's rows
// and columns; the direct kernels only run where every other spatial dim is 1).
struct SampleStrides {
  int64_t sn, sc, sh, sw;
  Planes at(const float* p, int64_t n) const { return {p + n * sn, sc, sh, sw}; }
};

SampleStrides sample_strides(const Tensor& t) {
  const int64_t d = t.dim();
  return {t.stride(0), t.stride(1), d >= 4 ? t.stride(d - 2) : 0, t.stride(d - 1)};
}

// The float32 grad_output the direct kernels read in place (any strides: the backward of a sum
// hands over a broadcast); elsewhere a contiguous copy in the compute dtype.
bool reads_strided(const ConvDims& c, const Tensor& t, ScalarType ct) {
  return ct == ScalarType::Float32 && t.dtype() == ScalarType::Float32 && direct_applies(c);
}

// Runs fn(first, last, scratch) over chunks of samples. With at least one sample per thread the
// chunks run in parallel (each GEMM on its thread, its columns in that thread's cache); with
// fewer, one chunk runs on the caller and the GEMMs and im2col split over the pool instead.
template <typename T, typename Fn>
void over_samples(int64_t N, int64_t scratch, Fn fn) {
  const int64_t threads = get_num_threads();
  if (N < threads || threads == 1 || in_parallel_region()) {
    const auto buf = std::make_unique_for_overwrite<T[]>(static_cast<size_t>(scratch));
    fn(int64_t{0}, N, buf.get(), int64_t{0});
    return;
  }
  // Two chunks per thread: a descheduled thread does not hold up the whole pass.
  const int64_t tasks = std::min<int64_t>(N, 2 * threads);
  parallel_tasks(tasks, [&](int64_t t) {
    const auto buf = std::make_unique_for_overwrite<T[]>(static_cast<size_t>(scratch));
    fn(N * t / tasks, N * (t + 1) / tasks, buf.get(), t);
  });
}

template <typename T>
void conv_forward_kernel(const ConvDims& c, const T* x, const T* w, const T* bias, T* out) {
  if constexpr (std::is_same_v<T, float>) {
    if (direct_applies(c)) {
      const DirectConv d = direct_forward(c);
      const SampleStrides xs{c.C * c.S, c.S, c.g.in[2], 1};
      over_samples<float>(c.N, conv_direct_scratch(d),
                          [&](int64_t n0, int64_t n1, float* buf, int64_t) {
                            for (int64_t n = n0; n < n1; ++n) {
                              conv_direct_f32(d, xs.at(x, n), w, bias, out + n * c.Cout * c.L, buf);
                            }
                          });
      return;
    }
  }
  over_samples<T>(c.N, c.direct ? 0 : c.C * c.K * c.L,
                  [&](int64_t n0, int64_t n1, T* buf, int64_t) {
                    for (int64_t n = n0; n < n1; ++n) {
                      const T* xs = x + n * c.C * c.S;
                      T* os = out + n * c.Cout * c.L;
                      const T* cols = xs;
                      if (!c.direct) {
                        const int64_t KL = c.K * c.L;
                        parallel_for(0, c.C, plane_grain(c.g), [&](int64_t p0, int64_t p1) {
                          im2col_planes(xs, buf + p0 * KL, c.g, p0, p1, T(0));
                        });
                        cols = buf;
                      }
                      T beta = T(0);
                      if (bias != nullptr) {
                        for (int64_t o = 0; o < c.Cout; ++o)
                          std::fill(os + o * c.L, os + (o + 1) * c.L, bias[o]);
                        beta = T(1);
                      }
                      if (c.KK == 0) {
                        if (bias == nullptr) std::fill(os, os + c.Cout * c.L, T(0));
                        continue;
                      }
                      for (int64_t grp = 0; grp < c.G; ++grp) {
                        gemm<T>(false, false, c.Cog, c.L, c.KK, w + grp * c.Cog * c.KK, c.KK,
                                cols + grp * c.KK * c.L, c.L, beta, os + grp * c.Cog * c.L, c.L);
                      }
                    }
                  });
}

// gs: go's strides where the direct kernel reads it (reads_strided), else go is contiguous.
template <typename T>
void conv_input_grad_kernel(const ConvDims& c, const T* go, const SampleStrides& gs, const T* w,
                            T* dx) {
  if constexpr (std::is_same_v<T, float>) {
    if (direct_applies(c)) {
      const DirectConv d = direct_input_grad(c);
      const std::vector<float> flipped = flipped_weight(c, w);
      over_samples<float>(
          c.N, conv_direct_scratch(d), [&](int64_t n0, int64_t n1, float* buf, int64_t) {
            for (int64_t n = n0; n < n1; ++n) {
              conv_direct_f32(d, gs.at(go, n), flipped.data(), nullptr, dx + n * c.C * c.S, buf);
            }
          });
      return;
    }
  }
  over_samples<T>(c.N, c.direct ? 0 : c.C * c.K * c.L,
                  [&](int64_t n0, int64_t n1, T* buf, int64_t) {
                    for (int64_t n = n0; n < n1; ++n) {
                      const T* gs = go + n * c.Cout * c.L;
                      T* xs = dx + n * c.C * c.S;
                      T* cols = c.direct ? xs : buf;
                      for (int64_t grp = 0; grp < c.G; ++grp) {
                        gemm<T>(true, false, c.KK, c.L, c.Cog, w + grp * c.Cog * c.KK, c.KK,
                                gs + grp * c.Cog * c.L, c.L, T(0), cols + grp * c.KK * c.L, c.L);
                      }
                      if (!c.direct) {
                        const int64_t KL = c.K * c.L;
                        parallel_for(0, c.C, plane_grain(c.g), [&](int64_t p0, int64_t p1) {
                          col2im_planes(buf + p0 * KL, xs, c.g, p0, p1);
                        });
                      }
                    }
                  });
}

template <typename T>
void conv_weight_grad_kernel(const ConvDims& c, const T* go, const SampleStrides& gs, const T* x,
                             T* dw) {
  const int64_t threads = get_num_threads();
  const int64_t slots = c.N < threads ? 1 : std::min<int64_t>(c.N, 2 * threads);
  const int64_t W = c.Cout * c.KK;
  // One partial sum per chunk of samples, added up at the end (no shared accumulator).
  std::vector<T> partial(static_cast<size_t>(slots * W), T(0));
  std::vector<char> used(static_cast<size_t>(slots), 0);
  bool done = false;
  if constexpr (std::is_same_v<T, float>) {
    if (direct_applies(c)) {
      const DirectConv d = direct_forward(c);
      const int64_t lanes = conv_direct_dw_lanes(d);
      over_samples<float>(c.N, conv_direct_scratch(d) + lanes,
                          [&](int64_t n0, int64_t n1, float* buf, int64_t slot) {
                            float* acc = lanes > 0 ? buf + conv_direct_scratch(d) : nullptr;
                            if (acc != nullptr) std::fill(acc, acc + lanes, 0.0f);
                            for (int64_t n = n0; n < n1; ++n) {
                              conv_direct_weight_grad_f32(d, x + n * c.C * c.S, gs.at(go, n),
                                                          partial.data() + slot * W, acc, buf);
                            }
                            if (acc != nullptr)
                              conv_direct_dw_finish(d, acc, partial.data() + slot * W);
                            used[static_cast<size_t>(slot)] = n1 > n0;
                          });
      done = true;
    }
  }
  if (!done) {
    over_samples<T>(
        c.N, c.direct ? 0 : c.C * c.K * c.L, [&](int64_t n0, int64_t n1, T* buf, int64_t slot) {
          T* acc = partial.data() + slot * W;
          for (int64_t n = n0; n < n1; ++n) {
            const T* xs = x + n * c.C * c.S;
            const T* cols = xs;
            if (!c.direct) {
              const int64_t KL = c.K * c.L;
              parallel_for(0, c.C, plane_grain(c.g), [&](int64_t p0, int64_t p1) {
                im2col_planes(xs, buf + p0 * KL, c.g, p0, p1, T(0));
              });
              cols = buf;
            }
            const T beta = n == n0 ? T(0) : T(1);
            for (int64_t grp = 0; grp < c.G; ++grp) {
              gemm<T>(false, true, c.Cog, c.KK, c.L, go + n * c.Cout * c.L + grp * c.Cog * c.L, c.L,
                      cols + grp * c.KK * c.L, c.L, beta, acc + grp * c.Cog * c.KK, c.KK);
            }
          }
          used[static_cast<size_t>(slot)] = n1 > n0;
        });
  }
  std::fill(dw, dw + W, T(0));
  for (int64_t s = 0; s < slots; ++s) {
    if (!used[static_cast<size_t>(s)]) continue;
    const T* p = partial.data() + s * W;
    for (int64_t i = 0; i < W; ++i) dw[i] += p[i];
  }
}

Shape with_spatial(int64_t n, int64_t c, const Shape& spatial) {
  Shape s{n, c};
  s.insert(s.end(), spatial.begin(), spatial.end());
  return s;
}

void check_same_dtype(const Tensor& a, const Tensor& b, const char* op, const char* what) {
  EMBER_CHECK(a.dtype() == b.dtype(), RuntimeError, "[", op, "] expected ", what,
              " of one dtype, got ", dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
}

}  // namespace

Tensor conv_forward(const Tensor& input, const Tensor& weight, const Tensor& bias,
                    const WindowGeometry& wg, int64_t groups) {
  const char* op = "nn_conv";
  check_same_dtype(input, weight, op, "input and weight");
  const ScalarType ct = compute_dtype(input.dtype(), op);
  const ConvDims c = conv_dims(input.sizes(), weight.sizes(), wg.out_size, wg, groups, op);
  if (bias.defined()) {
    check_same_dtype(input, bias, op, "input and bias");
    EMBER_CHECK(bias.dim() == 1 && bias.size(0) == c.Cout, RuntimeError, "[", op,
                "] expected a bias of shape [", c.Cout, "] for weight of shape ", weight.sizes(),
                ", got shape ", bias.sizes());
  }
  Tensor out = Tensor::empty(with_spatial(c.N, c.Cout, wg.out_size), ct);
  if (out.numel() > 0) {
    const Tensor x = in_dtype(input, ct), w = in_dtype(weight, ct);
    const Tensor b = bias.defined() ? in_dtype(bias, ct) : Tensor();
    if (ct == ScalarType::Float64) {
      conv_forward_kernel<double>(c, x.data<double>(), w.data<double>(),
                                  b.defined() ? b.data<double>() : nullptr, out.data<double>());
    } else {
      conv_forward_kernel<float>(c, x.data<float>(), w.data<float>(),
                                 b.defined() ? b.data<float>() : nullptr, out.data<float>());
    }
  }
  return ct == input.dtype() ? out : to_dtype(out, input.dtype());
}

Tensor conv_input_grad(const Tensor& grad_output, const Tensor& weight, const Shape& input_size,
                       const WindowGeometry& wg, int64_t groups) {
  const char* op = "nn_conv_input_grad";
  check_same_dtype(grad_output, weight, op, "grad_output and weight");
  const ScalarType ct = compute_dtype(grad_output.dtype(), op);
  EMBER_CHECK(grad_output.dim() >= 3 && weight.dim() == grad_output.dim() &&
                  static_cast<int64_t>(input_size.size()) == grad_output.dim() - 2 &&
                  grad_output.size(1) == weight.size(0),
              RuntimeError, "[", op, "] expected grad_output [N, C_out, *out] and weight [C_out, ",
              "C / groups, *kernel] with C_out = weight.size(0) and one input size per spatial ",
              "dim, got grad_output of shape ", grad_output.sizes(), ", weight of shape ",
              weight.sizes(), " and input_size ", input_size);
  const Shape out_size(grad_output.sizes().begin() + 2, grad_output.sizes().end());
  const Shape input = with_spatial(grad_output.size(0), weight.size(1) * groups, input_size);
  const ConvDims c = conv_dims(input, weight.sizes(), out_size, wg, groups, op);
  Tensor dx = Tensor::empty(input, ct);
  if (dx.numel() > 0) {
    if (c.L == 0 || c.Cout == 0) {
      fill_(dx, 0.0);
    } else {
      const Tensor g = reads_strided(c, grad_output, ct) ? grad_output : in_dtype(grad_output, ct);
      const Tensor w = in_dtype(weight, ct);
      if (ct == ScalarType::Float64) {
        conv_input_grad_kernel<double>(c, g.data<double>(), {}, w.data<double>(),
                                       dx.data<double>());
      } else {
        conv_input_grad_kernel<float>(c, g.data<float>(), sample_strides(g), w.data<float>(),
                                      dx.data<float>());
      }
    }
  }
  return ct == grad_output.dtype() ? dx : to_dtype(dx, grad_output.dtype());
}

Tensor conv_weight_grad(const Tensor& grad_output, const Tensor& input, const WindowGeometry& wg,
                        int64_t groups) {
  const char* op = "nn_conv_weight_grad";
  check_same_dtype(grad_output, input, op, "grad_output and input");
  const ScalarType ct = compute_dtype(grad_output.dtype(), op);
  EMBER_CHECK(grad_output.dim() >= 3 && input.dim() == grad_output.dim() &&
                  static_cast<int64_t>(wg.kernel.size()) == grad_output.dim() - 2 &&
                  grad_output.size(0) == input.size(0) && groups > 0 && input.size(1) % groups == 0,
              RuntimeError, "[", op, "] expected grad_output [N, C_out, *out], input [N, C, ",
              "*spatial] with one batch size, C divisible by groups=", groups,
              " and one kernel size per spatial dim, got grad_output of shape ",
              grad_output.sizes(), ", input of shape ", input.sizes(), " and kernel_size ",
              wg.kernel);
  const Shape out_size(grad_output.sizes().begin() + 2, grad_output.sizes().end());
  const Shape weight = with_spatial(grad_output.size(1), input.size(1) / groups, wg.kernel);
  const ConvDims c = conv_dims(input.sizes(), weight, out_size, wg, groups, op);
  Tensor dw = Tensor::empty(weight, ct);
  if (dw.numel() > 0) {
    if (c.N == 0 || c.L == 0) {
      fill_(dw, 0.0);
    } else {
      const Tensor g = reads_strided(c, grad_output, ct) ? grad_output : in_dtype(grad_output, ct);
      const Tensor x = in_dtype(input, ct);
      if (ct == ScalarType::Float64) {
        conv_weight_grad_kernel<double>(c, g.data<double>(), {}, x.data<double>(),
                                        dw.data<double>());
      } else {
        conv_weight_grad_kernel<float>(c, g.data<float>(), sample_strides(g), x.data<float>(),
                                       dw.data<float>());
      }
    }
  }
  return ct == grad_output.dtype() ? dw : to_dtype(dw, grad_output.dtype());
}

}  // namespace ember
