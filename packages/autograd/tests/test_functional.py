"""ember.autograd.functional against analytic derivatives and finite differences (numpy)."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from autograd_test_helpers import assert_close, raises, shapes
from hypothesis import given
from hypothesis import strategies as st

import ember
from ember.autograd import Function
from ember.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

RNG = np.random.default_rng(7)


def t(values: Any, requires_grad: bool = False) -> ember.Tensor:
    return ember.tensor(np.asarray(values).tolist(), dtype=ember.float64).requires_grad_(
        requires_grad
    )


def numeric_jacobian(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """Central differences: shape f(x).shape + x.shape."""
    eps = 1e-6
    out = np.asarray(f(x))
    jac = np.zeros(out.shape + x.shape)
    for idx in np.ndindex(*x.shape):
        step = np.zeros_like(x)
        step[idx] = eps
        jac[(..., *idx)] = (np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * eps)
    return jac


A = RNG.standard_normal((3, 4))
Q = RNG.standard_normal((4, 4))


def test_jacobian_of_linear_map_is_the_matrix() -> None:
    jac = jacobian(lambda x: t(A) @ x, t(RNG.standard_normal(4)))
    assert_close(jac, A, dtype=ember.float64)


def test_jacobian_of_elementwise_is_diagonal() -> None:
    x = RNG.standard_normal(5)
    assert_close(jacobian(lambda v: v.sin(), t(x)), np.diag(np.cos(x)))


def test_jacobian_structure_for_tuples() -> None:
    x, y = RNG.standard_normal((2, 3)), RNG.standard_normal(3)

    def f(a: ember.Tensor, b: ember.Tensor) -> tuple[ember.Tensor, ember.Tensor]:
        return (a * b).exp().sum(1), a.sin()

    jac = jacobian(f, (t(x), t(y)))
    assert isinstance(jac, tuple) and len(jac) == 2 and all(len(row) == 2 for row in jac)
    assert jac[0][0].shape == (2, 2, 3) and jac[0][1].shape == (2, 3)
    assert jac[1][0].shape == (2, 3, 2, 3) and jac[1][1].shape == (2, 3, 3)
    assert_close(jac[0][0], numeric_jacobian(lambda v: np.exp(v * y).sum(1), x), rtol=1e-6)
    assert_close(jac[0][1], numeric_jacobian(lambda v: np.exp(x * v).sum(1), y), rtol=1e-6)
    assert_close(jac[1][0], numeric_jacobian(np.sin, x), atol=1e-8)
    assert_close(jac[1][1], np.zeros((2, 3, 3)))
    single_in = jacobian(lambda a: (a * 2, a.sum()), t(y))
    assert isinstance(single_in, tuple) and single_in[1].shape == (3,)
    single_out = jacobian(lambda a: a * 2, (t(y),))
    assert isinstance(single_out, tuple) and single_out[0].shape == (3, 3)


def test_jacobian_of_scalar_output_and_empty_input() -> None:
    x = RNG.standard_normal(3)
    assert_close(jacobian(lambda v: (v * v).sum(), t(x)), 2 * x)
    empty = jacobian(lambda v: v * 2, ember.zeros(0, dtype=ember.float64))
    assert empty.shape == (0, 0)


def test_jacobian_unused_input_is_zero_or_strict_error() -> None:
    x = t([1.0, 2.0])
    jac = jacobian(lambda a, b: a * 2, (x, x.clone()))
    assert_close(jac[1], np.zeros((2, 2)))
    raises(
        RuntimeError,
        "jacobian",
        lambda: jacobian(lambda a, b: a * 2, (x, x.clone()), strict=True),
        "independent of input 1",
    )
    raises(
        RuntimeError,
        "jacobian",
        lambda: jacobian(lambda a: ember.ones(2), x, strict=True),
        "does not require gradients",
    )


def test_jacobian_options() -> None:
    x = t(RNG.standard_normal(3))
    plain = jacobian(lambda v: v.exp(), x)
    assert_close(jacobian(lambda v: v.exp(), x, vectorize=True), plain.numpy())
    raises(
        NotImplementedError,
        "jacobian",
        lambda: jacobian(lambda v: v, x, strategy="forward-mode"),
        "forward-mode",
    )
    raises(ValueError, "jacobian", lambda: jacobian(lambda v: v, x, strategy="sideways"))
    raises(
        RuntimeError,
        "jacobian",
        lambda: jacobian(lambda v: v, x, strict=True, vectorize=True),
        "not supported together",
    )


def test_bad_inputs_and_outputs_raise_type_errors() -> None:
    x = t([1.0])
    raises(TypeError, "jacobian", lambda: jacobian(lambda v: v, [x]), "has type list")
    raises(TypeError, "vjp", lambda: vjp(lambda a, b: a, (x, 3.0)), "index 1 has type float")
    raises(TypeError, "jacobian", lambda: jacobian(lambda v: 3, x), "outputs")
    raises(TypeError, "jvp", lambda: jvp(lambda v: v, x, v=[x]), "has type list")


def test_results_are_detached_unless_create_graph() -> None:
    x = t([0.5, 1.5], requires_grad=True)
    out, res = vjp(lambda v: v.exp(), x, t([1.0, 1.0]))
    assert not out.requires_grad and not res.requires_grad
    assert x.grad is None  # functional never accumulates into the caller's tensors
    out, res = vjp(lambda v: v.exp(), x, t([1.0, 1.0]), create_graph=True)
    assert out.requires_grad and res.requires_grad
    (g,) = ember.autograd.grad(res.sum(), x)
    assert_close(g, np.exp([0.5, 1.5]))
    jac = jacobian(lambda v: v**3, x, create_graph=True)
    (g,) = ember.autograd.grad(jac.sum(), x)
    assert_close(g, 6 * np.array([0.5, 1.5]))


def test_works_inside_no_grad() -> None:
    x = t([1.0, 2.0])
    with ember.no_grad():
        jac = jacobian(lambda v: v * v, x)
        _, res = vjp(lambda v: v * v, x, t([1.0, 1.0]))
    assert_close(jac, np.diag([2.0, 4.0]))
    assert_close(res, [2.0, 4.0])
    assert not res.requires_grad


def test_vjp_and_jvp_agree_with_the_jacobian() -> None:
    x, y = RNG.standard_normal((2, 3)), RNG.standard_normal(3)
    u0, u1 = RNG.standard_normal(2), RNG.standard_normal((2, 3))
    vx, vy = RNG.standard_normal((2, 3)), RNG.standard_normal(3)

    def f(a: ember.Tensor, b: ember.Tensor) -> tuple[ember.Tensor, ember.Tensor]:
        return (a * b).tanh().sum(1), a * b.exp()

    jac = jacobian(f, (t(x), t(y)))
    j = [[m.numpy() for m in row] for row in jac]
    out, (gx, gy) = vjp(f, (t(x), t(y)), (t(u0), t(u1)))
    assert_close(out[0], np.tanh(x * y).sum(1))
    assert_close(gx, np.tensordot(u0, j[0][0], 1) + np.tensordot(u1, j[1][0], 2))
    assert_close(gy, np.tensordot(u0, j[0][1], 1) + np.tensordot(u1, j[1][1], 2))
    out, (jx, jy) = jvp(f, (t(x), t(y)), (t(vx), t(vy)))
    assert_close(jx, np.tensordot(j[0][0], vx, 2) + np.tensordot(j[0][1], vy, 1))
    assert_close(jy, np.tensordot(j[1][0], vx, 2) + np.tensordot(j[1][1], vy, 1))


def test_v_can_be_omitted_only_for_one_element() -> None:
    out, res = vjp(lambda v: (v * v).sum(), t([3.0, 4.0]))
    assert_close(out, 25.0)
    assert_close(res, [6.0, 8.0])
    _, res = jvp(lambda v: v.exp() * ember.ones(2, dtype=ember.float64), t([0.0]))
    assert_close(res, [1.0, 1.0])
    raises(RuntimeError, "vjp", lambda: vjp(lambda v: v, t([1.0, 2.0])), "can only be None")
    raises(RuntimeError, "jvp", lambda: jvp(lambda v: v, t([1.0, 2.0])), "can only be None")
    raises(RuntimeError, "hvp", lambda: hvp(lambda v: v.sum(), t([1.0, 2.0])), "only be None")
    raises(RuntimeError, "vhp", lambda: vhp(lambda v: v.sum(), t([1.0, 2.0])), "only be None")


def test_v_shape_and_length_checked() -> None:
    x = t([1.0, 2.0])
    raises(RuntimeError, "vjp", lambda: vjp(lambda v: v, x, t([1.0])), "invalid size")
    raises(RuntimeError, "jvp", lambda: jvp(lambda a, b: a, (x, x), (x,)), "invalid length")
    raises(RuntimeError, "jvp", lambda: jvp(lambda v: v, x, (x, x)), "single Tensor")
    raises(RuntimeError, "vhp", lambda: vhp(lambda a, b: a.sum(), (x, x), (x, t([1.0]))), "Entry 1")


def quadratic(x: ember.Tensor) -> ember.Tensor:
    return x @ (t(Q) @ x) + (x**3).sum()


def test_hessian_of_quadratic_plus_cubic() -> None:
    x = RNG.standard_normal(4)
    expected = Q + Q.T + np.diag(6 * x)
    assert_close(hessian(quadratic, t(x)), expected, rtol=1e-10)


def test_hessian_tuple_structure() -> None:
    x, y = RNG.standard_normal((2, 3)), RNG.standard_normal(3)

    def f(a: ember.Tensor, b: ember.Tensor) -> ember.Tensor:
        return (a * b).exp().sum() + (b**3).sum()

    h = hessian(f, (t(x), t(y)))
    assert h[0][0].shape == (2, 3, 2, 3) and h[0][1].shape == (2, 3, 3)
    assert h[1][0].shape == (3, 2, 3) and h[1][1].shape == (3, 3)
    e = np.exp(x * y)
    assert_close(h[1][1], np.diag((x * x * e).sum(0) + 6 * y), rtol=1e-10)
    assert_close(h[0][1], h[1][0].numpy().transpose(1, 2, 0), rtol=1e-10)


def test_hvp_vhp_match_the_hessian() -> None:
    x, v = RNG.standard_normal(4), RNG.standard_normal(4)
    h = Q + Q.T + np.diag(6 * x)
    out, res = hvp(quadratic, t(x), t(v))
    assert_close(out, x @ Q @ x + (x**3).sum())
    assert_close(res, h @ v, rtol=1e-10)
    out, res = vhp(quadratic, t(x), t(v))
    assert_close(res, v @ h, rtol=1e-10)
    _, res = hvp(lambda a, b: (a * b).sum(), (t(x), t(x)), (t(v), t(v)))
    assert_close(res[0], v)


def test_hessian_functions_need_one_scalar_output() -> None:
    x = t([1.0, 2.0])
    for fn, name in ((hessian, "hessian"), (lambda f, a: vhp(f, a, a), "vhp")):
        raises(RuntimeError, name, lambda fn=fn: fn(lambda v: v * 2, x), "single element")
        raises(RuntimeError, name, lambda fn=fn: fn(lambda v: (v.sum(), v.sum()), x), "single")
    raises(
        NotImplementedError,
        "hessian",
        lambda: hessian(quadratic, x, outer_jacobian_strategy="forward-mode"),
    )


def test_hessian_strict_mode_for_linear_function() -> None:
    x = t([1.0, 2.0])
    assert_close(hessian(lambda v: v.sum() * 2, x), np.zeros((2, 2)))
    raises(
        RuntimeError,
        "hessian",
        lambda: hessian(lambda v: v.sum() * 2, x, strict=True),
        "jacobian of the user-provided function",
    )
    raises(
        RuntimeError,
        "hvp",
        lambda: hvp(lambda v: v.sum() * 2, x, x, strict=True),
        "independent of the input",
    )
    _, res = vhp(lambda v: v.sum() * 2, x, x)
    assert_close(res, [0.0, 0.0])


def test_through_a_custom_function() -> None:
    class Cube(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            (x,) = ctx.saved_tensors
            return 3 * x**2 * g

    x = np.array([1.0, -2.0])
    assert_close(jacobian(Cube.apply, t(x)), np.diag(3 * x**2))
    assert_close(hessian(lambda v: Cube.apply(v).sum(), t(x)), np.diag(6 * x))
    _, res = jvp(Cube.apply, t(x), t([1.0, 1.0]))
    assert_close(res, 3 * x**2)


@given(
    shape=shapes(min_side=1, max_side=3, max_dims=2),
    op=st.sampled_from(["exp", "tanh", "square", "cumsum"]),
)
def test_fuzz_jacobian_and_products_match_finite_differences(
    shape: tuple[int, ...], op: str
) -> None:
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape) * 0.5
    np_fns: dict[str, Callable[[np.ndarray], np.ndarray]] = {
        "exp": np.exp,
        "tanh": np.tanh,
        "square": lambda a: a * a * a.sum(),
        "cumsum": lambda a: np.cumsum(a.reshape(-1)) * 2,
    }
    em_fns: dict[str, Callable[[ember.Tensor], ember.Tensor]] = {
        "exp": lambda a: a.exp(),
        "tanh": lambda a: a.tanh(),
        "square": lambda a: a * a * a.sum(),
        "cumsum": lambda a: a.reshape(-1).cumsum(0) * 2,
    }
    expected = numeric_jacobian(np_fns[op], x)
    jac = jacobian(em_fns[op], t(x))
    assert_close(jac, expected, rtol=1e-5, atol=1e-6)
    v = rng.standard_normal(x.shape)
    _, res = jvp(em_fns[op], t(x), t(v))
    out_dims = expected.ndim - x.ndim
    assert_close(res, np.tensordot(expected, v, x.ndim), rtol=1e-5, atol=1e-6)
    u = rng.standard_normal(expected.shape[:out_dims])
    _, res = vjp(em_fns[op], t(x), t(u))
    assert_close(res, np.tensordot(u, expected, out_dims), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [jacobian, hessian])
def test_inputs_keep_their_state(fn: Callable[..., Any]) -> None:
    x = t([1.0, 2.0], requires_grad=True)
    before = x._version
    fn(lambda v: (v**3).sum(), x)
    assert x.grad is None and x._version == before and x.is_leaf


@pytest.mark.parametrize(
    "obj",
    [
        jacobian,
        hessian,
        vjp,
        jvp,
        vhp,
        hvp,
        Function,
        Function.apply,
        ember.autograd.function.FunctionCtx.save_for_backward,
        ember.autograd.function.FunctionCtx.mark_dirty,
        ember.autograd.function.FunctionCtx.mark_non_differentiable,
        ember.autograd.function.FunctionCtx.set_materialize_grads,
        ember.autograd.function.once_differentiable,
    ],
)
def test_docstring_examples_run(obj: Any) -> None:
    names = {"ember": ember, **{f.__name__: f for f in (jacobian, hessian, vjp, jvp, vhp, hvp)}}
    test = doctest.DocTestParser().get_doctest(obj.__doc__, names, obj.__qualname__, None, 0)
    assert test.examples, f"{obj.__qualname__} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0
