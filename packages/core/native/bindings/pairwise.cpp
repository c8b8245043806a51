// ember.polygamma (+ Tensor.polygamma/polygamma_), cov, corrcoef and cdist with torch's argument
// names. Conversion only; the ops live in src/ops_pairwise.cpp.
#include "python_api.h"

namespace ember::py {

void init_pairwise(nb::module_& m, TensorClass& cls) {
  m.def(
      "polygamma",
      [](nb::handle n, nb::handle input, nb::handle out) {
        return result_or_out(
            polygamma(int_argument(n, "polygamma", "n"), tensor_argument(input, "polygamma"),
                      out_argument(out, "polygamma")),
            out);
      },
      nb::arg("n"), nb::arg("input").none(), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "polygamma",
      [](const Tensor& self, nb::handle n) {
        return wrap(polygamma(int_argument(n, "polygamma", "n"), self));
      },
      nb::arg("n"));
  cls.def(
      "polygamma_",
      [](nb::handle self, nb::handle n) {
        polygamma(int_argument(n, "polygamma_", "n"), unwrap(self), {}, true);
        return nb::borrow(self);
      },
      nb::arg("n"));

  auto cov_fn = [](const Tensor& x, nb::handle correction, nb::handle fweights,
                   nb::handle aweights) {
    const Tensor fw = fweights.is_none() ? Tensor() : tensor_argument(fweights, "cov", "fweights");
    const Tensor aw = aweights.is_none() ? Tensor() : tensor_argument(aweights, "cov", "aweights");
    return wrap(cov(x, int_argument(correction, "cov", "correction"), fw, aw));
  };
  m.def(
      "cov",
      [cov_fn](nb::handle input, nb::handle correction, nb::handle fweights, nb::handle aweights) {
        return cov_fn(tensor_argument(input, "cov"), correction, fweights, aweights);
      },
      nb::arg("input").none(), nb::kw_only(), nb::arg("correction") = 1,
      nb::arg("fweights") = nb::none(), nb::arg("aweights") = nb::none());
  cls.def("cov", cov_fn, nb::kw_only(), nb::arg("correction") = 1, nb::arg("fweights") = nb::none(),
          nb::arg("aweights") = nb::none());
  m.def(
      "corrcoef",
      [](nb::handle input) { return wrap(corrcoef(tensor_argument(input, "corrcoef"))); },
      nb::arg("input").none());
  cls.def("corrcoef", [](const Tensor& self) { return wrap(corrcoef(self)); });

  m.def(
      "cdist",
      [](nb::handle x1, nb::handle x2, nb::handle p, nb::handle compute_mode) {
        EMBER_CHECK(is_python_scalar(p) && !PyBool_Check(p.ptr()), TypeError,
                    "[cdist] argument 'p' must be a float, not ", nb::type_name(p.type()).c_str());
        std::string mode = "use_mm_for_euclid_dist_if_necessary";
        if (!compute_mode.is_none()) {
          EMBER_CHECK(PyUnicode_Check(compute_mode.ptr()), TypeError,
                      "[cdist] argument 'compute_mode' must be str, not ",
                      nb::type_name(compute_mode.type()).c_str());
          mode = nb::cast<std::string>(compute_mode);
        }
        return wrap(cdist(tensor_argument(x1, "cdist", "x1"), tensor_argument(x2, "cdist", "x2"),
                          nb::cast<double>(p), mode));
      },
      nb::arg("x1").none(), nb::arg("x2"), nb::arg("p") = 2.0,
      nb::arg("compute_mode") = nb::none());
}

}  // namespace ember::py
