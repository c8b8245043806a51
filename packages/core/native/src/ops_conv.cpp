// im2col / col2im over 1 to 3 spatial dims (a 1-d or 2-d problem runs as 3-d with unit dims).
// Each (n, c) plane is independent: its K rows of columns come from it alone, so planes split
// over the pool without races, and col2im needs no atomics.
#include <algorithm>
#include <cstring>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

struct Geo3 {
  int64_t in[3], k[3], dil[3], pad[3], str[3], out[3];
  int64_t kernel_numel() const { return k[0] * k[1] * k[2]; }
  int64_t out_numel() const { return out[0] * out[1] * out[2]; }
  int64_t in_numel() const { return in[0] * in[1] * in[2]; }
};

int64_t ceil_div(int64_t n, int64_t d) { return n > 0 ? (n + d - 1) / d : -((-n) / d); }

// The window positions o in [lo, hi) whose read o * stride + offset lies in [0, size).
void valid_range(int64_t size, int64_t stride, int64_t offset, int64_t count, int64_t* lo,
                 int64_t* hi) {
  *lo = std::clamp<int64_t>(ceil_div(-offset, stride), 0, count);
  *hi = std::clamp<int64_t>(ceil_div(size - offset, stride), *lo, count);
}

Geo3 to_geo3(const Shape& spatial, const WindowGeometry& g, const char* op) {
  const size_t d = g.kernel.size();
  EMBER_CHECK(d >= 1 && d <= 3 && spatial.size() == d && g.dilation.size() == d &&
                  g.padding.size() == d && g.stride.size() == d && g.out_size.size() == d,
              RuntimeError, "[", op,
              "] expected 1 to 3 spatial dims with one kernel size, "
              "dilation, padding, stride and output size each, got input spatial size ",
              spatial, " and kernel_size ", g.kernel);
  Geo3 r{};
  const size_t lead = 3 - d;
  for (size_t i = 0; i < 3; ++i) {
    const bool unit = i < lead;
    const size_t j = i - lead;
    r.in[i] = unit ? 1 : spatial[j];
    r.k[i] = unit ? 1 : g.kernel[j];
    r.dil[i] = unit ? 1 : g.dilation[j];
    r.pad[i] = unit ? 0 : g.padding[j];
    r.str[i] = unit ? 1 : g.stride[j];
    r.out[i] = unit ? 1 : g.out_size[j];
    EMBER_CHECK(r.k[i] > 0 && r.dil[i] > 0 && r.str[i] > 0 && r.pad[i] >= 0 && r.out[i] >= 0 &&
                    r.in[i] >= 0,
                RuntimeError, "[", op,
                "] kernel_size, dilation and stride must be positive, "
                "padding and sizes non-negative; got kernel_size ",
                g.kernel, ", dilation ", g.dilation, ", padding ", g.padding, ", stride ", g.stride,
                ", output size ", g.out_size);
  }
  return r;
}

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

template <typename T>
void im2col_kernel(const T* x, T* cols, const Geo3& g, int64_t planes, T pad) {
  const int64_t K = g.kernel_numel(), L = g.out_numel(), S = g.in_numel();
  const int64_t sw = g.str[2], ow_n = g.out[2];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, K * L));
  parallel_for(0, planes, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* src = x + p * S;
      T* dst = cols + p * K * L;
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
  });
}

template <typename T>
void col2im_kernel(const T* cols, T* x, const Geo3& g, int64_t planes) {
  const int64_t K = g.kernel_numel(), L = g.out_numel(), S = g.in_numel();
  const int64_t sw = g.str[2];
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, K * L));
  parallel_for(0, planes, grain, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const T* src = cols + p * K * L;
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
  });
}

// float16/bfloat16 run in float32 (rounded once at the end); other non-float types are refused.
ScalarType compute_dtype(ScalarType dt, const char* op) {
  EMBER_CHECK(dt == ScalarType::Float32 || dt == ScalarType::Float64 || dt == ScalarType::Float16 ||
                  dt == ScalarType::BFloat16,
              RuntimeError, "[", op, "] not implemented for '", dtype_name(dt),
              "': expected a floating point tensor");
  return dt == ScalarType::Float64 ? ScalarType::Float64 : ScalarType::Float32;
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

}  // namespace ember
