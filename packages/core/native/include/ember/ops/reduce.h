// Reductions over all dims, one dim or a set of dims (negative dims allowed), with keepdim, and
// scans along a dim. An empty `dims` means every dim.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "ember/tensor.h"

namespace ember {

using Dims = std::vector<int64_t>;

// Which dims `dims` reduces (all when empty); raises for out-of-range or repeated dims.
std::vector<bool> reduction_mask(const Tensor& x, const Dims& dims, const char* op);
// Removes the (size-1) reduced dims of a keepdim-shaped result, keeping its strides.
Tensor drop_reduced_dims(const Tensor& t, const std::vector<bool>& mask);

// sum/prod of bool and integer inputs give int64 unless `dtype` says otherwise.
Tensor sum(const Tensor& x, const Dims& dims, bool keepdim,
           std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor prod(const Tensor& x, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor mean(const Tensor& x, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
// The NaN-skipping kernels behind nansum/nanmean (ops/composite.h): float inputs only; nan_mean
// converts to `dtype` (a float type) and divides by the count of non-NaN values.
Tensor nan_sum(const Tensor& x, const Dims& dims, bool keepdim,
               std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor nan_mean(const Tensor& x, const Dims& dims, bool keepdim, ScalarType dtype,
                const Tensor& out = {});
Tensor amax(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
Tensor amin(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
Tensor all(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
Tensor any(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
// Variance/standard deviation with Bessel-style `correction` (torch's default 1); float only.
Tensor var(const Tensor& x, const Dims& dims, double correction, bool keepdim,
           const Tensor& out = {});
Tensor std(const Tensor& x, const Dims& dims, double correction, bool keepdim,
           const Tensor& out = {});
// (var, mean) and (std, mean).
std::pair<Tensor, Tensor> var_mean(const Tensor& x, const Dims& dims, double correction,
                                   bool keepdim);
std::pair<Tensor, Tensor> std_mean(const Tensor& x, const Dims& dims, double correction,
                                   bool keepdim);
// Integer inputs are promoted to the default float dtype; all -inf gives -inf.
Tensor logsumexp(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
// Vector p-norm over dims (float inputs): p may be inf/-inf; p == 0 counts non-zeros.
// `dtype` converts the input first (no narrowing).
Tensor norm(const Tensor& x, double p, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor count_nonzero(const Tensor& x, const Dims& dims);

// max/min over all elements (error on empty), as torch.max(input).
Tensor max_all(const Tensor& x, bool is_max, const Tensor& out = {});
// max/min along one dim: (values, indices), the first extreme (or first NaN) winning.
std::pair<Tensor, Tensor> max_dim(const Tensor& x, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> min_dim(const Tensor& x, int64_t dim, bool keepdim);
// The out= form: `values` must have x's dtype and `indices` int64 (torch's rule).
void extreme_dim_out(const Tensor& x, int64_t dim, bool keepdim, bool is_max, const Tensor& values,
                     const Tensor& indices);
// argmax/argmin over one dim or, without dim, over the flattened tensor.
Tensor argmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim, const Tensor& out = {});
Tensor argmin(const Tensor& x, std::optional<int64_t> dim, bool keepdim, const Tensor& out = {});

// Inclusive scans; integer inputs accumulate in int64 unless `dtype` (or out's dtype) says.
Tensor cumsum(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt,
              const Tensor& out = {});
Tensor cumprod(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt,
               const Tensor& out = {});

}  // namespace ember
