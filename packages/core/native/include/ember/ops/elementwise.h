// Elementwise math through the iterator (unary, binary, comparisons, where, clamp, ...).
// `out`, when defined, receives the result (torch's out=); in-place forms pass out = self.
#pragma once

#include <optional>
#include <string>

#include "ember/kernels.h"
#include "ember/tensor.h"

namespace ember {

// Unary ops. Float-only ops (exp, sqrt, ...) promote integer inputs to the default dtype.
Tensor unary(UnaryOp op, const Tensor& x, const Tensor& out = {}, const OpParams& p = {},
             bool in_place = false);
Tensor predicate(PredicateOp op, const Tensor& x, const Tensor& out = {});
Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b, const Tensor& out = {},
              const OpParams& p = {}, bool in_place = false);
Tensor compare(CompareOp op, const Tensor& a, const Tensor& b, const Tensor& out = {},
               bool in_place = false);

// add/sub with alpha (a + alpha * b); alpha is a wrapped Python number.
Tensor add(const Tensor& a, const Tensor& b, const Tensor& alpha, const Tensor& out = {},
           bool in_place = false);
Tensor sub(const Tensor& a, const Tensor& b, const Tensor& alpha, const Tensor& out = {},
           bool in_place = false);
// rounding_mode: "" (true division), "trunc" or "floor".
Tensor div(const Tensor& a, const Tensor& b, const std::string& rounding_mode,
           const Tensor& out = {}, bool in_place = false);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b, const Tensor& out = {});
// Bounds are optional (undefined = absent); scalar bounds are wrapped numbers.
Tensor clamp(const Tensor& x, const Tensor& min, const Tensor& max, const Tensor& out = {},
             bool in_place = false);
Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight, const Tensor& out = {},
            bool in_place = false);
Tensor round(const Tensor& x, int64_t decimals, const Tensor& out = {}, bool in_place = false);
// Infinities default to the dtype's largest/lowest finite values.
Tensor nan_to_num(const Tensor& x, double nan, std::optional<double> posinf,
                  std::optional<double> neginf, const Tensor& out = {}, bool in_place = false);
Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan);
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan);
bool equal(const Tensor& a, const Tensor& b);

// The op names kernels report in errors ("bitwise_not"), as the registry declares them.
const char* op_name(UnaryOp op);
const char* op_name(PredicateOp op);
const char* op_name(BinaryOp op);
const char* op_name(CompareOp op);

}  // namespace ember
