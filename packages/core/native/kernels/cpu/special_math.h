// Special functions of ember.special that have no closed form in other ops: scaled erfc, the
// normal quantile, modified Bessel functions I0/I1 (plain and exponentially scaled), Bessel J0/J1
// and the Hurwitz zeta function. All are computed in double (float and half inputs are cast
// back), from convergent series, backward recurrences and asymptotic expansions summed until
// their terms fall below double precision, so no tables of fitted coefficients are needed.
#pragma once

#include <cmath>
#include <limits>

#include "loops.h"
#include "polygamma.h"

namespace ember::cpu::EMBER_ISA_NS {

inline constexpr double kSpecialPi = 3.14159265358979323846;
inline constexpr double kInvSqrtPi = 0.56418958354775628695;  // 1 / sqrt(pi)
inline constexpr double kSqrt1_2 = 0.70710678118654752440;
inline constexpr double kSqrt2OverPi = 0.79788456080286535588;  // sqrt(2 / pi)

// exp(x^2) with x^2 split into hi + lo (fma), so the rounding of x^2 does not cost x^2 ulps.
inline double exp_x_squared(double x) {
  const double hi = x * x;
  const double lo = std::fma(x, x, -hi);
  return std::exp(hi) * (1 + lo);
}

// erfcx(x) = exp(x^2) erfc(x). Below 10: the product (erfc is accurate to an ulp that far);
// above: the asymptotic series 1/(x sqrt(pi)) sum (-1)^k (2k-1)!! / (2x^2)^k, whose terms shrink
// below 1e-17 of the sum long before they start to grow. Negative x: 2 exp(x^2) - erfcx(-x).
inline double erfcx_value(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) {
    if (x < -26.7) return std::numeric_limits<double>::infinity();
    return 2 * exp_x_squared(x) - erfcx_value(-x);
  }
  if (x < 10) return exp_x_squared(x) * std::erfc(x);
  if (x > 1e9) return kInvSqrtPi / x;  // the first correction is below 1e-18
  const double inv_2x2 = 0.5 / (x * x);
  double term = 1, sum = 1;
  for (int k = 1; k < 60; ++k) {
    term *= -(2 * k - 1) * inv_2x2;
    sum += term;
    if (std::fabs(term) < 1e-17 * sum) break;
  }
  return kInvSqrtPi / x * sum;
}

// log Phi(x) for x <= 0 through erfcx, which neither underflows nor loses the tail.
inline double log_ndtr_negative(double x) {
  return std::log(0.5 * erfcx_value(-x * kSqrt1_2)) - 0.5 * x * x;
}

// The standard normal quantile. Central p (|p - 1/2| <= 1/4): sqrt(2) erfinv(2p - 1), with 2p - 1
// exact there, polished by one Newton step on erf. Tails: a rational first guess (4.5e-4 absolute)
// refined by Newton on log Phi(x) = log q, whose slope phi/Phi = sqrt(2/pi) / erfcx(-x/sqrt(2))
// stays finite down to the smallest subnormal q.
template <typename ErfInv>
double ndtri_value(double p, ErfInv erfinv) {
  if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  if (p >= 0.25 && p <= 0.75) {
    const double d = p - 0.5;  // exact (Sterbenz)
    double x = erfinv(2 * d) / kSqrt1_2;
    // Newton on Phi(x) - p = erf(x / sqrt2) / 2 - d, in the form that keeps relative precision.
    const double phi = std::exp(-0.5 * x * x) * (kSqrt2OverPi * 0.5);
    x -= (0.5 * std::erf(x * kSqrt1_2) - d) / phi;
    return x;
  }
  const bool upper = p > 0.5;
  const double q = upper ? 1 - p : p;  // exact for p in [0.5, 1]
  const double t = std::sqrt(-2 * std::log(q));
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                       (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  const double log_q = std::log(q);
  for (int i = 0; i < 8; ++i) {
    const double slope = kSqrt2OverPi / erfcx_value(-x * kSqrt1_2);  // d/dx log Phi(x)
    const double dx = (log_ndtr_negative(x) - log_q) / slope;
    x -= dx;
    if (std::fabs(dx) <= 1e-16 * std::fabs(x)) break;
  }
  return upper ? -x : x;
}

// I_nu(x) e^{-|x|} for nu = 0 or 1 from the power series (|x| <= 30; positive terms, no
// cancellation) or Hankel's asymptotic series (|x| > 30, where its terms fall below 1e-17 of the
// sum after a few dozen). `scaled` selects the exponentially scaled form.
inline double bessel_i_value(int nu, double x, bool scaled) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  const double sign = (nu == 1 && x < 0) ? -1.0 : 1.0;
  if (ax == std::numeric_limits<double>::infinity()) {
    return scaled ? 0.0 * sign : sign * std::numeric_limits<double>::infinity();
  }
  double value;
  if (ax <= 30) {
    const double y = 0.25 * ax * ax;
    double term = nu == 0 ? 1.0 : 0.5 * ax;
    double sum = term;
    for (int k = 1; k < 200; ++k) {
      term *= y / (static_cast<double>(k) * (k + nu));
      sum += term;
      if (term < 1e-17 * sum) break;
    }
    value = scaled ? sum * std::exp(-ax) : sum;
  } else {
    const double mu = 4.0 * nu * nu;
    const double inv_8x = 1 / (8 * ax);
    double term = 1, sum = 1;
    for (int k = 1; k < 120; ++k) {
      const double odd = 2.0 * k - 1;
      term *= -(mu - odd * odd) * inv_8x / k;
      sum += term;
      if (std::fabs(term) < 1e-17 * std::fabs(sum)) break;
    }
    const double scaled_value = sum / std::sqrt(2 * kSpecialPi * ax);
    if (scaled) {
      value = scaled_value;
    } else {
      const double half = std::exp(0.5 * ax);  // e^x as e^{x/2} squared: no early overflow
      value = half * scaled_value * half;
    }
  }
  return sign * value;
}

// J0 or J1 (nu = 0, 1). |x| < 8: the power series in long double (its alternating terms grow to
// at most I0(8) ~ 430, so the 64-bit mantissa keeps double precision). 8 <= |x| < 25: Miller's
// backward recurrence normalized by J0 + 2 sum J_2k = 1. Beyond: Hankel's asymptotic expansion
// P cos(chi) - Q sin(chi), accurate to e^{-2|x|}.
inline double bessel_j_value(int nu, double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  const double sign = (nu == 1 && x < 0) ? -1.0 : 1.0;
  if (ax == std::numeric_limits<double>::infinity()) return 0.0 * sign;
  double value;
  if (ax < 8) {
    const long double y = -0.25L * ax * ax;
    long double term = nu == 0 ? 1.0L : 0.5L * ax;
    long double sum = term;
    for (int k = 1; k < 80; ++k) {
      term *= y / (static_cast<long double>(k) * (k + nu));
      sum += term;
      if (std::fabs(term) < 1e-21L) break;
    }
    value = static_cast<double>(sum);
  } else if (ax < 25) {
    int n = static_cast<int>(ax + 20 + std::sqrt(40 * ax));
    n += n % 2;  // start on an even order
    const long double two_over_x = 2.0L / ax;
    long double next = 0, cur = 1e-30L, norm = 0, j1 = 0;
    for (int k = n; k > 0; --k) {
      const long double prev = k * two_over_x * cur - next;  // J_{k-1}
      next = cur;
      cur = prev;
      if (k - 1 == 1) j1 = cur;
      if ((k - 1) % 2 == 0 && k - 1 > 0) norm += 2 * cur;
    }
    norm += cur;  // J_0
    value = static_cast<double>((nu == 0 ? cur : j1) / norm);
  } else {
    const double mu = 4.0 * nu * nu;
    const double inv_8x = 1 / (8 * ax);
    double p = 1, q = 0, term = 1;
    for (int k = 1; k < 200; ++k) {
      const double odd = 2.0 * k - 1;
      term *= (mu - odd * odd) * inv_8x / k;  // a_k(nu) / x^k, signs folded in below
      const double signed_term = (k / 2) % 2 == 0 ? term : -term;
      if (k % 2 == 1)
        q += signed_term;
      else
        p += signed_term;
      if (std::fabs(term) < 1e-17) break;
    }
    const double s = std::sin(ax), c = std::cos(ax);
    // chi = x - (nu/2 + 1/4) pi, expanded so the large argument is reduced once by sin/cos.
    const double cos_chi = nu == 0 ? (c + s) * kSqrt1_2 : (s - c) * kSqrt1_2;
    const double sin_chi = nu == 0 ? (s - c) * kSqrt1_2 : -(s + c) * kSqrt1_2;
    value = std::sqrt(2 / (kSpecialPi * ax)) * (p * cos_chi - q * sin_chi);
  }
  return sign * value;
}

// The Hurwitz zeta function sum_k (k + q)^{-x}, with torch's conventions: x == 1 is a pole (inf),
// x < 1 is NaN, q <= 0 is a pole at integers and NaN for non-integer x.
inline double zeta_value(double x, double q) {
  if (std::isnan(x) || std::isnan(q)) return std::numeric_limits<double>::quiet_NaN();
  if (x == 1) return std::numeric_limits<double>::infinity();
  if (x < 1) return std::numeric_limits<double>::quiet_NaN();
  if (q <= 0) {
    if (q == std::floor(q)) return std::numeric_limits<double>::infinity();
    if (x != std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
    // Integer x and negative non-integer q: the terms before 0 are summed directly.
    double head = 0;
    while (q < 1) {
      head += std::pow(q, -x);
      q += 1;
    }
    return head + zeta_value(x, q);
  }
  if (x == std::numeric_limits<double>::infinity()) {
    return q < 1 ? std::numeric_limits<double>::infinity() : (q == 1 ? 1.0 : 0.0);
  }
  if (q == std::numeric_limits<double>::infinity()) return 0.0;
  // q^{-x} zeta_scaled, with the scale taken out in logs so neither factor overflows first.
  const double scaled = hurwitz_zeta_scaled(x, q, q);
  return std::exp(std::log(scaled) - x * std::log(q));
}

}  // namespace ember::cpu::EMBER_ISA_NS
