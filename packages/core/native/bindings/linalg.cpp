#include "python_api.h"

namespace ember::py {
void init_linalg(nb::module_& m, TensorClass& cls) {}
}  // namespace ember::py
