// Views (new geometry over the same storage), the shape ops built on them (split, chunk,
// basic indexing) and the joins that copy (cat, stack).
#include <algorithm>
#include <cstring>
#include <numeric>

#include "ember/errors.h"
#include "ember/ops.h"

namespace ember {

namespace {

// Sizes and strides of a view being built; `make` gives the view sharing x's storage.
struct Geometry {
  Shape sizes;
  Shape strides;
  int64_t offset;
  explicit Geometry(const Tensor& x) : sizes(x.sizes()), strides(x.strides()), offset(x.offset()) {}
  Tensor make(const Tensor& x) const { return x.as_strided(sizes, strides, offset); }
};

// Writes a view's geometry into x's own TensorImpl (the in-place view ops).
void assign_geometry(const Tensor& x, const Tensor& view) {
  x.impl().sizes = view.sizes();
  x.impl().strides = view.strides();
}

std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t ndim, const char* op) {
  std::vector<int64_t> out;
  out.reserve(dims.size());
  for (int64_t d : dims) out.push_back(wrap_dim(d, ndim, op));
  return out;
}

bool has_duplicates(std::vector<int64_t> dims) {
  std::sort(dims.begin(), dims.end());
  return std::adjacent_find(dims.begin(), dims.end()) != dims.end();
}

}  // namespace

Shape infer_size(const Shape& shape, int64_t numel, const char* op) {
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      EMBER_CHECK(!inferred, RuntimeError, "[", op, "] only one dimension can be inferred, got ",
                  shape);
      inferred = i;
      continue;
    }
    EMBER_CHECK(shape[i] >= 0, RuntimeError, "[", op, "] invalid shape dimension ", shape[i],
                " at index ", i, " of shape ", shape);
    EMBER_CHECK(!__builtin_mul_overflow(known, shape[i], &known), RuntimeError, "[", op, "] shape ",
                shape, " has too many elements");
  }
  Shape out = shape;
  if (inferred) {
    EMBER_CHECK(known != 0 || numel != 0, RuntimeError, "[", op, "] cannot reshape tensor of ",
                "0 elements into shape ", shape,
                " because the unspecified dimension size -1 can be any value and is ambiguous");
    EMBER_CHECK(known != 0 && numel % known == 0, RuntimeError, "[", op, "] shape ", shape,
                " is invalid for input of size ", numel);
    out[*inferred] = numel / known;
  } else {
    EMBER_CHECK(known == numel, RuntimeError, "[", op, "] shape ", shape,
                " is invalid for input of size ", numel);
  }
  return out;
}

std::optional<Shape> view_strides(const Shape& sizes, const Shape& strides, const Shape& shape) {
  // torch's computeStride: walk both shapes from the right, matching "chunks" of old dims that
  // are contiguous with each other against runs of new dims with the same number of elements.
  if (sizes.empty()) return Shape(shape.size(), 1);
  const int64_t numel =
      std::accumulate(sizes.begin(), sizes.end(), int64_t{1}, std::multiplies<int64_t>());
  if (numel == 0 && sizes == shape) return strides;
  const int64_t new_ndim = static_cast<int64_t>(shape.size());
  Shape out(shape.size());
  if (numel == 0) {
    for (int64_t d = new_ndim - 1; d >= 0; --d) {
      out[d] = d == new_ndim - 1 ? 1 : std::max<int64_t>(shape[d + 1], 1) * out[d + 1];
    }
    return out;
  }
  int64_t view_d = new_ndim - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    if (d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

Tensor alias(const Tensor& x) { return x.as_strided(x.sizes(), x.strides(), x.offset()); }

Tensor view(const Tensor& x, const Shape& shape) {
  const Shape sizes = infer_size(shape, x.numel(), "view");
  auto strides = view_strides(x.sizes(), x.strides(), sizes);
  EMBER_CHECK(strides, RuntimeError, "[view] view size is not compatible with input tensor's ",
              "size and stride (at least one dimension spans across two contiguous subspaces): ",
              "cannot view a tensor of shape ", x.sizes(), " and strides ", x.strides(),
              " as shape ", sizes, ". Use .reshape(...) instead.");
  return x.as_strided(sizes, *strides, x.offset());
}

Tensor view_dtype(const Tensor& x, ScalarType dtype) {
  const int64_t old_size = x.element_size();
  const int64_t new_size = element_size(dtype);
  Geometry g(x);
  if (old_size != new_size) {
    const std::string what = str(" to view ", dtype_name(x.dtype()), " as ", dtype_name(dtype),
                                 " (different element sizes)");
    EMBER_CHECK(x.dim() > 0, RuntimeError, "[view] self.dim() cannot be 0", what);
    EMBER_CHECK(x.strides().back() == 1, RuntimeError, "[view] self.stride(-1) must be 1", what,
                ", but got ", x.strides().back());
    if (old_size > new_size) {
      const int64_t ratio = old_size / new_size;
      for (size_t i = 0; i + 1 < g.strides.size(); ++i) g.strides[i] *= ratio;
      g.sizes.back() *= ratio;
      g.offset *= ratio;
    } else {
      const int64_t ratio = new_size / old_size;
      EMBER_CHECK(g.sizes.back() % ratio == 0, RuntimeError, "[view] self.size(-1) must be ",
                  "divisible by ", ratio, what, ", but got ", g.sizes.back());
      EMBER_CHECK(g.offset % ratio == 0, RuntimeError, "[view] self.storage_offset() must be ",
                  "divisible by ", ratio, what, ", but got ", g.offset);
      for (size_t i = 0; i + 1 < g.strides.size(); ++i) {
        EMBER_CHECK(g.strides[i] % ratio == 0, RuntimeError, "[view] self.stride(", i,
                    ") must be divisible by ", ratio, what, ", but got ", g.strides[i]);
        g.strides[i] /= ratio;
      }
      g.sizes.back() /= ratio;
      g.offset /= ratio;
    }
  }
  Tensor out = g.make(x);
  out.impl().dtype = dtype;
  return out;
}

Tensor reshape(const Tensor& x, const Shape& shape) {
  const Shape sizes = infer_size(shape, x.numel(), "reshape");
  if (auto strides = view_strides(x.sizes(), x.strides(), sizes)) {
    return x.as_strided(sizes, *strides, x.offset());
  }
  Tensor out = Tensor::empty(sizes, x.dtype());
  copy_(out.as_strided(x.sizes(), contiguous_strides(x.sizes()), 0), x);
  return out;
}

Tensor permute(const Tensor& x, const std::vector<int64_t>& dims) {
  EMBER_CHECK(static_cast<int64_t>(dims.size()) == x.dim(), RuntimeError,
              "[permute] number of dims don't match: the tensor of shape ", x.sizes(), " has ",
              x.dim(), " dims but dims ", dims, " has ", dims.size());
  const auto wrapped = wrap_dims(dims, x.dim(), "permute");
  EMBER_CHECK(!has_duplicates(wrapped), RuntimeError,
              "[permute] duplicate dims are not allowed, got dims ", dims);
  Geometry g(x);
  for (size_t i = 0; i < wrapped.size(); ++i) {
    g.sizes[i] = x.sizes()[wrapped[i]];
    g.strides[i] = x.strides()[wrapped[i]];
  }
  return g.make(x);
}

Tensor transpose(const Tensor& x, int64_t dim0, int64_t dim1) {
  const int64_t d0 = wrap_dim(dim0, x.dim(), "transpose");
  const int64_t d1 = wrap_dim(dim1, x.dim(), "transpose");
  Geometry g(x);
  if (x.dim() > 0) {
    std::swap(g.sizes[d0], g.sizes[d1]);
    std::swap(g.strides[d0], g.strides[d1]);
  }
  return g.make(x);
}

Tensor t(const Tensor& x) {
  EMBER_CHECK(x.dim() <= 2, RuntimeError, "[t] t() expects a tensor with <= 2 dimensions, but ",
              "self is ", x.dim(), "D (shape ", x.sizes(), ")");
  return x.dim() < 2 ? alias(x) : transpose(x, 0, 1);
}

Tensor mT(const Tensor& x) {
  // NOTE: torch treats 0-d as the identity (deprecated) but rejects 1-d.
  EMBER_CHECK(x.dim() != 1, RuntimeError, "[mT] tensor.mT is only supported on matrices or ",
              "batches of matrices. Got 1-D tensor of shape ", x.sizes());
  return x.dim() == 0 ? alias(x) : transpose(x, -2, -1);
}

Tensor reverse_dims(const Tensor& x) {
  Geometry g(x);
  std::reverse(g.sizes.begin(), g.sizes.end());
  std::reverse(g.strides.begin(), g.strides.end());
  return g.make(x);
}

Tensor expand(const Tensor& x, const Shape& shape) {
  const int64_t ndim = static_cast<int64_t>(shape.size());
  EMBER_CHECK(ndim >= x.dim(), RuntimeError, "[expand] the number of sizes provided (", ndim,
              ") must be greater or equal to the number of dimensions in the tensor (", x.dim(),
              "); sizes ", shape, ", tensor shape ", x.sizes());
  Shape sizes(ndim), strides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t d = x.dim() - ndim + i;  // the matching dim of x, < 0 for new leading dims
    int64_t size = d >= 0 ? x.sizes()[d] : 1;
    int64_t stride = d >= 0 ? x.strides()[d] : (i + 1 < ndim ? sizes[i + 1] * strides[i + 1] : 1);
    int64_t target = shape[i];
    if (target == -1) {
      EMBER_CHECK(d >= 0, RuntimeError, "[expand] the expanded size of the tensor (-1) isn't ",
                  "allowed in a leading, non-existing dimension ", i, "; sizes ", shape);
      target = size;
    }
    EMBER_CHECK(target >= 0, RuntimeError, "[expand] invalid size ", target, " at dimension ", i,
                " of sizes ", shape);
    if (size != target) {
      EMBER_CHECK(size == 1, RuntimeError, "[expand] the expanded size of the tensor (", target,
                  ") must match the existing size (", size, ") at non-singleton dimension ", i,
                  ".  Target sizes: ", shape, ".  Tensor sizes: ", x.sizes());
      size = target;
      stride = 0;
    }
    sizes[i] = size;
    strides[i] = stride;
  }
  checked_numel(sizes, "expand");
  return x.as_strided(sizes, strides, x.offset());
}

Tensor squeeze(const Tensor& x, const std::optional<std::vector<int64_t>>& dims) {
  std::vector<bool> drop(x.dim(), false);
  if (!dims) {
    for (int64_t d = 0; d < x.dim(); ++d) drop[d] = x.sizes()[d] == 1;
  } else {
    const auto wrapped = wrap_dims(*dims, x.dim(), "squeeze");
    for (size_t i = 0; i < wrapped.size(); ++i) {
      EMBER_CHECK(std::count(wrapped.begin(), wrapped.end(), wrapped[i]) == 1, RuntimeError,
                  "[squeeze] dim ", wrapped[i], " appears multiple times in the list of dims ",
                  *dims);
      if (x.dim() > 0) drop[wrapped[i]] = x.sizes()[wrapped[i]] == 1;
    }
  }
  Geometry g(x);
  g.sizes.clear();
  g.strides.clear();
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (drop[d]) continue;
    g.sizes.push_back(x.sizes()[d]);
    g.strides.push_back(x.strides()[d]);
  }
  return g.make(x);
}

Tensor unsqueeze(const Tensor& x, int64_t dim) {
  const int64_t d = wrap_dim(dim, x.dim() + 1, "unsqueeze");
  Geometry g(x);
  // torch's choice: the stride that keeps the new dim "contiguous" with the one after it.
  const int64_t stride = d >= x.dim() ? 1 : x.sizes()[d] * x.strides()[d];
  g.sizes.insert(g.sizes.begin() + d, 1);
  g.strides.insert(g.strides.begin() + d, stride);
  return g.make(x);
}

Tensor flatten(const Tensor& x, int64_t start_dim, int64_t end_dim) {
  const int64_t start = wrap_dim(start_dim, x.dim(), "flatten");
  const int64_t end = wrap_dim(end_dim, x.dim(), "flatten");
  if (x.dim() == 0) return reshape(x, {1});
  EMBER_CHECK(start <= end, RuntimeError, "[flatten] flatten() has invalid args: start_dim (",
              start_dim, ") cannot come after end_dim (", end_dim, ") for a tensor of shape ",
              x.sizes());
  if (start == end) return alias(x);
  Shape shape(x.sizes().begin(), x.sizes().begin() + start);
  int64_t n = 1;
  for (int64_t d = start; d <= end; ++d) n *= x.sizes()[d];
  shape.push_back(n);
  shape.insert(shape.end(), x.sizes().begin() + end + 1, x.sizes().end());
  return reshape(x, shape);
}

Tensor unflatten(const Tensor& x, int64_t dim, const Shape& sizes) {
  EMBER_CHECK(!sizes.empty(), RuntimeError, "[unflatten] sizes must be non-empty");
  const int64_t d = wrap_dim(dim, x.dim(), "unflatten");
  EMBER_CHECK(x.dim() > 0, RuntimeError, "[unflatten] cannot unflatten a 0-dim tensor");
  const int64_t size = x.sizes()[d];
  Shape inner;
  try {
    inner = infer_size(sizes, size, "unflatten");
  } catch (const RuntimeError&) {
    throw RuntimeError(str("[unflatten] Provided sizes ", sizes,
                           " don't multiply up to the size of dim ", dim, " (", size,
                           ") in the input tensor of shape ", x.sizes()));
  }
  Shape shape(x.sizes().begin(), x.sizes().begin() + d);
  shape.insert(shape.end(), inner.begin(), inner.end());
  shape.insert(shape.end(), x.sizes().begin() + d + 1, x.sizes().end());
  return view(x, shape);
}

Tensor narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  EMBER_CHECK(x.dim() > 0, RuntimeError, "[narrow] narrow() cannot be applied to a 0-dim tensor.");
  EMBER_CHECK(length >= 0, RuntimeError, "[narrow] length must be non-negative, got ", length);
  const int64_t d = wrap_dim(dim, x.dim(), "narrow");
  const int64_t size = x.sizes()[d];
  EMBER_CHECK(start >= -size && start <= size, IndexError, "[narrow] start out of range ",
              "(expected to be in range of [", -size, ", ", size, "], but got ", start, ")");
  if (start < 0) start += size;
  EMBER_CHECK(start <= size - length, RuntimeError, "[narrow] start (", start, ") + length (",
              length, ") exceeds dimension size (", size, ") of dim ", d, " of shape ", x.sizes());
  Geometry g(x);
  g.offset += start * x.strides()[d];
  g.sizes[d] = length;
  return g.make(x);
}

Tensor select(const Tensor& x, int64_t dim, int64_t index) {
  EMBER_CHECK(x.dim() > 0, IndexError, "[select] select() cannot be applied to a 0-dim tensor.");
  const int64_t d = wrap_dim(dim, x.dim(), "select");
  const int64_t size = x.sizes()[d];
  EMBER_CHECK(index >= -size && index < size, IndexError, "[select] index ", index,
              " out of range for tensor of size ", x.sizes(), " at dimension ", d);
  if (index < 0) index += size;
  Geometry g(x);
  g.offset += index * x.strides()[d];
  g.sizes.erase(g.sizes.begin() + d);
  g.strides.erase(g.strides.begin() + d);
  return g.make(x);
}

Tensor slice(const Tensor& x, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> stop, int64_t step) {
  EMBER_CHECK(x.dim() > 0, IndexError, "[slice] slice() cannot be applied to a 0-dim tensor.");
  EMBER_CHECK(step > 0, ValueError, "[slice] step must be greater than zero, got ", step);
  const int64_t d = wrap_dim(dim, x.dim(), "slice");
  const int64_t size = x.sizes()[d];
  // Python's rules, then clamped into [0, size] (torch never raises for out-of-range bounds).
  int64_t lo = start.value_or(0);
  int64_t hi = stop.value_or(size);
  if (lo < 0) lo = std::max<int64_t>(lo + size, 0);
  if (hi < 0) hi = std::max<int64_t>(hi + size, 0);
  lo = std::min(lo, size);
  hi = std::clamp(hi, lo, size);
  Geometry g(x);
  g.offset += lo * x.strides()[d];
  g.sizes[d] = hi > lo ? (hi - lo - 1) / step + 1 : 0;
  // torch's stride is stride * step; a dim of size 0 or 1 never steps, so where that product
  // overflows (x[::2**62]) the stride is left as it was instead.
  int64_t stepped;
  if (!__builtin_mul_overflow(g.strides[d], step, &stepped)) {
    g.strides[d] = stepped;
  } else {
    EMBER_CHECK(g.sizes[d] <= 1, RuntimeError, "[slice] the stride overflows a 64-bit integer (",
                g.strides[d], " * ", step, ")");
  }
  return g.make(x);
}

std::vector<Tensor> unbind(const Tensor& x, int64_t dim) {
  EMBER_CHECK(x.dim() > 0, IndexError, "[unbind] Dimension specified as ", dim,
              " but tensor has no dimensions");
  const int64_t d = wrap_dim(dim, x.dim(), "unbind");
  std::vector<Tensor> out;
  out.reserve(x.sizes()[d]);
  for (int64_t i = 0; i < x.sizes()[d]; ++i) out.push_back(select(x, d, i));
  return out;
}

Tensor movedim(const Tensor& x, const std::vector<int64_t>& source,
               const std::vector<int64_t>& destination) {
  EMBER_CHECK(source.size() == destination.size(), RuntimeError,
              "[movedim] Invalid source or destination dims: source (", source,
              ") should contain the same number of dims as destination (", destination, ")");
  const auto src = wrap_dims(source, x.dim(), "movedim");
  const auto dst = wrap_dims(destination, x.dim(), "movedim");
  EMBER_CHECK(!has_duplicates(src), RuntimeError, "[movedim] repeated dim in `source` ", source);
  EMBER_CHECK(!has_duplicates(dst), RuntimeError, "[movedim] repeated dim in `destination` ",
              destination);
  if (x.dim() == 0) return alias(x);
  // Moved dims go to their destinations; the others keep their relative order.
  std::vector<int64_t> order(x.dim(), -1);
  std::vector<bool> used(x.dim(), false);
  for (size_t i = 0; i < src.size(); ++i) {
    order[dst[i]] = src[i];
    used[src[i]] = true;
  }
  int64_t next = 0;
  for (int64_t& o : order) {
    if (o != -1) continue;
    while (used[next]) ++next;
    o = next++;
  }
  return permute(x, order);
}

Tensor diagonal(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t d1 = wrap_dim(dim1, x.dim(), "diagonal");
  const int64_t d2 = wrap_dim(dim2, x.dim(), "diagonal");
  EMBER_CHECK(d1 != d2, RuntimeError, "[diagonal] diagonal dimensions cannot be identical ", dim1,
              ", ", dim2);
  const int64_t n1 = x.sizes()[d1], n2 = x.sizes()[d2];
  const int64_t len = offset >= 0 ? std::max<int64_t>(std::min(n1, n2 - offset), 0)
                                  : std::max<int64_t>(std::min(n1 + offset, n2), 0);
  Geometry g(x);
  // An offset past the end gives an empty view; keep the storage offset sane then.
  if (len > 0) g.offset += offset >= 0 ? offset * x.strides()[d2] : -offset * x.strides()[d1];
  const int64_t stride = x.strides()[d1] + x.strides()[d2];
  for (int64_t d : {std::max(d1, d2), std::min(d1, d2)}) {
    g.sizes.erase(g.sizes.begin() + d);
    g.strides.erase(g.strides.begin() + d);
  }
  g.sizes.push_back(len);
  g.strides.push_back(stride);
  return g.make(x);
}

void squeeze_(const Tensor& x, const std::optional<std::vector<int64_t>>& dims) {
  assign_geometry(x, squeeze(x, dims));
}

void unsqueeze_(const Tensor& x, int64_t dim) { assign_geometry(x, unsqueeze(x, dim)); }

void transpose_(const Tensor& x, int64_t dim0, int64_t dim1) {
  assign_geometry(x, transpose(x, dim0, dim1));
}

void t_(const Tensor& x) {
  EMBER_CHECK(x.dim() <= 2, RuntimeError, "[t_] t_() expects a tensor with <= 2 dimensions, ",
              "but self is ", x.dim(), "D (shape ", x.sizes(), ")");
  assign_geometry(x, t(x));
}

// ---- split / chunk: views along one dim.

namespace {
void check_splittable(const Tensor& x, const char* op) {
  EMBER_CHECK(x.dim() > 0, RuntimeError, "[", op,
              "] expects at least a 1-dimensional tensor, got a 0-dim tensor");
}
}  // namespace

std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim) {
  check_splittable(x, "split");
  EMBER_CHECK(split_size >= 0, RuntimeError,
              "[split] expects split_size be non-negative, but got split_size=", split_size);
  const int64_t d = wrap_dim(dim, x.dim(), "split");
  const int64_t size = x.sizes()[d];
  EMBER_CHECK(split_size > 0 || size == 0, RuntimeError, "[split] split_size can only be 0 if ",
              "dimension size is 0, but got dimension size of ", size);
  // A size-0 dim still gives one (empty) piece.
  const int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>((size - 1) / split_size + 1, 1);
  std::vector<Tensor> out;
  out.reserve(pieces);
  for (int64_t i = 0; i < pieces; ++i) {
    const int64_t start = i * split_size;
    out.push_back(narrow(x, d, std::min(start, size), std::min(split_size, size - start)));
  }
  return out;
}

std::vector<Tensor> split_with_sizes(const Tensor& x, const std::vector<int64_t>& sizes,
                                     int64_t dim) {
  check_splittable(x, "split_with_sizes");
  const int64_t d = wrap_dim(dim, x.dim(), "split_with_sizes");
  int64_t total = 0;
  for (int64_t s : sizes) {
    EMBER_CHECK(s >= 0, RuntimeError, "[split_with_sizes] expects split_sizes have only ",
                "non-negative entries, but got split_sizes=", sizes);
    EMBER_CHECK(!__builtin_add_overflow(total, s, &total), RuntimeError,
                "[split_with_sizes] split_sizes ", sizes, " overflow");
  }
  EMBER_CHECK(total == x.sizes()[d], RuntimeError, "[split_with_sizes] expects split_sizes to ",
              "sum exactly to ", x.sizes()[d], " (input tensor's size at dimension ", dim,
              "), but got split_sizes=", sizes);
  std::vector<Tensor> out;
  out.reserve(sizes.size());
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.push_back(narrow(x, d, start, s));
    start += s;
  }
  return out;
}

std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim) {
  check_splittable(x, "chunk");
  EMBER_CHECK(chunks > 0, RuntimeError,
              "[chunk] expects `chunks` to be greater than 0, got: ", chunks);
  const int64_t d = wrap_dim(dim, x.dim(), "chunk");
  const int64_t size = x.sizes()[d];
  // NOTE: unlike np.array_split, every chunk but the last has ceil(size / chunks) elements,
  // so fewer than `chunks` pieces may come back.
  const int64_t split_size = size / chunks + (size % chunks != 0);
  if (size == 0) return split_with_sizes(x, std::vector<int64_t>(chunks, 0), d);
  return split(x, split_size, d);
}

// ---- cat / stack: copies into a new (or the out=) tensor.

namespace {
// Element range [lo, hi] of the storage a tensor can reach (empty tensors reach nothing).
std::pair<int64_t, int64_t> storage_extent(const Tensor& t) {
  int64_t lo = t.offset(), hi = t.offset();
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t reach = (t.sizes()[d] - 1) * t.strides()[d];
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo * t.element_size(), (hi + 1) * t.element_size() - 1};
}

bool may_overlap(const Tensor& a, const Tensor& b) {
  if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
  const auto [a_lo, a_hi] = storage_extent(a);
  const auto [b_lo, b_hi] = storage_extent(b);
  return a_lo <= b_hi && b_lo <= a_hi;
}

// torch's legacy rule: 1-d empty tensors may be concatenated with anything (they are skipped).
bool skipped_in_cat(const Tensor& t) { return t.dim() == 1 && t.sizes()[0] == 0; }

// Fast path when every part and the result are contiguous with one dtype: each input is a run
// of rows, copied with memcpy (small cats would otherwise pay one iterator setup per input).
bool cat_contiguous(const std::vector<Tensor>& tensors, const Tensor& result, int64_t dim) {
  if (!result.is_contiguous()) return false;
  for (const Tensor& t : tensors) {
    if (!skipped_in_cat(t) && (!t.is_contiguous() || t.dtype() != result.dtype())) return false;
  }
  result.check_writable("cat");
  const int64_t outer = std::accumulate(result.sizes().begin(), result.sizes().begin() + dim,
                                        int64_t{1}, std::multiplies<int64_t>());
  const int64_t inner = std::accumulate(result.sizes().begin() + dim + 1, result.sizes().end(),
                                        int64_t{1}, std::multiplies<int64_t>());
  const int64_t esize = result.element_size();
  const int64_t out_row = result.sizes()[dim] * inner * esize;
  char* dst = result.data_bytes();
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t) || t.numel() == 0) {
      continue;
    }
    const int64_t row = t.sizes()[dim] * inner * esize;
    const char* src = t.data_bytes();
    for (int64_t i = 0; i < outer; ++i) std::memcpy(dst + i * out_row, src + i * row, row);
    dst += row;
  }
  result.bump_version();
  return true;
}
}  // namespace

Tensor cat(const std::vector<Tensor>& tensors, int64_t dim, const Tensor& out) {
  EMBER_CHECK(!tensors.empty(), ValueError, "[cat] expected a non-empty list of Tensors");
  ScalarType dtype = tensors[0].dtype();
  const Tensor* ref = nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    EMBER_CHECK(t.dim() > 0, RuntimeError, "[cat] zero-dimensional tensor (at position ", i,
                ") cannot be concatenated");
    dtype = promote_types(dtype, t.dtype());
    if (!ref && !skipped_in_cat(t)) ref = &t;
  }
  Shape shape = ref ? ref->sizes() : tensors[0].sizes();
  const int64_t d = ref ? wrap_dim(dim, ref->dim(), "cat") : 0;
  if (ref) {
    shape[d] = 0;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const Tensor& t = tensors[i];
      if (skipped_in_cat(t)) continue;
      EMBER_CHECK(t.dim() == ref->dim(), RuntimeError, "[cat] Tensors must have same number of ",
                  "dimensions: got ", ref->dim(), " and ", t.dim(), " (shapes ", ref->sizes(),
                  " and ", t.sizes(), " for tensor number ", i, ")");
      for (int64_t k = 0; k < t.dim(); ++k) {
        EMBER_CHECK(k == d || t.sizes()[k] == ref->sizes()[k], RuntimeError,
                    "[cat] Sizes of tensors must match except in dimension ", d, ". Expected ",
                    "size ", ref->sizes()[k], " but got size ", t.sizes()[k], " for tensor ",
                    "number ", i, " in the list (shapes ", ref->sizes(), " and ", t.sizes(), ")");
      }
      EMBER_CHECK(!__builtin_add_overflow(shape[d], t.sizes()[d], &shape[d]), RuntimeError,
                  "[cat] the result size along dim ", d, " overflows");
    }
  }
  Tensor result = out;
  if (out.defined()) {
    EMBER_CHECK(can_cast(dtype, out.dtype()), TypeError, "[cat] input types can't be cast to ",
                "the desired output type ", dtype_name(out.dtype()), " (inputs promote to ",
                dtype_name(dtype), ")");
    for (size_t i = 0; i < tensors.size(); ++i) {
      EMBER_CHECK(!may_overlap(out, tensors[i]), RuntimeError,
                  "[cat] unsupported operation: ", "the out tensor and input tensor number ", i,
                  " refer to the same memory; ", "clone() the input first");
    }
    check_out(out, out.dtype(), "cat");  // writable, no internal overlap
    resize_out(out, shape, "cat");
  } else {
    result = Tensor::empty(shape, dtype);
  }
  if (ref && cat_contiguous(tensors, result, d)) return result;
  int64_t start = 0;
  for (const Tensor& t : tensors) {
    if (skipped_in_cat(t) || (ref && t.sizes()[d] == 0)) continue;
    Tensor part = ref ? narrow(result, d, start, t.sizes()[d]) : result;
    copy_(part, t);
    start += t.sizes()[d];
  }
  return result;
}

Tensor stack(const std::vector<Tensor>& tensors, int64_t dim, const Tensor& out) {
  EMBER_CHECK(!tensors.empty(), RuntimeError, "[stack] expects a non-empty TensorList");
  const int64_t d = wrap_dim(dim, tensors[0].dim() + 1, "stack");
  std::vector<Tensor> parts;
  parts.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    EMBER_CHECK(tensors[i].sizes() == tensors[0].sizes(), RuntimeError,
                "[stack] expects each tensor to be equal size, but got ", tensors[0].sizes(),
                " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
    parts.push_back(unsqueeze(tensors[i], d));
  }
  return cat(parts, d, out);
}

// ---- Basic indexing.

namespace {
// The view x[items] as a geometry, plus nothing else: indexing never copies.
Tensor apply_index(const Tensor& x, const std::vector<IndexItem>& items) {
  int64_t consumed = 0;
  int64_t ellipses = 0;
  for (const IndexItem& item : items) {
    consumed += item.kind == IndexItem::Kind::Integer || item.kind == IndexItem::Kind::Slice;
    ellipses += item.kind == IndexItem::Kind::Ellipsis;
  }
  EMBER_CHECK(ellipses <= 1, IndexError,
              "[index] an index can only have a single ellipsis ('...')");
  if (x.dim() == 0) {
    for (const IndexItem& item : items) {
      EMBER_CHECK(item.kind != IndexItem::Kind::Integer, IndexError, "[index] invalid index of ",
                  "a 0-dim tensor. Use `tensor.item()` to convert a 0-dim tensor to a number");
      EMBER_CHECK(item.kind != IndexItem::Kind::Slice, IndexError,
                  "[index] slice() cannot be applied to a 0-dim tensor.");
    }
  }
  EMBER_CHECK(consumed <= x.dim(), IndexError, "[index] too many indices for tensor of ",
              "dimension ", x.dim(), " (shape ", x.sizes(), ")");
  Tensor result = alias(x);
  int64_t d = 0;  // the dim of `result` the next item applies to
  for (const IndexItem& item : items) {
    switch (item.kind) {
      case IndexItem::Kind::Integer: {
        const int64_t size = result.sizes()[d];
        EMBER_CHECK(item.index >= -size && item.index < size, IndexError, "[index] index ",
                    item.index, " is out of bounds for dimension ", d, " with size ", size);
        result = select(result, d, item.index);
        break;
      }
      case IndexItem::Kind::Slice:
        EMBER_CHECK(item.step > 0, ValueError, "[index] step must be greater than zero, got ",
                    item.step);
        result = slice(result, d, item.start, item.stop, item.step);
        ++d;
        break;
      case IndexItem::Kind::Ellipsis:
        d += x.dim() - consumed;
        break;
      case IndexItem::Kind::NewAxis:
        result = unsqueeze(result, d);
        ++d;
        break;
    }
  }
  return result;
}
}  // namespace

Tensor index(const Tensor& x, const std::vector<IndexItem>& items) { return apply_index(x, items); }

void index_put_(const Tensor& x, const std::vector<IndexItem>& items, const Tensor& value) {
  const Tensor target = apply_index(x, items);
  // Writing through a broadcast (stride-0) dim would race on one element, as torch refuses.
  for (int64_t d = 0; d < target.dim() && target.numel() > 0; ++d) {
    EMBER_CHECK(target.strides()[d] != 0 || target.sizes()[d] <= 1, RuntimeError,
                "[index] unsupported operation: more than one element of the written-to tensor ",
                "(shape ", target.sizes(), ", strides ", target.strides(), ") refers to a single ",
                "memory location. Please clone() the tensor before performing the operation.");
  }
  // torch drops the value's leading size-1 dims, so x[0] = v[None] works.
  Geometry g(value);
  while (static_cast<int64_t>(g.sizes.size()) > target.dim() && g.sizes.front() == 1) {
    g.sizes.erase(g.sizes.begin());
    g.strides.erase(g.strides.begin());
  }
  bool fits = static_cast<int64_t>(g.sizes.size()) <= target.dim();
  for (size_t i = 0; fits && i < g.sizes.size(); ++i) {
    const int64_t v = g.sizes[g.sizes.size() - 1 - i];
    fits = v == 1 || v == target.sizes()[target.dim() - 1 - i];
  }
  EMBER_CHECK(fits, RuntimeError, "[index] shape mismatch: value tensor of shape ", value.sizes(),
              " cannot be broadcast to indexing result of shape ", target.sizes());
  // NOTE: expand first: copy_ does not broadcast a source whose shape differs from the target.
  copy_(target, expand(g.make(value), target.sizes()));
}

}  // namespace ember
