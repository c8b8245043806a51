#include "ember/storage.h"

#include "ember/allocator.h"

namespace ember {

std::shared_ptr<Storage> Storage::allocate(size_t nbytes) {
  void* data = cpu_allocate(nbytes);
  return std::make_shared<Storage>(data, nbytes, [data, nbytes] { cpu_free(data, nbytes); }, true);
}

std::shared_ptr<Storage> Storage::wrap(void* data, size_t nbytes, std::function<void()> release,
                                       bool writable) {
  return std::make_shared<Storage>(data, nbytes, std::move(release), writable);
}

Storage::~Storage() {
  if (release_) release_();
}

void Storage::rebind(void* data, std::function<void()> release) {
  if (release_) release_();
  data_ = data;
  release_ = std::move(release);
}

}  // namespace ember
