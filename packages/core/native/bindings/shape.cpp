#include "python_api.h"

namespace ember::py {
void init_shape(nb::module_& m, TensorClass& cls) {}
void init_indexing(nb::module_& m, TensorClass& cls) {}
}  // namespace ember::py
