"""ember.linalg.eig/eigvals against numpy.linalg: A V = V diag(w), unit eigenvectors, numpy's
eigenvalues (and LAPACK's order), real and complex input over batches and layouts, empty batches,
``out=``, torch's errors, and generated bad input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz_api import EXEMPT_TYPE_ERRORS, SCALARS, TENSOR_MAKERS, deadline

import ember
import ember.linalg as LA
from conftest import VIEW_LAYOUTS, raises, with_layout

DTYPES = [ember.float32, ember.float64, ember.complex64, ember.complex128]
NP = {
    ember.float32: np.float32,
    ember.float64: np.float64,
    ember.complex64: np.complex64,
    ember.complex128: np.complex128,
}
RESULT = {
    ember.float32: ember.complex64,
    ember.float64: ember.complex128,
    ember.complex64: ember.complex64,
    ember.complex128: ember.complex128,
}
# Relative tolerance of the residual and of eigenvalues (single or double precision).
TOL = {ember.complex64: 1e-4, ember.complex128: 1e-10}
BATCHES = [(), (3,), (2, 2), (0,)]


def rand(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    """Gaussian matrices; complex dtypes get a Gaussian imaginary part too."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape)
    if dtype in (ember.complex64, ember.complex128):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(NP[dtype])


def tensor(a: np.ndarray, layout: str = "contiguous") -> ember.Tensor:
    return ember.from_numpy(with_layout(a, layout))


def match_multiset(actual: np.ndarray, expected: np.ndarray, tol: float) -> None:
    """Every expected eigenvalue pairs with a distinct actual one within tol (relative)."""
    left = list(actual)
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    for value in expected:
        distances = [abs(value - other) for other in left]
        best = int(np.argmin(distances))
        assert distances[best] <= tol * scale, (value, actual, expected)
        left.pop(best)


def check_decomposition(a: np.ndarray, w: ember.Tensor, V: ember.Tensor, dtype: Any) -> None:
    """Shapes, complex dtypes, A V = V diag(w), unit columns and numpy's eigenvalues."""
    result = RESULT[dtype]
    n = a.shape[-1]
    assert w.dtype == result and V.dtype == result
    assert tuple(w.shape) == a.shape[:-1] and tuple(V.shape) == a.shape
    assert w.is_contiguous() and V.is_contiguous()
    wn, vn = w.numpy().astype(np.complex128), V.numpy().astype(np.complex128)
    tol = TOL[result]
    scale = max(1.0, float(np.abs(a).max(initial=0.0))) * max(n, 1)
    residual = a.astype(np.complex128) @ vn - vn * wn[..., None, :]
    assert np.abs(residual).max(initial=0.0) <= tol * scale
    np.testing.assert_allclose(np.linalg.norm(vn, axis=-2), 1.0, rtol=tol * max(n, 1))
    if a.size == 0:
        return
    expected = np.linalg.eigvals(a.astype(np.complex128))
    for got, want in zip(wn.reshape(-1, n), expected.reshape(-1, n), strict=True):
        match_multiset(got, want, tol * 10 * n)


# --- values against numpy ----------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("batch", BATCHES)
def test_eig(dtype: Any, layout: str, batch: tuple[int, ...]) -> None:
    a = rand((*batch, 5, 5), dtype, seed=len(batch))
    w, V = LA.eig(tensor(a, layout))
    check_decomposition(a, w, V, dtype)
    vals = LA.eigvals(tensor(a, layout))
    assert vals.dtype == RESULT[dtype]
    # The same LAPACK call without vectors: the same eigenvalues in the same order.
    np.testing.assert_allclose(vals.numpy(), w.numpy(), rtol=TOL[RESULT[dtype]], atol=1e-6)


@pytest.mark.parametrize("dtype", [ember.float64, ember.complex128])
def test_order_and_vectors_are_lapacks(dtype: Any) -> None:
    """numpy calls the same geev on A: eigenvalues in its order, eigenvectors with its phase."""
    a = rand((4, 6, 6), dtype, seed=7)
    w, V = LA.eig(tensor(a))
    w_ref, v_ref = np.linalg.eig(a)
    np.testing.assert_allclose(w.numpy(), w_ref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(V.numpy(), v_ref, rtol=1e-8, atol=1e-10)


def test_values_from_torch() -> None:
    """torch 2.13's results (the same LAPACK convention): order, conjugate pairs and phases."""
    rotation = ember.tensor([[0.0, -1.0], [1.0, 0.0]])
    w, V = LA.eig(rotation)
    s = 0.5**0.5
    np.testing.assert_allclose(w.numpy(), [1j, -1j], atol=1e-7)
    np.testing.assert_allclose(V.numpy(), [[s, s], [-s * 1j, s * 1j]], atol=1e-6)
    w, V = LA.eig(ember.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=ember.float64))
    np.testing.assert_allclose(w.numpy(), [-0.3722813232690143, 5.372281323269014], rtol=1e-12)
    np.testing.assert_allclose(
        V.numpy(),
        [[-0.8245648401323938, -0.4159735579192842], [0.5657674649689923, -0.9093767091321241]],
        rtol=1e-12,
    )


def test_special_matrices() -> None:
    """Triangular matrices have their diagonal as eigenvalues; the identity its basis vectors."""
    tri = np.triu(rand((6, 6), ember.float64, 3))
    w = LA.eigvals(tensor(tri))
    match_multiset(w.numpy(), np.diag(tri).astype(np.complex128), 1e-12)
    w, V = LA.eig(ember.eye(3, dtype=ember.complex64))
    np.testing.assert_array_equal(w.numpy(), np.ones(3))
    np.testing.assert_array_equal(V.numpy(), np.eye(3))
    # A defective matrix (a Jordan block): the decomposition still satisfies A V = V diag(w).
    jordan = np.array([[2.0, 1.0], [0.0, 2.0]])
    w, V = LA.eig(tensor(jordan))
    check_decomposition(jordan, w, V, ember.float64)
    w, V = LA.eig(ember.tensor([[-3.5]]))
    assert w.tolist() == [-3.5 + 0j] and V.tolist() == [[1 + 0j]]


@pytest.mark.parametrize("threads", [1, 3])
def test_batches_over_threads_match_one_by_one(threads: int) -> None:
    previous = ember.get_num_threads()
    ember.set_num_threads(threads)
    try:
        a = rand((40, 4, 4), ember.float64, 5)
        w, V = LA.eig(tensor(a))
        for i in range(0, 40, 7):
            wi, Vi = LA.eig(tensor(a[i]))
            np.testing.assert_array_equal(w[i].numpy(), wi.numpy())
            np.testing.assert_array_equal(V[i].numpy(), Vi.numpy())
    finally:
        ember.set_num_threads(previous)


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3), (3, 0, 2, 2)])
@pytest.mark.parametrize("dtype", [ember.float32, ember.complex128])
def test_empty(shape: tuple[int, ...], dtype: Any) -> None:
    w, V = LA.eig(ember.zeros(*shape, dtype=dtype))
    assert tuple(w.shape) == shape[:-1] and tuple(V.shape) == shape
    assert w.dtype == V.dtype == RESULT[dtype]
    assert tuple(LA.eigvals(ember.zeros(*shape, dtype=dtype)).shape) == shape[:-1]


def test_out() -> None:
    a = ember.tensor([[2.0, 1.0], [0.0, 3.0]])
    w, V = ember.empty(0, dtype=ember.complex64), ember.empty(5, dtype=ember.complex64)
    result = LA.eig(a, out=(w, V))
    assert result.eigenvalues is w and result.eigenvectors is V
    assert w.tolist() == [2 + 0j, 3 + 0j] and tuple(V.shape) == (2, 2)
    # torch's rule: any complex dtype takes the result; a real one is refused.
    wide = ember.empty(0, dtype=ember.complex128)
    assert LA.eigvals(a, out=wide) is wide and wide.tolist() == [2 + 0j, 3 + 0j]
    raises(RuntimeError, "linalg.eigvals", lambda: LA.eigvals(a, out=ember.empty(0)), "castable")
    raises(RuntimeError, "linalg.eig", lambda: LA.eig(a, out=(ember.empty(0), V)), "eigenvalues")
    raises(TypeError, "linalg.eig", lambda: LA.eig(a, out=(w,)), "tuple of 2")


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fn, op", [(LA.eig, "linalg.eig"), (LA.eigvals, "linalg.eigvals")])
def test_errors(fn: Any, op: str) -> None:
    raises(RuntimeError, op, lambda: fn(ember.ones(2, 3)), "square", "2 by 3")
    raises(RuntimeError, op, lambda: fn(ember.ones(3)), "at least 2 dimensions")
    raises(RuntimeError, op, lambda: fn(ember.tensor(1.0)), "at least 2 dimensions")
    raises(TypeError, op, lambda: fn(ember.ones(2, 2, dtype=ember.int64)), "int64")
    raises(TypeError, op, lambda: fn(ember.ones(2, 2, dtype=ember.bool)), "bool")
    raises(TypeError, op, lambda: fn(ember.ones(2, 2, dtype=ember.float16)), "Low precision")
    raises(TypeError, op, lambda: fn(ember.ones(2, 2, dtype=ember.bfloat16)), "Low precision")
    raises(TypeError, op, lambda: fn([[1.0, 0.0], [0.0, 1.0]]), "must be Tensor")
    for bad in (float("nan"), float("inf"), -float("inf")):
        a = ember.ones(3, 2, 2)
        a[1, 0, 1] = bad
        raises(RuntimeError, op, lambda a=a: fn(a), "infs or NaNs")
        c = ember.ones(2, 2, dtype=ember.complex128)
        c[1, 1] = complex(1.0, bad)
        raises(RuntimeError, op, lambda c=c: fn(c), "infs or NaNs")


# --- generated input -------------------------------------------------------------------------


@settings(max_examples=40)
@given(
    batch=st.lists(st.integers(0, 3), max_size=2).map(tuple),
    n=st.integers(0, 7),
    dtype=st.sampled_from(DTYPES),
    layout=st.sampled_from(VIEW_LAYOUTS),
    seed=st.integers(0, 2**16),
)
def test_eig_on_generated_shapes(
    batch: tuple[int, ...], n: int, dtype: Any, layout: str, seed: int
) -> None:
    a = rand((*batch, n, n), dtype, seed)
    w, V = LA.eig(tensor(a, layout))
    check_decomposition(a, w, V, dtype)


JUNK: list[Any] = [*TENSOR_MAKERS, *SCALARS]


def _junk(i: int) -> Any:
    value = JUNK[i]
    return value() if i < len(TENSOR_MAKERS) else value


@settings(max_examples=200)
@given(
    fn=st.sampled_from([LA.eig, LA.eigvals]),
    args=st.lists(st.integers(0, len(JUNK) - 1), max_size=3),
    kwarg=st.sampled_from([None, "out", "A", "bogus"]),
    kwval=st.integers(0, len(JUNK) - 1),
)
def test_bad_arguments_raise_typed_errors(fn: Any, args: list[int], kwarg: Any, kwval: int) -> None:
    """Any mix of tensors and junk gives a result or a typed error naming the op, never a crash."""
    kwargs = {} if kwarg is None else {kwarg: _junk(kwval)}
    try:
        with deadline(fn.__name__):
            fn(*(_junk(i) for i in args), **kwargs)
    except TypeError as e:
        assert str(e).startswith("[") or EXEMPT_TYPE_ERRORS.search(str(e)), (fn.__name__, str(e))
    except (ValueError, IndexError, RuntimeError, NotImplementedError) as e:
        assert str(e).startswith("["), (fn.__name__, str(e))
