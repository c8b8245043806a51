// Sorting and selection along one dim, run as row loops through the TensorIterator (the pattern
// of reduce_dim_loops.h): the iterator walks output positions in parallel, each loop call
// handles whole runs along the sorted dim.
//
// Every element becomes an unsigned "item": an order-preserving key of the value in the high
// bits and its index in the low bits. Items compare as (key, index), so one plain integer order
// gives torch's stable order with NaN last, and sort is an LSD radix sort over the key bits.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"

namespace ember {
namespace {

using u128 = unsigned __int128;

// An unsigned key whose order is the value order: NaN above +inf, -0 equal to +0 (torch keeps
// them in input order), signed integers with the sign bit flipped.
template <typename T>
auto sort_key(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return static_cast<uint8_t>(v);
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if constexpr (std::is_signed_v<T>) {
      return static_cast<U>(static_cast<U>(v) ^ (U(1) << (sizeof(T) * 8 - 1)));
    } else {
      return static_cast<U>(v);
    }
  } else {
    using U = std::conditional_t<sizeof(T) == 2, uint16_t,
                                 std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
    constexpr U kSign = U(1) << (sizeof(T) * 8 - 1);
    U inf;
    if constexpr (std::is_same_v<T, Half>)
      inf = 0x7c00u;
    else if constexpr (std::is_same_v<T, BFloat16>)
      inf = 0x7f80u;
    else if constexpr (std::is_same_v<T, float>)
      inf = 0x7f800000u;
    else
      inf = 0x7ff0000000000000ull;
    U bits;
    std::memcpy(&bits, &v, sizeof(T));
    const U magnitude = static_cast<U>(bits & ~kSign);
    if (magnitude > inf) return static_cast<U>(~U(0));  // every NaN: the largest key
    if (magnitude == 0) bits = 0;
    return static_cast<U>((bits & kSign) ? ~bits : (bits | kSign));
  }
}

template <typename T>
using key_t = decltype(sort_key(T{}));

template <typename T>
constexpr int kKeyBits = static_cast<int>(sizeof(key_t<T>) * 8);

template <typename T>
T& at(char* base, int64_t offset) {
  return *reinterpret_cast<T*>(base + offset);
}

// Parameters of every row loop. Byte strides along the sorted dim.
struct RowParams {
  int64_t len = 0;         // elements in each input run
  int64_t in_stride = 0;   // input
  int64_t val_stride = 0;  // values output
  int64_t idx_stride = 0;  // indices output
  int64_t k = 0;           // topk: count; kthvalue/median: 0-based rank
  bool flip = false;       // sort: descending; topk: largest (both reverse the key order)
};

// Uninitialized scratch; large buffers come from the caching allocator (no page faults).
template <typename Item>
class Scratch {
 public:
  explicit Scratch(int64_t n) {
    const int64_t bytes = n * static_cast<int64_t>(sizeof(Item));
    if (bytes >= (1 << 20)) {
      tensor_ = Tensor::empty({(bytes + 7) / 8}, ScalarType::Int64);
      data_ = reinterpret_cast<Item*>(tensor_.data_bytes());
    } else {
      small_.reset(new Item[std::max<int64_t>(n, 1)]);
      data_ = small_.get();
    }
  }
  Item* get() const { return data_; }

 private:
  Tensor tensor_;
  std::unique_ptr<Item[]> small_;
  Item* data_ = nullptr;
};

// The run's items: key (reversed when `flip`) above the index. Returns whether a NaN was seen.
template <typename T, typename Item>
bool make_items(Item* items, const char* run, const RowParams& p, bool flip) {
  using K = key_t<T>;
  constexpr int kShift = static_cast<int>(sizeof(Item) * 8) - kKeyBits<T>;
  constexpr K kNaN = static_cast<K>(~K(0));
  bool nan = false;
  for (int64_t j = 0; j < p.len; ++j) {
    K key = sort_key(*reinterpret_cast<const T*>(run + j * p.in_stride));
    nan |= key == kNaN && !std::is_integral_v<T>;
    if (flip) key = static_cast<K>(~key);
    items[j] = (static_cast<Item>(key) << kShift) | static_cast<Item>(j);
  }
  return nan;
}

template <typename T, typename Item>
int64_t index_of(Item item) {
  constexpr int kShift = static_cast<int>(sizeof(Item) * 8) - kKeyBits<T>;
  return static_cast<int64_t>(item & ((Item(1) << kShift) - 1));
}

// Stable LSD radix sort of items by their key bits, kDigit bits a pass; passes where every item
// has the same digit are skipped. Returns the buffer (a or tmp) holding the result.
template <typename T, int kDigit, typename Item>
Item* radix_passes(Item* a, Item* tmp, int64_t n) {
  constexpr int kBuckets = 1 << kDigit;
  constexpr int kPasses = (kKeyBits<T> + kDigit - 1) / kDigit;
  constexpr int kShift = static_cast<int>(sizeof(Item) * 8) - kKeyBits<T>;
  std::vector<int64_t> hist(kPasses * kBuckets, 0);
  for (int64_t i = 0; i < n; ++i) {
    for (int q = 0; q < kPasses; ++q) {
      ++hist[q * kBuckets + static_cast<int>((a[i] >> (kShift + kDigit * q)) & (kBuckets - 1))];
    }
  }
  Item* src = a;
  Item* dst = tmp;
  for (int q = 0; q < kPasses; ++q) {
    int64_t* h = hist.data() + q * kBuckets;
    const int shift = kShift + kDigit * q;
    if (h[static_cast<int>((src[0] >> shift) & (kBuckets - 1))] == n) continue;
    int64_t sum = 0;
    for (int b = 0; b < kBuckets; ++b) {
      const int64_t c = h[b];
      h[b] = sum;
      sum += c;
    }
    for (int64_t i = 0; i < n; ++i) {
      dst[h[static_cast<int>((src[i] >> shift) & (kBuckets - 1))]++] = src[i];
    }
    std::swap(src, dst);
  }
  return src;
}

template <typename T, typename Item>
Item* radix_sort(Item* a, Item* tmp, int64_t n) {
  if (n <= 256) {  // small runs: a comparison sort beats the histogram passes
    std::sort(a, a + n);
    return a;
  }
  // NOTE: 11-bit digits (3 passes for float32) measured 35% slower here than 8-bit ones: 2048
  // scatter streams miss the cache and TLB more than 4 passes over 256 cost.
  return radix_passes<T, 8>(a, tmp, n);
}

// The value a key came from, when the key identifies it: every integer key does; float keys
// of zero (either sign) and NaN (any payload) do not, and are read from the run instead.
template <typename T>
bool from_key(key_t<T> key, T& value) {
  using K = key_t<T>;
  if constexpr (std::is_same_v<T, bool>) {
    value = key != 0;
  } else if constexpr (std::is_integral_v<T>) {
    value = static_cast<T>(sort_key(static_cast<T>(key)));  // the sign flip is its own inverse
  } else {
    constexpr K kSign = K(1) << (sizeof(T) * 8 - 1);
    if (key == kSign || key == static_cast<K>(~K(0))) return false;
    const K bits = static_cast<K>((key & kSign) ? (key & ~kSign) : ~key);
    std::memcpy(&value, &bits, sizeof(T));
  }
  return true;
}

// Writes items [0, count) as (values, indices); `flip` undoes a reversed key.
template <typename T, typename Item>
void write_items(const Item* items, int64_t count, const char* run, char* vals, char* idxs,
                 const RowParams& p, bool flip) {
  using K = key_t<T>;
  constexpr int kShift = static_cast<int>(sizeof(Item) * 8) - kKeyBits<T>;
  for (int64_t j = 0; j < count; ++j) {
    const int64_t idx = index_of<T>(items[j]);
    K key = static_cast<K>(items[j] >> kShift);
    if (flip) key = static_cast<K>(~key);
    T value;
    if (!from_key<T>(key, value)) value = *reinterpret_cast<const T*>(run + idx * p.in_stride);
    at<T>(vals, j * p.val_stride) = value;
    at<int64_t>(idxs, j * p.idx_stride) = idx;
  }
}

enum class Mode { Sort, TopK, Select, Median };

// k smallest items in ascending order: a bounded max-heap scan when k is small next to the
// run (no copy of the run), else nth_element over all items and a sort of the first k.
template <typename T, typename Item>
void top_items(Item* items, const char* run, const RowParams& p) {
  using K = key_t<T>;
  constexpr int kShift = static_cast<int>(sizeof(Item) * 8) - kKeyBits<T>;
  const int64_t k = p.k;
  if (k * 64 <= p.len) {
    RowParams head = p;
    head.len = k;
    make_items<T>(items, run, head, p.flip);
    std::make_heap(items, items + k);
    for (int64_t j = k; j < p.len; ++j) {
      K key = sort_key(*reinterpret_cast<const T*>(run + j * p.in_stride));
      if (p.flip) key = static_cast<K>(~key);
      const Item item = (static_cast<Item>(key) << kShift) | static_cast<Item>(j);
      if (item < items[0]) {
        std::pop_heap(items, items + k);
        items[k - 1] = item;
        std::push_heap(items, items + k);
      }
    }
  } else {
    make_items<T>(items, run, p, p.flip);
    std::nth_element(items, items + k - 1, items + p.len);
  }
  std::sort(items, items + k);
}

template <typename T, typename Item, Mode kMode>
void rows_with(char** data, const int64_t* strides, int64_t n, const RowParams& p) {
  const int64_t scratch = kMode == Mode::TopK && p.k * 64 <= p.len ? p.k : p.len;
  Scratch<Item> items(scratch);
  Scratch<Item> tmp(kMode == Mode::Sort && p.len > 256 ? p.len : 1);
  for (int64_t i = 0; i < n; ++i) {
    char* vals = data[0] + i * strides[0];
    char* idxs = data[1] + i * strides[1];
    const char* run = data[2] + i * strides[2];
    Item* a = items.get();
    if constexpr (kMode == Mode::Sort) {
      make_items<T>(a, run, p, p.flip);
      write_items<T>(radix_sort<T>(a, tmp.get(), p.len), p.len, run, vals, idxs, p, p.flip);
    } else if constexpr (kMode == Mode::TopK) {
      top_items<T>(a, run, p);
      write_items<T>(a, p.k, run, vals, idxs, p, p.flip);
    } else {
      const bool nan = make_items<T>(a, run, p, false);
      int64_t idx;
      if (kMode == Mode::Median && nan) {  // torch: NaN, at the first NaN's index
        idx = 0;
        while (sort_key(*reinterpret_cast<const T*>(run + idx * p.in_stride)) !=
               static_cast<key_t<T>>(~key_t<T>(0))) {
          ++idx;
        }
      } else {
        std::nth_element(a, a + p.k, a + p.len);
        idx = index_of<T>(a[p.k]);
      }
      at<T>(vals, 0) = *reinterpret_cast<const T*>(run + idx * p.in_stride);
      at<int64_t>(idxs, 0) = idx;
    }
  }
}

// The iterator's loop: data = (values, indices, input) at each output position.
template <typename T, Mode kMode>
void row_loop(char** data, const int64_t* strides, int64_t n, const void* params) {
  const RowParams& p = *static_cast<const RowParams*>(params);
  // Key and index share 64 bits while the index fits; else 128-bit items.
  if (kKeyBits<T> <= 32 && p.len <= (int64_t(1) << (64 - kKeyBits<T>))) {
    rows_with<T, uint64_t, kMode>(data, strides, n, p);
  } else {
    rows_with<T, u128, kMode>(data, strides, n, p);
  }
}

template <Mode kMode>
Loop1d loop_for(ScalarType t) {
  return visit_dtype_with_unsigned(t, [](auto tag) -> Loop1d {
    using T = typename decltype(tag)::type;
    return &row_loop<T, kMode>;
  });
}

// `t` without dim d (the output positions), keeping strides; a 0-d tensor stays 0-d.
Tensor positions(const Tensor& t, int64_t d) {
  if (t.dim() == 0) return t;
  Shape sizes = t.sizes(), strides = t.strides();
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return t.as_strided(sizes, strides, t.offset());
}

int64_t run_length(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; }
int64_t run_stride(const Tensor& t, int64_t d) { return t.dim() == 0 ? 0 : t.strides()[d]; }

// Runs `loop` over every run of x along d, writing `out_len` results per run into values and
// indices (contiguous, x's shape with `out_len` along d).
void run_rows(const char* op, const Tensor& x, int64_t d, const Tensor& values,
              const Tensor& indices, Loop1d loop, RowParams p) {
  if (values.numel() == 0) return;
  p.len = run_length(x, d);
  p.in_stride = run_stride(x, d) * x.element_size();
  p.val_stride = run_stride(values, d) * values.element_size();
  p.idx_stride = run_stride(indices, d) * indices.element_size();
  IterConfig config;
  config.has_compute_dtype = true;
  config.compute_dtype = x.dtype();
  config.cast_inputs = false;
  config.cast_outputs = false;
  config.resize_outputs = false;
  TensorIterator iter(op, config);
  iter.add_output(positions(values, d)).add_output(positions(indices, d));
  iter.add_input(positions(x, d));
  iter.build();
  // Sorting a run costs ~len log len: keep about kParallelGrain elements per thread chunk.
  iter.for_each(loop, &p, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(p.len, 1)));
}

// Values and indices shaped like x with `len` along d.
std::pair<Tensor, Tensor> alloc_pair(const Tensor& x, int64_t d, int64_t len) {
  Shape sizes = x.sizes();
  if (x.dim() > 0) sizes[d] = len;
  return {Tensor::empty(sizes, x.dtype()), Tensor::empty(sizes, ScalarType::Int64)};
}

Tensor squeeze_dim(const Tensor& t, int64_t d, bool keepdim) {
  return keepdim ? t : positions(t, d);
}

// kthvalue and median along d: the element of 0-based rank `rank` (median: NaN first).
std::pair<Tensor, Tensor> select_dim(const char* op, Mode mode, const Tensor& x, int64_t d,
                                     int64_t rank, bool keepdim) {
  auto [values, indices] = alloc_pair(x, d, 1);
  RowParams p;
  p.k = rank;
  const Loop1d loop =
      mode == Mode::Median ? loop_for<Mode::Median>(x.dtype()) : loop_for<Mode::Select>(x.dtype());
  run_rows(op, x, d, values, indices, loop, p);
  return {squeeze_dim(values, d, keepdim), squeeze_dim(indices, d, keepdim)};
}

void check_not_bool(const Tensor& x, const char* op) {
  EMBER_CHECK(x.dtype() != ScalarType::Bool, NotImplementedError, "[", op,
              "] not implemented for 'bool'");
}

void check_nonempty_dim(const Tensor& x, int64_t d, const char* op) {
  EMBER_CHECK(x.dim() == 0 || x.sizes()[d] != 0, IndexError, "[", op, "] Expected reduction dim ",
              d, " to have non-zero size (input shape ", x.sizes(), ")");
}

}  // namespace

void deliver_pair(const std::pair<Tensor, Tensor>& result, const Tensor& values,
                  const Tensor& indices, const char* op) {
  // Both dtypes are checked before either tensor is written.
  check_out(values, result.first.dtype(), op, {.dtype = OutDtype::kExact});
  check_out(indices, ScalarType::Int64, op, {.dtype = OutDtype::kExact});
  write_out(result.first, values, op, {.dtype = OutDtype::kExact});
  write_out(result.second, indices, op, {.dtype = OutDtype::kExact});
}

std::pair<Tensor, Tensor> sort(const Tensor& x, int64_t dim, bool descending) {
  const int64_t d = wrap_dim(dim, x.dim(), "sort");
  auto result = alloc_pair(x, d, run_length(x, d));
  RowParams p;
  p.flip = descending;
  run_rows("sort", x, d, result.first, result.second, loop_for<Mode::Sort>(x.dtype()), p);
  return result;
}

Tensor argsort(const Tensor& x, int64_t dim, bool descending) {
  wrap_dim(dim, x.dim(), "argsort");
  return sort(x, dim, descending).second;
}

std::pair<Tensor, Tensor> topk(const Tensor& x, int64_t k, int64_t dim, bool largest, bool) {
  const int64_t d = wrap_dim(dim, x.dim(), "topk");
  EMBER_CHECK(x.dtype() != ScalarType::Bool, RuntimeError,
              "[topk] does not support bool dtypes on CPU");
  const int64_t len = run_length(x, d);
  EMBER_CHECK(k >= 0 && k <= len, RuntimeError, "[topk] selected index k out of range (k = ", k,
              ", size of dim ", d, " is ", len, ", input shape ", x.sizes(), ")");
  if (x.dim() == 0) return {clone(x), Tensor::scalar_int(0, ScalarType::Int64)};  // k is 0 or 1
  auto result = alloc_pair(x, d, k);
  RowParams p;
  p.k = k;
  p.flip = largest;
  run_rows("topk", x, d, result.first, result.second, loop_for<Mode::TopK>(x.dtype()), p);
  return result;
}

std::pair<Tensor, Tensor> kthvalue(const Tensor& x, int64_t k, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, x.dim(), "kthvalue");
  check_not_bool(x, "kthvalue");
  check_nonempty_dim(x, d, "kthvalue");
  const int64_t len = run_length(x, d);
  EMBER_CHECK(k >= 1 && k <= len, RuntimeError, "[kthvalue] selected number k out of range for ",
              "dimension ", d, " (k = ", k, ", size ", len, ", input shape ", x.sizes(), ")");
  return select_dim("kthvalue", Mode::Select, x, d, k - 1, keepdim);
}

std::pair<Tensor, Tensor> median_dim(const Tensor& x, int64_t dim, bool keepdim) {
  const int64_t d = wrap_dim(dim, x.dim(), "median");
  check_not_bool(x, "median");
  check_nonempty_dim(x, d, "median");
  return select_dim("median", Mode::Median, x, d, (run_length(x, d) - 1) / 2, keepdim);
}

Tensor median(const Tensor& x) {
  check_not_bool(x, "median");
  if (x.numel() == 0) {
    // torch gives NaN; an integer NaN has no value, so integers raise instead.
    EMBER_CHECK(is_floating(x.dtype()), RuntimeError,
                "[median] cannot take the median of an empty ", dtype_name(x.dtype()),
                " tensor (input shape ", x.sizes(), ")");
    Tensor nan = Tensor::empty({}, x.dtype());
    fill_(nan, std::numeric_limits<double>::quiet_NaN());
    return nan;
  }
  const Tensor flat = contiguous(x);
  const Tensor row = flat.as_strided({flat.numel()}, {1}, flat.offset());
  return median_dim(row, 0, false).first;
}

namespace {

// torch's binary searches: left finds the first boundary with !(b < v) written as b >= v, right
// the first with b > v; NaN compares false, so NaN values land after every boundary.
template <typename T>
int64_t search(const T* bd, const int64_t* sorter, int64_t m, T v, bool right) {
  using C = compute_t<T>;
  const C value = static_cast<C>(v);
  int64_t lo = 0, hi = m;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const C b = static_cast<C>(bd[sorter ? sorter[mid] : mid]);
    const bool go_right = right ? !(b > value) : !(b >= value);
    if (go_right)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace

Tensor searchsorted(const Tensor& seq, const Tensor& values, bool out_int32, bool right,
                    const Tensor& sorter, const Tensor& out, const char* op) {
  EMBER_CHECK(seq.dim() > 0, RuntimeError, "[", op,
              "] boundaries tensor should have positive dimension, but got 0 dimension");
  EMBER_CHECK(!(values.dim() == 0 && seq.dim() > 1), RuntimeError, "[", op,
              "] input value can be a scalar only when boundaries tensor dimension is 1, but "
              "we got boundaries tensor of shape ",
              seq.sizes());
  if (seq.dim() > 1) {
    const bool leading_match =
        seq.dim() == values.dim() &&
        std::equal(seq.sizes().begin(), seq.sizes().end() - 1, values.sizes().begin());
    EMBER_CHECK(leading_match, RuntimeError, "[", op,
                "] boundaries tensor should be 1 dimension or the first N-1 dimensions of "
                "boundaries tensor and input value tensor must match, but we got boundaries "
                "tensor ",
                seq.sizes(), " and input value tensor ", values.sizes());
  }
  if (sorter.defined()) {
    EMBER_CHECK(sorter.dtype() == ScalarType::Int64, RuntimeError, "[", op,
                "] sorter must be a tensor of int64 dtype but got dtype ",
                dtype_name(sorter.dtype()));
    EMBER_CHECK(sorter.sizes() == seq.sizes(), RuntimeError, "[", op,
                "] boundary and sorter must have the same size, but got boundary tensor ",
                seq.sizes(), " and sorter tensor ", sorter.sizes());
  }
  const ScalarType index_type = out_int32 ? ScalarType::Int32 : ScalarType::Int64;
  if (out.defined()) {
    EMBER_CHECK(out.dtype() == index_type, RuntimeError, "[", op,
                "] output tensor's dtype is wrong, it can only be int32 or int64 depending on "
                "whether out_int32 flag is True, but we got output tensor's dtype ",
                dtype_name(out.dtype()), " and out_int32 flag is ", out_int32 ? "True" : "False");
    check_out(out, index_type, op, {.dtype = OutDtype::kExact, .inputs = {seq, values}});
  }
  const ScalarType common = result_type({seq, values});
  EMBER_CHECK(common != ScalarType::Bool, NotImplementedError, "[", op,
              "] not implemented for 'bool'");
  const int64_t m = seq.sizes().back();
  EMBER_CHECK(!out_int32 || m < (int64_t(1) << 31) - 1, RuntimeError, "[", op,
              "] the size of boundaries' last dimension should be less than 2^31 - 1, got ", m);
  const Tensor bd = contiguous(to_dtype(seq, common));
  const Tensor vals = contiguous(to_dtype(values, common));
  const Tensor order = sorter.defined() ? contiguous(sorter) : Tensor();
  const int64_t* sort_idx = order.defined() ? order.data<int64_t>() : nullptr;
  if (sort_idx) {
    for (int64_t i = 0; i < order.numel(); ++i) {
      EMBER_CHECK(sort_idx[i] >= 0 && sort_idx[i] < m, RuntimeError, "[", op,
                  "] sorter index out of range: ", sort_idx[i], " (boundaries of size ", m, ")");
    }
  }
  Tensor result = Tensor::empty(values.sizes(), index_type);
  const int64_t n = vals.numel();
  const int64_t row = values.dim() == 0 ? 1 : values.sizes().back();
  const bool shared = seq.dim() == 1;  // one boundary row for every value
  visit_dtype_with_unsigned(common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* b = bd.data<T>();
    const T* v = vals.data<T>();
    parallel_for(0, n, 2048, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const int64_t r = shared ? 0 : i / row;
        const int64_t pos =
            search(b + r * m, sort_idx ? sort_idx + r * m : nullptr, m, v[i], right);
        if (out_int32)
          result.data<int32_t>()[i] = static_cast<int32_t>(pos);
        else
          result.data<int64_t>()[i] = pos;
      }
    });
  });
  return write_out(result, out, op, {.dtype = OutDtype::kExact});
}

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& x, std::optional<int64_t> dim) {
  const char* op = "unique_consecutive";
  EMBER_CHECK(!dim || x.dim() > 0, IndexError, "[", op, "] Dimension specified as ", *dim,
              " but tensor has no dimensions");
  const int64_t d = dim ? wrap_dim(*dim, x.dim(), op) : 0;
  // The slices as rows of a contiguous (n, inner) block: dim d moved to the front.
  Shape sizes, strides;
  if (dim) {
    EMBER_CHECK(x.numel() > 0 || x.sizes()[d] == 0, RuntimeError, "[", op,
                "] There are 0 sized dimensions, and they aren't selected, so unique cannot be "
                "applied (input shape ",
                x.sizes(), ", dim ", d, ")");
    sizes.push_back(x.sizes()[d]);
    strides.push_back(x.strides()[d]);
    for (int64_t e = 0; e < x.dim(); ++e) {
      if (e == d) continue;
      sizes.push_back(x.sizes()[e]);
      strides.push_back(x.strides()[e]);
    }
  }
  const Tensor block = dim ? contiguous(x.as_strided(sizes, strides, x.offset())) : contiguous(x);
  const int64_t n = dim ? sizes[0] : x.numel();
  const int64_t inner = n == 0 ? 0 : block.numel() / n;
  Tensor inverse = Tensor::empty(dim ? Shape{n} : x.sizes(), ScalarType::Int64);
  std::vector<int64_t> starts;  // first row of each group
  visit_dtype_with_unsigned(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    const T* rows = block.data<T>();
    int64_t* inv = inverse.data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      bool same = i > 0;
      for (int64_t j = 0; same && j < inner; ++j) {
        same = static_cast<C>(rows[i * inner + j]) == static_cast<C>(rows[(i - 1) * inner + j]);
      }
      if (!same) starts.push_back(i);
      inv[i] = static_cast<int64_t>(starts.size()) - 1;
    }
  });
  const int64_t groups = static_cast<int64_t>(starts.size());
  Tensor counts = Tensor::empty({groups}, ScalarType::Int64);
  for (int64_t g = 0; g < groups; ++g) {
    counts.data<int64_t>()[g] = (g + 1 < groups ? starts[g + 1] : n) - starts[g];
  }
  Shape out_sizes = dim ? sizes : Shape{groups};
  out_sizes[0] = groups;
  Tensor values = Tensor::empty(out_sizes, x.dtype());
  const int64_t row_bytes = inner * x.element_size();
  for (int64_t g = 0; g < groups; ++g) {
    std::memcpy(values.data_bytes() + g * row_bytes, block.data_bytes() + starts[g] * row_bytes,
                row_bytes);
  }
  if (dim && d != 0) {  // move the front dim back to d
    const Shape& vs = values.sizes();
    const Shape vst = values.strides();
    Shape back_sizes(vs.begin() + 1, vs.end()), back_strides(vst.begin() + 1, vst.end());
    back_sizes.insert(back_sizes.begin() + d, vs[0]);
    back_strides.insert(back_strides.begin() + d, vst[0]);
    values = contiguous(values.as_strided(back_sizes, back_strides, values.offset()));
  }
  return {values, inverse, counts};
}

Tensor bucketize(const Tensor& input, const Tensor& boundaries, bool out_int32, bool right,
                 const Tensor& out) {
  EMBER_CHECK(boundaries.dim() == 1, RuntimeError,
              "[bucketize] boundaries tensor must be 1 dimension, but got dim(", boundaries.dim(),
              ") (shape ", boundaries.sizes(), ")");
  return searchsorted(boundaries, input, out_int32, right, {}, out, "bucketize");
}

}  // namespace ember
