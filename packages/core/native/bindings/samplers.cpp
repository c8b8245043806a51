// multinomial, poisson and the in-place samplers geometric_, log_normal_, cauchy_ (argument
// conversion only; the samplers are in src/samplers.cpp).
#include "python_api.h"

namespace ember::py {
namespace docs {
constexpr const char* multinomial = R"doc(Draws category indices from the rows of `input` (weights).

Args:
    input (Tensor): 1-d or 2-d non-negative float weights (need not sum to 1).
    num_samples (int): how many indices to draw per row.
    replacement (bool): draw with replacement; without it, at most num_categories samples.
    generator (Generator, optional): the stream to draw from.

Example:
    >>> g = ember.Generator().manual_seed(0)
    >>> ember.multinomial(ember.tensor([0.0, 1.0, 0.0]), 2, True, generator=g).tolist()
    [1, 1]
)doc";
constexpr const char* poisson = R"doc(A Poisson-distributed count for each rate in `input`.

Example:
    >>> ember.poisson(ember.zeros(3)).tolist()
    [0.0, 0.0, 0.0]
)doc";
}  // namespace docs

void init_samplers(nb::module_& m, TensorClass& cls) {
  m.def(
      "multinomial",
      [](nb::handle input, int64_t num_samples, bool replacement, nb::handle generator,
         nb::handle out) {
        EMBER_CHECK(is_tensor(input), TypeError, "[multinomial] argument 'input' must be Tensor, ",
                    "not ", nb::type_name(input.type()).c_str());
        return result_or_out(
            multinomial(unwrap(input), num_samples, replacement,
                        to_generator(generator, "multinomial"), out_argument(out, "multinomial")),
            out);
      },
      nb::arg("input"), nb::arg("num_samples"), nb::arg("replacement") = false, nb::kw_only(),
      nb::arg("generator").none() = nb::none(), nb::arg("out").none() = nb::none(),
      docs::multinomial);
  cls.def(
      "multinomial",
      [](const Tensor& self, int64_t num_samples, bool replacement, nb::handle generator) {
        return wrap(
            multinomial(self, num_samples, replacement, to_generator(generator, "multinomial")));
      },
      nb::arg("num_samples"), nb::arg("replacement") = false, nb::kw_only(),
      nb::arg("generator").none() = nb::none());

  m.def(
      "poisson",
      [](nb::handle input, nb::handle generator) {
        EMBER_CHECK(is_tensor(input), TypeError, "[poisson] argument 'input' must be Tensor, not ",
                    nb::type_name(input.type()).c_str());
        return wrap(poisson(unwrap(input), to_generator(generator, "poisson")));
      },
      nb::arg("input"), nb::arg("generator").none() = nb::none(), docs::poisson);

  cls.def(
      "geometric_",
      [](nb::handle self, double p, nb::handle generator) {
        geometric_(unwrap(self), p, to_generator(generator, "geometric_"));
        return nb::borrow(self);
      },
      nb::arg("p"), nb::kw_only(), nb::arg("generator").none() = nb::none());
  cls.def(
      "log_normal_",
      [](nb::handle self, double mean, double std, nb::handle generator) {
        log_normal_(unwrap(self), mean, std, to_generator(generator, "log_normal_"));
        return nb::borrow(self);
      },
      nb::arg("mean") = 1.0, nb::arg("std") = 2.0, nb::kw_only(),
      nb::arg("generator").none() = nb::none());
  cls.def(
      "cauchy_",
      [](nb::handle self, double median, double sigma, nb::handle generator) {
        cauchy_(unwrap(self), median, sigma, to_generator(generator, "cauchy_"));
        return nb::borrow(self);
      },
      nb::arg("median") = 0.0, nb::arg("sigma") = 1.0, nb::kw_only(),
      nb::arg("generator").none() = nb::none());
}

}  // namespace ember::py
