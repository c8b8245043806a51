// ember's own thread pool: fork-join parallel loops over index ranges.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace ember {

// Below this many elements an elementwise loop runs on the calling thread: waking the pool costs
// more than the work.
constexpr int64_t kParallelGrain = 32768;

int get_num_threads();
// Sets the pool size (and OpenBLAS's thread count, see blas.h). Raises ValueError if n < 1.
void set_num_threads(int n);
// True while running inside a parallel region; nested parallel_for calls then run serially.
bool in_parallel_region();

// A non-owning reference to a callable, cheaper than std::function on hot paths.
template <typename Sig>
class FunctionRef;
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit by design
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

// Splits [begin, end) into at most get_num_threads() contiguous chunks of at least `grain`
// elements and runs fn(chunk_begin, chunk_end) on each, the caller taking the first chunk.
// The chunking depends only on the range, grain and thread count. Exceptions propagate.
void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  FunctionRef<void(int64_t, int64_t)> fn);

// Runs fn(0) ... fn(n - 1) on the pool, each task claimed by whichever thread is free, so a
// worker that the OS deschedules does not hold up the others (coarse tasks such as GEMM tiles).
void parallel_tasks(int64_t n, FunctionRef<void(int64_t)> fn);

// Number of chunks parallel_for would use for this range (for per-thread partial results).
int64_t parallel_chunks(int64_t begin, int64_t end, int64_t grain);

}  // namespace ember
