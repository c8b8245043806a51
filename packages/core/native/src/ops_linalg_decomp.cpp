// QR, SVD, the symmetric eigendecomposition and least squares through LAPACK.
//
// svd and eigh hand LAPACK the row-major copy of A, which LAPACK reads as A^T: the SVD of A^T
// gives A's U and Vh already row-major (they swap places), and a symmetric A^T is A with its
// triangles swapped. qr and lstsq need A itself, so they copy it column-major.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ember/lapack.h"
#include "ember/ops.h"
#include "linalg_lapack_util.h"

namespace ember {

using namespace linalg_detail;

namespace {

Tensor empty_vector(ScalarType dtype) { return Tensor::empty({0}, dtype); }

Shape append(Shape shape, int64_t size) {
  shape.push_back(size);
  return shape;
}

// gesdd's own steps for one matrix b (M x N, column-major, overwritten) with the reduced
// factors: u (M x k, ld M), s (k), vt (k x N, ld k). gesdd runs them on one thread; here the
// last step, applying the reflectors of the bidiagonal reduction to the bidiagonal SVD's
// vectors, is split over the pool (column blocks of u, row blocks of vt are independent).
// Measured at 512^2 float64, one thread: gebrd 23 ms, bdsdc 18 ms, ormbr 8 + 6 ms.
// Returns LAPACK's info: -4 for a non-finite input (gesdd's answer), > 0 when bdsdc fails.
template <typename T>
int svd_in_steps(int M, int N, T* b, T* s, T* u, T* vt) {
  const int k = std::min(M, N);
  for (int64_t i = 0; i < int64_t{M} * N; ++i) {
    if (!std::isfinite(b[i])) return -4;
  }
  std::vector<T> e(static_cast<size_t>(k)), tauq(static_cast<size_t>(k)),
      taup(static_cast<size_t>(k));
  T query = 0;
  lapack::gebrd<T>(M, N, b, M, s, e.data(), tauq.data(), taup.data(), &query, -1);
  std::vector<T> work(static_cast<size_t>(workspace_size(query)));
  int info = lapack::gebrd<T>(M, N, b, M, s, e.data(), tauq.data(), taup.data(), work.data(),
                              static_cast<int>(work.size()));
  if (info != 0) return info;
  // The bidiagonal SVD's k x k vectors go in the top-left corners of u and vt; zeros elsewhere.
  std::vector<T> ub(static_cast<size_t>(k) * k), vtb(static_cast<size_t>(k) * k);
  work.assign(static_cast<size_t>(3) * k * k + 4 * k, T(0));
  std::vector<int> iwork(static_cast<size_t>(8) * k);
  info = lapack::bdsdc<T>(M >= N ? 'U' : 'L', k, s, e.data(), ub.data(), k, vtb.data(), k,
                          work.data(), iwork.data());
  if (info != 0) return info;
  std::fill(u, u + int64_t{M} * k, T(0));
  std::fill(vt, vt + int64_t{k} * N, T(0));
  for (int c = 0; c < k; ++c) {
    std::copy(ub.data() + int64_t{c} * k, ub.data() + int64_t{c + 1} * k, u + int64_t{c} * M);
    std::copy(vtb.data() + int64_t{c} * k, vtb.data() + int64_t{c + 1} * k, vt + int64_t{c} * k);
  }
  // Tasks 0..blocks-1: u = Q u on a block of columns; blocks..2*blocks-1: vt = vt P^T on rows.
  const int blocks = static_cast<int>(std::clamp<int64_t>(k / 32, 1, get_num_threads()));
  std::vector<int> infos(static_cast<size_t>(2 * blocks), 0);
  parallel_for(0, 2 * blocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const bool left = t < blocks;
      const int64_t block = left ? t : t - blocks;
      const int first = static_cast<int>(k * block / blocks);
      const int size = static_cast<int>(k * (block + 1) / blocks) - first;
      if (size == 0) continue;
      T q = 0;
      if (left) {
        lapack::ormbr<T>('Q', 'L', 'N', M, size, N, b, M, tauq.data(), nullptr, M, &q, -1);
      } else {
        lapack::ormbr<T>('P', 'R', 'T', size, N, M, b, M, taup.data(), nullptr, k, &q, -1);
      }
      std::vector<T> w(static_cast<size_t>(workspace_size(q)));
      const int lw = static_cast<int>(w.size());
      infos[static_cast<size_t>(t)] =
          left ? lapack::ormbr<T>('Q', 'L', 'N', M, size, N, b, M, tauq.data(),
                                  u + int64_t{first} * M, M, w.data(), lw)
               : lapack::ormbr<T>('P', 'R', 'T', size, N, M, b, M, taup.data(), vt + first, k,
                                  w.data(), lw);
    }
  });
  for (int i : infos) {
    if (i != 0) return i;
  }
  return 0;
}

}  // namespace

Tensor2 linalg_qr(const Tensor& A, const std::string& mode, const char* op) {
  check_matrix(A, op);
  check_float(A, op);
  EMBER_CHECK(mode == "reduced" || mode == "complete" || mode == "r", RuntimeError, "[", op,
              "] qr received unrecognized mode '", mode,
              "' but expected one of 'reduced' (default), 'r', or 'complete'");
  const Shape batch = batch_shape(A);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n), count = batch_count(batch);
  const bool want_q = mode != "r";
  const int64_t q_cols = mode == "complete" ? m : k, r_rows = mode == "complete" ? m : k;
  // Column-major room for both: geqrf works on the first n columns, orgqr on the first q_cols.
  const int64_t cols = std::max(n, want_q ? q_cols : 0);
  Tensor work = empty_column_major(matrix_shape(batch, m, cols), A.dtype());
  copy_(narrow(work, -1, 0, n), A);
  Tensor R = zeros(matrix_shape(batch, r_rows, n), A.dtype());
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (m == 0) return;
    T query_qr = 0, query_q = 0;
    check_arguments(lapack::geqrf<T>(m, n, nullptr, m, nullptr, &query_qr, -1), op, "geqrf");
    if (want_q && q_cols > 0) {
      check_arguments(lapack::orgqr<T>(m, q_cols, k, nullptr, m, nullptr, &query_q, -1), op,
                      "orgqr");
    }
    const int lwork = std::max(workspace_size(query_qr), workspace_size(query_q));
    for_each_matrix(count, m * n * k, [&](int64_t begin, int64_t end) {
      std::vector<T> tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
      std::vector<T> buffer(static_cast<size_t>(lwork));
      for (int64_t i = begin; i < end; ++i) {
        T* wi = work.data<T>() + i * m * cols;
        if (k > 0) {
          check_arguments(lapack::geqrf<T>(m, n, wi, m, tau.data(), buffer.data(), lwork), op,
                          "geqrf");
        }
        T* ri = R.data<T>() + i * r_rows * n;
        for (int64_t r = 0; r < std::min(r_rows, m); ++r) {
          for (int64_t c = r; c < n; ++c) ri[r * n + c] = wi[r + c * m];
        }
        if (want_q && q_cols > 0) {
          check_arguments(lapack::orgqr<T>(m, q_cols, k, wi, m, tau.data(), buffer.data(), lwork),
                          op, "orgqr");
        }
      }
    });
  });
  if (!want_q) return {empty_vector(A.dtype()), R};
  if (m == 0) return {Tensor::empty(matrix_shape(batch, 0, q_cols), A.dtype()), R};
  const Tensor q = narrow(work, -1, 0, q_cols);
  return {row_major_copy(q, q.sizes()), R};
}

Tensor3 linalg_svd(const Tensor& A, bool full_matrices, bool compute_uv, const char* op) {
  check_matrix(A, op);
  check_float(A, op);
  const Shape batch = batch_shape(A);
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n), count = batch_count(batch);
  const int64_t u_cols = full_matrices ? m : k, vh_rows = full_matrices ? n : k;
  Tensor S = Tensor::empty(append(batch, k), A.dtype());
  Tensor U = compute_uv ? Tensor::empty(matrix_shape(batch, m, u_cols), A.dtype())
                        : empty_vector(A.dtype());
  Tensor Vh = compute_uv ? Tensor::empty(matrix_shape(batch, vh_rows, n), A.dtype())
                         : empty_vector(A.dtype());
  if (k == 0) {
    // Nothing to decompose: the full bases of an empty matrix are identities (as torch).
    for (const Tensor& t : {U, Vh}) {
      if (!compute_uv) break;
      fill_(t, 0.0);
      fill_(diagonal(t, 0, -2, -1), 1.0);
    }
    return {U, S, Vh};
  }
  // LAPACK factors M = A^T (n x m): A = V_M S U_M^T, so M's VT is A's U and M's U is A's Vh.
  Tensor a = row_major_copy(A, A.sizes());
  const char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  const int64_t ldu = compute_uv ? n : 1, ldvt = compute_uv ? u_cols : 1;
  Tensor info = empty_info(batch);
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T query = 0, dummy = 0;
    std::vector<int> iwork(static_cast<size_t>(8 * k));
    check_arguments(lapack::gesdd<T>(jobz, n, m, nullptr, n, nullptr, nullptr, ldu, nullptr, ldvt,
                                     &query, -1, iwork.data()),
                    op, "gesdd");
    const int lwork = workspace_size(query);
    int32_t* infos = info.data<int32_t>();
    // Fewer matrices than threads: split gesdd's last step instead of the batch. Not for very
    // tall or wide matrices, where gesdd first reduces to a square one by QR (LAPACK's mnthr).
    const bool near_square = std::max(m, n) < k * 11 / 6;
    if (jobz == 'S' && near_square && count < get_num_threads() && k >= 64 &&
        !in_parallel_region()) {
      for (int64_t i = 0; i < count; ++i) {
        infos[i] = svd_in_steps<T>(static_cast<int>(n), static_cast<int>(m),
                                   a.data<T>() + i * m * n, S.data<T>() + i * k,
                                   Vh.data<T>() + i * vh_rows * n, U.data<T>() + i * m * u_cols);
        if (infos[i] != -4) check_arguments(infos[i], op, "gesdd");
      }
      return;
    }
    for_each_matrix(count, m * n * k, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<int> iw(static_cast<size_t>(8 * k));
      for (int64_t i = begin; i < end; ++i) {
        T* vh = compute_uv ? Vh.data<T>() + i * vh_rows * n : &dummy;
        T* u = compute_uv ? U.data<T>() + i * m * u_cols : &dummy;
        infos[i] = lapack::gesdd<T>(jobz, n, m, a.data<T>() + i * m * n, n, S.data<T>() + i * k, vh,
                                    ldu, u, ldvt, work.data(), lwork, iw.data());
        // -4: A holds a NaN (LAPACK checks); any other negative value is an ember bug.
        if (infos[i] != -4) check_arguments(infos[i], op, "gesdd");
      }
    });
  });
  raise_on_info(info, A.dim() > 2, op, [](int code) {
    if (code == -4) {
      return std::string(
          "The algorithm failed to converge because the input matrix contained "
          "non-finite values.");
    }
    return str(
        "The algorithm failed to converge because the input matrix is ill-conditioned or "
        "has too many repeated singular values (error code: ",
        code, ").");
  });
  return {U, S, Vh};
}

Tensor2 linalg_eigh(const Tensor& A, const std::string& uplo, bool compute_v, const char* op) {
  check_square(A, op);
  check_float(A, op);
  const char triangle = uplo.size() == 1 ? static_cast<char>(std::toupper(uplo[0])) : '?';
  EMBER_CHECK(triangle == 'L' || triangle == 'U', RuntimeError, "[", op,
              "] Expected UPLO argument to be 'L' or 'U', but got ", uplo);
  const Shape batch = batch_shape(A);
  const int64_t n = A.size(-1), count = batch_count(batch);
  Tensor a = row_major_copy(A, A.sizes());
  Tensor W = Tensor::empty(append(batch, n), A.dtype());
  Tensor info = empty_info(batch);
  const char jobz = compute_v ? 'V' : 'N';
  // LAPACK reads the row-major copy as A^T: A's lower triangle is its upper one.
  const char lapack_uplo = triangle == 'L' ? 'U' : 'L';
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    fill_int_(info, 0);
    if (n == 0) return;
    T query = 0;
    int iquery = 0;
    check_arguments(
        lapack::syevd<T>(jobz, lapack_uplo, n, nullptr, n, nullptr, &query, -1, &iquery, -1), op,
        "syevd");
    const int lwork = workspace_size(query), liwork = std::max(1, iquery);
    int32_t* infos = info.data<int32_t>();
    for_each_matrix(count, n * n * n, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<int> iwork(static_cast<size_t>(liwork));
      for (int64_t i = begin; i < end; ++i) {
        infos[i] = lapack::syevd<T>(jobz, lapack_uplo, n, a.data<T>() + i * n * n, n,
                                    W.data<T>() + i * n, work.data(), lwork, iwork.data(), liwork);
        check_arguments(infos[i], op, "syevd");
      }
    });
  });
  raise_on_info(info, A.dim() > 2, op, [](int code) {
    return str(
        "The algorithm failed to converge because the input matrix is ill-conditioned or "
        "has too many repeated eigenvalues (error code: ",
        code, ").");
  });
  // LAPACK's eigenvectors are columns of a column-major matrix: transposed in row-major a.
  if (!compute_v) return {W, empty_vector(A.dtype())};
  return {W, contiguous(mT(a))};
}

Tensor4 linalg_lstsq(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                     const std::string& driver, const char* op) {
  EMBER_CHECK(A.dim() >= 2, RuntimeError, "[", op, "] input must have at least 2 dimensions.");
  EMBER_CHECK(B.dim() >= 1, RuntimeError, "[", op, "] other must have at least 1 dimension.");
  check_float(A, op);
  EMBER_CHECK(A.dtype() == B.dtype(), RuntimeError, "[", op,
              "] Expected input and other to have the same dtype, but got input's dtype ",
              dtype_name(A.dtype()), " and other's dtype ", dtype_name(B.dtype()));
  const int64_t dim_diff = A.dim() - B.dim();
  EMBER_CHECK(dim_diff == 0 || dim_diff == 1, RuntimeError, "[", op,
              "] input.dim() must be greater or equal to other.dim() and (input.dim() - "
              "other.dim()) <= 1");
  EMBER_CHECK(driver == "gels" || driver == "gelsy" || driver == "gelsd" || driver == "gelss",
              RuntimeError, "[", op,
              "] parameter `driver` should be one of (gels, gelsy, gelsd, gelss), got '", driver,
              "'");
  const bool vector = dim_diff == 1;
  const Tensor B2 = vector ? unsqueeze(B, -1) : B;
  check_matrix(A, op, "input");
  check_matrix(B2, op, "other");
  EMBER_CHECK(A.size(-2) == B2.size(-2), RuntimeError, "[", op, "] input.size(-2) should match ",
              vector ? "other.size(-1)" : "other.size(-2)", ", got input of shape ", A.sizes(),
              " and other of shape ", B.sizes());
  const int64_t m = A.size(-2), n = A.size(-1), k = B2.size(-1), mn = std::min(m, n);
  const Shape batch = broadcast_batch(batch_shape(A), batch_shape(B2), op);
  const int64_t count = batch_count(batch), ldb = std::max<int64_t>({1, m, n});
  const bool with_rank = driver != "gels", with_sv = driver == "gelsd" || driver == "gelss";
  Tensor a = column_major_copy(A, matrix_shape(batch, m, n));
  // B's rows followed by zeros: LAPACK leaves the n x k solution in the first n rows.
  Tensor b = empty_column_major(matrix_shape(batch, ldb, k), A.dtype());
  fill_(b, 0.0);
  copy_(narrow(b, -2, 0, m), B2);
  Tensor rank = Tensor::empty(batch, ScalarType::Int64);
  Tensor sv = with_sv ? Tensor::empty(append(batch, mn), A.dtype()) : empty_vector(A.dtype());
  // Squared norms of the rows past n: the residuals when m > n (gelsy gives none, as in torch).
  const bool with_residuals = m > n && driver != "gelsy";
  Tensor residuals = Tensor::empty(with_residuals ? append(batch, k) : Shape{0}, A.dtype());
  Tensor info = empty_info(batch);
  dispatch_float(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T rc = rcond ? static_cast<T>(*rcond)
                       : std::numeric_limits<T>::epsilon() * static_cast<T>(std::max(m, n));
    fill_int_(info, 0);
    fill_int_(rank, 0);
    if (with_residuals) fill_(residuals, 0.0);
    if (mn == 0) {
      // Nothing to factor: the solution is zero and the residuals are B's squared norms.
      if (with_residuals) copy_(residuals, sum(binary(BinaryOp::Mul, b, b), {-2}, false));
      return;
    }
    // Workspace query for the chosen driver.
    T query = 0;
    int iquery = 0, qrank = 0;
    if (driver == "gels") {
      lapack::gels<T>('N', m, n, k, nullptr, m, nullptr, ldb, &query, -1);
    } else if (driver == "gelsy") {
      lapack::gelsy<T>(m, n, k, nullptr, m, nullptr, ldb, nullptr, rc, &qrank, &query, -1);
    } else if (driver == "gelsd") {
      lapack::gelsd<T>(m, n, k, nullptr, m, nullptr, ldb, nullptr, rc, &qrank, &query, -1, &iquery);
    } else {
      lapack::gelss<T>(m, n, k, nullptr, m, nullptr, ldb, nullptr, rc, &qrank, &query, -1);
    }
    const int lwork = workspace_size(query), liwork = std::max(1, iquery);
    int32_t* infos = info.data<int32_t>();
    for_each_matrix(count, m * n * mn, [&](int64_t begin, int64_t end) {
      std::vector<T> work(static_cast<size_t>(lwork));
      std::vector<int> iwork(static_cast<size_t>(liwork)), jpvt(static_cast<size_t>(n));
      for (int64_t i = begin; i < end; ++i) {
        T* ai = a.data<T>() + i * m * n;
        T* bi = b.data<T>() + i * ldb * k;
        T* si = with_sv ? sv.data<T>() + i * mn : nullptr;
        int r = 0;
        if (driver == "gels") {
          infos[i] = lapack::gels<T>('N', m, n, k, ai, m, bi, ldb, work.data(), lwork);
        } else if (driver == "gelsy") {
          std::fill(jpvt.begin(), jpvt.end(), 0);  // every column free to move
          infos[i] =
              lapack::gelsy<T>(m, n, k, ai, m, bi, ldb, jpvt.data(), rc, &r, work.data(), lwork);
        } else if (driver == "gelsd") {
          infos[i] = lapack::gelsd<T>(m, n, k, ai, m, bi, ldb, si, rc, &r, work.data(), lwork,
                                      iwork.data());
        } else {
          infos[i] = lapack::gelss<T>(m, n, k, ai, m, bi, ldb, si, rc, &r, work.data(), lwork);
        }
        check_arguments(infos[i], op, driver.c_str());
        rank.data<int64_t>()[i] = r;
        for (int64_t c = 0; c < (with_residuals ? k : 0); ++c) {
          T total = 0;
          for (int64_t row = n; row < m; ++row) total += bi[row + c * ldb] * bi[row + c * ldb];
          residuals.data<T>()[i * k + c] = total;
        }
      }
    });
  });
  raise_on_info(info, A.dim() > 2, op, [](int code) {
    return str(
        "The least squares solution could not be computed because the input matrix does "
        "not have full rank (error code: ",
        code, ").");
  });
  // The SVD drivers give residuals only when every matrix has full rank (torch's rule).
  bool full_rank = true;
  for (int64_t i = 0; i < count && with_sv; ++i) full_rank &= rank.data<int64_t>()[i] == n;
  if (!full_rank) residuals = empty_vector(A.dtype());
  Tensor solution = row_major_copy(narrow(b, -2, 0, n), matrix_shape(batch, n, k));
  return {vector ? select(solution, -1, 0) : solution, residuals,
          with_rank ? rank : Tensor::empty({0}, ScalarType::Int64), sv};
}

}  // namespace ember
