// CPU memory for tensors. Large blocks come from a caching allocator: freed blocks are kept and
// reused, so a fresh output does not pay the kernel's page faults again (see docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember {

// Returns memory aligned to at least 64 bytes. Throws RuntimeError when out of memory.
void* cpu_allocate(size_t nbytes);
void cpu_free(void* ptr, size_t nbytes);

struct CpuCacheStats {
  size_t cached_bytes;     // held in free lists, ready for reuse
  size_t allocated_bytes;  // live blocks handed out by the cache
  size_t hits;
  size_t misses;
};
CpuCacheStats cpu_cache_stats();
// Returns every cached free block to the operating system.
void cpu_empty_cache();

}  // namespace ember
