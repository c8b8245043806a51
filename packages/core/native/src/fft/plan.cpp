// FFT plans: factorization of n into Stockham passes, twiddle tables, and the per-length cache.
#include <cmath>
#include <map>
#include <mutex>

#include "fft_impl.h"

namespace ember::fft {

template <typename T>
Cpx<T> unit_root(int64_t k, int64_t n, int sign) {
  k %= n;
  if (k < 0) k += n;
  // Reducing to the first half keeps the angle small, so sin/cos stay accurate for large n.
  const bool upper = 2 * k > n;
  const double angle = 2.0 * M_PI * static_cast<double>(upper ? n - k : k) / static_cast<double>(n);
  const double im = (upper ? -1.0 : 1.0) * sign * std::sin(angle);
  return {static_cast<T>(std::cos(angle)), static_cast<T>(im)};
}

namespace {

// Radices in pass order: 4s first (fewest passes), then 2, 3, 5 and generic odd primes.
// Returns false when a prime factor exceeds kMaxGenericRadix (Bluestein then).
bool factorize(int64_t n, std::vector<int>& radices) {
  while (n % 4 == 0) {
    radices.push_back(4);
    n /= 4;
  }
  for (int p : {2, 3, 5}) {
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  }
  for (int p = 7; n > 1; p += 2) {
    if (p > kMaxGenericRadix) return false;
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  }
  return true;
}

template <typename T>
std::shared_ptr<const FftPlan<T>> build_plan(int64_t n) {
  auto plan = std::make_shared<FftPlan<T>>();
  plan->n = n;
  std::vector<int> radices;
  if (!factorize(n, radices)) {
    build_bluestein(*plan);
    return plan;
  }
  int64_t length = n;  // length of the sub-transforms the next pass splits
  for (int p : radices) {
    const int64_t m = length / p;
    Stage st{p, m, static_cast<int64_t>(plan->twiddles.size()),
             static_cast<int64_t>(plan->roots.size())};
    for (int64_t j = 0; j < m; ++j) {
      for (int t = 1; t < p; ++t) plan->twiddles.push_back(unit_root<T>(j * t, length, -1));
    }
    if (p > 5) {
      for (int r = 0; r < p; ++r) plan->roots.push_back(unit_root<T>(r, p, -1));
    }
    plan->stages.push_back(st);
    length = m;
  }
  return plan;
}

template <typename T>
std::shared_ptr<const RealPlan<T>> build_real_plan(int64_t n) {
  auto plan = std::make_shared<RealPlan<T>>();
  plan->half = get_plan<T>(n / 2);
  plan->twiddles.reserve(n / 2);
  for (int64_t k = 0; k < n / 2; ++k) plan->twiddles.push_back(unit_root<T>(k, n, -1));
  return plan;
}

// Plans are small next to the data they transform, but a long-running process may see many
// lengths: past this many the cache starts over.
constexpr size_t kMaxCachedPlans = 256;

template <typename P, typename Build>
std::shared_ptr<const P> cached(int64_t n, Build build) {
  static std::mutex mutex;
  static std::map<int64_t, std::shared_ptr<const P>> cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
  }
  // Built outside the lock: Bluestein plans ask the cache for their convolution plan.
  std::shared_ptr<const P> plan = build(n);
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= kMaxCachedPlans) cache.clear();
  return cache.emplace(n, plan).first->second;
}

}  // namespace

template <typename T>
std::shared_ptr<const FftPlan<T>> get_plan(int64_t n) {
  return cached<FftPlan<T>>(n, build_plan<T>);
}

template <typename T>
std::shared_ptr<const RealPlan<T>> get_real_plan(int64_t n) {
  return cached<RealPlan<T>>(n, build_real_plan<T>);
}

template Cpx<float> unit_root<float>(int64_t, int64_t, int);
template Cpx<double> unit_root<double>(int64_t, int64_t, int);
template std::shared_ptr<const FftPlan<float>> get_plan<float>(int64_t);
template std::shared_ptr<const FftPlan<double>> get_plan<double>(int64_t);
template std::shared_ptr<const RealPlan<float>> get_real_plan<float>(int64_t);
template std::shared_ptr<const RealPlan<double>> get_real_plan<double>(int64_t);

}  // namespace ember::fft
