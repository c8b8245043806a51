// Unary elementwise kernels and predicates (isnan, ...), one instantiation per (op, dtype).
#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

template <typename Op, typename... Ts>
void set_unary(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &unary_loop<Ts, Ts, Op>), ...);
}
template <typename Op, typename... Ts>
void set_predicate(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &unary_loop<Ts, bool, Op>), ...);
}

}  // namespace

void fill_unary(KernelTable& t) {
// The registry's kernel declarations (ember/generated/elementwise_kernels.inc) list every row.
#define UNARY(name, types, ...) set_unary<name>(t.unary[static_cast<int>(UnaryOp::name)], types{});
  EMBER_UNARY_KERNELS(UNARY)
#undef UNARY
#define PREDICATE(name, types, ...) \
  set_predicate<name>(t.predicate[static_cast<int>(PredicateOp::name)], types{});
  EMBER_PREDICATE_KERNELS(PREDICATE)
#undef PREDICATE
}

}  // namespace ember::cpu::EMBER_ISA_NS
