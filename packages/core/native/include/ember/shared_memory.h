// Tensor storage in POSIX shared memory, for sending tensors between processes without a copy
// (ember.multiprocessing). Two strategies, as torch's: `file_descriptor` unlinks the segment as
// soon as it is mapped (nothing can leak; the fd travels over a Unix socket) and `file_system`
// keeps a name that receivers open, with a cross-process refcount in a header of the segment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ember/storage.h"
#include "ember/tensor.h"

namespace ember {

enum class ShmStrategy { FileDescriptor, FileSystem };

void set_shm_strategy(ShmStrategy s);
ShmStrategy shm_strategy();
// The multiprocessing resource tracker's pipe (-1: none): file_system segments are registered
// there on creation and unregistered on unlink, so the tracker reclaims them if every process
// that maps one is killed.
void set_shm_tracker_fd(int fd);

// A fresh storage of `nbytes` in a new segment of the current strategy. Raises RuntimeError
// naming the size and the fix when /dev/shm cannot hold it (never a later SIGBUS).
std::shared_ptr<Storage> shm_allocate(size_t nbytes);

// What a receiver needs to map a shared storage again.
struct ShmHandle {
  ShmStrategy strategy;
  std::string name;  // the key receivers cache storages by (also the path for file_system)
  int fd;            // file_descriptor only: the segment's open descriptor (owned by storage)
  size_t nbytes;
};

// Whether `storage` lives in a segment mapped by this module.
bool shm_is_shared(const Storage* storage);
// Moves t's storage into shared memory in place (every view sees it), keeping the values and
// the version counter. No-op when it is already shared.
void shm_share_(const Tensor& t);
// The handle of a shared storage. For file_system it counts one more reference in flight,
// which the receiver takes over (or drops when it already maps the segment).
ShmHandle shm_export(const Storage* storage);
// The storage for a handle received from another process: the one already mapped here when
// its name is known (views stay views of one storage), else a new mapping. Takes ownership of
// `fd` (file_descriptor): kept by the new storage or closed.
std::shared_ptr<Storage> shm_import(ShmStrategy strategy, const std::string& name, int fd,
                                    size_t nbytes);
// At exit: drops this process's references to file_system segments (unlinking those no other
// process holds), so segments whose tensors Python never freed are not left in /dev/shm.
void shm_release_all();
// Names of the segments mapped by this process (for tests and diagnostics).
std::vector<std::string> shm_live_names();

}  // namespace ember
