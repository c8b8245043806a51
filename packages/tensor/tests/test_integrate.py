"""trapezoid, trapz and cumulative_trapezoid (ember/_integrate.py) against numpy's trapezoid
rule and closed forms, and against torch 2.13 when it is importable."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


def _np_trapezoid(y: np.ndarray, x: np.ndarray | None, dx: float, axis: int) -> np.ndarray:
    widths = np.diff(x, axis=axis) if x is not None else dx
    n = y.shape[axis]
    pairs = np.take(y, range(1, n), axis) + np.take(y, range(n - 1), axis)
    return widths * pairs / 2


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(0, 6), st.sampled_from([0, 1, -1]), st.booleans())
def test_trapezoid_matches_numpy(rows: int, n: int, dim: int, with_x: bool) -> None:
    rng = np.random.default_rng(rows * 10 + n)
    y = rng.standard_normal((rows, n) if dim != 0 else (n, rows))
    axis = dim % 2
    x = np.cumsum(rng.uniform(0.1, 1, y.shape[axis])) if with_x else None
    pieces = _np_trapezoid(
        y, None if x is None else x.reshape([-1 if i == axis else 1 for i in range(2)]), 0.5, axis
    )
    kwargs = {"dim": dim} if with_x else {"dx": 0.5, "dim": dim}
    args = (ember.tensor(y),) + ((ember.tensor(x),) if with_x else ())
    np.testing.assert_allclose(
        ember.trapezoid(*args, **kwargs).numpy(), pieces.sum(axis), atol=1e-12
    )
    np.testing.assert_allclose(ember.trapz(*args, **kwargs).numpy(), pieces.sum(axis), atol=1e-12)
    np.testing.assert_allclose(
        ember.cumulative_trapezoid(*args, **kwargs).numpy(), np.cumsum(pieces, axis), atol=1e-12
    )


def test_closed_forms_and_dtypes() -> None:
    # The rule is exact for straight lines: the integral of 2t + 1 over [0, 3] is 12.
    t = ember.linspace(0, 3, 7, dtype=ember.float64)
    assert ember.trapezoid(2 * t + 1, t).item() == pytest.approx(12.0)
    assert ember.trapezoid(ember.tensor([1, 2, 3])).tolist() == 4.0
    assert ember.trapezoid(ember.tensor([1, 2, 3])).dtype == ember.float32
    assert ember.trapz(ember.tensor([1, 2, 3]), dx=2).tolist() == 8.0
    assert ember.cumulative_trapezoid(ember.tensor([1, 2, 4]), dx=2).tolist() == [3.0, 9.0]
    assert ember.trapezoid(ember.ones(2, 0)).tolist() == [0.0, 0.0]
    assert ember.trapezoid(ember.ones(2, 1)).tolist() == [0.0, 0.0]
    assert ember.cumulative_trapezoid(ember.ones(2, 1)).shape == (2, 0)
    assert ember.trapezoid(
        ember.ones(4, dtype=ember.float64), ember.tensor([0, 1, 2, 4])
    ).dtype == (ember.float64)
    # A full-shape x gives per-row spacings.
    x = ember.ones(3, 4) * ember.arange(4.0)
    assert ember.trapezoid(ember.ones(3, 4), x).tolist() == [3.0, 3.0, 3.0]


def test_bad_input() -> None:
    with pytest.raises(RuntimeError, match=r"\[trapezoid\] There must be one `x` value"):
        ember.trapezoid(ember.ones(3, 4), ember.arange(4.0), dim=0)
    with pytest.raises(IndexError, match=r"\[trapezoid\] Dimension out of range"):
        ember.trapezoid(ember.ones(3, 4), dim=2)
    with pytest.raises(IndexError, match=r"\[trapezoid\] Dimension specified as -1"):
        ember.trapezoid(ember.tensor(1.0))
    with pytest.raises(RuntimeError, match=r"\[trapezoid\] received a bool input"):
        ember.trapezoid(ember.tensor([True, False]))
    with pytest.raises(TypeError, match=r"\[trapezoid\] pass either x or dx"):
        ember.trapezoid(ember.ones(3), ember.ones(3), dx=1.0)
    with pytest.raises(TypeError, match=r"\[cumulative_trapezoid\] argument 'dx'"):
        ember.cumulative_trapezoid(ember.ones(3), dx="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[trapezoid\] argument 'y' must be Tensor"):
        ember.trapezoid([1.0, 2.0])  # type: ignore[arg-type]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    y = np.random.default_rng(0).standard_normal((3, 5))
    x = np.array([0.0, 0.5, 1.5, 2.0, 4.0])
    for name in ("trapezoid", "cumulative_trapezoid"):
        np.testing.assert_allclose(
            getattr(ember, name)(ember.tensor(y), ember.tensor(x)).numpy(),
            getattr(torch, name)(torch.tensor(y), torch.tensor(x)).numpy(),
        )
        np.testing.assert_allclose(
            getattr(ember, name)(ember.tensor(y), dx=0.3, dim=0).numpy(),
            getattr(torch, name)(torch.tensor(y), dx=0.3, dim=0).numpy(),
        )
