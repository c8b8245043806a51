"""ember.cosine_similarity, ember.pairwise_distance and ember.pdist: torch's top-level names for
nn.functional's distances are the same functions (loaded from ember-nn on first use)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
import ember.nn.functional as F


def test_same_functions_as_nn_functional() -> None:
    for name in ("cosine_similarity", "pairwise_distance", "pdist"):
        assert getattr(ember, name) is getattr(F, name)


def test_values_against_numpy() -> None:
    a = np.random.default_rng(0).standard_normal((4, 3))
    b = np.random.default_rng(1).standard_normal((4, 3))
    cos = (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    np.testing.assert_allclose(
        ember.cosine_similarity(ember.tensor(a), ember.tensor(b)).numpy(), cos
    )
    np.testing.assert_allclose(
        ember.pairwise_distance(ember.tensor(a), ember.tensor(b)).numpy(),
        np.linalg.norm(a - b + 1e-6, axis=1),
    )
    rows = [np.linalg.norm(a[i] - a[j]) for i in range(4) for j in range(i + 1, 4)]
    np.testing.assert_allclose(ember.pdist(ember.tensor(a)).numpy(), rows)


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(2).standard_normal((5, 3))
    np.testing.assert_allclose(
        ember.pdist(ember.tensor(a), 1.5).numpy(), torch.pdist(torch.tensor(a), 1.5).numpy()
    )
