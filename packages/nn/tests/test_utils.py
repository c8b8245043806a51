"""ember.nn.utils: clipping vs numpy, parameter vectors, parametrizations, fusion, stateless."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember
import ember.nn as nn
from ember.nn.utils import parametrizations as P
from ember.nn.utils import parametrize
from ember.nn.utils.stateless import functional_call


def _params_with_grads(seed: int = 0) -> tuple[list[nn.Parameter], list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    grads = [rng.standard_normal(s).astype(np.float32) for s in [(3, 4), (4,), (2, 2, 2)]]
    params = []
    for g in grads:
        p = nn.Parameter(ember.zeros(*g.shape))
        p.grad = ember.tensor(g)
        params.append(p)
    return params, grads


@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.5, math.inf])
def test_clip_grad_norm_matches_numpy(norm_type: float) -> None:
    params, grads = _params_with_grads()
    flat = np.concatenate([g.ravel() for g in grads])
    expected = (
        np.abs(flat).max()
        if norm_type == math.inf
        else (np.abs(flat) ** norm_type).sum() ** (1 / norm_type)
    )
    total = nn.utils.clip_grad_norm_(params, max_norm=0.5, norm_type=norm_type)
    assert total.item() == pytest.approx(expected, rel=1e-5)
    coef = min(1.0, 0.5 / (expected + 1e-6))
    for p, g in zip(params, grads, strict=True):
        np.testing.assert_allclose(p.grad.numpy(), g * coef, rtol=1e-5)


def test_clip_grad_norm_no_clip_when_small_and_edge_cases() -> None:
    params, grads = _params_with_grads()
    nn.utils.clip_grad_norm_(iter(params), max_norm=1e6, foreach=True)  # a generator works
    for p, g in zip(params, grads, strict=True):
        np.testing.assert_allclose(p.grad.numpy(), g, rtol=1e-6)
    assert nn.utils.clip_grad_norm_([], 1.0).item() == 0.0
    lone = nn.Parameter(ember.ones(2))
    lone.grad = ember.tensor([3.0, 4.0])
    assert nn.utils.clip_grad_norm_(lone, 1.0).item() == pytest.approx(5.0)
    lone.grad = ember.tensor([math.inf, 1.0])
    with pytest.raises(RuntimeError, match=r"The total norm of order 2\.0 for gradients"):
        nn.utils.clip_grad_norm_([lone], 1.0, error_if_nonfinite=True)
    assert nn.utils.get_total_norm([ember.tensor([3.0]), ember.tensor([4.0])]).item() == 5.0


def test_clip_grad_value() -> None:
    params, grads = _params_with_grads(1)
    nn.utils.clip_grad_value_(params, 0.3)
    for p, g in zip(params, grads, strict=True):
        np.testing.assert_allclose(p.grad.numpy(), np.clip(g, -0.3, 0.3))


def test_parameters_vector_round_trip() -> None:
    m = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))
    vec = nn.utils.parameters_to_vector(m.parameters())
    assert vec.shape == (11,)
    expected = np.concatenate([p.detach().numpy().ravel() for p in m.parameters()])
    np.testing.assert_array_equal(vec.detach().numpy(), expected)
    weight = m[0].weight
    nn.utils.vector_to_parameters(ember.arange(11.0), m.parameters())
    assert m[0].weight is weight  # the Parameter objects stay
    np.testing.assert_array_equal(m[0].weight.detach().numpy(), np.arange(6.0).reshape(2, 3))
    assert m[1].bias.item() == 10.0
    with pytest.raises(TypeError, match=r"expected ember\.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0], m.parameters())


class Symmetric(nn.Module):
    def forward(self, x):
        return x.triu() + x.triu(1).transpose(-1, -2)


def test_register_and_remove_parametrization() -> None:
    m = nn.Linear(3, 3)
    parametrize.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear" and isinstance(m, nn.Linear)
    assert parametrize.is_parametrized(m) and parametrize.is_parametrized(m, "weight")
    assert not parametrize.is_parametrized(m, "bias")
    w = m.weight.detach().numpy()
    np.testing.assert_array_equal(w, w.T)
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original"]
    x = ember.randn(2, 3)
    m(x).sum().backward()
    orig = m.parametrizations.weight.original
    assert orig.grad is not None and orig.grad.shape == (3, 3)
    with parametrize.cached():
        assert m.weight is m.weight
    assert parametrize.type_before_parametrizations(m) is nn.Linear
    parametrize.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and isinstance(m.weight, nn.Parameter)
    np.testing.assert_array_equal(m.weight.detach().numpy(), w)
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        parametrize.remove_parametrizations(m, "weight")
    with pytest.raises(ValueError, match="does not have a parameter, a buffer"):
        parametrize.register_parametrization(m, "nope", Symmetric())
    other = nn.Linear(3, 3)
    assert not hasattr(type(other), "parametrizations")  # other instances are untouched


def test_parametrization_right_inverse_and_shape_check() -> None:
    class Double(nn.Module):
        def forward(self, x):
            return 2 * x

        def right_inverse(self, y):
            return y / 2

    m = nn.Linear(2, 2)
    parametrize.register_parametrization(m, "weight", Double())
    m.weight = ember.ones(2, 2)
    np.testing.assert_array_equal(m.parametrizations.weight.original.detach().numpy(), 0.5)
    np.testing.assert_array_equal(m.weight.detach().numpy(), 1.0)

    class Shrink(nn.Module):
        def forward(self, x):
            return x[0]

    with pytest.raises(ValueError, match="may not change the shape"):
        parametrize.register_parametrization(nn.Linear(2, 2), "weight", Shrink())


def test_weight_norm_parametrization() -> None:
    m = P.weight_norm(nn.Linear(4, 3, dtype=ember.float64))
    assert list(m.state_dict()) == [
        "bias",
        "parametrizations.weight.original0",
        "parametrizations.weight.original1",
    ]
    g = m.parametrizations.weight.original0.detach().numpy()
    v = m.parametrizations.weight.original1.detach().numpy()
    np.testing.assert_allclose(g[:, 0], np.linalg.norm(v, axis=1))
    np.testing.assert_allclose(
        m.weight.detach().numpy(), v * g / np.linalg.norm(v, axis=1, keepdims=True)
    )
    # Legacy keys load through the compatibility hook.
    legacy = {
        "weight_g": ember.ones(3, 1, dtype=ember.float64),
        "weight_v": ember.ones(3, 4, dtype=ember.float64),
        "bias": ember.zeros(3, dtype=ember.float64),
    }
    m.load_state_dict(legacy)
    np.testing.assert_allclose(m.weight.detach().numpy(), np.full((3, 4), 0.5))


def test_spectral_norm_normalizes_top_singular_value() -> None:
    m = P.spectral_norm(nn.Linear(6, 5, dtype=ember.float64), n_power_iterations=5)
    assert list(m.state_dict())[-2:] == [
        "parametrizations.weight.0._u",
        "parametrizations.weight.0._v",
    ]
    for _ in range(5):
        w = m.weight.detach().numpy()  # each access in training mode iterates further
    assert np.linalg.svd(w, compute_uv=False)[0] == pytest.approx(1.0, abs=1e-6)
    m.eval()
    u_before = m.parametrizations.weight[0]._u.clone()
    _ = m.weight
    np.testing.assert_array_equal(m.parametrizations.weight[0]._u.numpy(), u_before.numpy())
    with pytest.raises(ValueError, match="n_power_iterations to be positive"):
        P.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)


@pytest.mark.parametrize(
    ("shape", "mapping"),
    [((4, 4), "matrix_exp"), ((3, 5), "matrix_exp"), ((4, 4), "cayley"), ((5, 2), "cayley")],
)
def test_orthogonal_parametrization(shape: tuple[int, int], mapping: str) -> None:
    m = P.orthogonal(nn.Linear(shape[1], shape[0], dtype=ember.float64), orthogonal_map=mapping)
    w = m.weight.detach().numpy()
    gram = w @ w.T if shape[0] <= shape[1] else w.T @ w
    np.testing.assert_allclose(gram, np.eye(min(shape)), atol=1e-8)
    m(ember.randn(2, shape[1], dtype=ember.float64)).sum().backward()
    assert m.parametrizations.weight.original.grad is not None
    with pytest.raises(NotImplementedError, match="householder"):
        P.orthogonal(nn.Linear(2, 3), orthogonal_map="householder")


def test_functional_call() -> None:
    lin = nn.Linear(2, 1)
    w = ember.ones(1, 2, requires_grad=True)
    out = functional_call(lin, {"weight": w, "bias": ember.zeros(1)}, (ember.tensor([[1.0, 2.0]]),))
    assert out.item() == 3.0
    out.sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [[1.0, 2.0]])
    assert isinstance(lin.weight, nn.Parameter) and lin.weight is not w  # restored
    assert (
        functional_call(lin, ({"weight": w}, {"bias": ember.ones(1)}), ember.zeros(1, 2)).item()
        == 1.0
    )
    with pytest.raises(ValueError, match="appeared in multiple dictionaries"):
        functional_call(lin, ({"weight": w}, {"weight": w}), (ember.zeros(1, 2),))
    with pytest.raises(RuntimeError, match="Missing key\\(s\\): 'bias'"):
        functional_call(lin, {"weight": w}, (ember.zeros(1, 2),), strict=True)
    shared = nn.Linear(2, 2)
    tied = nn.Sequential(shared, shared)
    out = functional_call(
        tied, {"0.weight": ember.eye(2), "0.bias": ember.zeros(2)}, (ember.ones(1, 2),)
    )
    np.testing.assert_array_equal(
        out.detach().numpy(), [[1.0, 1.0]]
    )  # both uses see the new weight


class _BatchNormStandIn(nn.Module):
    """The attributes fusion reads from a BatchNorm (torch's names), in eval mode."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.num_features = n
        self.eps = 1e-5
        self.weight = nn.Parameter(ember.randn(n))
        self.bias = nn.Parameter(ember.randn(n))
        self.register_buffer("running_mean", ember.randn(n))
        self.register_buffer("running_var", ember.rand(n) + 0.5)

    def forward(self, x):
        return (x - self.running_mean) / (
            self.running_var + self.eps
        ).sqrt() * self.weight + self.bias


def test_fuse_linear_bn_eval_matches_sequence() -> None:
    lin, bn = nn.Linear(4, 3).eval(), _BatchNormStandIn(3).eval()
    fused = nn.utils.fuse_linear_bn_eval(lin, bn)
    x = ember.randn(5, 4)
    np.testing.assert_allclose(
        fused(x).detach().numpy(), bn(lin(x)).detach().numpy(), rtol=1e-5, atol=1e-5
    )
    assert fused is not lin and isinstance(fused.weight, nn.Parameter)
    with pytest.raises(AssertionError, match="Fusion only for eval"):
        nn.utils.fuse_linear_bn_eval(nn.Linear(4, 3), bn)
    w, b = nn.utils.fuse_conv_bn_weights(
        ember.ones(3, 2, 1, 1), None, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias
    )
    scale = bn.weight.detach().numpy() / np.sqrt(bn.running_var.numpy() + bn.eps)
    np.testing.assert_allclose(w.detach().numpy()[:, 0, 0, 0], scale, rtol=1e-5)
    np.testing.assert_allclose(
        b.detach().numpy(),
        -bn.running_mean.numpy() * scale + bn.bias.detach().numpy(),
        rtol=1e-5,
        atol=1e-6,
    )


def test_legacy_weight_norm_and_skip_init() -> None:
    m = nn.utils.weight_norm(nn.Linear(3, 2))
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight_g", "weight_v"]
    x = ember.randn(4, 3)
    v, g = m.weight_v.detach().numpy(), m.weight_g.detach().numpy()
    expected = (
        x.numpy() @ (v * g / np.linalg.norm(v, axis=1, keepdims=True)).T + m.bias.detach().numpy()
    )
    np.testing.assert_allclose(m(x).detach().numpy(), expected, rtol=1e-5, atol=1e-6)
    nn.utils.remove_weight_norm(m)
    assert sorted(n for n, _ in m.named_parameters()) == ["bias", "weight"]
    with pytest.raises(NotImplementedError, match=r"parametrizations\.spectral_norm"):
        nn.utils.spectral_norm(nn.Linear(2, 2))
    assert nn.utils.skip_init(nn.Linear, 5, 1).weight.shape == (1, 5)
