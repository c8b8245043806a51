// Sorting and selection: sort/argsort/msort, topk, kthvalue, median (namedtuples from
// ember.return_types like torch.return_types), searchsorted, bucketize, unique_consecutive.
#include "python_api.h"

namespace ember::py {
namespace {

enum Result { kSort, kTopk, kKthvalue, kMedian, kNumResults };
nb::handle g_result[kNumResults];

nb::object make_result(Result r, nb::handle values, nb::handle indices) {
  return g_result[r](values, indices);
}

nb::object make_result(Result r, const std::pair<Tensor, Tensor>& p) {
  return make_result(r, wrap(p.first), wrap(p.second));
}

const Tensor& as_input(nb::handle h, const char* op, const char* arg = "input") {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

int64_t as_int(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(!PyBool_Check(h.ptr()) && PyIndex_Check(h.ptr()), TypeError, "[", op, "] argument '",
              arg, "' must be int, not ", nb::type_name(h.type()).c_str());
  bool overflow = false;
  const std::optional<int64_t> v = index_value(h, &overflow);
  EMBER_CHECK(!overflow, ValueError, "[", op, "] argument '", arg, "' value ", nb::str(h).c_str(),
              " does not fit in int64");
  EMBER_CHECK(v.has_value(), TypeError, "[", op, "] argument '", arg, "' must be int, not ",
              nb::type_name(h.type()).c_str());
  return *v;
}

bool as_bool(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(PyBool_Check(h.ptr()), TypeError, "[", op, "] argument '", arg,
              "' must be bool, not ", nb::type_name(h.type()).c_str());
  return h.ptr() == Py_True;
}

// dim=None means the last dim (torch's topk/kthvalue accept None).
int64_t as_dim(nb::handle h, const char* op) { return h.is_none() ? -1 : as_int(h, op, "dim"); }

// out=(values, indices): checked and filled, returned as the op's namedtuple.
nb::object pair_out(Result r, const std::pair<Tensor, Tensor>& p, nb::handle out, const char* op) {
  if (out.is_none()) return make_result(r, p);
  EMBER_CHECK((nb::isinstance<nb::tuple>(out) || nb::isinstance<nb::list>(out)) &&
                  nb::len(out) == 2 && is_tensor(out[0]) && is_tensor(out[1]),
              TypeError, "[", op, "] 'out' must be a tuple of two Tensors (values, indices)");
  deliver_pair(p, unwrap(out[0]), unwrap(out[1]), op);
  return make_result(r, out[0], out[1]);
}

nb::object median_any(const Tensor& x, nb::handle dim, nb::handle keepdim, nb::handle out) {
  if (dim.is_none()) {
    EMBER_CHECK(!as_bool(keepdim, "median", "keepdim"), TypeError,
                "[median] 'keepdim' needs 'dim'");
    return result_or_out(median(x), nb::none());
  }
  return pair_out(
      kMedian, median_dim(x, as_int(dim, "median", "dim"), as_bool(keepdim, "median", "keepdim")),
      out, "median");
}

// side="left"|"right" and right=True must agree (torch's rule).
bool search_right(nb::handle right, nb::handle side, const char* op) {
  const bool r = as_bool(right, op, "right");
  if (side.is_none()) return r;
  EMBER_CHECK(PyUnicode_Check(side.ptr()), TypeError, "[", op,
              "] argument 'side' must be str, not ", nb::type_name(side.type()).c_str());
  const std::string s = nb::cast<std::string>(side);
  EMBER_CHECK(s == "left" || s == "right", RuntimeError, "[", op,
              "] side can only be 'left' or 'right' but got ", s);
  EMBER_CHECK(!(r && s == "left"), RuntimeError, "[", op,
              "] side and right can't be set to opposites, got side of left while right was True");
  return s == "right";
}

}  // namespace

void init_sort(nb::module_& m, TensorClass& cls) {
  // ember.return_types exists already (init_reduce_dim); add this family's namedtuples.
  nb::object types = m.attr("return_types");
  nb::object module_name = types.attr("__name__");
  nb::object namedtuple = nb::module_::import_("collections").attr("namedtuple");
  const char* names[kNumResults] = {"sort", "topk", "kthvalue", "median"};
  for (int r = 0; r < kNumResults; ++r) {
    nb::object t = namedtuple(names[r], nb::make_tuple("values", "indices"),
                              nb::arg("module").none() = module_name);
    types.attr(names[r]) = t;
    g_result[r] = t.release();  // lives as long as the module
  }

  m.def(
      "sort",
      [](nb::handle input, nb::handle dim, nb::handle descending, nb::handle stable,
         nb::handle out) {
        as_bool(stable, "sort", "stable");  // every sort is stable
        const auto p = sort(as_input(input, "sort"), as_int(dim, "sort", "dim"),
                            as_bool(descending, "sort", "descending"));
        return pair_out(kSort, p, out, "sort");
      },
      nb::arg("input"), nb::arg("dim").none() = -1, nb::arg("descending").none() = false,
      nb::kw_only(), nb::arg("stable").none() = false, nb::arg("out").none() = nb::none());
  cls.def(
      "sort",
      [](const Tensor& self, nb::handle dim, nb::handle descending, nb::handle stable) {
        as_bool(stable, "sort", "stable");
        return make_result(kSort, sort(self, as_int(dim, "sort", "dim"),
                                       as_bool(descending, "sort", "descending")));
      },
      nb::arg("dim").none() = -1, nb::arg("descending").none() = false, nb::kw_only(),
      nb::arg("stable").none() = false);

  m.def(
      "argsort",
      [](nb::handle input, nb::handle dim, nb::handle descending, nb::handle stable) {
        as_bool(stable, "argsort", "stable");
        return wrap(argsort(as_input(input, "argsort"), as_int(dim, "argsort", "dim"),
                            as_bool(descending, "argsort", "descending")));
      },
      nb::arg("input"), nb::arg("dim").none() = -1, nb::arg("descending").none() = false,
      nb::kw_only(), nb::arg("stable").none() = false);
  cls.def(
      "argsort",
      [](const Tensor& self, nb::handle dim, nb::handle descending, nb::handle stable) {
        as_bool(stable, "argsort", "stable");
        return wrap(argsort(self, as_int(dim, "argsort", "dim"),
                            as_bool(descending, "argsort", "descending")));
      },
      nb::arg("dim").none() = -1, nb::arg("descending").none() = false, nb::kw_only(),
      nb::arg("stable").none() = false);

  m.def(
      "msort",
      [](nb::handle input, nb::handle out) {
        const Tensor values = sort(as_input(input, "msort"), 0).first;
        if (out.is_none()) return wrap(values);
        const Tensor& o = as_input(out, "msort", "out");
        write_out(values, o, "msort", {.dtype = OutDtype::kExact});
        return nb::borrow(out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out").none() = nb::none());
  cls.def("msort", [](const Tensor& self) { return wrap(sort(self, 0).first); });

  m.def(
      "topk",
      [](nb::handle input, nb::handle k, nb::handle dim, nb::handle largest, nb::handle sorted,
         nb::handle out) {
        const auto p = topk(as_input(input, "topk"), as_int(k, "topk", "k"), as_dim(dim, "topk"),
                            as_bool(largest, "topk", "largest"), as_bool(sorted, "topk", "sorted"));
        return pair_out(kTopk, p, out, "topk");
      },
      nb::arg("input"), nb::arg("k").none(), nb::arg("dim").none() = -1,
      nb::arg("largest").none() = true, nb::arg("sorted").none() = true, nb::kw_only(),
      nb::arg("out").none() = nb::none());
  cls.def(
      "topk",
      [](const Tensor& self, nb::handle k, nb::handle dim, nb::handle largest, nb::handle sorted) {
        return make_result(
            kTopk, topk(self, as_int(k, "topk", "k"), as_dim(dim, "topk"),
                        as_bool(largest, "topk", "largest"), as_bool(sorted, "topk", "sorted")));
      },
      nb::arg("k").none(), nb::arg("dim").none() = -1, nb::arg("largest").none() = true,
      nb::arg("sorted").none() = true);

  m.def(
      "kthvalue",
      [](nb::handle input, nb::handle k, nb::handle dim, nb::handle keepdim, nb::handle out) {
        const auto p = kthvalue(as_input(input, "kthvalue"), as_int(k, "kthvalue", "k"),
                                as_dim(dim, "kthvalue"), as_bool(keepdim, "kthvalue", "keepdim"));
        return pair_out(kKthvalue, p, out, "kthvalue");
      },
      nb::arg("input"), nb::arg("k").none(), nb::arg("dim").none() = -1,
      nb::arg("keepdim").none() = false, nb::kw_only(), nb::arg("out").none() = nb::none());
  cls.def(
      "kthvalue",
      [](const Tensor& self, nb::handle k, nb::handle dim, nb::handle keepdim) {
        return make_result(kKthvalue,
                           kthvalue(self, as_int(k, "kthvalue", "k"), as_dim(dim, "kthvalue"),
                                    as_bool(keepdim, "kthvalue", "keepdim")));
      },
      nb::arg("k").none(), nb::arg("dim").none() = -1, nb::arg("keepdim").none() = false);

  m.def(
      "median",
      [](nb::handle input, nb::handle dim, nb::handle keepdim, nb::handle out) {
        EMBER_CHECK(!(dim.is_none() && !out.is_none()), TypeError,
                    "[median] 'out' needs 'dim' (median(input) has no out=)");
        return median_any(as_input(input, "median"), dim, keepdim, out);
      },
      nb::arg("input"), nb::arg("dim").none() = nb::none(), nb::arg("keepdim").none() = false,
      nb::kw_only(), nb::arg("out").none() = nb::none());
  cls.def(
      "median",
      [](const Tensor& self, nb::handle dim, nb::handle keepdim) {
        return median_any(self, dim, keepdim, nb::none());
      },
      nb::arg("dim").none() = nb::none(), nb::arg("keepdim").none() = false);

  m.def(
      "searchsorted",
      [](nb::handle sorted_sequence, nb::handle values, nb::handle out_int32, nb::handle right,
         nb::handle side, nb::handle out, nb::handle sorter) {
        const char* op = "searchsorted";
        const Tensor result = searchsorted(
            as_input(sorted_sequence, op, "sorted_sequence"), to_tensor(values, op, "values"),
            as_bool(out_int32, op, "out_int32"), search_right(right, side, op),
            sorter.is_none() ? Tensor() : as_input(sorter, op, "sorter"), out_argument(out, op),
            op);
        return result_or_out(result, out);
      },
      nb::arg("sorted_sequence"), nb::arg("values"), nb::kw_only(),
      nb::arg("out_int32").none() = false, nb::arg("right").none() = false,
      nb::arg("side").none() = nb::none(), nb::arg("out").none() = nb::none(),
      nb::arg("sorter").none() = nb::none());

  m.def(
      "bucketize",
      [](nb::handle input, nb::handle boundaries, nb::handle out_int32, nb::handle right,
         nb::handle out) {
        const char* op = "bucketize";
        const Tensor result =
            bucketize(to_tensor(input, op, "input"), as_input(boundaries, op, "boundaries"),
                      as_bool(out_int32, op, "out_int32"), as_bool(right, op, "right"),
                      out_argument(out, op));
        return result_or_out(result, out);
      },
      nb::arg("input"), nb::arg("boundaries"), nb::kw_only(), nb::arg("out_int32").none() = false,
      nb::arg("right").none() = false, nb::arg("out").none() = nb::none());

  // A tensor, or a tuple (output, [inverse], [counts]) when asked for either.
  auto unique = [](const Tensor& x, nb::handle inverse, nb::handle counts, nb::handle dim) {
    const char* op = "unique_consecutive";
    const bool want_inverse = as_bool(inverse, op, "return_inverse");
    const bool want_counts = as_bool(counts, op, "return_counts");
    auto [values, inv, cnt] = unique_consecutive(
        x, dim.is_none() ? std::nullopt : std::optional<int64_t>(as_int(dim, op, "dim")));
    if (!want_inverse && !want_counts) return wrap(values);
    nb::list parts;
    parts.append(wrap(values));
    if (want_inverse) parts.append(wrap(inv));
    if (want_counts) parts.append(wrap(cnt));
    return nb::object(nb::tuple(parts));
  };
  m.def(
      "unique_consecutive",
      [unique](nb::handle input, nb::handle return_inverse, nb::handle return_counts,
               nb::handle dim) {
        return unique(as_input(input, "unique_consecutive"), return_inverse, return_counts, dim);
      },
      nb::arg("input"), nb::arg("return_inverse").none() = false,
      nb::arg("return_counts").none() = false, nb::arg("dim").none() = nb::none());
  cls.def(
      "unique_consecutive",
      [unique](const Tensor& self, nb::handle return_inverse, nb::handle return_counts,
               nb::handle dim) { return unique(self, return_inverse, return_counts, dim); },
      nb::arg("return_inverse").none() = false, nb::arg("return_counts").none() = false,
      nb::arg("dim").none() = nb::none());
}

}  // namespace ember::py
