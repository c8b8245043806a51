"""renorm (ember/_renorm.py) against a numpy definition, and against torch 2.13 when it is
importable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


def _np_renorm(a: np.ndarray, p: float, dim: int, maxnorm: float) -> np.ndarray:
    moved = np.moveaxis(a, dim, 0).reshape(a.shape[dim], -1)
    norms = np.linalg.norm(moved, ord=p, axis=1)
    factor = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    shape = [-1 if i == dim else 1 for i in range(a.ndim)]
    return a * factor.reshape(shape)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(1, 4), min_size=2, max_size=3),
    st.sampled_from([1, 2, 3.5, float("inf")]),
    st.data(),
    st.floats(0, 5),
)
def test_renorm_matches_numpy(
    shape: list[int], p: float, data: st.DataObject, maxnorm: float
) -> None:
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    a = np.random.default_rng(len(shape)).standard_normal(shape) * 3
    expected = _np_renorm(a, p, dim % len(shape), maxnorm)
    np.testing.assert_allclose(
        ember.renorm(ember.tensor(a), p, dim, maxnorm).numpy(), expected, rtol=1e-12
    )
    x = ember.tensor(a)
    assert x.renorm(p, dim, maxnorm).tolist() == ember.renorm(x, p, dim, maxnorm).tolist()
    assert x.renorm_(p, dim, maxnorm) is x
    np.testing.assert_allclose(x.numpy(), expected, rtol=1e-12)


def test_renorm_dtypes() -> None:
    half = ember.renorm(
        ember.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=ember.float16), 2, 0, 5
    )
    assert half.dtype == ember.float16
    np.testing.assert_allclose(half.float().numpy()[1], [2.2793, 2.8496, 3.4180], rtol=1e-3)
    z = ember.renorm(ember.tensor([[3 + 4j]]), 2, 0, 1)
    assert z.dtype == ember.complex64 and np.allclose(z.numpy(), [[0.6 + 0.8j]])


def test_renorm_bad_input() -> None:
    x = ember.ones(2, 3)
    with pytest.raises(RuntimeError, match=r"\[renorm\] non-positive-norm not supported"):
        ember.renorm(x, 0, 0, 5)
    with pytest.raises(RuntimeError, match=r"\[renorm\] expected maxnorm to be >= 0"):
        ember.renorm(x, 2, 0, -5)
    with pytest.raises(IndexError, match=r"\[renorm\] Dimension out of range"):
        ember.renorm(x, 2, 2, 5)
    with pytest.raises(RuntimeError, match=r"\[renorm\] Expected a floating point"):
        ember.renorm(ember.ones(2, 2, dtype=ember.int64), 2, 0, 5)
    with pytest.raises(RuntimeError, match=r"\[renorm\] input needs at least 2 dimensions"):
        ember.renorm(ember.tensor(3.0), 2, 0, 1)
    with pytest.raises(TypeError, match=r"\[renorm_\] argument 'maxnorm' must be a number"):
        x.renorm_(2, 0, "5")  # type: ignore[arg-type]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(1).standard_normal((3, 4, 2)) * 2
    for p, dim, maxnorm in ((2, 0, 1.0), (1, 2, 0.5), (float("inf"), -1, 1.5)):
        np.testing.assert_allclose(
            ember.renorm(ember.tensor(a), p, dim, maxnorm).numpy(),
            torch.renorm(torch.tensor(a), p, dim, maxnorm).numpy(),
            rtol=1e-12,
        )
