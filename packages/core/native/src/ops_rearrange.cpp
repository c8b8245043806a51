// Flips, rolls, repeats and triangular masks. They are built from views (negative or zero
// strides) and one copy, so each costs about one pass over the output.
#include <algorithm>
#include <cstring>
#include <string>

#include "ember/checked_math.h"
#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

// Wrapped, checked dims with torch's "appears multiple times" error.
std::vector<int64_t> unique_dims(const std::vector<int64_t>& dims, int64_t ndim, const char* op) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    const int64_t w = wrap_dim(d, ndim, op);
    EMBER_CHECK(std::find(out.begin(), out.end(), w) == out.end(), RuntimeError, "[", op, "] dim ",
                w, " appears multiple times in the list of dims");
    out.push_back(w);
  }
  return out;
}

// Zeroes the part of each matrix (last two dims) of contiguous `t` outside the triangle.
void zero_outside_triangle(const Tensor& t, int64_t diagonal, bool lower) {
  const int64_t rows = t.size(-2), cols = t.size(-1);
  if (t.numel() == 0) return;
  const int64_t esize = t.element_size();
  const int64_t total_rows = t.numel() / cols;
  // Past [-rows - 1, cols + 1] every row is all kept or all zeroed: clamping keeps i + diagonal + 1
  // in range (diagonal=2**63-1 overflowed; UBSan found it through the registry fuzzer).
  diagonal = std::clamp<int64_t>(diagonal, -rows - 1, cols + 1);
  char* base = t.data_bytes();
  // All-zero bytes are zero in every dtype (IEEE +0, false, integer 0).
  parallel_for(0, total_rows, 1024, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t i = r % rows;
      char* row = base + r * cols * esize;
      if (lower) {
        const int64_t from = std::clamp<int64_t>(i + diagonal + 1, 0, cols);
        std::memset(row + from * esize, 0, static_cast<size_t>((cols - from) * esize));
      } else {
        const int64_t to = std::clamp<int64_t>(i + diagonal, 0, cols);
        std::memset(row, 0, static_cast<size_t>(to * esize));
      }
    }
  });
}

Tensor triangle(const Tensor& x, int64_t diagonal, bool lower, const char* op) {
  EMBER_CHECK(x.dim() >= 2, RuntimeError, "[", op,
              "] input tensor must have at least 2 dimensions, got shape ", x.sizes());
  Tensor out = Tensor::empty(x.sizes(), x.dtype());
  copy_(out, x);
  zero_outside_triangle(out, diagonal, lower);
  return out;
}

}  // namespace

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims) {
  const std::vector<int64_t> ds = unique_dims(dims, x.dim(), "flip");
  Shape strides = x.strides();
  int64_t offset = x.offset();
  if (x.numel() > 0) {
    for (int64_t d : ds) {
      if (x.dim() == 0) break;
      offset += (x.size(d) - 1) * strides[d];
      strides[d] = -strides[d];
    }
  }
  // A view with negative strides, then one copy; a dense input keeps its layout (as torch).
  Tensor view = x.as_strided(x.sizes(), strides, offset);
  const bool keep =
      x.is_non_overlapping_and_dense() &&
      std::all_of(x.strides().begin(), x.strides().end(), [](int64_t st) { return st >= 0; });
  Tensor out = keep ? Tensor::empty_strided(x.sizes(), x.strides(), x.dtype())
                    : Tensor::empty(x.sizes(), x.dtype());
  copy_(out, view);
  return out;
}

Tensor fliplr(const Tensor& x) {
  EMBER_CHECK(x.dim() >= 2, RuntimeError, "[fliplr] Input must be >= 2-d, got shape ", x.sizes());
  return flip(x, {1});
}

Tensor flipud(const Tensor& x) {
  EMBER_CHECK(x.dim() >= 1, RuntimeError, "[flipud] Input must be >= 1-d, got shape ", x.sizes());
  return flip(x, {0});
}

Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims) {
  EMBER_CHECK(!shifts.empty(), RuntimeError, "[roll] `shifts` required");
  if (dims.empty()) {
    EMBER_CHECK(shifts.size() == 1, RuntimeError, "[roll] shifts and dimensions must align. ",
                "shifts: ", shifts.size(), ", dims: 0");
    return view(roll(reshape(x, {-1}), shifts, {0}), x.sizes());
  }
  EMBER_CHECK(shifts.size() == dims.size(), RuntimeError,
              "[roll] shifts and dimensions must align. shifts: ", shifts.size(),
              ", dims: ", dims.size());
  Tensor cur = x;
  bool copied = false;
  for (size_t k = 0; k < dims.size(); ++k) {
    EMBER_CHECK(x.dim() > 0, IndexError, "[roll] Dimension specified as ", dims[k],
                " but tensor has no dimensions");
    const int64_t d = wrap_dim(dims[k], x.dim(), "roll");
    const int64_t n = x.size(d);
    if (n == 0) continue;
    const int64_t s = ((shifts[k] % n) + n) % n;
    if (s == 0) continue;
    // The last s entries move to the front.
    cur = cat({narrow(cur, d, n - s, s), narrow(cur, d, 0, n - s)}, d);
    copied = true;
  }
  if (copied) return cur;
  Tensor out = Tensor::empty(x.sizes(), x.dtype());  // a copy even when nothing moves (torch)
  copy_(out, x);
  return out;
}

Tensor repeat(const Tensor& x, const std::vector<int64_t>& repeats) {
  const int64_t nrep = static_cast<int64_t>(repeats.size());
  EMBER_CHECK(nrep >= x.dim(), RuntimeError,
              "[repeat] Number of dimensions of repeat dims can not be smaller than number of ",
              "dimensions of tensor: repeats ", Shape(repeats), " for shape ", x.sizes());
  for (int64_t r : repeats) {
    EMBER_CHECK(r >= 0, RuntimeError, "[repeat] Trying to create tensor with negative dimension ",
                r, ": repeats ", Shape(repeats));
  }
  // Input padded with leading 1s, then viewed as (r0, s0, r1, s1, ...) with zero strides on
  // the repeat dims; one copy materializes it and a view merges each (ri, si) pair.
  const int64_t lead = nrep - x.dim();
  Shape sizes, strides, out_shape;
  for (int64_t i = 0; i < nrep; ++i) {
    const int64_t s = i < lead ? 1 : x.size(i - lead);
    const int64_t st = i < lead ? 0 : x.stride(i - lead);
    sizes.insert(sizes.end(), {repeats[i], s});
    strides.insert(strides.end(), {0, st});
    out_shape.push_back(checked_mul(repeats[i], s, "repeat", "the size of the result"));
  }
  checked_numel(out_shape, "repeat");
  Tensor expanded = x.as_strided(sizes, strides, x.offset());
  Tensor out = Tensor::empty(sizes, x.dtype());
  copy_(out, expanded);
  return view(out, out_shape);
}

Tensor tile(const Tensor& x, const std::vector<int64_t>& dims) {
  std::vector<int64_t> reps = dims;
  // Fewer reps than dims: torch pads the reps with leading 1s.
  if (static_cast<int64_t>(reps.size()) < x.dim()) {
    reps.insert(reps.begin(), static_cast<size_t>(x.dim()) - reps.size(), 1);
  }
  return repeat(x, reps);
}

Tensor tril(const Tensor& x, int64_t diagonal) { return triangle(x, diagonal, true, "tril"); }
Tensor triu(const Tensor& x, int64_t diagonal) { return triangle(x, diagonal, false, "triu"); }

const Tensor& tril_(const Tensor& x, int64_t diagonal) {
  x.check_writable("tril_");
  copy_(x, triangle(x, diagonal, true, "tril_"));
  return x;
}

const Tensor& triu_(const Tensor& x, int64_t diagonal) {
  x.check_writable("triu_");
  copy_(x, triangle(x, diagonal, false, "triu_"));
  return x;
}

Tensor diag_embed(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t ndim = x.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, ndim, "diag_embed");
  const int64_t d2 = wrap_dim(dim2, ndim, "diag_embed");
  EMBER_CHECK(d1 != d2, RuntimeError, "[diag_embed] diagonal dimensions cannot be identical ", dim1,
              ", ", dim2);
  const int64_t n = checked_add(x.size(-1), checked_abs(offset, "diag_embed", "the offset"),
                                "diag_embed", "the size of the result");
  Shape sizes(x.sizes().begin(), x.sizes().end() - 1);
  sizes.insert(sizes.begin() + std::min(d1, d2), n);
  sizes.insert(sizes.begin() + std::max(d1, d2), n);
  checked_numel(sizes, "diag_embed");
  Tensor out = zeros(sizes, x.dtype());
  // The diagonal view has x's batch dims first and the diagonal last, as x itself.
  copy_(diagonal(out, offset, d1, d2), x);
  return out;
}

Tensor diag(const Tensor& x, int64_t diagonal_) {
  EMBER_CHECK(x.dim() == 1 || x.dim() == 2, RuntimeError, "[diag] Supports 1D or 2D tensors. Got ",
              x.dim(), "D (shape ", x.sizes(), ")");
  if (x.dim() == 1) return diag_embed(x, diagonal_, 0, 1);
  const Tensor d = diagonal(x, diagonal_, 0, 1);
  Tensor out = Tensor::empty(d.sizes(), x.dtype());
  copy_(out, d);
  return out;
}

Tensor diagflat(const Tensor& x, int64_t offset) {
  return diag_embed(reshape(x, {-1}), offset, 0, 1);
}

Tensor trace(const Tensor& x) {
  EMBER_CHECK(x.dim() == 2, RuntimeError, "[trace] expected a matrix, but got tensor with dim ",
              x.dim(), " (shape ", x.sizes(), ")");
  EMBER_CHECK(x.dtype() != ScalarType::Bool, NotImplementedError,
              "[trace] \"trace\" not implemented for 'Bool'");
  return sum(diagonal(x, 0, 0, 1), {}, false);
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  EMBER_CHECK(ndim >= x.dim(), RuntimeError, "[broadcast_to] the number of sizes provided (", ndim,
              ") must be greater or equal to the number of dimensions in the tensor (", x.dim(),
              "); sizes ", shape, ", tensor shape ", x.sizes());
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = x.dim() - ndim + i;
    const int64_t size = d >= 0 ? x.sizes()[d] : 1;
    const int64_t target = shape[i];
    EMBER_CHECK(target != -1 || d >= 0, RuntimeError, "[broadcast_to] the expanded size of the ",
                "tensor (-1) isn't allowed in a leading, non-existing dimension ", i);
    EMBER_CHECK(target >= -1, RuntimeError, "[broadcast_to] invalid size ", target,
                " at dimension ", i, " of sizes ", shape);
    EMBER_CHECK(target == -1 || size == target || size == 1, RuntimeError,
                "[broadcast_to] the expanded size of the tensor (", target,
                ") must match the existing size (", size, ") at non-singleton dimension ", i,
                ".  Target sizes: ", shape, ".  Tensor sizes: ", x.sizes());
  }
  return expand(x, shape);
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  Shape out;
  for (const Shape& s : shapes) {
    for (int64_t v : s) {
      EMBER_CHECK(v >= 0, ValueError, "[broadcast_shapes] Attempting to broadcast a dimension ",
                  "with negative length! Got shape ", s);
    }
    out = broadcast_shapes(out, s, "broadcast_shapes");
  }
  return out;
}

std::vector<Tensor> broadcast_tensors(const std::vector<Tensor>& tensors) {
  Shape shape;
  for (const Tensor& t : tensors) shape = broadcast_shapes(shape, t.sizes(), "broadcast_tensors");
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(expand(t, shape));
  return out;
}

Tensor atleast_1d(const Tensor& x) { return x.dim() >= 1 ? alias(x) : reshape(x, {1}); }

Tensor atleast_2d(const Tensor& x) {
  if (x.dim() >= 2) return alias(x);
  return x.dim() == 0 ? reshape(x, {1, 1}) : unsqueeze(x, 0);
}

Tensor atleast_3d(const Tensor& x) {
  if (x.dim() >= 3) return alias(x);
  if (x.dim() == 0) return reshape(x, {1, 1, 1});
  if (x.dim() == 1) return unsqueeze(unsqueeze(x, 0), 2);
  return unsqueeze(x, 2);
}

namespace {

// Runs a composite's inner op, re-labelling its "[inner]" error prefix as "[op]".
template <typename F>
auto relabel(const char* op, const char* inner, F fn) -> decltype(fn()) {
  const std::string from = std::string("[") + inner + "]";
  auto msg = [&](const std::exception& e) {
    std::string m = e.what();
    if (m.rfind(from, 0) == 0) m = std::string("[") + op + "]" + m.substr(from.size());
    return m;
  };
  try {
    return fn();
  } catch (const IndexError& e) {
    throw IndexError(msg(e));
  } catch (const ValueError& e) {
    throw ValueError(msg(e));
  } catch (const TypeError& e) {
    throw TypeError(msg(e));
  } catch (const RuntimeError& e) {
    throw RuntimeError(msg(e));
  }
}

Tensor stack_along(const std::vector<Tensor>& tensors, Tensor (*prep)(const Tensor&), int64_t dim,
                   const Tensor& out, const char* op) {
  EMBER_CHECK(!tensors.empty(), RuntimeError, "[", op, "] ", op, " expects a non-empty TensorList");
  std::vector<Tensor> parts;
  for (const Tensor& t : tensors) parts.push_back(prep(t));
  return relabel(op, "cat", [&] { return cat(parts, dim, out); });
}

Tensor as_column(const Tensor& t) { return t.dim() <= 1 ? reshape(t, {t.numel(), 1}) : t; }

std::vector<Tensor> numpy_split(const Tensor& x, std::optional<int64_t> sections,
                                const std::vector<int64_t>& indices, int64_t min_dims, int64_t dim,
                                const char* op) {
  EMBER_CHECK(x.dim() >= min_dims, RuntimeError, "[", op, "] torch.", op,
              " requires a tensor with at least ", min_dims, " dimension, but got a tensor with ",
              x.dim(), " dimensions!");
  if (!sections) return tensor_split_indices(x, indices, dim);
  EMBER_CHECK(*sections != 0 && x.size(dim) % *sections == 0, RuntimeError, "[", op, "] torch.", op,
              " attempted to split along dimension ", dim, ", but the size of the dimension ",
              x.size(dim), " is not divisible by the split_size ", *sections, "!");
  return tensor_split(x, *sections, dim);
}

}  // namespace

Tensor hstack(const std::vector<Tensor>& tensors, const Tensor& out) {
  const int64_t dim = !tensors.empty() && tensors[0].dim() <= 1 ? 0 : 1;
  return stack_along(tensors, atleast_1d, dim, out, "hstack");
}
Tensor vstack(const std::vector<Tensor>& tensors, const Tensor& out) {
  return stack_along(tensors, atleast_2d, 0, out, "vstack");
}
Tensor dstack(const std::vector<Tensor>& tensors, const Tensor& out) {
  return stack_along(tensors, atleast_3d, 2, out, "dstack");
}
Tensor column_stack(const std::vector<Tensor>& tensors, const Tensor& out) {
  return stack_along(tensors, as_column, 1, out, "column_stack");
}

std::vector<Tensor> tensor_split(const Tensor& x, int64_t sections, int64_t dim) {
  EMBER_CHECK(x.dim() > 0, RuntimeError, "[tensor_split] tensor_split expected at least a ",
              "1-dimensional tensor, but got a tensor with 0 dims");
  EMBER_CHECK(sections > 0, RuntimeError,
              "[tensor_split] number of sections must be larger than 0, got ", sections);
  const int64_t d = wrap_dim(dim, x.dim(), "tensor_split");
  const int64_t n = x.size(d);
  // Sections past the dim's size are empty tensors; a list of 2**62 of them cannot exist.
  constexpr int64_t kMaxEmptySections = int64_t{1} << 20;
  EMBER_CHECK(sections <= std::max(n, kMaxEmptySections), RuntimeError, "[tensor_split] ", sections,
              " sections of a dim of size ", n, " would be more tensors than fit in ",
              "memory (at most max(size, 2**20) sections)");
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = n / sections + (i < n % sections ? 1 : 0);
    out.push_back(narrow(x, d, start, len));
    start += len;
  }
  return out;
}

std::vector<Tensor> tensor_split_indices(const Tensor& x, const std::vector<int64_t>& indices,
                                         int64_t dim) {
  EMBER_CHECK(x.dim() > 0, RuntimeError, "[tensor_split] tensor_split expected at least a ",
              "1-dimensional tensor, but got a tensor with 0 dims");
  const int64_t d = wrap_dim(dim, x.dim(), "tensor_split");
  std::vector<Tensor> out;
  std::optional<int64_t> start = 0;
  for (int64_t idx : indices) {
    out.push_back(slice(x, d, start, idx, 1));
    start = idx;
  }
  out.push_back(slice(x, d, start, std::nullopt, 1));
  return out;
}

std::vector<Tensor> hsplit(const Tensor& x, std::optional<int64_t> sections,
                           const std::vector<int64_t>& indices) {
  return numpy_split(x, sections, indices, 1, x.dim() == 1 ? 0 : 1, "hsplit");
}
std::vector<Tensor> vsplit(const Tensor& x, std::optional<int64_t> sections,
                           const std::vector<int64_t>& indices) {
  return numpy_split(x, sections, indices, 2, 0, "vsplit");
}
std::vector<Tensor> dsplit(const Tensor& x, std::optional<int64_t> sections,
                           const std::vector<int64_t>& indices) {
  return numpy_split(x, sections, indices, 3, 2, "dsplit");
}

std::vector<Tensor> meshgrid(const std::vector<Tensor>& tensors, bool xy) {
  EMBER_CHECK(!tensors.empty(), RuntimeError, "[meshgrid] meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK(tensors[i].dim() <= 1, RuntimeError, "[meshgrid] Expected 0D or 1D tensor in ",
                "the tensor list but got shape ", tensors[i].sizes(), " at position ", i);
    EMBER_CHECK(tensors[i].dtype() == tensors[0].dtype(), RuntimeError,
                "[meshgrid] meshgrid expects all tensors to have the same dtype, got ",
                dtype_name(tensors[0].dtype()), " and ", dtype_name(tensors[i].dtype()));
  }
  const int64_t n = static_cast<int64_t>(tensors.size());
  Shape shape;
  for (const Tensor& t : tensors) shape.push_back(t.numel());
  if (xy && n >= 2) std::swap(shape[0], shape[1]);
  std::vector<Tensor> out;
  for (int64_t i = 0; i < n; ++i) {
    // Input i varies along output dim i (dims 0 and 1 trade places for "xy").
    const int64_t d = xy && i < 2 && n >= 2 ? 1 - i : i;
    Shape sizes(n, 1), strides(n, 0);
    sizes[d] = shape[d];
    strides[d] = tensors[i].dim() == 1 ? tensors[i].stride(0) : 0;
    const Tensor& t = tensors[i];
    out.push_back(expand(t.as_strided(sizes, strides, t.offset()), shape));
  }
  return out;
}

Tensor kron(const Tensor& a, const Tensor& b) {
  const int64_t nd = std::max(a.dim(), b.dim());
  Shape a_sizes, b_sizes, out_shape;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t sa = i < nd - a.dim() ? 1 : a.sizes()[i - (nd - a.dim())];
    const int64_t sb = i < nd - b.dim() ? 1 : b.sizes()[i - (nd - b.dim())];
    a_sizes.insert(a_sizes.end(), {sa, 1});
    b_sizes.insert(b_sizes.end(), {1, sb});
    out_shape.push_back(checked_mul(sa, sb, "kron", "the size of the result"));
  }
  checked_numel(out_shape, "kron");
  // One broadcast multiply over interleaved dims (a_i, b_i), then the pairs merge (a view).
  return reshape(binary(BinaryOp::Mul, reshape(a, a_sizes), reshape(b, b_sizes)), out_shape);
}

}  // namespace ember
