// A direct (no im2col) stride-1 convolution of one sample for float32, with an AVX-512
// micro-kernel: the input is copied once into a zero-padded buffer whose rows are as wide as the
// windows reach, so every kernel tap of every output position is a fixed offset into it and the
// product streams from that buffer (ops_conv.cpp falls back to im2col + BLAS elsewhere).
#pragma once

#include <cstdint>

namespace ember {

// One sample: src [G * Cg, H, W], weight [G * Cog, Cg, kh, kw], out [G * Cog, OH, OW], with
// out[o, i, j] = bias[o] + sum w[o, c, a, b] * src[c', i + a * dh - ph, j + b * dw - pw] (zero
// outside src). The padding may be negative (a crop), as the transposed convolution needs.
struct DirectConv {
  int64_t G, Cg, Cog, H, W, kh, kw, dh, dw, ph, pw, OH, OW;
};

// One sample's planes read through strides (elements): plane c, row i, column j at
// p[c * sc + i * sh + j * sw]. A broadcast grad_output (the backward of a sum) is read in place,
// never materialized.
struct Planes {
  const float* p;
  int64_t sc, sh, sw;
};

// Whether the micro-kernel runs on this CPU (AVX-512, and EMBER_CPU_CAPABILITY allows it).
bool conv_direct_available();
// Floats of scratch conv_direct_f32 needs.
int64_t conv_direct_scratch(const DirectConv& d);
// bias may be null. scratch: conv_direct_scratch(d) floats, contents ignored.
void conv_direct_f32(const DirectConv& d, const Planes& src, const float* weight, const float* bias,
                     float* out, float* scratch);
// Floats of lane accumulators the weight gradient keeps across samples (0 where they would not
// fit in cache: each sample then sums straight into dw).
int64_t conv_direct_dw_lanes(const DirectConv& d);
// The weight gradient of that convolution from one sample, ADDED into dw [G * Cog, Cg, kh, kw]:
// dw[o, c, a, b] += sum grad[o, i, j] * src[c', i + a * dh - ph, j + b * dw - pw]. With lanes
// (conv_direct_dw_lanes(d) floats, zeroed before a batch's first sample) the sums go there instead,
// and conv_direct_dw_finish adds them into dw after the batch's last sample.
void conv_direct_weight_grad_f32(const DirectConv& d, const float* src, const Planes& grad,
                                 float* dw, float* lanes, float* scratch);
void conv_direct_dw_finish(const DirectConv& d, const float* lanes, float* dw);

}  // namespace ember
