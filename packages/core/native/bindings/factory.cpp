// Creation ops (ember.zeros, ember.arange, ...), random sampling and ember.Generator.
// Argument parsing only: the ops live in src/ops_factory.cpp and src/random.cpp.
#include <nanobind/stl/array.h>

#include <cmath>
#include <string>

#include "factory_docs.h"
#include "python_api.h"

namespace ember::py {
namespace {

// Every argument accepts None, so that the converters below (not nanobind) report bad values
// with the op's name.
auto arg(const char* name) { return nb::arg(name).none(); }

}  // namespace

void check_device(const char* op, nb::handle device) {
  if (device.is_none()) return;
  const std::string name = nb::str(device).c_str();
  if (name == "cpu" || name == "cpu:0") return;
  EMBER_CHECK(name.rfind("cuda", 0) != 0, RuntimeError, "[", op, "] device '", name,
              "': CUDA tensors are not yet supported in this release of ember (no variant has "
              "them yet; ember.cuda only reports devices)");
  throw RuntimeError(str("[", op, "] device '", name,
                         "' is not available: ember tensors live on "
                         "the CPU only in this release"));
}

// The one place creation ops check device= and requires_grad= (ember.autograd intercepts
// requires_grad=True before the call gets here).
void check_creation_options(const char* op, nb::handle device, nb::handle requires_grad) {
  check_device(op, device);
  EMBER_CHECK(PyBool_Check(requires_grad.ptr()), TypeError, "[", op,
              "] argument 'requires_grad' must be a bool, not ",
              nb::type_name(requires_grad.type()).c_str());
  EMBER_CHECK(requires_grad.ptr() == Py_False, RuntimeError, "[", op,
              "] requires_grad=True needs the ember-autograd distribution "
              "(pip install ember-autograd)");
}

namespace {

// A Tensor argument (no Python numbers), checked here so the error names the op.
const Tensor& tensor_arg(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(is_tensor(h), TypeError, "[", op, "] argument '", arg, "' must be a Tensor, not ",
              nb::type_name(h.type()).c_str());
  return unwrap(h);
}

}  // namespace

Generator* to_generator(nb::handle h, const char* op) {
  if (h.is_none()) return nullptr;
  EMBER_CHECK(nb::isinstance<Generator>(h), TypeError, "[", op,
              "] argument 'generator' must be an ember.Generator, not ",
              nb::type_name(h.type()).c_str());
  return nb::inst_ptr<Generator>(h);
}

namespace {

// A Python number (or one-element tensor) and what kind it is, for dtype inference.
enum class NumberKind { Bool, Int, Float };
struct Number {
  Scalar value;
  NumberKind kind;
};

Number to_number(nb::handle h, const char* op, const char* arg) {
  PyObject* o = h.ptr();
  if (is_tensor(h)) {
    const Tensor& t = unwrap(h);
    EMBER_CHECK(t.numel() == 1, RuntimeError, "[", op, "] argument '", arg,
                "' must be a number or a one-element tensor, got a tensor of shape ", t.sizes());
    if (is_floating(t.dtype())) return {Scalar::from_double(item_double(t, op)), NumberKind::Float};
    const NumberKind kind = t.dtype() == ScalarType::Bool ? NumberKind::Bool : NumberKind::Int;
    const int64_t v = item_int(t, op);
    if (t.dtype() == ScalarType::UInt64 && v < 0) return {Scalar::from_uint64(v), kind};
    return {Scalar::from_int(v), kind};
  }
  if (PyBool_Check(o)) return {Scalar::from_int(o == Py_True), NumberKind::Bool};
  if (PyFloat_Check(o)) return {Scalar::from_double(PyFloat_AsDouble(o)), NumberKind::Float};
  if (const auto v = python_int(h, op, arg)) return {v->scalar(), NumberKind::Int};
  if (!PyComplex_Check(o) && has_float_slot(h) && !nb::hasattr(h, "__len__")) {
    const double v = PyFloat_AsDouble(o);
    if (!(v == -1.0 && PyErr_Occurred())) return {Scalar::from_double(v), NumberKind::Float};
    PyErr_Clear();
  }
  throw TypeError(str("[", op, "] argument '", arg, "' must be a real number, not ",
                      nb::type_name(h.type()).c_str()));
}

double to_double_arg(nb::handle h, const char* op, const char* arg) {
  return to_number(h, op, arg).value.to_double();
}

int64_t to_int_arg(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(!PyBool_Check(h.ptr()) && !PyFloat_Check(h.ptr()) &&
                  (PyIndex_Check(h.ptr()) || (is_tensor(h) && !is_floating(unwrap(h).dtype()))),
              TypeError, "[", op, "] argument '", arg, "' must be an int, not ",
              nb::type_name(h.type()).c_str());
  const Scalar v = to_number(h, op, arg).value;
  // ValueError like torch's "Overflow when unpacking long long", RuntimeError as ember's was.
  EMBER_CHECK(!v.is_uint64, RuntimeValueError, "[", op, "] the integer ", nb::str(h).c_str(),
              " given for '", arg, "' does not fit in int64");
  return v.i;
}

// A size given as one sequence (full, empty_strided, randint's size): ints are refused.
Shape to_size_sequence(nb::handle h, const char* op, const char* arg) {
  EMBER_CHECK(!PyIndex_Check(h.ptr()), TypeError, "[", op, "] argument '", arg,
              "' must be a tuple of ints, not ", nb::type_name(h.type()).c_str());
  return to_int_list(h, op, arg);
}

// Sizes given as *size varargs or one sequence; at least one argument as in torch.
Shape varargs_size(const nb::args& args, const char* op) {
  EMBER_CHECK(args.size() > 0, TypeError, "[", op, "] missing required argument 'size'");
  return sizes_from_args(args, op);
}

// dtype for an op with out=: out's dtype unless dtype= says otherwise (then they must agree).
ScalarType resolve_dtype(nb::handle dtype, const Tensor& out, ScalarType fallback, const char* op) {
  const std::optional<ScalarType> given = to_optional_dtype(dtype, op);
  if (out.defined()) {
    EMBER_CHECK(!given || *given == out.dtype(), RuntimeError, "[", op, "] dtype ",
                dtype_name(*given), " does not match dtype of out parameter (",
                dtype_name(out.dtype()), ")");
    return out.dtype();
  }
  return given.value_or(fallback);
}

// Copies `result` into out= (resized when its shape differs) or returns it as a new tensor.
nb::object finish(const Tensor& result, nb::handle out_h, const Tensor& out) {
  if (!out.defined()) return wrap(result);
  write_out(result, out, "factory");  // out's dtype was resolved by resolve_dtype
  return nb::borrow(out_h);
}

uint64_t to_seed(nb::handle h, const char* op) {
  EMBER_CHECK(PyIndex_Check(h.ptr()) || PyFloat_Check(h.ptr()) || is_tensor(h), TypeError, "[", op,
              "] seed must be an int, not ", nb::type_name(h.type()).c_str());
  EMBER_CHECK(!PyFloat_Check(h.ptr()) || std::isfinite(PyFloat_AsDouble(h.ptr())), ValueError, "[",
              op, "] seed must be a finite number, got ", nb::str(h).c_str());
  nb::object v = nb::steal(PyNumber_Long(h.ptr()));
  if (!v.is_valid()) throw nb::python_error();
  const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
  if (!PyErr_Occurred()) return u;
  PyErr_Clear();
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  EMBER_CHECK(overflow == 0, ValueError, "[", op, "] seed must be in [-2**63, 2**64), got ",
              nb::str(h).c_str());
  return static_cast<uint64_t>(s);  // negative seeds wrap like torch's
}

// Adds `f` as a method of ember.TensorBase (the class is created by init_tensor_class).
template <typename Func, typename... Extra>
void def_method(const char* name, Func&& f, const Extra&... extra) {
  nb::cpp_function_def<Tensor>(std::forward<Func>(f), nb::scope(nb::type<Tensor>()), nb::name(name),
                               nb::is_method(), extra...);
}

using SizeFill = Tensor (*)(const Shape&, ScalarType);

void def_size_fill(nb::module_& m, const char* name, SizeFill fn, const char* doc) {
  m.def(
      name,
      [fn, name](nb::args size, nb::handle out_h, nb::handle dtype, nb::handle device,
                 nb::handle requires_grad) {
        check_creation_options(name, device, requires_grad);
        const Tensor out = out_argument(out_h, name);
        return finish(
            fn(varargs_size(size, name), resolve_dtype(dtype, out, default_dtype(), name)), out_h,
            out);
      },
      nb::arg("size"), arg("out") = nb::none(), arg("dtype") = nb::none(),
      arg("device") = nb::none(), arg("requires_grad") = false, doc);
}

Tensor empty_fn(const Shape& size, ScalarType dtype) { return empty(size, dtype); }

// zeros_like, ones_like, empty_like: `value` empty means uninitialized.
void def_like(nb::module_& m, const char* name, std::optional<int64_t> value, const char* doc) {
  m.def(
      name,
      [name, value](nb::handle input_h, nb::handle dtype, nb::handle device,
                    nb::handle requires_grad) {
        const Tensor& input = tensor_arg(input_h, name, "input");
        check_creation_options(name, device, requires_grad);
        const ScalarType dt = to_optional_dtype(dtype, name).value_or(input.dtype());
        Tensor out = empty_like(input, dt, name);
        if (value) fill_dense_(out, Scalar::from_int(*value), name);
        return wrap(out);
      },
      arg("input"), nb::kw_only(), arg("dtype") = nb::none(), arg("device") = nb::none(),
      arg("requires_grad") = false, doc);
}

void init_creation(nb::module_& m) {
  def_size_fill(m, "empty", &empty_fn, docs::empty);
  def_size_fill(m, "zeros", &zeros, docs::zeros);
  def_size_fill(m, "ones", &ones, docs::ones);
  def_like(m, "empty_like", std::nullopt, docs::empty_like);
  def_like(m, "zeros_like", 0, docs::zeros_like);
  def_like(m, "ones_like", 1, docs::ones_like);

  m.def(
      "full",
      [](nb::handle size, nb::handle fill_value, nb::handle out_h, nb::handle dtype,
         nb::handle device, nb::handle requires_grad) {
        check_creation_options("full", device, requires_grad);
        if (PyComplex_Check(fill_value.ptr())) {  // a complex fill: the default complex dtype
          const Tensor value = to_tensor(fill_value, "full", "fill_value");
          const Tensor out = out_argument(out_h, "full");
          const ScalarType dt = resolve_dtype(dtype, out, default_complex_dtype(), "full");
          EMBER_CHECK(is_complex(dt), TypeError,
                      "[full] a complex fill_value needs a complex dtype, "
                      "got ",
                      dtype_name(dt));
          const Tensor result = empty(to_size_sequence(size, "full", "size"), dt, "full");
          copy_(result, value);
          return finish(result, out_h, out);
        }
        const Number v = to_number(fill_value, "full", "fill_value");
        const ScalarType inferred = v.kind == NumberKind::Bool  ? ScalarType::Bool
                                    : v.kind == NumberKind::Int ? ScalarType::Int64
                                                                : default_dtype();
        const Tensor out = out_argument(out_h, "full");
        const ScalarType dt = resolve_dtype(dtype, out, inferred, "full");
        return finish(full_scalar(to_size_sequence(size, "full", "size"), v.value, dt, "full"),
                      out_h, out);
      },
      arg("size"), arg("fill_value"), nb::kw_only(), arg("out") = nb::none(),
      arg("dtype") = nb::none(), arg("device") = nb::none(), arg("requires_grad") = false,
      docs::full);

  m.def(
      "full_like",
      [](nb::handle input_h, nb::handle fill_value, nb::handle dtype, nb::handle device,
         nb::handle requires_grad) {
        const Tensor& input = tensor_arg(input_h, "full_like", "input");
        check_creation_options("full_like", device, requires_grad);
        const Number v = to_number(fill_value, "full_like", "fill_value");
        const ScalarType dt = to_optional_dtype(dtype, "full_like").value_or(input.dtype());
        check_value_fits(v.value, dt, "full_like");
        Tensor out = empty_like(input, dt, "full_like");
        fill_dense_(out, v.value, "full_like");
        return wrap(out);
      },
      arg("input"), arg("fill_value"), nb::kw_only(), arg("dtype") = nb::none(),
      arg("device") = nb::none(), arg("requires_grad") = false, docs::full_like);

  m.def(
      "empty_strided",
      [](nb::handle size, nb::handle stride, nb::handle dtype, nb::handle device,
         nb::handle requires_grad) {
        check_creation_options("empty_strided", device, requires_grad);
        return wrap(
            empty_strided(to_size_sequence(size, "empty_strided", "size"),
                          to_size_sequence(stride, "empty_strided", "stride"),
                          to_optional_dtype(dtype, "empty_strided").value_or(default_dtype())));
      },
      arg("size"), arg("stride"), nb::kw_only(), arg("dtype") = nb::none(),
      arg("device") = nb::none(), arg("requires_grad") = false, docs::empty_strided);

  m.def(
      "arange",
      [](nb::handle start_h, nb::handle end_h, nb::handle step_h, nb::handle out_h,
         nb::handle dtype, nb::handle device, nb::handle requires_grad) {
        check_creation_options("arange", device, requires_grad);
        // arange(end), arange(end=...) or arange(start, end, step): one number alone is the end.
        EMBER_CHECK(!start_h.is_none() || !end_h.is_none(), TypeError,
                    "[arange] missing required argument 'end'");
        const bool end_only = start_h.is_none() || end_h.is_none();
        const Number start = end_only ? Number{Scalar::from_int(0), NumberKind::Int}
                                      : to_number(start_h, "arange", "start");
        const Number end = to_number(end_h.is_none() ? start_h : end_h, "arange", "end");
        const Number step = to_number(step_h, "arange", "step");
        const bool all_int = start.kind != NumberKind::Float && end.kind != NumberKind::Float &&
                             step.kind != NumberKind::Float;
        const Tensor out = out_argument(out_h, "arange");
        const ScalarType dt =
            resolve_dtype(dtype, out, all_int ? ScalarType::Int64 : default_dtype(), "arange");
        return finish(arange(start.value, end.value, step.value, dt), out_h, out);
      },
      arg("start") = nb::none(), arg("end") = nb::none(), arg("step") = 1, nb::kw_only(),
      arg("out") = nb::none(), arg("dtype") = nb::none(), arg("device") = nb::none(),
      arg("requires_grad") = false, docs::arange);

  m.def(
      "linspace",
      [](nb::handle start, nb::handle end, nb::handle steps, nb::handle out_h, nb::handle dtype,
         nb::handle device, nb::handle requires_grad) {
        check_creation_options("linspace", device, requires_grad);
        const Tensor out = out_argument(out_h, "linspace");
        const ScalarType dt = resolve_dtype(dtype, out, default_dtype(), "linspace");
        return finish(linspace(to_double_arg(start, "linspace", "start"),
                               to_double_arg(end, "linspace", "end"),
                               to_int_arg(steps, "linspace", "steps"), dt),
                      out_h, out);
      },
      arg("start"), arg("end"), arg("steps"), nb::kw_only(), arg("out") = nb::none(),
      arg("dtype") = nb::none(), arg("device") = nb::none(), arg("requires_grad") = false,
      docs::linspace);

  m.def(
      "logspace",
      [](nb::handle start, nb::handle end, nb::handle steps, nb::handle base, nb::handle out_h,
         nb::handle dtype, nb::handle device, nb::handle requires_grad) {
        check_creation_options("logspace", device, requires_grad);
        const Tensor out = out_argument(out_h, "logspace");
        const ScalarType dt = resolve_dtype(dtype, out, default_dtype(), "logspace");
        return finish(
            logspace(to_double_arg(start, "logspace", "start"),
                     to_double_arg(end, "logspace", "end"), to_int_arg(steps, "logspace", "steps"),
                     to_double_arg(base, "logspace", "base"), dt),
            out_h, out);
      },
      arg("start"), arg("end"), arg("steps"), arg("base") = 10.0, nb::kw_only(),
      arg("out") = nb::none(), arg("dtype") = nb::none(), arg("device") = nb::none(),
      arg("requires_grad") = false, docs::logspace);

  m.def(
      "eye",
      [](nb::handle n, nb::handle m_h, nb::handle out_h, nb::handle dtype, nb::handle device,
         nb::handle requires_grad) {
        check_creation_options("eye", device, requires_grad);
        const int64_t rows = to_int_arg(n, "eye", "n");
        const int64_t cols = m_h.is_none() ? rows : to_int_arg(m_h, "eye", "m");
        const Tensor out = out_argument(out_h, "eye");
        return finish(eye(rows, cols, resolve_dtype(dtype, out, default_dtype(), "eye")), out_h,
                      out);
      },
      arg("n"), arg("m") = nb::none(), nb::kw_only(), arg("out") = nb::none(),
      arg("dtype") = nb::none(), arg("device") = nb::none(), arg("requires_grad") = false,
      docs::eye);
}

}  // namespace

void init_random(nb::module_& m);

void init_factory(nb::module_& m) {
  init_creation(m);
  init_random(m);
}

// ---- random sampling ----
namespace {

using RandomFill = const Tensor& (*)(const Tensor&, double, double, Generator*, const char*);

// rand/randn(*size, generator=None, out=None, dtype=None, device=None, requires_grad=False).
void def_rand(nb::module_& m, const char* name, RandomFill fill, double a, double b,
              const char* doc) {
  m.def(
      name,
      [=](nb::args size, nb::handle generator, nb::handle out_h, nb::handle dtype,
          nb::handle device, nb::handle requires_grad) {
        check_creation_options(name, device, requires_grad);
        const Tensor out = out_argument(out_h, name);
        Tensor result =
            empty(varargs_size(size, name), resolve_dtype(dtype, out, default_dtype(), name), name);
        fill(result, a, b, to_generator(generator, name), name);
        return finish(result, out_h, out);
      },
      nb::arg("size"), arg("generator") = nb::none(), arg("out") = nb::none(),
      arg("dtype") = nb::none(), arg("device") = nb::none(), arg("requires_grad") = false, doc);
}

void def_rand_like(nb::module_& m, const char* name, RandomFill fill, double a, double b,
                   const char* doc) {
  m.def(
      name,
      [=](nb::handle input_h, nb::handle generator, nb::handle dtype, nb::handle device,
          nb::handle requires_grad) {
        const Tensor& input = tensor_arg(input_h, name, "input");
        check_creation_options(name, device, requires_grad);
        Tensor result =
            empty_like(input, to_optional_dtype(dtype, name).value_or(input.dtype()), name);
        fill(result, a, b, to_generator(generator, name), name);
        return wrap(result);
      },
      arg("input"), nb::kw_only(), arg("generator") = nb::none(), arg("dtype") = nb::none(),
      arg("device") = nb::none(), arg("requires_grad") = false, doc);
}

// A Tensor method that fills self in place and returns it.
template <typename Fill, typename ArgA, typename ArgB>
void def_fill_method(const char* name, Fill fill, const ArgA& a, const ArgB& b, const char* doc) {
  def_method(
      name,
      [name, fill](nb::handle self, nb::handle x, nb::handle y, nb::handle generator) {
        fill(unwrap(self), x, y, to_generator(generator, name));
        return nb::borrow(self);
      },
      a, b, nb::kw_only(), arg("generator") = nb::none(), doc);
}

void init_generator(nb::module_& m) {
  nb::class_<Generator>(m, "Generator",
                        "A Philox4x32-10 random stream: a seed and a counter (torch.Generator).")
      .def(
          "__init__",
          [](Generator* self, nb::handle device) {
            check_device("Generator", device);
            new (self) Generator();
          },
          arg("device") = "cpu")
      .def(
          "manual_seed",
          [](nb::handle self, nb::handle seed) {
            nb::inst_ptr<Generator>(self)->manual_seed(to_seed(seed, "manual_seed"));
            return nb::borrow(self);
          },
          arg("seed"), nb::sig("def manual_seed(self, seed: int) -> Generator"))
      .def("seed", &Generator::seed_randomly)
      .def("initial_seed", &Generator::initial_seed)
      .def("get_state", [](Generator& g) { return wrap(g.get_state()); })
      .def(
          "set_state",
          [](nb::handle self, nb::handle state) {
            EMBER_CHECK(is_tensor(state), TypeError,
                        "[set_state] RNG state must be an ember uint8 "
                        "tensor, not ",
                        nb::type_name(state.type()).c_str());
            nb::inst_ptr<Generator>(self)->set_state(unwrap(state));
            return nb::borrow(self);
          },
          arg("new_state"), nb::sig("def set_state(self, new_state: object) -> Generator"))
      .def_prop_ro("device", [](Generator&) { return "cpu"; });

  nb::object default_gen = nb::cast(&default_generator(), nb::rv_policy::reference);
  m.attr("default_generator") = default_gen;
  m.def(
      "manual_seed",
      [default_gen](nb::handle seed) {
        default_generator().manual_seed(to_seed(seed, "manual_seed"));
        return default_gen;
      },
      arg("seed"), docs::manual_seed);
  m.def("seed", [] { return default_generator().seed_randomly(); }, docs::seed);
  m.def("initial_seed", [] { return default_generator().initial_seed(); }, docs::initial_seed);
  m.def("get_rng_state", [] { return wrap(default_generator().get_state()); }, docs::get_rng_state);
  m.def(
      "set_rng_state",
      [](nb::handle state) {
        EMBER_CHECK(is_tensor(state), TypeError,
                    "[set_rng_state] RNG state must be an ember uint8 "
                    "tensor, not ",
                    nb::type_name(state.type()).c_str());
        default_generator().set_state(unwrap(state));
      },
      arg("new_state"), docs::set_rng_state);
  // Known-answer tests of the raw generator.
  m.def("_philox4x32_10", &philox4x32_10, nb::arg("counter"), nb::arg("key"));
}

const Tensor& normal_fill(const Tensor& t, double mean, double std, Generator* gen,
                          const char* op) {
  return normal_(t, mean, std, gen, op);
}
const Tensor& uniform_fill(const Tensor& t, double from, double to, Generator* gen,
                           const char* op) {
  return uniform_(t, from, to, gen, op);
}

}  // namespace

void init_random(nb::module_& m) {
  init_generator(m);
  def_rand(m, "rand", &uniform_fill, 0.0, 1.0, docs::rand);
  def_rand(m, "randn", &normal_fill, 0.0, 1.0, docs::randn);
  def_rand_like(m, "rand_like", &uniform_fill, 0.0, 1.0, docs::rand_like);
  def_rand_like(m, "randn_like", &normal_fill, 0.0, 1.0, docs::randn_like);

  // randint(high, size) or randint(low, high, size); low/high/size may also be keywords.
  m.def(
      "randint",
      [](nb::args args, nb::handle low_h, nb::handle high_h, nb::handle size_h,
         nb::handle generator, nb::handle out_h, nb::handle dtype, nb::handle device,
         nb::handle requires_grad) {
        check_creation_options("randint", device, requires_grad);
        std::vector<nb::handle> given;
        for (nb::handle a : args) given.push_back(a);
        for (nb::handle kw : {low_h, high_h, size_h}) {
          if (!kw.is_none()) given.push_back(kw);
        }
        EMBER_CHECK(given.size() == 3 || (given.size() == 2 && low_h.is_none()), TypeError,
                    "[randint] expected (high, size) or (low, high, size), got ", args.size(),
                    " positional arguments");
        const bool has_low = given.size() == 3;
        const int64_t low = has_low ? to_int_arg(given[0], "randint", "low") : 0;
        const int64_t high = to_int_arg(given[has_low ? 1 : 0], "randint", "high");
        const Shape size = to_size_sequence(given.back(), "randint", "size");
        const Tensor out = out_argument(out_h, "randint");
        const ScalarType dt = resolve_dtype(dtype, out, ScalarType::Int64, "randint");
        return finish(randint(low, high, size, dt, to_generator(generator, "randint")), out_h, out);
      },
      nb::arg("args"), arg("low") = nb::none(), arg("high") = nb::none(), arg("size") = nb::none(),
      arg("generator") = nb::none(), arg("out") = nb::none(), arg("dtype") = nb::none(),
      arg("device") = nb::none(), arg("requires_grad") = false, docs::randint);

  m.def(
      "randint_like",
      [](nb::handle input_h, nb::handle low_h, nb::handle high_h, nb::handle generator,
         nb::handle dtype, nb::handle device, nb::handle requires_grad) {
        const Tensor& input = tensor_arg(input_h, "randint_like", "input");
        check_creation_options("randint_like", device, requires_grad);
        // randint_like(input, high) or randint_like(input, low, high).
        const int64_t low = high_h.is_none() ? 0 : to_int_arg(low_h, "randint_like", "low");
        const int64_t high = to_int_arg(high_h.is_none() ? low_h : high_h, "randint_like", "high");
        const ScalarType dt = to_optional_dtype(dtype, "randint_like").value_or(input.dtype());
        Tensor result = empty_like(input, dt, "randint_like");
        random_int_(result, low, high, to_generator(generator, "randint_like"), "randint_like");
        return wrap(result);
      },
      arg("input"), arg("low"), arg("high") = nb::none(), nb::kw_only(),
      arg("generator") = nb::none(), arg("dtype") = nb::none(), arg("device") = nb::none(),
      arg("requires_grad") = false, docs::randint_like);

  m.def(
      "randperm",
      [](nb::handle n, nb::handle generator, nb::handle out_h, nb::handle dtype, nb::handle device,
         nb::handle requires_grad) {
        check_creation_options("randperm", device, requires_grad);
        const Tensor out = out_argument(out_h, "randperm");
        const ScalarType dt = resolve_dtype(dtype, out, ScalarType::Int64, "randperm");
        return finish(
            randperm(to_int_arg(n, "randperm", "n"), dt, to_generator(generator, "randperm")),
            out_h, out);
      },
      arg("n"), nb::kw_only(), arg("generator") = nb::none(), arg("out") = nb::none(),
      arg("dtype") = nb::none(), arg("device") = nb::none(), arg("requires_grad") = false,
      docs::randperm);

  m.def(
      "normal",
      [](nb::handle mean, nb::handle std, nb::handle size, nb::handle generator, nb::handle out_h,
         nb::handle dtype, nb::handle device, nb::handle requires_grad) {
        check_creation_options("normal", device, requires_grad);
        Generator* gen = to_generator(generator, "normal");
        const Tensor out = out_argument(out_h, "normal");
        if (!is_tensor(mean) && !is_tensor(std)) {
          EMBER_CHECK(!size.is_none(), TypeError,
                      "[normal] with a float mean and std, the 'size' argument is required");
          Tensor result = empty(to_size_sequence(size, "normal", "size"),
                                resolve_dtype(dtype, out, default_dtype(), "normal"), "normal");
          normal_(result, to_double_arg(mean, "normal", "mean"),
                  to_double_arg(std, "normal", "std"), gen, "normal");
          return finish(result, out_h, out);
        }
        EMBER_CHECK(size.is_none() && dtype.is_none(), TypeError,
                    "[normal] 'size' and 'dtype' are only accepted when mean and std are numbers");
        return finish(
            normal_tensor(to_tensor(mean, "normal", "mean"), to_tensor(std, "normal", "std"), gen),
            out_h, out);
      },
      arg("mean"), arg("std") = 1.0, arg("size") = nb::none(), nb::kw_only(),
      arg("generator") = nb::none(), arg("out") = nb::none(), arg("dtype") = nb::none(),
      arg("device") = nb::none(), arg("requires_grad") = false, docs::normal);

  m.def(
      "bernoulli",
      [](nb::handle input_h, nb::handle p, nb::handle generator, nb::handle out_h) {
        const Tensor& input = tensor_arg(input_h, "bernoulli", "input");
        Generator* gen = to_generator(generator, "bernoulli");
        const Tensor out = out_argument(out_h, "bernoulli");
        if (p.is_none()) return finish(bernoulli(input, gen), out_h, out);
        Tensor result = empty_like(input, input.dtype(), "bernoulli");
        bernoulli_(result, to_double_arg(p, "bernoulli", "p"), gen);
        return finish(result, out_h, out);
      },
      arg("input"), arg("p") = nb::none(), nb::kw_only(), arg("generator") = nb::none(),
      arg("out") = nb::none(), docs::bernoulli);

  // In-place samplers on Tensor.
  def_fill_method(
      "uniform_",
      [](const Tensor& t, nb::handle a, nb::handle b, Generator* g) {
        uniform_(t, to_double_arg(a, "uniform_", "from"), to_double_arg(b, "uniform_", "to"), g);
      },
      arg("from") = 0.0, arg("to") = 1.0, docs::uniform_);
  def_fill_method(
      "normal_",
      [](const Tensor& t, nb::handle a, nb::handle b, Generator* g) {
        normal_(t, to_double_arg(a, "normal_", "mean"), to_double_arg(b, "normal_", "std"), g);
      },
      arg("mean") = 0.0, arg("std") = 1.0, docs::normal_);
  // random_(), random_(to), random_(from, to) and random_(from, None): the ellipsis default
  // tells "to not given" apart from "to=None" (up to the dtype's largest value).
  def_fill_method(
      "random_",
      [](const Tensor& t, nb::handle a, nb::handle b, Generator* g) {
        if (b.is(Py_Ellipsis)) {
          if (a.is_none()) {
            random_(t, 0, std::nullopt, g);
          } else {
            random_(t, 0, to_int_arg(a, "random_", "to"), g);
          }
          return;
        }
        const int64_t from = a.is_none() ? 0 : to_int_arg(a, "random_", "from");
        random_(t, from, b.is_none() ? std::nullopt : std::optional(to_int_arg(b, "random_", "to")),
                g);
      },
      arg("from") = nb::none(), arg("to") = nb::ellipsis(), docs::random_);
  def_method(
      "bernoulli_",
      [](nb::handle self, nb::handle p, nb::handle generator) {
        Generator* gen = to_generator(generator, "bernoulli_");
        if (is_tensor(p)) {
          bernoulli_tensor_(unwrap(self), unwrap(p), gen);
        } else {
          bernoulli_(unwrap(self), to_double_arg(p, "bernoulli_", "p"), gen);
        }
        return nb::borrow(self);
      },
      arg("p") = 0.5, nb::kw_only(), arg("generator") = nb::none(), docs::bernoulli_);
  def_method(
      "exponential_",
      [](nb::handle self, nb::handle lambd, nb::handle generator) {
        exponential_(unwrap(self), to_double_arg(lambd, "exponential_", "lambd"),
                     to_generator(generator, "exponential_"));
        return nb::borrow(self);
      },
      arg("lambd") = 1.0, nb::kw_only(), arg("generator") = nb::none(), docs::exponential_);
  def_method(
      "bernoulli",
      [](const Tensor& self, nb::handle generator) {
        return wrap(bernoulli(self, to_generator(generator, "bernoulli")));
      },
      nb::kw_only(), arg("generator") = nb::none(), docs::bernoulli_method);
}

}  // namespace ember::py
