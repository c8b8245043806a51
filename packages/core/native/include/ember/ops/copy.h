// Copies, dtype conversion and resizing.
#pragma once

#include "ember/tensor.h"

namespace ember {

// dst[...] = src broadcast to dst's shape, converting dtypes. Returns dst.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
// A converted copy (or `t` itself when the dtype already matches and copy is false).
Tensor to_dtype(const Tensor& t, ScalarType dtype, bool copy = false);
Tensor contiguous(const Tensor& t);
Tensor clone(const Tensor& t);
// Gives `t` a new shape in place (contiguous strides, new storage when it does not fit).
void resize_(const Tensor& t, const Shape& sizes);
// Fills every element with a value (cast to t's dtype).
const Tensor& fill_(const Tensor& t, double value);
const Tensor& fill_int_(const Tensor& t, int64_t value);
const Tensor& fill_tensor_(const Tensor& t, const Tensor& value);  // value is 0-d

// The value of a one-element tensor, as double or int64.
double item_double(const Tensor& t, const char* op);
int64_t item_int(const Tensor& t, const char* op);

}  // namespace ember
