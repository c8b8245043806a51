// index_add/index_copy/index_fill, scatter_reduce and masked_scatter.
//
// The along-dim ops run through the TensorIterator over the positions of the other dims (the
// dim itself removed), and each loop call walks the whole index for its positions: two
// positions never write one element, so threads never race, even on duplicate indices.
// index_add_/index_copy_/index_fill_ over rows of 64+ elements take the row path instead
// (index_along_rows.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/ops/index_scatter.h"
#include "ember/parallel.h"
#include "index_along_rows.h"

namespace ember {
namespace {

template <typename T>
T& at(char* base, int64_t offset) {
  return *reinterpret_cast<T*>(base + offset);
}

// Parameters of the along-dim loops: the index (contiguous int64, checked), the byte strides
// along the indexed dim, and add's alpha.
struct AlongParams {
  const int64_t* index = nullptr;
  int64_t count = 0;
  int64_t index_stride = 0;  // bytes along the dim in scatter's index
  int64_t x_stride = 0;
  int64_t src_stride = 0;
  double alpha = 1;
  int64_t alpha_int = 1;
};

// One element update d = f(d, s); ops carry the dtype's arithmetic.
template <typename T>
struct CopyOp {
  static void apply(T& d, T s, const AlongParams&) { d = s; }
};

// x[j] += alpha * s[j]; the rows never overlap (x was checked against the source's storage).
template <typename T>
void add_scaled_row(T* __restrict x, const T* __restrict s, int64_t n, T alpha) {
  if (alpha == T(1)) {
    for (int64_t j = 0; j < n; ++j) x[j] += s[j];
    return;
  }
  for (int64_t j = 0; j < n; ++j) x[j] += alpha * s[j];
}

template <typename T>
struct AddOp {
  static void apply(T& d, T s, const AlongParams& p) {
    if constexpr (std::is_same_v<T, bool>) {
      d = d || (s && p.alpha_int != 0);
    } else if constexpr (std::is_integral_v<T>) {
      // Unsigned arithmetic wraps like torch's integer adds (no signed-overflow UB).
      d = static_cast<T>(static_cast<uint64_t>(d) +
                         static_cast<uint64_t>(p.alpha_int) * static_cast<uint64_t>(s));
    } else {
      using C = compute_t<T>;
      d = static_cast<T>(static_cast<C>(d) + static_cast<C>(p.alpha) * static_cast<C>(s));
    }
  }
};

template <typename T>
struct MulOp {
  static void apply(T& d, T s, const AlongParams&) {
    if constexpr (std::is_same_v<T, bool>) {
      d = d && s;
    } else if constexpr (std::is_integral_v<T>) {
      d = static_cast<T>(static_cast<uint64_t>(d) * static_cast<uint64_t>(s));
    } else {
      using C = compute_t<T>;
      d = static_cast<T>(static_cast<C>(d) * static_cast<C>(s));
    }
  }
};

// amax/amin: a NaN from either side sticks (torch's scatter rule).
template <typename T, bool kMax>
struct ExtremeOp {
  static void apply(T& d, T s, const AlongParams&) {
    using C = compute_t<T>;
    const C a = static_cast<C>(d), b = static_cast<C>(s);
    if constexpr (std::is_floating_point_v<C>) {
      if (std::isnan(a)) return;
      if (std::isnan(b)) {
        d = s;
        return;
      }
    }
    if (kMax ? b > a : b < a) d = s;
  }
};

// scatter's mean: counts (int64) of the values reduced into each element.
struct CountOp {
  static void apply(int64_t& d, int64_t, const AlongParams&) { ++d; }
};

// data[0]: x at each position, data[1]: source at each position. When positions are far apart
// and the dim is dense, walk position by position (the inner loop then reads along the dim).
template <typename T, typename Op>
void along_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const AlongParams& p = *static_cast<const AlongParams*>(params);
  if (n == 1 || std::abs(strides[0]) > std::abs(p.x_stride)) {
    for (int64_t j = 0; j < n; ++j) {
      char* x = data[0] + j * strides[0];
      const char* s = data[1] + j * strides[1];
      for (int64_t k = 0; k < p.count; ++k) {
        Op::apply(at<T>(x, p.index[k] * p.x_stride),
                  *reinterpret_cast<const T*>(s + k * p.src_stride), p);
      }
    }
    return;
  }
  const bool dense = strides[0] == sizeof(T) && strides[1] == sizeof(T);
  for (int64_t k = 0; k < p.count; ++k) {
    T* x = reinterpret_cast<T*>(data[0] + p.index[k] * p.x_stride);
    const char* s = data[1] + k * p.src_stride;
    if (dense) {
      const T* sv = reinterpret_cast<const T*>(s);
      if constexpr (std::is_same_v<Op, AddOp<T>> && std::is_floating_point_v<T>) {
        // The common index_add_ case: a contiguous row added into a row, vectorized (float and
        // double compute in their own type, so this matches the generic path bit for bit).
        add_scaled_row(x, sv, n, static_cast<T>(p.alpha));
        continue;
      }
      for (int64_t j = 0; j < n; ++j) Op::apply(x[j], sv[j], p);
    } else {
      for (int64_t j = 0; j < n; ++j) {
        Op::apply(at<T>(reinterpret_cast<char*>(x), j * strides[0]),
                  *reinterpret_cast<const T*>(s + j * strides[1]), p);
      }
    }
  }
}

// data[0]: x, data[1]: src, data[2]: index (int64), all at the positions of the other dims;
// the index is read along the dim with its own stride (scatter's index is any view).
template <typename T, typename Op>
void scatter_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const AlongParams& p = *static_cast<const AlongParams*>(params);
  // Dense positions (a scatter along an outer dim): sweep them once per k, so each pass reads
  // memory in order. Every element still receives its values in k order.
  if (n > 1 && std::abs(strides[0]) <= std::abs(p.x_stride)) {
    for (int64_t k = 0; k < p.count; ++k) {
      const char* idx = data[2] + k * p.index_stride;
      const char* s = data[1] + k * p.src_stride;
      for (int64_t j = 0; j < n; ++j) {
        const int64_t i = *reinterpret_cast<const int64_t*>(idx + j * strides[2]);
        Op::apply(at<T>(data[0], j * strides[0] + i * p.x_stride),
                  *reinterpret_cast<const T*>(s + j * strides[1]), p);
      }
    }
    return;
  }
  for (int64_t j = 0; j < n; ++j) {
    char* x = data[0] + j * strides[0];
    const char* s = data[1] + j * strides[1];
    const char* idx = data[2] + j * strides[2];
    for (int64_t k = 0; k < p.count; ++k) {
      const int64_t i = *reinterpret_cast<const int64_t*>(idx + k * p.index_stride);
      Op::apply(at<T>(x, i * p.x_stride), *reinterpret_cast<const T*>(s + k * p.src_stride), p);
    }
  }
}

// `t` without dim d, keeping strides (the positions the iterator walks).
Tensor positions(const Tensor& t, int64_t d, const Shape& sizes) {
  Shape strides = t.strides();
  strides.erase(strides.begin() + d);
  return t.as_strided(sizes, strides, t.offset());
}

Shape without(const Shape& s, int64_t d) {
  Shape r = s;
  r.erase(r.begin() + d);
  return r;
}

// Runs `loop` over the positions of x (and the other operands) with dim d removed.
void run_along(const char* op, const Tensor& x, const std::vector<Tensor>& inputs, int64_t d,
               const Shape& position_sizes, Loop1d loop, const AlongParams& p) {
  TensorIterator it(op, IterConfig::raw(x.dtype()));
  it.add_output(positions(x, d, position_sizes));
  for (const Tensor& in : inputs) it.add_input(positions(in, d, position_sizes));
  it.build();
  // NOTE: at least 512 positions per task: each task walks the whole index, and narrower
  // slices of the rows (8 floats at the old grain) turned every row access into a cache miss.
  it.for_each(loop, &p, std::max<int64_t>(512, kParallelGrain / std::max<int64_t>(p.count, 1)));
}

Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? reshape(t, {1}) : t; }

// index_add and scatter take int32 or int64 indices (RuntimeError otherwise), index_copy and
// index_fill only int64 (IndexError otherwise), as in torch.
void check_index(const Tensor& index, bool allow_int32, const char* op) {
  if (index.dtype() == ScalarType::Int64 || (allow_int32 && index.dtype() == ScalarType::Int32)) {
    return;
  }
  const std::string msg =
      str("[", op, "] expected dtype ", allow_int32 ? "int32 or int64" : "int64",
          " for index, got ", dtype_name(index.dtype()));
  if (allow_int32) throw RuntimeError(msg);
  throw IndexError(msg);
}

// The index as contiguous int64 values in [0, size): negative ones wrap when `wrap`. Raises
// (RuntimeError or IndexError, as torch does for the op) on the first one out of range.
Tensor checked_index(const Tensor& index, int64_t size, int64_t dim, bool wrap, bool index_error,
                     const char* op) {
  Tensor idx = contiguous(to_dtype(index, ScalarType::Int64, wrap));
  int64_t* v = idx.data<int64_t>();
  const int64_t n = idx.numel();
  parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      int64_t k = v[i];
      if (wrap && k < 0 && k >= -size) k += size;
      if (k < 0 || k >= size) {
        const std::string msg = str("[", op, "] index ", v[i], " is out of bounds for dimension ",
                                    dim, " with size ", size);
        if (index_error) throw IndexError(msg);
        throw RuntimeError(msg);
      }
      if (wrap) v[i] = k;
    }
  });
  return idx;
}

// A read-only operand that shares x's memory is copied first (x is written as we go).
Tensor unaliased(const Tensor& src, const Tensor& x) {
  return src.storage() == x.storage() ? clone(src) : src;
}

// index_add_/index_copy_/index_fill_: checks, then one pass over x's positions.
void index_along_(AlongKind kind, const Tensor& x, int64_t dim, const Tensor& index,
                  const Tensor& source, Scalar alpha, const char* op) {
  x.check_writable(op);
  check_index(index, kind == AlongKind::Add, op);
  EMBER_CHECK(index.dim() <= 1, IndexError, "[", op, "] index is supposed to be a vector, ",
              "got shape ", index.sizes());
  const Tensor x1 = as_1d(x);
  const int64_t d = wrap_dim(dim, x1.dim(), op);
  assert_no_internal_overlap(x1, op);
  Tensor src;  // source in x1's geometry with index.numel() along d
  Shape src_shape = x1.sizes();
  src_shape[d] = index.numel();
  if (kind == AlongKind::Fill) {
    EMBER_CHECK(source.dim() == 0, RuntimeError, "[", op, "] only supports a 0-dimensional ",
                "value tensor, got a tensor of shape ", source.sizes());
    src = expand(to_dtype(source, x.dtype()), src_shape);
  } else {
    EMBER_CHECK(source.dtype() == x.dtype(), RuntimeError, "[", op, "] self (",
                dtype_name(x.dtype()), ") and source (", dtype_name(source.dtype()),
                ") must have the same dtype");
    EMBER_CHECK(source.dim() == x.dim(), RuntimeError, "[", op, "] source tensor shape must ",
                "match self tensor shape, excluding the specified dimension; got self shape ",
                x.sizes(), " and source shape ", source.sizes());
    src = as_1d(unaliased(source, x));
    if (src.sizes()[d] != index.numel()) {
      const std::string msg =
          str("[", op, "] number of indices (", index.numel(),
              ") should be equal to source.size(dim) (", src.sizes()[d], ") for dim ", d);
      if (kind == AlongKind::Add) throw RuntimeError(msg);
      throw IndexError(msg);
    }
    EMBER_CHECK(without(src.sizes(), d) == without(x1.sizes(), d), RuntimeError, "[", op,
                "] source tensor shape must match self tensor shape, excluding the specified ",
                "dimension; got self shape ", x.sizes(), " and source shape ", source.sizes());
  }
  const Tensor idx =
      checked_index(index, x1.sizes()[d], d, kind == AlongKind::Fill, kind != AlongKind::Add, op);
  if (x1.numel() == 0 || idx.numel() == 0) return;
  AlongParams p;
  p.index = idx.data<int64_t>();
  p.count = idx.numel();
  p.x_stride = x1.strides()[d] * x1.element_size();
  p.src_stride = src.strides()[d] * src.element_size();
  p.alpha = alpha.to_double();
  const bool alpha_fits = alpha.is_int || (alpha.d >= -9.2233720368547758e18 &&
                                           alpha.d < 9.2233720368547758e18);  // false for nan
  EMBER_CHECK(alpha_fits || is_floating(x.dtype()) || is_complex(x.dtype()), RuntimeError, "[", op,
              "] alpha ", alpha.d, " does not fit the integer tensor's int64 arithmetic");
  p.alpha_int = alpha.is_int ? alpha.i : (alpha_fits ? static_cast<int64_t>(alpha.d) : 0);
  const Loop1d loop = visit_dtype(x.dtype(), [kind](auto tag) -> Loop1d {
    using T = typename decltype(tag)::type;
    if (kind == AlongKind::Add) return &along_loop<T, AddOp<T>>;
    return &along_loop<T, CopyOp<T>>;
  });
  if (!index_along_rows(kind, x1, src, d, p.index, p.count, p.alpha, p.alpha_int)) {
    run_along(op, x1, {src}, d, without(x1.sizes(), d), loop, p);
  }
  x.bump_version();
}

}  // namespace

ScatterReduce scatter_reduce_kind(const std::string& name, bool legacy, const char* op) {
  if (legacy) {
    if (name == "add") return ScatterReduce::Sum;
    if (name == "multiply") return ScatterReduce::Prod;
    throw RuntimeError(
        str("[", op, "] reduce argument must be either add or multiply, got '", name, "'"));
  }
  if (name == "sum") return ScatterReduce::Sum;
  if (name == "prod") return ScatterReduce::Prod;
  if (name == "mean") return ScatterReduce::Mean;
  if (name == "amax") return ScatterReduce::Amax;
  if (name == "amin") return ScatterReduce::Amin;
  throw RuntimeError(str("[", op, "] reduce argument must be either sum, prod, mean, amax or ",
                         "amin, got '", name, "'"));
}

const Tensor& index_add_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source,
                         Scalar alpha) {
  index_along_(AlongKind::Add, x, dim, index, source, alpha, "index_add_");
  return x;
}

Tensor index_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source,
                 Scalar alpha, const Tensor& out) {
  const Tensor result = clone(x);
  index_along_(AlongKind::Add, result, dim, index, source, alpha, "index_add");
  return write_out(result, out, "index_add",
                   {.dtype = OutDtype::kExact, .inputs = {x, index, source}});
}

const Tensor& index_copy_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source) {
  index_along_(AlongKind::Copy, x, dim, index, source, Scalar::from_int(1), "index_copy_");
  return x;
}

Tensor index_copy(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& source,
                  const Tensor& out) {
  const Tensor result = clone(x);
  index_along_(AlongKind::Copy, result, dim, index, source, Scalar::from_int(1), "index_copy");
  return write_out(result, out, "index_copy",
                   {.dtype = OutDtype::kExact, .inputs = {x, index, source}});
}

const Tensor& index_fill_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& value) {
  index_along_(AlongKind::Fill, x, dim, index, value, Scalar::from_int(1), "index_fill_");
  return x;
}

Tensor index_fill(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& value) {
  const Tensor result = clone(x);
  index_along_(AlongKind::Fill, result, dim, index, value, Scalar::from_int(1), "index_fill");
  return result;
}

namespace {

template <typename T>
Loop1d scatter_loop_for(ScatterReduce reduce) {
  switch (reduce) {
    case ScatterReduce::Prod:
      return &scatter_loop<T, MulOp<T>>;
    case ScatterReduce::Amax:
      return &scatter_loop<T, ExtremeOp<T, true>>;
    case ScatterReduce::Amin:
      return &scatter_loop<T, ExtremeOp<T, false>>;
    default:
      return &scatter_loop<T, AddOp<T>>;
  }
}

// The value every written position starts from when include_self is false.
void fill_identity(const Tensor& t, ScatterReduce reduce) {
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    C v = C(0);
    if (reduce == ScatterReduce::Prod) v = C(1);
    if constexpr (!std::is_same_v<T, bool>) {
      if (reduce == ScatterReduce::Amax) {
        v = std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity()
                                                 : std::numeric_limits<C>::lowest();
      }
      if (reduce == ScatterReduce::Amin) {
        v = std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity()
                                                 : std::numeric_limits<C>::max();
      }
    } else {
      if (reduce == ScatterReduce::Amin) v = true;
    }
    std::fill_n(t.data<T>(), t.numel(), static_cast<T>(v));
  });
}

}  // namespace

const Tensor& scatter_reduce_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                              ScatterReduce reduce, bool include_self, bool src_is_value,
                              const char* op) {
  x.check_writable(op);
  check_index(index, true, op);
  EMBER_CHECK(src_is_value || src.dtype() == x.dtype(), RuntimeError, "[", op,
              "] expected self.dtype to be equal to src.dtype, got ", dtype_name(x.dtype()),
              " and ", dtype_name(src.dtype()));
  EMBER_CHECK(!(reduce == ScatterReduce::Mean && x.dtype() == ScalarType::Bool),
              NotImplementedError, "[", op, "] reduce='mean' is not implemented for bool");
  const Tensor x1 = as_1d(x);
  const Tensor i1 = as_1d(index);
  const int64_t d = wrap_dim(dim, x1.dim(), op);
  EMBER_CHECK(i1.dim() == x1.dim(), RuntimeError, "[", op, "] index tensor must have the same ",
              "number of dimensions as self tensor, got index of shape ", index.sizes(),
              " and self of shape ", x.sizes());
  Tensor s1;
  if (src_is_value) {
    s1 = expand(to_dtype(src, x.dtype()), i1.sizes());
  } else {
    s1 = as_1d(unaliased(src, x));
    EMBER_CHECK(s1.dim() == x1.dim(), RuntimeError, "[", op, "] index tensor must have the ",
                "same number of dimensions as src tensor, got index of shape ", index.sizes(),
                " and src of shape ", src.sizes());
  }
  for (int64_t e = 0; e < x1.dim(); ++e) {
    EMBER_CHECK(e == d || i1.sizes()[e] <= x1.sizes()[e], RuntimeError, "[", op,
                "] size does not match at dimension ", e, ": expected index ", index.sizes(),
                " to be no larger than self ", x.sizes(), " apart from dimension ", d);
    EMBER_CHECK(i1.sizes()[e] <= s1.sizes()[e], RuntimeError, "[", op,
                "] size does not match at dimension ", e, ": expected index ", index.sizes(),
                " to be no larger than src ", src.sizes());
  }
  assert_no_internal_overlap(x1, op);
  const Tensor idx = checked_index(i1, x1.sizes()[d], d, false, false, op);
  if (idx.numel() == 0) return x;
  // x and src seen in index's shape (index is a contiguous copy: its dim-d stride is known).
  const Tensor xv = x1.as_strided(idx.sizes(), x1.strides(), x1.offset());
  const Tensor sv = s1.as_strided(idx.sizes(), s1.strides(), s1.offset());
  AlongParams p;
  p.count = idx.sizes()[d];
  p.index_stride = idx.strides()[d] * 8;
  p.x_stride = x1.strides()[d] * x1.element_size();
  p.src_stride = sv.strides()[d] * sv.element_size();
  const Shape pos = without(idx.sizes(), d);
  // Positions never reached keep their value: the identity goes only where an index points.
  if (!include_self) {
    const Tensor identity = Tensor::empty({1}, x.dtype());
    fill_identity(identity, reduce);
    const Tensor values = expand(reshape(identity, {}), idx.sizes());
    AlongParams q = p;
    q.src_stride = 0;
    const Loop1d copy = visit_dtype(x.dtype(), [](auto tag) -> Loop1d {
      using T = typename decltype(tag)::type;
      return &scatter_loop<T, CopyOp<T>>;
    });
    run_along(op, xv, {values, idx}, d, pos, copy, q);
  }
  const Loop1d loop = visit_dtype(x.dtype(), [reduce](auto tag) -> Loop1d {
    using T = typename decltype(tag)::type;
    return scatter_loop_for<T>(reduce);
  });
  run_along(op, xv, {sv, idx}, d, pos, loop, p);
  if (reduce == ScatterReduce::Mean) {
    // Divide by how many values met in each element (self counting once when included).
    Tensor counts = full_int(x1.sizes(), include_self ? 1 : 0, ScalarType::Int64);
    const Tensor cv = counts.as_strided(idx.sizes(), counts.strides(), counts.offset());
    AlongParams c = p;
    c.x_stride = counts.strides()[d] * 8;
    c.src_stride = 0;
    const Tensor ones = expand(Tensor::scalar_int(1, ScalarType::Int64), idx.sizes());
    TensorIterator it(op, IterConfig::raw(ScalarType::Int64));
    it.add_output(positions(cv, d, pos));
    it.add_input(positions(ones, d, pos)).add_input(positions(idx, d, pos));
    it.build();
    it.for_each(&scatter_loop<int64_t, CountOp>, &c,
                std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(c.count, 1)));
    counts = where(compare(CompareOp::Eq, counts, Tensor::scalar_int(0, ScalarType::Int64, true)),
                   Tensor::scalar_int(1, ScalarType::Int64, true), counts);
    const Tensor divisor = to_dtype(counts, x.dtype());
    copy_(x1, div(x1, divisor, is_floating(x.dtype()) ? "" : "floor"));
  }
  x.bump_version();
  return x;
}

Tensor scatter_reduce(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                      ScatterReduce reduce, bool include_self, bool src_is_value, const char* op,
                      const Tensor& out) {
  const Tensor result = clone(x);
  scatter_reduce_(result, dim, index, src, reduce, include_self, src_is_value, op);
  return write_out(result, out, op, {.dtype = OutDtype::kExact, .inputs = {x, index, src}});
}

// ---- masked_scatter.

namespace {
void masked_scatter_impl(const Tensor& x, const Tensor& mask, const Tensor& source,
                         const char* op) {
  x.check_writable(op);
  EMBER_CHECK(mask.dtype() == ScalarType::Bool, RuntimeError, "[", op,
              "] only supports boolean masks, but got mask with dtype ", dtype_name(mask.dtype()));
  EMBER_CHECK(source.dtype() == x.dtype(), RuntimeError, "[", op, "] expected self and source ",
              "to have the same dtype, but got ", dtype_name(x.dtype()), " and ",
              dtype_name(source.dtype()));
  const Shape b = broadcast_shapes(x.sizes(), mask.sizes(), op);
  EMBER_CHECK(b == x.sizes(), RuntimeError, "[", op, "] mask of shape ", mask.sizes(),
              " cannot be broadcast to the shape of self ", x.sizes());
  assert_no_internal_overlap(x, op);
  const Tensor m = contiguous(expand(mask, x.sizes()));
  const bool* md = m.data<bool>();
  const int64_t n = m.numel();
  // Count per chunk, then each chunk copies from its prefix offset into the source.
  const int64_t chunks = parallel_chunks(0, n, kParallelGrain);
  std::vector<int64_t> starts(chunks + 1, 0);
  auto range = [&](int64_t c) { return std::pair{n * c / chunks, n * (c + 1) / chunks}; };
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      const auto [s, e] = range(c);
      starts[c + 1] = std::count(md + s, md + e, true);
    }
  });
  for (int64_t c = 0; c < chunks; ++c) starts[c + 1] += starts[c];
  EMBER_CHECK(starts[chunks] <= source.numel(), RuntimeError, "[", op, "] number of elements ",
              "of source (", source.numel(), ") < number of ones in mask (", starts[chunks], ")");
  if (starts[chunks] == 0) return;
  const Tensor src = contiguous(reshape(unaliased(source, x), {-1}));
  const Tensor target = x.is_contiguous() ? x : contiguous(x);
  const int64_t width = x.element_size();
  const char* sd = src.data_bytes();
  char* td = target.data_bytes();
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      const auto [s, e] = range(c);
      int64_t k = starts[c];
      for (int64_t i = s; i < e; ++i) {
        if (md[i]) std::memcpy(td + i * width, sd + (k++) * width, width);
      }
    }
  });
  if (!target.same_impl(x)) copy_(x, target);
  x.bump_version();
}
}  // namespace

const Tensor& masked_scatter_(const Tensor& x, const Tensor& mask, const Tensor& source) {
  masked_scatter_impl(x, mask, source, "masked_scatter_");
  return x;
}

Tensor masked_scatter(const Tensor& x, const Tensor& mask, const Tensor& source) {
  const Shape b = broadcast_shapes(x.sizes(), mask.sizes(), "masked_scatter");
  Tensor out = contiguous(expand(x, b));
  // expand() to x's own shape is a view of x: write into a copy, never into the input.
  if (out.storage() == x.storage()) out = clone(x);
  masked_scatter_impl(out, mask, source, "masked_scatter");
  return out;
}

}  // namespace ember
