// Max and average pooling over 1 to 3 spatial dims, forward and backward. Each (n, c) plane is
// one independent task (planes split over the pool, no atomics); within a plane the work runs one
// output row at a time, one kernel tap at a time, so the innermost loop walks the output row with a
// fixed input stride (vectorizable), the taps in torch's order (its first maximum, its sums).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "conv_window.h"
#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

using window::ceil_div;
using window::compute_dtype;
using window::Geo3;
using window::in_dtype;
using window::plane_grain;
using window::to_geo3;
using window::valid_range;

// The first window position at or after 0 (windows starting in the padding skip it by dilation
// steps): what a max pool reports for a window of -inf values, as torch's kernel does.
int64_t first_inside(int64_t start, int64_t dil) {
  return start < 0 ? start + ceil_div(-start, dil) * dil : start;
}

Shape with_spatial(const Tensor& like, const Shape& spatial) {
  Shape s{like.size(0), like.size(1)};
  s.insert(s.end(), spatial.begin(), spatial.end());
  return s;
}

// The taps along the innermost dim: input offset of output 0 and the outputs [lo, hi) that read
// inside the input (the same for every row, so computed once per call).
struct RowTaps {
  std::vector<int64_t> off, lo, hi;
};

RowTaps row_taps(const Geo3& g) {
  RowTaps t;
  for (int64_t kw = 0; kw < g.k[2]; ++kw) {
    const int64_t off = kw * g.dil[2] - g.pad[2];
    int64_t lo, hi;
    valid_range(g.in[2], g.str[2], off, g.out[2], &lo, &hi);
    t.off.push_back(off);
    t.lo.push_back(lo);
    t.hi.push_back(hi);
  }
  return t;
}

// Per-thread rows of a max pool: the running maximum and which tap of the window holds it (a
// 32-bit tap number selects in the same lanes as float values; -1: no element taken yet).
template <typename T>
struct MaxRows {
  std::vector<T> best;
  std::vector<int32_t> tap;
  std::vector<int64_t> tap_base;  // input offset of each tap's element for output 0
};

// One plane's max pool: out [L] values and (kIdx) idx [L] flat input positions.
template <typename T, bool kIdx>
void max_pool_plane(const T* x, T* out, int64_t* idx, const Geo3& g, const RowTaps& taps,
                    const std::vector<int64_t>& first_w, MaxRows<T>& rows) {
  const int64_t W = g.in[2], HW = g.in[1] * g.in[2], OW = g.out[2], sw = g.str[2];
  T* best = rows.best.data();
  int32_t* tap = rows.tap.data();
  for (int64_t od = 0; od < g.out[0]; ++od) {
    const int64_t d0 = od * g.str[0] - g.pad[0];
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const int64_t h0 = oh * g.str[1] - g.pad[1];
      T* orow = out + (od * g.out[1] + oh) * OW;
      if constexpr (!kIdx) best = orow;
      std::fill(best, best + OW, -std::numeric_limits<T>::infinity());
      if constexpr (kIdx) std::fill(tap, tap + OW, -1);
      int32_t t = 0;
      for (int64_t kd = 0; kd < g.k[0]; ++kd) {
        const int64_t id = d0 + kd * g.dil[0];
        const bool d_in = id >= 0 && id < g.in[0];
        for (int64_t kh = 0; kh < g.k[1]; ++kh) {
          const int64_t ih = h0 + kh * g.dil[1];
          const bool inside = d_in && ih >= 0 && ih < g.in[1];
          for (int64_t kw = 0; kw < g.k[2]; ++kw, ++t) {
            if (!inside) continue;
            const int64_t at = id * HW + ih * W + taps.off[kw];
            if constexpr (kIdx) rows.tap_base[t] = at;
            const T* row = x + at;
            const int64_t lo = taps.lo[kw], hi = taps.hi[kw];
            // A later element wins only when larger, or NaN (torch's rule: the last NaN).
#pragma omp simd
            for (int64_t ow = lo; ow < hi; ++ow) {
              const T v = row[ow * sw];
              const bool take = v > best[ow] || v != v;
              best[ow] = take ? v : best[ow];
              if constexpr (kIdx) tap[ow] = take ? t : tap[ow];
            }
          }
        }
      }
      if constexpr (kIdx) {
        int64_t* irow = idx + (od * g.out[1] + oh) * OW;
        const int64_t base = first_inside(d0, g.dil[0]) * HW + first_inside(h0, g.dil[1]) * W;
        for (int64_t ow = 0; ow < OW; ++ow) {
          orow[ow] = best[ow];
          irow[ow] = tap[ow] < 0 ? base + first_w[ow] : rows.tap_base[tap[ow]] + ow * sw;
        }
      }
    }
  }
}

template <typename T>
void max_pool_kernel(const T* x, T* out, int64_t* idx, const Geo3& g, int64_t planes) {
  std::vector<int64_t> first_w(static_cast<size_t>(g.out[2]));
  for (int64_t ow = 0; ow < g.out[2]; ++ow) {
    first_w[ow] = first_inside(ow * g.str[2] - g.pad[2], g.dil[2]);
  }
  const RowTaps taps = row_taps(g);
  const int64_t S = g.in_numel(), L = g.out_numel();
  parallel_for(0, planes, plane_grain(g), [&](int64_t p0, int64_t p1) {
    MaxRows<T> rows{std::vector<T>(static_cast<size_t>(g.out[2])),
                    std::vector<int32_t>(static_cast<size_t>(g.out[2])),
                    std::vector<int64_t>(static_cast<size_t>(g.kernel_numel()))};
    for (int64_t p = p0; p < p1; ++p) {
      if (idx != nullptr) {
        max_pool_plane<T, true>(x + p * S, out + p * L, idx + p * L, g, taps, first_w, rows);
      } else {
        max_pool_plane<T, false>(x + p * S, out + p * L, nullptr, g, taps, first_w, rows);
      }
    }
  });
}

// Per-dim window extents of an average pool: [lo, hi) inside the input, and the divisor's
// factor (the window cut at the padded end, or only its part inside the input).
struct AvgExtent {
  std::vector<int64_t> lo, hi, count;
};

AvgExtent avg_extent(const Geo3& g, int dim, bool count_include_pad) {
  AvgExtent e;
  for (int64_t o = 0; o < g.out[dim]; ++o) {
    const int64_t start = o * g.str[dim] - g.pad[dim];
    const int64_t end = std::min(start + g.k[dim], g.in[dim] + g.pad[dim]);
    const int64_t lo = std::max<int64_t>(start, 0), hi = std::min(end, g.in[dim]);
    e.lo.push_back(lo);
    e.hi.push_back(hi);
    e.count.push_back(count_include_pad ? end - start : hi - lo);
  }
  return e;
}

struct AvgPlan {
  AvgExtent d, h, w;
  int64_t divisor_override;  // non-zero: every window's divisor (torch allows negative ones)
};

AvgPlan avg_plan(const Geo3& g, bool count_include_pad, int64_t divisor_override) {
  return {avg_extent(g, 0, count_include_pad), avg_extent(g, 1, count_include_pad),
          avg_extent(g, 2, count_include_pad), divisor_override};
}

// Calls fn(od, oh, row_divisor) per output row, row_divisor[ow] the divisor of window (od, oh, ow).
template <typename T, typename Fn>
void avg_rows(const Geo3& g, const AvgPlan& a, Fn fn) {
  std::vector<T> div(static_cast<size_t>(g.out[2]));
  for (int64_t od = 0; od < g.out[0]; ++od) {
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const int64_t dh = a.d.count[od] * a.h.count[oh];
      for (int64_t ow = 0; ow < g.out[2]; ++ow) {
        div[ow] = static_cast<T>(a.divisor_override != 0 ? a.divisor_override : dh * a.w.count[ow]);
      }
      fn(od, oh, div.data());
    }
  }
}

template <typename T>
void avg_pool_plane(const T* x, T* out, const Geo3& g, const AvgPlan& a, const RowTaps& taps) {
  const int64_t W = g.in[2], HW = g.in[1] * g.in[2], OW = g.out[2], sw = g.str[2];
  avg_rows<T>(g, a, [&](int64_t od, int64_t oh, const T* div) {
    T* orow = out + (od * g.out[1] + oh) * OW;
    std::fill(orow, orow + OW, T(0));
    for (int64_t id = a.d.lo[od]; id < a.d.hi[od]; ++id) {
      for (int64_t ih = a.h.lo[oh]; ih < a.h.hi[oh]; ++ih) {
        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
          const int64_t lo = taps.lo[kw], hi = taps.hi[kw];
          const T* row = x + id * HW + ih * W + taps.off[kw];
#pragma omp simd
          for (int64_t ow = lo; ow < hi; ++ow) orow[ow] += row[ow * sw];
        }
      }
    }
#pragma omp simd
    for (int64_t ow = 0; ow < OW; ++ow) orow[ow] /= div[ow];
  });
}

template <typename T>
void avg_pool_backward_plane(const T* go, T* gi, const Geo3& g, const AvgPlan& a,
                             const RowTaps& taps, std::vector<T>& scaled) {
  const int64_t W = g.in[2], HW = g.in[1] * g.in[2], OW = g.out[2], sw = g.str[2];
  std::fill(gi, gi + g.in_numel(), T(0));
  avg_rows<T>(g, a, [&](int64_t od, int64_t oh, const T* div) {
    const T* grow = go + (od * g.out[1] + oh) * OW;
    for (int64_t ow = 0; ow < OW; ++ow) scaled[ow] = grow[ow] / div[ow];
    for (int64_t id = a.d.lo[od]; id < a.d.hi[od]; ++id) {
      for (int64_t ih = a.h.lo[oh]; ih < a.h.hi[oh]; ++ih) {
        for (int64_t kw = 0; kw < g.k[2]; ++kw) {
          const int64_t lo = taps.lo[kw], hi = taps.hi[kw];
          T* row = gi + id * HW + ih * W + taps.off[kw];
          for (int64_t ow = lo; ow < hi; ++ow) row[ow * sw] += scaled[ow];
        }
      }
    }
  });
}

// The checks every pool entry shares: a [N, C, *S] input with one geometry entry per dim.
Geo3 pool_geometry(const Tensor& input, const WindowGeometry& wg, const char* op) {
  const int64_t d = static_cast<int64_t>(wg.kernel.size());
  EMBER_CHECK(input.dim() == d + 2, RuntimeError, "[", op,
              "] expected a [N, C, *spatial] input with ", d, " spatial dims, got shape ",
              input.sizes());
  return to_geo3(Shape(input.sizes().begin() + 2, input.sizes().end()), wg, op);
}

void check_avg_geometry(const WindowGeometry& wg, const char* op) {
  for (int64_t v : wg.dilation) {
    EMBER_CHECK(v == 1, RuntimeError, "[", op, "] average pools take no dilation, got dilation ",
                wg.dilation);
  }
}

}  // namespace

std::pair<Tensor, Tensor> max_pool(const Tensor& input, const WindowGeometry& wg,
                                   bool with_indices) {
  const char* op = "nn_max_pool";
  const Geo3 g = pool_geometry(input, wg, op);
  const ScalarType ct = compute_dtype(input.dtype(), op);
  const int64_t planes = input.size(0) * input.size(1);
  EMBER_CHECK(g.out_numel() == 0 || g.in_numel() > 0, RuntimeError, "[", op,
              "] expected a non-empty input plane, got input of shape ", input.sizes());
  const Shape shape = with_spatial(input, wg.out_size);
  Tensor out = Tensor::empty(shape, ct);
  Tensor idx = Tensor::empty(with_indices ? shape : Shape{0}, ScalarType::Int64);
  if (out.numel() > 0) {
    const Tensor x = in_dtype(input, ct);
    int64_t* ip = with_indices ? idx.data<int64_t>() : nullptr;
    if (ct == ScalarType::Float64) {
      max_pool_kernel<double>(x.data<double>(), out.data<double>(), ip, g, planes);
    } else {
      max_pool_kernel<float>(x.data<float>(), out.data<float>(), ip, g, planes);
    }
  }
  return {ct == input.dtype() ? out : to_dtype(out, input.dtype()), idx};
}

Tensor max_pool_backward(const Tensor& grad_output, const Tensor& indices,
                         const Shape& input_size) {
  const char* op = "nn_max_pool_backward";
  const ScalarType ct = compute_dtype(grad_output.dtype(), op);
  EMBER_CHECK(grad_output.dim() >= 3 &&
                  static_cast<int64_t>(input_size.size()) == grad_output.dim() - 2 &&
                  indices.sizes() == grad_output.sizes() && indices.dtype() == ScalarType::Int64,
              RuntimeError, "[", op, "] expected grad_output [N, C, *out] with one input size per ",
              "spatial dim and int64 indices of its shape, got grad_output of shape ",
              grad_output.sizes(), ", indices of shape ", indices.sizes(), " (",
              dtype_name(indices.dtype()), ") and input_size ", input_size);
  int64_t S = 1;
  for (int64_t v : input_size) {
    EMBER_CHECK(v >= 0, RuntimeError, "[", op, "] expected non-negative input sizes, got ",
                input_size);
    S *= v;
  }
  Tensor gi = Tensor::empty(with_spatial(grad_output, input_size), ct);
  const int64_t planes = grad_output.size(0) * grad_output.size(1);
  const int64_t L = planes > 0 ? grad_output.numel() / planes : 0;
  if (gi.numel() == 0) return ct == grad_output.dtype() ? gi : to_dtype(gi, grad_output.dtype());
  const Tensor go = in_dtype(grad_output, ct), ix = contiguous(indices);
  std::atomic<int64_t> bad{-1};
  auto run = [&]<typename T>(T* dst, const T* src) {
    const int64_t* ip = ix.data<int64_t>();
    const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, L + S));
    parallel_for(0, planes, grain, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        T* plane = dst + p * S;
        std::fill(plane, plane + S, T(0));
        const T* g = src + p * L;
        const int64_t* i = ip + p * L;
        for (int64_t l = 0; l < L; ++l) {
          if (i[l] < 0 || i[l] >= S) {
            bad.store(i[l]);
            continue;
          }
          plane[i[l]] += g[l];
        }
      }
    });
  };
  if (ct == ScalarType::Float64) {
    run(gi.data<double>(), go.data<double>());
  } else {
    run(gi.data<float>(), go.data<float>());
  }
  EMBER_CHECK(bad.load() == -1, IndexError, "[", op, "] index ", bad.load(),
              " is out of bounds for input planes of ", S, " elements (input_size ", input_size,
              ")");
  return ct == grad_output.dtype() ? gi : to_dtype(gi, grad_output.dtype());
}

Tensor avg_pool(const Tensor& input, const WindowGeometry& wg, bool count_include_pad,
                int64_t divisor_override) {
  const char* op = "nn_avg_pool";
  check_avg_geometry(wg, op);
  const Geo3 g = pool_geometry(input, wg, op);
  const ScalarType ct = compute_dtype(input.dtype(), op);
  const int64_t planes = input.size(0) * input.size(1);
  Tensor out = Tensor::empty(with_spatial(input, wg.out_size), ct);
  if (out.numel() > 0) {
    const Tensor x = in_dtype(input, ct);
    const AvgPlan a = avg_plan(g, count_include_pad, divisor_override);
    const RowTaps taps = row_taps(g);
    const int64_t S = g.in_numel(), L = g.out_numel();
    auto run = [&]<typename T>(const T* src, T* dst) {
      parallel_for(0, planes, plane_grain(g), [&](int64_t p0, int64_t p1) {
        for (int64_t p = p0; p < p1; ++p) avg_pool_plane<T>(src + p * S, dst + p * L, g, a, taps);
      });
    };
    if (ct == ScalarType::Float64) {
      run(x.data<double>(), out.data<double>());
    } else {
      run(x.data<float>(), out.data<float>());
    }
  }
  return ct == input.dtype() ? out : to_dtype(out, input.dtype());
}

Tensor avg_pool_backward(const Tensor& grad_output, const Shape& input_size,
                         const WindowGeometry& wg, bool count_include_pad,
                         int64_t divisor_override) {
  const char* op = "nn_avg_pool_backward";
  check_avg_geometry(wg, op);
  const ScalarType ct = compute_dtype(grad_output.dtype(), op);
  const int64_t d = static_cast<int64_t>(wg.kernel.size());
  EMBER_CHECK(grad_output.dim() == d + 2 && static_cast<int64_t>(input_size.size()) == d &&
                  Shape(grad_output.sizes().begin() + 2, grad_output.sizes().end()) == wg.out_size,
              RuntimeError, "[", op, "] expected grad_output [N, C, *output_size] with ", d,
              " spatial dims matching output_size ", wg.out_size, " and input_size ", input_size,
              ", got grad_output of shape ", grad_output.sizes());
  const Geo3 g = to_geo3(input_size, wg, op);
  const int64_t planes = grad_output.size(0) * grad_output.size(1);
  Tensor gi = Tensor::empty(with_spatial(grad_output, input_size), ct);
  if (gi.numel() > 0) {
    const Tensor go = in_dtype(grad_output, ct);
    const AvgPlan a = avg_plan(g, count_include_pad, divisor_override);
    const RowTaps taps = row_taps(g);
    const int64_t S = g.in_numel(), L = g.out_numel();
    auto run = [&]<typename T>(const T* src, T* dst) {
      parallel_for(0, planes, plane_grain(g), [&](int64_t p0, int64_t p1) {
        std::vector<T> scaled(static_cast<size_t>(g.out[2]));
        for (int64_t p = p0; p < p1; ++p) {
          avg_pool_backward_plane<T>(src + p * L, dst + p * S, g, a, taps, scaled);
        }
      });
    };
    if (ct == ScalarType::Float64) {
      run(go.data<double>(), gi.data<double>());
    } else {
      run(go.data<float>(), gi.data<float>());
    }
  }
  return ct == grad_output.dtype() ? gi : to_dtype(gi, grad_output.dtype());
}

}  // namespace ember
