"""isin, histogram and histogramdd against numpy; signbit, deg2rad, rad2deg, scalar_tensor."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(-5, 5), max_size=20),
    st.lists(st.integers(-5, 5), max_size=10),
    st.booleans(),
)
def test_isin_matches_numpy(a: list[int], b: list[int], invert: bool) -> None:
    got = ember.isin(ember.tensor(a, dtype=ember.int64), ember.tensor(b, dtype=ember.int64),
                     invert=invert)  # fmt: skip
    np.testing.assert_array_equal(
        got.numpy(), np.isin(np.array(a, dtype=np.int64), b, invert=invert)
    )


def test_isin_scalars_and_promotion() -> None:
    assert ember.isin(ember.tensor([1.0, 2.5]), ember.tensor([2.5])).tolist() == [False, True]
    assert ember.isin(ember.tensor([1, 2]), 2).tolist() == [False, True]
    assert ember.isin(ember.tensor([[1, 2]]), ember.tensor([])).shape == (1, 2)
    with pytest.raises(TypeError):
        ember.isin([1], ember.tensor([1]))


@pytest.mark.parametrize("bins", [1, 4, 7])
@pytest.mark.parametrize("density", [False, True])
def test_histogram_matches_numpy(bins: int, density: bool) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=50)
    w = rng.uniform(size=50)
    h, edges = ember.histogram(ember.from_numpy(x), bins=bins, density=density)
    nh, nedges = np.histogram(x, bins=bins, density=density)
    np.testing.assert_allclose(h.numpy(), nh, rtol=1e-12)
    np.testing.assert_allclose(edges.numpy(), nedges, rtol=1e-12)
    h, _ = ember.histogram(ember.from_numpy(x), bins=bins, range=(-1.0, 1.0),
                           weight=ember.from_numpy(w))  # fmt: skip
    nh, _ = np.histogram(x, bins=bins, range=(-1.0, 1.0), weights=w)
    np.testing.assert_allclose(h.numpy(), nh, rtol=1e-12)


def test_histogram_edges_and_errors() -> None:
    x = ember.tensor([0.0, 1.0, 2.0, 3.0])
    h, e = ember.histogram(x, ember.tensor([0.0, 1.0, 3.0]))
    assert h.tolist() == [1.0, 3.0] and e.tolist() == [0.0, 1.0, 3.0]
    assert ember.histogram(ember.tensor([2.0, 2.0]), bins=2).bin_edges.tolist() == [1.5, 2.0, 2.5]
    with pytest.raises(RuntimeError, match="floating"):
        ember.histogram(ember.tensor([1, 2]), bins=2)
    with pytest.raises(RuntimeError, match="bins"):
        ember.histogram(x, bins=0)
    with pytest.raises(RuntimeError, match="max must be larger"):
        ember.histogram(x, bins=2, range=(3.0, 1.0))


def test_histogramdd_matches_numpy() -> None:
    rng = np.random.default_rng(1)
    pts = rng.uniform(size=(40, 3))
    w = rng.uniform(size=40)
    h, edges = ember.histogramdd(ember.from_numpy(pts), bins=[2, 3, 4], weight=ember.from_numpy(w))
    nh, nedges = np.histogramdd(pts, bins=[2, 3, 4], weights=w)
    np.testing.assert_allclose(h.numpy(), nh, rtol=1e-12)
    for a, b in zip(edges, nedges, strict=True):
        np.testing.assert_allclose(a.numpy(), b, rtol=1e-12)
    h, _ = ember.histogramdd(
        ember.from_numpy(pts), bins=2, range=[0, 0.5, 0, 1, 0, 1], density=True
    )
    nh, _ = np.histogramdd(pts, bins=2, range=[(0, 0.5), (0, 1), (0, 1)], density=True)
    np.testing.assert_allclose(h.numpy(), nh, rtol=1e-12)
    with pytest.raises(RuntimeError, match="bin specs"):
        ember.histogramdd(ember.from_numpy(pts), bins=[2, 2])


def test_signbit_deg2rad_rad2deg_scalar_tensor() -> None:
    x = ember.tensor([-0.0, 0.0, -1.5, 2.0, -math.inf, math.nan])
    np.testing.assert_array_equal(ember.signbit(x).numpy(), np.signbit(x.numpy()))
    for dt in (ember.float16, ember.bfloat16, ember.float64):
        np.testing.assert_array_equal(ember.signbit(x.to(dt)).numpy(), np.signbit(x.numpy()))
    assert ember.signbit(ember.tensor([-1, 0, 2])).tolist() == [True, False, False]
    assert ember.deg2rad(ember.tensor([180])).dtype == ember.float32
    d = ember.tensor([90.0, -45.0], dtype=ember.float64)
    np.testing.assert_allclose(ember.deg2rad(d).numpy(), np.deg2rad([90.0, -45.0]))
    np.testing.assert_allclose(ember.rad2deg(ember.tensor([1.0], dtype=ember.float64)).numpy(),
                               np.rad2deg([1.0]))  # fmt: skip
    s = ember.scalar_tensor(3)
    assert s.shape == () and s.dtype == ember.float32 and s.item() == 3.0
    assert ember.scalar_tensor(2, dtype=ember.int64).dtype == ember.int64
    with pytest.raises(TypeError):
        ember.scalar_tensor("a")  # type: ignore[arg-type]


@pytest.mark.skipif(not ember._C._has_grad_recorder(), reason="needs ember-autograd")
def test_deg2rad_gradient() -> None:
    x = ember.tensor([1.0, 2.0], dtype=ember.float64, requires_grad=True)
    assert ember.autograd.gradcheck(ember.deg2rad, (x,))
    assert ember.autograd.gradcheck(ember.rad2deg, (x,))


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    x = [0.5, 1.5, 1.5, 3.0]
    assert ember.histogram(ember.tensor(x), bins=3).hist.tolist() == torch.histogram(
        torch.tensor(x), bins=3).hist.tolist()  # fmt: skip


def test_a_range_that_is_not_a_pair_is_refused_as_torch_refuses_it() -> None:
    x = ember.tensor([0.5, 1.5])
    with pytest.raises(TypeError, match=r"\[histogram\] range must be a pair"):
        ember.histogram(x, 2, range={})  # was KeyError 0
    with pytest.raises(RuntimeError, match=r"range should have 2 elements, but got 1"):
        ember.histogram(x, 2, range=(1.0,))
    with pytest.raises(TypeError, match=r"\[histogramdd\] range must be a list of floats"):
        ember.histogramdd(x.reshape(2, 1), 2, range={})
    assert ember.histogram(x, 2, range=[0.0, 2.0]).hist.tolist() == [1.0, 1.0]
