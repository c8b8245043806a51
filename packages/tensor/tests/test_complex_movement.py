"""Complex tensors through the ops that move elements (indexing, gather/scatter, masks) and
add/sub with a scale: every element width, checked against numpy on the same values.

complex128 elements are 16 bytes, wider than any real dtype: the raw element copies of the
index kernels must move all of them (a regression test for imaginary parts lost or garbage).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember

DTYPES = [(ember.complex64, np.complex64), (ember.complex128, np.complex128)]


def values(n: int, np_dtype: type, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np_dtype)


@pytest.mark.parametrize(("dtype", "np_dtype"), DTYPES)
@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 40), data=st.data())
def test_gathers_keep_both_parts(
    dtype: ember.dtype, np_dtype: type, n: int, data: st.DataObject
) -> None:
    a = values(n, np_dtype, seed=n)
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=30)))
    x, i = ember.tensor(a, dtype=dtype), ember.tensor(idx)
    mask = a.real > 0
    np.testing.assert_array_equal(x[i].numpy(), a[idx])
    np.testing.assert_array_equal(x.index_select(0, i).numpy(), a[idx])
    np.testing.assert_array_equal(x.gather(0, i).numpy(), a[idx])
    np.testing.assert_array_equal(x.take(i).numpy(), a[idx])
    np.testing.assert_array_equal(x[ember.tensor(mask)].numpy(), a[mask])
    np.testing.assert_array_equal(ember.masked_select(x, ember.tensor(mask)).numpy(), a[mask])


@pytest.mark.parametrize(("dtype", "np_dtype"), DTYPES)
def test_puts_keep_both_parts(dtype: ember.dtype, np_dtype: type) -> None:
    a = values(6, np_dtype)
    v = values(3, np_dtype, seed=1)
    idx = np.array([4, 0, 2])
    expected = np.zeros(6, np_dtype)
    expected[idx] = v
    y = ember.zeros(6, dtype=dtype)
    y[ember.tensor(idx)] = ember.tensor(v, dtype=dtype)
    np.testing.assert_array_equal(y.numpy(), expected)
    z = ember.zeros(6, dtype=dtype).index_put_((ember.tensor(idx),), ember.tensor(v, dtype=dtype))
    np.testing.assert_array_equal(z.numpy(), expected)
    s = ember.zeros(6, dtype=dtype).scatter(0, ember.tensor(idx), ember.tensor(v, dtype=dtype))
    np.testing.assert_array_equal(s.numpy(), expected)
    x = ember.tensor(a, dtype=dtype)
    mask = a.real > 0
    src = ember.tensor(np.resize(v, 6), dtype=dtype)
    got = x.masked_scatter(ember.tensor(mask), src).numpy()
    ref = a.copy()
    ref[mask] = np.resize(v, 6)[: mask.sum()]
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize(("dtype", "np_dtype"), DTYPES)
@pytest.mark.parametrize("alpha", [2.5, -1, 2j, 1.5 - 0.5j])
def test_add_and_sub_scale_complex_values(
    dtype: ember.dtype, np_dtype: type, alpha: complex
) -> None:
    a, b = values(5, np_dtype), values(5, np_dtype, seed=2)
    x, y = ember.tensor(a, dtype=dtype), ember.tensor(b, dtype=dtype)
    tol = 1e-6 if dtype == ember.complex64 else 1e-12
    np.testing.assert_allclose(ember.add(x, y, alpha=alpha).numpy(), a + alpha * b, rtol=tol)
    np.testing.assert_allclose(ember.sub(x, y, alpha=alpha).numpy(), a - alpha * b, rtol=tol)
    x.add_(y, alpha=alpha)
    np.testing.assert_allclose(x.numpy(), a + alpha * b, rtol=tol)


def test_complex_alpha_with_real_tensors_is_refused() -> None:
    y = ember.ones(2)
    with pytest.raises(RuntimeError, match=r"^\[add\] for non-complex input tensors"):
        ember.add(y, y, alpha=1j)
