// Reductions over all dims, one dim or a set of dims (negative dims allowed), with keepdim, and
// scans along a dim. An empty `dims` means every dim.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "ember/tensor.h"

namespace ember {

using Dims = std::vector<int64_t>;

// sum/prod of bool and integer inputs give int64 unless `dtype` says otherwise.
Tensor sum(const Tensor& x, const Dims& dims, bool keepdim,
           std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor prod(const Tensor& x, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor mean(const Tensor& x, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype = std::nullopt, const Tensor& out = {});
Tensor amax(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
Tensor amin(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
Tensor all(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
Tensor any(const Tensor& x, const Dims& dims, bool keepdim, const Tensor& out = {});
// Variance with Bessel-style `correction` (torch's default 1).
Tensor var(const Tensor& x, const Dims& dims, double correction, bool keepdim);
Tensor std(const Tensor& x, const Dims& dims, double correction, bool keepdim);
std::pair<Tensor, Tensor> var_mean(const Tensor& x, const Dims& dims, double correction,
                                   bool keepdim);
Tensor logsumexp(const Tensor& x, const Dims& dims, bool keepdim);
// p-norm over dims: p may be inf/-inf; p == 0 counts non-zeros.
Tensor norm(const Tensor& x, double p, const Dims& dims, bool keepdim,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor count_nonzero(const Tensor& x, const Dims& dims);

// max/min along one dim: (values, indices); argmax/argmin over one dim or all (flattened).
std::pair<Tensor, Tensor> max_dim(const Tensor& x, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> min_dim(const Tensor& x, int64_t dim, bool keepdim);
Tensor argmax(const Tensor& x, std::optional<int64_t> dim, bool keepdim);
Tensor argmin(const Tensor& x, std::optional<int64_t> dim, bool keepdim);

Tensor cumsum(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt,
              const Tensor& out = {});
Tensor cumprod(const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt,
               const Tensor& out = {});

}  // namespace ember
