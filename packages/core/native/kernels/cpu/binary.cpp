// Binary elementwise kernels, comparisons and where(), one instantiation per (op, dtype).
#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

template <typename Op, typename... Ts>
void set_binary(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &binary_loop<Ts, Ts, Op>), ...);
}
template <typename Op, typename... Ts>
void set_compare(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &binary_loop<Ts, bool, Op>), ...);
}

template <typename... Ts>
void set_where(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &where_loop<Ts>), ...);
}

template <typename... Ts>
void set_lerp_tensor(Loop1d (&row)[kNumScalarTypes], TypeList<Ts...>) {
  ((row[dtype_index<Ts>()] = &ternary_loop<Ts, Lerp>), ...);
}

#ifdef EMBER_ISA_BASELINE
// nextafter for a 16-bit float (T holds its IEEE-style bits): one step of the bit pattern away
// from or towards zero; NaN if either is NaN, `b` itself when equal, +-min subnormal from 0.
template <typename T>
void nextafter16_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  char* o = data[0];
  const char *pa = data[1], *pb = data[2];
  for (int64_t i = 0; i < n; ++i, o += strides[0], pa += strides[1], pb += strides[2]) {
    const T a = *reinterpret_cast<const T*>(pa), b = *reinterpret_cast<const T*>(pb);
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    T r = b;
    if (std::isnan(fa) || std::isnan(fb)) {
      r = T(fa + fb);
    } else if (fa == 0 && fb != 0) {
      r.bits = static_cast<uint16_t>(fb < 0 ? 0x8001 : 0x0001);
    } else if (fa != fb) {
      r = a;
      r.bits = static_cast<uint16_t>((fa < fb) == (fa > 0) ? a.bits + 1 : a.bits - 1);
    }
    *reinterpret_cast<T*>(o) = r;
  }
}
#endif

}  // namespace

void fill_binary(KernelTable& t) {
// The registry's kernel declarations (ember/generated/elementwise_kernels.inc) list every row.
#define BINARY(name, types, ...) \
  set_binary<name>(t.binary[static_cast<int>(BinaryOp::name)], types{});
  EMBER_BINARY_KERNELS(BINARY)
#undef BINARY
#ifdef EMBER_ISA_BASELINE
  Loop1d(&nextafter)[kNumScalarTypes] = t.binary[static_cast<int>(BinaryOp::Nextafter)];
  nextafter[dtype_index<Half>()] = &nextafter16_loop<Half>;
  nextafter[dtype_index<BFloat16>()] = &nextafter16_loop<BFloat16>;
#endif
#define COMPARE(name, types, ...) \
  set_compare<name>(t.compare[static_cast<int>(CompareOp::name)], types{});
  EMBER_COMPARE_KERNELS(COMPARE)
#undef COMPARE
  set_where(t.where, AllTypes{});
  set_lerp_tensor(t.lerp_tensor, FloatTypes{});
}

}  // namespace ember::cpu::EMBER_ISA_NS
