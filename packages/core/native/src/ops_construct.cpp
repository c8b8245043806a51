// rot90, repeat_interleave, tril/triu_indices, unfold, as_strided, cartesian_prod, combinations,
// block_diag and cross: views where torch gives views, otherwise compositions of existing ops.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "ember/checked_math.h"
#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/ops/construct.h"

namespace ember {
namespace {

// A contiguous copy (torch's clone with MemoryFormat::Contiguous).
Tensor contiguous_copy(const Tensor& x) {
  Tensor r = Tensor::empty(x.sizes(), x.dtype());
  copy_(r, x);
  return r;
}

void check_index_dtype(ScalarType dtype, const char* op, const char* what) {
  EMBER_CHECK(dtype == ScalarType::Int32 || dtype == ScalarType::Int64, NotImplementedError, "[",
              op, "] ", what, " must be int32 or int64, got ", dtype_name(dtype));
}

// Fills a new 1-d int64 tensor of n entries from fn(i).
template <typename Fn>
Tensor int64_vector(int64_t n, Fn&& fn) {
  Tensor t = Tensor::empty({n}, ScalarType::Int64);
  int64_t* p = t.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) p[i] = fn(i);
  return t;
}

// Number of entries of rows [0, row) of the lower triangle with `offset`: sum of
// clamp(i + offset + 1, 0, col). Closed form in 128 bits, so huge sizes never loop.
__int128 tril_count(int64_t row, int64_t col, __int128 offset) {
  using I = __int128;
  const I r = row, c = col, o = offset;
  const I first = std::clamp<I>(-o, 0, r);            // rows before it are empty
  const I full = std::clamp<I>(c - o - 1, first, r);  // rows from it on are full
  const I linear = (full - first) * (o + 1) + (first + full - 1) * (full - first) / 2;
  return linear + (r - full) * c;
}

// Checks a (2, count) index result fits in int64 element counts; returns count.
int64_t checked_count(__int128 count, const char* op, int64_t row, int64_t col) {
  EMBER_CHECK(count <= (static_cast<__int128>(1) << 61), RuntimeError, "[", op,
              "] the result for row=", row, ", col=", col, " has too many elements");
  return static_cast<int64_t>(count);
}

Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, ScalarType dtype, bool lower) {
  const char* op = lower ? "tril_indices" : "triu_indices";
  EMBER_CHECK(row >= 0, RuntimeError, "[", op, "] row must be non-negative, got ", row);
  EMBER_CHECK(col >= 0, RuntimeError, "[", op, "] col must be non-negative, got ", col);
  check_index_dtype(dtype, op, "dtype");
  // The upper triangle from `offset` is the complement of the lower one below `offset - 1`.
  const __int128 count = lower ? tril_count(row, col, offset)
                               : static_cast<__int128>(row) * col -
                                     tril_count(row, col, static_cast<__int128>(offset) - 1);
  const int64_t n = checked_count(count, op, row, col);
  Tensor result = Tensor::empty({2, n}, ScalarType::Int64);
  int64_t* rows = result.data<int64_t>();
  int64_t* cols = rows + n;
  int64_t k = 0;
  // Only rows that hold entries are visited, so the loop is O(n) whatever row is.
  if (lower) {
    const int64_t first = static_cast<int64_t>(std::clamp<__int128>(-(__int128)offset, 0, row));
    for (int64_t i = first; i < row && k < n; ++i) {
      const int64_t end = static_cast<int64_t>(std::min<__int128>((__int128)i + offset + 1, col));
      for (int64_t j = 0; j < end; ++j, ++k) rows[k] = i, cols[k] = j;
    }
  } else {
    for (int64_t i = 0; i < row && k < n; ++i) {
      const int64_t begin =
          static_cast<int64_t>(std::clamp<__int128>((__int128)i + offset, 0, col));
      for (int64_t j = begin; j < col; ++j, ++k) rows[k] = i, cols[k] = j;
    }
  }
  return dtype == ScalarType::Int64 ? result : to_dtype(result, dtype);
}

void check_output_size(std::optional<int64_t> output_size, int64_t expected) {
  EMBER_CHECK(!output_size || *output_size == expected, RuntimeError,
              "[repeat_interleave] Invalid output_size, expected ", expected, " but got ",
              output_size.value_or(0));
}

// Binomial coefficient C(n, k), or -1 when it exceeds 2^62.
int64_t binomial(int64_t n, int64_t k) {
  if (k < 0 || k > n) return 0;
  k = std::min(k, n - k);
  __int128 c = 1;
  for (int64_t i = 1; i <= k; ++i) {
    c = c * (n - k + i) / i;  // exact: c * (n-k+i) is divisible by i at every step
    if (c > (static_cast<__int128>(1) << 62)) return -1;
  }
  return static_cast<int64_t>(c);
}

}  // namespace

Tensor rot90(const Tensor& x, int64_t k, const std::vector<int64_t>& dims) {
  EMBER_CHECK(dims.size() == 2, RuntimeError,
              "[rot90] expected total rotation dims == 2, but got dims = ", dims.size());
  EMBER_CHECK(x.dim() >= 2, RuntimeError,
              "[rot90] expected total dims >= 2, but got total dims = ", x.dim(), " (shape ",
              x.sizes(), ")");
  const int64_t d0 = wrap_dim(dims[0], x.dim(), "rot90");
  const int64_t d1 = wrap_dim(dims[1], x.dim(), "rot90");
  EMBER_CHECK(d0 != d1, RuntimeError, "[rot90] expected rotation dims to be different, but got ",
              "dim0 = ", dims[0], " and dim1 = ", dims[1]);
  // torch's layout: a flipped copy, transposed for odd turns.
  switch (((k % 4) + 4) % 4) {
    case 1:
      return transpose(flip(x, {d1}), d0, d1);
    case 2:
      return flip(x, {d0, d1});
    case 3:
      return transpose(flip(x, {d0}), d0, d1);
    default:
      return contiguous_copy(x);
  }
}

Tensor repeat_interleave(const Tensor& x, int64_t repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  EMBER_CHECK(repeats >= 0, RuntimeError, "[repeat_interleave] Repeats must be non-negative, got ",
              repeats);
  const Tensor input = dim ? x : reshape(x, {-1});
  const int64_t d = wrap_dim(dim.value_or(0), input.dim(), "repeat_interleave");
  // torch inserts the repeat dim after `dim`, which a 0-d tensor does not have.
  EMBER_CHECK(input.dim() > 0, IndexError, "[repeat_interleave] Dimension out of range ",
              "(expected to be in range of [-1, 0], but got ", d + 1, ")");
  int64_t total;
  EMBER_CHECK(!__builtin_mul_overflow(input.size(d), repeats, &total), RuntimeError,
              "[repeat_interleave] the result size ", input.size(d), " * ", repeats,
              " overflows int64");
  check_output_size(output_size, total);
  // Each element is broadcast along a new dim right after d; merging the two copies it.
  Shape expanded = input.sizes();
  expanded.insert(expanded.begin() + d + 1, repeats);
  Shape result_shape = input.sizes();
  result_shape[d] = total;
  checked_numel(result_shape, "repeat_interleave");
  Tensor result = Tensor::empty(result_shape, x.dtype());
  copy_(view(result, expanded), expand(unsqueeze(input, d + 1), expanded));
  return result;
}

Tensor repeat_interleave_indices(const Tensor& repeats, std::optional<int64_t> output_size) {
  const char* op = "repeat_interleave";
  EMBER_CHECK(repeats.dim() == 1, RuntimeError, "[", op,
              "] repeat_interleave only accept 1D vector as repeat, got shape ", repeats.sizes());
  check_index_dtype(repeats.dtype(), op, "repeats");
  const Tensor counts = to_dtype(contiguous(repeats), ScalarType::Int64);
  const int64_t* c = counts.data<int64_t>();
  int64_t total = 0;
  for (int64_t i = 0; i < counts.numel(); ++i) {
    EMBER_CHECK(c[i] >= 0, RuntimeError, "[", op, "] repeats can not be negative, got ", c[i],
                " at index ", i);
    EMBER_CHECK(!__builtin_add_overflow(total, c[i], &total), RuntimeError, "[", op,
                "] the sum of repeats overflows int64");
  }
  EMBER_CHECK(!output_size || *output_size == total, RuntimeError, "[", op,
              "] allocated size does not match required size (output_size ",
              output_size.value_or(0), ", sum of repeats ", total, ")");
  Tensor result = Tensor::empty({total}, ScalarType::Int64);
  int64_t* r = result.data<int64_t>();
  for (int64_t i = 0, k = 0; i < counts.numel(); ++i) {
    for (int64_t j = 0; j < c[i]; ++j) r[k++] = i;
  }
  return to_dtype(result, repeats.dtype());
}

Tensor repeat_interleave(const Tensor& x, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  const char* op = "repeat_interleave";
  EMBER_CHECK(repeats.dim() <= 1, RuntimeError, "[", op,
              "] repeats must be 0-dim or 1-dim tensor, got shape ", repeats.sizes());
  check_index_dtype(repeats.dtype(), op, "repeats");
  if (repeats.numel() == 1) {  // one count for every element
    return repeat_interleave(x, item_int(repeats, op), dim, output_size);
  }
  const Tensor input = dim ? x : reshape(x, {-1});
  const int64_t d = wrap_dim(dim.value_or(0), input.dim(), op);
  EMBER_CHECK(input.dim() > 0, IndexError, "[", op, "] Dimension out of range ",
              "(expected to be in range of [-1, 0], but got ", d + 1, ")");
  const int64_t len = input.size(d);
  EMBER_CHECK(repeats.numel() == len, RuntimeError, "[", op,
              "] repeats must have the same size as input along dim, but got repeats.size(0) = ",
              repeats.numel(), " and input.size(", d, ") = ", len);
  const Tensor index = repeat_interleave_indices(to_dtype(repeats, ScalarType::Int64), output_size);
  return index_select(input, d, index);
}

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, ScalarType dtype) {
  return triangle_indices(row, col, offset, dtype, true);
}

Tensor triu_indices(int64_t row, int64_t col, int64_t offset, ScalarType dtype) {
  return triangle_indices(row, col, offset, dtype, false);
}

Tensor unfold(const Tensor& x, int64_t dim, int64_t size, int64_t step) {
  const int64_t d = wrap_dim(dim, x.dim(), "unfold");
  const int64_t len = x.dim() == 0 ? 1 : x.size(d);
  EMBER_CHECK(size >= 0, RuntimeError, "[unfold] size is ", size, " but must be >= 0");
  EMBER_CHECK(size <= len, RuntimeError, "[unfold] maximum size for tensor at dimension ", d,
              " is ", len, " but size is ", size);
  EMBER_CHECK(step > 0, RuntimeError, "[unfold] step is ", step, " but must be > 0");
  if (x.dim() == 0) return x.as_strided({size}, {1}, x.offset());
  Shape sizes = x.sizes(), strides = x.strides();
  sizes[d] = (len - size) / step + 1;
  // One window needs no step stride; this also keeps a huge step from overflowing.
  if (sizes[d] > 1) strides[d] *= step;
  sizes.push_back(size);
  strides.push_back(x.stride(d));
  return x.as_strided(sizes, strides, x.offset());
}

Tensor as_strided_checked(const Tensor& x, const Shape& size, const Shape& stride,
                          std::optional<int64_t> storage_offset, const char* op) {
  EMBER_CHECK(size.size() == stride.size(), RuntimeError, "[", op,
              "] mismatch in length of strides and shape: size ", size, ", stride ", stride);
  const int64_t offset = storage_offset.value_or(x.offset());
  EMBER_CHECK(offset >= 0, RuntimeError, "[", op, "] invalid storage offset ", offset);
  int64_t numel = 1;
  for (size_t i = 0; i < size.size(); ++i) {
    EMBER_CHECK(size[i] >= 0, RuntimeError, "[", op, "] sizes must be non-negative, got ", size);
    numel = checked_mul(numel, size[i], op, "the number of elements");
    EMBER_CHECK(stride[i] >= 0, RuntimeError, "[", op,
                "] Negative strides are not supported at the moment, got strides: ", stride);
  }
  // Elements needed: offset + the furthest element reachable + 1 (none when numel is 0).
  int64_t needed = 0;
  const bool empty = std::any_of(size.begin(), size.end(), [](int64_t s) { return s == 0; });
  if (!empty) {
    bool overflow = __builtin_add_overflow(offset, 1, &needed);
    for (size_t i = 0; i < size.size() && !overflow; ++i) {
      int64_t reach;
      overflow = __builtin_mul_overflow(size[i] - 1, stride[i], &reach) ||
                 __builtin_add_overflow(needed, reach, &needed);
    }
    EMBER_CHECK(!overflow, RuntimeError, "[", op, "] Storage size calculation overflowed with ",
                "sizes=", size, " and strides=", stride);
  }
  const int64_t available = static_cast<int64_t>(x.storage()->nbytes()) / x.element_size();
  EMBER_CHECK(needed <= available, RuntimeError, "[", op, "] sizes ", size, ", strides ", stride,
              ", storage offset ", offset, " need ", needed, " elements, out of bounds for a ",
              "storage of ", available, " elements");
  return x.as_strided(size, stride, offset);
}

void as_strided_(const Tensor& x, const Shape& size, const Shape& stride,
                 std::optional<int64_t> storage_offset) {
  const Tensor v = as_strided_checked(x, size, stride, storage_offset, "as_strided_");
  x.impl().sizes = v.sizes();
  x.impl().strides = v.strides();
  x.impl().offset = v.offset();
}

Tensor cartesian_prod(const std::vector<Tensor>& tensors) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK(tensors[i].dim() == 1, RuntimeError, "[cartesian_prod] Expect a 1D vector, but ",
                "got shape ", tensors[i].sizes(), " at position ", i);
  }
  EMBER_CHECK(!tensors.empty(), RuntimeError,
              "[cartesian_prod] expects a non-empty list of tensors");
  if (tensors.size() == 1) return tensors[0];
  Shape shape;
  for (const Tensor& t : tensors) shape.push_back(t.numel());
  checked_numel(shape, "cartesian_prod");
  std::vector<Tensor> columns;
  for (const Tensor& g : meshgrid(tensors, false)) columns.push_back(reshape(g, {-1}));
  return stack(columns, 1);
}

Tensor combinations(const Tensor& x, int64_t r, bool with_replacement) {
  const char* op = "combinations";
  EMBER_CHECK(x.dim() == 1, RuntimeError, "[", op, "] Expect a 1D vector, but got shape ",
              x.sizes());
  EMBER_CHECK(r >= 0, RuntimeError, "[", op, "] Expect a non-negative number, but got ", r);
  if (r == 0) return Tensor::empty({0}, x.dtype());
  const int64_t n = x.size(0);
  // Combinations with replacement of n items are plain combinations of n + r - 1 items.
  int64_t pool = n;
  EMBER_CHECK(!with_replacement || n == 0 || !__builtin_add_overflow(n, r - 1, &pool), RuntimeError,
              "[", op, "] too many combinations of ", n, " elements taken ", r, " at a time");
  const int64_t count = n == 0 ? 0 : binomial(pool, r);
  int64_t total = -1;
  EMBER_CHECK(count >= 0 && !__builtin_mul_overflow(count, r, &total) && total <= (1LL << 40),
              RuntimeError, "[", op, "] too many combinations of ", n, " elements taken ", r,
              " at a time");
  // Positions in lexicographic order: advance the rightmost position that can still grow.
  std::vector<int64_t> pos(static_cast<size_t>(count == 0 ? 0 : r));
  for (int64_t i = 0; i < static_cast<int64_t>(pos.size()); ++i) pos[i] = with_replacement ? 0 : i;
  Tensor index = Tensor::empty({total}, ScalarType::Int64);
  int64_t* out = index.data<int64_t>();
  for (int64_t c = 0; c < count; ++c) {
    std::copy(pos.begin(), pos.end(), out + c * r);
    int64_t i = r - 1;
    while (i >= 0 && pos[i] == (with_replacement ? n - 1 : n - r + i)) --i;
    if (i < 0) break;
    ++pos[i];
    for (int64_t j = i + 1; j < r; ++j) pos[j] = with_replacement ? pos[i] : pos[j - 1] + 1;
  }
  return reshape(index_select(x, 0, index), {count, r});
}

Tensor block_diag(const std::vector<Tensor>& tensors) {
  int64_t rows = 0, cols = 0;
  std::vector<Tensor> blocks;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK(t.dim() <= 2, RuntimeError, "[block_diag] Input tensors must have 2 or fewer ",
                "dimensions. Input ", i, " has ", t.dim(), " dimensions (shape ", t.sizes(), ")");
    blocks.push_back(t.dim() == 2 ? t : reshape(t, {1, t.numel()}));
    EMBER_CHECK(!__builtin_add_overflow(rows, blocks.back().size(0), &rows) &&
                    !__builtin_add_overflow(cols, blocks.back().size(1), &cols),
                RuntimeError, "[block_diag] the result size overflows int64");
  }
  const ScalarType dtype = tensors.empty() ? default_dtype() : result_type(tensors);
  if (tensors.empty()) rows = 1;  // torch returns a (1, 0) tensor
  checked_numel({rows, cols}, "block_diag");
  Tensor result = zeros({rows, cols}, dtype);
  int64_t r = 0, c = 0;
  for (const Tensor& b : blocks) {
    if (b.numel() > 0) copy_(narrow(narrow(result, 0, r, b.size(0)), 1, c, b.size(1)), b);
    r += b.size(0);
    c += b.size(1);
  }
  return result;
}

Tensor linalg_cross(const Tensor& a, const Tensor& b, int64_t dim, const Tensor& out) {
  const char* op = "cross";
  EMBER_CHECK(a.dim() == b.dim(), RuntimeError, "[", op, "] inputs must have the same number of ",
              "dimensions, got shapes ", a.sizes(), " and ", b.sizes());
  EMBER_CHECK(a.dtype() == b.dtype(), RuntimeError, "[", op, "] expected input and other to ",
              "have the same dtype, got ", dtype_name(a.dtype()), " and ", dtype_name(b.dtype()));
  EMBER_CHECK(a.dtype() != ScalarType::Bool, NotImplementedError, "[", op,
              "] not implemented for dtype bool");
  const int64_t d = wrap_dim(dim, a.dim(), op);
  const int64_t la = a.dim() == 0 ? 1 : a.size(d), lb = b.dim() == 0 ? 1 : b.size(d);
  EMBER_CHECK(la == 3 && lb == 3, RuntimeError, "[", op, "] inputs dimension ", dim,
              " must have length 3. Got ", la, " and ", lb);
  const Shape shape = broadcast_shapes(a.sizes(), b.sizes(), op);
  Tensor result = Tensor::empty(shape, a.dtype());
  // result_i = a_{i+1} b_{i+2} - a_{i+2} b_{i+1}, indices mod 3.
  for (int64_t i = 0; i < 3; ++i) {
    const int64_t j = (i + 1) % 3, k = (i + 2) % 3;
    const Tensor lhs = binary(BinaryOp::Mul, narrow(a, d, j, 1), narrow(b, d, k, 1));
    const Tensor rhs = binary(BinaryOp::Mul, narrow(a, d, k, 1), narrow(b, d, j, 1));
    binary(BinaryOp::Sub, lhs, rhs, narrow(result, d, i, 1));
  }
  return write_out(result, out, op, {.dtype = OutDtype::kExact, .inputs = {a, b}});
}

Tensor cross(const Tensor& a, const Tensor& b, std::optional<int64_t> dim, const Tensor& out) {
  if (!dim) {  // torch: the first dim of a's own shape with size 3
    for (int64_t i = 0; i < a.dim() && !dim; ++i) {
      if (a.size(i) == 3) dim = i;
    }
    EMBER_CHECK(dim.has_value(), RuntimeError, "[cross] no dimension of size 3 in input (shape ",
                a.sizes(), ")");
  }
  return linalg_cross(a, b, *dim, out);
}

}  // namespace ember
