"""Custom autograd Functions: ctx API, output wrapping, backward checking, double backward."""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

import numpy as np
import pytest
from autograd_test_helpers import assert_close, raises, shapes
from hypothesis import given
from hypothesis import strategies as st

import ember
from ember.autograd import Function, grad, gradcheck, gradgradcheck
from ember.autograd.function import BackwardCFunction, FunctionCtx, once_differentiable
from ember.autograd.graph import Node


def leaf(*values: float) -> ember.Tensor:
    return ember.tensor(list(values), dtype=ember.float64, requires_grad=True)


class Exp(Function):
    """Saves its output: backward unpacks it reconnected to the node (double backward)."""

    @staticmethod
    def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
        (y,) = ctx.saved_tensors
        return g * y


class MulAdd(Function):
    """x * y + k with a non-tensor k; saves its inputs."""

    @staticmethod
    def forward(ctx: Any, x: ember.Tensor, y: ember.Tensor, k: float) -> ember.Tensor:
        ctx.save_for_backward(x, y)
        ctx.k = k
        return x * y + k

    @staticmethod
    def backward(ctx: Any, g: ember.Tensor) -> tuple[Any, ...]:
        x, y = ctx.saved_tensors
        return g * y, g * x, None


class Cube(Function):
    """The setup_context style: forward takes no ctx."""

    @staticmethod
    def forward(x: ember.Tensor, power: int = 3) -> ember.Tensor:
        return x**power

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: ember.Tensor) -> None:
        x, power = inputs
        ctx.save_for_backward(x)
        ctx.power = power

    @staticmethod
    def backward(ctx: Any, g: ember.Tensor) -> tuple[Any, ...]:
        (x,) = ctx.saved_tensors
        return g * ctx.power * x ** (ctx.power - 1), None


def test_forward_backward_and_node() -> None:
    x = leaf(0.0, 1.0, 2.0)
    y = Exp.apply(x)
    assert_close(y, np.exp([0.0, 1.0, 2.0]), dtype=ember.float64)
    node = y.grad_fn
    assert isinstance(node, Node) and isinstance(node, BackwardCFunction)
    assert isinstance(node, FunctionCtx)
    assert type(node).__name__ == "ExpBackward" and node.name() == "ExpBackward"
    assert node._forward_cls is Exp
    assert "ExpBackward" in repr(node)
    assert type(node.next_functions[0][0]).__name__ == "AccumulateGrad"
    assert not y.is_leaf and y.requires_grad
    y.sum().backward()
    assert_close(x.grad, np.exp([0.0, 1.0, 2.0]), dtype=ember.float64)


def test_ctx_is_the_node_and_keeps_attributes() -> None:
    x, y = leaf(1.0, 2.0), leaf(3.0, 4.0)
    out = MulAdd.apply(x, y, 0.5)
    assert out.grad_fn.k == 0.5
    assert out.grad_fn.needs_input_grad == (True, True, False)
    assert len(out.grad_fn.next_functions) == 2  # only the tensor inputs get edges
    out.sum().backward()
    assert_close(x.grad, [3.0, 4.0])
    assert_close(y.grad, [1.0, 2.0])


def test_forward_runs_with_grad_disabled() -> None:
    seen = []

    class Probe(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            seen.append(ember.is_grad_enabled())
            inner = x * 2
            seen.append(inner.requires_grad)
            return inner

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            seen.append(ember.is_grad_enabled())
            return g * 2

    out = Probe.apply(leaf(1.0))
    out.backward()
    assert seen == [False, False, False]
    assert ember.is_grad_enabled()


def test_setup_context_style_with_defaults_and_kwargs() -> None:
    x = leaf(1.0, 2.0)
    y = Cube.apply(x)
    assert y.grad_fn.power == 3
    assert y.grad_fn.needs_input_grad == (True, False)
    y.sum().backward()
    assert_close(x.grad, [3.0, 12.0])
    x.grad = None
    Cube.apply(x, power=2).sum().backward()
    assert_close(x.grad, [2.0, 4.0])
    raises(TypeError, "Cube", lambda: Cube.apply(x, 2, 3))


def test_keyword_tensor_arguments_get_gradients() -> None:
    class AddKw(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor, y: ember.Tensor | None = None) -> ember.Tensor:
            return x + (0.0 if y is None else y)

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> tuple[Any, ...]:
            return g, 2 * g

    x, y = leaf(1.0), leaf(2.0)
    out = AddKw.apply(x, y=y)
    assert out.grad_fn.needs_input_grad == (True, True)
    out.backward()
    assert_close(x.grad, [1.0])
    assert_close(y.grad, [2.0])


def test_needs_input_grad_reflects_inputs_and_mode() -> None:
    x, c = leaf(1.0), ember.tensor([2.0], dtype=ember.float64)
    out = MulAdd.apply(x, c, 1.0)
    assert out.grad_fn.needs_input_grad == (True, False, False)
    out.backward()
    assert c.grad is None
    assert_close(x.grad, [2.0])
    with ember.no_grad():
        out = MulAdd.apply(x, x, 1.0)
    assert out.grad_fn is None and not out.requires_grad
    out = MulAdd.apply(c, c, 1.0)
    assert out.grad_fn is None and not out.requires_grad


def test_saved_tensors_inputs_and_outputs() -> None:
    x = leaf(1.0, 2.0)
    y = Exp.apply(x)
    (saved,) = y.grad_fn.saved_tensors
    assert saved.grad_fn is y.grad_fn  # an output comes back connected to its node
    x2, c = leaf(3.0), ember.tensor([4.0], dtype=ember.float64)
    out = MulAdd.apply(x2, c, 0.0)
    a, b = out.grad_fn.saved_tensors
    assert a is x2 and b is c  # inputs come back as the same tensors


def test_saved_none_and_bad_save_types() -> None:
    class SaveNone(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            ctx.save_for_backward(None, x)
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            none, _ = ctx.saved_tensors
            assert none is None
            return g * 2

    x = leaf(1.0)
    SaveNone.apply(x).backward()
    assert_close(x.grad, [2.0])
    ctx = FunctionCtx()
    raises(TypeError, "save_for_backward", lambda: ctx.save_for_backward(x, 3), "argument 1")
    raises(TypeError, "save_for_backward", lambda: ctx.save_for_backward([x]), "list")


def test_saved_tensor_modified_in_place_raises() -> None:
    x = leaf(1.0, 2.0)
    z = x * 1
    out = MulAdd.apply(z, z, 0.0)
    with ember.no_grad():
        z.mul_(2)
    raises(
        RuntimeError,
        "MulAdd",
        lambda: out.sum().backward(),
        "modified by an inplace operation",
        "output 0 of MulBackward0",
        "expected version",
    )
    y = Exp.apply(leaf(0.0))
    with ember.no_grad():
        y.add_(1)
    raises(RuntimeError, "Exp", lambda: y.backward(), "which is output 0 of Exp")


def test_saved_tensors_released_after_backward() -> None:
    x = leaf(1.0, 2.0)
    y = Exp.apply(x)
    y.sum().backward(retain_graph=True)
    y.sum().backward()  # retained once: a second pass works
    assert_close(x.grad, 2 * np.exp([1.0, 2.0]))
    raises(RuntimeError, "Exp", lambda: y.grad_fn.saved_tensors, "backward through the graph")
    raises(RuntimeError, "Exp", lambda: y.sum().backward(), "retain_graph=True")


def test_nothing_saved_allows_repeated_backward() -> None:
    class Twice(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g * 2

    x = leaf(1.0)
    y = Twice.apply(x)
    y.backward()
    y.backward()
    assert_close(x.grad, [4.0])
    assert y.grad_fn.saved_tensors == ()


def test_mark_dirty_modifies_input_in_place() -> None:
    class Double_(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g * 2

    x = leaf(1.0, 3.0)
    a = x + 1  # add saves nothing, so modifying its result in place is allowed
    version = a._version
    b = Double_.apply(a)
    assert b is a and a._version > version
    assert a.grad_fn.name() == "Double_Backward"
    assert_close(a, [4.0, 8.0])
    (a * a).sum().backward()
    assert_close(x.grad, 2 * np.array([4.0, 8.0]) * 2)
    raises(RuntimeError, "Double_", lambda: Double_.apply(leaf(1.0)), "leaf Variable")
    # A tensor that does not require grad may be dirtied; the output then requires grad.
    plain = ember.ones(2, dtype=ember.float64)
    with ember.no_grad():
        assert Double_.apply(plain) is plain and not plain.requires_grad
    assert_close(plain, [2.0, 2.0])


def test_mark_dirty_needs_the_tensor_returned() -> None:
    class Hidden(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            x.add_(1)
            ctx.mark_dirty(x)
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g * 2

    raises(
        RuntimeError, "Hidden", lambda: Hidden.apply(leaf(1.0) * 1), "marked as dirty", "returned"
    )


class SortValues(Function):
    @staticmethod
    def forward(ctx: Any, x: ember.Tensor) -> tuple[ember.Tensor, ember.Tensor]:
        values, indices = x.sort()
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx: Any, g: ember.Tensor, g_indices: Any) -> ember.Tensor:
        (indices,) = ctx.saved_tensors
        ctx.seen = g_indices
        return ember.zeros_like(g).scatter(0, indices, g)


def test_mark_non_differentiable_and_several_outputs() -> None:
    x = leaf(3.0, 1.0, 2.0)
    values, indices = SortValues.apply(x)
    assert values.requires_grad and values.grad_fn is not None
    assert not indices.requires_grad and indices.grad_fn is None
    assert indices.dtype == ember.int64
    (values * ember.tensor([1.0, 10.0, 100.0], dtype=ember.float64)).sum().backward()
    assert_close(x.grad, [100.0, 1.0, 10.0])
    assert_close(values.grad_fn.seen, [0, 0, 0])  # a zero gradient for the non-diff output


def test_float_output_marked_non_differentiable() -> None:
    class Pair(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> tuple[ember.Tensor, ember.Tensor]:
            y = x * 2
            ctx.mark_non_differentiable(y)
            return y, x * 3

        @staticmethod
        def backward(ctx: Any, gy: ember.Tensor, gz: ember.Tensor) -> ember.Tensor:
            return gy + 3 * gz

    y, z = Pair.apply(leaf(1.0))
    assert not y.requires_grad and z.requires_grad
    assert z.output_nr == 1


def test_materialize_grads_switch() -> None:
    received: list[Any] = []

    class Two(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor, materialize: bool) -> tuple[Any, ...]:
            ctx.set_materialize_grads(materialize)
            return x + 1, x + 2

        @staticmethod
        def backward(ctx: Any, a: Any, b: Any) -> tuple[Any, ...]:
            received.append((a, b))
            return a if a is not None else b, None

    x = leaf(1.0, 2.0)
    Two.apply(x, True)[0].sum().backward()
    Two.apply(x, False)[0].sum().backward()
    assert_close(received[0][1], [0.0, 0.0])
    assert received[1][1] is None
    assert_close(x.grad, [2.0, 2.0])
    raises(TypeError, "set_materialize_grads", lambda: FunctionCtx().set_materialize_grads(1))


def test_non_tensor_inputs_and_outputs() -> None:
    class Scale(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor, factor: float, label: str) -> tuple[Any, ...]:
            ctx.factor = factor
            return x * factor, label.upper(), 7

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor, g_label: Any, g_int: Any) -> tuple[Any, ...]:
            assert g_label is None and g_int is None
            return g * ctx.factor, None, None

    x = leaf(1.0, 2.0)
    y, label, seven = Scale.apply(x, 4.0, "ok")
    assert label == "OK" and seven == 7
    assert y.grad_fn.num_outputs == 3
    y.sum().backward()
    assert_close(x.grad, [4.0, 4.0])


def test_non_tensor_single_output_passes_through() -> None:
    class Count(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> int:
            return int(x.numel())

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return None

    assert Count.apply(leaf(1.0, 2.0)) == 2


def test_integer_output_does_not_require_grad() -> None:
    class Floor(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            return x.long()

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g

    out = Floor.apply(leaf(1.5))
    assert not out.requires_grad and out.grad_fn is None


def test_returning_none_gradients() -> None:
    class Nothing(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            return x * 2

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> None:
            return None

    x = leaf(1.0)
    Nothing.apply(x).backward()
    assert x.grad is None
    assert grad(Nothing.apply(x), x, allow_unused=True) == (None,)
    (zeros,) = grad(Nothing.apply(x), x, materialize_grads=True)
    assert_close(zeros, [0.0])


def test_input_returned_unchanged_is_a_new_view() -> None:
    class Identity(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            return x

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g * 3

    x = leaf(1.0, 2.0)
    y = Identity.apply(x)
    assert y is not x and y._base is x
    assert y.grad_fn.name() == "IdentityBackward"
    assert x.is_leaf and x.grad_fn is None
    y.sum().backward()
    assert_close(x.grad, [3.0, 3.0])
    with ember.no_grad():
        z = Identity.apply(x)
    assert z is not x and not z.requires_grad


def bad_backward(result: Any, n_inputs: int = 2) -> type[Function]:
    class Bad(Function):
        @staticmethod
        def forward(ctx: Any, *args: Any) -> ember.Tensor:
            return args[0] * 2

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> Any:
            return result(g) if callable(result) else result

    return Bad


def test_wrong_gradient_count_raises() -> None:
    x, y = leaf(1.0, 2.0), leaf(3.0, 4.0)
    few = bad_backward(lambda g: g)
    raises(
        RuntimeError,
        "Bad",
        lambda: few.apply(x, y).sum().backward(),
        "BadBackward returned an incorrect number of gradients (expected 2, got 1)",
    )
    many = bad_backward(lambda g: (g, g, g))
    raises(RuntimeError, "Bad", lambda: many.apply(x, y).sum().backward(), "(expected 2, got 3)")
    extra_none = bad_backward(lambda g: (g, g, None))
    extra_none.apply(x, y).sum().backward()  # trailing Nones beyond the inputs are fine
    assert_close(x.grad, [1.0, 1.0])


def test_gradient_for_non_tensor_input_raises() -> None:
    bad = bad_backward(lambda g: (g, g))
    raises(
        RuntimeError,
        "Bad",
        lambda: bad.apply(leaf(1.0), 5).sum().backward(),
        "different than None at position 2",
        "not a Variable",
    )


def test_non_tensor_gradient_raises() -> None:
    bad = bad_backward(3)
    raises(RuntimeError, "Bad", lambda: bad.apply(leaf(1.0)).sum().backward(), "got int")


def test_wrong_gradient_shape_raises_and_broadcast_shape_is_summed() -> None:
    x = leaf(1.0, 2.0)
    bad = bad_backward(lambda g: ember.ones(3, dtype=ember.float64))
    raises(
        RuntimeError,
        "Bad",
        lambda: bad.apply(x).sum().backward(),
        "invalid gradient at index 0 - got [3] but expected shape compatible with [2]",
    )
    bigger = bad_backward(lambda g: ember.ones((3, 2), dtype=ember.float64))
    bigger.apply(x).sum().backward()
    assert_close(x.grad, [3.0, 3.0])
    smaller = bad_backward(lambda g: ember.ones(1, dtype=ember.float64))
    raises(RuntimeError, "Bad", lambda: smaller.apply(x).sum().backward(), "got [1]")


def test_gradient_dtype_is_cast_to_the_input_dtype() -> None:
    x = ember.ones(2, dtype=ember.float32, requires_grad=True)
    wide = bad_backward(lambda g: ember.full((2,), 0.5, dtype=ember.float64))
    wide.apply(x).sum().backward()
    assert x.grad.dtype == ember.float32
    assert_close(x.grad, [0.5, 0.5])


def test_double_backward_through_differentiable_backward() -> None:
    x = leaf(0.5, -1.0)
    (g,) = grad(Cube.apply(x).sum(), x, create_graph=True)
    assert g.requires_grad
    (h,) = grad(g.sum(), x)
    assert_close(h, 6 * np.array([0.5, -1.0]))
    # Exp saves its output: the unpacked output must carry the second derivative.
    (g,) = grad(Exp.apply(x).sum(), x, create_graph=True)
    (h,) = grad(g.sum(), x)
    assert_close(h, np.exp([0.5, -1.0]))


def test_gradcheck_and_gradgradcheck_through_functions() -> None:
    a = ember.randn(3, dtype=ember.float64, requires_grad=True)
    b = ember.randn(3, dtype=ember.float64, requires_grad=True)
    assert gradcheck(lambda x, y: MulAdd.apply(x, y, 2.0), (a, b))
    assert gradgradcheck(lambda x, y: MulAdd.apply(x, y, 2.0), (a, b))
    assert gradcheck(Exp.apply, (a,))
    assert gradgradcheck(Exp.apply, (a,))
    assert gradgradcheck(lambda x: Cube.apply(x, 4), (a,))


def test_gradcheck_catches_a_wrong_backward() -> None:
    wrong = bad_backward(lambda g: g * 3)  # forward is x * 2
    x = ember.randn(2, dtype=ember.float64, requires_grad=True)
    with pytest.raises(ember.autograd.GradcheckError):
        gradcheck(wrong.apply, (x,))


class OnceCube(Function):
    @staticmethod
    def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
        (x,) = ctx.saved_tensors
        ctx.grad_mode = ember.is_grad_enabled()
        return 3 * x**2 * g


def test_once_differentiable() -> None:
    x = leaf(2.0)
    y = OnceCube.apply(x)
    y.backward()
    assert_close(x.grad, [12.0])
    assert y.grad_fn.grad_mode is False
    # create_graph with a seed that does not require grad: the result is a plain tensor.
    (g,) = grad(OnceCube.apply(x), x, create_graph=True)
    assert not g.requires_grad
    seed = ember.ones(1, dtype=ember.float64, requires_grad=True)
    (g,) = grad(OnceCube.apply(x), x, seed, create_graph=True)
    assert_close(g, [12.0])
    assert g.requires_grad and g.grad_fn.name() == "DelayedError"
    raises(RuntimeError, "OnceCube", lambda: g.backward(), "differentiate twice")


def test_grad_fn_hooks_run() -> None:
    x = leaf(1.0)
    y = Exp.apply(x)
    calls: list[str] = []
    y.grad_fn.register_prehook(lambda grads: calls.append("pre"))
    y.grad_fn.register_hook(lambda grads_in, grads_out: calls.append("post"))
    y.register_hook(lambda g: g * 2)
    y.backward()
    assert calls == ["pre", "post"]
    assert_close(x.grad, 2 * np.exp([1.0]))


def test_retain_grad_on_function_output() -> None:
    x = leaf(1.0, 2.0)
    y = Exp.apply(x)
    y.retain_grad()
    (y * 3).sum().backward()
    assert_close(y.grad, [3.0, 3.0])


def test_function_in_a_longer_graph() -> None:
    x = leaf(0.1, 0.2, 0.3)
    w = leaf(1.0, -1.0, 2.0)
    loss = (MulAdd.apply(Exp.apply(x * 2), w, 1.0) ** 2).sum()
    loss.backward()
    e = np.exp(2 * np.array([0.1, 0.2, 0.3]))
    wv = np.array([1.0, -1.0, 2.0])
    inner = e * wv + 1.0
    assert_close(x.grad, 2 * inner * wv * e * 2)
    assert_close(w.grad, 2 * inner * e)


def test_class_misuse_errors() -> None:
    with pytest.warns(DeprecationWarning):
        instance = Exp()
    raises(RuntimeError, "Exp", lambda: instance(leaf(1.0)), "static forward")
    raises(RuntimeError, "Function", lambda: Function.apply(leaf(1.0)))

    class NoForward(Function):
        pass

    raises(NotImplementedError, "Function", lambda: NoForward.apply(leaf(1.0)), "forward")

    class NoBackward(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            return x * 2

    out = NoBackward.apply(leaf(1.0))
    raises(NotImplementedError, "Function", lambda: out.backward(), "backward or vjp")
    raises(NotImplementedError, "save_for_forward", lambda: FunctionCtx().save_for_forward())
    raises(NotImplementedError, "Function", lambda: Exp.jvp(None, None), "forward-mode")


def test_vjp_alias_and_both_defined() -> None:
    class ViaVjp(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            return x * 5

        @staticmethod
        def vjp(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g * 5

    x = leaf(1.0)
    ViaVjp.apply(x).backward()
    assert_close(x.grad, [5.0])

    class Both(ViaVjp):
        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g

    out = Both.apply(x)
    raises(RuntimeError, "Both", lambda: out.backward(), "both 'backward' and 'vjp'")


def test_forward_error_restores_grad_mode() -> None:
    class Broken(Function):
        @staticmethod
        def forward(ctx: Any, x: ember.Tensor) -> ember.Tensor:
            raise ValueError("[Broken] bad input")

    with pytest.raises(ValueError, match=r"^\[Broken\]"):
        Broken.apply(leaf(1.0))
    assert ember.is_grad_enabled()


def test_graph_is_freed() -> None:
    # Saved outputs are kept detached, so an output/node pair is not a native-level cycle.
    x = leaf(1.0)
    y = Exp.apply(x)
    node = y.grad_fn
    ref = weakref.ref(node)
    del y, node
    gc.collect()
    assert ref() is None


def test_concurrent_backward_in_threads() -> None:
    errors: list[BaseException] = []

    def work(seed: float) -> None:
        try:
            for _ in range(20):
                x = leaf(seed, seed + 1)
                MulAdd.apply(Exp.apply(x), x, 1.0).sum().backward()
                expected = np.exp([seed, seed + 1]) * (np.array([seed, seed + 1]) + 1)
                np.testing.assert_allclose(x.grad.numpy(), expected)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(i * 0.1,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


class BroadcastMul(Function):
    """x * y with broadcasting; backward returns full-size gradients the node sums down."""

    @staticmethod
    def forward(ctx: Any, x: ember.Tensor, y: ember.Tensor) -> ember.Tensor:
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx: Any, g: ember.Tensor) -> tuple[ember.Tensor, ember.Tensor]:
        x, y = ctx.saved_tensors
        return g * y, g * x


@given(
    shape=shapes(min_side=1, max_side=3, max_dims=3),
    mask=st.lists(st.booleans(), min_size=3, max_size=3),
    dtype=st.sampled_from([ember.float32, ember.float64]),
)
def test_fuzz_broadcast_gradients_match_numpy(
    shape: tuple[int, ...], mask: list[bool], dtype: Any
) -> None:
    rng = np.random.default_rng(len(shape))
    small = tuple(1 if m else s for s, m in zip(shape, mask, strict=False))
    a_np, b_np = rng.standard_normal(shape), rng.standard_normal(small)
    a = ember.tensor(a_np.tolist(), dtype=dtype, requires_grad=True)
    b = ember.tensor(b_np.tolist(), dtype=dtype, requires_grad=True)
    out = BroadcastMul.apply(a, b)
    assert out.shape == np.broadcast_shapes(shape, small)
    out.sum().backward()
    b_grad = np.broadcast_to(a_np, out.shape)
    axes = tuple(i for i, s in enumerate(small) if s == 1 and out.shape[i] != 1)
    assert_close(a.grad, np.broadcast_to(b_np, shape), dtype=dtype, rtol=1e-5, atol=1e-5)
    assert_close(
        b.grad,
        b_grad.sum(axis=axes, keepdims=True).reshape(small),
        dtype=dtype,
        rtol=1e-5,
        atol=1e-5,
    )


@given(grad_shape=shapes(min_side=0, max_side=3, max_dims=3), n=st.integers(0, 3))
def test_fuzz_bad_backward_results_raise_typed_errors(grad_shape: tuple[int, ...], n: int) -> None:
    def result(g: ember.Tensor) -> tuple[Any, ...]:
        return tuple(ember.ones(grad_shape, dtype=ember.float64) for _ in range(n))

    bad = bad_backward(result)
    x = ember.ones((2, 3), dtype=ember.float64, requires_grad=True)
    try:
        bad.apply(x).sum().backward()
    except RuntimeError as error:
        assert str(error).startswith("[Bad]"), str(error)
        return
    # Accepted only when the count is right and the shape broadcasts onto x.
    assert n == 1 and x.grad is not None and x.grad.shape == (2, 3)


def test_anomaly_mode_names_the_forward_call(capsys: pytest.CaptureFixture[str]) -> None:
    nan_backward = bad_backward(lambda g: g * float("nan"))
    x = leaf(1.0)
    with ember.autograd.detect_anomaly():
        out = nan_backward.apply(x)  # the line the report must point at
        with pytest.raises(RuntimeError, match="BadBackward"):
            out.backward()
    err = capsys.readouterr().err
    assert "Error detected in BadBackward" in err and "test_function.py" in err


def test_second_backward_into_a_broadcast_first_gradient() -> None:
    # The first .grad may come from an expanded (stride-0) gradient; accumulating into it
    # must not write through the expansion.
    x = leaf(1.0, 2.0)
    (x + 1).sum().backward()
    (x + 1).sum().backward()
    assert_close(x.grad, [2.0, 2.0])


class AddOne_(Function):
    @staticmethod
    def forward(ctx: Any, x: ember.Tensor, scale: float) -> ember.Tensor:
        x.mul_(scale).add_(1)
        ctx.mark_dirty(x)
        ctx.scale = scale
        return x

    @staticmethod
    def backward(ctx: Any, g: ember.Tensor) -> tuple[Any, ...]:
        return g * ctx.scale, None


def test_mark_dirty_on_a_view_rewrites_the_base_history() -> None:
    x = leaf(1.0, 2.0, 3.0)
    base = x * 1
    view = base[1:]
    out = AddOne_.apply(view, 3.0)
    assert out is view
    assert_close(base, [1.0, 7.0, 10.0])
    assert base.grad_fn.name() == "CopySlices"
    (base * ember.tensor([1.0, 10.0, 100.0], dtype=ember.float64)).sum().backward()
    assert_close(x.grad, [1.0, 30.0, 300.0])
    raises(RuntimeError, "AddOne_", lambda: AddOne_.apply(leaf(1.0)[0:1], 2.0), "leaf")


def test_mark_dirty_on_a_view_in_an_unsupported_position() -> None:
    class Second_(Function):
        @staticmethod
        def forward(ctx: Any, other: ember.Tensor, x: ember.Tensor) -> ember.Tensor:
            x.add_(other)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> tuple[Any, ...]:
            return g, g

    view = (leaf(1.0, 2.0) * 1)[:1]
    raises(
        NotImplementedError,
        "Second_",
        lambda: Second_.apply(ember.ones(1, dtype=ember.float64), view),
        "clone() the view",
    )


def test_function_with_complex_output_is_differentiable() -> None:
    class Scale(ember.autograd.Function):
        @staticmethod
        def forward(ctx: Any, z: ember.Tensor) -> ember.Tensor:
            return z * (2 + 1j)

        @staticmethod
        def backward(ctx: Any, g: ember.Tensor) -> ember.Tensor:
            return g * (2 - 1j)  # torch's convention: g * conj(f'(z))

    z = ember.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    out = Scale.apply(z)
    assert out.requires_grad and out.is_complex()
    out.abs().sum().backward()
    w = ember.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    (w * (2 + 1j)).abs().sum().backward()
    assert z.grad is not None and w.grad is not None
    np.testing.assert_allclose(z.grad.numpy(), w.grad.numpy(), rtol=1e-6)
