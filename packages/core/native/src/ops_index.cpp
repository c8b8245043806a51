// Advanced indexing and the index ops (index_select, gather, scatter, take, masked_*, nonzero).
// Every gather is one iterator pass over the result: the source is viewed with zero strides on
// the indexed dims and each element adds index * stride; puts run the same pass backwards.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

struct KernelParams {
  int64_t stride = 0;  // bytes added per unit of index
  int64_t size = 0;    // size of the indexed dim (negative indices wrap); -1: offsets, no wrap
  bool check = true;   // range-check in the loop (false once checked beforehand)
  bool wrap = true;    // negative indices count from the end (not in gather/scatter/index_select)
  int64_t dim = 0;     // for the error message
  const char* op = "index";
};

[[noreturn]] void out_of_range(const KernelParams& p, int64_t index) {
  // torch raises RuntimeError from gather/scatter, IndexError from indexing and index_select.
  const std::string_view op(p.op);
  if (op.starts_with("gather") || op.starts_with("scatter")) {
    throw IndexRuntimeError(str("[", p.op, "] index ", index, " is out of bounds for dimension ",
                                p.dim, " with size ", p.size));
  }
  throw IndexError(str("[", p.op, "] index ", index, " is out of bounds for dimension ", p.dim,
                       " with size ", p.size));
}

template <typename I>
inline int64_t load_index(const char* at, const KernelParams& p) {
  int64_t k = *reinterpret_cast<const I*>(at);
  if (p.size >= 0) {
    const int64_t raw = k;
    if (k < 0 && p.wrap) k += p.size;
    if (p.check && (k < 0 || k >= p.size)) out_of_range(p, raw);
  }
  return k;
}

// Elements move as raw words: one loop per element width serves every dtype.
template <typename W, typename I>
void gather_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const KernelParams& p = *static_cast<const KernelParams*>(params);
  char* out = data[0];
  const char* src = data[1];
  const char* idx = data[2];
  if (strides[0] == sizeof(W) && strides[1] == 0 && strides[2] == sizeof(I)) {
    W* o = reinterpret_cast<W*>(out);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = load_index<I>(idx + i * sizeof(I), p);
      std::memcpy(&o[i], src + k * p.stride, sizeof(W));
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = load_index<I>(idx + i * strides[2], p);
    std::memcpy(out + i * strides[0], src + i * strides[1] + k * p.stride, sizeof(W));
  }
}

template <typename W, typename I>
void put_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const KernelParams& p = *static_cast<const KernelParams*>(params);
  if (strides[0] == 0 && strides[1] == sizeof(W) && strides[2] == sizeof(I)) {
    const W* v = reinterpret_cast<const W*>(data[1]);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = load_index<I>(data[2] + i * sizeof(I), p);
      std::memcpy(data[0] + k * p.stride, &v[i], sizeof(W));
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = load_index<I>(data[2] + i * strides[2], p);
    std::memcpy(data[0] + i * strides[0] + k * p.stride, data[1] + i * strides[1], sizeof(W));
  }
}

// Accumulating puts run serially: duplicate indices would race.
template <typename T, typename I>
void accumulate_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const KernelParams& p = *static_cast<const KernelParams*>(params);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = load_index<I>(data[2] + i * strides[2], p);
    T& dst = *reinterpret_cast<T*>(data[0] + i * strides[0] + k * p.stride);
    const T v = *reinterpret_cast<const T*>(data[1] + i * strides[1]);
    dst = static_cast<T>(static_cast<compute_t<T>>(dst) + static_cast<compute_t<T>>(v));
  }
}

// Loop1d entries for each element width (W) and index type (I).
template <typename W, typename I>
struct Gather {
  static void run(char** d, const int64_t* s, int64_t n, const void* p) {
    gather_loop<W, I>(d, s, n, p);
  }
};
template <typename W, typename I>
struct Put {
  static void run(char** d, const int64_t* s, int64_t n, const void* p) {
    put_loop<W, I>(d, s, n, p);
  }
};
// A 16-byte element (complex128) moved as raw bytes.
struct Bytes16 {
  uint64_t lo, hi;
};

template <template <typename, typename> class Loop, typename I>
Loop1d by_width(int64_t width) {
  switch (width) {
    case 1:
      return &Loop<uint8_t, I>::run;
    case 2:
      return &Loop<uint16_t, I>::run;
    case 4:
      return &Loop<uint32_t, I>::run;
    case 8:
      return &Loop<uint64_t, I>::run;
    case 16:
      return &Loop<Bytes16, I>::run;
    default:
      throw RuntimeError(str("[index] no element copy for a width of ", width, " bytes"));
  }
}

bool is_index_dtype(ScalarType t) { return t == ScalarType::Int64 || t == ScalarType::Int32; }
bool is_mask_dtype(ScalarType t) { return t == ScalarType::Bool || t == ScalarType::UInt8; }

// out[i] = src[i + idx[i] * p.stride]; src and idx are already viewed in out's shape.
void run_gather(const Tensor& out, const Tensor& src, const Tensor& idx, const KernelParams& p) {
  TensorIterator it(p.op, IterConfig::raw(src.dtype()));
  it.add_output(out).add_input(src).add_input(idx);
  it.build();
  const bool i64 = idx.dtype() == ScalarType::Int64;
  it.for_each(i64 ? by_width<Gather, int64_t>(src.element_size())
                  : by_width<Gather, int32_t>(src.element_size()),
              &p);
}

// dst[i + idx[i] * p.stride] (=|+=) value[i]; dst has zero strides on the indexed dims.
void run_put(const Tensor& dst, const Tensor& value, const Tensor& idx, const KernelParams& p,
             bool accumulate) {
  TensorIterator it(p.op, IterConfig::raw(dst.dtype()));
  it.allow_broadcast_outputs();
  it.add_output(dst).add_input(value).add_input(idx);
  it.build();
  const bool i64 = idx.dtype() == ScalarType::Int64;
  if (!accumulate) {
    it.for_each(i64 ? by_width<Put, int64_t>(dst.element_size())
                    : by_width<Put, int32_t>(dst.element_size()),
                &p);
    return;
  }
  const Loop1d loop = visit_dtype(dst.dtype(), [&](auto tag) -> Loop1d {
    using T = typename decltype(tag)::type;
    return i64 ? &accumulate_loop<T, int64_t> : &accumulate_loop<T, int32_t>;
  });
  it.for_each(loop, &p, std::numeric_limits<int64_t>::max());
}

// Raises on the first out-of-range index, before a put writes anything.
void check_indices(const Tensor& idx, const KernelParams& p) {
  const Tensor c = contiguous(idx);
  const int64_t n = c.numel();
  auto scan = [&](auto* data) {
    parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const int64_t k = data[i];
        if (k < (p.wrap ? -p.size : 0) || k >= p.size) out_of_range(p, k);
      }
    });
  };
  if (c.dtype() == ScalarType::Int64)
    scan(c.data<int64_t>());
  else
    scan(c.data<int32_t>());
}

Shape broadcast_indices(const std::vector<Tensor>& idxs, const char* op) {
  Shape b;
  for (const Tensor& t : idxs) {
    const int64_t nd = std::max<int64_t>(static_cast<int64_t>(b.size()), t.dim());
    Shape r(nd, 1);
    bool ok = true;
    for (int64_t i = 0; i < nd; ++i) {
      const int64_t x = i < nd - static_cast<int64_t>(b.size()) ? 1 : b[i - (nd - b.size())];
      const int64_t y = i < nd - t.dim() ? 1 : t.sizes()[i - (nd - t.dim())];
      ok &= x == y || x == 1 || y == 1;
      r[i] = x == 1 ? y : x;
    }
    if (!ok) {
      std::string shapes;
      for (const Tensor& s : idxs) shapes += (shapes.empty() ? "" : ", ") + str(s.sizes());
      throw IndexError(str("[", op, "] shape mismatch: indexing tensors could not be broadcast ",
                           "together with shapes ", shapes));
    }
    b = r;
  }
  return b;
}

// The geometry of v[idx_0 at dims_0, idx_1 at dims_1, ...] (dims ascending, every other dim
// a full slice): the result shape, v viewed in it, and one index view (or linear offsets).
struct IndexPlan {
  Shape shape;
  Tensor src;  // v restrided to `shape` with zero strides on the index dims
  Tensor idx;  // int64/int32, viewed in `shape` (zero strides on the other dims)
  Tensor raw;  // the single index as given (range-checked before a put), else undefined
  KernelParams p;
};

IndexPlan make_plan(const Tensor& v, const std::vector<int64_t>& dims,
                    const std::vector<Tensor>& idxs, const char* op, bool wrap = true) {
  const Shape b = broadcast_indices(idxs, op);
  bool adjacent = true;
  for (size_t k = 1; k < dims.size(); ++k) adjacent &= dims[k] == dims[k - 1] + 1;
  IndexPlan plan;
  plan.p.op = op;
  plan.p.wrap = wrap;
  Shape src_strides;
  int64_t b_at = 0;  // where the broadcast index dims go in the result
  auto is_indexed = [&](int64_t d) { return std::find(dims.begin(), dims.end(), d) != dims.end(); };
  auto push_rest = [&](int64_t from, int64_t to) {
    for (int64_t d = from; d < to; ++d) {
      if (is_indexed(d)) continue;
      plan.shape.push_back(v.sizes()[d]);
      src_strides.push_back(v.strides()[d]);
    }
  };
  auto push_b = [&] {
    b_at = static_cast<int64_t>(plan.shape.size());
    for (int64_t s : b) {
      plan.shape.push_back(s);
      src_strides.push_back(0);
    }
  };
  if (adjacent) {
    push_rest(0, dims.front());
    push_b();
    push_rest(dims.back() + 1, v.dim());
  } else {
    push_b();
    push_rest(0, v.dim());
  }
  plan.src = v.as_strided(plan.shape, src_strides, v.offset());
  Tensor index;
  if (idxs.size() == 1) {
    index = expand(idxs[0], b);
    plan.raw = idxs[0];
    plan.p.stride = v.strides()[dims[0]] * v.element_size();
    plan.p.size = v.sizes()[dims[0]];
    plan.p.dim = dims[0];
  } else {
    // Several indices fold into one tensor of element offsets (range-checked on the way).
    index = zeros(b, ScalarType::Int64);
    int64_t* off = index.data<int64_t>();
    for (size_t k = 0; k < idxs.size(); ++k) {
      const Tensor c = contiguous(expand(to_dtype(idxs[k], ScalarType::Int64), b));
      const int64_t* ik = c.data<int64_t>();
      KernelParams pk{0, v.sizes()[dims[k]], true, true, dims[k], op};
      const int64_t stride = v.strides()[dims[k]];
      parallel_for(0, index.numel(), kParallelGrain, [&](int64_t s, int64_t e) {
        for (int64_t i = s; i < e; ++i) {
          off[i] += load_index<int64_t>(reinterpret_cast<const char*>(ik + i), pk) * stride;
        }
      });
    }
    plan.p.stride = v.element_size();
    plan.p.size = -1;
  }
  Shape idx_strides(plan.shape.size(), 0);
  for (size_t i = 0; i < b.size(); ++i) idx_strides[b_at + i] = index.strides()[i];
  plan.idx = index.as_strided(plan.shape, idx_strides, index.offset());
  return plan;
}

// Splits items into the basic view and the (dim, index) pairs applied to it; masks become
// their nonzero coordinates, one index per mask dim.
struct Resolved {
  Tensor view;
  std::vector<int64_t> dims;
  std::vector<Tensor> idxs;
};

Resolved resolve(const Tensor& x, const std::vector<AdvancedItem>& items, const char* op) {
  std::vector<IndexItem> basic;
  for (const AdvancedItem& item : items) {
    if (!item.is_tensor()) {
      basic.push_back(item.basic);
      continue;
    }
    const Tensor& t = item.tensor;
    EMBER_CHECK(is_index_dtype(t.dtype()) || is_mask_dtype(t.dtype()), IndexError, "[", op,
                "] tensors used as indices must be long, int, byte or bool tensors, got ",
                dtype_name(t.dtype()));
    if (is_mask_dtype(t.dtype()) && t.dim() == 0) {
      basic.push_back(IndexItem::new_axis());
    } else {
      const int64_t consumed = is_mask_dtype(t.dtype()) ? t.dim() : 1;
      for (int64_t k = 0; k < consumed; ++k) basic.push_back(IndexItem::slice({}, {}, 1));
    }
  }
  Resolved r;
  r.view = index(x, basic);  // raises for too many indices, bad ints, ...
  int64_t d = 0;
  size_t j = 0;
  for (const AdvancedItem& item : items) {
    const IndexItem& b = basic[j];
    if (!item.is_tensor()) {
      ++j;
      if (b.kind == IndexItem::Kind::Slice || b.kind == IndexItem::Kind::NewAxis) ++d;
      if (b.kind == IndexItem::Kind::Ellipsis) {
        // The dims the ellipsis covers: whatever the later items leave over.
        int64_t later = 0;
        for (size_t k = j; k < basic.size(); ++k) {
          later +=
              basic[k].kind == IndexItem::Kind::Slice || basic[k].kind == IndexItem::Kind::NewAxis;
        }
        d = r.view.dim() - later;
      }
      continue;
    }
    const Tensor& t = item.tensor;
    if (!is_mask_dtype(t.dtype())) {
      r.dims.push_back(d++);
      r.idxs.push_back(t);
      ++j;
      continue;
    }
    if (t.dim() == 0) {
      // x[True] adds a dim of size 1 and takes it; x[False] takes nothing from it.
      const bool keep = item_int(to_dtype(t, ScalarType::Bool), op) != 0;
      r.dims.push_back(d++);
      r.idxs.push_back(zeros({keep ? 1 : 0}, ScalarType::Int64));
      ++j;
      continue;
    }
    const Shape sub(r.view.sizes().begin() + d, r.view.sizes().begin() + d + t.dim());
    EMBER_CHECK(sub == t.sizes(), IndexError, "[", op, "] the shape of the mask ", t.sizes(),
                " at index ", d, " does not match the shape of the indexed tensor ", r.view.sizes(),
                " at index ", d);
    const Tensor nz = nonzero(t);
    for (int64_t k = 0; k < t.dim(); ++k) {
      r.dims.push_back(d++);
      r.idxs.push_back(select(nz, 1, k));
    }
    j += t.dim();
  }
  return r;
}

// Refuses writes through stride-0 (expanded) dims: several elements share one location.
void check_no_internal_overlap(const Tensor& t, const char* op) {
  for (int64_t d = 0; d < t.dim() && t.numel() > 0; ++d) {
    EMBER_CHECK(t.strides()[d] != 0 || t.sizes()[d] <= 1, RuntimeError, "[", op,
                "] unsupported operation: more than one element of the written-to tensor ",
                "(shape ", t.sizes(), ") refers to a single memory location. Please clone() ",
                "the tensor before performing the operation.");
  }
}

// value with its leading size-1 dims dropped (torch's rule), checked and expanded to `shape`.
Tensor value_for(const Tensor& value, const Shape& shape, const char* op) {
  Tensor v = value;
  while (v.dim() > static_cast<int64_t>(shape.size()) && v.sizes()[0] == 1) v = select(v, 0, 0);
  bool fits = v.dim() <= static_cast<int64_t>(shape.size());
  for (int64_t i = 0; fits && i < v.dim(); ++i) {
    const int64_t s = v.sizes()[v.dim() - 1 - i];
    fits = s == 1 || s == shape[shape.size() - 1 - i];
  }
  EMBER_CHECK(fits, RuntimeError, "[", op, "] shape mismatch: value tensor of shape ",
              value.sizes(), " cannot be broadcast to indexing result of shape ", shape);
  return expand(v, shape);
}

}  // namespace

Tensor index_advanced(const Tensor& x, const std::vector<AdvancedItem>& items) {
  const Resolved r = resolve(x, items, "index");
  IndexPlan plan = make_plan(r.view, r.dims, r.idxs, "index");
  Tensor out = empty(plan.shape, x.dtype(), "index");
  if (out.numel() > 0) {
    run_gather(out, plan.src, plan.idx, plan.p);
  } else if (plan.raw.defined()) {
    check_indices(plan.raw, plan.p);  // bad indices raise even when nothing is read (torch)
  }
  return out;
}

void index_put_advanced_(const Tensor& x, const std::vector<AdvancedItem>& items,
                         const Tensor& value, bool accumulate, const char* op) {
  x.check_writable(op);
  const Resolved r = resolve(x, items, op);
  check_no_internal_overlap(r.view, op);
  IndexPlan plan = make_plan(r.view, r.dims, r.idxs, op);
  Tensor v = value.storage() == x.storage() ? clone(value) : value;
  v = value_for(to_dtype(v, x.dtype()), plan.shape, op);
  if (plan.raw.defined()) {
    check_indices(plan.raw, plan.p);
    plan.p.check = false;
  }
  if (plan.src.numel() == 0) return;
  run_put(plan.src, v, plan.idx, plan.p, accumulate);
  x.bump_version();
}

const Tensor& index_put_(const Tensor& x, const std::vector<Tensor>& indices, const Tensor& values,
                         bool accumulate) {
  EMBER_CHECK(values.dtype() == x.dtype(), RuntimeError, "[index_put_] index put requires the ",
              "source and destination dtypes match, got ", dtype_name(x.dtype()),
              " for the destination and ", dtype_name(values.dtype()), " for the source");
  EMBER_CHECK(static_cast<int64_t>(indices.size()) <= x.dim(), IndexError,
              "[index_put_] too many indices for tensor of dimension ", x.dim(), " (got ",
              indices.size(), ")");
  std::vector<AdvancedItem> items;
  bool any = false;
  for (const Tensor& t : indices) {
    any |= t.defined();
    items.push_back(t.defined() ? AdvancedItem{IndexItem::integer(0), t}
                                : AdvancedItem{IndexItem::slice({}, {}, 1), Tensor()});
  }
  if (!any) {
    // Only `:` entries: a plain (broadcasting) assignment or addition.
    x.check_writable("index_put_");
    const Tensor v = value_for(values, x.sizes(), "index_put_");
    copy_(x, accumulate ? binary(BinaryOp::Add, x, v) : v);
    return x;
  }
  index_put_advanced_(x, items, values, accumulate, "index_put_");
  return x;
}

Tensor index_put(const Tensor& x, const std::vector<Tensor>& indices, const Tensor& values,
                 bool accumulate) {
  return index_put_(clone(x), indices, values, accumulate);
}

// ---- index_select, gather, scatter, take.

namespace {

void check_index_dtype(const Tensor& index, const char* op) {
  EMBER_CHECK(is_index_dtype(index.dtype()), RuntimeError, "[", op,
              "] expected dtype int32 or int64 for index, got ", dtype_name(index.dtype()));
}

// gather/scatter: index has x's rank and fits inside x (and src) apart from `dim`.
void check_gather_shapes(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                         const char* op) {
  EMBER_CHECK(index.dim() == x.dim(), RuntimeError, "[", op, "] index tensor must have the ",
              "same number of dimensions as input tensor, got index of shape ", index.sizes(),
              " and input of shape ", x.sizes());
  for (int64_t d = 0; d < x.dim(); ++d) {
    EMBER_CHECK(d == dim || index.sizes()[d] <= x.sizes()[d], RuntimeError, "[", op,
                "] size does not match at dimension ", d, ": expected index ", index.sizes(),
                " to be no larger than input ", x.sizes(), " apart from dimension ", dim);
  }
  if (!src.defined()) return;
  EMBER_CHECK(src.dim() == x.dim(), RuntimeError, "[", op, "] index tensor must have the same ",
              "number of dimensions as src tensor, got index of shape ", index.sizes(),
              " and src of shape ", src.sizes());
  for (int64_t d = 0; d < x.dim(); ++d) {
    EMBER_CHECK(index.sizes()[d] <= src.sizes()[d], RuntimeError, "[", op,
                "] size does not match at dimension ", d, ": expected index ", index.sizes(),
                " to be no larger than src ", src.sizes());
  }
}

// x viewed in index's shape with stride 0 along `dim`, the index supplying the offset.
Tensor along_dim_view(const Tensor& x, int64_t dim, const Shape& shape) {
  Shape strides = x.strides();
  strides[dim] = 0;
  return x.as_strided(shape, strides, x.offset());
}

// A 0-d tensor acts as 1-d with one element in gather/scatter/index_select (torch's rule).
Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? reshape(t, {1}) : t; }

}  // namespace

Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& out_arg) {
  check_index_dtype(index, "index_select");
  EMBER_CHECK(index.dim() <= 1, IndexError, "[index_select] index is supposed to be a vector, ",
              "got shape ", index.sizes());
  EMBER_CHECK(x.dim() > 0 || index.numel() == 1, RuntimeError, "[index_select] index to ",
              "scalar can have only 1 value, got ", index.numel(), " value(s)");
  const Tensor x1 = as_1d(x);
  const int64_t d = wrap_dim(dim, x1.dim(), "index_select");
  IndexPlan plan = make_plan(x1, {d}, {as_1d(index)}, "index_select", false);
  Tensor out = empty(plan.shape, x.dtype(), "index_select");
  if (out.numel() > 0) {
    run_gather(out, plan.src, plan.idx, plan.p);
  } else {
    check_indices(plan.raw, plan.p);
  }
  return write_out(x.dim() == 0 ? reshape(out, {}) : out, out_arg, "index_select",
                   {.dtype = OutDtype::kExact, .inputs = {x, index}});
}

namespace {
// gather; take_along_dim shares it but lets negative indices count from the end.
Tensor gather_impl(const Tensor& x, int64_t dim, const Tensor& index, bool wrap, const char* op) {
  check_index_dtype(index, op);
  const Tensor x1 = as_1d(x);
  const Tensor i1 = as_1d(index);
  const int64_t d = wrap_dim(dim, x1.dim(), op);
  check_gather_shapes(x1, d, i1, Tensor(), op);
  Tensor out = empty(i1.sizes(), x.dtype(), op);
  KernelParams p{x1.strides()[d] * x.element_size(), x1.sizes()[d], true, wrap, d, op};
  if (out.numel() > 0) run_gather(out, along_dim_view(x1, d, i1.sizes()), i1, p);
  return index.dim() == 0 ? reshape(out, {}) : out;
}
}  // namespace

Tensor gather(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& out) {
  return write_out(gather_impl(x, dim, index, false, "gather"), out, "gather",
                   {.dtype = OutDtype::kExact, .inputs = {x, index}});
}

const Tensor& scatter_(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src,
                       bool add, bool src_is_value) {
  const char* op = add ? "scatter_add" : "scatter";
  x.check_writable(op);
  check_index_dtype(index, op);
  EMBER_CHECK(src_is_value || src.dtype() == x.dtype(), RuntimeError, "[", op,
              "] expected self.dtype to be equal to src.dtype, got ", dtype_name(x.dtype()),
              " and ", dtype_name(src.dtype()));
  const Tensor x1 = as_1d(x);
  const Tensor i1 = as_1d(index);
  const int64_t d = wrap_dim(dim, x1.dim(), op);
  check_gather_shapes(x1, d, i1, src_is_value ? Tensor() : as_1d(src), op);
  check_no_internal_overlap(x1, op);
  Tensor value;
  if (src_is_value) {
    value = expand(to_dtype(src, x.dtype()), i1.sizes());
  } else {
    const Tensor s1 = as_1d(src.storage() == x.storage() ? clone(src) : src);
    value = s1.as_strided(i1.sizes(), s1.strides(), s1.offset());
  }
  KernelParams p{x1.strides()[d] * x.element_size(), x1.sizes()[d], true, false, d, op};
  check_indices(i1, p);
  p.check = false;
  if (i1.numel() == 0) return x;
  run_put(along_dim_view(x1, d, i1.sizes()), value, i1, p, add);
  x.bump_version();
  return x;
}

Tensor scatter(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src, bool add,
               bool src_is_value) {
  const Tensor out = clone(x);
  scatter_(out, dim, index, src, add, src_is_value);
  return out;
}

Tensor take(const Tensor& x, const Tensor& index, const Tensor& out_arg) {
  check_index_dtype(index, "take");
  const Tensor flat = reshape(x, {-1});
  IndexPlan plan = make_plan(flat, {0}, {index}, "take");
  Tensor out = empty(plan.shape, x.dtype(), "take");
  if (out.numel() > 0) run_gather(out, plan.src, plan.idx, plan.p);
  return write_out(out, out_arg, "take", {.dtype = OutDtype::kExact, .inputs = {x, index}});
}

namespace {
Tensor take_along_dim_impl(const Tensor& x, const Tensor& indices, std::optional<int64_t> dim) {
  check_index_dtype(indices, "take_along_dim");
  if (!dim) {
    return gather_impl(reshape(x, {-1}), 0, reshape(indices, {-1}), true, "take_along_dim");
  }
  const int64_t d = wrap_dim(*dim, std::max<int64_t>(x.dim(), 1), "take_along_dim");
  EMBER_CHECK(x.dim() == indices.dim(), RuntimeError, "[take_along_dim] input and indices ",
              "should have the same number of dimensions, got input of shape ", x.sizes(),
              " and indices of shape ", indices.sizes());
  if (x.dim() == 0) return gather_impl(x, d, indices, true, "take_along_dim");
  // Every dim but `dim` broadcasts between input and indices.
  Shape xs = x.sizes(), is = indices.sizes();
  xs[d] = 1;
  is[d] = 1;
  Shape b = broadcast_shapes(xs, is, "take_along_dim");
  Shape bx = b, bi = b;
  bx[d] = x.sizes()[d];
  bi[d] = indices.sizes()[d];
  return gather_impl(expand(x, bx), d, expand(indices, bi), true, "take_along_dim");
}
}  // namespace

Tensor take_along_dim(const Tensor& x, const Tensor& indices, std::optional<int64_t> dim,
                      const Tensor& out) {
  return write_out(take_along_dim_impl(x, indices, dim), out, "take_along_dim",
                   {.dtype = OutDtype::kExact, .inputs = {x, indices}});
}

// ---- masks.

namespace {
void check_mask(const Tensor& mask, const char* op) {
  EMBER_CHECK(mask.dtype() == ScalarType::Bool, RuntimeError, "[", op,
              "] expected a bool tensor for mask, got ", dtype_name(mask.dtype()));
}
void check_fill_value(const Tensor& value, const char* op) {
  EMBER_CHECK(value.dim() == 0, RuntimeError, "[", op, "] only supports a 0-dimensional value ",
              "tensor, got a tensor of shape ", value.sizes());
}
}  // namespace

Tensor masked_fill(const Tensor& x, const Tensor& mask, const Tensor& value) {
  check_mask(mask, "masked_fill");
  check_fill_value(value, "masked_fill");
  broadcast_shapes(x.sizes(), mask.sizes(), "masked_fill");
  return where(mask, to_dtype(value, x.dtype()), x);
}

const Tensor& masked_fill_(const Tensor& x, const Tensor& mask, const Tensor& value) {
  check_mask(mask, "masked_fill_");
  check_fill_value(value, "masked_fill_");
  x.check_writable("masked_fill_");
  const Shape b = broadcast_shapes(x.sizes(), mask.sizes(), "masked_fill_");
  EMBER_CHECK(b == x.sizes(), RuntimeError, "[masked_fill_] mask of shape ", mask.sizes(),
              " cannot be broadcast to the shape of self ", x.sizes());
  copy_(x, where(mask, to_dtype(value, x.dtype()), x));
  return x;
}

Tensor masked_select(const Tensor& x, const Tensor& mask, const Tensor& out) {
  check_mask(mask, "masked_select");
  const Shape b = broadcast_shapes(x.sizes(), mask.sizes(), "masked_select");
  const AdvancedItem item{IndexItem::integer(0), expand(mask, b)};
  return write_out(index_advanced(expand(x, b), {item}), out, "masked_select",
                   {.dtype = OutDtype::kExact, .inputs = {x, mask}});
}

// ---- nonzero.

Tensor nonzero(const Tensor& x, const Tensor& out_arg) {
  const Tensor b = contiguous(to_dtype(x, ScalarType::Bool));
  const bool* data = b.data<bool>();
  const int64_t n = b.numel();
  const int64_t ndim = x.dim();
  // Count per chunk, then each chunk writes its rows from its prefix offset.
  const int64_t chunks = parallel_chunks(0, n, kParallelGrain);
  std::vector<int64_t> counts(chunks + 1, 0);
  auto chunk_range = [&](int64_t c) { return std::pair{n * c / chunks, n * (c + 1) / chunks}; };
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      const auto [s, e] = chunk_range(c);
      int64_t count = 0;
      for (int64_t i = s; i < e; ++i) count += data[i];
      counts[c + 1] = count;
    }
  });
  for (int64_t c = 0; c < chunks; ++c) counts[c + 1] += counts[c];
  Tensor out = empty({counts[chunks], ndim}, ScalarType::Int64, "nonzero");
  int64_t* rows = out.data<int64_t>();
  const Shape& sizes = x.sizes();
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      const auto [s, e] = chunk_range(c);
      int64_t* row = rows + counts[c] * ndim;
      for (int64_t i = s; i < e; ++i) {
        if (!data[i]) continue;
        int64_t rem = i;
        for (int64_t d = ndim - 1; d >= 0; --d) {
          row[d] = rem % sizes[d];
          rem /= sizes[d];
        }
        row += ndim;
      }
    }
  });
  return write_out(out, out_arg, "nonzero", {.dtype = OutDtype::kExact, .inputs = {x}});
}

std::vector<Tensor> nonzero_tuple(const Tensor& x) {
  const Tensor nz = nonzero(as_1d(x));
  std::vector<Tensor> out;
  for (int64_t d = 0; d < nz.sizes()[1]; ++d) out.push_back(contiguous(select(nz, 1, d)));
  return out;
}

}  // namespace ember
