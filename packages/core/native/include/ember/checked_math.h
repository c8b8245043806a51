// Overflow-checked int64 arithmetic for sizes, numels, strides, offsets and byte counts that come
// from user values. Every such computation goes through these, so signed overflow (undefined
// behaviour) cannot happen: an overflow throws a typed error naming the op instead.
#pragma once

#include <cstdint>

#include "ember/errors.h"

namespace ember {

// a * b; throws Error "[op] <what> overflows a 64-bit integer (a * b)".
template <typename Error = RuntimeError>
int64_t checked_mul(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t r;
  EMBER_CHECK(!__builtin_mul_overflow(a, b, &r), Error, "[", op, "] ", what,
              " overflows a 64-bit integer (", a, " * ", b, ")");
  return r;
}

// a + b; throws Error "[op] <what> overflows a 64-bit integer (a + b)".
template <typename Error = RuntimeError>
int64_t checked_add(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t r;
  EMBER_CHECK(!__builtin_add_overflow(a, b, &r), Error, "[", op, "] ", what,
              " overflows a 64-bit integer (", a, " + ", b, ")");
  return r;
}

// a - b; throws Error "[op] <what> overflows a 64-bit integer (a - b)".
template <typename Error = RuntimeError>
int64_t checked_sub(int64_t a, int64_t b, const char* op, const char* what) {
  int64_t r;
  EMBER_CHECK(!__builtin_sub_overflow(a, b, &r), Error, "[", op, "] ", what,
              " overflows a 64-bit integer (", a, " - ", b, ")");
  return r;
}

// |a| for a size-like value; -2**63 has no int64 magnitude and throws.
template <typename Error = RuntimeError>
int64_t checked_abs(int64_t a, const char* op, const char* what) {
  return a < 0 ? checked_sub<Error>(0, a, op, what) : a;
}

}  // namespace ember
