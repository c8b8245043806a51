// Shared-memory storage for ember.multiprocessing: Tensor.share_memory_/is_shared and the
// private handle export/rebuild its pickling reductions call (the work is in
// src/shared_memory.cpp).
#include "ember/shared_memory.h"

#include "python_api.h"

namespace ember::py {
namespace {

ShmStrategy strategy_from(const std::string& s) {
  if (s == "file_descriptor") return ShmStrategy::FileDescriptor;
  if (s == "file_system") return ShmStrategy::FileSystem;
  throw ValueError(str("[set_sharing_strategy] unknown sharing strategy '", s,
                       "'; expected 'file_descriptor' or 'file_system'"));
}

const char* strategy_name(ShmStrategy s) {
  return s == ShmStrategy::FileDescriptor ? "file_descriptor" : "file_system";
}

constexpr const char* share_memory_doc =
    R"doc(Moves the tensor's storage to shared memory, in place.

The values are kept and every view of the storage sees the move. A no-op when the storage is
already shared. Tensors sent to other processes through ember.multiprocessing are moved this way
and rebuilt there as views of the same memory.

Returns:
    Tensor: self.

Example:
    >>> t = ember.zeros(3).share_memory_()
    >>> t.is_shared()
    True
)doc";

constexpr const char* is_shared_doc = R"doc(Whether the tensor's storage is in shared memory.

Example:
    >>> ember.zeros(3).is_shared()
    False
)doc";

}  // namespace

void init_shared_memory(nb::module_& m, TensorClass& cls) {
  cls.def(
      "share_memory_",
      [](nb::handle self) -> nb::object {
        shm_share_(unwrap(self));
        return nb::borrow(self);
      },
      share_memory_doc);
  cls.def(
      "is_shared", [](const Tensor& self) { return shm_is_shared(self.storage().get()); },
      is_shared_doc);

  m.def(
      "_shm_set_strategy", [](const std::string& s) { set_shm_strategy(strategy_from(s)); },
      nb::arg("strategy"));
  m.def("_shm_get_strategy", [] { return std::string(strategy_name(shm_strategy())); });
  m.def("_shm_set_tracker_fd", &set_shm_tracker_fd, nb::arg("fd"));
  // (strategy, name, fd, nbytes) of a shared tensor's storage; fd is -1 for file_system.
  m.def(
      "_shm_export",
      [](nb::handle t) {
        const ShmHandle h = shm_export(tensor_argument(t, "_shm_export").storage().get());
        return nb::make_tuple(strategy_name(h.strategy), h.name, h.fd, h.nbytes);
      },
      nb::arg("tensor"));
  m.def(
      "_shm_rebuild",
      [](const std::string& strategy, const std::string& name, int fd, size_t nbytes,
         int64_t offset, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
         nb::handle dtype) {
        const ScalarType dt = to_dtype_arg(dtype, "_shm_rebuild");
        auto impl = std::make_shared<TensorImpl>();
        impl->storage = shm_import(strategy_from(strategy), name, fd, nbytes);
        impl->sizes = sizes;
        impl->strides = strides;
        impl->offset = offset;
        impl->dtype = dt;
        return wrap(Tensor(std::move(impl)));
      },
      nb::arg("strategy"), nb::arg("name"), nb::arg("fd"), nb::arg("nbytes"), nb::arg("offset"),
      nb::arg("sizes"), nb::arg("strides"), nb::arg("dtype"));
  // A contiguous uninitialized tensor allocated directly in shared memory (collate in workers).
  m.def(
      "_empty_shared",
      [](const std::vector<int64_t>& sizes, nb::handle dtype) {
        const ScalarType dt = to_dtype_arg(dtype, "_empty_shared");
        const int64_t numel = checked_numel(sizes, "_empty_shared");
        auto impl = std::make_shared<TensorImpl>();
        impl->storage = shm_allocate(static_cast<size_t>(numel * element_size(dt)));
        impl->sizes = sizes;
        impl->strides = contiguous_strides(sizes);
        impl->dtype = dt;
        return wrap(Tensor(std::move(impl)));
      },
      nb::arg("sizes"), nb::arg("dtype"));
  m.def("_shm_release_all", &shm_release_all);
  m.def("_shm_live_names", &shm_live_names);
}

}  // namespace ember::py
