// mode, unique, histc, bincount, cummax/cummin, logcumsumexp, aminmax, nanmedian, quantile and
// nanquantile (namedtuples from ember.return_types, like torch.return_types).
#include <string>

#include "python_api.h"

namespace ember::py {
namespace docs {
constexpr const char* mode = R"doc(The most frequent value along `dim` and an index where it occurs.

Ties go to the smallest value. Returns a namedtuple (values, indices).

Example:
    >>> ember.mode(ember.tensor([3, 1, 1, 3, 2])).values.item()
    1
)doc";
constexpr const char* unique = R"doc(The sorted unique elements (or slices along `dim`).

Args:
    input (Tensor): the input.
    sorted (bool): accepted for torch compatibility; the result is always sorted.
    return_inverse (bool): also return, for each element, the index of its unique value.
    return_counts (bool): also return how often each unique value occurs.
    dim (int, optional): compare whole slices along this dim instead of elements.

Example:
    >>> ember.unique(ember.tensor([3, 1, 3, 2])).tolist()
    [1, 2, 3]
)doc";
constexpr const char* histc =
    R"doc(A histogram of `bins` equal bins over [min, max] (floating inputs).

min == max (the default 0, 0) uses the data's range. Values outside the range are skipped.

Example:
    >>> ember.histc(ember.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3).tolist()
    [0.0, 2.0, 1.0, 0.0]
)doc";
constexpr const char* bincount =
    R"doc(How often each value of a 1-d non-negative integer tensor occurs.

With `weights`, sums the weights instead (float64 unless the weights are float32).

Example:
    >>> ember.bincount(ember.tensor([0, 1, 1, 3])).tolist()
    [1, 2, 0, 1]
)doc";
constexpr const char* cummax = R"doc(Running maximum along `dim` and where it was found.

Example:
    >>> ember.cummax(ember.tensor([1, 3, 2, 5]), 0).values.tolist()
    [1, 3, 3, 5]
)doc";
constexpr const char* cummin = R"doc(Running minimum along `dim` and where it was found.

Example:
    >>> ember.cummin(ember.tensor([3, 1, 2, 0]), 0).indices.tolist()
    [0, 1, 1, 3]
)doc";
constexpr const char* logcumsumexp = R"doc(log(cumsum(exp(input))) along `dim`, without overflow.

Example:
    >>> ember.logcumsumexp(ember.tensor([0.0, 0.0]), 0).tolist()[1]  # log(2)
    0.6931471824645996
)doc";
constexpr const char* aminmax = R"doc((min, max) over all elements or along `dim`, as a namedtuple.

Example:
    >>> r = ember.aminmax(ember.tensor([[1, 5], [3, 2]]), dim=1)
    >>> r.min.tolist(), r.max.tolist()
    ([1, 2], [5, 3])
)doc";
constexpr const char* nanmedian =
    R"doc(The lower median ignoring NaN (over all elements, or along `dim`).

Example:
    >>> ember.nanmedian(ember.tensor([1.0, float("nan"), 3.0, 2.0])).item()
    2.0
)doc";
constexpr const char* quantile = R"doc(The q-th quantiles over all elements or along `dim`.

Args:
    input (Tensor): float32 or float64.
    q (float or Tensor): in [0, 1]; a 1-d tensor adds a leading dim of len(q).
    dim (int, optional): the dim to reduce; None flattens the input.
    keepdim (bool): keep the reduced dim(s) with size 1.
    interpolation (str): 'linear', 'lower', 'higher', 'midpoint' or 'nearest'.

Example:
    >>> ember.quantile(ember.tensor([1.0, 2.0, 3.0, 4.0]), 0.5).item()
    2.5
)doc";
constexpr const char* nanquantile = R"doc(quantile ignoring NaN values.

Example:
    >>> ember.nanquantile(ember.tensor([1.0, float("nan"), 3.0]), 0.5).item()
    2.0
)doc";
}  // namespace docs

namespace {

enum Result { kMode, kCummax, kCummin, kNanmedian, kAminmax, kNumResults };
nb::handle g_result[kNumResults];

nb::object make_result(Result r, const std::pair<Tensor, Tensor>& p) {
  return g_result[r](wrap(p.first), wrap(p.second));
}

const Tensor& tensor_only(nb::handle h, const char* op, const char* arg = "input") {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

// out=(a, b): checked and filled like torch (dtypes must match), returned as the namedtuple.
nb::object pair_out(Result r, const std::pair<Tensor, Tensor>& p, nb::handle out, const char* op) {
  if (out.is_none()) return make_result(r, p);
  EMBER_CHECK((nb::isinstance<nb::tuple>(out) || nb::isinstance<nb::list>(out)) &&
                  nb::len(out) == 2 && is_tensor(out[0]) && is_tensor(out[1]),
              TypeError, "[", op, "] 'out' must be a tuple of two Tensors");
  const Tensor parts[2] = {p.first, p.second};
  for (int i = 0; i < 2; ++i) {
    const Tensor& o = unwrap(out[i]);
    check_out(o, parts[i].dtype(), op, {.dtype = OutDtype::kExact});
  }
  for (int i = 0; i < 2; ++i) write_out(parts[i], unwrap(out[i]), op, {.dtype = OutDtype::kExact});
  return g_result[r](out[0], out[1]);
}

nb::object unique_result(const Tensor& x, bool return_inverse, bool return_counts,
                         std::optional<int64_t> dim) {
  auto [values, inverse, counts] = unique(x, dim);
  if (!return_inverse && !return_counts) return wrap(values);
  nb::list parts;
  parts.append(wrap(values));
  if (return_inverse) parts.append(wrap(inverse));
  if (return_counts) parts.append(wrap(counts));
  return nb::tuple(parts);
}

// q as given, or a Python number turned into a 0-d tensor of input's dtype.
Tensor quantile_q(nb::handle q, const Tensor& x, const char* op) {
  if (is_tensor(q)) return unwrap(q);
  EMBER_CHECK(PyFloat_Check(q.ptr()) || (PyLong_Check(q.ptr()) && !PyBool_Check(q.ptr())),
              TypeError, "[", op, "] argument 'q' must be a float or a Tensor, not ",
              nb::type_name(q.type()).c_str());
  const double v = nb::cast<double>(q);
  Tensor t = Tensor::empty({}, is_floating(x.dtype()) ? x.dtype() : ScalarType::Float32);
  fill_(t, v);
  return t;
}

QuantileInterpolation to_interpolation(nb::handle h, const char* op) {
  EMBER_CHECK(PyUnicode_Check(h.ptr()), TypeError, "[", op, "] argument 'interpolation' must ",
              "be str, not ", nb::type_name(h.type()).c_str());
  return quantile_interpolation(nb::cast<std::string>(h), op);
}

void def_quantile(nb::module_& m, TensorClass& cls, const char* name, bool ignore_nan,
                  const char* doc) {
  m.def(
      name,
      [name, ignore_nan](nb::handle input, nb::handle q, std::optional<int64_t> dim, bool keepdim,
                         nb::handle interpolation, nb::handle out) {
        const Tensor& x = tensor_only(input, name);
        return result_or_out(
            quantile(x, quantile_q(q, x, name), dim, keepdim, to_interpolation(interpolation, name),
                     ignore_nan, out_argument(out, name)),
            out);
      },
      nb::arg("input"), nb::arg("q"), nb::arg("dim").none() = nb::none(),
      nb::arg("keepdim") = false, nb::kw_only(), nb::arg("interpolation") = "linear",
      nb::arg("out").none() = nb::none(), doc);
  cls.def(
      name,
      [name, ignore_nan](const Tensor& self, nb::handle q, std::optional<int64_t> dim, bool keepdim,
                         nb::handle interpolation) {
        return wrap(quantile(self, quantile_q(q, self, name), dim, keepdim,
                             to_interpolation(interpolation, name), ignore_nan));
      },
      nb::arg("q"), nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("interpolation") = "linear");
}

using CumFn = std::pair<Tensor, Tensor> (*)(const Tensor&, int64_t);

void def_cum(nb::module_& m, TensorClass& cls, const char* name, Result r, CumFn fn,
             const char* doc) {
  m.def(
      name,
      [name, r, fn](nb::handle input, int64_t dim, nb::handle out) {
        return pair_out(r, fn(tensor_only(input, name), dim), out, name);
      },
      nb::arg("input"), nb::arg("dim"), nb::kw_only(), nb::arg("out").none() = nb::none(), doc);
  cls.def(
      name, [r, fn](const Tensor& self, int64_t dim) { return make_result(r, fn(self, dim)); },
      nb::arg("dim"));
}

void def_counting(nb::module_& m, TensorClass& cls) {
  m.def(
      "histc",
      [](nb::handle input, int64_t bins, double min, double max, nb::handle out) {
        return result_or_out(
            histc(tensor_only(input, "histc"), bins, min, max, out_argument(out, "histc")), out);
      },
      nb::arg("input"), nb::arg("bins") = 100, nb::arg("min") = 0.0, nb::arg("max") = 0.0,
      nb::kw_only(), nb::arg("out").none() = nb::none(), docs::histc);
  cls.def(
      "histc",
      [](const Tensor& self, int64_t bins, double min, double max) {
        return wrap(histc(self, bins, min, max));
      },
      nb::arg("bins") = 100, nb::arg("min") = 0.0, nb::arg("max") = 0.0);
  m.def(
      "bincount",
      [](nb::handle input, nb::handle weights, int64_t minlength) {
        return wrap(bincount(
            tensor_only(input, "bincount"),
            weights.is_none() ? Tensor() : tensor_only(weights, "bincount", "weights"), minlength));
      },
      nb::arg("input"), nb::arg("weights").none() = nb::none(), nb::arg("minlength") = 0,
      docs::bincount);
  cls.def(
      "bincount",
      [](const Tensor& self, nb::handle weights, int64_t minlength) {
        return wrap(bincount(
            self, weights.is_none() ? Tensor() : tensor_only(weights, "bincount", "weights"),
            minlength));
      },
      nb::arg("weights").none() = nb::none(), nb::arg("minlength") = 0);
}

}  // namespace

void init_select(nb::module_& m, TensorClass& cls) {
  nb::object types = m.attr("return_types");
  nb::object module_name = types.attr("__name__");
  nb::object namedtuple = nb::module_::import_("collections").attr("namedtuple");
  const char* names[kNumResults] = {"mode", "cummax", "cummin", "nanmedian", "aminmax"};
  for (int r = 0; r < kNumResults; ++r) {
    nb::object fields =
        r == kAminmax ? nb::make_tuple("min", "max") : nb::make_tuple("values", "indices");
    nb::object t = namedtuple(names[r], fields, nb::arg("module").none() = module_name);
    types.attr(names[r]) = t;
    g_result[r] = t.release();  // lives as long as the module
  }

  m.def(
      "mode",
      [](nb::handle input, int64_t dim, bool keepdim, nb::handle out) {
        return pair_out(kMode, mode(tensor_only(input, "mode"), dim, keepdim), out, "mode");
      },
      nb::arg("input"), nb::arg("dim") = -1, nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("out").none() = nb::none(), docs::mode);
  cls.def(
      "mode",
      [](const Tensor& self, int64_t dim, bool keepdim) {
        return make_result(kMode, mode(self, dim, keepdim));
      },
      nb::arg("dim") = -1, nb::arg("keepdim") = false);

  m.def(
      "unique",
      [](nb::handle input, bool, bool return_inverse, bool return_counts,
         std::optional<int64_t> dim) {
        return unique_result(tensor_only(input, "unique"), return_inverse, return_counts, dim);
      },
      nb::arg("input"), nb::arg("sorted") = true, nb::arg("return_inverse") = false,
      nb::arg("return_counts") = false, nb::arg("dim").none() = nb::none(), docs::unique);
  cls.def(
      "unique",
      [](const Tensor& self, bool, bool return_inverse, bool return_counts,
         std::optional<int64_t> dim) {
        return unique_result(self, return_inverse, return_counts, dim);
      },
      nb::arg("sorted") = true, nb::arg("return_inverse") = false, nb::arg("return_counts") = false,
      nb::arg("dim").none() = nb::none());

  def_counting(m, cls);
  def_cum(m, cls, "cummax", kCummax, &cummax, docs::cummax);
  def_cum(m, cls, "cummin", kCummin, &cummin, docs::cummin);

  m.def(
      "logcumsumexp",
      [](nb::handle input, int64_t dim, nb::handle out) {
        return result_or_out(logcumsumexp(tensor_only(input, "logcumsumexp"), dim,
                                          out_argument(out, "logcumsumexp")),
                             out);
      },
      nb::arg("input"), nb::arg("dim"), nb::kw_only(), nb::arg("out").none() = nb::none(),
      docs::logcumsumexp);
  cls.def(
      "logcumsumexp", [](const Tensor& self, int64_t dim) { return wrap(logcumsumexp(self, dim)); },
      nb::arg("dim"));

  m.def(
      "aminmax",
      [](nb::handle input, std::optional<int64_t> dim, bool keepdim, nb::handle out) {
        return pair_out(kAminmax, aminmax(tensor_only(input, "aminmax"), dim, keepdim), out,
                        "aminmax");
      },
      nb::arg("input"), nb::kw_only(), nb::arg("dim").none() = nb::none(),
      nb::arg("keepdim") = false, nb::arg("out").none() = nb::none(), docs::aminmax);
  cls.def(
      "aminmax",
      [](const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
        return make_result(kAminmax, aminmax(self, dim, keepdim));
      },
      nb::kw_only(), nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false);

  m.def(
      "nanmedian",
      [](nb::handle input, std::optional<int64_t> dim, bool keepdim, nb::handle out) -> nb::object {
        const Tensor& x = tensor_only(input, "nanmedian");
        if (!dim) {
          EMBER_CHECK(out.is_none() && !keepdim, TypeError, "[nanmedian] 'out' and 'keepdim' need ",
                      "'dim'");
          return wrap(nanmedian(x));
        }
        return pair_out(kNanmedian, nanmedian_dim(x, *dim, keepdim), out, "nanmedian");
      },
      nb::arg("input"), nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false,
      nb::kw_only(), nb::arg("out").none() = nb::none(), docs::nanmedian);
  cls.def(
      "nanmedian",
      [](const Tensor& self, std::optional<int64_t> dim, bool keepdim) -> nb::object {
        if (!dim) {
          EMBER_CHECK(!keepdim, TypeError, "[nanmedian] 'keepdim' needs 'dim'");
          return wrap(nanmedian(self));
        }
        return make_result(kNanmedian, nanmedian_dim(self, *dim, keepdim));
      },
      nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false);

  def_quantile(m, cls, "quantile", false, docs::quantile);
  def_quantile(m, cls, "nanquantile", true, docs::nanquantile);
}

}  // namespace ember::py
