// Tensor creation and random numbers. Random ops draw from a Generator: a Philox4x32-10
// counter-based stream, so results depend only on (seed, offset), never on the thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "ember/tensor.h"

namespace ember {

Tensor full(const Shape& size, double value, ScalarType dtype);
Tensor full_int(const Shape& size, int64_t value, ScalarType dtype);
Tensor zeros(const Shape& size, ScalarType dtype);
Tensor ones(const Shape& size, ScalarType dtype);
// Half-open [start, end) by step; floats follow torch's size rule ceil((end - start) / step).
Tensor arange(double start, double end, double step, ScalarType dtype);
Tensor linspace(double start, double end, int64_t steps, ScalarType dtype);
Tensor logspace(double start, double end, int64_t steps, double base, ScalarType dtype);
Tensor eye(int64_t n, int64_t m, ScalarType dtype);

class Generator {
 public:
  explicit Generator(uint64_t seed = 67280421310721ULL) : seed_(seed) {}
  void manual_seed(uint64_t seed);
  uint64_t seed() const { return seed_; }
  uint64_t offset() const { return offset_; }
  void set_offset(uint64_t offset) { offset_ = offset; }
  // Reserves `n` 128-bit Philox blocks; returns the first block's counter.
  uint64_t reserve(uint64_t n);

 private:
  std::mutex mutex_;
  uint64_t seed_;
  uint64_t offset_ = 0;
};
Generator& default_generator();

// Random fills (in place, any float dtype unless stated). `gen` null means the default.
const Tensor& uniform_(const Tensor& t, double from, double to, Generator* gen = nullptr);
const Tensor& normal_(const Tensor& t, double mean, double std, Generator* gen = nullptr);
// Integers uniform in [low, high) (any numeric dtype).
const Tensor& random_int_(const Tensor& t, int64_t low, int64_t high, Generator* gen = nullptr);
Tensor randperm(int64_t n, ScalarType dtype, Generator* gen = nullptr);
// normal with tensor mean/std (broadcast), as torch.normal(mean, std).
Tensor normal_tensor(const Tensor& mean, const Tensor& std, Generator* gen = nullptr);

}  // namespace ember
