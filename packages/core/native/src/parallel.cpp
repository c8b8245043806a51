// A small fork-join pool. Workers sleep on a condition variable between jobs; the calling thread
// always takes a share so a job never waits on a wake-up alone.
#include "ember/parallel.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "ember/blas.h"
#include "ember/errors.h"

namespace ember {
namespace {

thread_local bool t_in_parallel = false;

class ThreadPool {
 public:
  explicit ThreadPool(int n) : size_(n) {
    // NOTE: when the OS grants fewer threads than asked (set_num_threads(10**6)), unwinding
    // here would destroy wake_ under waiting workers (a hang): keep the workers made so far;
    // run() shares chunks among whoever is there.
    try {
      for (int i = 1; i < n; ++i) workers_.emplace_back([this] { worker_loop(); });
    } catch (const std::exception&) {
    }
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }

  void run(int64_t chunks, FunctionRef<void(int64_t)> task) {
    std::lock_guard<std::mutex> serialize(run_mutex_);  // one job at a time
    Job job{&task, chunks, {}, chunks, 0, nullptr};
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      ++generation_;
    }
    wake_.notify_all();
    work_on(job);
    // Workers join a job only under the lock while job_ points at it, so once none is active
    // and every chunk is done, no thread can touch `job` again.
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return job.pending == 0 && job.active == 0; });
    job_ = nullptr;
    if (job.error) std::rethrow_exception(job.error);
  }

 private:
  struct Job {
    FunctionRef<void(int64_t)>* task;
    int64_t chunks;
    std::atomic<int64_t> next{0};
    int64_t pending = chunks;  // guarded by mutex_
    int active = 0;            // workers inside this job, guarded by mutex_
    std::exception_ptr error;  // guarded by mutex_
  };

  void work_on(Job& job) {
    for (int64_t c; (c = job.next.fetch_add(1)) < job.chunks;) {
      std::exception_ptr error;
      t_in_parallel = true;
      try {
        (*job.task)(c);
      } catch (...) {
        error = std::current_exception();
      }
      t_in_parallel = false;
      std::lock_guard<std::mutex> lock(mutex_);
      if (error && !job.error) job.error = error;
      if (--job.pending == 0) done_.notify_all();
    }
  }

  void worker_loop() {
    uint64_t seen = 0;
    for (;;) {
      Job* job;
      // Ops come in bursts: spin briefly for the next job before sleeping, since a futex
      // wake-up costs tens of microseconds, a real share of a millisecond-long op.
      for (int spin = 0; spin < kSpinIterations; ++spin) {
        if (generation_.load(std::memory_order_acquire) != seen) break;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
        if (stopping_) return;
        seen = generation_.load();
        job = job_;
        if (!job) continue;
        ++job->active;
      }
      work_on(*job);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--job->active == 0) done_.notify_all();
    }
  }

  int size_;
  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stopping_ = false;
  std::atomic<uint64_t> generation_{0};
  // About 50 microseconds of pause instructions.
  static constexpr int kSpinIterations = 20000;
  Job* job_ = nullptr;
};

int default_threads() {
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

std::mutex g_pool_mutex;
ThreadPool* g_pool = nullptr;  // leaked on purpose: joining threads at exit can deadlock
int g_num_threads = 0;

void after_fork_in_child() {
  // The child has no worker threads: forget the pool (without joining) and rebuild lazily.
  g_pool = nullptr;
  new (&g_pool_mutex) std::mutex();
}

ThreadPool& pool() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  if (!g_pool) {
    static bool registered = [] {
      pthread_atfork(nullptr, nullptr, after_fork_in_child);
      return true;
    }();
    (void)registered;
    if (g_num_threads == 0) g_num_threads = default_threads();
    g_pool = new ThreadPool(g_num_threads);
  }
  return *g_pool;
}

}  // namespace

int get_num_threads() {
  std::lock_guard<std::mutex> lock(g_pool_mutex);
  if (g_num_threads == 0) g_num_threads = default_threads();
  return g_num_threads;
}

void set_num_threads(int n) {
  EMBER_CHECK(n >= 1, ValueError, "[set_num_threads] expected a positive thread count, got ", n);
  {
    std::lock_guard<std::mutex> lock(g_pool_mutex);
    if (n != g_num_threads) {
      delete g_pool;
      g_pool = nullptr;
      g_num_threads = n;
    }
  }
  blas_set_num_threads(n);
}

bool in_parallel_region() { return t_in_parallel; }

int64_t parallel_chunks(int64_t begin, int64_t end, int64_t grain) {
  const int64_t n = end - begin;
  if (n <= 0) return 0;
  const int64_t by_grain = std::max<int64_t>(1, n / std::max<int64_t>(grain, 1));
  const int64_t threads = in_parallel_region() ? 1 : get_num_threads();
  return std::min<int64_t>(threads, by_grain);
}

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  FunctionRef<void(int64_t, int64_t)> fn) {
  const int64_t chunks = parallel_chunks(begin, end, grain);
  if (chunks == 0) return;
  if (chunks == 1) {
    fn(begin, end);
    return;
  }
  const int64_t n = end - begin;
  auto task = [&](int64_t c) {
    const int64_t lo = begin + n * c / chunks;
    const int64_t hi = begin + n * (c + 1) / chunks;
    if (lo < hi) fn(lo, hi);
  };
  pool().run(chunks, task);
}

void parallel_tasks(int64_t n, FunctionRef<void(int64_t)> fn) {
  if (n <= 0) return;
  if (n == 1 || in_parallel_region() || get_num_threads() == 1) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  pool().run(n, fn);
}

}  // namespace ember
