// Shared-memory storage (see ember/shared_memory.h). A registry maps each shared Storage to its
// segment; the Storage's release function unmaps it (and, for file_system, drops one reference
// of the segment's cross-process count, unlinking the name at zero).
#include "ember/shared_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <random>

#include "ember/errors.h"

namespace ember {
namespace {

// file_system segments start with this header: the number of references (mappings in live
// processes plus handles in flight). 64 bytes keep the data cache-line aligned.
constexpr size_t kHeader = 64;

struct Segment {
  ShmStrategy strategy;
  std::string name;
  int fd = -1;  // file_descriptor: kept open so the segment can be sent again
  size_t nbytes = 0;
  void* base = nullptr;  // the mapping (header included)
  size_t length = 0;
  pid_t pid = 0;          // the process that counted this mapping (forked children did not)
  bool released = false;  // shm_release_all already dropped this mapping's reference
  const Storage* owner = nullptr;

  void* data() const { return static_cast<char*>(base) + header(); }
  size_t header() const { return strategy == ShmStrategy::FileSystem ? kHeader : 0; }
  std::atomic<int32_t>* refcount() const { return static_cast<std::atomic<int32_t>*>(base); }
};

std::mutex g_mutex;
std::map<const Storage*, std::shared_ptr<Segment>> g_segments;
std::map<std::string, std::weak_ptr<Storage>> g_by_name;
std::atomic<ShmStrategy> g_strategy{ShmStrategy::FileDescriptor};
std::atomic<int> g_tracker_fd{-1};

void tracker_message(const char* cmd, const std::string& name) {
  const int fd = g_tracker_fd.load();
  if (fd < 0) return;
  const std::string msg = std::string(cmd) + ":" + name + ":shared_memory\n";
  ssize_t ignored = write(fd, msg.data(), msg.size());  // best effort: the tracker may be gone
  (void)ignored;
}

std::string random_name() {
  static std::mt19937_64 rng{std::random_device{}() ^ static_cast<uint64_t>(getpid())};
  char buf[64];
  snprintf(buf, sizeof buf, "/ember_%d_%016llx", static_cast<int>(getpid()),
           static_cast<unsigned long long>(rng()));
  return buf;
}

// The test hook: EMBER_SHM_LIMIT_BYTES pretends /dev/shm holds only that many bytes.
bool exceeds_test_limit(size_t length) {
  const char* env = std::getenv("EMBER_SHM_LIMIT_BYTES");
  return env && *env && length > static_cast<size_t>(std::strtoull(env, nullptr, 10));
}

[[noreturn]] void throw_no_space(size_t nbytes, int err) {
  std::string free_text;
  struct statvfs vfs;
  if (statvfs("/dev/shm", &vfs) == 0) {
    const double free_mib = static_cast<double>(vfs.f_bavail) * vfs.f_frsize / (1 << 20);
    const double total_mib = static_cast<double>(vfs.f_blocks) * vfs.f_frsize / (1 << 20);
    free_text = str(" (", static_cast<int64_t>(free_mib), " MiB free of ",
                    static_cast<int64_t>(total_mib), " MiB)");
  }
  throw RuntimeError(str(
      "[share_memory_] could not allocate ", nbytes, " bytes (",
      static_cast<int64_t>(static_cast<double>(nbytes) / (1 << 20)), " MiB) of shared memory in ",
      "/dev/shm", free_text, ": ", std::strerror(err),
      ". /dev/shm is too small for this tensor: free space there, or under Docker run the ",
      "container with --ipc=host or a larger --shm-size (e.g. --shm-size=8g); with a DataLoader, ",
      "fewer workers or a smaller batch_size also need less"));
}

// Opens a new, empty segment file. file_descriptor segments never get a name in /dev/shm: an
// O_TMPFILE file on that tmpfs counts against its size like a named one, but a process killed
// at any instant (even while fallocate reserves the pages) leaves nothing behind. Where the
// kernel lacks O_TMPFILE the name lives only between two consecutive system calls.
int open_segment_file(const std::string& name, ShmStrategy strategy) {
  if (strategy == ShmStrategy::FileDescriptor) {
    const int fd = open("/dev/shm", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    const int fallback = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fallback >= 0) shm_unlink(name.c_str());
    return fallback;
  }
  return shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
}

// Creates, sizes and maps a new segment of the current strategy.
std::shared_ptr<Segment> create_segment(size_t nbytes) {
  auto seg = std::make_shared<Segment>();
  seg->strategy = g_strategy.load();
  seg->nbytes = nbytes;
  seg->length = seg->header() + (nbytes == 0 ? 1 : nbytes);
  seg->pid = getpid();
  int fd = -1;
  for (int attempt = 0; attempt < 16 && fd < 0; ++attempt) {
    seg->name = random_name();
    fd = open_segment_file(seg->name, seg->strategy);
    if (fd < 0 && errno != EEXIST) break;
  }
  EMBER_CHECK(fd >= 0, RuntimeError, "[share_memory_] shm_open(", seg->name,
              ") failed: ", std::strerror(errno));
  // Reserve the pages now: a sparse segment larger than /dev/shm would SIGBUS on first touch.
  int err = exceeds_test_limit(seg->length)
                ? ENOSPC
                : posix_fallocate(fd, 0, static_cast<off_t>(seg->length));
  if (err == EOPNOTSUPP || err == EINVAL) err = 0;  // file systems without fallocate
  if (err == 0 && ftruncate(fd, static_cast<off_t>(seg->length)) != 0) err = errno;
  if (err != 0) {
    close(fd);
    shm_unlink(seg->name.c_str());
    if (err == ENOSPC || err == EFBIG || err == ENOMEM) throw_no_space(nbytes, err);
    throw RuntimeError(str("[share_memory_] sizing shared memory segment ", seg->name, " to ",
                           seg->length, " bytes failed: ", std::strerror(err)));
  }
  void* base = mmap(nullptr, seg->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    const int e = errno;
    close(fd);
    shm_unlink(seg->name.c_str());
    throw RuntimeError(str("[share_memory_] mmap of ", seg->length,
                           " bytes of shared memory failed: ", std::strerror(e)));
  }
  seg->base = base;
  if (seg->strategy == ShmStrategy::FileDescriptor) {
    seg->fd = fd;  // only open descriptors keep it alive
  } else {
    close(fd);
    new (base) std::atomic<int32_t>(1);
    tracker_message("REGISTER", seg->name);
  }
  return seg;
}

// Drops one reference of a file_system segment; unlinks its name at zero.
void drop_reference(const Segment& seg) {
  if (seg.refcount()->fetch_sub(1) == 1) {
    shm_unlink(seg.name.c_str());
    tracker_message("UNREGISTER", seg.name);
  }
}

std::function<void()> release_for(std::shared_ptr<Segment> seg) {
  return [seg] {
    bool drop;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      g_segments.erase(seg->owner);
      auto it = g_by_name.find(seg->name);
      if (it != g_by_name.end() && it->second.expired()) g_by_name.erase(it);
      drop = seg->strategy == ShmStrategy::FileSystem && !seg->released && seg->pid == getpid();
    }
    if (drop) drop_reference(*seg);
    munmap(seg->base, seg->length);
    if (seg->fd >= 0) close(seg->fd);
  };
}

std::shared_ptr<Storage> register_storage(const std::shared_ptr<Segment>& seg, bool writable) {
  auto storage = std::make_shared<Storage>(seg->data(), seg->nbytes, release_for(seg), writable);
  seg->owner = storage.get();
  std::lock_guard<std::mutex> lock(g_mutex);
  g_segments[storage.get()] = seg;
  g_by_name[seg->name] = storage;
  return storage;
}

}  // namespace

void set_shm_strategy(ShmStrategy s) { g_strategy.store(s); }
ShmStrategy shm_strategy() { return g_strategy.load(); }
void set_shm_tracker_fd(int fd) { g_tracker_fd.store(fd); }

std::shared_ptr<Storage> shm_allocate(size_t nbytes) {
  return register_storage(create_segment(nbytes), true);
}

bool shm_is_shared(const Storage* storage) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_segments.count(storage) != 0;
}

void shm_share_(const Tensor& t) {
  Storage* storage = t.storage().get();
  if (shm_is_shared(storage)) return;
  auto seg = create_segment(storage->nbytes());
  if (storage->nbytes() > 0) std::memcpy(seg->data(), storage->data(), storage->nbytes());
  // Every TensorImpl (every view) holds this Storage: rebinding it moves them all at once.
  storage->rebind(seg->data(), release_for(seg));
  seg->owner = storage;
  std::lock_guard<std::mutex> lock(g_mutex);
  g_segments[storage] = seg;
  g_by_name[seg->name] = t.storage();
}

ShmHandle shm_export(const Storage* storage) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_segments.find(storage);
  EMBER_CHECK(it != g_segments.end(), RuntimeError,
              "[share_memory_] the storage is not in shared memory: call share_memory_() first");
  const Segment& seg = *it->second;
  if (seg.strategy == ShmStrategy::FileSystem) seg.refcount()->fetch_add(1);
  return {seg.strategy, seg.name, seg.fd, seg.nbytes};
}

std::shared_ptr<Storage> shm_import(ShmStrategy strategy, const std::string& name, int fd,
                                    size_t nbytes) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_by_name.find(name);
    if (it != g_by_name.end()) {
      if (auto existing = it->second.lock()) {
        const Segment& seg = *g_segments.at(existing.get());
        if (strategy == ShmStrategy::FileSystem) {
          seg.refcount()->fetch_sub(1);  // the handle's reference: our mapping holds one already
        } else if (fd >= 0) {
          close(fd);
        }
        return existing;
      }
    }
  }
  auto seg = std::make_shared<Segment>();
  seg->strategy = strategy;
  seg->name = name;
  seg->nbytes = nbytes;
  seg->length = seg->header() + (nbytes == 0 ? 1 : nbytes);
  seg->pid = getpid();
  if (strategy == ShmStrategy::FileSystem) {
    fd = shm_open(name.c_str(), O_RDWR, 0);
    EMBER_CHECK(fd >= 0, RuntimeError, "[rebuild_storage] cannot open shared memory segment ", name,
                ": ", std::strerror(errno),
                " (the sending process may have exited and released it)");
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || static_cast<size_t>(st.st_size) < seg->length) {
    close(fd);
    throw RuntimeError(str("[rebuild_storage] shared memory segment ", name,
                           " is smaller than the ", seg->length, " bytes expected"));
  }
  void* base = mmap(nullptr, seg->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    const int e = errno;
    close(fd);
    throw RuntimeError(str("[rebuild_storage] mmap of shared memory segment ", name,
                           " failed: ", std::strerror(e)));
  }
  seg->base = base;
  if (strategy == ShmStrategy::FileSystem) {
    close(fd);  // the mapping keeps the pages; the handle's reference is now this mapping's
  } else {
    seg->fd = fd;
  }
  return register_storage(seg, true);
}

void shm_release_all() {
  std::vector<std::shared_ptr<Segment>> to_drop;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (auto& [storage, seg] : g_segments) {
      if (seg->strategy == ShmStrategy::FileSystem && !seg->released && seg->pid == getpid()) {
        seg->released = true;
        to_drop.push_back(seg);
      }
    }
  }
  for (const auto& seg : to_drop) drop_reference(*seg);
}

std::vector<std::string> shm_live_names() {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::vector<std::string> names;
  for (auto& [storage, seg] : g_segments) names.push_back(seg->name);
  return names;
}

}  // namespace ember
