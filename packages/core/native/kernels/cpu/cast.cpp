// dtype conversion kernels: cast[to][from] for every pair (the copy_ and .to(dtype) path).
#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

template <typename To, typename... Froms>
void set_casts_to(Loop1d (&row)[kNumScalarTypes], TypeList<Froms...>) {
  ((row[dtype_index<Froms>()] = &unary_loop<Froms, To, Identity>), ...);
}
template <typename... Tos>
void set_casts(KernelTable& t, TypeList<Tos...>) {
  ((set_casts_to<Tos>(t.cast[dtype_index<Tos>()], AllTypes{})), ...);
}

}  // namespace

void fill_cast(KernelTable& t) { set_casts(t, AllTypes{}); }

}  // namespace ember::cpu::EMBER_ISA_NS
