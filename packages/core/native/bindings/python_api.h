// What every binding file shares: turning Python objects into Tensors and back, dtype objects,
// and defining one function as both `ember.name(input, ...)` and `Tensor.name(...)`.
// Bindings never compute: they convert arguments and call the op API (ember/ops.h).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <vector>

#include "ember/errors.h"
#include "ember/ops.h"
#include "ember/tensor.h"

namespace nb = nanobind;

namespace ember::py {

using TensorClass = nb::class_<Tensor>;

// The Python class every op returns (ember.Tensor, a subclass of TensorBase) once registered.
void set_tensor_class(nb::handle cls);
nb::object wrap(Tensor t);
nb::object wrap_pair(std::pair<Tensor, Tensor> p);  // a plain tuple (values, indices)
nb::object wrap_list(const std::vector<Tensor>& ts, bool as_tuple = true);

bool is_tensor(nb::handle h);
const Tensor& unwrap(nb::handle h);
// A tensor argument named `arg` of `op`; Python bool/int/float become wrapped 0-d numbers.
Tensor to_tensor(nb::handle h, const char* op, const char* arg = "input");
// Same but None gives an undefined tensor (optional arguments and out=).
Tensor to_optional_tensor(nb::handle h, const char* op, const char* arg);
// Whether h is a Python number (bool, int or float, not a tensor).
bool is_python_scalar(nb::handle h);
// h as an int64 through Python's index protocol; nullopt when h refuses it (numpy arrays and
// non-integer tensors pass PyIndex_Check but raise in __index__). Sets *overflow past int64.
std::optional<int64_t> index_value(nb::handle h, bool* overflow);
// A Python int as torch's Scalar holds it: int64, or for [2**63, 2**64) a uint64 (`bits` is its
// bit pattern).
struct PythonInt {
  int64_t bits = 0;
  bool is_uint64 = false;
  Scalar scalar() const { return is_uint64 ? Scalar::from_uint64(bits) : Scalar::from_int(bits); }
};
// h (an int or an __index__ object such as a numpy int) as a PythonInt; nullopt when h refuses
// the index protocol. Ints outside [-2**63, 2**64) raise OverflowRuntimeError naming op and arg.
std::optional<PythonInt> python_int(nb::handle h, const char* op, const char* arg);
// Whether h's type converts to float (checked on the type: the class `int` has a __float__
// attribute too, but calling float(int) fails).
bool has_float_slot(nb::handle h);

// dtype objects: ember.float32 etc. are the singletons of the `dtype` class.
struct DType {
  ScalarType type;
};
nb::object dtype_object(ScalarType t);
// Accepts ember dtypes and the Python types bool/int/float (as torch does).
ScalarType to_dtype_arg(nb::handle h, const char* op);
std::optional<ScalarType> to_optional_dtype(nb::handle h, const char* op);

// An int or a sequence of ints (dims, sizes); `op` names the caller in errors.
std::vector<int64_t> to_int_list(nb::handle h, const char* op, const char* arg);
// `*size` varargs or one sequence: zeros(2, 3) == zeros((2, 3)).
std::vector<int64_t> sizes_from_args(const nb::args& args, const char* op);
// None -> all dims, int -> {d}, sequence -> dims.
std::vector<int64_t> to_dims(nb::handle h, const char* op);

// Creation ops' device= (only the CPU) and requires_grad= (True is honoured by ember.autograd,
// which intercepts the call first; reaching here with True means autograd is not installed).
void check_device(const char* op, nb::handle device);
void check_creation_options(const char* op, nb::handle device, nb::handle requires_grad);

// Strict argument parsers shared by the newer binding files: one int (not bool, float or a
// sequence), an optional int (None -> nullopt), a tensor (never a number), and out= (None or a
// tensor). Errors are TypeErrors naming `op` and `arg`.
int64_t int_argument(nb::handle h, const char* op, const char* arg);
std::optional<int64_t> optional_int_argument(nb::handle h, const char* op, const char* arg);
const Tensor& tensor_argument(nb::handle h, const char* op, const char* arg = "input");
Tensor out_argument(nb::handle out, const char* op);

// The generator= argument: None gives nullptr (the default generator).
Generator* to_generator(nb::handle h, const char* op);

// Returns `out` itself when given (so `ember.add(a, b, out=c) is c`), else the new tensor.
nb::object result_or_out(Tensor result, nb::handle out);

void init_dtypes(nb::module_& m);
void init_tensor_class(nb::module_& m, TensorClass& cls);
void init_elementwise(nb::module_& m, TensorClass& cls);
void init_reduce(nb::module_& m, TensorClass& cls);
void init_reduce_dim(nb::module_& m, TensorClass& cls);
void init_sort(nb::module_& m, TensorClass& cls);
void init_shape(nb::module_& m, TensorClass& cls);
void init_rearrange(nb::module_& m, TensorClass& cls);
void init_indexing(nb::module_& m, TensorClass& cls);
void init_index_ops(nb::module_& m, TensorClass& cls);
void init_factory(nb::module_& m);
void init_linalg(nb::module_& m, TensorClass& cls);
void init_numpy(nb::module_& m, TensorClass& cls);
void init_composite(nb::module_& m, TensorClass& cls);
void init_construct(nb::module_& m, TensorClass& cls);
void init_pairwise(nb::module_& m, TensorClass& cls);
void init_index_scatter(nb::module_& m, TensorClass& cls);
void init_select(nb::module_& m, TensorClass& cls);
void init_samplers(nb::module_& m, TensorClass& cls);
void init_interop(nb::module_& m, TensorClass& cls);
void init_linalg_lapack(nb::module_& m);
void init_optim(nb::module_& m);
void init_cuda(nb::module_& m);
void init_fft(nb::module_& m);
void init_complex(nb::module_& m, TensorClass& cls);
void init_shared_memory(nb::module_& m, TensorClass& cls);
void init_conv(nb::module_& m);
void init_linear(nb::module_& m);
void init_dropout(nb::module_& m);
void init_norm(nb::module_& m);
void init_loss(nb::module_& m);
void init_rnn(nb::module_& m);
void init_attention(nb::module_& m);
// The buffer protocol of TensorBase (interop.cpp), installed when the class is created.
extern PyType_Slot tensor_buffer_slots[];
// The autograd hook: grad mode, requires_grad/_autograd_meta on TensorBase, and (run last, once
// every op is defined) the wrapping of every function and method in a grad dispatcher.
void init_grad_dispatch(nb::module_& m, TensorClass& cls);
void install_grad_dispatch(nb::module_& m, TensorClass& cls);

}  // namespace ember::py
