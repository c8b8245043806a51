// The native module ember_core._C, assembled from one init function per binding file.
#include <nanobind/stl/string.h>

#include "ember/allocator.h"
#include "ember/blas.h"
#include "ember/kernels.h"
#include "ember/parallel.h"
#include "ember/warnings.h"
#include "python_api.h"

NB_MODULE(_C, m) {
  using namespace ember;
  m.doc() = "ember's native core: strided tensors, the iteration engine and CPU kernels.";
  // Module-level singletons (dtype objects, the registered Tensor class) live until exit on
  // purpose; nanobind would report them as leaks.
  nb::set_leak_warnings(false);
  // Core warnings become Python UserWarnings; an error filter turns them into the exception.
  set_warning_handler([](const std::string& message) {
    if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0) throw nb::python_error();
  });

  // Python classes with two bases (see errors.h); handles live as long as the process.
  static PyObject* dual[6];
  const std::pair<const char*, std::pair<PyObject*, PyObject*>> duals[6] = {
      {"IndexRuntimeError", {PyExc_IndexError, PyExc_RuntimeError}},
      {"TypeRuntimeError", {PyExc_TypeError, PyExc_RuntimeError}},
      {"TypeNotImplementedError", {PyExc_TypeError, PyExc_NotImplementedError}},
      {"RuntimeValueError", {PyExc_RuntimeError, PyExc_ValueError}},
      {"TypeValueError", {PyExc_TypeError, PyExc_ValueError}},
      {"OverflowRuntimeError", {PyExc_OverflowError, PyExc_RuntimeError}}};
  for (int i = 0; i < 6; ++i) {
    const std::string name = std::string("ember_core._C.") + duals[i].first;
    dual[i] = PyErr_NewException(
        name.c_str(),
        nb::make_tuple(nb::handle(duals[i].second.first), nb::handle(duals[i].second.second)).ptr(),
        nullptr);
    if (dual[i] == nullptr) throw nb::python_error();
    m.attr(duals[i].first) = nb::handle(dual[i]);
  }
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const ember::IndexRuntimeError& e) {
      PyErr_SetString(dual[0], e.what());
    } catch (const ember::TypeRuntimeError& e) {
      PyErr_SetString(dual[1], e.what());
    } catch (const ember::TypeNotImplementedError& e) {
      PyErr_SetString(dual[2], e.what());
    } catch (const ember::RuntimeValueError& e) {
      PyErr_SetString(dual[3], e.what());
    } catch (const ember::TypeValueError& e) {
      PyErr_SetString(dual[4], e.what());
    } catch (const ember::OverflowRuntimeError& e) {
      PyErr_SetString(dual[5], e.what());
    } catch (const ember::IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const ember::ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const ember::TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ember::NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const ember::RuntimeError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const std::bad_alloc&) {
      // A std container's allocation (shape vectors, per-thread buffers) ran out of memory.
      PyErr_SetString(PyExc_RuntimeError, "DefaultCPUAllocator: not enough memory");
    } catch (const std::length_error&) {
      PyErr_SetString(PyExc_RuntimeError,
                      "DefaultCPUAllocator: not enough memory (a requested size exceeds the "
                      "largest allocation possible)");
    }
  });

  py::init_dtypes(m);
  py::TensorClass cls(m, "TensorBase", "The native half of ember.Tensor.",
                      nb::type_slots(py::tensor_buffer_slots));
  py::init_tensor_class(m, cls);
  py::init_grad_dispatch(m, cls);
  py::init_elementwise(m, cls);
  py::init_reduce(m, cls);
  py::init_sort(m, cls);
  py::init_shape(m, cls);
  py::init_rearrange(m, cls);
  py::init_indexing(m, cls);
  py::init_index_ops(m, cls);
  py::init_factory(m);
  py::init_linalg(m, cls);
  py::init_numpy(m, cls);
  py::init_composite(m, cls);
  py::init_construct(m, cls);
  py::init_pairwise(m, cls);
  py::init_index_scatter(m, cls);
  py::init_select(m, cls);
  py::init_samplers(m, cls);
  py::init_interop(m, cls);
  py::init_linalg_lapack(m);
  py::init_cuda(m);
  py::init_fft(m);
  py::init_complex(m, cls);
  py::init_shared_memory(m, cls);
  py::init_conv(m);
  py::init_linear(m);
  py::init_dropout(m);
  py::init_optim(m);
  py::init_norm(m);
  py::init_loss(m);
  py::init_rnn(m);
  py::init_attention(m);

  m.def("get_num_threads", &get_num_threads);
  m.def("set_num_threads", &set_num_threads, nb::arg("num"));
  m.def("_set_blas_library_path", &set_blas_library_path, nb::arg("path"));
  m.def("_blas_available", &blas_available);
  m.def("_cpu_capability", &cpu_capability);
  m.def("_cpu_cache_stats", [] {
    const CpuCacheStats s = cpu_cache_stats();
    nb::dict d;
    d["cached_bytes"] = s.cached_bytes;
    d["allocated_bytes"] = s.allocated_bytes;
    d["hits"] = s.hits;
    d["misses"] = s.misses;
    return d;
  });
  m.def("_cpu_empty_cache", &cpu_empty_cache);

  // Last: wraps every function and method defined above (see grad_dispatch.cpp).
  py::install_grad_dispatch(m, cls);
}
