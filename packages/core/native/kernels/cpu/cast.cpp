// dtype conversion kernels: cast[to][from] for every pair (the copy_ and .to(dtype) path).
#include "math_ops.h"
#include "type_lists.h"

namespace ember::cpu::EMBER_ISA_NS {
namespace {

template <typename T>
constexpr bool kWideUnsigned =
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>;

// float -> uint16/32/64 as torch converts: through int64 (so -1.0 wraps to the maximum), values
// at or above 2**63 directly to uint64; NaN gives 0.
template <typename To, typename From>
To float_to_unsigned(From v) {
  const double d = static_cast<double>(static_cast<compute_t<From>>(v));
  if (!(d == d)) return To(0);
  if constexpr (std::is_same_v<To, uint64_t>) {
    if (d >= 9223372036854775808.0) return d >= 18446744073709551616.0 ? To(0) : static_cast<To>(d);
  }
  if (d <= -9223372036854775808.0 || d >= 9223372036854775808.0) return To(0);
  return static_cast<To>(static_cast<int64_t>(d));
}

template <typename From, typename To>
void float_to_unsigned_loop(char** data, const int64_t* strides, int64_t n, const void*) {
  char* o = data[0];
  const char* a = data[1];
  for (int64_t i = 0; i < n; ++i, o += strides[0], a += strides[1]) {
    *reinterpret_cast<To*>(o) = float_to_unsigned<To>(*reinterpret_cast<const From*>(a));
  }
}

template <typename To, typename... Froms>
void set_casts_to(Loop1d (&row)[kNumScalarTypes], TypeList<Froms...>) {
  auto pick = [](auto tag) -> Loop1d {
    using From = typename decltype(tag)::type;
    if constexpr (kWideUnsigned<To> && !std::is_integral_v<From>) {
      return &float_to_unsigned_loop<From, To>;
    } else {
      return &unary_loop<From, To, Identity>;
    }
  };
  ((row[dtype_index<Froms>()] = pick(CppTypeTag<Froms>{})), ...);
}
template <typename... Tos>
void set_casts(KernelTable& t, TypeList<Tos...>) {
  ((set_casts_to<Tos>(t.cast[dtype_index<Tos>()], CastTypes{})), ...);
}

}  // namespace

void fill_cast(KernelTable& t) { set_casts(t, CastTypes{}); }

}  // namespace ember::cpu::EMBER_ISA_NS
