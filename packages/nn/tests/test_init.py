"""ember.nn.init: statistics of big draws vs closed forms, exact fills, errors (torch's texts)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import ember
import ember.nn as nn
from ember.nn import init


def _np(t: ember.Tensor) -> np.ndarray:
    return t.detach().numpy()


def test_calculate_gain() -> None:
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == pytest.approx(5 / 3)
    assert init.calculate_gain("relu") == pytest.approx(math.sqrt(2))
    assert init.calculate_gain("leaky_relu") == pytest.approx(math.sqrt(2 / (1 + 0.01**2)))
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        init.calculate_gain("leaky_relu", True)


def test_uniform_normal_constant() -> None:
    t = init.uniform_(ember.empty(200_000), -2.0, 3.0)
    a = _np(t)
    assert a.min() >= -2 and a.max() <= 3
    assert abs(a.mean() - 0.5) < 0.02 and abs(a.std() - 5 / math.sqrt(12)) < 0.02
    n = _np(init.normal_(ember.empty(200_000), 1.0, 2.0))
    assert abs(n.mean() - 1.0) < 0.03 and abs(n.std() - 2.0) < 0.03
    assert _np(init.constant_(ember.empty(3), 0.25)).tolist() == [0.25] * 3
    assert _np(init.ones_(ember.empty(2))).tolist() == [1.0, 1.0]
    assert _np(init.zeros_(ember.ones(2))).tolist() == [0.0, 0.0]


def test_trunc_normal_matches_truncated_moments() -> None:
    a, b = -1.0, 2.0
    x = _np(init.trunc_normal_(ember.empty(200_000, dtype=ember.float64), 0.0, 1.0, a, b))
    assert x.min() >= a and x.max() <= b

    def pdf(v: float) -> float:
        return math.exp(-v * v / 2) / math.sqrt(2 * math.pi)

    def cdf(v: float) -> float:
        return (1 + math.erf(v / math.sqrt(2))) / 2

    z = cdf(b) - cdf(a)
    mean = (pdf(a) - pdf(b)) / z
    var = 1 + (a * pdf(a) - b * pdf(b)) / z - mean**2
    assert abs(x.mean() - mean) < 0.01 and abs(x.std() - math.sqrt(var)) < 0.01
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        init.trunc_normal_(ember.empty(10), mean=10.0)


def test_xavier_and_kaiming_statistics() -> None:
    w = ember.empty(500, 400)
    fan_in, fan_out = 400, 500
    bound = math.sqrt(6 / (fan_in + fan_out))
    x = _np(init.xavier_uniform_(w, gain=2.0))
    assert np.abs(x).max() <= 2 * bound and abs(x.std() - 2 * bound / math.sqrt(3)) < 0.01 * bound
    x = _np(init.xavier_normal_(w))
    assert abs(x.std() - math.sqrt(2 / (fan_in + fan_out))) < 0.002
    x = _np(init.kaiming_uniform_(w, mode="fan_in", nonlinearity="relu"))
    kb = math.sqrt(2) * math.sqrt(3 / fan_in)
    assert np.abs(x).max() <= kb and np.abs(x).max() > 0.99 * kb
    x = _np(init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu"))
    assert abs(x.std() - math.sqrt(2 / fan_out)) < 0.002
    conv = ember.empty(16, 8, 3, 3)  # fans include the receptive field
    x = _np(init.kaiming_uniform_(conv, a=math.sqrt(5)))
    assert np.abs(x).max() <= 1 / math.sqrt(8 * 9)
    with pytest.raises(ValueError, match="Mode fan_avg not supported, please use one of"):
        init.kaiming_uniform_(w, mode="fan_avg")
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.xavier_uniform_(ember.empty(3))
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(ember.empty(0, 3))


def test_eye_dirac_orthogonal_sparse() -> None:
    np.testing.assert_array_equal(_np(init.eye_(ember.empty(2, 3))), np.eye(2, 3))
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(ember.empty(2, 2, 2))
    d = _np(init.dirac_(ember.empty(4, 2, 3, 3), groups=2))
    assert d.sum() == 4 and d[0, 0, 1, 1] == 1 and d[1, 1, 1, 1] == 1 and d[2, 0, 1, 1] == 1
    with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
        init.dirac_(ember.empty(3, 2, 3), groups=2)
    for shape in [(4, 6), (6, 4), (3, 2, 2)]:
        q = _np(init.orthogonal_(ember.empty(*shape, dtype=ember.float64), gain=2.0))
        flat = q.reshape(shape[0], -1)
        gram = flat @ flat.T if flat.shape[0] <= flat.shape[1] else flat.T @ flat
        np.testing.assert_allclose(gram, 4 * np.eye(min(flat.shape)), atol=1e-10)
    s = _np(init.sparse_(ember.empty(10, 4), sparsity=0.3))
    assert [(s[:, c] == 0).sum() for c in range(4)] == [3, 3, 3, 3]


def test_generator_makes_draws_reproducible_and_no_grad() -> None:
    g1, g2 = ember.Generator(), ember.Generator()
    g1.manual_seed(5)
    g2.manual_seed(5)
    a = init.kaiming_uniform_(ember.empty(3, 4), generator=g1)
    b = init.kaiming_uniform_(ember.empty(3, 4), generator=g2)
    np.testing.assert_array_equal(_np(a), _np(b))
    p = nn.Parameter(ember.empty(3, 3))
    init.normal_(p)  # in place on a leaf that requires grad: allowed (no_grad inside)
    assert p.is_leaf and p.grad_fn is None
    with pytest.warns(FutureWarning, match="deprecated"):
        init.uniform(ember.empty(2))
    with pytest.raises(TypeError, match="expected a Tensor"):
        init.uniform_([1.0])
