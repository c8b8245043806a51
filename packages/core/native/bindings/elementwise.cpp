// ember.<op>(input, ..., out=None), Tensor.<op>(...), Tensor.<op>_(...) and the operators for
// every elementwise op. The ops bound straight to a kernel are listed by the registry
// (generated/elementwise_bindings.inc); the others (add's alpha, div's rounding_mode, clamp,
// round, nan_to_num, lerp, where, isclose) are bound by hand below.
#include <deque>
#include <string>
#include <string_view>

#include "generated/elementwise_bindings.inc"
#include "python_api.h"

namespace ember::py {
namespace {

// torch.where converts a Python int operand to an integral result dtype with its overflow check
// (300 into uint8, 2**63 into int64), where arithmetic ops wrap it; floating results take it
// unchecked.
void check_where_ints(nb::handle input_h, const Tensor& input, nb::handle other_h,
                      const Tensor& other) {
  if (is_tensor(input_h) && is_tensor(other_h)) return;  // the common case: nothing to check
  const ScalarType dtype = result_type({input, other});
  if (!is_integral(dtype, false)) return;
  for (const auto& [h, arg] : {std::pair{input_h, "input"}, std::pair{other_h, "other"}}) {
    if (is_tensor(h) || PyBool_Check(h.ptr())) continue;
    if (const auto v = python_int(h, "where", arg)) check_value_fits(v->scalar(), dtype, "where");
  }
}

// nanobind keeps pointers to names: give the generated "name_" strings a stable home.
const char* stable_name(const std::string& name) {
  static std::deque<std::string> names;
  return names.emplace_back(name).c_str();
}

// out= must be a tensor: to_optional_tensor alone would wrap `out=3` as a throwaway scalar.
Tensor out_arg(nb::handle out, const char* op) {
  EMBER_CHECK(out.is_none() || is_tensor(out), TypeError, "[", op,
              "] argument 'out' must be a Tensor, not ", nb::type_name(out.type()).c_str());
  return out_argument(out, op);
}

// sign and sgn share UnaryOp::Sign, whose complex kernel is sgn's z / |z|; torch.sign refuses.
const Tensor& check_sign(const char* name, const Tensor& x) {
  EMBER_CHECK(!is_complex(x.dtype()) || std::string_view(name) != "sign", NotImplementedError,
              "[sign] Unlike NumPy, ember.sign is not intended to support complex numbers "
              "(got ",
              dtype_name(x.dtype()), "). Please use ember.sgn instead.");
  return x;
}

void def_unary(nb::module_& m, TensorClass& cls, const char* name, UnaryOp op, bool method,
               bool in_place) {
  m.def(
      name,
      [op, name](nb::handle input, nb::handle out) {
        return result_or_out(
            unary(op, check_sign(name, to_tensor(input, name)), out_arg(out, name)), out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none());
  if (method) {
    cls.def(name,
            [op, name](const Tensor& self) { return wrap(unary(op, check_sign(name, self))); });
  }
  if (in_place) {
    cls.def(stable_name(std::string(name) + "_"), [op, name](nb::handle self) {
      unary(op, check_sign(name, unwrap(self)), {}, {}, true);
      return nb::borrow(self);
    });
  }
}

void def_predicate(nb::module_& m, TensorClass& cls, const char* name, PredicateOp op, bool method,
                   bool in_place) {
  m.def(
      name,
      [op, name](nb::handle input, nb::handle out) {
        return result_or_out(predicate(op, to_tensor(input, name), out_arg(out, name)), out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("out") = nb::none());
  if (method) cls.def(name, [op](const Tensor& self) { return wrap(predicate(op, self)); });
  if (in_place) {  // the bool result is cast back into self's dtype (logical_not_)
    cls.def(stable_name(std::string(name) + "_"), [op](nb::handle self) {
      const Tensor& t = unwrap(self);
      copy_(t, predicate(op, t));
      return nb::borrow(self);
    });
  }
}

void def_binary(nb::module_& m, TensorClass& cls, const char* name, BinaryOp op, bool method,
                bool in_place) {
  m.def(
      name,
      [op, name](nb::handle input, nb::handle other, nb::handle out) {
        return result_or_out(
            binary(op, to_tensor(input, name), to_tensor(other, name, "other"), out_arg(out, name)),
            out);
      },
      nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
  if (method) {
    cls.def(
        name,
        [op, name](const Tensor& self, nb::handle other) {
          return wrap(binary(op, self, to_tensor(other, name, "other")));
        },
        nb::arg("other"));
  }
  if (!in_place) return;
  cls.def(
      stable_name(std::string(name) + "_"),
      [op, name](nb::handle self, nb::handle other) {
        binary(op, unwrap(self), to_tensor(other, name, "other"), {}, {}, true);
        return nb::borrow(self);
      },
      nb::arg("other"));
}

void def_compare(nb::module_& m, TensorClass& cls, const char* name, CompareOp op, bool method,
                 bool in_place) {
  m.def(
      name,
      [op, name](nb::handle input, nb::handle other, nb::handle out) {
        return result_or_out(compare(op, to_tensor(input, name), to_tensor(other, name, "other"),
                                     out_arg(out, name)),
                             out);
      },
      nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("out") = nb::none());
  if (method) {
    cls.def(
        name,
        [op, name](const Tensor& self, nb::handle other) {
          return wrap(compare(op, self, to_tensor(other, name, "other")));
        },
        nb::arg("other"));
  }
  if (!in_place) return;
  cls.def(
      stable_name(std::string(name) + "_"),
      [op, name](nb::handle self, nb::handle other) {
        compare(op, unwrap(self), to_tensor(other, name, "other"), {}, true);
        return nb::borrow(self);
      },
      nb::arg("other"));
}

// NumPy scalars (np.float32(2), np.int64(3)) are numbers too; sequences and arrays are not.
bool is_number_like(nb::handle h) {
  if (nb::hasattr(h, "__len__")) return false;
  return PyIndex_Check(h.ptr()) || has_float_slot(h);
}

// Operators: a non-number, non-tensor operand gives NotImplemented so Python can try the other
// side (and `t == None` is False rather than an error).
template <typename F>
void def_operator(TensorClass& cls, const char* dunder, F f) {
  cls.def(
      dunder,
      [f, dunder](nb::handle self, nb::handle other) -> nb::object {
        if (!is_tensor(other) && !is_python_scalar(other) && !is_number_like(other)) {
          return nb::borrow(Py_NotImplemented);
        }
        return f(self, to_tensor(other, dunder, "other"));
      },
      nb::arg("other").none());  // without .none() nanobind rejects `t == None` itself
}

template <typename F>
void def_arith_operators(TensorClass& cls, const char* fwd, const char* rev, const char* inplace,
                         F op) {
  def_operator(cls, fwd, [op](nb::handle self, const Tensor& other) {
    return wrap(op(unwrap(self), other, Tensor(), false));
  });
  def_operator(cls, rev, [op](nb::handle self, const Tensor& other) {
    return wrap(op(other, unwrap(self), Tensor(), false));
  });
  def_operator(cls, inplace, [op](nb::handle self, const Tensor& other) {
    op(unwrap(self), other, Tensor(), true);
    return nb::borrow(self);
  });
}

const Tensor& one() {
  static const Tensor value = Tensor::scalar_int(1, ScalarType::Int64, true);
  return value;
}

}  // namespace

void init_elementwise(nb::module_& m, TensorClass& cls) {
  // Every op the registry binds straight to its kernel (generated/elementwise_bindings.inc).
#define UNARY(name, op, method, in_place) def_unary(m, cls, name, UnaryOp::op, method, in_place);
#define BINARY(name, op, method, in_place) def_binary(m, cls, name, BinaryOp::op, method, in_place);
#define COMPARE(name, op, method, in_place) \
  def_compare(m, cls, name, CompareOp::op, method, in_place);
#define PREDICATE(name, op, method, in_place) \
  def_predicate(m, cls, name, PredicateOp::op, method, in_place);
  EMBER_UNARY_BINDINGS(UNARY)
  EMBER_BINARY_BINDINGS(BINARY)
  EMBER_COMPARE_BINDINGS(COMPARE)
  EMBER_PREDICATE_BINDINGS(PREDICATE)
#undef UNARY
#undef BINARY
#undef COMPARE
#undef PREDICATE

  // add/sub with alpha, div with rounding_mode.
  for (const bool is_add : {true, false}) {
    const char* name = is_add ? "add" : "sub";
    auto op = is_add ? &add : &sub;
    m.def(
        name,
        [op, name](nb::handle input, nb::handle other, nb::handle alpha, nb::handle out) {
          return result_or_out(op(to_tensor(input, name), to_tensor(other, name, "other"),
                                  to_tensor(alpha, name, "alpha"), out_arg(out, name), false),
                               out);
        },
        nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1,
        nb::arg("out") = nb::none());
    cls.def(
        name,
        [op, name](const Tensor& self, nb::handle other, nb::handle alpha) {
          return wrap(op(self, to_tensor(other, name, "other"), to_tensor(alpha, name, "alpha"), {},
                         false));
        },
        nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1);
    cls.def(
        is_add ? "add_" : "sub_",
        [op, name](nb::handle self, nb::handle other, nb::handle alpha) {
          op(unwrap(self), to_tensor(other, name, "other"), to_tensor(alpha, name, "alpha"), {},
             true);
          return nb::borrow(self);
        },
        nb::arg("other"), nb::kw_only(), nb::arg("alpha") = 1);
  }
  m.attr("subtract") = m.attr("sub");
  for (const char* name : {"div", "divide"}) {
    m.def(
        name,
        [](nb::handle input, nb::handle other, std::optional<std::string> mode, nb::handle out) {
          return result_or_out(div(to_tensor(input, "div"), to_tensor(other, "div", "other"),
                                   mode.value_or(""), out_arg(out, "div")),
                               out);
        },
        nb::arg("input"), nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode") = nb::none(),
        nb::arg("out") = nb::none());
    cls.def(
        name,
        [](const Tensor& self, nb::handle other, std::optional<std::string> mode) {
          return wrap(div(self, to_tensor(other, "div", "other"), mode.value_or("")));
        },
        nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode") = nb::none());
    cls.def(
        stable_name(std::string(name) + "_"),
        [](nb::handle self, nb::handle other, std::optional<std::string> mode) {
          div(unwrap(self), to_tensor(other, "div", "other"), mode.value_or(""), {}, true);
          return nb::borrow(self);
        },
        nb::arg("other"), nb::kw_only(), nb::arg("rounding_mode") = nb::none());
  }

  // Operators.
  auto plus = [](const Tensor& a, const Tensor& b, const Tensor& out, bool ip) {
    return binary(BinaryOp::Add, a, b, out, {}, ip);
  };
  auto minus = [](const Tensor& a, const Tensor& b, const Tensor& out, bool ip) {
    return sub(a, b, one(), out, ip);
  };
  auto binary_op = [](BinaryOp op) {
    return [op](const Tensor& a, const Tensor& b, const Tensor& out, bool ip) {
      return binary(op, a, b, out, {}, ip);
    };
  };
  def_arith_operators(cls, "__add__", "__radd__", "__iadd__", plus);
  def_arith_operators(cls, "__sub__", "__rsub__", "__isub__", minus);
  def_arith_operators(cls, "__mul__", "__rmul__", "__imul__", binary_op(BinaryOp::Mul));
  def_arith_operators(cls, "__truediv__", "__rtruediv__", "__itruediv__", binary_op(BinaryOp::Div));
  def_arith_operators(cls, "__floordiv__", "__rfloordiv__", "__ifloordiv__",
                      binary_op(BinaryOp::DivFloor));
  def_arith_operators(cls, "__mod__", "__rmod__", "__imod__", binary_op(BinaryOp::Remainder));
  def_arith_operators(cls, "__pow__", "__rpow__", "__ipow__", binary_op(BinaryOp::Pow));
  def_arith_operators(cls, "__and__", "__rand__", "__iand__", binary_op(BinaryOp::BitwiseAnd));
  def_arith_operators(cls, "__or__", "__ror__", "__ior__", binary_op(BinaryOp::BitwiseOr));
  def_arith_operators(cls, "__xor__", "__rxor__", "__ixor__", binary_op(BinaryOp::BitwiseXor));
  def_arith_operators(cls, "__lshift__", "__rlshift__", "__ilshift__",
                      binary_op(BinaryOp::LeftShift));
  def_arith_operators(cls, "__rshift__", "__rrshift__", "__irshift__",
                      binary_op(BinaryOp::RightShift));
  const std::pair<const char*, CompareOp> comparisons[] = {
      {"__eq__", CompareOp::Eq}, {"__ne__", CompareOp::Ne}, {"__lt__", CompareOp::Lt},
      {"__le__", CompareOp::Le}, {"__gt__", CompareOp::Gt}, {"__ge__", CompareOp::Ge}};
  for (const auto& [dunder, cop] : comparisons) {
    const CompareOp op = cop;
    def_operator(cls, dunder, [op](nb::handle self, const Tensor& other) {
      return wrap(compare(op, unwrap(self), other));
    });
  }
  cls.def("__neg__", [](const Tensor& t) { return wrap(unary(UnaryOp::Neg, t)); });
  cls.def("__pos__", [](nb::handle self) {
    EMBER_CHECK(unwrap(self).dtype() != ScalarType::Bool, TypeError,
                "[positive] the `+` operator on a bool tensor is not supported");
    return nb::borrow(self);
  });
  cls.def("__abs__", [](const Tensor& t) { return wrap(unary(UnaryOp::Abs, t)); });
  cls.def("__invert__", [](const Tensor& t) { return wrap(unary(UnaryOp::BitwiseNot, t)); });

  // where, clamp, lerp, round, nan_to_num, isclose, allclose, equal.
  m.def(
      "where",
      [](nb::handle cond, nb::handle input_h, nb::handle other_h, nb::handle out) {
        const Tensor input = to_tensor(input_h, "where");
        const Tensor other = to_tensor(other_h, "where", "other");
        check_where_ints(input_h, input, other_h, other);
        return result_or_out(
            where(to_tensor(cond, "where", "condition"), input, other, out_arg(out, "where")), out);
      },
      nb::arg("condition"), nb::arg("input"), nb::arg("other"), nb::kw_only(),
      nb::arg("out") = nb::none());
  cls.def(
      "where",
      [](nb::handle self, nb::handle cond, nb::handle other_h) {
        const Tensor other = to_tensor(other_h, "where", "other");
        check_where_ints(self, unwrap(self), other_h, other);
        return wrap(where(to_tensor(cond, "where", "condition"), unwrap(self), other));
      },
      nb::arg("condition"), nb::arg("other"));

  for (const char* name : {"clamp", "clip"}) {
    m.def(
        name,
        [](nb::handle input, nb::handle min, nb::handle max, nb::handle out) {
          return result_or_out(
              clamp(to_tensor(input, "clamp"), to_optional_tensor(min, "clamp", "min"),
                    to_optional_tensor(max, "clamp", "max"), out_arg(out, "clamp")),
              out);
        },
        nb::arg("input"), nb::arg("min") = nb::none(), nb::arg("max") = nb::none(), nb::kw_only(),
        nb::arg("out") = nb::none());
    cls.def(
        name,
        [](const Tensor& self, nb::handle min, nb::handle max) {
          return wrap(clamp(self, to_optional_tensor(min, "clamp", "min"),
                            to_optional_tensor(max, "clamp", "max")));
        },
        nb::arg("min") = nb::none(), nb::arg("max") = nb::none());
    cls.def(
        stable_name(std::string(name) + "_"),
        [](nb::handle self, nb::handle min, nb::handle max) {
          clamp(unwrap(self), to_optional_tensor(min, "clamp_", "min"),
                to_optional_tensor(max, "clamp_", "max"), {}, true);
          return nb::borrow(self);
        },
        nb::arg("min") = nb::none(), nb::arg("max") = nb::none());
  }
  m.def(
      "clamp_min",
      [](nb::handle input, nb::handle min) {
        return wrap(clamp(to_tensor(input, "clamp_min"), to_tensor(min, "clamp_min", "min"), {}));
      },
      nb::arg("input"), nb::arg("min"));
  m.def(
      "clamp_max",
      [](nb::handle input, nb::handle max) {
        return wrap(clamp(to_tensor(input, "clamp_max"), {}, to_tensor(max, "clamp_max", "max")));
      },
      nb::arg("input"), nb::arg("max"));

  m.def(
      "lerp",
      [](nb::handle input, nb::handle end, nb::handle weight, nb::handle out) {
        return result_or_out(lerp(to_tensor(input, "lerp"), to_tensor(end, "lerp", "end"),
                                  to_tensor(weight, "lerp", "weight"), out_arg(out, "lerp")),
                             out);
      },
      nb::arg("input"), nb::arg("end"), nb::arg("weight"), nb::kw_only(),
      nb::arg("out") = nb::none());
  cls.def(
      "lerp",
      [](const Tensor& self, nb::handle end, nb::handle weight) {
        return wrap(lerp(self, to_tensor(end, "lerp", "end"), to_tensor(weight, "lerp", "weight")));
      },
      nb::arg("end"), nb::arg("weight"));
  cls.def(
      "lerp_",
      [](nb::handle self, nb::handle end, nb::handle weight) {
        lerp(unwrap(self), to_tensor(end, "lerp_", "end"), to_tensor(weight, "lerp_", "weight"), {},
             true);
        return nb::borrow(self);
      },
      nb::arg("end"), nb::arg("weight"));

  m.def(
      "round",
      [](nb::handle input, int64_t decimals, nb::handle out) {
        return result_or_out(round(to_tensor(input, "round"), decimals, out_arg(out, "round")),
                             out);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("decimals") = 0, nb::arg("out") = nb::none());
  cls.def(
      "round", [](const Tensor& self, int64_t decimals) { return wrap(round(self, decimals)); },
      nb::kw_only(), nb::arg("decimals") = 0);
  cls.def(
      "round_",
      [](nb::handle self, int64_t decimals) {
        round(unwrap(self), decimals, {}, true);
        return nb::borrow(self);
      },
      nb::kw_only(), nb::arg("decimals") = 0);

  m.def(
      "nan_to_num",
      [](nb::handle input, double nan, std::optional<double> posinf, std::optional<double> neginf,
         nb::handle out) {
        return result_or_out(nan_to_num(to_tensor(input, "nan_to_num"), nan, posinf, neginf,
                                        out_arg(out, "nan_to_num")),
                             out);
      },
      nb::arg("input"), nb::arg("nan") = 0.0, nb::arg("posinf") = nb::none(),
      nb::arg("neginf") = nb::none(), nb::kw_only(), nb::arg("out") = nb::none());
  cls.def(
      "nan_to_num",
      [](const Tensor& self, double nan, std::optional<double> posinf,
         std::optional<double> neginf) { return wrap(nan_to_num(self, nan, posinf, neginf)); },
      nb::arg("nan") = 0.0, nb::arg("posinf") = nb::none(), nb::arg("neginf") = nb::none());
  cls.def(
      "nan_to_num_",
      [](nb::handle self, double nan, std::optional<double> posinf, std::optional<double> neginf) {
        nan_to_num(unwrap(self), nan, posinf, neginf, {}, true);
        return nb::borrow(self);
      },
      nb::arg("nan") = 0.0, nb::arg("posinf") = nb::none(), nb::arg("neginf") = nb::none());

  auto isclose_fn = [](nb::handle input, nb::handle other, double rtol, double atol,
                       bool equal_nan) {
    return wrap(isclose(to_tensor(input, "isclose"), to_tensor(other, "isclose", "other"), rtol,
                        atol, equal_nan));
  };
  m.def("isclose", isclose_fn, nb::arg("input"), nb::arg("other"), nb::arg("rtol") = 1e-05,
        nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false);
  cls.def("isclose", isclose_fn, nb::arg("other"), nb::arg("rtol") = 1e-05, nb::arg("atol") = 1e-08,
          nb::arg("equal_nan") = false);
  auto allclose_fn = [](nb::handle input, nb::handle other, double rtol, double atol,
                        bool equal_nan) {
    return allclose(to_tensor(input, "allclose"), to_tensor(other, "allclose", "other"), rtol, atol,
                    equal_nan);
  };
  m.def("allclose", allclose_fn, nb::arg("input"), nb::arg("other"), nb::arg("rtol") = 1e-05,
        nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false);
  cls.def("allclose", allclose_fn, nb::arg("other"), nb::arg("rtol") = 1e-05,
          nb::arg("atol") = 1e-08, nb::arg("equal_nan") = false);
  auto equal_fn = [](nb::handle input, nb::handle other) {
    return equal(to_tensor(input, "equal"), to_tensor(other, "equal", "other"));
  };
  m.def("equal", equal_fn, nb::arg("input"), nb::arg("other"));
  cls.def("equal", equal_fn, nb::arg("other"));
}

}  // namespace ember::py
