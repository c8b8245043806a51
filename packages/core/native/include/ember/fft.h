// Discrete Fourier transforms over real tensors that hold complex values as interleaved
// (re, im) pairs in a trailing dim of size 2 (torch.view_as_real's layout).
#pragma once

#include <string>
#include <vector>

#include "ember/tensor.h"

namespace ember {

// Which direction is scaled, as numpy/torch's norm=: "backward" scales the inverse by 1/n,
// "forward" scales the forward transform by 1/n, "ortho" scales both by 1/sqrt(n).
enum class FftNorm { Backward, Ortho, Forward };

// Parses "backward" / "ortho" / "forward"; raises ValueError naming `op` otherwise.
FftNorm parse_fft_norm(const std::string& norm, const char* op);

// Complex-to-complex transform of `x` (float32/float64, shape (..., 2)) over `dims` (dims of the
// complex view, i.e. excluding the trailing 2). forward: exponent sign -1. Returns a new
// contiguous tensor of x's shape and dtype.
Tensor fft_c2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool forward);

// Real-to-complex forward transform over `dims` (the last one is halved to n/2+1 when onesided).
// Returns a contiguous (..., 2) tensor of x's dtype.
Tensor fft_r2c(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm, bool onesided);

// Complex-to-real backward transform over `dims` of a Hermitian half-spectrum; the last dim's
// output length is last_dim_size and its first last_dim_size/2+1 input values are read (the
// imaginary parts of the zero and Nyquist frequencies are ignored). Returns a real tensor.
Tensor fft_c2r(const Tensor& x, const std::vector<int64_t>& dims, FftNorm norm,
               int64_t last_dim_size);

}  // namespace ember
