// The row path of index_add_/index_copy_/index_fill_. Threads own ranges of x's destination
// rows and each walks the whole index, keeping only the entries that land in its rows: duplicate
// indices never race, and every row receives its updates in index order (the serial result, bit
// for bit). When a few rows take most of the index, the threads own column blocks instead.
// Rows are updated by the ISA-dispatched elementwise kernels (AVX2/AVX-512 adds).
#include "index_along_rows.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "ember/dtype.h"
#include "ember/kernels.h"
#include "ember/parallel.h"

namespace ember {
namespace {

// Below this many elements per row the iterator path (inlined per-element updates) is faster
// than one kernel call per row (measured on float32: 1.7x faster at 16, even at 64).
constexpr int64_t kMinRow = 64;
// Column blocks (used only for few or skewed destination rows) are at least this many
// elements, so each thread still streams whole cache lines.
constexpr int64_t kMinBlock = 256;

// A run of dims seen as one: its size and byte strides in x and in the source.
struct Run {
  int64_t size = 1;
  int64_t x = 0;
  int64_t src = 0;
};

// Dims [begin, end) of x and source as one run, or nullopt when their strides do not nest.
std::optional<Run> merge_dims(const Tensor& x, const Tensor& src, int64_t begin, int64_t end) {
  Run r;
  for (int64_t e = end - 1; e >= begin; --e) {
    const int64_t size = x.sizes()[e];
    if (size == 1) continue;
    const int64_t xs = x.strides()[e] * x.element_size();
    const int64_t ss = src.strides()[e] * src.element_size();
    if (r.size == 1) {
      r = {size, xs, ss};
      continue;
    }
    if (xs != r.x * r.size || ss != r.src * r.size) return std::nullopt;
    r.size *= size;
  }
  return r;
}

// The kernel that updates one row: add reads {x, x, source}, copy and fill {x, source}.
struct RowKernel {
  Loop1d loop = nullptr;
  OpParams params;
  bool add = false;
};

// Integer adds with alpha != 1 stay on the iterator path (its unsigned arithmetic wraps).
std::optional<RowKernel> row_kernel(AlongKind kind, ScalarType dt, double alpha,
                                    int64_t alpha_int) {
  const KernelTable& table = cpu_kernels();
  const int t = static_cast<int>(dt);
  RowKernel k;
  if (kind != AlongKind::Add) {
    k.loop = table.cast[t][t];
  } else if (alpha == 1.0 && alpha_int == 1) {
    k.loop = table.binary[static_cast<int>(BinaryOp::Add)][t];
    k.add = true;
  } else if (is_floating(dt)) {
    k.loop = table.binary[static_cast<int>(BinaryOp::AddScaled)][t];
    k.params.f0 = alpha;
    k.add = true;
  }
  if (k.loop == nullptr) return std::nullopt;
  return k;
}

void update_row(const RowKernel& k, char* x, const char* s, int64_t n, const Run& row) {
  char* src = const_cast<char*>(s);  // Loop1d takes char**; the source is only read
  if (k.add) {
    char* data[3] = {x, x, src};
    const int64_t strides[3] = {row.x, row.x, row.src};
    k.loop(data, strides, n, &k.params);
  } else {
    char* data[2] = {x, src};
    const int64_t strides[2] = {row.x, row.src};
    k.loop(data, strides, n, &k.params);
  }
}

// Destination rows [lo, hi) of one outer position and column block of x.
struct Segment {
  int64_t lo = 0, hi = 0;
  int64_t n = 0;  // elements per row
  char* x = nullptr;
  const char* src = nullptr;
  int64_t x_step = 0, src_step = 0;  // bytes from one row to the next
  // Bytes to prefetch of the next rows (0 for rows that are not contiguous).
  int64_t x_ahead = 0, src_ahead = 0;
};

// Rows up to this many bytes are prefetched whole; of longer ones only this much (the hardware
// prefetcher follows a row once it streams).
constexpr int64_t kPrefetchBytes = 8192;

int64_t prefetch_bytes(int64_t stride, int64_t n, int64_t element) {
  return stride == element ? std::min(n * element, kPrefetchBytes) : 0;
}

// Walks the index and updates the rows the segment owns, in index order. While one row is
// updated the next owned pair of rows is prefetched: the destination is a random jump that the
// hardware prefetcher cannot guess, and the source skips the rows other threads own.
void update_segment(const RowKernel& kernel, const Segment& seg, const Run& row,
                    const int64_t* index, int64_t count) {
  const auto next_owned = [&](int64_t k) {
    while (k < count && (index[k] < seg.lo || index[k] >= seg.hi)) ++k;
    return k;
  };
  for (int64_t k = next_owned(0); k < count;) {
    const int64_t next = next_owned(k + 1);
    if (next < count) {
      const char* x_next = seg.x + index[next] * seg.x_step;
      const char* src_next = seg.src + next * seg.src_step;
      for (int64_t b = 0; b < seg.x_ahead; b += 64) __builtin_prefetch(x_next + b, 1);
      for (int64_t b = 0; b < seg.src_ahead; b += 64) __builtin_prefetch(src_next + b, 0);
    }
    update_row(kernel, seg.x + index[k] * seg.x_step, seg.src + k * seg.src_step, seg.n, row);
    k = next;
  }
}

// True when equal ranges of destination rows would give one of the threads over 1.5x its share
// of the index (many duplicates of a few rows): the threads then split the columns instead.
bool skewed(const int64_t* index, int64_t count, int64_t rows, int64_t threads) {
  std::vector<int64_t> hits(threads, 0);
  for (int64_t k = 0; k < count; ++k) ++hits[index[k] * threads / rows];
  return *std::max_element(hits.begin(), hits.end()) * 2 * threads > 3 * count;
}

}  // namespace

bool index_along_rows(AlongKind kind, const Tensor& x, const Tensor& source, int64_t d,
                      const int64_t* index, int64_t count, double alpha, int64_t alpha_int) {
  const std::optional<Run> row = merge_dims(x, source, d + 1, x.dim());
  const std::optional<Run> outer = merge_dims(x, source, 0, d);
  if (!row || !outer || row->size < kMinRow) return false;
  const std::optional<RowKernel> kernel = row_kernel(kind, x.dtype(), alpha, alpha_int);
  if (!kernel) return false;

  const int64_t n = row->size;
  const int64_t rows = x.sizes()[d];
  const int64_t x_step = x.strides()[d] * x.element_size();
  const int64_t src_step = source.strides()[d] * source.element_size();
  char* const xb = x.data_bytes();
  const char* const sb = source.data_bytes();

  // Work units, outermost first: column block, outer position, destination row.
  const int64_t threads = get_num_threads();
  const int64_t work = outer->size * count * n;
  const bool few_rows = outer->size * rows < 2 * threads;
  const bool split_columns =
      threads > 1 && work >= 2 * kParallelGrain &&
      (few_rows || (outer->size == 1 && skewed(index, count, rows, threads)));
  const int64_t blocks = split_columns ? std::clamp<int64_t>(n / kMinBlock, 1, threads) : 1;
  const int64_t per_block = outer->size * rows;
  const int64_t units = blocks * per_block;
  // A unit receives work / units elements on average; below kParallelGrain of work, one task.
  const int64_t per_unit = std::max<int64_t>(1, work / units);
  const int64_t grain =
      work < kParallelGrain ? units : std::max<int64_t>(1, kParallelGrain / per_unit);

  // Column blocks start at multiples of 64 bytes: threads share no cache line of aligned rows.
  const int64_t line = std::max<int64_t>(1, 64 / x.element_size());
  const auto column = [&](int64_t block) {
    return block == blocks ? n : n * block / blocks / line * line;
  };

  parallel_for(0, units, grain, [&](int64_t begin, int64_t end) {
    for (int64_t u = begin; u < end;) {
      const int64_t block = u / per_block;
      const int64_t o = (u % per_block) / rows;
      Segment seg;
      seg.lo = u % rows;
      seg.hi = std::min(rows, seg.lo + (end - u));
      const int64_t c0 = column(block);
      seg.n = column(block + 1) - c0;
      seg.x = xb + o * outer->x + c0 * row->x;
      seg.src = sb + o * outer->src + c0 * row->src;
      seg.x_step = x_step;
      seg.src_step = src_step;
      seg.x_ahead = prefetch_bytes(row->x, seg.n, x.element_size());
      seg.src_ahead = prefetch_bytes(row->src, seg.n, x.element_size());
      update_segment(*kernel, seg, *row, index, count);
      u += seg.hi - seg.lo;
    }
  });
  return true;
}

}  // namespace ember
