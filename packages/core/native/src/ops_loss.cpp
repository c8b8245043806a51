// Fused loss kernels: binary_cross_entropy_with_logits forward and backward.
#include <cmath>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/ops/loss.h"
#include "ember/parallel.h"

namespace ember {

LossReduction loss_reduction(int64_t code, const char* op) {
  EMBER_CHECK(code >= 0 && code <= 2, ValueError, "[", op, "] reduction must be 0 (none), ",
              "1 (mean) or 2 (sum), got ", code);
  return static_cast<LossReduction>(code);
}

namespace {

struct BceInputs {
  Tensor input, target, weight, pos_weight;  // contiguous, one shape, one dtype
};

BceInputs bce_inputs(const Tensor& input, const Tensor& target, const Tensor& weight,
                     const Tensor& pos_weight, const char* op) {
  const ScalarType dt = input.dtype();
  EMBER_CHECK(dt == ScalarType::Float32 || dt == ScalarType::Float64, TypeError, "[", op,
              "] expected a float32 or float64 input, got ", dtype_name(dt));
  EMBER_CHECK(target.sizes() == input.sizes(), ValueError, "[", op, "] Target size (",
              target.sizes(), ") must be the same as input size (", input.sizes(), ")");
  auto same = [&](const Tensor& t, const char* what) {
    if (!t.defined()) return Tensor();
    EMBER_CHECK(t.dtype() == dt, TypeError, "[", op, "] expected ", what, " of dtype ",
                dtype_name(dt), ", got ", dtype_name(t.dtype()));
    broadcast_shapes(t.sizes(), input.sizes(), op);
    return contiguous(expand(t, input.sizes()));
  };
  return {contiguous(input), same(target, "target"), same(weight, "weight"),
          same(pos_weight, "pos_weight")};
}

// Runs fn(begin, end, chunk) over [0, n) in the chunks parallel_for would use: the same split
// for every call with the same n and thread count, so reductions are reproducible.
template <typename F>
int64_t over_chunks(int64_t n, F&& fn) {
  const int64_t chunks = parallel_chunks(0, n, kParallelGrain);
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) fn(n * c / chunks, n * (c + 1) / chunks, c);
  });
  return chunks;
}

template <typename T>
T softplus_neg(T x) {  // log(1 + exp(-x)), without overflow
  return std::log1p(std::exp(-std::abs(x))) + std::max(-x, T(0));
}

template <typename T>
Tensor bce_forward(const BceInputs& in, LossReduction red) {
  const int64_t n = in.input.numel();
  const T* x = in.input.data<T>();
  const T* t = in.target.data<T>();
  const T* w = in.weight.defined() ? in.weight.data<T>() : nullptr;
  const T* pw = in.pos_weight.defined() ? in.pos_weight.data<T>() : nullptr;
  auto loss_at = [&](int64_t i) {
    const T lw = pw ? T(1) + (pw[i] - T(1)) * t[i] : T(1);
    const T l = (T(1) - t[i]) * x[i] + lw * softplus_neg(x[i]);
    return w ? l * w[i] : l;
  };
  if (red == LossReduction::kNone) {
    Tensor out = Tensor::empty(in.input.sizes(), in.input.dtype());
    T* o = out.data<T>();
    parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) o[i] = loss_at(i);
    });
    return out;
  }
  std::vector<double> partial(static_cast<size_t>(parallel_chunks(0, n, kParallelGrain)) + 1, 0.0);
  over_chunks(n, [&](int64_t b, int64_t e, int64_t c) {
    double s = 0;
    for (int64_t i = b; i < e; ++i) s += static_cast<double>(loss_at(i));
    partial[static_cast<size_t>(c)] = s;
  });
  double total = 0;
  for (double s : partial) total += s;
  if (red == LossReduction::kMean) total /= static_cast<double>(n);  // n == 0: nan, as torch
  Tensor out = Tensor::empty({}, in.input.dtype());
  *out.data<T>() = static_cast<T>(total);
  return out;
}

template <typename T>
Tensor bce_backward(const Tensor& grad_output, const BceInputs& in, LossReduction red) {
  const int64_t n = in.input.numel();
  const T* x = in.input.data<T>();
  const T* t = in.target.data<T>();
  const T* w = in.weight.defined() ? in.weight.data<T>() : nullptr;
  const T* pw = in.pos_weight.defined() ? in.pos_weight.data<T>() : nullptr;
  Tensor go;
  T scale = T(1);
  if (red == LossReduction::kNone) {
    go = contiguous(expand(to_dtype(grad_output, in.input.dtype()), in.input.sizes()));
  } else {
    scale =
        static_cast<T>(item_double(grad_output, "nn_binary_cross_entropy_with_logits_backward"));
    if (red == LossReduction::kMean) scale /= static_cast<T>(n);
  }
  const T* g = go.defined() ? go.data<T>() : nullptr;
  Tensor out = Tensor::empty(in.input.sizes(), in.input.dtype());
  T* o = out.data<T>();
  parallel_for(0, n, kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      // d/dx [(1 - t) x + lw softplus(-x)] = (1 - t) - lw sigmoid(-x)
      const T lw = pw ? T(1) + (pw[i] - T(1)) * t[i] : T(1);
      T d = (T(1) - t[i]) - lw / (T(1) + std::exp(x[i]));
      if (w) d *= w[i];
      o[i] = d * (g ? g[i] : scale);
    }
  });
  return out;
}

}  // namespace

Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const Tensor& weight, const Tensor& pos_weight,
                                        int64_t reduction) {
  const char* op = "nn_binary_cross_entropy_with_logits";
  const LossReduction red = loss_reduction(reduction, op);
  const BceInputs in = bce_inputs(input, target, weight, pos_weight, op);
  return input.dtype() == ScalarType::Float64 ? bce_forward<double>(in, red)
                                              : bce_forward<float>(in, red);
}

Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad_output, const Tensor& input,
                                                 const Tensor& target, const Tensor& weight,
                                                 const Tensor& pos_weight, int64_t reduction) {
  const char* op = "nn_binary_cross_entropy_with_logits_backward";
  const LossReduction red = loss_reduction(reduction, op);
  const BceInputs in = bce_inputs(input, target, weight, pos_weight, op);
  if (red == LossReduction::kNone) {
    EMBER_CHECK(grad_output.sizes() == input.sizes(), RuntimeError, "[", op, "] grad_output of ",
                "shape ", grad_output.sizes(), " does not match the input's ", input.sizes());
  } else {
    EMBER_CHECK(grad_output.numel() == 1, RuntimeError, "[", op, "] expected a 1-element ",
                "grad_output for a reduced loss, got shape ", grad_output.sizes());
  }
  return input.dtype() == ScalarType::Float64 ? bce_backward<double>(grad_output, in, red)
                                              : bce_backward<float>(grad_output, in, red);
}

}  // namespace ember
