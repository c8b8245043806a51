"""Identity, Linear, Bilinear, LazyLinear, Flatten, Unflatten: values vs numpy, gradcheck."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.autograd import gradcheck


def test_linear_values_any_leading_dims() -> None:
    lin = nn.Linear(4, 3)
    x = ember.randn(2, 5, 4)
    w, b = lin.weight.detach().numpy(), lin.bias.detach().numpy()
    np.testing.assert_allclose(lin(x).detach().numpy(), x.numpy() @ w.T + b, rtol=1e-5, atol=1e-6)
    x2 = ember.randn(7, 4)
    np.testing.assert_allclose(lin(x2).detach().numpy(), x2.numpy() @ w.T + b, rtol=1e-5, atol=1e-6)
    x1 = ember.randn(4)
    np.testing.assert_allclose(lin(x1).detach().numpy(), x1.numpy() @ w.T + b, rtol=1e-5, atol=1e-6)
    nobias = nn.Linear(4, 3, bias=False)
    assert nobias.bias is None and list(nobias.state_dict()) == ["weight"]
    assert repr(nobias) == "Linear(in_features=4, out_features=3, bias=False)"
    np.testing.assert_allclose(
        nobias(x2).detach().numpy(), x2.numpy() @ nobias.weight.detach().numpy().T, rtol=1e-5
    )


def test_linear_gradcheck_float64() -> None:
    lin = nn.Linear(3, 2, dtype=ember.float64)
    x = ember.randn(4, 3, dtype=ember.float64, requires_grad=True)
    assert gradcheck(lambda x, w, b: F.linear(x, w, b), (x, lin.weight, lin.bias))
    x3 = ember.randn(2, 2, 3, dtype=ember.float64, requires_grad=True)
    assert gradcheck(lambda x, w: F.linear(x, w), (x3, lin.weight))


def test_bilinear_values_and_gradcheck() -> None:
    m = nn.Bilinear(3, 4, 2, dtype=ember.float64)
    x1 = ember.randn(5, 3, dtype=ember.float64, requires_grad=True)
    x2 = ember.randn(5, 4, dtype=ember.float64, requires_grad=True)
    w, b = m.weight.detach().numpy(), m.bias.detach().numpy()
    expected = np.einsum("ni,oij,nj->no", x1.detach().numpy(), w, x2.detach().numpy()) + b
    np.testing.assert_allclose(m(x1, x2).detach().numpy(), expected, rtol=1e-10)
    assert gradcheck(lambda a, c, w, b: F.bilinear(a, c, w, b), (x1, x2, m.weight, m.bias))
    assert repr(nn.Bilinear(2, 3, 4)) == (
        "Bilinear(in1_features=2, in2_features=3, out_features=4, bias=True)"
    )
    batched = m(x1.detach().reshape(5, 1, 3), x2.detach().reshape(5, 1, 4))
    assert batched.shape == (5, 1, 2)
    with pytest.raises(RuntimeError, match="same batch dimensions"):
        F.bilinear(ember.ones(2, 3), ember.ones(3, 4), ember.ones(2, 3, 4))


def test_default_init_bounds_like_torch() -> None:
    lin = nn.Linear(400, 300)
    bound = 1 / math.sqrt(400)  # kaiming_uniform(a=sqrt(5)) gives exactly this bound
    w = lin.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.98 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound
    assert abs(w.mean()) < 0.01 * bound
    bb = lin.bias.detach().numpy()
    assert np.abs(bb).max() <= bound
    bil = nn.Bilinear(100, 5, 20)
    assert np.abs(bil.weight.detach().numpy()).max() <= 1 / math.sqrt(100)


def test_linear_dtype_device_and_bad_arguments() -> None:
    assert nn.Linear(2, 2, dtype=ember.float64).weight.dtype == ember.float64
    assert nn.Linear(2, 2, device="cpu").weight.device == ember.device("cpu")
    with pytest.raises(ValueError, match="in_features must be a non-negative int"):
        nn.Linear(-1, 2)
    with pytest.raises(RuntimeError, match="expected input with last dimension 2"):
        nn.Linear(2, 2)(ember.ones(()))
    with pytest.raises(RuntimeError, match=r"\[linear\] input's last dimension must match"):
        F.linear(ember.ones(2, 3), ember.ones(4, 2))


def test_lazy_linear() -> None:
    m = nn.LazyLinear(3)
    assert repr(m) == "LazyLinear(in_features=0, out_features=3, bias=True)"
    assert m.has_uninitialized_params()
    out = m(ember.ones(2, 5))
    assert type(m) is nn.Linear and out.shape == (2, 3)
    assert m.weight.shape == (3, 5) and isinstance(m.weight, nn.Parameter)
    assert np.abs(m.weight.detach().numpy()).max() <= 1 / math.sqrt(5)
    # Loading a state_dict materializes the placeholders.
    src = nn.Linear(4, 3)
    lazy = nn.LazyLinear(3)
    lazy.load_state_dict(src.state_dict())
    np.testing.assert_array_equal(lazy.weight.detach().numpy(), src.weight.detach().numpy())
    assert lazy(ember.ones(1, 4)).shape == (1, 3)
    # A dtype conversion before the first call carries over to the materialized parameters.
    converted = nn.LazyLinear(2).double()
    assert converted(ember.ones(1, 3, dtype=ember.float64)).dtype == ember.float64
    assert converted.weight.dtype == ember.float64


def test_identity_flatten_unflatten() -> None:
    x = ember.randn(2, 3, 4)
    assert nn.Identity(1, k=2)(x) is x
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    u = nn.Unflatten(1, (2, 6))
    assert u(ember.ones(3, 12)).shape == (3, 2, 6)
    assert repr(u) == "Unflatten(dim=1, unflattened_size=(2, 6))"
    assert nn.Unflatten(-1, [2, -1])(ember.ones(3, 12)).shape == (3, 2, 6)
    with pytest.raises(TypeError, match="element of type float at pos 1"):
        nn.Unflatten(1, (2, 3.0))
    with pytest.raises(NotImplementedError, match="named"):
        nn.Unflatten("features", (("a", 2),))


@settings(max_examples=40, deadline=None)
@given(
    lead=st.lists(st.integers(0, 3), max_size=3),
    fin=st.integers(1, 6),
    fout=st.integers(1, 5),
    bias=st.booleans(),
    wrong=st.integers(1, 6),
)
def test_linear_any_shape_vs_numpy_and_bad_shapes(
    lead: list[int], fin: int, fout: int, bias: bool, wrong: int
) -> None:
    lin = nn.Linear(fin, fout, bias=bias, dtype=ember.float64)
    x = ember.randn(*lead, fin, dtype=ember.float64)
    expected = x.numpy() @ lin.weight.detach().numpy().T
    if bias:
        expected = expected + lin.bias.detach().numpy()
    out = lin(x)
    assert out.shape == (*lead, fout)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    if wrong != fin:
        with pytest.raises(RuntimeError, match=f"expected input with last dimension {fin}"):
            lin(ember.randn(*lead, wrong, dtype=ember.float64))


def test_native_linear_records_one_node_and_gives_contiguous_weight_grads() -> None:
    # F.linear is one native op (_nn_linear): one graph node, and the weight gradient comes out
    # in the weight's layout (the fused optimizer steps need contiguous gradients).
    lin = nn.Linear(5, 3)
    y = lin(ember.randn(4, 5))
    assert y.grad_fn is not None and y.grad_fn.name() == "NnLinearBackward0"
    assert [e is None for e in y.grad_fn.next_functions] == [True, False, False]
    y.sum().backward()
    assert lin.weight.grad is not None and lin.weight.grad.is_contiguous()
    assert lin.bias.grad is not None and lin.bias.grad.shape == (3,)


@pytest.mark.parametrize(
    ("x_shape", "bias_shape"),
    [((4, 3), (2,)), ((3,), (2,)), ((2, 2, 3), (2,)), ((4, 3), None), ((4, 3), ()), ((0, 3), (2,))],
)
def test_native_linear_gradcheck_and_gradgradcheck(
    x_shape: tuple[int, ...], bias_shape: tuple[int, ...] | None
) -> None:
    from ember.autograd import gradgradcheck
    from ember_core import _C

    x = ember.randn(*x_shape, dtype=ember.float64, requires_grad=True)
    w = ember.randn(2, 3, dtype=ember.float64, requires_grad=True)
    inputs: tuple[ember.Tensor, ...] = (x, w)
    if bias_shape is not None:
        inputs += (ember.randn(bias_shape, dtype=ember.float64, requires_grad=True),)
    assert gradcheck(lambda *a: _C._nn_linear(*a), inputs)
    assert gradgradcheck(lambda *a: _C._nn_linear(*a), inputs)
    expected = x.detach().numpy() @ w.detach().numpy().T
    if bias_shape is not None:
        expected = expected + inputs[2].detach().numpy()
    np.testing.assert_allclose(_C._nn_linear(*inputs).detach().numpy(), expected, rtol=1e-12)


def test_native_linear_bad_arguments_name_the_op() -> None:
    from ember_core import _C

    with pytest.raises(RuntimeError, match=r"\[nn_linear\] input's last dimension must match"):
        _C._nn_linear(ember.ones(2, 4), ember.ones(3, 5))
    with pytest.raises(RuntimeError, match=r"\[nn_linear\] expected a 2-D weight"):
        _C._nn_linear(ember.ones(2, 4), ember.ones(4))
    with pytest.raises(RuntimeError, match=r"\[nn_linear\] expected a bias of shape \[3\]"):
        _C._nn_linear(ember.ones(2, 4), ember.ones(3, 4), ember.ones(2))
    with pytest.raises(RuntimeError, match=r"\[nn_linear\] expected an input of at least 1"):
        _C._nn_linear(ember.ones(()), ember.ones(3, 4))
    with pytest.raises(TypeError, match="nn_linear"):
        _C._nn_linear("x", ember.ones(3, 4))


def test_linear_under_autocast_runs_in_bfloat16() -> None:
    lin = nn.Linear(4, 3)
    with ember.autocast(device_type="cpu", dtype=ember.bfloat16):
        y = lin(ember.randn(2, 4))
    assert y.dtype == ember.bfloat16
    y.float().sum().backward()
    assert lin.weight.grad is not None and lin.weight.grad.dtype == ember.float32
