// Matrix products. Every op validates its inputs, then hands them to one driver (`product`):
// reduced floats become float32, matrices BLAS cannot read as they are get copied, batch dims
// broadcast as zero strides, and one GEMM runs per batch entry (a single GEMM when the batch
// folds into the rows). float32/float64 go to OpenBLAS; integers use a plain wrapping loop.
#include <algorithm>
#include <type_traits>

#include "ember/blas.h"
#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {

namespace {

// How BLAS can read a rows x cols matrix with element strides (rs, cs): row-major as it is, or
// as the transpose of a row-major matrix. `ok` is false when neither works (copy it first).
struct BlasLayout {
  bool ok = false;
  bool trans = false;
  int64_t ld = 0;
};

BlasLayout blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const int64_t r1 = std::max<int64_t>(rows, 1), c1 = std::max<int64_t>(cols, 1);
  if (cs == 1 || cols == 1) {
    const int64_t ld = rows == 1 ? c1 : rs;
    if (ld >= c1) return {true, false, ld};
  }
  if (rs == 1 || rows == 1) {
    const int64_t ld = cols == 1 ? r1 : cs;
    if (ld >= r1) return {true, true, ld};
  }
  return {};
}

BlasLayout matrix_layout(const Tensor& t) {
  return blas_layout(t.size(-2), t.size(-1), t.stride(-2), t.stride(-1));
}

bool uses_blas(ScalarType t) {
  return t == ScalarType::Float32 || t == ScalarType::Float64 || is_complex(t);
}

ScalarType compute_dtype(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 ? ScalarType::Float32 : t;
}

// Reduced floats become float32; a matrix BLAS cannot read in place is copied (only then).
// The integer loop wants unit-stride rows.
Tensor prepare_operand(const Tensor& t) {
  Tensor p = to_dtype(t, compute_dtype(t.dtype()));
  if (uses_blas(p.dtype()) ? !matrix_layout(p).ok : p.stride(-1) != 1 && p.size(-1) > 1) {
    p = contiguous(p);
  }
  return p;
}

// A view of t (batch' + [r, c]) with its batch dims broadcast to `batch` by zero strides.
Tensor expand_batch(const Tensor& t, const Shape& batch) {
  const size_t nb = batch.size(), tb = static_cast<size_t>(t.dim()) - 2;
  Shape sizes = batch, strides(nb, 0);
  for (size_t i = 0; i < tb; ++i) {
    if (t.sizes()[i] != 1) strides[nb - tb + i] = t.strides()[i];
  }
  sizes.insert(sizes.end(), {t.size(-2), t.size(-1)});
  strides.insert(strides.end(), {t.stride(-2), t.stride(-1)});
  return t.as_strided(sizes, strides, t.offset());
}

// A view of t broadcast to `shape` (validated by check_broadcasts_to).
Tensor expand_to(const Tensor& t, const Shape& shape) {
  const size_t lead = shape.size() - static_cast<size_t>(t.dim());
  Shape strides(shape.size(), 0);
  for (size_t i = lead; i < shape.size(); ++i) {
    if (t.sizes()[i - lead] != 1) strides[i] = t.strides()[i - lead];
  }
  return t.as_strided(shape, strides, t.offset());
}

// Element offset of every batch entry of t (leading dims `batch`), in row-major order.
std::vector<int64_t> batch_offsets(const Tensor& t, const Shape& batch) {
  int64_t count = 1;
  for (int64_t s : batch) count *= s;
  std::vector<int64_t> offsets(static_cast<size_t>(count));
  std::vector<int64_t> index(batch.size(), 0);
  int64_t cur = 0;
  for (int64_t i = 0; i < count; ++i) {
    offsets[i] = cur;
    for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
      if (++index[d] < batch[d]) {
        cur += t.strides()[d];
        break;
      }
      cur -= (batch[d] - 1) * t.strides()[d];
      index[d] = 0;
    }
  }
  return offsets;
}

// The row stride when a's batch dims fold onto its rows (one (batch * m) x k matrix), else 0.
int64_t folded_row_stride(const Tensor& a, const Shape& batch) {
  const int64_t m = a.size(-2);
  int64_t row_stride = m > 1 ? a.stride(-2) : 0;
  int64_t expected = row_stride * m;
  for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
    if (batch[d] == 1) continue;
    if (row_stride == 0) {
      row_stride = a.strides()[d];
      expected = row_stride * batch[d];
      continue;
    }
    if (a.strides()[d] != expected) return 0;
    expected *= batch[d];
  }
  const bool row_major = a.stride(-1) == 1 || a.size(-1) == 1;
  return row_major && row_stride >= std::max<int64_t>(a.size(-1), 1) ? row_stride : 0;
}

template <typename T>
void call_gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha, const T* a,
               int64_t lda, const T* b, int64_t ldb, double beta, T* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float>) {
    blas_gemm_f32(ta, tb, m, n, k, static_cast<float>(alpha), a, lda, b, ldb,
                  static_cast<float>(beta), c, ldc);
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    blas_gemm_c64(ta, tb, m, n, k, T(static_cast<float>(alpha)), a, lda, b, ldb,
                  T(static_cast<float>(beta)), c, ldc);
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    blas_gemm_c128(ta, tb, m, n, k, T(alpha), a, lda, b, ldb, T(beta), c, ldc);
  } else {
    blas_gemm_f64(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

// NOTE: no parallel_for here: OpenBLAS runs its own threads and nesting would oversubscribe.
template <typename T>
void gemm_blas(Tensor a, Tensor b, const Tensor& c, const Shape& batch, double alpha, double beta) {
  const int64_t m = c.size(-2), n = c.size(-1), k = a.size(-1);
  if (!matrix_layout(a).ok) a = contiguous(a);  // only reached by callers that skip prepare
  if (!matrix_layout(b).ok) b = contiguous(b);
  const BlasLayout la = matrix_layout(a), lb = matrix_layout(b);
  const std::vector<int64_t> a_off = batch_offsets(a, batch), b_off = batch_offsets(b, batch);
  const int64_t count = static_cast<int64_t>(a_off.size());
  const bool b_shared = std::all_of(b_off.begin(), b_off.end(), [](int64_t o) { return o == 0; });
  if (count > 1 && b_shared) {
    // (batch..., m, k) @ (k, n): one tall GEMM beats many small ones.
    const int64_t rs = count * m <= 0x7fffffff ? folded_row_stride(a, batch) : 0;
    if (rs > 0) {
      call_gemm<T>(false, lb.trans, count * m, n, k, alpha, a.data<T>(), rs, b.data<T>(), lb.ld,
                   beta, c.data<T>(), n);
      return;
    }
  }
  for (int64_t i = 0; i < count; ++i) {
    call_gemm<T>(la.trans, lb.trans, m, n, k, alpha, a.data<T>() + a_off[i], la.ld,
                 b.data<T>() + b_off[i], lb.ld, beta, c.data<T>() + i * m * n, n);
  }
}

// Integers accumulate in their own width, unsigned so overflow is defined: the result wraps
// exactly like torch's. Floats and complex come here for k == 0 and for batches of tiny
// products.
template <typename T>
void gemm_loop(const Tensor& a, const Tensor& b, const Tensor& c, const Shape& batch, double alpha,
               double beta) {
  constexpr bool kFloatLike = std::is_floating_point_v<T> || is_complex_v<T>;
  using Acc =
      typename std::conditional_t<kFloatLike, std::type_identity<T>, std::make_unsigned<T>>::type;
  auto to_acc = [](auto v) -> Acc {
    if constexpr (kFloatLike) {
      return static_cast<Acc>(v);
    } else {
      return static_cast<Acc>(static_cast<int64_t>(v));
    }
  };
  if constexpr (!kFloatLike) {
    // Integer products truncate alpha and beta; a value past int64 (or nan) cannot be truncated
    // (converting it would be undefined behaviour).
    for (const double v : {alpha, beta}) {
      EMBER_CHECK(v >= -9.2233720368547758e18 && v < 9.2233720368547758e18, RuntimeError,
                  "[matmul] alpha and beta of an integer product must fit in int64, got ", v);
    }
  }
  const Acc alpha_acc = to_acc(alpha), beta_acc = to_acc(beta);
  const int64_t m = c.size(-2), n = c.size(-1), k = a.size(-1);
  const int64_t ars = a.stride(-2), acs = a.stride(-1), brs = b.stride(-2), bcs = b.stride(-1);
  const std::vector<int64_t> a_off = batch_offsets(a, batch), b_off = batch_offsets(b, batch);
  const int64_t rows = static_cast<int64_t>(a_off.size()) * m;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, n * k));
  const T* a_data = a.data<T>();
  const T* b_data = b.data<T>();
  T* c_data = c.data<T>();
  // Rows go in blocks of kRows sharing each load of a row of b: 4x less traffic over b.
  constexpr int64_t kRows = 4;
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    std::vector<Acc> acc(static_cast<size_t>(kRows * n));
    for (int64_t r = begin; r < end;) {
      const int64_t bi = r / m, i = r % m;
      const int64_t nrows = std::min({kRows, end - r, m - i});
      const T* a_rows = a_data + a_off[bi] + i * ars;
      const T* b_mat = b_data + b_off[bi];
      std::fill(acc.begin(), acc.end(), Acc(0));
      for (int64_t p = 0; p < k; ++p) {
        const T* b_row = b_mat + p * brs;
        for (int64_t q = 0; q < nrows; ++q) {
          const Acc av = to_acc(a_rows[q * ars + p * acs]);
          Acc* acc_row = acc.data() + q * n;
          if (bcs == 1) {
#pragma omp simd
            for (int64_t j = 0; j < n; ++j) acc_row[j] += static_cast<Acc>(av * to_acc(b_row[j]));
          } else {
            for (int64_t j = 0; j < n; ++j) {
              acc_row[j] += static_cast<Acc>(av * to_acc(b_row[j * bcs]));
            }
          }
        }
      }
      for (int64_t q = 0; q < nrows; ++q) {
        const Acc* acc_row = acc.data() + q * n;
        T* c_row = c_data + (r + q) * n;
        for (int64_t j = 0; j < n; ++j) {
          const Acc v = static_cast<Acc>(alpha_acc * acc_row[j]);
          c_row[j] =
              static_cast<T>(beta == 0 ? v : static_cast<Acc>(v + beta_acc * to_acc(c_row[j])));
        }
      }
      r += nrows;
    }
  });
}

// Products up to this many multiply-adds count as tiny (see gemm_batched).
constexpr int64_t kTinyGemm = 512;

// c[i] = alpha * a[i] @ b[i] + beta * c[i] for every batch entry i; a and b are broadcast views,
// c is a fresh contiguous (batch..., m, n) tensor; all of one compute dtype.
void gemm_batched(const Tensor& a, const Tensor& b, const Tensor& c, double alpha, double beta) {
  if (c.numel() == 0) return;
  const Shape batch(c.sizes().begin(), c.sizes().end() - 2);
  // Batches of tiny products skip BLAS: its per-call cost dwarfs a few multiply-adds.
  const int64_t m = c.size(-2), n = c.size(-1), k = a.size(-1);
  const bool tiny = c.numel() > m * n && m * n * k <= kTinyGemm;
  const bool blas = uses_blas(c.dtype()) && k > 0 && !tiny;
  visit_every_dtype(c.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || is_complex_v<T>) {
      if (blas) {
        gemm_blas<T>(a, b, c, batch, alpha, beta);
        return;
      }
    }
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, Half> ||
                  std::is_same_v<T, BFloat16>) {
      throw RuntimeError("[matmul] internal error: no GEMM for this compute dtype");
    } else {
      gemm_loop<T>(a, b, c, batch, alpha, beta);
    }
  });
}

// The driver every product uses. a: (a_batch..., m, k) and b: (b_batch..., k, n), validated;
// `batch` is their broadcast batch shape and `result_shape` has the numel of batch + [m, n].
// Computes alpha * a @ b + beta * input (input broadcasts to result_shape) into `out` if given.
Tensor product(const char* op, const Tensor& a_in, const Tensor& b_in, const Shape& batch,
               const Shape& result_shape, const Tensor& input, double beta, double alpha,
               const Tensor& out) {
  const ScalarType dt = a_in.dtype(), cdt = compute_dtype(dt);
  Shape full = batch;
  full.insert(full.end(), {a_in.size(-2), b_in.size(-1)});
  checked_numel(full, op);
  if (out.defined()) {
    check_out(out, dt, op, {.dtype = OutDtype::kExact});
    resize_out(out, result_shape, op);
  }
  // Write straight into `out` unless it needs a cast or a relayout, or BLAS would read it.
  const bool direct = out.defined() && cdt == dt && out.is_contiguous() &&
                      out.storage() != a_in.storage() && out.storage() != b_in.storage();
  const Tensor c = direct ? out.as_strided(full, contiguous_strides(full), out.offset())
                          : Tensor::empty(full, cdt);
  const bool use_input = input.defined() && beta != 0;
  if (use_input) {
    copy_(c.as_strided(result_shape, contiguous_strides(result_shape), c.offset()),
          expand_to(input, result_shape));
  }
  gemm_batched(expand_batch(prepare_operand(a_in), batch),
               expand_batch(prepare_operand(b_in), batch), c, alpha, use_input ? beta : 0.0);
  if (direct) {
    out.bump_version();
    return out;
  }
  const Tensor result = c.as_strided(result_shape, contiguous_strides(result_shape), c.offset());
  if (out.defined()) {
    copy_(out, result);
    return out;
  }
  return to_dtype(result, dt);
}

void check_pair_dtypes(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK(a.dtype() == b.dtype(), RuntimeError, "[", op,
              "] expected m1 and m2 to have the same dtype, but got ", dtype_name(a.dtype()),
              " != ", dtype_name(b.dtype()), " for inputs with shapes ", a.sizes(), " and ",
              b.sizes());
  EMBER_CHECK(a.dtype() != ScalarType::Bool, TypeError, "[", op,
              "] not supported for dtype bool (inputs with shapes ", a.sizes(), " and ", b.sizes(),
              ")");
}

// a's last dim against b's second-to-last (or only) dim.
void check_inner(const char* op, const Tensor& a, const Tensor& b) {
  const bool vec = b.dim() == 1;
  EMBER_CHECK(a.size(-1) == b.size(vec ? 0 : -2), RuntimeError, "[", op,
              "] Last dimension of first input with shape ", a.sizes(), " must match ",
              vec ? "the length" : "second-to-last dimension", " of second input with shape ",
              b.sizes());
}

void check_input_dtype(const char* op, const Tensor& input, const Tensor& mat) {
  EMBER_CHECK(input.dtype() == mat.dtype(), RuntimeError, "[", op,
              "] input and matrices must have the same dtype, but got ", dtype_name(input.dtype()),
              " and ", dtype_name(mat.dtype()), " (input with shape ", input.sizes(), ")");
}

// `input` must broadcast to `shape` (not the other way round).
void check_broadcasts_to(const char* op, const Tensor& input, const Shape& shape) {
  bool ok = static_cast<size_t>(input.dim()) <= shape.size();
  for (int64_t i = 1; ok && i <= input.dim(); ++i) {
    const int64_t s = input.sizes()[input.dim() - i];
    ok = s == 1 || s == shape[shape.size() - i];
  }
  EMBER_CHECK(ok, RuntimeError, "[", op, "] input with shape ", input.sizes(),
              " cannot be broadcast to the result shape ", shape);
}

void check_in_place(const char* op, const Tensor& self, const Shape& shape) {
  EMBER_CHECK(self.sizes() == shape, RuntimeError, "[", op, "] self with shape ", self.sizes(),
              " must have the result shape ", shape, " for an in-place update");
}

// (n,) viewed as a (1, n) row or an (n, 1) column.
Tensor as_row(const Tensor& v) {
  return v.as_strided({1, v.size(0)}, {v.size(0) * v.stride(0), v.stride(0)}, v.offset());
}
Tensor as_column(const Tensor& v) {
  return v.as_strided({v.size(0), 1}, {v.stride(0), 1}, v.offset());
}

Shape broadcast_batch(const char* op, const Tensor& a, const Tensor& b, const Tensor& a2,
                      const Tensor& b2) {
  const Shape ba(a2.sizes().begin(), a2.sizes().end() - 2);
  const Shape bb(b2.sizes().begin(), b2.sizes().end() - 2);
  const size_t n = std::max(ba.size(), bb.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - ba.size() ? 1 : ba[i - (n - ba.size())];
    const int64_t db = i < n - bb.size() ? 1 : bb[i - (n - bb.size())];
    EMBER_CHECK(da == db || da == 1 || db == 1, RuntimeError, "[", op,
                "] Batch dimensions of first input with shape ", a.sizes(),
                " and second input with shape ", b.sizes(), " cannot be broadcast together");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

void check_mm_args(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK(a.dim() == 2 && b.dim() == 2, RuntimeError, "[", op,
              "] expected 2-D matrices, but got inputs with shapes ", a.sizes(), " and ",
              b.sizes());
  check_pair_dtypes(op, a, b);
  check_inner(op, a, b);
}

void check_bmm_args(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK(a.dim() == 3 && b.dim() == 3, RuntimeError, "[", op,
              "] expected 3-D batches of matrices, but got inputs with shapes ", a.sizes(), " and ",
              b.sizes());
  check_pair_dtypes(op, a, b);
  EMBER_CHECK(a.size(0) == b.size(0), RuntimeError, "[", op,
              "] Batch size of first input with shape ", a.sizes(),
              " must match batch size of second input with shape ", b.sizes());
  check_inner(op, a, b);
}

void check_mv_args(const char* op, const Tensor& a, const Tensor& v) {
  EMBER_CHECK(a.dim() == 2 && v.dim() == 1, RuntimeError, "[", op,
              "] expected a 2-D matrix and a 1-D vector, but got inputs with shapes ", a.sizes(),
              " and ", v.sizes());
  check_pair_dtypes(op, a, v);
  check_inner(op, a, v);
}

Tensor dot_impl(const char* op, const Tensor& a, const Tensor& b, const Tensor& out) {
  EMBER_CHECK(a.dim() == 1 && b.dim() == 1, RuntimeError, "[", op,
              "] 1D tensors expected, but got inputs with shapes ", a.sizes(), " and ", b.sizes());
  EMBER_CHECK(a.dtype() == b.dtype(), RuntimeError, "[", op,
              "] expected both vectors to have same dtype, but found ", dtype_name(a.dtype()),
              " and ", dtype_name(b.dtype()), " (shapes ", a.sizes(), " and ", b.sizes(), ")");
  EMBER_CHECK(a.dtype() != ScalarType::Bool, TypeError, "[", op,
              "] not supported for dtype bool (inputs with shapes ", a.sizes(), " and ", b.sizes(),
              ")");
  EMBER_CHECK(a.size(0) == b.size(0), RuntimeError, "[", op,
              "] inconsistent tensor size: first input with shape ", a.sizes(),
              " and second input with shape ", b.sizes(), " must have the same number of elements");
  return product(op, as_row(a), as_column(b), {}, {}, {}, 0, 1, out);
}

Tensor addmm_impl(const char* op, const Tensor& input, const Tensor& m1, const Tensor& m2,
                  double beta, double alpha, const Tensor& out, bool in_place) {
  check_mm_args(op, m1, m2);
  check_input_dtype(op, input, m1);
  const Shape shape{m1.size(0), m2.size(1)};
  if (in_place) check_in_place(op, input, shape);
  check_broadcasts_to(op, input, shape);
  return product(op, m1, m2, {}, shape, input, beta, alpha, out);
}

Tensor addmv_impl(const char* op, const Tensor& input, const Tensor& mat, const Tensor& vec,
                  double beta, double alpha, const Tensor& out, bool in_place) {
  check_mv_args(op, mat, vec);
  check_input_dtype(op, input, mat);
  const Shape shape{mat.size(0)};
  if (in_place) check_in_place(op, input, shape);
  check_broadcasts_to(op, input, shape);
  return product(op, mat, as_column(vec), {}, shape, input, beta, alpha, out);
}

Tensor baddbmm_impl(const char* op, const Tensor& input, const Tensor& b1, const Tensor& b2,
                    double beta, double alpha, const Tensor& out, bool in_place) {
  check_bmm_args(op, b1, b2);
  check_input_dtype(op, input, b1);
  const Shape shape{b1.size(0), b1.size(1), b2.size(2)};
  if (in_place) check_in_place(op, input, shape);
  check_broadcasts_to(op, input, shape);
  return product(op, b1, b2, {b1.size(0)}, shape, input, beta, alpha, out);
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b, const Tensor& out) {
  EMBER_CHECK(a.dim() >= 1 && b.dim() >= 1, RuntimeError,
              "[matmul] both arguments to matmul need to be at least 1-D, but got inputs with "
              "shapes ",
              a.sizes(), " and ", b.sizes());
  check_pair_dtypes("matmul", a, b);
  check_inner("matmul", a, b);
  const Tensor a2 = a.dim() == 1 ? as_row(a) : a;
  const Tensor b2 = b.dim() == 1 ? as_column(b) : b;
  const Shape batch = broadcast_batch("matmul", a, b, a2, b2);
  Shape result_shape = batch;
  if (a.dim() > 1) result_shape.push_back(a2.size(-2));
  if (b.dim() > 1) result_shape.push_back(b2.size(-1));
  return product("matmul", a2, b2, batch, result_shape, {}, 0, 1, out);
}

Tensor mm(const Tensor& a, const Tensor& b, const Tensor& out) {
  check_mm_args("mm", a, b);
  return product("mm", a, b, {}, {a.size(0), b.size(1)}, {}, 0, 1, out);
}

Tensor bmm(const Tensor& a, const Tensor& b, const Tensor& out) {
  check_bmm_args("bmm", a, b);
  return product("bmm", a, b, {a.size(0)}, {a.size(0), a.size(1), b.size(2)}, {}, 0, 1, out);
}

Tensor mv(const Tensor& a, const Tensor& v, const Tensor& out) {
  check_mv_args("mv", a, v);
  return product("mv", a, as_column(v), {}, {a.size(0)}, {}, 0, 1, out);
}

Tensor dot(const Tensor& a, const Tensor& b, const Tensor& out) {
  return dot_impl("dot", a, b, out);
}

Tensor vdot(const Tensor& a, const Tensor& b, const Tensor& out) {
  // vdot conjugates its first argument (a no-op on real dtypes).
  return dot_impl("vdot", conj_physical(a, Tensor()), b, out);  // conj() is a lazy view
}

Tensor outer(const Tensor& a, const Tensor& b, const Tensor& out) {
  EMBER_CHECK(a.dim() == 1 && b.dim() == 1, RuntimeError,
              "[outer] expected 1-D inputs, but got inputs with shapes ", a.sizes(), " and ",
              b.sizes());
  return binary(BinaryOp::Mul, as_column(a), as_row(b), out);
}

Tensor addmm(const Tensor& input, const Tensor& m1, const Tensor& m2, double beta, double alpha,
             const Tensor& out) {
  return addmm_impl("addmm", input, m1, m2, beta, alpha, out, false);
}

Tensor addmv(const Tensor& input, const Tensor& mat, const Tensor& vec, double beta, double alpha,
             const Tensor& out) {
  return addmv_impl("addmv", input, mat, vec, beta, alpha, out, false);
}

Tensor baddbmm(const Tensor& input, const Tensor& b1, const Tensor& b2, double beta, double alpha,
               const Tensor& out) {
  return baddbmm_impl("baddbmm", input, b1, b2, beta, alpha, out, false);
}

const Tensor& addmm_(const Tensor& self, const Tensor& m1, const Tensor& m2, double beta,
                     double alpha) {
  addmm_impl("addmm_", self, m1, m2, beta, alpha, self, true);
  return self;
}

const Tensor& addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, double beta,
                     double alpha) {
  addmv_impl("addmv_", self, mat, vec, beta, alpha, self, true);
  return self;
}

const Tensor& baddbmm_(const Tensor& self, const Tensor& b1, const Tensor& b2, double beta,
                       double alpha) {
  baddbmm_impl("baddbmm_", self, b1, b2, beta, alpha, self, true);
  return self;
}

Tensor tensordot(const Tensor& a, const Tensor& b, const std::vector<int64_t>& dims_a,
                 const std::vector<int64_t>& dims_b, const Tensor& out) {
  EMBER_CHECK(dims_a.size() == dims_b.size(), RuntimeError,
              "[tensordot] both dimension lists should have same length, but got ", dims_a.size(),
              " and ", dims_b.size(), " dims for inputs with shapes ", a.sizes(), " and ",
              b.sizes());
  EMBER_CHECK(a.dtype() == b.dtype(), RuntimeError,
              "[tensordot] both inputs should have same dtype, but got ", dtype_name(a.dtype()),
              " and ", dtype_name(b.dtype()), " (shapes ", a.sizes(), " and ", b.sizes(), ")");
  EMBER_CHECK(a.dtype() != ScalarType::Bool, TypeError,
              "[tensordot] not supported for dtype bool (inputs with shapes ", a.sizes(), " and ",
              b.sizes(), ")");
  std::vector<bool> used_a(a.dim(), false), used_b(b.dim(), false);
  // Contracted size-1 dims broadcast against the other side, as in torch.
  Shape a_sizes = a.sizes(), a_strides = a.strides(), b_sizes = b.sizes(), b_strides = b.strides();
  std::vector<int64_t> perm_a, perm_b;
  int64_t contracted = 1;
  for (size_t i = 0; i < dims_a.size(); ++i) {
    const int64_t da = wrap_dim(dims_a[i], a.dim(), "tensordot");
    const int64_t db = wrap_dim(dims_b[i], b.dim(), "tensordot");
    EMBER_CHECK(!used_a[da], RuntimeError, "[tensordot] dim ", dims_a[i],
                " appears multiple times in the list of dims for the first input with shape ",
                a.sizes());
    EMBER_CHECK(!used_b[db], RuntimeError, "[tensordot] dim ", dims_b[i],
                " appears multiple times in the list of dims for the second input with shape ",
                b.sizes());
    used_a[da] = used_b[db] = true;
    const int64_t sa = a_sizes[da], sb = b_sizes[db];
    EMBER_CHECK(sa == sb || sa == 1 || sb == 1, RuntimeError,
                "[tensordot] contracted dimensions need to match, but first input with shape ",
                a.sizes(), " has size ", sa, " in dim ", dims_a[i], " and second input with shape ",
                b.sizes(), " has size ", sb, " in dim ", dims_b[i]);
    if (sa == 1) a_sizes[da] = sb, a_strides[da] = 0;
    if (sb == 1) b_sizes[db] = sa, b_strides[db] = 0;
    contracted *= std::max(sa, sb);
    perm_a.push_back(da);
    perm_b.push_back(db);
  }
  Shape result_shape;
  std::vector<int64_t> free_a, free_b;
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (used_a[d]) continue;
    free_a.push_back(d);
    result_shape.push_back(a_sizes[d]);
    rows *= a_sizes[d];
  }
  for (int64_t d = 0; d < b.dim(); ++d) {
    if (used_b[d]) continue;
    free_b.push_back(d);
    result_shape.push_back(b_sizes[d]);
    cols *= b_sizes[d];
  }
  perm_a.insert(perm_a.begin(), free_a.begin(), free_a.end());
  perm_b.insert(perm_b.end(), free_b.begin(), free_b.end());
  const Tensor a_exp = a.as_strided(a_sizes, a_strides, a.offset());
  const Tensor b_exp = b.as_strided(b_sizes, b_strides, b.offset());
  const Tensor a2 = reshape(permute(a_exp, perm_a), {rows, contracted});
  const Tensor b2 = reshape(permute(b_exp, perm_b), {contracted, cols});
  return product("tensordot", a2, b2, {}, result_shape, {}, 0, 1, out);
}

Tensor tensordot_n(const Tensor& a, const Tensor& b, int64_t dims, const Tensor& out) {
  EMBER_CHECK(dims >= 0, RuntimeError, "[tensordot] expects dims >= 0, but got dims=", dims);
  EMBER_CHECK(dims <= a.dim() && dims <= b.dim(), RuntimeError, "[tensordot] dims=", dims,
              " exceeds the number of dims of the inputs with shapes ", a.sizes(), " and ",
              b.sizes());
  std::vector<int64_t> dims_a, dims_b;
  for (int64_t i = 0; i < dims; ++i) {
    dims_a.push_back(a.dim() - dims + i);
    dims_b.push_back(i);
  }
  return tensordot(a, b, dims_a, dims_b, out);
}

}  // namespace ember
