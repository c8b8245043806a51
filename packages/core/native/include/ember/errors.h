// Typed errors raised by the core. The bindings translate each to the Python exception of the
// same name; messages start with "[op]" and name the offending shapes or values.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ember {

struct IndexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct ValueError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct TypeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct NotImplementedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Errors that are two Python classes at once: the one torch raises and the one ember raised
// before, so code catching either works (ember_core._C.IndexRuntimeError & co.).
struct IndexRuntimeError : IndexError {
  using IndexError::IndexError;
};
struct TypeRuntimeError : TypeError {
  using TypeError::TypeError;
};
struct TypeNotImplementedError : TypeError {
  using TypeError::TypeError;
};
struct RuntimeValueError : RuntimeError {
  using RuntimeError::RuntimeError;
};
struct TypeValueError : TypeError {
  using TypeError::TypeError;
};
// A Python int outside [-2**63, 2**64): torch raises OverflowError, ember raised RuntimeError.
struct OverflowRuntimeError : RuntimeError {
  using RuntimeError::RuntimeError;
};

namespace detail {
inline void append(std::ostringstream&) {}
template <typename T, typename... Rest>
void append(std::ostringstream& os, const T& first, const Rest&... rest);
}  // namespace detail

// Formats shapes as (2, 3): the way Python prints a tuple.
struct ShapeText {
  const std::vector<int64_t>& dims;
};
inline std::ostream& operator<<(std::ostream& os, ShapeText s) {
  os << '(';
  for (size_t i = 0; i < s.dims.size(); ++i) os << (i ? ", " : "") << s.dims[i];
  if (s.dims.size() == 1) os << ',';
  return os << ')';
}
inline std::ostream& operator<<(std::ostream& os, const std::vector<int64_t>& dims) {
  return os << ShapeText{dims};
}

namespace detail {
template <typename T, typename... Rest>
void append(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  append(os, rest...);
}
}  // namespace detail

template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream os;
  detail::append(os, args...);
  return os.str();
}

// Throws Error with the concatenated message when `cond` is false.
#define EMBER_CHECK(cond, Error, ...)                    \
  do {                                                   \
    if (!(cond)) throw Error(::ember::str(__VA_ARGS__)); \
  } while (0)

}  // namespace ember
