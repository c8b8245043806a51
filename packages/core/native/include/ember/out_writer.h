// The one out= writer: every op that takes out= checks and fills it here, by torch's rules.
// - dtype: the result must be castable to out's dtype (torch.can_cast), or, for ops torch holds
//   to an exact dtype (indices, gathers, scans given dtype=), equal to it;
// - out must be writable, must not write one element twice (internal overlap), and must not
//   share part of its memory with an input (partial overlap);
// - an out of another shape is resized, with torch's UserWarning when it had elements.
// Ops that compute straight into out call check_out + resize_out; the others compute a result
// and hand it to write_out, which copies it (casting) and returns out.
#pragma once

#include <initializer_list>

#include "ember/tensor.h"

namespace ember {

enum class OutDtype {
  kCastable,  // result dtype castable to out's (elementwise, reductions, most ops)
  kExact,     // out's dtype must equal the result's (index ops, int64 indices, scans' dtype=)
};

struct OutRules {
  OutDtype dtype = OutDtype::kCastable;
  // Inputs out may not partially overlap (torch checks them for non-reduction ops).
  std::initializer_list<Tensor> inputs = {};
};

// The dtype part alone (in-place ops, whose self is its own out, and the iterator).
void check_out_dtype(const Tensor& out, ScalarType result, const char* op,
                     OutDtype rule = OutDtype::kCastable);
// Raises torch's RuntimeError when `out` cannot receive a result of dtype `result` by `rules`.
void check_out(const Tensor& out, ScalarType result, const char* op, const OutRules& rules = {});
// Resizes out to `sizes` when they differ, warning as torch does when out had elements.
void resize_out(const Tensor& out, const Shape& sizes, const char* op);
// check_out + resize_out + copy: returns out (or `result` itself when out is undefined).
Tensor write_out(const Tensor& result, const Tensor& out, const char* op,
                 const OutRules& rules = {});

}  // namespace ember
