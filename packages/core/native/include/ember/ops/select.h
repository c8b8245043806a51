// Order statistics and set ops along a dim: mode, unique, nanmedian, quantile/nanquantile.
// Where torch's result depends on how its CPU kernel sorts (mode's and nanmedian's indices,
// unique(dim=)'s order of NaN rows), the same comparisons and std algorithms are used.
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "ember/tensor.h"

namespace ember {

// The most frequent value along dim (the smallest among ties) and the index torch reports.
std::pair<Tensor, Tensor> mode(const Tensor& x, int64_t dim, bool keepdim);

// Sorted unique values, the inverse indices (x's shape, or (x.size(dim),) with dim) and the
// counts. NaN never equals NaN. With dim, whole slices along dim are compared.
std::tuple<Tensor, Tensor, Tensor> unique(const Tensor& x, std::optional<int64_t> dim);

// The lower median of the non-NaN values (NaN when every value is NaN).
Tensor nanmedian(const Tensor& x);
std::pair<Tensor, Tensor> nanmedian_dim(const Tensor& x, int64_t dim, bool keepdim);

enum class QuantileInterpolation { Linear, Lower, Higher, Midpoint, Nearest };
QuantileInterpolation quantile_interpolation(const std::string& name, const char* op);

// q is 0-d (one value per position) or 1-d (a leading dim of q.numel()), with x's dtype
// (float32/float64). dim unset: over the flattened input (keepdim keeps every dim as 1).
// `ignore_nan` gives nanquantile.
Tensor quantile(const Tensor& x, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                QuantileInterpolation interpolation, bool ignore_nan, const Tensor& out = {});

}  // namespace ember
