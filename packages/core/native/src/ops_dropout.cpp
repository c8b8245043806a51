// dropout() / dropout_backward(): the keep bits come from the Philox stream, packed 8 per byte.
#include <algorithm>
#include <type_traits>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/ops/dropout.h"
#include "ember/parallel.h"
#include "floating_checks.h"
#include "philox_stream.h"

namespace ember {
namespace {

// Bytes of mask per chunk: 16K elements, compute-bound (a Philox block per 4 of them).
constexpr int64_t kGrainBytes = 2048;

void check_p(double p, const char* op) {
  EMBER_CHECK(p >= 0.0 && p < 1.0, RuntimeError, "[", op,
              "] dropout probability must be in [0, 1), but got ", p);
}

// The multipliers of the 8 elements of each mask byte: row `byte` holds scale where its bit is set,
// else 0. Multiplying by a row keeps the body free of per-element branches on random bits (which
// mispredict half the time) and lets it vectorize; a dropped NaN stays NaN, as in torch's
// input * mask.
template <typename C>
struct ByteMultipliers {
  alignas(64) C row[256][8];
  explicit ByteMultipliers(C scale) {
    for (int byte = 0; byte < 256; ++byte)
      for (int j = 0; j < 8; ++j) row[byte][j] = ((byte >> j) & 1) ? scale : C(0);
  }
};

// out[i] = in[i] * (multiplier of bit i) for the elements of mask bytes [b0, b1).
template <typename T, typename C>
void apply_mask(const T* in, T* out, const uint8_t* bits, const ByteMultipliers<C>& table,
                int64_t b0, int64_t b1, int64_t n) {
  const int64_t full_end = std::min<int64_t>(b1, n / 8);  // bytes whose 8 elements all exist
  for (int64_t b = b0; b < full_end; ++b) {
    const C* m = table.row[bits[b]];
    const T* x = in + 8 * b;
    T* o = out + 8 * b;
    for (int j = 0; j < 8; ++j) o[j] = static_cast<T>(static_cast<C>(x[j]) * m[j]);
  }
  for (int64_t b = std::max(b0, full_end); b < b1; ++b) {
    const C* m = table.row[bits[b]];
    for (int64_t i = 8 * b; i < n; ++i) out[i] = static_cast<T>(static_cast<C>(in[i]) * m[i & 7]);
  }
}

}  // namespace

std::pair<Tensor, Tensor> dropout(const Tensor& input, double p, Generator* gen) {
  const char* op = "nn_dropout";
  check_p(p, op);
  check_floating(input, op, op);
  const Tensor x = contiguous(input);
  const int64_t n = x.numel();
  Tensor out = Tensor::empty(x.sizes(), x.dtype());
  Tensor mask = Tensor::empty({(n + 7) / 8}, ScalarType::UInt8);
  const PhiloxStream stream = reserve_stream(gen, n, 4);
  const double keep = 1.0 - p;
  uint8_t* bits = mask.data<uint8_t>();
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_type<T>) {
      using C = compute_t<T>;
      const C scale = static_cast<C>(static_cast<T>(1.0 / keep));  // the mask's value in T
      const T* in = x.data<T>();
      T* o = out.data<T>();
      const ByteMultipliers<C> table(scale);
      parallel_for(0, (n + 7) / 8, kGrainBytes, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          uint8_t byte = 0;
          for (int half = 0; half < 2; ++half) {
            const auto r = stream.block(static_cast<uint64_t>(2 * b + half));
            for (int j = 0; j < 4; ++j) {
              // Element i uses value i % 4 of block i / 4: bernoulli_'s draw, on a 2^-32 grid.
              byte |= static_cast<uint8_t>((r[j] * 0x1p-32 < keep) << (4 * half + j));
            }
          }
          const int64_t end = std::min<int64_t>(8 * b + 8, n);
          if (end - 8 * b < 8) byte &= static_cast<uint8_t>((1u << (end - 8 * b)) - 1);  // tail: 0
          bits[b] = byte;
        }
        apply_mask(in, o, bits, table, b0, b1, n);
      });
    }
  });
  return {out, mask};
}

Tensor dropout_backward(const Tensor& grad_output, const Tensor& mask, double p) {
  const char* op = "nn_dropout_backward";
  check_p(p, op);
  check_floating(grad_output, op, op);
  const int64_t n = grad_output.numel();
  EMBER_CHECK(mask.dtype() == ScalarType::UInt8 && mask.dim() == 1 && mask.numel() == (n + 7) / 8,
              RuntimeError, "[", op, "] expected a uint8 mask of ", (n + 7) / 8,
              " bytes for a grad_output of ", n, " elements, got ", dtype_name(mask.dtype()),
              " of shape ", mask.sizes());
  const Tensor g = contiguous(grad_output);
  const Tensor m = contiguous(mask);
  Tensor out = Tensor::empty(g.sizes(), g.dtype());
  const uint8_t* bits = m.data<uint8_t>();
  visit_dtype(g.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_float_type<T>) {
      using C = compute_t<T>;
      const C scale = static_cast<C>(static_cast<T>(1.0 / (1.0 - p)));
      const T* in = g.data<T>();
      T* o = out.data<T>();
      const ByteMultipliers<C> table(scale);
      parallel_for(0, (n + 7) / 8, kGrainBytes,
                   [&](int64_t b0, int64_t b1) { apply_mask(in, o, bits, table, b0, b1, n); });
    }
  });
  return out;
}

}  // namespace ember
