// Reductions along a dim with torch's overloaded signatures: max/min (all, along a dim as a
// namedtuple, or elementwise with `other`), argmax/argmin, var/std (correction or legacy
// unbiased), var_mean/std_mean, logsumexp, norm, count_nonzero, cumsum/cumprod.
#include <nanobind/stl/pair.h>

#include "python_api.h"

namespace ember::py {
namespace {

// return_types.max / return_types.min: namedtuples (values, indices) like torch.return_types.
nb::handle g_return_type[2];

nb::object make_return(bool is_max, nb::handle values, nb::handle indices) {
  return g_return_type[is_max ? 0 : 1](values, indices);
}

bool as_keepdim(nb::handle h, const char* op) {
  if (h.is_none()) return false;
  EMBER_CHECK(PyBool_Check(h.ptr()), TypeError, "[", op, "] argument 'keepdim' must be bool, not ",
              nb::type_name(h.type()).c_str());
  return h.ptr() == Py_True;
}

int64_t as_dim(nb::handle h, const char* op) {
  EMBER_CHECK(!PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr()), TypeError, "[", op,
              "] argument 'dim' must be int, not ", nb::type_name(h.type()).c_str());
  bool overflow = false;
  const std::optional<int64_t> d = index_value(h, &overflow);
  EMBER_CHECK(!overflow, ValueError, "[", op, "] dim ", nb::str(h).c_str(),
              " does not fit in int64");
  EMBER_CHECK(d.has_value(), TypeError, "[", op, "] argument 'dim' must be int, not ",
              nb::type_name(h.type()).c_str());
  return *d;
}

std::optional<int64_t> as_optional_dim(nb::handle h, const char* op) {
  if (h.is_none()) return std::nullopt;
  return as_dim(h, op);
}

// torch.max(input) | torch.max(input, dim, keepdim=False) | torch.max(input, other).
nb::object min_max(bool is_max, const Tensor& x, nb::handle dim, nb::handle keepdim,
                   nb::handle other, nb::handle out) {
  const char* op = is_max ? "max" : "min";
  if (is_tensor(dim)) {
    EMBER_CHECK(other.is_none(), TypeError, "[", op, "] 'other' given twice");
    other = dim;
    dim = nb::none();
  }
  if (!other.is_none()) {
    EMBER_CHECK(keepdim.is_none(), TypeError, "[", op,
                "] 'keepdim' cannot be combined with 'other'");
    const Tensor result = binary(is_max ? BinaryOp::Maximum : BinaryOp::Minimum, x,
                                 to_tensor(other, op, "other"), out_argument(out, op));
    return result_or_out(result, out);
  }
  if (dim.is_none()) {
    EMBER_CHECK(keepdim.is_none(), TypeError, "[", op, "] 'keepdim' needs 'dim'");
    return result_or_out(max_all(x, is_max, out_argument(out, op)), out);
  }
  EMBER_CHECK(!PyFloat_Check(dim.ptr()), TypeError, "[", op,
              "] received an invalid combination of arguments: expected an int 'dim' or a "
              "Tensor 'other', got float");
  const int64_t d = as_dim(dim, op);
  const bool kd = as_keepdim(keepdim, op);
  if (!out.is_none()) {
    EMBER_CHECK((nb::isinstance<nb::tuple>(out) || nb::isinstance<nb::list>(out)) &&
                    nb::len(out) == 2 && is_tensor(out[0]) && is_tensor(out[1]),
                TypeError, "[", op, "] 'out' must be a tuple of two Tensors (values, indices)");
    extreme_dim_out(x, d, kd, is_max, unwrap(out[0]), unwrap(out[1]));
    return make_return(is_max, out[0], out[1]);
  }
  auto [values, indices] = is_max ? max_dim(x, d, kd) : min_dim(x, d, kd);
  return make_return(is_max, wrap(values), wrap(indices));
}

void def_min_max(nb::module_& m, TensorClass& cls, bool is_max) {
  const char* name = is_max ? "max" : "min";
  m.def(
      name,
      [is_max, name](nb::handle input, nb::handle dim, nb::handle keepdim, nb::handle other,
                     nb::handle out) {
        return min_max(is_max, to_tensor(input, name), dim, keepdim, other, out);
      },
      nb::arg("input"), nb::arg("dim") = nb::none(), nb::arg("keepdim") = nb::none(), nb::kw_only(),
      nb::arg("other") = nb::none(), nb::arg("out") = nb::none());
  cls.def(
      name,
      [is_max](const Tensor& self, nb::handle dim, nb::handle keepdim, nb::handle other) {
        return min_max(is_max, self, dim, keepdim, other, nb::none());
      },
      nb::arg("dim") = nb::none(), nb::arg("keepdim") = nb::none(), nb::kw_only(),
      nb::arg("other") = nb::none());
}

using ArgFn = Tensor (*)(const Tensor&, std::optional<int64_t>, bool, const Tensor&);

void def_arg(nb::module_& m, TensorClass& cls, const char* name, ArgFn fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle dim, bool keepdim, nb::handle out) {
        return result_or_out(fn(to_tensor(input, name), as_optional_dim(dim, name), keepdim,
                                out_argument(out, name)),
                             out);
      },
      nb::arg("input"), nb::arg("dim") = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, nb::handle dim, bool keepdim) {
        return wrap(fn(self, as_optional_dim(dim, name), keepdim, {}));
      },
      nb::arg("dim") = nb::none(), nb::arg("keepdim") = false);
}

struct VarArgs {
  Dims dims;
  double correction = 1;
};

// var(input, dim, *, correction) and the legacy var(input, dim, unbiased) / var(input, unbiased).
VarArgs var_args(nb::handle dim, nb::handle unbiased, nb::handle correction, const char* op) {
  if (PyBool_Check(dim.ptr())) {
    EMBER_CHECK(unbiased.is_none(), TypeError, "[", op, "] 'unbiased' given twice");
    unbiased = dim;
    dim = nb::none();
  }
  EMBER_CHECK(unbiased.is_none() || correction.is_none(), TypeError, "[", op,
              "] cannot specify both 'unbiased' and 'correction'");
  VarArgs args;
  args.dims = to_dims(dim, op);
  if (!unbiased.is_none()) {
    EMBER_CHECK(PyBool_Check(unbiased.ptr()), TypeError, "[", op,
                "] argument 'unbiased' must be bool, not ", nb::type_name(unbiased.type()).c_str());
    args.correction = unbiased.ptr() == Py_True ? 1.0 : 0.0;
  } else if (!correction.is_none()) {
    EMBER_CHECK(!PyBool_Check(correction.ptr()) &&
                    (PyLong_Check(correction.ptr()) || PyFloat_Check(correction.ptr())),
                TypeError, "[", op, "] argument 'correction' must be a number, not ",
                nb::type_name(correction.type()).c_str());
    args.correction = nb::cast<double>(correction);
  }
  return args;
}

using VarFn = Tensor (*)(const Tensor&, const Dims&, double, bool, const Tensor&);
using VarMeanFn = std::pair<Tensor, Tensor> (*)(const Tensor&, const Dims&, double, bool);

void def_var(nb::module_& m, TensorClass& cls, const char* name, VarFn fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle dim, nb::handle unbiased, bool keepdim,
                 nb::handle correction, nb::handle out) {
        const VarArgs a = var_args(dim, unbiased, correction, name);
        return result_or_out(
            fn(to_tensor(input, name), a.dims, a.correction, keepdim, out_argument(out, name)),
            out);
      },
      nb::arg("input"), nb::arg("dim") = nb::none(), nb::arg("unbiased") = nb::none(),
      nb::arg("keepdim") = false, nb::kw_only(), nb::arg("correction") = nb::none(),
      nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, nb::handle dim, nb::handle unbiased, bool keepdim,
                 nb::handle correction) {
        const VarArgs a = var_args(dim, unbiased, correction, name);
        return wrap(fn(self, a.dims, a.correction, keepdim, {}));
      },
      nb::arg("dim") = nb::none(), nb::arg("unbiased") = nb::none(), nb::arg("keepdim") = false,
      nb::kw_only(), nb::arg("correction") = nb::none());
}

void def_var_mean(nb::module_& m, const char* name, VarMeanFn fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle dim, nb::handle unbiased, bool keepdim,
                 nb::handle correction) {
        const VarArgs a = var_args(dim, unbiased, correction, name);
        return wrap_pair(fn(to_tensor(input, name), a.dims, a.correction, keepdim));
      },
      nb::arg("input"), nb::arg("dim") = nb::none(), nb::arg("unbiased") = nb::none(),
      nb::arg("keepdim") = false, nb::kw_only(), nb::arg("correction") = nb::none());
}

// p: 'fro' (the 2-norm over the given dims) or a number (inf/-inf/0 included).
double norm_order(nb::handle p) {
  if (p.is_none()) return 2.0;
  if (PyUnicode_Check(p.ptr())) {
    const std::string s = nb::cast<std::string>(p);
    if (s == "fro") return 2.0;
    EMBER_CHECK(s != "nuc", NotImplementedError,
                "[norm] the nuclear norm (p='nuc') is not implemented yet");
    throw RuntimeError(str("[norm] order '", s, "' not supported"));
  }
  EMBER_CHECK(!PyBool_Check(p.ptr()) && (PyLong_Check(p.ptr()) || PyFloat_Check(p.ptr())),
              TypeError, "[norm] argument 'p' must be a number or 'fro', not ",
              nb::type_name(p.type()).c_str());
  return nb::cast<double>(p);
}

using ScanFn = Tensor (*)(const Tensor&, int64_t, std::optional<ScalarType>, const Tensor&);

void def_scan(nb::module_& m, TensorClass& cls, const char* name, const char* inplace_name,
              ScanFn fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle dim, nb::handle dtype, nb::handle out) {
        return result_or_out(fn(to_tensor(input, name), as_dim(dim, name),
                                to_optional_dtype(dtype, name), out_argument(out, name)),
                             out);
      },
      nb::arg("input"), nb::arg("dim").none(), nb::kw_only(), nb::arg("dtype") = nb::none(),
      nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, nb::handle dim, nb::handle dtype) {
        return wrap(fn(self, as_dim(dim, name), to_optional_dtype(dtype, name), {}));
      },
      nb::arg("dim").none(), nb::kw_only(), nb::arg("dtype") = nb::none());
  cls.def(
      inplace_name,
      [fn, inplace_name](nb::handle self, nb::handle dim, nb::handle dtype) {
        const Tensor& t = unwrap(self);
        const auto dt = to_optional_dtype(dtype, inplace_name);
        EMBER_CHECK(!dt || *dt == t.dtype(), RuntimeError, "[", inplace_name,
                    "] Bad in-place call: input tensor dtype ", dtype_name(t.dtype()),
                    " and output tensor dtype ", dtype_name(*dt), " should match");
        fn(t, as_dim(dim, inplace_name), dt, t);
        return nb::borrow(self);
      },
      nb::arg("dim").none(), nb::kw_only(), nb::arg("dtype") = nb::none());
}

}  // namespace

void init_reduce_dim(nb::module_& m, TensorClass& cls) {
  nb::module_ types = m.def_submodule("return_types", "Named tuples returned by ops.");
  // Registered in sys.modules so that pickle can find the classes by their module name.
  nb::object module_name = types.attr("__name__");
  nb::module_::import_("sys").attr("modules")[module_name] = types;
  nb::object namedtuple = nb::module_::import_("collections").attr("namedtuple");
  for (const bool is_max : {true, false}) {
    const char* name = is_max ? "max" : "min";
    nb::object t =
        namedtuple(name, nb::make_tuple("values", "indices"), nb::arg("module") = module_name);
    types.attr(name) = t;
    g_return_type[is_max ? 0 : 1] = t.release();  // lives as long as the module
    def_min_max(m, cls, is_max);
  }
  def_arg(m, cls, "argmax", &argmax);
  def_arg(m, cls, "argmin", &argmin);
  def_var(m, cls, "var", &var);
  def_var(m, cls, "std", &ember::std);
  def_var_mean(m, "var_mean", &var_mean);
  def_var_mean(m, "std_mean", &std_mean);

  m.def(
      "logsumexp",
      [](nb::handle input, nb::handle dim, bool keepdim, nb::handle out) {
        return result_or_out(logsumexp(to_tensor(input, "logsumexp"), to_dims(dim, "logsumexp"),
                                       keepdim, out_argument(out, "logsumexp")),
                             out);
      },
      nb::arg("input"), nb::arg("dim").none(), nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("out") = nb::none());
  cls.def(
      "logsumexp",
      [](const Tensor& self, nb::handle dim, bool keepdim) {
        return wrap(logsumexp(self, to_dims(dim, "logsumexp"), keepdim));
      },
      nb::arg("dim").none(), nb::arg("keepdim") = false);

  m.def(
      "norm",
      [](nb::handle input, nb::handle p, nb::handle dim, bool keepdim, nb::handle out,
         nb::handle dtype) {
        return result_or_out(
            norm(to_tensor(input, "norm"), norm_order(p), to_dims(dim, "norm"), keepdim,
                 to_optional_dtype(dtype, "norm"), out_argument(out, "norm")),
            out);
      },
      nb::arg("input"), nb::arg("p") = "fro", nb::arg("dim") = nb::none(),
      nb::arg("keepdim") = false, nb::arg("out") = nb::none(), nb::arg("dtype") = nb::none());
  cls.def(
      "norm",
      [](const Tensor& self, nb::handle p, nb::handle dim, bool keepdim, nb::handle dtype) {
        return wrap(norm(self, norm_order(p), to_dims(dim, "norm"), keepdim,
                         to_optional_dtype(dtype, "norm")));
      },
      nb::arg("p") = "fro", nb::arg("dim") = nb::none(), nb::arg("keepdim") = false,
      nb::arg("dtype") = nb::none());

  m.def(
      "count_nonzero",
      [](nb::handle input, nb::handle dim) {
        return wrap(
            count_nonzero(to_tensor(input, "count_nonzero"), to_dims(dim, "count_nonzero")));
      },
      nb::arg("input"), nb::arg("dim") = nb::none());
  cls.def(
      "count_nonzero",
      [](const Tensor& self, nb::handle dim) {
        return wrap(count_nonzero(self, to_dims(dim, "count_nonzero")));
      },
      nb::arg("dim") = nb::none());

  def_scan(m, cls, "cumsum", "cumsum_", &cumsum);
  def_scan(m, cls, "cumprod", "cumprod_", &cumprod);
}

}  // namespace ember::py
