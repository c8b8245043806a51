// The LAPACK-backed linalg ops as private functions of ember._C (`_linalg_svd`, ...): ember.linalg
// (Python) gives them torch's public names, argument parsing and named tuples. Each takes the op
// name its errors start with, and LinAlgError becomes ember._C._LinAlgError (a RuntimeError).
#include "ember/ops/linalg_lapack.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <string>
#include <tuple>

#include "python_api.h"

namespace ember::py {
namespace {

// Tensors only: torch's linalg raises TypeError for numbers and lists.
Tensor tensor_arg(nb::handle h, const std::string& op, const char* arg) {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

template <typename... Ts>
nb::object wrap_tuple(const std::tuple<Ts...>& ts) {
  return std::apply([](const auto&... t) { return nb::make_tuple(wrap(t)...); }, ts);
}

// ember.return_types entries for the linalg results (torch.return_types' names and fields).
constexpr const char* kResultTypes[][2] = {
    {"linalg_lu_factor", "LU pivots"},
    {"linalg_lu_factor_ex", "LU pivots info"},
    {"linalg_lu", "P L U"},
    {"lu_unpack", "P L U"},
    {"linalg_solve_ex", "result info"},
    {"linalg_inv_ex", "inverse info"},
    {"linalg_cholesky_ex", "L info"},
    {"linalg_qr", "Q R"},
    {"qr", "Q R"},
    {"linalg_svd", "U S Vh"},
    {"svd", "U S V"},
    {"linalg_eigh", "eigenvalues eigenvectors"},
    {"linalg_eig", "eigenvalues eigenvectors"},
    {"linalg_slogdet", "sign logabsdet"},
    {"slogdet", "sign logabsdet"},
    {"linalg_lstsq", "solution residuals rank singular_values"},
};

}  // namespace

void init_linalg_lapack(nb::module_& m) {
  static nb::exception<LinAlgError> lin_alg_error(m, "_LinAlgError", PyExc_RuntimeError);
  nb::object types = m.attr("return_types");
  nb::object namedtuple = nb::module_::import_("collections").attr("namedtuple");
  for (const auto& [name, fields] : kResultTypes) {
    types.attr(name) = namedtuple(name, fields, nb::arg("module") = types.attr("__name__"));
  }

  m.def(
      "_linalg_lu_factor_ex",
      [](nb::handle A, bool pivot, bool check_errors, const std::string& op) {
        return wrap_tuple(
            linalg_lu_factor_ex(tensor_arg(A, op, "A"), pivot, check_errors, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("pivot"), nb::arg("check_errors"), nb::arg("op"));
  m.def(
      "_linalg_lu_solve",
      [](nb::handle LU, nb::handle pivots, nb::handle B, bool left, bool adjoint,
         const std::string& op) {
        return wrap(linalg_lu_solve(tensor_arg(LU, op, "LU"), tensor_arg(pivots, op, "pivots"),
                                    tensor_arg(B, op, "B"), left, adjoint, op.c_str()));
      },
      nb::arg("LU").none(), nb::arg("pivots").none(), nb::arg("B").none(), nb::arg("left"),
      nb::arg("adjoint"), nb::arg("op"));
  m.def(
      "_lu_unpack",
      [](nb::handle LU, nb::handle pivots, bool unpack_data, bool unpack_pivots,
         const std::string& op) {
        return wrap_tuple(lu_unpack(tensor_arg(LU, op, "LU_data"),
                                    tensor_arg(pivots, op, "LU_pivots"), unpack_data, unpack_pivots,
                                    op.c_str()));
      },
      nb::arg("LU").none(), nb::arg("pivots").none(), nb::arg("unpack_data"),
      nb::arg("unpack_pivots"), nb::arg("op"));
  m.def(
      "_linalg_solve_ex",
      [](nb::handle A, nb::handle B, bool left, bool check_errors, const std::string& op) {
        return wrap_tuple(linalg_solve_ex(tensor_arg(A, op, "A"), tensor_arg(B, op, "B"), left,
                                          check_errors, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("B").none(), nb::arg("left"), nb::arg("check_errors"),
      nb::arg("op"));
  m.def(
      "_linalg_inv_ex",
      [](nb::handle A, bool check_errors, const std::string& op) {
        return wrap_tuple(linalg_inv_ex(tensor_arg(A, op, "A"), check_errors, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("check_errors"), nb::arg("op"));
  m.def(
      "_linalg_cholesky_ex",
      [](nb::handle A, bool upper, bool check_errors, const std::string& op) {
        return wrap_tuple(
            linalg_cholesky_ex(tensor_arg(A, op, "A"), upper, check_errors, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("upper"), nb::arg("check_errors"), nb::arg("op"));
  m.def(
      "_linalg_qr",
      [](nb::handle A, const std::string& mode, const std::string& op) {
        return wrap_tuple(linalg_qr(tensor_arg(A, op, "A"), mode, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("mode"), nb::arg("op"));
  m.def(
      "_linalg_svd",
      [](nb::handle A, bool full_matrices, bool compute_uv, const std::string& op) {
        return wrap_tuple(
            linalg_svd(tensor_arg(A, op, "A"), full_matrices, compute_uv, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("full_matrices"), nb::arg("compute_uv"), nb::arg("op"));
  m.def(
      "_linalg_eigh",
      [](nb::handle A, const std::string& uplo, bool compute_v, const std::string& op) {
        return wrap_tuple(linalg_eigh(tensor_arg(A, op, "A"), uplo, compute_v, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("UPLO"), nb::arg("compute_v"), nb::arg("op"));
  m.def(
      "_linalg_eig",
      [](nb::handle A, bool compute_v, const std::string& op) {
        return wrap_tuple(linalg_eig(tensor_arg(A, op, "A"), compute_v, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("compute_v"), nb::arg("op"));
  m.def(
      "_linalg_lstsq",
      [](nb::handle A, nb::handle B, std::optional<double> rcond, const std::string& driver,
         const std::string& op) {
        return wrap_tuple(linalg_lstsq(tensor_arg(A, op, "A"), tensor_arg(B, op, "B"), rcond,
                                       driver, op.c_str()));
      },
      nb::arg("A").none(), nb::arg("B").none(), nb::arg("rcond").none(), nb::arg("driver"),
      nb::arg("op"));
  m.def(
      "_linalg_slogdet",
      [](nb::handle A, const std::string& op) {
        return wrap_tuple(linalg_slogdet(tensor_arg(A, op, "A"), op.c_str()));
      },
      nb::arg("A").none(), nb::arg("op"));
  // out= of the Python-level linalg functions, torch's rule: the dtype must match, a tensor of
  // another shape is resized. Returns `out`.
  m.def(
      "_linalg_copy_out",
      [](nb::handle out, nb::handle result, const std::string& op) {
        const Tensor o = tensor_arg(out, op, "out");
        const Tensor r = tensor_arg(result, op, "result");
        write_out(r, o, op.c_str(), {.dtype = OutDtype::kExact});
        return nb::borrow(out);
      },
      nb::arg("out").none(), nb::arg("result"), nb::arg("op"));
  m.def(
      "_linalg_det",
      [](nb::handle A, const std::string& op) {
        return wrap(linalg_det(tensor_arg(A, op, "A"), op.c_str()));
      },
      nb::arg("A").none(), nb::arg("op"));
}

}  // namespace ember::py
