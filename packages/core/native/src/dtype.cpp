// dtype names, sizes and PyTorch's promotion table.
#include "ember/dtype.h"

#include <algorithm>
#include <atomic>

#include "ember/errors.h"
#include "ember/unsigned_support.h"

namespace ember {

int64_t element_size(ScalarType t) {
  static constexpr int64_t sizes[] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 2, 4, 8};
  return sizes[static_cast<int>(t)];
}

std::string_view dtype_name(ScalarType t) {
  static constexpr std::string_view names[] = {
      "bool",    "uint8",   "int8",      "int16",      "int32",  "int64",  "float16", "bfloat16",
      "float32", "float64", "complex64", "complex128", "uint16", "uint32", "uint64"};
  return names[static_cast<int>(t)];
}

ScalarType to_complex_type(ScalarType t) {
  if (is_complex(t)) return t;
  return t == ScalarType::Float64 ? ScalarType::ComplexDouble : ScalarType::ComplexFloat;
}

ScalarType default_complex_dtype() { return to_complex_type(default_dtype()); }

// TypeNotImplementedError: ember raised TypeError here before; torch raises NotImplementedError
// or RuntimeError (NotImplementedError is a RuntimeError), so code catching any of them works.
void throw_complex_unsupported(ScalarType t) {
  throw TypeNotImplementedError(str("[<op>] not implemented for '", dtype_name(t),
                                    "' (complex support is "
                                    "partial: see ember's complex dtype notes)"));
}

namespace {
const char* unsigned_torch_name(ScalarType t) {
  return t == ScalarType::UInt16 ? "UInt16" : t == ScalarType::UInt32 ? "UInt32" : "UInt64";
}
}  // namespace

void throw_unsigned_unsupported(ScalarType t) {
  throw TypeNotImplementedError(str("[<op>] not implemented for '", unsigned_torch_name(t), "' (",
                                    dtype_name(t),
                                    " has torch's limited op support: see docs/dtypes)"));
}

void reject_limited_unsigned(ScalarType t, const char* op) {
  EMBER_CHECK(!is_limited_unsigned(t), TypeNotImplementedError, "[", op, "] not implemented for '",
              unsigned_torch_name(t), "' (", dtype_name(t), " has torch's limited op support)");
}

void reject_complex(ScalarType t, const char* op) {
  EMBER_CHECK(!is_complex(t), TypeNotImplementedError, "[", op, "] not implemented for '",
              dtype_name(t), "' (complex support is partial)");
}

ScalarType promote_types(ScalarType a, ScalarType b) {
  // uint16/32/64 (torch refuses to promote them with anything but themselves and floats): the
  // Array API standard's lattice. With bool: the unsigned type; unsigned widths: the wider one;
  // with a signed type: the narrowest signed type that holds both (uint8 + int8 -> int16, as in
  // torch's table below). uint64 with a signed type has no such type and stays refused.
  if (is_limited_unsigned(a) || is_limited_unsigned(b)) {
    if (a == b) return a;
    if (is_floating(a) || is_complex(a)) return a;
    if (is_floating(b) || is_complex(b)) return b;
    if (a == ScalarType::Bool) return b;
    if (b == ScalarType::Bool) return a;
    const auto bits = [](ScalarType t) { return static_cast<int>(element_size(t)) * 8; };
    const bool a_signed = is_signed(a), b_signed = is_signed(b);
    if (!a_signed && !b_signed) return bits(a) >= bits(b) ? a : b;
    const ScalarType u = a_signed ? b : a, s = a_signed ? a : b;
    const int need = std::max(bits(s), 2 * bits(u));
    if (need <= 64) {
      return need <= 16 ? ScalarType::Int16 : need <= 32 ? ScalarType::Int32 : ScalarType::Int64;
    }
    static constexpr const char* names[] = {
        "Bool",  "Byte",   "Char",         "Short",         "Int",    "Long",   "Half",  "BFloat16",
        "Float", "Double", "ComplexFloat", "ComplexDouble", "UInt16", "UInt32", "UInt64"};
    throw RuntimeError(
        str("[promote_types] Promotion for uint16, uint32, uint64 types is not "
            "supported, attempted to promote ",
            names[static_cast<int>(a)], " and ", names[static_cast<int>(b)],
            " (no signed integer type holds both; cast one of them first)"));
  }
  // With a complex operand: the complex type wide enough for both parts (torch's rule; complex32
  // does not exist here, so float16/bfloat16 + complex64 is complex64).
  if (is_complex(a) || is_complex(b)) {
    const bool wide = a == ScalarType::ComplexDouble || b == ScalarType::ComplexDouble ||
                      a == ScalarType::Float64 || b == ScalarType::Float64;
    return wide ? ScalarType::ComplexDouble : ScalarType::ComplexFloat;
  }
  // torch's table for the real dtypes, in enum order: b1 u1 i1 i2 i4 i8 f2 bf f4 f8.
  using S = ScalarType;
  constexpr S b1 = S::Bool, u1 = S::UInt8, i1 = S::Int8, i2 = S::Int16, i4 = S::Int32,
              i8 = S::Int64, f2 = S::Float16, bf = S::BFloat16, f4 = S::Float32, f8 = S::Float64;
  static constexpr S table[kNumScalarTypes][kNumScalarTypes] = {
      /* b1 */ {b1, u1, i1, i2, i4, i8, f2, bf, f4, f8},
      /* u1 */ {u1, u1, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i1 */ {i1, i2, i1, i2, i4, i8, f2, bf, f4, f8},
      /* i2 */ {i2, i2, i2, i2, i4, i8, f2, bf, f4, f8},
      /* i4 */ {i4, i4, i4, i4, i4, i8, f2, bf, f4, f8},
      /* i8 */ {i8, i8, i8, i8, i8, i8, f2, bf, f4, f8},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f2, f4, f4, f8},
      /* bf */ {bf, bf, bf, bf, bf, bf, f4, bf, f4, f8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f4, f4, f8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

bool can_cast(ScalarType from, ScalarType to) {
  // torch.can_cast forbids only a move to a lower category: float -> int, non-bool -> bool.
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && is_integral(to, true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

namespace {
std::atomic<ScalarType> g_default_dtype{ScalarType::Float32};
}

ScalarType default_dtype() { return g_default_dtype.load(std::memory_order_relaxed); }

void set_default_dtype(ScalarType t) {
  EMBER_CHECK(is_floating(t), TypeError,
              "[set_default_dtype] only floating-point types are supported as the default type, "
              "got ",
              dtype_name(t));
  g_default_dtype.store(t, std::memory_order_relaxed);
}

}  // namespace ember
