// The FFT kernels as private functions of ember._C on real tensors that hold complex values in a
// trailing dim of size 2 (view_as_real's layout); ember.fft gives them torch's public API.
// normalization is "backward", "ortho" or "forward" with numpy/torch's norm= meaning: the
// direction it names (or both, for "ortho") is the one scaled.
#include "ember/fft.h"

#include <nanobind/stl/string.h>

#include <string>

#include "python_api.h"

namespace ember::py {

void init_fft(nb::module_& m) {
  m.def(
      "_fft_c2c",
      [](nb::handle x, nb::handle dims, const std::string& normalization, bool forward) {
        const char* op = "fft_c2c";
        return wrap(fft_c2c(tensor_argument(x, op, "input"), to_int_list(dims, op, "dim"),
                            parse_fft_norm(normalization, op), forward));
      },
      nb::arg("input").none(), nb::arg("dim").none(), nb::arg("normalization"), nb::arg("forward"),
      "Complex-to-complex FFT of a (..., 2) float tensor over dims of its complex view.");
  m.def(
      "_fft_r2c",
      [](nb::handle x, nb::handle dims, const std::string& normalization, bool onesided) {
        const char* op = "fft_r2c";
        return wrap(fft_r2c(tensor_argument(x, op, "input"), to_int_list(dims, op, "dim"),
                            parse_fft_norm(normalization, op), onesided));
      },
      nb::arg("input").none(), nb::arg("dim").none(), nb::arg("normalization"), nb::arg("onesided"),
      "Real-to-complex forward FFT; the result holds complex values as a trailing dim of 2.");
  m.def(
      "_fft_c2r",
      [](nb::handle x, nb::handle dims, const std::string& normalization,
         nb::handle last_dim_size) {
        const char* op = "fft_c2r";
        return wrap(fft_c2r(tensor_argument(x, op, "input"), to_int_list(dims, op, "dim"),
                            parse_fft_norm(normalization, op),
                            int_argument(last_dim_size, op, "last_dim_size")));
      },
      nb::arg("input").none(), nb::arg("dim").none(), nb::arg("normalization"),
      nb::arg("last_dim_size").none(),
      "Complex-to-real inverse FFT of a Hermitian half-spectrum held as (..., 2).");
}

}  // namespace ember::py
