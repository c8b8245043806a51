"""Complex input for ember.linalg's LU family (det, inv, solve through cgetrf/zgetrf, ...)
against numpy.linalg: values over batches and layouts, singular matrices, and the ops that
still refuse complex input with a typed error."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember
import ember.linalg as LA
from conftest import VIEW_LAYOUTS, raises, with_layout

COMPLEX = {ember.complex64: np.complex64, ember.complex128: np.complex128}
TOL = {ember.complex64: dict(rtol=2e-4, atol=2e-4), ember.complex128: dict(rtol=1e-10, atol=1e-10)}


def well_conditioned(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    """Random complex square matrices with the diagonal pushed away from singularity."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    n = shape[-1]
    return (a + 3 * n * np.eye(n)).astype(COMPLEX[dtype])


def rand(shape: tuple[int, ...], dtype: Any, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(COMPLEX[dtype])


def tensor(a: np.ndarray, layout: str = "contiguous") -> ember.Tensor:
    return ember.from_numpy(with_layout(a, layout))


def close(actual: ember.Tensor, expected: np.ndarray, dtype: Any) -> None:
    assert actual.dtype == dtype, (actual.dtype, dtype)
    assert tuple(actual.shape) == expected.shape, (tuple(actual.shape), expected.shape)
    np.testing.assert_allclose(actual.numpy(), expected, **TOL[dtype])


@pytest.mark.parametrize("dtype", list(COMPLEX))
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("batch", [(), (3,), (2, 2), (0,)])
def test_det_inv_solve(dtype: Any, layout: str, batch: tuple[int, ...]) -> None:
    a = well_conditioned((*batch, 4, 4), dtype, seed=len(batch))
    b = rand((*batch, 4, 3), dtype)
    close(LA.det(tensor(a, layout)), np.linalg.det(a), dtype)
    close(ember.det(tensor(a, layout)), np.linalg.det(a), dtype)
    close(LA.inv(tensor(a, layout)), np.linalg.inv(a), dtype)
    close(ember.inverse(tensor(a, layout)), np.linalg.inv(a), dtype)
    close(LA.solve(tensor(a, layout), tensor(b, layout)), np.linalg.solve(a, b), dtype)
    # X A = B is A^T X^T = B^T: the transpose, not the conjugate transpose.
    bt = np.swapaxes(b, -1, -2)
    expected = np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), b), -1, -2)
    close(LA.solve(tensor(a, layout), tensor(bt), left=False), expected, dtype)
    vector = b[..., 0]
    close(LA.solve(tensor(a), tensor(vector)), np.linalg.solve(a, vector[..., None])[..., 0], dtype)


def test_large_inverse_by_column_blocks() -> None:
    """One big matrix solves A X = I by column blocks over the pool (the complex getrs path)."""
    previous = ember.get_num_threads()
    ember.set_num_threads(3)
    try:
        a = well_conditioned((150, 150), ember.complex128, 4)
        close(LA.inv(tensor(a)), np.linalg.inv(a), ember.complex128)
    finally:
        ember.set_num_threads(previous)


def test_singular_and_empty() -> None:
    singular = ember.zeros(2, 3, 3, dtype=ember.complex64)
    singular[0] = ember.eye(3, dtype=ember.complex64)
    raises(LA.LinAlgError, "linalg.inv", lambda: LA.inv(singular), "Batch element 1")
    raises(LA.LinAlgError, "linalg.solve", lambda: LA.solve(singular, singular), "singular")
    assert LA.inv_ex(singular).info.tolist() == [0, 1]
    assert LA.det(singular).tolist() == [1 + 0j, 0j]
    empty = ember.zeros(2, 0, 0, dtype=ember.complex128)
    assert LA.det(empty).tolist() == [1 + 0j, 1 + 0j]
    assert tuple(LA.inv(empty).shape) == (2, 0, 0)


def test_errors() -> None:
    a = ember.eye(2, dtype=ember.complex64)
    raises(RuntimeError, "linalg.solve", lambda: LA.solve(a, ember.ones(2, 1)), "same dtype")
    raises(RuntimeError, "linalg.det", lambda: LA.det(ember.ones(2, 3, dtype=ember.complex64)))
    raises(TypeError, "linalg.inv", lambda: LA.inv(ember.ones(2, 2, dtype=ember.int64)), "int64")
    # Not built for complex yet: they keep their typed refusal.
    for fn, op in [(LA.slogdet, "linalg.slogdet"), (LA.cholesky, "linalg.cholesky")]:
        raises(TypeError, op, lambda fn=fn: fn(a), "complex64")
    raises(TypeError, "linalg.lu_factor", lambda: LA.lu_factor(a), "complex64")


@settings(max_examples=30)
@given(
    batch=st.lists(st.integers(0, 3), max_size=2).map(tuple),
    n=st.integers(0, 6),
    k=st.integers(0, 3),
    dtype=st.sampled_from(list(COMPLEX)),
    layout=st.sampled_from(VIEW_LAYOUTS),
)
def test_generated_shapes(batch: tuple[int, ...], n: int, k: int, dtype: Any, layout: str) -> None:
    a = well_conditioned((*batch, n, n), dtype, seed=n)
    b = rand((*batch, n, k), dtype)
    close(LA.inv(tensor(a, layout)), np.linalg.inv(a) if n else a, dtype)
    close(LA.det(tensor(a, layout)), np.linalg.det(a) if n else np.ones(batch, a.dtype), dtype)
    if n:
        close(LA.solve(tensor(a, layout), tensor(b, layout)), np.linalg.solve(a, b), dtype)
