// Random numbers: the Philox4x32-10 generator and the random fills built on it.
//
// A call reserves ceil(numel / k) consecutive 128-bit blocks from its Generator; element i takes
// value (i % k) of block (counter + i / k). Any thread can compute any block, so the output of a
// seeded call is the same whatever the thread count.
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include "ember/errors.h"
#include "ember/iterator.h"
#include "ember/ops.h"
#include "ember/parallel.h"
#include "floating_checks.h"
#include "philox_stream.h"

namespace ember {

std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> ctr, std::array<uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += 0x9E3779B9u;  // Weyl sequence key bumps
      key[1] += 0xBB67AE85u;
    }
    const uint64_t p0 = uint64_t{0xD2511F53u} * ctr[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * ctr[2];
    ctr = {static_cast<uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<uint32_t>(p1),
           static_cast<uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1], static_cast<uint32_t>(p0)};
  }
  return ctr;
}

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  offset_ = 0;
}

uint64_t Generator::seed_randomly() {
  std::random_device device;
  const uint64_t clock =
      static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  const uint64_t seed = ((uint64_t{device()} << 32) | device()) ^ clock;
  manual_seed(seed);
  return seed;
}

Generator::Range Generator::reserve(uint64_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  const Range range{seed_, offset_};
  offset_ += n;
  return range;
}

Tensor Generator::get_state() {
  std::lock_guard<std::mutex> lock(mutex_);
  Tensor state = Tensor::empty({kStateBytes}, ScalarType::UInt8);
  uint8_t* bytes = state.data<uint8_t>();
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<uint8_t>(seed_ >> (8 * i));
    bytes[8 + i] = static_cast<uint8_t>(offset_ >> (8 * i));
  }
  return state;
}

void Generator::set_state(const Tensor& state) {
  EMBER_CHECK(state.dtype() == ScalarType::UInt8, TypeError,
              "[set_state] RNG state must be a uint8 tensor, got ", dtype_name(state.dtype()));
  EMBER_CHECK(state.numel() == kStateBytes, RuntimeError, "[set_state] expected an RNG state of ",
              kStateBytes, " bytes (seed and offset) but found ", state.numel(), " bytes");
  const Tensor bytes_t = contiguous(state);
  const uint8_t* bytes = bytes_t.data<uint8_t>();
  uint64_t seed = 0, offset = 0;
  for (int i = 0; i < 8; ++i) {
    seed |= uint64_t{bytes[i]} << (8 * i);
    offset |= uint64_t{bytes[8 + i]} << (8 * i);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  offset_ = offset;
}

Generator& default_generator() {
  static Generator generator;
  return generator;
}

namespace {

// Random kernels are compute-bound (a Philox block per few elements): split sooner than copies.
constexpr int64_t kRandomGrain = 16384;
constexpr double kTwoPi = 6.283185307179586476925286766559;

using Block = std::array<uint32_t, 4>;

using Stream = PhiloxStream;

// Uniform in [0, 1) from the top bits of one word (24 bits: exact in float) or two (53 bits).
inline double u24(uint32_t r) { return static_cast<double>(r >> 8) * 0x1p-24; }
inline double u53(uint32_t hi, uint32_t lo) {
  return static_cast<double>(((uint64_t{hi} << 32) | lo) >> 11) * 0x1p-53;
}
inline uint64_t u64(uint32_t hi, uint32_t lo) { return (uint64_t{hi} << 32) | lo; }

// Calls store(i, values[i % K]) for i in [0, n), values = make(block(i / K)), in parallel.
template <int K, typename Make, typename Store>
void for_each_block(int64_t n, const Stream& stream, Make make, Store store) {
  parallel_for(0, n, kRandomGrain, [&](int64_t begin, int64_t end) {
    int64_t i = begin;
    while (i < end) {
      const int64_t b = i / K;
      const auto values = make(stream.block(static_cast<uint64_t>(b)));
      for (int64_t j = i - b * K; j < K && i < end; ++j, ++i) store(i, values[j]);
    }
  });
}

template <typename T>
T cast_from_double(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <typename T>
T cast_from_int(int64_t v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Runs fill(tag, T* data, n) over t's elements in logical order; a strided `t` gets a contiguous
// temporary that is copied back. kFloatOnly skips instantiating `fill` for non-float dtypes.
template <bool kFloatOnly, typename Fill>
const Tensor& fill_in_place(const Tensor& t, const char* op, Fill fill) {
  t.check_writable(op);
  assert_no_internal_overlap(t, op);
  const Tensor target = t.is_contiguous() ? t : Tensor::empty(t.sizes(), t.dtype());
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kFloatOnly || is_float_type<T>) fill(tag, target.data<T>(), target.numel());
  };
  // Integer draws (randint, random_) also fill uint16/32/64, as torch's do.
  if constexpr (kFloatOnly) {
    visit_dtype(t.dtype(), run);
  } else {
    visit_dtype_with_unsigned(t.dtype(), run);
  }
  if (!target.same_impl(t)) {
    copy_(t, target);
  } else {
    t.bump_version();
  }
  return t;
}

// Calls store(i, u) with u uniform in [0, 1): 53 random bits for double, 24 for other dtypes.
template <typename T, typename Store>
void draw_uniform(int64_t n, Generator* gen, Store store) {
  if constexpr (std::is_same_v<T, double>) {
    const Stream s = reserve_stream(gen, n, 2);
    for_each_block<2>(
        n, s,
        [](const Block& r) { return std::array<double, 2>{u53(r[0], r[1]), u53(r[2], r[3])}; },
        store);
  } else {
    const Stream s = reserve_stream(gen, n, 4);
    for_each_block<4>(
        n, s,
        [](const Block& r) {
          return std::array<double, 4>{u24(r[0]), u24(r[1]), u24(r[2]), u24(r[3])};
        },
        store);
  }
}

// Calls store(i, u) with u uniform in [0, 1) on a 2^-32 grid (bernoulli's comparisons).
template <typename Store>
void draw_uniform32(int64_t n, Generator* gen, Store store) {
  const Stream s = reserve_stream(gen, n, 4);
  for_each_block<4>(
      n, s,
      [](const Block& r) {
        return std::array<double, 4>{r[0] * 0x1p-32, r[1] * 0x1p-32, r[2] * 0x1p-32,
                                     r[3] * 0x1p-32};
      },
      store);
}

double largest_finite(ScalarType t) {
  switch (t) {
    case ScalarType::Float16:
      return 65504.0;
    case ScalarType::BFloat16:
      return 3.3895313892515355e38;
    case ScalarType::Float32:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::max();
  }
}

// The next representable value below x (used to keep uniform results strictly below `to`).
template <typename T>
T next_below(T x) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    T r = x;
    if ((x.bits & 0x7fffu) == 0) {
      r.bits = 0x8001u;  // below +-0: the smallest negative subnormal
    } else if (x.bits & 0x8000u) {
      r.bits = static_cast<uint16_t>(x.bits + 1);
    } else {
      r.bits = static_cast<uint16_t>(x.bits - 1);
    }
    return r;
  } else {
    return std::nextafter(x, -std::numeric_limits<T>::infinity());
  }
}

// The integer range [lo, hi] a dtype can hold exactly (floats: consecutive integers).
std::pair<int64_t, int64_t> integer_range(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return {0, 1};
    case ScalarType::UInt8:
      return {0, 255};
    case ScalarType::UInt16:
      return {0, 65535};
    case ScalarType::UInt32:
      return {0, std::numeric_limits<uint32_t>::max()};
    case ScalarType::UInt64:  // bounds are int64 arguments
      return {0, std::numeric_limits<int64_t>::max()};
    case ScalarType::Int8:
      return {-128, 127};
    case ScalarType::Int16:
      return {-32768, 32767};
    case ScalarType::Int32:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    case ScalarType::Int64:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    case ScalarType::Float16:
      return {-(int64_t{1} << 11), int64_t{1} << 11};
    case ScalarType::BFloat16:
      return {-(int64_t{1} << 8), int64_t{1} << 8};
    case ScalarType::Float32:
    case ScalarType::ComplexFloat:
      return {-(int64_t{1} << 24), int64_t{1} << 24};
    case ScalarType::Float64:
    case ScalarType::ComplexDouble:
      break;
  }
  return {-(int64_t{1} << 53), int64_t{1} << 53};
}

// Integers uniform in [lo, hi], both inclusive; a span of 2^64 is the full 64-bit range.
const Tensor& random_inclusive(const Tensor& t, int64_t lo, int64_t hi, Generator* gen,
                               const char* op) {
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // 0: 2^64
  // r % span is biased by up to span / 2^bits: 32-bit draws only for small spans, else 64-bit.
  const bool narrow = span != 0 && span <= (uint64_t{1} << 16);
  return fill_in_place<false>(t, op, [&](auto tag, auto* data, int64_t n) {
    using T = typename decltype(tag)::type;
    auto store = [&](int64_t i, uint64_t r) {
      const uint64_t offset = span == 0 ? r : r % span;
      data[i] = cast_from_int<T>(static_cast<int64_t>(static_cast<uint64_t>(lo) + offset));
    };
    if (narrow) {
      const Stream s = reserve_stream(gen, n, 4);
      for_each_block<4>(
          n, s, [](const Block& r) { return std::array<uint64_t, 4>{r[0], r[1], r[2], r[3]}; },
          store);
    } else {
      const Stream s = reserve_stream(gen, n, 2);
      for_each_block<2>(
          n, s,
          [](const Block& r) { return std::array<uint64_t, 2>{u64(r[0], r[1]), u64(r[2], r[3])}; },
          store);
    }
  });
}

void check_int_bounds(ScalarType dtype, int64_t from, int64_t last, const char* op) {
  if (is_floating(dtype)) return;  // torch only warns past a float's exact-integer range
  const auto [lo, hi] = integer_range(dtype);
  EMBER_CHECK(from >= lo && from <= hi, RuntimeError, "[", op, "] from=", from,
              " is out of bounds for ", dtype_name(dtype));
  EMBER_CHECK(last >= lo && last <= hi, RuntimeError, "[", op, "] to - 1=", last,
              " is out of bounds for ", dtype_name(dtype));
}

// A contiguous float64 copy of `t` broadcast to `shape` (raises naming `op` when it does not fit).
Tensor broadcast_to_double(const Tensor& t, const Shape& shape, const char* op, const char* what) {
  EMBER_CHECK(broadcast_shapes(shape, t.sizes(), op) == shape, RuntimeError, "[", op, "] ", what,
              " of shape ", t.sizes(), " cannot be broadcast to the output shape ", shape);
  // NOTE: a zero-stride view of the full shape, so copy_ itself never has to broadcast.
  Shape strides(shape.size(), 0);
  const size_t lead = shape.size() - t.sizes().size();
  for (size_t d = 0; d < t.sizes().size(); ++d) {
    if (t.sizes()[d] != 1) strides[lead + d] = t.strides()[d];
  }
  Tensor out = Tensor::empty(shape, ScalarType::Float64);
  if (out.numel() > 0) copy_(out, t.as_strided(shape, strides, t.offset()));
  return out;
}

}  // namespace

const Tensor& uniform_(const Tensor& t, double from, double to, Generator* gen, const char* op) {
  check_floating(t, op, "uniform_");
  const double limit = largest_finite(t.dtype());
  EMBER_CHECK(std::fabs(from) <= limit, RuntimeError, "[", op, "] from=", from,
              " is out of bounds for ", dtype_name(t.dtype()));
  EMBER_CHECK(std::fabs(to) <= limit, RuntimeError, "[", op, "] to=", to, " is out of bounds for ",
              dtype_name(t.dtype()));
  EMBER_CHECK(from <= to, RuntimeError, "[", op,
              "] expects to return a [from, to) range, but found from=", from, " > to=", to);
  EMBER_CHECK(to - from <= limit, RuntimeError, "[", op, "] expects to - from <= ", limit, " for ",
              dtype_name(t.dtype()), ", but found to=", to, " from=", from);
  const double span = to - from;
  return fill_in_place<true>(t, op, [&](auto tag, auto* data, int64_t n) {
    using T = typename decltype(tag)::type;
    // Rounding to T can land on `to`: such values become the largest T below it.
    T cap = static_cast<T>(static_cast<compute_t<T>>(to));
    while (static_cast<double>(static_cast<compute_t<T>>(cap)) >= to && to > from) {
      cap = next_below(cap);
    }
    draw_uniform<T>(n, gen, [&](int64_t i, double u) {
      T v = cast_from_double<T>(from + u * span);
      if (static_cast<double>(static_cast<compute_t<T>>(v)) >= to && to > from) v = cap;
      data[i] = v;
    });
  });
}

const Tensor& normal_(const Tensor& t, double mean, double std, Generator* gen, const char* op) {
  if (is_complex(t.dtype())) {
    // torch: real and imaginary parts each N(mean, std^2 / 2), so E|z - mean|^2 = std^2.
    EMBER_CHECK(std >= 0.0, RuntimeError, "[", op, "] expects std >= 0.0, but found std ", std);
    normal_(view_as_real(t), mean, std / std::sqrt(2.0), gen, op);
    t.bump_version();
    return t;
  }
  check_floating(t, op, "normal_kernel_cpu");
  EMBER_CHECK(std >= 0.0, RuntimeError, "[", op, "] expects std >= 0.0, but found std ", std);
  return fill_in_place<true>(t, op, [&](auto tag, auto* data, int64_t n) {
    using T = typename decltype(tag)::type;
    auto store = [&](int64_t i, double z) { data[i] = cast_from_double<T>(mean + std * z); };
    // Box-Muller: u1 in (0, 1] keeps the log finite; each pair of uniforms gives two normals.
    if constexpr (std::is_same_v<T, double>) {
      const Stream s = reserve_stream(gen, n, 2);
      for_each_block<2>(
          n, s,
          [](const Block& r) {
            const double radius = std::sqrt(-2.0 * std::log(1.0 - u53(r[0], r[1])));
            const double theta = kTwoPi * u53(r[2], r[3]);
            return std::array<double, 2>{radius * std::cos(theta), radius * std::sin(theta)};
          },
          store);
    } else {
      const Stream s = reserve_stream(gen, n, 4);
      for_each_block<4>(
          n, s,
          [](const Block& r) {
            std::array<double, 4> z;
            for (int p = 0; p < 2; ++p) {
              const float radius =
                  std::sqrt(-2.0f * std::log(static_cast<float>(1.0 - u24(r[2 * p]))));
              const float theta = static_cast<float>(kTwoPi * u24(r[2 * p + 1]));
              z[2 * p] = radius * std::cos(theta);
              z[2 * p + 1] = radius * std::sin(theta);
            }
            return z;
          },
          store);
    }
  });
}

const Tensor& random_int_(const Tensor& t, int64_t low, int64_t high, Generator* gen,
                          const char* op) {
  EMBER_CHECK(low < high, RuntimeError, "[", op,
              "] expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  check_int_bounds(t.dtype(), low, high - 1, op);
  return random_inclusive(t, low, high - 1, gen, op);
}

const Tensor& random_(const Tensor& t, int64_t from, std::optional<int64_t> to, Generator* gen) {
  if (to) return random_int_(t, from, *to, gen, "random_");
  const int64_t last = integer_range(t.dtype()).second;
  EMBER_CHECK(from <= last, RuntimeError,
              "[random_] expects 'from' to be at most the largest value of ", dtype_name(t.dtype()),
              " (", last, "), but got from=", from);
  check_int_bounds(t.dtype(), from, last, "random_");
  return random_inclusive(t, from, last, gen, "random_");
}

const Tensor& bernoulli_(const Tensor& t, double p, Generator* gen) {
  EMBER_CHECK(p >= 0.0 && p <= 1.0, RuntimeError,
              "[bernoulli_] expects p to be in [0, 1], but got p=", p);
  return fill_in_place<false>(t, "bernoulli_", [&](auto tag, auto* data, int64_t n) {
    using T = typename decltype(tag)::type;
    draw_uniform32(n, gen, [&](int64_t i, double u) { data[i] = cast_from_int<T>(u < p ? 1 : 0); });
  });
}

const Tensor& bernoulli_tensor_(const Tensor& t, const Tensor& p, Generator* gen, const char* op) {
  check_floating(p, op, "bernoulli_tensor_cpu_p_");
  const Tensor prob = broadcast_to_double(p, t.sizes(), op, "the probability tensor");
  const double* pd = prob.data<double>();
  for (int64_t i = 0; i < prob.numel(); ++i) {
    EMBER_CHECK(pd[i] >= 0.0 && pd[i] <= 1.0, RuntimeError, "[", op,
                "] expects all probabilities to be in [0, 1], but found ", pd[i]);
  }
  return fill_in_place<false>(t, op, [&](auto tag, auto* data, int64_t n) {
    using T = typename decltype(tag)::type;
    draw_uniform32(n, gen,
                   [&](int64_t i, double u) { data[i] = cast_from_int<T>(u < pd[i] ? 1 : 0); });
  });
}

Tensor bernoulli(const Tensor& p, Generator* gen) {
  check_floating(p, "bernoulli", "bernoulli_tensor_cpu_p_");
  Tensor out = empty_like(p, p.dtype(), "bernoulli");
  bernoulli_tensor_(out, p, gen, "bernoulli");
  return out;
}

const Tensor& exponential_(const Tensor& t, double lambd, Generator* gen) {
  EMBER_CHECK(is_floating(t.dtype()), RuntimeError,
              "[exponential_] Exponential distribution is a continuous probability "
              "distribution. dtype must be a floating point but you specified ",
              torch_type_name(t.dtype()));
  EMBER_CHECK(lambd > 0.0, RuntimeError,
              "[exponential_] expects lambda > 0.0, but found lambda=", lambd);
  return fill_in_place<true>(t, "exponential_", [&](auto tag, auto* data, int64_t n) {
    using T = typename decltype(tag)::type;
    // Inverse CDF on 1 - u in (0, 1]: finite and >= 0.
    draw_uniform<T>(n, gen, [&](int64_t i, double u) {
      data[i] = cast_from_double<T>(-std::log1p(-u) / lambd);
    });
  });
}

Tensor randint(int64_t low, int64_t high, const Shape& size, ScalarType dtype, Generator* gen) {
  EMBER_CHECK(low < high, RuntimeError,
              "[randint] expects 'low' to be less than 'high', but got low=", low,
              " >= high=", high);
  check_int_bounds(dtype, low, high - 1, "randint");
  Tensor out = empty(size, dtype, "randint");
  random_inclusive(out, low, high - 1, gen, "randint");
  return out;
}

Tensor randperm(int64_t n, ScalarType dtype, Generator* gen) {
  EMBER_CHECK(n >= 0, RuntimeError, "[randperm] n must be non-negative, got ", n);
  EMBER_CHECK(dtype != ScalarType::Bool, NotImplementedError,
              "[randperm] \"randperm\" not implemented for 'Bool'");
  const int64_t largest = integer_range(dtype).second;
  EMBER_CHECK(n == 0 || n - 1 <= largest, RuntimeError, "[randperm] n=", n,
              " is too large for dtype ", dtype_name(dtype), " (its values go up to ", largest,
              ")");
  // Allocate the result first: it checks the size (a huge n failed in std::vector, unnamed).
  Tensor out = empty({n}, dtype, "randperm");
  std::vector<int64_t> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), int64_t{0});
  // Fisher-Yates; swap i takes 64-bit draw (i % 2) of block (counter + i / 2): serial by nature.
  const Stream s = reserve_stream(gen, n, 2);
  Block r{};
  for (int64_t i = n - 1; i > 0; --i) {
    if (i == n - 1 || i % 2 == 1) r = s.block(static_cast<uint64_t>(i / 2));
    const uint64_t draw = i % 2 == 0 ? u64(r[0], r[1]) : u64(r[2], r[3]);
    std::swap(perm[i], perm[static_cast<int64_t>(draw % static_cast<uint64_t>(i + 1))]);
  }
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    for (int64_t i = 0; i < n; ++i) data[i] = cast_from_int<T>(perm[i]);
  });
  return out;
}

Tensor normal_tensor(const Tensor& mean, const Tensor& std, Generator* gen) {
  const ScalarType dtype = !mean.is_wrapped_number()  ? mean.dtype()
                           : !std.is_wrapped_number() ? std.dtype()
                                                      : default_dtype();
  EMBER_CHECK(is_floating(dtype), NotImplementedError,
              "[normal] \"normal_kernel_cpu\" not implemented for '", torch_type_name(dtype),
              "' (needs a floating point dtype, got ", dtype_name(dtype), ")");
  const Shape shape = broadcast_shapes(mean.sizes(), std.sizes(), "normal");
  check_new_sizes(shape, "normal");
  const Tensor s = broadcast_to_double(std, shape, "normal", "std");
  const double* sd = s.data<double>();
  for (int64_t i = 0; i < s.numel(); ++i) {
    EMBER_CHECK(!(sd[i] < 0.0), RuntimeError,
                "[normal] expects all elements of std >= 0.0, but found std ", sd[i]);
  }
  const Tensor m = broadcast_to_double(mean, shape, "normal", "mean");
  Tensor z = Tensor::empty(shape, ScalarType::Float64);
  normal_(z, 0.0, 1.0, gen, "normal");
  double* zd = z.data<double>();
  const double* md = m.data<double>();
  for (int64_t i = 0; i < z.numel(); ++i) zd[i] = md[i] + sd[i] * zd[i];
  return to_dtype(z, dtype);
}

}  // namespace ember
