// The out= writer (see out_writer.h); messages are torch's, prefixed with the op's name and
// followed by ember's dtype names.
#include "ember/out_writer.h"

#include <sstream>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/warnings.h"

namespace ember {

namespace {

// torch prints sizes as [2, 3] in this warning.
std::string bracketed(const Shape& sizes) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < sizes.size(); ++i) os << (i ? ", " : "") << sizes[i];
  os << ']';
  return os.str();
}

}  // namespace

void check_out_dtype(const Tensor& out, ScalarType result, const char* op, OutDtype rule) {
  if (rule == OutDtype::kExact) {
    EMBER_CHECK(out.dtype() == result, RuntimeError, "[", op,
                "] Expected out tensor to have dtype ", dtype_name(result), ", but got ",
                dtype_name(out.dtype()), " instead");
  } else {
    EMBER_CHECK(can_cast(result, out.dtype()), RuntimeError, "[", op, "] result type ",
                torch_type_name(result), " can't be cast to the desired output type ",
                torch_type_name(out.dtype()), " (result ", dtype_name(result), ", out ",
                dtype_name(out.dtype()), ")");
  }
}

void check_out(const Tensor& out, ScalarType result, const char* op, const OutRules& rules) {
  check_out_dtype(out, result, op, rules.dtype);
  out.check_writable(op);
  assert_no_internal_overlap(out, op);
  for (const Tensor& in : rules.inputs) {
    if (in.defined()) assert_no_partial_overlap(out, in, op);
  }
}

void resize_out(const Tensor& out, const Shape& sizes, const char* op) {
  if (out.sizes() == sizes) return;
  if (out.numel() != 0) {
    warn(str("[", op, "] An output with one or more elements was resized since it had shape ",
             bracketed(out.sizes()), ", which does not match the required output shape ",
             bracketed(sizes),
             ". This behavior is deprecated, and in a future PyTorch release outputs will not "
             "be resized unless they have zero elements. You can explicitly reuse an out tensor "
             "t by resizing it, inplace, to zero elements with t.resize_(0)."));
  }
  resize_(out, sizes);
}

Tensor write_out(const Tensor& result, const Tensor& out, const char* op, const OutRules& rules) {
  if (!out.defined()) return result;
  check_out(out, result.dtype(), op, rules);
  resize_out(out, result.sizes(), op);
  copy_(out, result);
  return out;
}

}  // namespace ember
