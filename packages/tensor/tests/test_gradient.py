"""gradient (ember/_gradient.py) against numpy.gradient (the same definition), and against
torch 2.13 when it is importable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(3, 6), min_size=1, max_size=3),
    st.sampled_from([1, 2]),
    st.sampled_from(["default", "scalar", "per_dim", "coords"]),
)
def test_gradient_matches_numpy(shape: list[int], edge_order: int, kind: str) -> None:
    rng = np.random.default_rng(sum(shape) + edge_order)
    a = rng.standard_normal(shape)
    coords = [np.cumsum(rng.uniform(0.2, 1.5, n)) for n in shape]
    spacing: object
    if kind == "default":
        spacing, np_args = 1, ()
    elif kind == "scalar":
        spacing, np_args = 0.5, (0.5,)
    elif kind == "per_dim":
        spacing = [0.5 + i for i in range(len(shape))]
        np_args = tuple(spacing)  # type: ignore[arg-type]
    else:
        spacing = [ember.tensor(c) for c in coords]
        np_args = tuple(coords)
    result = ember.gradient(ember.tensor(a), spacing=spacing, edge_order=edge_order)  # type: ignore[arg-type]
    expected = np.gradient(a, *np_args, edge_order=edge_order)
    expected = [expected] if len(shape) == 1 else expected
    assert len(result) == len(shape)
    for r, e in zip(result, expected, strict=True):
        np.testing.assert_allclose(r.numpy(), e, rtol=1e-10, atol=1e-10)


def test_gradient_dims_and_dtypes() -> None:
    a = np.arange(12.0).reshape(3, 4) ** 2
    (only,) = ember.gradient(ember.tensor(a), dim=1)
    np.testing.assert_allclose(only.numpy(), np.gradient(a, axis=1))
    both = ember.gradient(ember.tensor(a), spacing=3.0, dim=(1, 0))
    np.testing.assert_allclose(both[0].numpy(), np.gradient(a, 3.0, axis=1))
    np.testing.assert_allclose(both[1].numpy(), np.gradient(a, 3.0, axis=0))
    (ints,) = ember.gradient(ember.tensor([1, 2, 4]))
    assert ints.dtype == ember.float32 and ints.tolist() == [1.0, 1.5, 2.0]


def test_gradient_bad_input() -> None:
    with pytest.raises(RuntimeError, match=r"\[gradient\] torch.gradient only supports edge_order"):
        ember.gradient(ember.ones(4), edge_order=3)
    with pytest.raises(RuntimeError, match=r"at least edge_order\+1"):
        ember.gradient(ember.ones(1, 3))
    with pytest.raises(RuntimeError, match=r"list of length equal to 'self.dim\(\) = 2'"):
        ember.gradient(ember.ones(2, 3), spacing=[1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match=r"\[gradient\] spacing must be a number or a list"):
        ember.gradient(ember.ones(3, 3), spacing=ember.tensor([1.0, 2.0, 3.0]))  # type: ignore[arg-type]
    with pytest.raises(IndexError, match=r"\[gradient\] Dimension out of range"):
        ember.gradient(ember.ones(3, 3), dim=2)
    with pytest.raises(RuntimeError, match=r"\[gradient\].*1-D with the size"):
        ember.gradient(ember.ones(3), spacing=[ember.tensor([0.0, 1.0])])


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(0).standard_normal((4, 5))
    x = np.array([0.0, 1.0, 3.0, 4.0, 7.0])
    for edge_order in (1, 2):
        got = ember.gradient(
            ember.tensor(a), spacing=[ember.tensor(x)], dim=1, edge_order=edge_order
        )
        want = torch.gradient(
            torch.tensor(a), spacing=[torch.tensor(x)], dim=1, edge_order=edge_order
        )
        np.testing.assert_allclose(got[0].numpy(), want[0].numpy(), rtol=1e-12)
