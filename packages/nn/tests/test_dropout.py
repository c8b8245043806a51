"""Dropout functions: statistics of the mask, scaling, train/eval, channel-wise masks, errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from layers_helpers import randn, t

import ember
import ember.nn as nn
import ember.nn.functional as F


@pytest.mark.parametrize("p", [0.2, 0.5, 0.8])
def test_dropout_fraction_and_scale(p: float) -> None:
    ember.manual_seed(0)
    x = ember.ones(200000, dtype=ember.float64)
    y = F.dropout(x, p).numpy()
    zero = (y == 0).mean()
    assert abs(zero - p) < 0.01
    np.testing.assert_allclose(y[y != 0], 1.0 / (1.0 - p))
    assert abs(y.mean() - 1.0) < 0.02  # expectation preserved


def test_dropout_eval_and_edge_probabilities() -> None:
    x = t(randn(5, 4))
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    np.testing.assert_array_equal(F.dropout(x, 1.0).numpy(), np.zeros((5, 4)))
    for bad in (-0.1, 1.5):
        with pytest.raises(
            ValueError, match=f"dropout probability has to be between 0 and 1, but got {bad}"
        ):
            F.dropout(x, bad)


def test_dropout_is_reproducible_with_seed() -> None:
    x = ember.ones(1000)
    ember.manual_seed(7)
    a = F.dropout(x, 0.3).numpy()
    ember.manual_seed(7)
    b = F.dropout(x, 0.3).numpy()
    np.testing.assert_array_equal(a, b)


def test_dropout_gradient_is_the_mask() -> None:
    ember.manual_seed(1)
    x = t(randn(1000), requires_grad=True)
    y = F.dropout(x, 0.4)
    y.sum().backward()
    mask = (y.detach().numpy() != 0) / 0.6
    np.testing.assert_allclose(x.grad.numpy(), mask)


def test_dropout_inplace() -> None:
    ember.manual_seed(2)
    x = ember.ones(100)
    out = F.dropout(x, 0.5, inplace=True)
    assert out is x
    assert set(np.unique(x.numpy())) <= {0.0, 2.0}


@pytest.mark.parametrize(
    ("fn", "shape", "channel_axes"),
    [
        (F.dropout1d, (8, 16, 5), 2),
        (F.dropout1d, (16, 5), 1),
        (F.dropout2d, (8, 16, 3, 3), 2),
        (F.dropout3d, (8, 16, 2, 2, 2), 2),
        (F.dropout3d, (16, 2, 2, 2), 1),
    ],
)
def test_channel_dropout_zeroes_whole_channels(
    fn: Callable[..., Any], shape: tuple[int, ...], channel_axes: int
) -> None:
    ember.manual_seed(3)
    y = fn(ember.ones(shape, dtype=ember.float64), 0.5).numpy()
    flat = y.reshape(int(np.prod(shape[:channel_axes])), -1)
    # every channel is all zeros or all 2.0
    assert ((flat == 0).all(1) | (flat == 2.0).all(1)).all()
    assert 0.2 < (flat[:, 0] == 0).mean() < 0.8


def test_channel_dropout_dim_checks() -> None:
    with pytest.raises(
        RuntimeError, match="dropout1d: Expected 2D or 3D input, but received a 4D input"
    ):
        F.dropout1d(ember.ones(2, 2, 2, 2))
    with pytest.warns(UserWarning, match="dropout2d: Received a 2-D input to dropout2d"):
        F.dropout2d(ember.ones(2, 2))
    with pytest.warns(UserWarning, match="Received a 3D input to dropout2d"):
        F.dropout2d(ember.ones(2, 2, 2))
    with pytest.warns(UserWarning, match="dropout3d: Received a 3-D input"):
        F.dropout3d(ember.ones(2, 2, 2), training=False)


def test_alpha_dropout_keeps_mean_and_variance() -> None:
    ember.manual_seed(4)
    x = ember.randn(400000, dtype=ember.float64)
    y = F.alpha_dropout(x, 0.3, training=True).numpy()
    assert abs(y.mean()) < 0.01
    assert abs(y.std() - 1.0) < 0.01
    # dropped units take one value: a * alpha' + b
    alpha = -1.7580993408473766
    a = 1.0 / np.sqrt((alpha**2 * 0.3 + 1) * 0.7)
    b = -a * alpha * 0.3
    dropped = np.isclose(y, a * alpha + b)
    assert abs(dropped.mean() - 0.3) < 0.01
    assert F.alpha_dropout(t(randn(3)), 0.3) is not None
    x2 = t(randn(3))
    assert F.alpha_dropout(x2, 0.3, training=False) is x2


def test_feature_alpha_dropout_is_per_channel() -> None:
    ember.manual_seed(5)
    y = F.feature_alpha_dropout(
        ember.zeros(64, 8, 4, dtype=ember.float64), 0.5, training=True
    ).numpy()
    assert (np.ptp(y, axis=2) == 0).all()
    assert len(np.unique(y)) == 2


def test_dropout_float32_no_warnings() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = F.dropout(ember.ones(10), 0.5)
    assert y.dtype == ember.float32


def test_dropout_modules_train_and_eval() -> None:
    shapes = {
        nn.Dropout: (4, 8),
        nn.Dropout1d: (4, 8, 3),
        nn.Dropout2d: (4, 8, 3, 3),
        nn.Dropout3d: (4, 8, 2, 2, 2),
        nn.AlphaDropout: (4, 8),
        nn.FeatureAlphaDropout: (4, 8, 3),
    }
    for cls, shape in shapes.items():
        m = cls(0.5)
        assert repr(m) == f"{cls.__name__}(p=0.5, inplace=False)"
        x = ember.ones(shape)
        assert m(x).shape == x.shape
        m.eval()
        np.testing.assert_array_equal(m(x).numpy(), x.numpy())
    m = nn.Dropout(0.5)
    ember.manual_seed(0)
    y = m(ember.ones(100)).numpy()
    assert set(np.unique(y)) == {0.0, 2.0}
    with pytest.raises(ValueError, match=r"between 0 and 1, but got 1\.5"):
        nn.Dropout(1.5)
