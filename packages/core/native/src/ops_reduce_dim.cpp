// Reductions along dims that need more than an accumulator (indices, statistics, norms) and
// scans. Each runs as a "row" loop through the TensorIterator (reduce_dim_loops.h): the iterator
// splits output positions across threads, the loop walks each position's reduced run.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "reduce_dim_loops.h"

namespace ember {
namespace {

using rows::RowParams;

// The input seen as rows: `input` has the kept dims only; each of its positions owns a run of
// `len` elements `stride` apart.
struct Rows {
  Tensor input;
  int64_t len = 1;
  int64_t stride = 1;  // elements
};

// Reduced dims that do not merge into one strided run are gathered by a contiguous copy.
// `logical_order` keeps the run in row-major order (for flattened indices).
Rows make_rows(const Tensor& x, const std::vector<bool>& mask, bool logical_order) {
  Shape kept_sizes, kept_strides;
  std::vector<int64_t> reduced;
  int64_t len = 1;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!mask[d]) {
      kept_sizes.push_back(x.sizes()[d]);
      kept_strides.push_back(x.strides()[d]);
      continue;
    }
    len *= x.sizes()[d];
    if (x.sizes()[d] != 1) reduced.push_back(d);
  }
  Rows r;
  r.len = len;
  if (reduced.size() == 1) r.stride = x.strides()[reduced[0]];
  if (reduced.size() <= 1 || len == 0) {
    r.input = x.as_strided(kept_sizes, kept_strides, x.offset());
    return r;
  }
  std::vector<int64_t> order = reduced;
  if (!logical_order) {
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return x.strides()[a] > x.strides()[b]; });
  }
  bool merges = true;
  for (size_t j = 0; j + 1 < order.size(); ++j) {
    merges &= x.strides()[order[j]] == x.strides()[order[j + 1]] * x.sizes()[order[j + 1]];
  }
  if (merges) {
    r.stride = x.strides()[order.back()];
    r.input = x.as_strided(kept_sizes, kept_strides, x.offset());
    return r;
  }
  // Gather: a copy laid out as (kept dims..., reduced dims...), reduced dims innermost.
  Shape sizes = kept_sizes, strides = kept_strides;
  for (int64_t d : reduced) {
    sizes.push_back(x.sizes()[d]);
    strides.push_back(x.strides()[d]);
  }
  const Tensor gathered = contiguous(x.as_strided(sizes, strides, x.offset()));
  const Shape& g = gathered.strides();
  r.input = gathered.as_strided(kept_sizes, Shape(g.begin(), g.begin() + kept_sizes.size()),
                                gathered.offset());
  r.stride = 1;
  return r;
}

// An op's loop over output positions, and over one long run split across threads.
struct RowKernel {
  Loop1d rows = nullptr;
  rows::FullLoop full = nullptr;
};

template <typename T, typename Op>
RowKernel kernel_of() {
  return {&rows::reduce_loop<T, Op>, &rows::reduce_full<T, Op>};
}

// Runs `kernel` with outputs `outs` (shaped like rows.input) over every position.
void run_rows(const char* op, const Rows& rows, const std::vector<Tensor>& outs, RowKernel kernel,
              RowParams params) {
  params.len = rows.len;
  params.in_stride = rows.stride * rows.input.element_size();
  // A single output: the iterator has nothing to split, so split the run itself.
  if (rows.input.numel() == 1 && rows.len >= 2 * kParallelGrain && get_num_threads() > 1) {
    char* data[kMaxOperands] = {};
    for (size_t i = 0; i < outs.size(); ++i) data[i] = outs[i].data_bytes();
    kernel.full(data, rows.input.data_bytes(), params);
    return;
  }
  IterConfig config;
  config.has_compute_dtype = true;
  config.compute_dtype = rows.input.dtype();
  config.cast_inputs = false;
  config.cast_outputs = false;
  config.resize_outputs = false;
  TensorIterator iter(op, config);
  for (const Tensor& out : outs) iter.add_output(out);
  iter.add_input(rows.input);
  iter.build();
  // Each position costs `len` steps: keep about kParallelGrain steps per thread chunk.
  iter.for_each(kernel.rows, &params,
                std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(rows.len, 1)));
}

// The output shaped as with keepdim=True (reduced dims as size 1); `t` is contiguous.
Tensor keep_dims(const Tensor& t, const std::vector<bool>& mask) {
  Shape sizes;
  size_t k = 0;
  for (bool reduced : mask) sizes.push_back(reduced ? 1 : t.sizes()[k++]);
  return t.as_strided(sizes, contiguous_strides(sizes), t.offset());
}

// (elements per reduced run, number of output positions).
std::pair<int64_t, int64_t> reduced_extent(const Tensor& x, const std::vector<bool>& mask) {
  int64_t len = 1, positions = 1;
  for (size_t d = 0; d < mask.size(); ++d) (mask[d] ? len : positions) *= x.sizes()[d];
  return {len, positions};
}

Tensor maybe_keep(const Tensor& t, const std::vector<bool>& mask, bool keepdim) {
  return keepdim ? keep_dims(t, mask) : t;
}

template <template <typename> class Op>
RowKernel kernel_for(ScalarType t) {
  return visit_dtype(t, [](auto tag) -> RowKernel {
    using T = typename decltype(tag)::type;
    return kernel_of<T, Op<T>>();
  });
}

// kernel_for that also covers uint16/32/64: for the ops whose Op is defined on every integer
// (max/min/argmax/argmin, count_nonzero); the others stay instantiated for fewer dtypes.
template <template <typename> class Op>
RowKernel kernel_for_unsigned_too(ScalarType t) {
  return visit_dtype_with_unsigned(t, [](auto tag) -> RowKernel {
    using T = typename decltype(tag)::type;
    return kernel_of<T, Op<T>>();
  });
}

template <bool kMax, bool kValues>
struct Extreme {
  template <typename T>
  using Op = rows::ExtremeOp<T, kMax, kValues>;
};

// max/min (values, indices) or argmax/argmin (indices) along one dim.
std::pair<Tensor, Tensor> extreme_dim(const char* op, bool is_max, bool values, const Tensor& x,
                                      int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, x.dim(), op);
  EMBER_CHECK(x.dim() == 0 || x.sizes()[d] != 0, IndexError, "[", op, "] Expected reduction dim ",
              d, " to have non-zero size (input shape ", x.sizes(), ")");
  std::vector<bool> mask(x.dim(), false);
  if (x.dim() > 0) mask[d] = true;
  const Rows rows = make_rows(x, mask, true);
  Tensor vals = Tensor::empty(rows.input.sizes(), x.dtype());
  Tensor idx = Tensor::empty(rows.input.sizes(), ScalarType::Int64);
  RowKernel loop;
  if (values) {
    loop = is_max ? kernel_for_unsigned_too<Extreme<true, true>::Op>(x.dtype())
                  : kernel_for_unsigned_too<Extreme<false, true>::Op>(x.dtype());
    run_rows(op, rows, {vals, idx}, loop, {});
  } else {
    loop = is_max ? kernel_for_unsigned_too<Extreme<true, false>::Op>(x.dtype())
                  : kernel_for_unsigned_too<Extreme<false, false>::Op>(x.dtype());
    run_rows(op, rows, {idx}, loop, {});
  }
  return {maybe_keep(vals, mask, keepdim), maybe_keep(idx, mask, keepdim)};
}

Tensor arg_extreme(const char* op, bool is_max, const Tensor& x, std::optional<int64_t> dim,
                   bool keepdim) {
  EMBER_CHECK(x.dtype() != ScalarType::Bool, RuntimeError, "[", op,
              "] does not support bool input");
  if (dim) return extreme_dim(op, is_max, false, x, *dim, keepdim).second;
  EMBER_CHECK(x.numel() != 0, IndexError, "[", op,
              "] Expected reduction dim to be specified for input.numel() == 0 (input shape ",
              x.sizes(), ")");
  // Over the flattened tensor: the index is the row-major position.
  const std::vector<bool> mask(x.dim(), true);
  const Rows rows = make_rows(x, mask, true);
  Tensor idx = Tensor::empty({}, ScalarType::Int64);
  const RowKernel loop = is_max ? kernel_for_unsigned_too<Extreme<true, false>::Op>(x.dtype())
                                : kernel_for_unsigned_too<Extreme<false, false>::Op>(x.dtype());
  run_rows(op, rows, {idx}, loop, {});
  return maybe_keep(idx, mask, keepdim);
}

// var/std (mode 0/1) and var_mean/std_mean (2/3): returns (statistic, mean or undefined).
std::pair<Tensor, Tensor> var_like(const char* op, int mode, const Tensor& x, const Dims& dims,
                                   double correction, bool keepdim) {
  if (is_complex(x.dtype())) {
    // torch: var(z) = var(Re z) + var(Im z), a real result; the mean stays complex.
    const Tensor v =
        binary(BinaryOp::Add, var_like(op, 0, real(x), dims, correction, keepdim).first,
               var_like(op, 0, imag(x), dims, correction, keepdim).first);
    const Tensor stat = mode % 2 == 1 ? unary(UnaryOp::Sqrt, v) : v;
    return {stat, mode >= 2 ? mean(x, dims, keepdim) : Tensor()};
  }
  EMBER_CHECK(is_floating(x.dtype()), RuntimeError, "[", op,
              "] std and var only support floating point dtypes, got ", dtype_name(x.dtype()));
  const auto mask = reduction_mask(x, dims, op);
  const Rows rows = make_rows(x, mask, false);
  Tensor stat = Tensor::empty(rows.input.sizes(), x.dtype());
  Tensor mean = mode >= 2 ? Tensor::empty(rows.input.sizes(), x.dtype()) : Tensor();
  RowParams params;
  params.p = correction;
  const RowKernel loop = visit_dtype(x.dtype(), [mode](auto tag) -> RowKernel {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_floating_point_v<compute_t<T>>)
      return {};
    else
      switch (mode) {
        case 0:
          return kernel_of<T, rows::VarOp<T, 0>>();
        case 1:
          return kernel_of<T, rows::VarOp<T, 1>>();
        case 2:
          return kernel_of<T, rows::VarOp<T, 2>>();
        default:
          return kernel_of<T, rows::VarOp<T, 3>>();
      }
  });
  if (mode >= 2)
    run_rows(op, rows, {stat, mean}, loop, params);
  else
    run_rows(op, rows, {stat}, loop, params);
  return {maybe_keep(stat, mask, keepdim), mean.defined() ? maybe_keep(mean, mask, keepdim) : mean};
}

template <bool kProd>
Tensor scan(const char* op, const Tensor& x, int64_t dim, std::optional<ScalarType> dtype,
            const Tensor& out) {
  const int64_t d = wrap_dim(dim, x.dim(), op);
  // torch: dtype= (else out's dtype, else int64 for integers) is the dtype the scan runs in.
  ScalarType result = is_integral(x.dtype(), true) ? ScalarType::Int64 : x.dtype();
  if (out.defined()) {
    if (dtype) check_out_dtype(out, *dtype, op, OutDtype::kExact);
    result = out.dtype();
  }
  if (dtype) result = *dtype;
  const Tensor input = to_dtype(x, result);
  Tensor y = Tensor::empty(x.sizes(), result);
  if (x.numel() > 0) {
    std::vector<bool> mask(x.dim(), false);
    if (x.dim() > 0) mask[d] = true;
    const Rows rows = make_rows(input, mask, true);
    const Rows out_rows = make_rows(y, mask, true);
    RowParams params;
    params.out_stride = out_rows.stride * y.element_size();
    using CFloat = std::complex<float>;
    using CDouble = std::complex<double>;
    const Loop1d loop = result == ScalarType::ComplexFloat ? &rows::scan_loop<CFloat, kProd>
                        : result == ScalarType::ComplexDouble
                            ? &rows::scan_loop<CDouble, kProd>
                            : visit_dtype_with_unsigned(result, [](auto tag) -> Loop1d {
                                using T = typename decltype(tag)::type;
                                return &rows::scan_loop<T, kProd>;
                              });
    IterConfig config;
    config.has_compute_dtype = true;
    config.compute_dtype = result;
    config.cast_inputs = false;
    config.cast_outputs = false;
    config.resize_outputs = false;
    TensorIterator iter(op, config);
    iter.add_output(out_rows.input).add_input(rows.input);
    iter.build();
    params.len = rows.len;
    params.in_stride = rows.stride * input.element_size();
    iter.for_each(loop, &params, std::max<int64_t>(1, kParallelGrain / rows.len));
  }
  return write_out(y, out, op, {.inputs = {x}});
}

}  // namespace

std::pair<Tensor, Tensor> max_dim(const Tensor& x, int64_t dim, bool keepdim) {
  return extreme_dim("max", true, true, x, dim, keepdim);
}

std::pair<Tensor, Tensor> min_dim(const Tensor& x, int64_t dim, bool keepdim) {
  return extreme_dim("min", false, true, x, dim, keepdim);
}

void extreme_dim_out(const Tensor& x, int64_t dim, bool keepdim, bool is_max, const Tensor& values,
                     const Tensor& indices) {
  const char* op = is_max ? "max" : "min";
  check_out_dtype(values, x.dtype(), op, OutDtype::kExact);
  check_out_dtype(indices, ScalarType::Int64, op, OutDtype::kExact);
  const auto r = extreme_dim(op, is_max, true, x, dim, keepdim);
  write_out(r.first, values, op);
  write_out(r.second, indices, op);
}

Tensor max_all(const Tensor& x, bool is_max, const Tensor& out) {
  const char* op = is_max ? "max" : "min";
  EMBER_CHECK(x.numel() != 0, RuntimeError, "[", op,
              "] Expected reduction dim to be specified for input.numel() == 0 (input shape ",
              x.sizes(), "). Specify the reduction dim with the 'dim' argument.");
  return is_max ? amax(x, {}, false, out) : amin(x, {}, false, out);
}

Tensor argmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  if (out.defined()) check_out_dtype(out, ScalarType::Int64, "argmax", OutDtype::kExact);
  return write_out(arg_extreme("argmax", true, x, dim, keepdim), out, "argmax");
}

Tensor argmin(const Tensor& x, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  if (out.defined()) check_out_dtype(out, ScalarType::Int64, "argmin", OutDtype::kExact);
  return write_out(arg_extreme("argmin", false, x, dim, keepdim), out, "argmin");
}

Tensor var(const Tensor& x, const Dims& dims, double correction, bool keepdim, const Tensor& out) {
  return write_out(var_like("var", 0, x, dims, correction, keepdim).first, out, "var");
}

Tensor std(const Tensor& x, const Dims& dims, double correction, bool keepdim, const Tensor& out) {
  return write_out(var_like("std", 1, x, dims, correction, keepdim).first, out, "std");
}

std::pair<Tensor, Tensor> var_mean(const Tensor& x, const Dims& dims, double correction,
                                   bool keepdim) {
  return var_like("var_mean", 2, x, dims, correction, keepdim);
}

std::pair<Tensor, Tensor> std_mean(const Tensor& x, const Dims& dims, double correction,
                                   bool keepdim) {
  return var_like("std_mean", 3, x, dims, correction, keepdim);
}

// Composite, as torch: max-shifted so exp never overflows; infinite maxima shift by 0 so that
// all -inf gives -inf and +inf gives +inf (not NaN). Measured ~2.5x faster than a fused row
// loop here, since exp and sum use the vectorized per-ISA kernels.
Tensor logsumexp(const Tensor& x_in, const Dims& dims, bool keepdim, const Tensor& out_arg) {
  // Integers are promoted to the default float dtype, like torch. Complex inputs shift by the
  // max of the real parts (torch's rule): exp(z - m) cannot overflow then.
  const bool complex_input = is_complex(x_in.dtype());
  const Tensor x =
      is_floating(x_in.dtype()) || complex_input ? x_in : to_dtype(x_in, default_dtype());
  const auto mask = reduction_mask(x, dims, "logsumexp");
  const auto [len, positions] = reduced_extent(x, mask);
  Tensor result;
  if (len == 0 || positions == 0) {
    Shape sizes = x.sizes();
    for (size_t d = 0; d < mask.size(); ++d)
      if (mask[d]) sizes[d] = 1;
    result = Tensor::empty(sizes, to_real_type(x.dtype()));
    fill_(result, -std::numeric_limits<double>::infinity());  // log(0) of an empty sum
    if (complex_input) result = to_dtype(result, x.dtype());
  } else {
    Tensor shift = amax(complex_input ? real(x) : x, dims, true);
    shift = where(predicate(PredicateOp::IsInf, shift),
                  Tensor::scalar(0.0, to_real_type(x.dtype()), true), shift);
    const Tensor sum_exp = sum(unary(UnaryOp::Exp, binary(BinaryOp::Sub, x, shift)), dims, true);
    result = binary(BinaryOp::Add, unary(UnaryOp::Log, sum_exp), shift);
  }
  return write_out(keepdim ? result : drop_reduced_dims(result, mask), out_arg, "logsumexp");
}

Tensor norm(const Tensor& x_in, double p, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype, const Tensor& out_arg) {
  if (is_complex(x_in.dtype())) {
    // The norm of |z| (torch: a real result); dtype= names the complex type to compute in.
    EMBER_CHECK(!dtype || *dtype == x_in.dtype() ||
                    (is_complex(*dtype) && promote_types(x_in.dtype(), *dtype) == *dtype),
                RuntimeError, "[norm] the dtype of the input (", dtype_name(x_in.dtype()),
                ") should be convertible without narrowing to the specified dtype (",
                dtype ? dtype_name(*dtype) : "", ")");
    const Tensor z = dtype ? to_dtype(x_in, *dtype) : x_in;
    if (p == 2.0 && !out_arg.defined()) {
      // |z|^2 = re^2 + im^2: the real 2-norm over (re, im) pairs as one more reduced dim, on
      // the vectorized real kernels (|z| first costs a hypot per element: ~100x slower).
      const auto mask = reduction_mask(z, dims, "norm");  // also checks the dims
      Dims pairs;
      for (int64_t d = 0; d < static_cast<int64_t>(mask.size()); ++d) {
        if (mask[static_cast<size_t>(d)]) pairs.push_back(d);
      }
      pairs.push_back(z.dim());
      Tensor r = norm(view_as_real(z), p, pairs, keepdim, std::nullopt, Tensor());
      if (keepdim) r = squeeze(r, std::vector<int64_t>{r.dim() - 1});
      return r;
    }
    return norm(complex_abs(z, Tensor()), p, dims, keepdim, std::nullopt, out_arg);
  }
  EMBER_CHECK(is_floating(x_in.dtype()), RuntimeError,
              "[norm] expected a floating point tensor as input, got ", dtype_name(x_in.dtype()));
  if (dtype) {
    EMBER_CHECK(is_floating(*dtype), RuntimeError,
                "[norm] dtype should be floating point, but got ", dtype_name(*dtype));
    EMBER_CHECK(promote_types(x_in.dtype(), *dtype) == *dtype, RuntimeError,
                "[norm] the dtype of the input (", dtype_name(x_in.dtype()),
                ") should be convertible without narrowing to the specified dtype (",
                dtype_name(*dtype), ")");
  }
  const Tensor x = dtype ? to_dtype(x_in, *dtype) : x_in;
  const auto mask = reduction_mask(x, dims, "norm");
  const auto [len, positions] = reduced_extent(x, mask);
  // max/min norms and negative orders have no identity on an empty run.
  EMBER_CHECK(!(len == 0 && positions > 0 && (p < 0 || std::isinf(p))), RuntimeError,
              "[norm] cannot compute the ", p, " norm on an empty reduction (input shape ",
              x.sizes(), ") because the operation does not have an identity");
  // max/min norms of float32/float64: abs + amax/amin use the vectorized per-ISA kernels,
  // ~1.3x faster than the row loop (measured); sums of powers stay in the row loop, whose
  // lanes beat mul + sum by 5x.
  const bool wide = x.dtype() == ScalarType::Float32 || x.dtype() == ScalarType::Float64;
  if (wide && std::isinf(p) && len > 0 && positions > 0) {
    const Tensor a = unary(UnaryOp::Abs, x);
    return write_out(p > 0 ? amax(a, dims, keepdim) : amin(a, dims, keepdim), out_arg, "norm");
  }
  const Rows rows = make_rows(x, mask, false);
  Tensor out = Tensor::empty(rows.input.sizes(), x.dtype());
  RowParams params;
  params.p = p;
  using rows::NormKind;
  const RowKernel loop = visit_dtype(x.dtype(), [p](auto tag) -> RowKernel {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_floating_point_v<compute_t<T>>)
      return {};
    else if (p == 2)
      return kernel_of<T, rows::NormOp<T, NormKind::Two>>();
    else if (p == 1)
      return kernel_of<T, rows::NormOp<T, NormKind::One>>();
    else if (p == 0)
      return kernel_of<T, rows::NormOp<T, NormKind::Zero>>();
    else if (std::isinf(p) && p > 0)
      return kernel_of<T, rows::NormOp<T, NormKind::Inf>>();
    else if (std::isinf(p))
      return kernel_of<T, rows::NormOp<T, NormKind::NegInf>>();
    else
      return kernel_of<T, rows::NormOp<T, NormKind::General>>();
  });
  run_rows("norm", rows, {out}, loop, params);
  return write_out(maybe_keep(out, mask, keepdim), out_arg, "norm");
}

Tensor count_nonzero(const Tensor& x, const Dims& dims) {
  const auto mask = reduction_mask(x, dims, "count_nonzero");
  const Rows rows = make_rows(x, mask, false);
  Tensor out = Tensor::empty(rows.input.sizes(), ScalarType::Int64);
  using CFloat = std::complex<float>;
  using CDouble = std::complex<double>;
  const RowKernel loop = x.dtype() == ScalarType::ComplexFloat
                             ? kernel_of<CFloat, rows::CountNonzeroOp<CFloat>>()
                         : x.dtype() == ScalarType::ComplexDouble
                             ? kernel_of<CDouble, rows::CountNonzeroOp<CDouble>>()
                             : kernel_for_unsigned_too<rows::CountNonzeroOp>(x.dtype());
  run_rows("count_nonzero", rows, {out}, loop, {});
  return out;
}

Tensor cumsum(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype, const Tensor& out) {
  return scan<false>("cumsum", x, dim, dtype, out);
}

Tensor cumprod(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype, const Tensor& out) {
  return scan<true>("cumprod", x, dim, dtype, out);
}

}  // namespace ember
