// Creation ops: empty/full/zeros/ones, arange, linspace, logspace and eye.
#include <cmath>
#include <limits>
#include <type_traits>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/parallel.h"

namespace ember {
namespace {

// Filling is cheap per element: only split large tensors across threads.
constexpr int64_t kFillGrain = 65536;

// double -> int64 without UB: NaN and out-of-range values saturate like x86's cvttsd2si.
int64_t double_to_int64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
    return std::numeric_limits<int64_t>::min();
  }
  return static_cast<int64_t>(v);
}

template <typename T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(double_to_int64(v));  // wraps modulo 2^bits like torch's casts
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return T(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Writes value(i) for every element of a fresh contiguous tensor, in parallel.
template <typename ValueFn>
void fill_contiguous(const Tensor& out, ValueFn value) {
  visit_dtype_with_unsigned(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    parallel_for(0, out.numel(), kFillGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) data[i] = value(tag, i);
    });
  });
}

// The largest finite value of a floating dtype (overflow checks for full/fill).
double float_max(ScalarType t) {
  switch (t) {
    case ScalarType::Float16:
      return 65504.0;
    case ScalarType::BFloat16:
      return 3.3895313892515355e38;
    case ScalarType::Float32:
      return std::numeric_limits<float>::max();
    default:
      return std::numeric_limits<double>::infinity();
  }
}

}  // namespace

const char* torch_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return "Bool";
    case ScalarType::UInt8:
      return "Byte";
    case ScalarType::UInt16:
      return "UInt16";
    case ScalarType::UInt32:
      return "UInt32";
    case ScalarType::UInt64:
      return "UInt64";
    case ScalarType::Int8:
      return "Char";
    case ScalarType::Int16:
      return "Short";
    case ScalarType::Int32:
      return "Int";
    case ScalarType::Int64:
      return "Long";
    case ScalarType::Float16:
      return "Half";
    case ScalarType::BFloat16:
      return "BFloat16";
    case ScalarType::Float32:
      return "Float";
    case ScalarType::ComplexFloat:
      return "ComplexFloat";
    case ScalarType::ComplexDouble:
      return "ComplexDouble";
    case ScalarType::Float64:
      break;
  }
  return "Double";
}

void check_new_sizes(const Shape& size, const char* op) {
  int64_t n = 1;
  for (int64_t s : size) {
    EMBER_CHECK(s >= 0, RuntimeError, "[", op, "] Trying to create tensor with negative dimension ",
                s, ": ", size);
  }
  for (int64_t s : size) {
    EMBER_CHECK(!__builtin_mul_overflow(n, s, &n), RuntimeError, "[", op,
                "] the number of elements of a tensor of shape ", size,
                " overflows a 64-bit integer");
  }
  int64_t nbytes;
  EMBER_CHECK(!__builtin_mul_overflow(n, int64_t{8}, &nbytes), RuntimeError, "[", op,
              "] a tensor of shape ", size, " needs more bytes than fit in 64 bits");
}

void check_value_fits(Scalar value, ScalarType dtype, const char* op) {
  if (dtype == ScalarType::Bool) return;
  dtype = to_real_type(dtype);  // a complex dtype holds what its real part holds
  bool fits = true;
  if (is_floating(dtype)) {
    const double v = value.to_double();
    fits = !std::isfinite(v) || std::fabs(v) <= float_max(dtype);
  } else {
    visit_dtype_with_unsigned(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        const double max = static_cast<double>(std::numeric_limits<T>::max());
        // Like c10::overflows: unsigned types also accept negatives that wrap (-1 -> 255).
        const double min =
            std::is_signed_v<T> ? static_cast<double>(std::numeric_limits<T>::min()) : -max;
        if (value.is_uint64) {
          fits = dtype == ScalarType::UInt64;  // i is in [2**63, 2**64): only uint64 holds it
        } else if (value.is_int) {
          fits = dtype == ScalarType::Int64 ||
                 (static_cast<double>(value.i) >= min && static_cast<double>(value.i) <= max);
        } else {
          fits = value.d >= min && value.d < max + 1.0;  // also rejects NaN
        }
      }
    });
  }
  const std::string text = value.is_uint64 ? str(static_cast<uint64_t>(value.i))
                           : value.is_int  ? str(value.i)
                                           : str(value.d);
  EMBER_CHECK(fits, RuntimeError, "[", op, "] value ", text, " cannot be converted to type ",
              dtype_name(dtype), " without overflow");
}

Tensor empty(const Shape& size, ScalarType dtype, const char* op) {
  check_new_sizes(size, op);
  return Tensor::empty(size, dtype);
}

Tensor empty_strided(const Shape& size, const Shape& stride, ScalarType dtype) {
  EMBER_CHECK(size.size() == stride.size(), RuntimeError,
              "[empty_strided] dimensionality of sizes (", size.size(),
              ") must match dimensionality of strides (", stride.size(), ")");
  check_new_sizes(size, "empty_strided");
  for (int64_t s : stride) {
    EMBER_CHECK(s >= 0, RuntimeError, "[empty_strided] negative strides are not supported, got ",
                stride, " for sizes ", size);
  }
  return Tensor::empty_strided(size, stride, dtype);
}

Tensor empty_like(const Tensor& t, ScalarType dtype, const char* op) {
  if (t.is_non_overlapping_and_dense()) return Tensor::empty_strided(t.sizes(), t.strides(), dtype);
  return empty(t.sizes(), dtype, op);
}

const Tensor& fill_dense_(const Tensor& t, Scalar value, const char* op) {
  EMBER_CHECK(t.is_non_overlapping_and_dense(), RuntimeError, "[", op,
              "] internal: fill_dense_ needs a dense tensor, got strides ", t.strides());
  check_value_fits(value, t.dtype(), op);
  if (is_complex(t.dtype())) {  // rare enough for the generic copy path
    copy_(t, value.is_int ? Tensor::scalar_int(
                                value.i, value.is_uint64 ? ScalarType::UInt64 : ScalarType::Int64)
                          : Tensor::scalar(value.d, ScalarType::Float64));
    return t;
  }
  // A dense tensor with non-negative strides covers numel() elements from its first one. The
  // int path casts the int64 bit pattern, right for every integral dtype (check_value_fits only
  // lets a uint64 value into uint64 and bool) but not for floats, which take the double path.
  if (value.is_int && !(value.is_uint64 && is_floating(t.dtype()))) {
    fill_contiguous(t, [v = value.i](auto tag, int64_t) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
        return T(static_cast<float>(v));
      } else if constexpr (std::is_same_v<T, bool>) {
        return v != 0;
      } else {
        return static_cast<T>(v);
      }
    });
  } else {
    fill_contiguous(t, [v = value.to_double()](auto tag, int64_t) {
      return from_double<typename decltype(tag)::type>(v);
    });
  }
  t.bump_version();
  return t;
}

Tensor full_scalar(const Shape& size, Scalar value, ScalarType dtype, const char* op) {
  check_value_fits(value, dtype, op);
  Tensor out = empty(size, dtype, op);
  fill_dense_(out, value, op);
  return out;
}

Tensor full(const Shape& size, double value, ScalarType dtype) {
  return full_scalar(size, Scalar::from_double(value), dtype, "full");
}
Tensor full_int(const Shape& size, int64_t value, ScalarType dtype) {
  return full_scalar(size, Scalar::from_int(value), dtype, "full");
}
Tensor zeros(const Shape& size, ScalarType dtype) {
  return full_scalar(size, Scalar::from_int(0), dtype, "zeros");
}
Tensor ones(const Shape& size, ScalarType dtype) {
  return full_scalar(size, Scalar::from_int(1), dtype, "ones");
}

Tensor arange(Scalar start, Scalar end, Scalar step, ScalarType dtype) {
  EMBER_CHECK(dtype != ScalarType::Bool, NotImplementedError,
              "[arange] \"arange_cpu\" not implemented for 'Bool'");
  for (const Scalar* s : {&start, &end, &step}) {
    EMBER_CHECK(s->is_int || std::isfinite(s->d), RuntimeError,
                "[arange] unsupported range: ", start.to_double(), " -> ", end.to_double(),
                " with step ", step.to_double());
  }
  if (is_integral(dtype, false)) {
    // Like torch, integral dtypes truncate the bounds and the step to integers first.
    auto as_int = [](Scalar s) {
      // The bounds are computed in int64, as torch's are (it names int64 for any int dtype).
      if (s.is_uint64) check_value_fits(s, ScalarType::Int64, "arange");
      EMBER_CHECK(s.is_int || std::fabs(s.d) < 9.2e18, RuntimeError, "[arange] bound ", s.d,
                  " does not fit in int64");
      return s.is_int ? s.i : static_cast<int64_t>(s.d);
    };
    const int64_t xs = as_int(start), xe = as_int(end), xst = as_int(step);
    EMBER_CHECK(xst != 0, RuntimeError, "[arange] step must be nonzero");
    EMBER_CHECK((xst > 0 && xe >= xs) || (xst < 0 && xe <= xs), RuntimeError,
                "[arange] upper bound and lower bound inconsistent with step sign (start=", xs,
                ", end=", xe, ", step=", xst, ")");
    const __int128 span = static_cast<__int128>(xe) - xs;
    const __int128 size = (span + xst - (xst > 0 ? 1 : -1)) / xst;  // ceil(span / step)
    EMBER_CHECK(size <= std::numeric_limits<int64_t>::max(), RuntimeError,
                "[arange] invalid size, possible overflow? (start=", xs, ", end=", xe,
                ", step=", xst, ")");
    Tensor out = empty({static_cast<int64_t>(size)}, dtype, "arange");
    fill_contiguous(out, [&](auto tag, int64_t i) {
      using T = typename decltype(tag)::type;
      // Unsigned arithmetic: wraps instead of overflowing for narrow dtypes.
      const uint64_t v =
          static_cast<uint64_t>(xs) + static_cast<uint64_t>(i) * static_cast<uint64_t>(xst);
      if constexpr (std::is_same_v<T, bool>) {
        return v != 0;
      } else {
        return static_cast<T>(static_cast<int64_t>(v));
      }
    });
    return out;
  }
  const double xs = start.to_double(), xe = end.to_double(), xst = step.to_double();
  EMBER_CHECK(xst != 0, RuntimeError, "[arange] step must be nonzero");
  EMBER_CHECK((xst > 0 && xe >= xs) || (xst < 0 && xe <= xs), RuntimeError,
              "[arange] upper bound and lower bound inconsistent with step sign (start=", xs,
              ", end=", xe, ", step=", xst, ")");
  const double size_d = std::ceil((xe - xs) / xst);
  EMBER_CHECK(size_d >= 0 && size_d < 9.2e18, RuntimeError,
              "[arange] invalid size, possible overflow? (start=", xs, ", end=", xe, ", step=", xst,
              ")");
  Tensor out = empty({static_cast<int64_t>(size_d)}, dtype, "arange");
  fill_contiguous(out, [&](auto tag, int64_t i) {
    return from_double<typename decltype(tag)::type>(xs + static_cast<double>(i) * xst);
  });
  return out;
}

namespace {

// linspace's points: the first half counts up from start, the second down from end, so both
// endpoints are exact (torch's scheme).
struct LinearPoints {
  double start, end, step;
  int64_t steps;
  double operator()(int64_t i) const {
    if (i < steps / 2) return start + step * static_cast<double>(i);
    return end - step * static_cast<double>(steps - i - 1);
  }
};

LinearPoints linear_points(double start, double end, int64_t steps, ScalarType dtype,
                           const char* op, const char* kernel) {
  EMBER_CHECK(steps >= 0, RuntimeError, "[", op, "] number of steps must be non-negative, got ",
              steps);
  EMBER_CHECK(dtype != ScalarType::Bool, NotImplementedError, "[", op, "] \"", kernel,
              "\" not implemented for 'Bool'");
  const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  // One point is `start` (torch's rule), not the `end` the halfway scheme would give.
  return {start, steps == 1 ? start : end, step, steps};
}

}  // namespace

Tensor linspace(double start, double end, int64_t steps, ScalarType dtype) {
  const LinearPoints points = linear_points(start, end, steps, dtype, "linspace", "linspace_cpu");
  Tensor out = empty({steps}, dtype, "linspace");
  fill_contiguous(out, [&](auto tag, int64_t i) {
    return from_double<typename decltype(tag)::type>(points(i));
  });
  return out;
}

Tensor logspace(double start, double end, int64_t steps, double base, ScalarType dtype) {
  const LinearPoints points = linear_points(start, end, steps, dtype, "logspace", "logspace_cpu");
  Tensor out = empty({steps}, dtype, "logspace");
  fill_contiguous(out, [&](auto tag, int64_t i) {
    return from_double<typename decltype(tag)::type>(std::pow(base, points(i)));
  });
  return out;
}

Tensor eye(int64_t n, int64_t m, ScalarType dtype) {
  EMBER_CHECK(n >= 0, RuntimeError, "[eye] n must be greater or equal to 0, got ", n);
  EMBER_CHECK(m >= 0, RuntimeError, "[eye] m must be greater or equal to 0, got ", m);
  if (is_complex(dtype)) return to_dtype(eye(n, m, to_real_type(dtype)), dtype);
  Tensor out = full_scalar({n, m}, Scalar::from_int(0), dtype, "eye");
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    for (int64_t i = 0; i < std::min(n, m); ++i) data[i * m + i] = from_double<T>(1.0);
  });
  return out;
}

}  // namespace ember
