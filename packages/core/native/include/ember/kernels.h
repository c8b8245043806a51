// The table of CPU kernels, one entry per (op, dtype). Kernel sources are compiled once per ISA
// (baseline x86-64, AVX2+FMA, AVX-512); at first use the best ISA the CPU supports is chosen and
// its entries override the baseline ones. EMBER_CPU_CAPABILITY=baseline|avx2|avx512 forces one.
#pragma once

#include <cstdint>

#include "ember/dtype.h"
#include "ember/iterator.h"

namespace ember {

// Parameters some ops read inside their loop (add's alpha, clamp's bounds, round's decimals).
struct OpParams {
  double f0 = 0, f1 = 0;
  int64_t i0 = 0, i1 = 0;
};

// The elementwise kernels, one X(Functor, TypeList, ints_to_float, "name") each, come from the op
// registry (packages/core/registry/, `kernel=` of an op): EMBER_UNARY_KERNELS,
// EMBER_BINARY_KERNELS, EMBER_PREDICATE_KERNELS (bool results) and EMBER_COMPARE_KERNELS (binary,
// bool results).
#include "ember/generated/elementwise_kernels.inc"

// Reductions through the iterator: the output operand is an accumulator with zero strides on the
// reduced dims, identity-initialized by the front-end.
// NanSum adds the non-NaN values, NanCount counts them (in the float accumulator dtype).
// clang-format off
#define EMBER_REDUCE_OPS(X) X(Sum) X(Prod) X(Max) X(Min) X(All) X(Any) X(NanSum) X(NanCount)
// clang-format on

#define EMBER_ENUM_ENTRY(name, ...) name,
enum class UnaryOp : int { EMBER_UNARY_KERNELS(EMBER_ENUM_ENTRY) kCount };
enum class PredicateOp : int { EMBER_PREDICATE_KERNELS(EMBER_ENUM_ENTRY) kCount };
enum class BinaryOp : int { EMBER_BINARY_KERNELS(EMBER_ENUM_ENTRY) kCount };
enum class CompareOp : int { EMBER_COMPARE_KERNELS(EMBER_ENUM_ENTRY) kCount };
enum class ReduceOp : int { EMBER_REDUCE_OPS(EMBER_ENUM_ENTRY) kCount };
#undef EMBER_ENUM_ENTRY

constexpr int kUnaryCount = static_cast<int>(UnaryOp::kCount);
constexpr int kPredicateCount = static_cast<int>(PredicateOp::kCount);
constexpr int kBinaryCount = static_cast<int>(BinaryOp::kCount);
constexpr int kCompareCount = static_cast<int>(CompareOp::kCount);
constexpr int kReduceCount = static_cast<int>(ReduceOp::kCount);

// Fused optimizer steps over one contiguous block of a parameter (kernels/cpu/optim.cpp). The
// front-end (src/ops_optim.cpp) folds the per-tensor step count into step_size/bias_correction2.
struct AdamStepParams {
  double lr, beta1, beta2, weight_decay, eps;
  double step_size;              // lr / (1 - beta1^step)
  double bias_correction2_sqrt;  // sqrt(1 - beta2^step)
  bool amsgrad, maximize, decoupled;
};
using AdamStepLoop = void (*)(char* param, const char* grad, char* exp_avg, char* exp_avg_sq,
                              char* max_exp_avg_sq, int64_t n, const AdamStepParams& p);
struct SgdStepParams {
  double lr, momentum, dampening, weight_decay;
  bool nesterov, maximize;
  bool first_step;  // the momentum buffer is new: it becomes a copy of the gradient
};
using SgdStepLoop = void (*)(char* param, const char* grad, char* momentum_buffer, int64_t n,
                             const SgdStepParams& p);

// The other fused steps (RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop): one loop
// signature, state[k] the k-th state tensor's block. The front-end folds step counts into the
// per-tensor scalars a..e, whose meaning per algorithm kernels/cpu/optim_adaptive.cpp documents.
enum class OptimAlgo : int {
  kRMSprop,
  kAdagrad,
  kAdadelta,
  kAdamax,
  kNAdam,
  kRAdam,
  kASGD,
  kRprop
};
constexpr int kOptimAlgoCount = 8;
struct OptimStepParams {
  double lr, weight_decay, eps;
  double a, b, c, d, e;
  bool maximize;
  bool decoupled;  // NAdam/RAdam: decoupled weight decay
  bool centered;   // RMSprop: centered; RAdam: rectified this step; ASGD: averaging (mu != 1)
  bool momentum;   // RMSprop: momentum > 0
};
using OptimStepLoop = void (*)(char* param, const char* grad, char* const* state, int64_t n,
                               const OptimStepParams& p);

struct KernelTable {
  Loop1d unary[kUnaryCount][kNumScalarTypes] = {};
  Loop1d predicate[kPredicateCount][kNumScalarTypes] = {};
  Loop1d binary[kBinaryCount][kNumScalarTypes] = {};
  Loop1d compare[kCompareCount][kNumScalarTypes] = {};  // indexed by input dtype
  // reduce[op][accumulator dtype]: data[0] accumulator, data[1] input (same dtype after cast)
  Loop1d reduce[kReduceCount][kNumScalarTypes] = {};
  Loop1d cast[kNumScalarTypes][kNumScalarTypes] = {};  // [to][from]
  Loop1d where[kNumScalarTypes] = {};                  // data: out, cond(bool), a, b
  Loop1d lerp_tensor[kNumScalarTypes] = {};            // data: out, start, end, weight
  AdamStepLoop adam_step[kNumScalarTypes] = {};        // float32 and float64 only
  SgdStepLoop sgd_step[kNumScalarTypes] = {};
  OptimStepLoop optim_step[kOptimAlgoCount][kNumScalarTypes] = {};  // float32 and float64 only
};

const KernelTable& cpu_kernels();
// "baseline", "avx2" or "avx512": the ISA whose kernels are in use.
const char* cpu_capability();

}  // namespace ember
