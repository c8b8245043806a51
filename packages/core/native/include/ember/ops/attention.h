// Fused (FlashAttention-2 style) scaled dot-product attention for float32 / float64: blocks of
// queries against blocks of keys with an online softmax, so no [L, S] matrix is ever held; the
// backward recomputes each tile's probabilities from the saved row logsumexp.
#pragma once

#include <tuple>
#include <utility>

#include "ember/tensor.h"

namespace ember {

// q [B, H, L, E], k [B, H, S, E], v [B, H, S, Ev] (any strides; rows are read in place when the
// last dim has unit stride), mask undefined or an additive float mask viewed as [B, H, L, S]
// (broadcast dims may have stride 0) -> (out [B, H, L, Ev], lse [B, H, L]). Causal masks keep
// key j for query i when j <= i (top-left aligned). Rows with every key masked give zeros.
std::pair<Tensor, Tensor> flash_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                          const Tensor& mask, bool is_causal, double scale);
// The gradients (dq, dk, dv) of flash_attention given grad_out [B, H, L, Ev] and its saved out
// and lse.
std::tuple<Tensor, Tensor, Tensor> flash_attention_backward(const Tensor& grad_out, const Tensor& q,
                                                            const Tensor& k, const Tensor& v,
                                                            const Tensor& out, const Tensor& lse,
                                                            const Tensor& mask, bool is_causal,
                                                            double scale);

}  // namespace ember
