"""pairwise_distance, cosine_similarity, pdist and normalize against numpy, gradcheck, errors."""

from __future__ import annotations

import numpy as np
import pytest
from layers_helpers import check_grad, close, randn, t

import ember.nn as nn
import ember.nn.functional as F


@pytest.mark.parametrize("p", [1.0, 2.0, 3.0, float("inf")])
def test_pairwise_distance(p: float) -> None:
    a, b = randn(4, 5), randn(4, 5)
    d = np.abs(a - b + 1e-6)
    ref = d.max(1) if p == float("inf") else (d**p).sum(1) ** (1 / p)
    close(F.pairwise_distance(t(a), t(b), p=p), ref)
    close(F.pairwise_distance(t(a), t(b), p=p, keepdim=True), ref[:, None])
    check_grad(lambda x, y: F.pairwise_distance(x, y, p=p), a, b)
    # broadcasting one row against a batch
    close(F.pairwise_distance(t(a), t(b[:1]), p=p).shape, (4,))


def test_cosine_similarity() -> None:
    a, b = randn(3, 4, 5), randn(1, 4, 5)
    na = np.maximum(np.linalg.norm(a, axis=2), 1e-8)
    nb = np.maximum(np.linalg.norm(b, axis=2), 1e-8)
    close(F.cosine_similarity(t(a), t(b), dim=2), (a * b).sum(2) / (na * nb))
    check_grad(lambda x, y: F.cosine_similarity(x, y, dim=1), randn(3, 4), randn(3, 4))
    # a zero vector gives 0, not NaN
    close(F.cosine_similarity(t(np.zeros((1, 3))), t(randn(1, 3))), [0.0])
    with pytest.raises(RuntimeError, match="not broadcastable"):
        F.cosine_similarity(t(randn(3, 4)), t(randn(2, 4)))


@pytest.mark.parametrize("p", [1.0, 2.0, 0.5])
def test_pdist(p: float) -> None:
    x = randn(5, 3)
    i, j = np.triu_indices(5, 1)
    ref = (np.abs(x[i] - x[j]) ** p).sum(1) ** (1 / p)
    close(F.pdist(t(x), p), ref)
    check_grad(lambda v: F.pdist(v, p), x)
    with pytest.raises(RuntimeError, match="pdist only supports 2D tensors, got: 3D"):
        F.pdist(t(randn(2, 2, 2)))


def test_normalize() -> None:
    x = randn(3, 4)
    close(F.normalize(t(x)), x / np.linalg.norm(x, axis=1, keepdims=True))
    close(F.normalize(t(x), p=1, dim=0), x / np.abs(x).sum(0, keepdims=True))
    close(F.normalize(t(np.zeros((2, 2)))), np.zeros((2, 2)))
    check_grad(lambda v: F.normalize(v, dim=1), x)
    out = t(np.zeros((3, 4)))
    assert F.normalize(t(x), out=out) is out


def test_distance_modules() -> None:
    a, b = randn(3, 4), randn(3, 4)
    close(
        nn.PairwiseDistance(p=1.0, keepdim=True)(t(a), t(b)),
        F.pairwise_distance(t(a), t(b), 1.0, keepdim=True).numpy(),
    )
    close(nn.CosineSimilarity(dim=0)(t(a), t(b)), F.cosine_similarity(t(a), t(b), 0).numpy())
    assert repr(nn.PairwiseDistance()) == "PairwiseDistance()"
