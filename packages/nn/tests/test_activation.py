"""Activation functions and modules against numpy formulas, gradcheck and torch's errors."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from layers_helpers import away_from, check_grad, close, randn, t
from scipy import special

import ember
import ember.nn as nn
import ember.nn.functional as F

SELU_A = 1.6732632423543772848170429916717
SELU_S = 1.0507009873554804934193349852946


def np_softplus(x: np.ndarray, beta: float = 1.0, threshold: float = 20.0) -> np.ndarray:
    return np.where(
        x * beta > threshold, x, np.log1p(np.exp(np.minimum(x * beta, threshold))) / beta
    )


# name -> (ember function, numpy reference, kinks to keep finite differences away from)
CASES: dict[
    str, tuple[Callable[[Any], Any], Callable[[np.ndarray], np.ndarray], tuple[float, ...]]
] = {
    "relu": (F.relu, lambda x: np.maximum(x, 0), (0.0,)),
    "relu6": (F.relu6, lambda x: np.clip(x, 0, 6), (0.0, 6.0)),
    "elu": (lambda x: F.elu(x, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)), (0.0,)),
    "selu": (F.selu, lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(x)), (0.0,)),
    "celu": (
        lambda x: F.celu(x, 1.3),
        lambda x: np.maximum(x, 0) + np.minimum(0, 1.3 * np.expm1(x / 1.3)),
        (0.0,),
    ),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x), (0.0,)),
    "rrelu_eval": (F.rrelu, lambda x: np.where(x >= 0, x, x * (1 / 8 + 1 / 3) / 2), (0.0,)),
    "gelu": (F.gelu, lambda x: x * 0.5 * (1 + special.erf(x / math.sqrt(2))), ()),
    "gelu_tanh": (
        lambda x: F.gelu(x, approximate="tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
        (),
    ),
    "logsigmoid": (F.logsigmoid, lambda x: -np.logaddexp(0, -x), ()),
    "hardshrink": (
        lambda x: F.hardshrink(x, 0.3),
        lambda x: np.where(np.abs(x) > 0.3, x, 0),
        (-0.3, 0.3),
    ),
    "softshrink": (
        lambda x: F.softshrink(x, 0.4),
        lambda x: np.where(x > 0.4, x - 0.4, np.where(x < -0.4, x + 0.4, 0)),
        (-0.4, 0.4),
    ),
    "tanhshrink": (F.tanhshrink, lambda x: x - np.tanh(x), ()),
    "softsign": (F.softsign, lambda x: x / (1 + np.abs(x)), ()),
    "softplus": (
        lambda x: F.softplus(x, beta=2, threshold=3),
        lambda x: np_softplus(x, 2, 3),
        (1.5,),
    ),
    "hardsigmoid": (F.hardsigmoid, lambda x: np.clip(x / 6 + 0.5, 0, 1), (-3.0, 3.0)),
    "hardswish": (F.hardswish, lambda x: x * np.clip(x + 3, 0, 6) / 6, (-3.0, 3.0)),
    "silu": (F.silu, lambda x: x / (1 + np.exp(-x)), ()),
    "mish": (F.mish, lambda x: x * np.tanh(np.log1p(np.exp(x))), ()),
    "sigmoid": (F.sigmoid, lambda x: 1 / (1 + np.exp(-x)), ()),
    "tanh": (F.tanh, np.tanh, ()),
    "threshold": (
        lambda x: F.threshold(x, 0.1, 20.0),
        lambda x: np.where(x > 0.1, x, 20.0),
        (0.1,),
    ),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 1.5), lambda x: np.clip(x, -0.5, 1.5), (-0.5, 1.5)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_numpy(name: str) -> None:
    fn, ref, _ = CASES[name]
    x = randn(4, 7, scale=4.0)
    close(fn(t(x)), ref(x))


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradcheck(name: str) -> None:
    fn, _, kinks = CASES[name]
    x = away_from(randn(3, 4, scale=4.0), kinks)
    check_grad(fn, x)


def test_large_inputs_give_finite_gradients() -> None:
    # The overflowing branch of softplus/elu/logsigmoid must not leak NaN into the gradient.
    for fn in (F.softplus, F.elu, F.logsigmoid, F.mish, F.celu, F.selu):
        x = t(np.array([-800.0, -50.0, 0.5, 50.0, 800.0]), requires_grad=True)
        fn(x).sum().backward()
        assert np.isfinite(x.grad.numpy()).all(), fn


@pytest.mark.parametrize(
    ("fn", "inplace_fn"),
    [
        (F.relu, F.relu_),
        (F.elu, F.elu_),
        (F.selu, F.selu_),
        (F.celu, F.celu_),
        (F.leaky_relu, F.leaky_relu_),
        (F.hardtanh, F.hardtanh_),
        (lambda x: F.threshold(x, 0.2, -1.0), lambda x: F.threshold_(x, 0.2, -1.0)),
        (F.rrelu, F.rrelu_),
    ],
)
def test_inplace_variants_write_into_input(
    fn: Callable[..., Any], inplace_fn: Callable[..., Any]
) -> None:
    x = randn(10)
    expected = fn(t(x)).numpy()
    a = t(x)
    out = inplace_fn(a)
    assert out is a
    close(a, expected)


@pytest.mark.parametrize("fn", [F.relu, F.hardswish, F.silu, F.mish, F.hardsigmoid, F.relu6])
def test_inplace_keyword_on_non_leaf_records_gradient(fn: Callable[..., Any]) -> None:
    x = t(away_from(randn(6, scale=3.0), (0.0, -3.0, 3.0)), requires_grad=True)
    ref = t(x.detach().numpy(), requires_grad=True)
    y = x * 1.0
    out = fn(y, inplace=True)
    assert out is y
    out.sum().backward()
    fn(ref * 1.0).sum().backward()
    close(x.grad, ref.grad.numpy())


def test_prelu_per_channel_and_shared() -> None:
    x = randn(2, 3, 4)
    w = np.array([0.1, 0.2, 0.3])
    close(F.prelu(t(x), t(w)), np.where(x > 0, x, x * w[None, :, None]))
    close(F.prelu(t(x), t(w[:1])), np.where(x > 0, x, x * 0.1))
    check_grad(F.prelu, away_from(x, (0.0,)), w)
    with pytest.raises(RuntimeError, match="Mismatch of parameter numbers and input channel size"):
        F.prelu(t(x), t(np.ones(4)))


def test_rrelu_training_draws_slopes_in_range() -> None:
    x = t(-np.ones(20000))
    y = F.rrelu(x, 0.1, 0.3, training=True).numpy()
    slopes = -y
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3
    assert abs(slopes.mean() - 0.2) < 0.005
    assert len(np.unique(slopes)) > 1000
    with pytest.raises(RuntimeError, match="Lower bound"):
        F.rrelu(x, 0.5, 0.1)


def test_glu() -> None:
    x = randn(2, 6)
    a, b = x[:, :3], x[:, 3:]
    close(F.glu(t(x)), a / (1 + np.exp(-b)))
    check_grad(lambda v: F.glu(v, 1), x)
    with pytest.raises(
        RuntimeError, match="Halving dimension must be even, but dimension 0 is size 3"
    ):
        F.glu(t(randn(3, 4)), 0)


@pytest.mark.parametrize("fn_name", ["softmax", "log_softmax", "softmin"])
def test_softmax_family(fn_name: str) -> None:
    fn = getattr(F, fn_name)
    x = randn(3, 4, 5)
    e = np.exp(x - x.max(1, keepdims=True))
    sm = e / e.sum(1, keepdims=True)
    if fn_name == "softmin":
        e = np.exp(-x + x.min(1, keepdims=True))
        sm = e / e.sum(1, keepdims=True)
    ref = np.log(sm) if fn_name == "log_softmax" else sm
    close(fn(t(x), dim=1), ref)
    check_grad(lambda v: fn(v, dim=1), x)
    assert fn(t(x), 1, dtype=ember.float32).dtype == ember.float32


def test_softmax_implicit_dim_warns_like_torch() -> None:
    x = t(randn(2, 3))
    with pytest.warns(
        UserWarning, match="Implicit dimension choice for softmax has been deprecated"
    ):
        y = F.softmax(x)
    close(y.sum(1), np.ones(2))


def test_bad_arguments() -> None:
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        F.gelu(t(randn(2)), approximate="fast")
    with pytest.raises(RuntimeError, match="lambda must be greater or equal to 0"):
        F.softshrink(t(randn(2)), -1.0)
    with pytest.raises(TypeError, match="relu"):
        F.relu([1.0, 2.0])  # type: ignore[arg-type]


def test_gumbel_softmax() -> None:
    ember.manual_seed(0)
    logits = t(randn(64, 5), requires_grad=True)
    soft = F.gumbel_softmax(logits, tau=0.5)
    close(soft.sum(-1), np.ones(64))
    hard = F.gumbel_softmax(logits, hard=True)
    h = hard.detach().numpy()
    assert set(np.unique(h)) <= {0.0, 1.0} and (h.sum(-1) == 1).all()
    hard.sum().backward()  # straight-through: gradient of the soft sample reaches the logits
    assert logits.grad is not None


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    x = randn(5, 6, scale=3.0)
    pairs = {
        "gelu": {"approximate": "tanh"},
        "softplus": {"beta": 0.5, "threshold": 2.0},
        "elu": {"alpha": 0.3},
        "hardswish": {},
        "mish": {},
        "logsigmoid": {},
    }
    for name, kw in pairs.items():
        ours = getattr(F, name)(t(x), **kw).numpy()
        theirs = getattr(torch.nn.functional, name)(torch.from_numpy(x), **kw).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)


def test_float32_matches_float64() -> None:
    x = randn(100)
    for name in ("gelu", "silu", "mish", "softplus", "elu"):
        fn = getattr(F, name)
        got = fn(t(x.astype(np.float32))).numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ref = fn(t(x)).numpy()
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)


# --- modules -----------------------------------------------------------------------------------

MODULES = [
    (nn.ReLU(), F.relu),
    (nn.ReLU6(), F.relu6),
    (nn.ELU(0.5), lambda x: F.elu(x, 0.5)),
    (nn.SELU(), F.selu),
    (nn.CELU(1.5), lambda x: F.celu(x, 1.5)),
    (nn.GELU("tanh"), lambda x: F.gelu(x, approximate="tanh")),
    (nn.SiLU(), F.silu),
    (nn.Mish(), F.mish),
    (nn.Sigmoid(), F.sigmoid),
    (nn.Tanh(), F.tanh),
    (nn.Hardtanh(-2.0, 2.0), lambda x: F.hardtanh(x, -2.0, 2.0)),
    (nn.Hardsigmoid(), F.hardsigmoid),
    (nn.Hardswish(), F.hardswish),
    (nn.Softplus(2.0, 5.0), lambda x: F.softplus(x, 2.0, 5.0)),
    (nn.Softsign(), F.softsign),
    (nn.Softshrink(0.3), lambda x: F.softshrink(x, 0.3)),
    (nn.Hardshrink(0.3), lambda x: F.hardshrink(x, 0.3)),
    (nn.Tanhshrink(), F.tanhshrink),
    (nn.LogSigmoid(), F.logsigmoid),
    (nn.Threshold(0.2, -3.0), lambda x: F.threshold(x, 0.2, -3.0)),
    (nn.LeakyReLU(0.3), lambda x: F.leaky_relu(x, 0.3)),
    (nn.GLU(1), lambda x: F.glu(x, 1)),
    (nn.Softmax(1), lambda x: F.softmax(x, 1)),
    (nn.Softmin(0), lambda x: F.softmin(x, 0)),
    (nn.LogSoftmax(-1), lambda x: F.log_softmax(x, -1)),
]


@pytest.mark.parametrize(("module", "fn"), MODULES, ids=lambda m: type(m).__name__)
def test_modules_match_functional(module: Any, fn: Callable[[Any], Any]) -> None:
    x = t(randn(4, 6, scale=3.0))
    close(module(x), fn(x).numpy())
    assert list(module.state_dict()) == []


def test_module_reprs_match_torch() -> None:
    expected = {
        "ReLU(inplace=True)": nn.ReLU(True),
        "GELU(approximate='none')": nn.GELU(),
        "Hardshrink(0.5)": nn.Hardshrink(),
        "Threshold(threshold=0.1, value=2)": nn.Threshold(0.1, 2),
        "ELU(alpha=1.0)": nn.ELU(),
        "Softplus(beta=1.0, threshold=20.0)": nn.Softplus(),
        "LeakyReLU(negative_slope=0.01)": nn.LeakyReLU(),
        "RReLU(lower=0.125, upper=0.3333333333333333)": nn.RReLU(),
        "Hardtanh(min_val=-1.0, max_val=1.0)": nn.Hardtanh(),
        "ReLU6()": nn.ReLU6(),
        "GLU(dim=-1)": nn.GLU(),
        "Softmax(dim=1)": nn.Softmax(1),
        "PReLU(num_parameters=1)": nn.PReLU(),
    }
    for text, module in expected.items():
        assert repr(module) == text


def test_prelu_module_parameter() -> None:
    m = nn.PReLU(3, init=0.1)
    assert list(m.state_dict()) == ["weight"]
    close(m.weight, np.full(3, 0.1), rtol=1e-6)
    x = t(randn(2, 3, 4))
    y = m(x)
    y.sum().backward()
    xn = x.numpy()
    close(m.weight.grad, np.where(xn > 0, 0, xn).sum((0, 2)), rtol=1e-5)


def test_rrelu_module_train_eval() -> None:
    m = nn.RReLU(0.1, 0.3)
    x = t(-np.ones(1000))
    train = m(x).numpy()
    assert len(np.unique(train)) > 100
    m.eval()
    close(m(x), np.full(1000, -0.2))


def test_softmax2d() -> None:
    x = randn(2, 3, 4, 4)
    close(nn.Softmax2d()(t(x)).sum(1), np.ones((2, 4, 4)))
    close(nn.Softmax2d()(t(x[0])).sum(0), np.ones((4, 4)))
    with pytest.raises(ValueError, match="Softmax2d: expected input to be 3D or 4D"):
        nn.Softmax2d()(t(randn(2, 3)))
