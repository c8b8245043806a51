// LU-based ops (lu_factor, lu_solve, lu_unpack, solve, inv, det, slogdet) and Cholesky.
//
// LAPACK reads column-major matrices. A row-major copy of A is, to LAPACK, A^T: inv, solve, det
// and cholesky work on that copy directly (inv(A^T) read back row-major is inv(A); A X = B is
// (A^T)^T X = B; det(A^T) = det(A); a symmetric matrix's triangles swap), which saves the
// transposing copies. Only ops whose factors are returned (lu_factor) copy A column-major.
#include <cmath>
#include <limits>

#include "ember/lapack.h"
#include "ember/ops.h"
#include "linalg_lapack_util.h"

namespace ember {

using namespace linalg_detail;

namespace {

// Raises unless every pivot lies in [1, rows]: LAPACK would read out of bounds otherwise.
void check_pivots(const Tensor& pivots, int64_t rows, const char* op) {
  const int32_t* p = pivots.data<int32_t>();
  for (int64_t i = 0; i < pivots.numel(); ++i) {
    EMBER_CHECK(p[i] >= 1 && p[i] <= rows, RuntimeError, "[", op, "] pivots must lie in [1, ", rows,
                "] (as returned by lu_factor), but one is ", p[i]);
  }
}

void check_pivot_dtype(const Tensor& pivots, const char* op) {
  EMBER_CHECK(pivots.dtype() == ScalarType::Int32, TypeError, "[", op,
              "] pivots should be a tensor of dtype int32, got ", dtype_name(pivots.dtype()));
}

std::string shapes_text(const Tensor& a, const Tensor& b) {
  return str("(", a.size(-2), "x", a.size(-1), " and ", b.size(-2), "x", b.size(-1), ")");
}

}  // namespace

Tensor3 linalg_lu_factor_ex(const Tensor& A, bool pivot, bool check_errors, const char* op) {
  check_matrix(A, op);
  check_float(A, op);
  EMBER_CHECK(pivot, RuntimeError, "[", op, "] LU without pivoting is not implemented on the CPU");
  const Shape batch = batch_shape(A);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n), count = batch_count(batch);
  Tensor lu = column_major_copy(A, A.sizes());
  Shape pivot_shape = batch;
  pivot_shape.push_back(k);
  Tensor pivots = Tensor::empty(pivot_shape, ScalarType::Int32);
  Tensor info = empty_info(batch);
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* data = lu.data<T>();
    int32_t* piv = pivots.data<int32_t>();
    int32_t* infos = info.data<int32_t>();
    for_each_matrix(count, m * n * k, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        infos[i] = k == 0 ? 0 : lapack::getrf<T>(m, n, data + i * m * n, m, piv + i * k);
        check_arguments(infos[i], op, "getrf");
      }
    });
  });
  if (check_errors) {
    raise_on_info(info, A.dim() > 2, op, [](int i) {
      return str("U[", i, ",", i,
                 "] is zero and using it on lu_solve would result in a division by zero. If you "
                 "still want to perform the factorization, consider calling linalg.lu(A, pivot) "
                 "or linalg.lu_factor_ex(A, pivot)");
    });
  }
  return {row_major_copy(lu, lu.sizes()), pivots, info};
}

Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left,
                       bool adjoint, const char* op) {
  check_square(LU, op, "LU");
  check_float(LU, op);
  check_matrix(B, op, "B");
  check_pivot_dtype(pivots, op);
  EMBER_CHECK(LU.dtype() == B.dtype(), RuntimeError, "[", op,
              "] Expected LU and B to have the same dtype, but found LU of type ",
              dtype_name(LU.dtype()), " and B of type ", dtype_name(B.dtype()), " instead");
  const int64_t n = LU.size(-1);
  const Shape lu_rows(LU.sizes().begin(), LU.sizes().end() - 1);
  EMBER_CHECK(pivots.sizes() == lu_rows, RuntimeError, "[", op,
              "] Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with "
              "shape ",
              pivots.sizes(), " and LU with shape ", LU.sizes());
  EMBER_CHECK((left ? B.size(-2) : B.size(-1)) == n, RuntimeError, "[", op,
              "] Incompatible shapes of A and B for the equation ", left ? "AX = B " : "XA = B ",
              shapes_text(LU, B));
  const Shape batch = broadcast_batch(batch_shape(LU), batch_shape(B), op);
  const int64_t k = left ? B.size(-1) : B.size(-2), count = batch_count(batch);
  Shape piv_shape = batch;
  piv_shape.push_back(n);
  const Tensor piv = row_major_copy(pivots, piv_shape);
  check_pivots(piv, n, op);
  const Tensor lu = column_major_copy(LU, matrix_shape(batch, n, n));
  // X op(A) = B is op(A)^T X^T = B^T, and B row-major is B^T column-major: no transposes.
  const Tensor b = left ? column_major_copy(B, matrix_shape(batch, n, k))
                        : row_major_copy(B, matrix_shape(batch, k, n));
  const char trans = left != adjoint ? 'N' : 'T';
  dispatch_float(LU.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (n == 0 || k == 0) return;
    for_each_rhs_block(count, k, n * n * k, [&](int64_t i, int64_t col0, int64_t cols) {
      check_arguments(
          lapack::getrs<T>(trans, n, cols, lu.data<T>() + i * n * n, n, piv.data<int32_t>() + i * n,
                           b.data<T>() + i * n * k + col0 * n, n),
          op, "getrs");
    });
  });
  return left ? row_major_copy(b, b.sizes()) : b;
}

Tensor3 lu_unpack(const Tensor& LU, const Tensor& pivots, bool unpack_data, bool unpack_pivots,
                  const char* op) {
  check_matrix(LU, op, "LU_data");
  check_pivot_dtype(pivots, op);
  const int64_t m = LU.size(-2), n = LU.size(-1), k = std::min(m, n);
  const Shape batch = batch_shape(LU);
  Shape piv_shape = batch;
  piv_shape.push_back(k);
  EMBER_CHECK(pivots.sizes() == piv_shape, RuntimeError, "[", op, "] pivots of shape ",
              pivots.sizes(), " do not match LU_data of shape ", LU.sizes(), " (expected ",
              piv_shape, ")");
  const int64_t count = batch_count(batch);
  Tensor P, L, U;
  if (unpack_data) {
    EMBER_CHECK(is_floating(LU.dtype()), TypeError, "[", op,
                "] LU_data must be a floating point tensor, got ", dtype_name(LU.dtype()));
    L = tril(narrow(LU, -1, 0, k), -1);
    // The unit diagonal of L.
    fill_(diagonal(L, 0, -2, -1), 1.0);
    U = triu(narrow(LU, -2, 0, k), 0);
  }
  if (unpack_pivots) {
    const Tensor piv = row_major_copy(pivots, piv_shape);
    check_pivots(piv, m, op);
    P = zeros(matrix_shape(batch, m, m),
              is_floating(LU.dtype()) ? LU.dtype() : ScalarType::Float32);
    for_each_matrix(count, m * m, [&](int64_t begin, int64_t end) {
      std::vector<int64_t> perm(static_cast<size_t>(m));
      for (int64_t b = begin; b < end; ++b) {
        // The row swaps applied in order give P^T A = L U; P[perm[i], i] = 1.
        for (int64_t i = 0; i < m; ++i) perm[i] = i;
        const int32_t* p = piv.data<int32_t>() + b * k;
        for (int64_t i = 0; i < k; ++i) std::swap(perm[i], perm[p[i] - 1]);
        dispatch_float(P.dtype(), [&](auto tag) {
          using T = decltype(tag);
          T* out = P.data<T>() + b * m * m;
          for (int64_t i = 0; i < m; ++i) out[perm[i] * m + i] = T(1);
        });
      }
    });
  }
  auto or_empty = [&](const Tensor& t) { return t.defined() ? t : Tensor::empty({0}, LU.dtype()); };
  return {or_empty(P), or_empty(L), or_empty(U)};
}

Tensor2 linalg_solve_ex(const Tensor& A, const Tensor& B, bool left, bool check_errors,
                        const char* op) {
  check_square(A, op);
  check_float_or_complex(A, op);
  check_same_dtype(A, B, op);
  EMBER_CHECK(B.dim() >= 1, RuntimeError, "[", op,
              "] The input tensor B must have at least 1 dimension.");
  // torch's rule: B is a (batch of) vector(s) when it is 1-D or has A's shape minus one dim.
  const Shape a_rows(A.sizes().begin(), A.sizes().end() - 1);
  const bool vector = B.dim() == 1 || (B.dim() == A.dim() - 1 && B.sizes() == a_rows);
  EMBER_CHECK(!(vector && !left), RuntimeError, "[", op,
              "] Vector broadcasting of the left hand side is not supported for left=False. In "
              "this case linalg.solve is equivalent to B / A.squeeze(-1)");
  const Tensor B2 = vector ? unsqueeze(B, -1) : B;
  EMBER_CHECK((left ? B2.size(-2) : B2.size(-1)) == A.size(-1), RuntimeError, "[", op,
              "] Incompatible shapes of A and B for the equation ", left ? "AX = B " : "XA = B ",
              shapes_text(A, B2));
  // X A = B is A^T X^T = B^T.
  const Tensor a_in = left ? A : mT(A), b_in = left ? B2 : mT(B2);
  const int64_t n = A.size(-1), k = b_in.size(-1);
  const Shape batch = broadcast_batch(batch_shape(a_in), batch_shape(b_in), op);
  const int64_t count = batch_count(batch);
  // Row-major a is a_in^T to LAPACK: getrs('T') then solves a_in X = b.
  const Tensor a = row_major_copy(a_in, matrix_shape(batch, n, n));
  const Tensor b = column_major_copy(b_in, matrix_shape(batch, n, k));
  Tensor info = empty_info(batch);
  dispatch_float_or_complex(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int32_t* infos = info.data<int32_t>();
    std::vector<int> piv(static_cast<size_t>(count * n));
    for_each_matrix(count, n * n * n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        infos[i] = n == 0 ? 0 : lapack::getrf<T>(n, n, a.data<T>() + i * n * n, n, &piv[i * n]);
        check_arguments(infos[i], op, "getrf");
      }
    });
    if (n == 0 || k == 0) return;
    // A singular matrix still gets a (non-finite) solution, as in torch.
    for_each_rhs_block(count, k, n * n * k, [&](int64_t i, int64_t col0, int64_t cols) {
      check_arguments(lapack::getrs<T>('T', n, cols, a.data<T>() + i * n * n, n, &piv[i * n],
                                       b.data<T>() + i * n * k + col0 * n, n),
                      op, "getrs");
    });
  });
  if (check_errors) {
    raise_on_info(info, A.dim() > 2, op,
                  [](int) { return "The solver failed because the input matrix is singular."; });
  }
  Tensor x = left ? row_major_copy(b, b.sizes()) : contiguous(mT(b));
  return {vector ? select(x, -1, 0) : x, info};
}

Tensor2 linalg_inv_ex(const Tensor& A, bool check_errors, const char* op) {
  check_square(A, op);
  check_float_or_complex(A, op);
  const Shape batch = batch_shape(A);
  const int64_t n = A.size(-1), count = batch_count(batch);
  // LAPACK factors the row-major copy, A^T; inv(A^T) read back row-major is inv(A).
  Tensor a = row_major_copy(A, A.sizes());
  Tensor info = empty_info(batch);
  // getri (4/3 n^3 after the LU) runs on one thread; solving A^T X = I by blocks of columns
  // (2 n^3) uses the whole pool, which wins when the batch is too small to occupy it.
  const bool by_columns = count < get_num_threads() && n >= 128 && !in_parallel_region();
  Tensor x = by_columns ? zeros(A.sizes(), A.dtype()) : a;
  if (by_columns) fill_(diagonal(x, 0, -2, -1), 1.0);
  dispatch_float_or_complex(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (n == 0) {
      fill_int_(info, 0);
      return;
    }
    T query = 0;
    check_arguments(lapack::getri<T>(n, nullptr, n, nullptr, &query, -1), op, "getri");
    const int lwork = workspace_size(query);
    int32_t* infos = info.data<int32_t>();
    std::vector<int> piv(static_cast<size_t>(count * n));
    for_each_matrix(count, n * n * n, [&](int64_t begin, int64_t end) {
      std::vector<T> work(by_columns ? 0 : static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        T* ai = a.data<T>() + i * n * n;
        infos[i] = lapack::getrf<T>(n, n, ai, n, &piv[i * n]);
        check_arguments(infos[i], op, "getrf");
        if (!by_columns && infos[i] == 0) {
          check_arguments(lapack::getri<T>(n, ai, n, &piv[i * n], work.data(), lwork), op, "getri");
        }
      }
    });
    if (!by_columns) return;
    for_each_rhs_block(count, n, n * n * n, [&](int64_t i, int64_t col0, int64_t cols) {
      check_arguments(lapack::getrs<T>('N', n, cols, a.data<T>() + i * n * n, n, &piv[i * n],
                                       x.data<T>() + i * n * n + col0 * n, n),
                      op, "getrs");
    });
  });
  if (check_errors) {
    raise_on_info(info, A.dim() > 2, op, [](int i) {
      return str("The diagonal element ", i,
                 " is zero, the inversion could not be completed because the input matrix is "
                 "singular.");
    });
  }
  return {x, info};
}

Tensor2 linalg_cholesky_ex(const Tensor& A, bool upper, bool check_errors, const char* op) {
  check_square(A, op);
  check_float(A, op);
  const Shape batch = batch_shape(A);
  const int64_t n = A.size(-1), count = batch_count(batch);
  Tensor a = row_major_copy(A, A.sizes());
  Tensor info = empty_info(batch);
  // To LAPACK the row-major copy is A^T, whose upper triangle is A's lower one.
  const char uplo = upper ? 'L' : 'U';
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int32_t* infos = info.data<int32_t>();
    for_each_matrix(count, n * n * n, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        T* ai = a.data<T>() + i * n * n;
        infos[i] = n == 0 ? 0 : lapack::potrf<T>(uplo, n, ai, n);
        check_arguments(infos[i], op, "potrf");
        // Zero the triangle LAPACK did not touch.
        for (int64_t r = 0; r < n; ++r) {
          T* row = ai + r * n;
          if (upper) {
            std::fill(row, row + r, T(0));
          } else {
            std::fill(row + r + 1, row + n, T(0));
          }
        }
      }
    });
  });
  if (check_errors) {
    raise_on_info(info, A.dim() > 2, op, [](int i) {
      return str(
          "The factorization could not be completed because the input is not "
          "positive-definite (the leading minor of order ",
          i, " is not positive-definite).");
    });
  }
  return {a, info};
}

namespace {

// LU-factors every matrix of A (as A^T, which has the same determinant) and calls
// fn(i, diag, n, odd) with matrix i's U diagonal (stride n + 1) and whether P is an odd
// permutation.
template <typename T, typename Fn>
void for_each_lu_diagonal(const Tensor& A, const char* op, Fn fn) {
  const int64_t n = A.size(-1), count = batch_count(batch_shape(A));
  const Tensor a = row_major_copy(A, A.sizes());
  for_each_matrix(count, n * n * n, [&](int64_t begin, int64_t end) {
    std::vector<int> piv(static_cast<size_t>(std::max<int64_t>(n, 1)));
    for (int64_t i = begin; i < end; ++i) {
      T* ai = a.data<T>() + i * n * n;
      if (n > 0) check_arguments(lapack::getrf<T>(n, n, ai, n, piv.data()), op, "getrf");
      bool odd = false;
      for (int64_t j = 0; j < n; ++j) odd ^= piv[j] != j + 1;
      fn(i, ai, n, odd);
    }
  });
}

}  // namespace

Tensor2 linalg_slogdet(const Tensor& A, const char* op) {
  check_square(A, op);
  check_float(A, op);
  const Shape batch = batch_shape(A);
  Tensor sign = Tensor::empty(batch, A.dtype()), logabsdet = Tensor::empty(batch, A.dtype());
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for_each_lu_diagonal<T>(A, op, [&](int64_t i, const T* lu, int64_t n, bool odd) {
      T s = odd ? T(-1) : T(1), log_abs = T(0);
      for (int64_t j = 0; j < n; ++j) {
        const T u = lu[j * (n + 1)];
        // NaN stays NaN; a zero pivot gives sign 0 and log|det| = -inf.
        s *= u > 0 ? T(1) : u < 0 ? T(-1) : u == 0 ? T(0) : u;
        log_abs += std::log(std::abs(u));
      }
      sign.data<T>()[i] = s;
      logabsdet.data<T>()[i] = log_abs;
    });
  });
  return {sign, logabsdet};
}

Tensor linalg_det(const Tensor& A, const char* op) {
  check_square(A, op);
  check_float_or_complex(A, op);
  Tensor det = Tensor::empty(batch_shape(A), A.dtype());
  dispatch_float_or_complex(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for_each_lu_diagonal<T>(A, op, [&](int64_t i, const T* lu, int64_t n, bool odd) {
      T d = odd ? T(-1) : T(1);
      for (int64_t j = 0; j < n; ++j) d *= lu[j * (n + 1)];
      det.data<T>()[i] = d;
    });
  });
  return det;
}

}  // namespace ember
