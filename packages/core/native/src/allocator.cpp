// CPU caching allocator. Blocks of 64 KiB and more are kept on free lists when released, so the
// next tensor of a similar size reuses memory that is already faulted in (a fresh mmap costs a
// page fault per 4 KiB page, ~4x the time of the arithmetic for an elementwise op). glibc's
// malloc does not keep them: it serves them with mmap or trims its heap top on free, so a
// [1000, 64] float32 gradient cost 90 us of page faults per training step. Blocks of 1 MiB and
// more are mapped 2 MiB-aligned with MADV_HUGEPAGE. Smaller blocks go to malloc, which recycles
// them itself.
#include "ember/allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>

#include "ember/errors.h"

namespace ember {
namespace {

constexpr size_t kAlignment = 64;
constexpr size_t kCachedThreshold = size_t{64} << 10;
constexpr size_t kHugeThreshold = size_t{1} << 20;
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kMediumGranule = size_t{16} << 10;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

size_t default_cache_limit() {
  if (const char* env = std::getenv("EMBER_CPU_CACHE_LIMIT_MB")) {
    return static_cast<size_t>(std::strtoull(env, nullptr, 10)) << 20;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return size_t{1} << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 4;
}

class LargeBlockCache {
 public:
  void* allocate(size_t size) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // Best fit, wasting at most a quarter of the block.
      auto it = free_.lower_bound(size);
      if (it != free_.end() && it->first <= size + size / 4) {
        void* p = it->second.ptr;
        const size_t block = it->first;
        free_.erase(it);
        cached_ -= block;
        allocated_ += block;
        ++hits_;
        sizes_[p] = block;
        return p;
      }
      ++misses_;
    }
    void* p = map_block(size);
    if (!p) {
      release_all();  // the cache may be what keeps the memory: give it back and retry once
      p = map_block(size);
    }
    if (!p) return nullptr;
    std::lock_guard<std::mutex> lock(mutex_);
    allocated_ += size;
    sizes_[p] = size;
    return p;
  }

  void free(void* p) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = sizes_.find(p);
    const size_t block = it->second;
    sizes_.erase(it);
    allocated_ -= block;
    free_.emplace(block, Entry{p});
    cached_ += block;
    while (cached_ > limit_ && !free_.empty()) {
      auto largest = std::prev(free_.end());
      munmap(largest->second.ptr, largest->first);
      cached_ -= largest->first;
      free_.erase(largest);
    }
  }

  void release_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [size, entry] : free_) munmap(entry.ptr, size);
    free_.clear();
    cached_ = 0;
  }

  CpuCacheStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {cached_, allocated_, hits_, misses_};
  }

 private:
  struct Entry {
    void* ptr;
  };

  static void* map_block(size_t size) {
    if (size < kHugeThreshold) {
      void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      return p == MAP_FAILED ? nullptr : p;
    }
    const size_t span = size + kHugePage;
    void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const auto base = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = round_up(base, kHugePage);
    if (aligned > base) munmap(raw, aligned - base);
    const uintptr_t end = base + span, used_end = aligned + size;
    if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
    void* p = reinterpret_cast<void*>(aligned);
    madvise(p, size, MADV_HUGEPAGE);
    return p;
  }

  std::mutex mutex_;
  std::multimap<size_t, Entry> free_;
  std::map<void*, size_t> sizes_;
  size_t cached_ = 0, allocated_ = 0, hits_ = 0, misses_ = 0;
  size_t limit_ = default_cache_limit();
};

LargeBlockCache& large_blocks() {
  static auto* cache = new LargeBlockCache();  // leaked: tensors may outlive static destructors
  return *cache;
}

#ifdef EMBER_SANITIZE
// The sanitizer step's ceiling on one tensor (ci/sanitize.sh sets it): ASan reserves terabytes of
// shadow, so the fuzz drivers' RLIMIT_AS cannot bound a huge size there. ASan's own
// max_allocation_size_mb would also cap std containers, whose operator new then aborts with a
// report instead of throwing the std::bad_alloc that bindings/module.cpp turns into a typed error.
size_t sanitize_allocation_limit() {
  static const size_t limit = [] {
    const char* env = std::getenv("EMBER_SANITIZE_MAX_ALLOCATION_MB");
    return env ? static_cast<size_t>(std::strtoull(env, nullptr, 10)) << 20 : SIZE_MAX;
  }();
  return limit;
}
#endif

}  // namespace

void* cpu_allocate(size_t nbytes) {
  void* p = nullptr;
#ifdef EMBER_SANITIZE
  // Sanitizer builds: every block from malloc, exact size, never cached, so ASan puts redzones
  // around each tensor and sees a use after free.
  if (nbytes > sanitize_allocation_limit() ||
      posix_memalign(&p, kAlignment, nbytes == 0 ? 1 : nbytes) != 0)
    p = nullptr;
#else
  if (nbytes >= kCachedThreshold) {
    const size_t granule = nbytes >= kHugeThreshold ? kHugePage : kMediumGranule;
    p = large_blocks().allocate(round_up(nbytes, granule));
  } else {
    p = std::aligned_alloc(kAlignment, round_up(nbytes == 0 ? 1 : nbytes, kAlignment));
  }
#endif
  EMBER_CHECK(p != nullptr, RuntimeError,
              "[allocate] DefaultCPUAllocator: not enough memory: ", "you tried to allocate ",
              nbytes, " bytes");
  return p;
}

void cpu_free(void* ptr, size_t nbytes) {
  if (!ptr) return;
#ifdef EMBER_SANITIZE
  std::free(ptr);
#else
  if (nbytes >= kCachedThreshold) {
    large_blocks().free(ptr);
  } else {
    std::free(ptr);
  }
#endif
}

CpuCacheStats cpu_cache_stats() { return large_blocks().stats(); }

void cpu_empty_cache() { large_blocks().release_all(); }

}  // namespace ember
