// Refcounted memory shared by a tensor and all of its views.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

namespace ember {

class Storage {
 public:
  // Owns `nbytes` fresh bytes from the CPU allocator.
  static std::shared_ptr<Storage> allocate(size_t nbytes);
  // Wraps memory owned elsewhere (a NumPy array, a DLPack capsule); `release` frees it.
  static std::shared_ptr<Storage> wrap(void* data, size_t nbytes, std::function<void()> release,
                                       bool writable = true);

  Storage(void* data, size_t nbytes, std::function<void()> release, bool writable)
      : data_(data), nbytes_(nbytes), release_(std::move(release)), writable_(writable) {}
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  bool writable() const { return writable_; }
  // Bumped by every in-place write through any view; autograd compares it to detect misuse.
  int64_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }
  // Moves the bytes to `data` (same size, already holding a copy) and frees the old memory; every
  // view sees the new memory, the version is kept. share_memory_() uses it. Not thread-safe
  // against concurrent use of the same storage.
  void rebind(void* data, std::function<void()> release);

 private:
  void* data_;
  size_t nbytes_;
  std::function<void()> release_;
  bool writable_;
  std::atomic<int64_t> version_{0};
};

}  // namespace ember
