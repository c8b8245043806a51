// Tensor creation and random numbers. Random ops draw from a Generator: a Philox4x32-10
// counter-based stream, so results depend only on (seed, offset), never on the thread count.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>

#include "ember/tensor.h"

namespace ember {

// A Python number as given: ints stay exact (arange/full of large int64 values), bools are ints.
// Like torch's Scalar, an int in [2**63, 2**64) is a uint64: `i` holds its bit pattern.
struct Scalar {
  double d = 0;
  int64_t i = 0;
  bool is_int = false;
  bool is_uint64 = false;
  static Scalar from_double(double v) { return {v, static_cast<int64_t>(0), false}; }
  static Scalar from_int(int64_t v) { return {static_cast<double>(v), v, true}; }
  static Scalar from_uint64(uint64_t v) {
    return {static_cast<double>(v), static_cast<int64_t>(v), true, true};
  }
  double to_double() const {
    if (is_uint64) return static_cast<double>(static_cast<uint64_t>(i));
    return is_int ? static_cast<double>(i) : d;
  }
};

// torch's C++ name for a dtype ('Long', 'Float'), used in "not implemented for" messages.
const char* torch_type_name(ScalarType t);
// Raises RuntimeError naming `op` for negative sizes or a numel that overflows int64.
void check_new_sizes(const Shape& size, const char* op);
// Raises RuntimeError when `value` cannot be stored in `dtype` without overflow (torch's rule).
void check_value_fits(Scalar value, ScalarType dtype, const char* op);

Tensor empty(const Shape& size, ScalarType dtype, const char* op = "empty");
Tensor empty_strided(const Shape& size, const Shape& stride, ScalarType dtype);
// Uninitialized, shaped like `t`; keeps t's strides when it is dense (torch's preserve_format).
Tensor empty_like(const Tensor& t, ScalarType dtype, const char* op = "empty_like");
Tensor full_scalar(const Shape& size, Scalar value, ScalarType dtype, const char* op = "full");
Tensor full(const Shape& size, double value, ScalarType dtype);
Tensor full_int(const Shape& size, int64_t value, ScalarType dtype);
Tensor zeros(const Shape& size, ScalarType dtype);
// Sets every element of a dense tensor (fresh from empty/empty_like) to `value`.
const Tensor& fill_dense_(const Tensor& t, Scalar value, const char* op);
Tensor ones(const Shape& size, ScalarType dtype);
// Half-open [start, end) by step, with torch's length rule ceil((end - start) / step).
Tensor arange(Scalar start, Scalar end, Scalar step, ScalarType dtype);
Tensor linspace(double start, double end, int64_t steps, ScalarType dtype);
Tensor logspace(double start, double end, int64_t steps, double base, ScalarType dtype);
Tensor eye(int64_t n, int64_t m, ScalarType dtype);

// Philox4x32-10 (Salmon et al., SC'11): 128-bit counter and 64-bit key to 4 random words.
std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);

class Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // torch's default seed
  static constexpr int64_t kStateBytes = 16;                   // seed then offset, little-endian

  explicit Generator(uint64_t seed = kDefaultSeed) : seed_(seed) {}
  // Sets the seed and restarts the stream.
  void manual_seed(uint64_t seed);
  // Seeds from a non-deterministic source; returns the new seed.
  uint64_t seed_randomly();
  uint64_t initial_seed() const { return seed_; }
  uint64_t offset() const { return offset_; }
  // Reserves `n` 128-bit Philox blocks: the seed (key) and the first block's counter, read
  // together under the lock so a concurrent manual_seed never mixes two streams.
  struct Range {
    uint64_t seed;
    uint64_t counter;
  };
  Range reserve(uint64_t n);
  Tensor get_state();
  void set_state(const Tensor& state);

 private:
  std::mutex mutex_;
  uint64_t seed_;
  uint64_t offset_ = 0;
};
Generator& default_generator();

// Random fills in place. `gen` null means the default generator. Element i of a call takes its
// value from block (offset + i / k) for a small per-kernel k, so threads never change results.
const Tensor& uniform_(const Tensor& t, double from, double to, Generator* gen = nullptr,
                       const char* op = "uniform_");
const Tensor& normal_(const Tensor& t, double mean, double std, Generator* gen = nullptr,
                      const char* op = "normal_");
// Integers uniform in [low, high) (any numeric dtype).
const Tensor& random_int_(const Tensor& t, int64_t low, int64_t high, Generator* gen = nullptr,
                          const char* op = "random_");
// torch's random_(from, to): no `to` means up to the dtype's largest value (inclusive).
const Tensor& random_(const Tensor& t, int64_t from, std::optional<int64_t> to,
                      Generator* gen = nullptr);
const Tensor& bernoulli_(const Tensor& t, double p, Generator* gen = nullptr);
const Tensor& bernoulli_tensor_(const Tensor& t, const Tensor& p, Generator* gen = nullptr,
                                const char* op = "bernoulli_");
const Tensor& exponential_(const Tensor& t, double lambd, Generator* gen = nullptr);
// torch.bernoulli(input): a new tensor of input's dtype, 1 with probability input.
Tensor bernoulli(const Tensor& p, Generator* gen = nullptr);
// randint(low, high, size): high exclusive.
Tensor randint(int64_t low, int64_t high, const Shape& size, ScalarType dtype,
               Generator* gen = nullptr);
Tensor randperm(int64_t n, ScalarType dtype, Generator* gen = nullptr);
// torch.normal(mean, std) with tensors (broadcast); the result has mean's dtype (std's when
// mean is a wrapped Python number).
Tensor normal_tensor(const Tensor& mean, const Tensor& std, Generator* gen = nullptr);

}  // namespace ember
