// polygamma(n, x) for n >= 1 in double: (-1)^(n+1) n! zeta(n+1, x) with the Hurwitz zeta
// function summed directly up to a point and finished with the Euler-Maclaurin series. Every
// term is scaled by q0^s (q0 the distance to the nearest pole), so large n neither overflows
// nor underflows before the final exp. (n = 0 is digamma, in math_ops.h.)
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "loops.h"

namespace ember::cpu::EMBER_ISA_NS {

// B_2j / (2j)! for j = 1..12: the Euler-Maclaurin coefficients. NOTE: the denominators are
// double literals; the last three exceed int64 as integer literals and would wrap.
inline constexpr double kBernoulliOverFactorial[] = {
    1.0 / 12,
    -1.0 / 720,
    1.0 / 30240,
    -1.0 / 1209600,
    1.0 / 47900160,
    -691.0 / 1307674368000.0,
    1.0 / 74724249600.0,
    -3617.0 / 10670622842880000.0,
    43867.0 / 5109094217170944000.0,
    -174611.0 / 802857662698291200000.0,
    77683.0 / 14101100039391805440000.0,
    -236364091.0 / 1693824136731743669452800000.0,
};

// q0^s * zeta(s, q) for q >= q0 > 0: terms (q0 / (q + k))^s are summed until q + k passes
// s + 10, where the Euler-Maclaurin remainder converges within a dozen terms.
inline double hurwitz_zeta_scaled(double s, double q, double q0) {
  double sum = 0;
  double a = q;
  // NOTE: capped so a huge n cannot loop for ever; past 2^17 terms (q0/a)^s is far below 1e-300
  // of the first term for any s that large.
  const double stop = std::min(s + 10, q + 131072.0);
  while (a < stop) {
    sum += std::pow(q0 / a, s);
    a += 1;
  }
  const double r = std::pow(q0 / a, s);
  double tail = a * r / (s - 1) + 0.5 * r;
  double rising = s;     // s (s + 1) ... (s + 2j - 2)
  double a_pow = 1 / a;  // a^(1 - 2j)
  for (int j = 0; j < 12; ++j) {
    const double term = r * kBernoulliOverFactorial[j] * rising * a_pow;
    tail += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum + tail)) break;
    rising *= (s + 2 * j + 1) * (s + 2 * j + 2);
    a_pow /= a * a;
  }
  return sum + tail;
}

inline double polygamma_value(int64_t n, double x) {
  const double s = static_cast<double>(n) + 1;
  const double sign = n % 2 == 1 ? 1.0 : -1.0;  // (-1)^(n+1)
  if (std::isnan(x) || x == -std::numeric_limits<double>::infinity()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (x == std::numeric_limits<double>::infinity()) return sign * 0.0;
  if (x <= 0 && x == std::floor(x)) return sign * std::numeric_limits<double>::infinity();
  double scaled, q0;
  if (x > 0) {
    q0 = x;
    scaled = hurwitz_zeta_scaled(s, x, q0);
  } else {
    // x = f - m with 0 < f < 1: the terms before the pole are (-1)^s zeta(s, 1 - f) minus its
    // tail from m + 1 - f, which leaves only positive arguments.
    const double f = x - std::floor(x);
    const double m = -std::floor(x);
    q0 = std::min(f, 1 - f);
    const double parity = std::fmod(s, 2.0) == 0 ? 1.0 : -1.0;
    scaled = hurwitz_zeta_scaled(s, f, q0) +
             parity * (hurwitz_zeta_scaled(s, 1 - f, q0) - hurwitz_zeta_scaled(s, m + 1 - f, q0));
  }
  if (scaled == 0) return sign * 0.0;
  const double magnitude =
      std::exp(std::lgamma(s) - s * std::log(q0) + std::log(std::fabs(scaled)));
  return scaled < 0 ? -sign * magnitude : sign * magnitude;
}

}  // namespace ember::cpu::EMBER_ISA_NS
