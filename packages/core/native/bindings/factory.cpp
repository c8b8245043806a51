#include "python_api.h"

namespace ember::py {
void init_factory(nb::module_& m) {}
}  // namespace ember::py
