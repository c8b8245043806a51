#include "python_api.h"

namespace ember::py {
void init_reduce_dim(nb::module_& m, TensorClass& cls) {}
}  // namespace ember::py
