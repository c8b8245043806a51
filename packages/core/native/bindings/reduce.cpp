// Reductions: ember.sum(input, dim=None, keepdim=False, *, dtype=None, out=None) and friends.
#include <nanobind/stl/pair.h>

#include "python_api.h"

namespace ember::py {
namespace {

using SumLike = Tensor (*)(const Tensor&, const Dims&, bool, std::optional<ScalarType>,
                           const Tensor&);
using MinMaxLike = Tensor (*)(const Tensor&, const Dims&, bool, const Tensor&);

void def_sum_like(nb::module_& m, TensorClass& cls, const char* name, SumLike fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle dim, bool keepdim, nb::handle dtype, nb::handle out) {
        return result_or_out(fn(to_tensor(input, name), to_dims(dim, name), keepdim,
                                to_optional_dtype(dtype, name), out_argument(out, name)),
                             out);
      },
      nb::arg("input"), nb::arg("dim") = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, nb::handle dim, bool keepdim, nb::handle dtype) {
        return wrap(fn(self, to_dims(dim, name), keepdim, to_optional_dtype(dtype, name), {}));
      },
      nb::arg("dim") = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("dtype") = nb::none());
}

void def_min_max_like(nb::module_& m, TensorClass& cls, const char* name, MinMaxLike fn) {
  m.def(
      name,
      [fn, name](nb::handle input, nb::handle dim, bool keepdim, nb::handle out) {
        return result_or_out(
            fn(to_tensor(input, name), to_dims(dim, name), keepdim, out_argument(out, name)), out);
      },
      nb::arg("input"), nb::arg("dim") = nb::none(), nb::arg("keepdim") = false, nb::kw_only(),
      nb::arg("out") = nb::none());
  cls.def(
      name,
      [fn, name](const Tensor& self, nb::handle dim, bool keepdim) {
        return wrap(fn(self, to_dims(dim, name), keepdim, {}));
      },
      nb::arg("dim") = nb::none(), nb::arg("keepdim") = false);
}

}  // namespace

void init_reduce(nb::module_& m, TensorClass& cls) {
  def_sum_like(m, cls, "sum", &sum);
  def_sum_like(m, cls, "prod", &prod);
  def_sum_like(m, cls, "mean", &mean);
  def_sum_like(m, cls, "nansum", &nansum);
  def_sum_like(m, cls, "nanmean", &nanmean);
  def_min_max_like(m, cls, "amax", &amax);
  def_min_max_like(m, cls, "amin", &amin);
  def_min_max_like(m, cls, "all", &all);
  def_min_max_like(m, cls, "any", &any);
  init_reduce_dim(m, cls);
}

}  // namespace ember::py
