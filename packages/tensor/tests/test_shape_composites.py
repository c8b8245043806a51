"""ravel, row_stack, is_neg/resolve_neg and chain_matmul (ember/_shape_composites.py) against
numpy, and against torch 2.13 when it is importable."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ember


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3), st.booleans())
def test_ravel_matches_numpy(shape: list[int], transpose: bool) -> None:
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    x = ember.tensor(a)
    if transpose:
        a, x = a.T, x.permute(*reversed(range(x.dim())))
    r = ember.ravel(x)
    np.testing.assert_array_equal(r.numpy(), a.ravel())
    assert r.dim() == 1 and r.is_contiguous()
    assert x.ravel().tolist() == r.tolist()


def test_ravel_is_a_view_only_of_contiguous_input() -> None:
    x = ember.arange(6.0).reshape(2, 3)
    r = x.ravel()
    r[0] = 10.0  # shares storage
    assert x[0, 0].item() == 10.0
    strided = ember.arange(6.0)[::2]
    copy = strided.ravel()  # torch's contiguous().view(-1): strided inputs are copied
    copy[0] = 5.0
    assert strided[0].item() == 0.0
    assert x.t().ravel().tolist() == [10.0, 3.0, 1.0, 4.0, 2.0, 5.0]


def test_ravel_bad_input() -> None:
    with pytest.raises(TypeError, match=r"\[ravel\]"):
        ember.ravel([1, 2])  # type: ignore[arg-type]


def test_row_stack_is_vstack() -> None:
    a, b = ember.tensor([1, 2]), ember.tensor([[3, 4], [5, 6]])
    assert ember.row_stack([a, b]).tolist() == [[1, 2], [3, 4], [5, 6]]
    out = ember.empty(0, dtype=ember.int64)
    ember.row_stack((a, a), out=out)
    assert out.tolist() == [[1, 2], [1, 2]]
    with pytest.raises(RuntimeError):
        ember.row_stack([ember.tensor([1, 2]), ember.tensor([1, 2, 3])])


def test_neg_views() -> None:
    x = ember.tensor([1.0, -2.0])
    assert ember.is_neg(x) is False and x.is_neg() is False
    assert ember.resolve_neg(x) is x and x.resolve_neg() is x
    with pytest.raises(TypeError, match=r"\[is_neg\]"):
        ember.is_neg(1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"\[resolve_neg\]"):
        ember.resolve_neg(None)  # type: ignore[arg-type]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=2, max_size=5))
def test_chain_matmul_matches_numpy(sizes: list[int]) -> None:
    rng = np.random.default_rng(len(sizes))
    mats = [rng.standard_normal((sizes[i], sizes[i + 1])) for i in range(len(sizes) - 1)]
    with pytest.warns(UserWarning, match="deprecated"):
        result = ember.chain_matmul(*[ember.tensor(m) for m in mats])
    expected = np.linalg.multi_dot(mats) if len(mats) > 1 else mats[0]
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-12, atol=1e-12)


def test_chain_matmul_one_matrix_and_out() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = ember.ones(2, 3)
        single = ember.chain_matmul(a)
        assert single is not a and single.tolist() == a.tolist()  # a copy, as torch
        out = ember.empty(0)
        ember.chain_matmul(a, ember.ones(3, 2), out=out)
        assert out.tolist() == [[3.0, 3.0], [3.0, 3.0]]


def test_chain_matmul_bad_input() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match=r"\[chain_matmul\] Expected one or more"):
            ember.chain_matmul()
        with pytest.raises(RuntimeError, match=r"dimension is 1, expected 2"):
            ember.chain_matmul(ember.ones(3), ember.ones(3, 3))
        with pytest.raises(RuntimeError, match=r"cannot be multiplied"):
            ember.chain_matmul(ember.ones(2, 3), ember.ones(2, 3))
        with pytest.raises(RuntimeError, match=r"same dtype"):
            ember.chain_matmul(ember.ones(2, 3), ember.ones(3, 3, dtype=ember.float64))
        with pytest.raises(TypeError, match=r"\[chain_matmul\]"):
            ember.chain_matmul(ember.ones(2, 2), [[1.0]])  # type: ignore[arg-type]


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    a = np.arange(24.0).reshape(2, 3, 4)
    for view in (lambda t: t, lambda t: t.transpose(0, 2), lambda t: t[:, ::2]):
        np.testing.assert_array_equal(
            view(ember.tensor(a)).ravel().numpy(), view(torch.tensor(a)).ravel().numpy()
        )
    rows = [np.ones(3), np.arange(6.0).reshape(2, 3)]
    np.testing.assert_array_equal(
        ember.row_stack([ember.tensor(r) for r in rows]).numpy(),
        torch.row_stack([torch.tensor(r) for r in rows]).numpy(),
    )
    mats = [np.ones((2, 3)), np.ones((3, 5)), np.ones((5, 1))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(
            ember.chain_matmul(*[ember.tensor(m) for m in mats]).numpy(),
            torch.chain_matmul(*[torch.tensor(m) for m in mats]).numpy(),
        )
    assert torch.tensor([1.0]).is_neg() == ember.tensor([1.0]).is_neg()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data())
def test_unravel_index_matches_numpy(shape: list[int], data: st.DataObject) -> None:
    size = int(np.prod(shape))
    flat = data.draw(st.lists(st.integers(0, size - 1), min_size=0, max_size=6))
    result = ember.unravel_index(ember.tensor(flat, dtype=ember.int64), tuple(shape))
    expected = np.unravel_index(np.array(flat, dtype=np.int64), shape)
    assert len(result) == len(shape)
    for r, e in zip(result, expected, strict=True):
        assert r.dtype == ember.int64 and r.tolist() == e.tolist()


def test_unravel_index_wraps_and_bad_input() -> None:
    # torch wraps out-of-range indices (floor modulo), -1 included.
    rows, cols = ember.unravel_index(ember.tensor([-1, 12]), (3, 4))
    assert rows.tolist() == [2, 0] and cols.tolist() == [3, 0]
    (only,) = ember.unravel_index(ember.tensor(5, dtype=ember.int32), 6)
    assert only.tolist() == 5 and only.dtype == ember.int64
    assert ember.unravel_index(ember.tensor(0), ()) == ()
    with pytest.raises(TypeError, match=r"\[unravel_index\] expected 'indices' to be integer"):
        ember.unravel_index(ember.tensor([1.0]), (3, 4))
    with pytest.raises(ValueError, match=r"\[unravel_index\] 'shape' cannot have negative"):
        ember.unravel_index(ember.tensor(5), (3, -4))
    with pytest.raises(TypeError, match=r"\[unravel_index\]"):
        ember.unravel_index(5, (3, 4))  # type: ignore[arg-type]


@pytest.mark.parametrize("increasing", [False, True])
@pytest.mark.parametrize("n", [None, 0, 1, 4])
def test_vander_matches_numpy(n: int | None, increasing: bool) -> None:
    for values in ([1, 2, 3], [0.5, -2.0, 3.0]):
        a = np.array(values)
        result = ember.vander(ember.tensor(a), N=n, increasing=increasing)
        np.testing.assert_allclose(result.numpy(), np.vander(a, n, increasing))
    assert ember.vander(ember.tensor([1, 2], dtype=ember.int8)).dtype == ember.int64
    assert ember.vander(ember.tensor([True, False])).dtype == ember.int64


def test_vander_bad_input() -> None:
    with pytest.raises(RuntimeError, match=r"\[vander\] x must be a one-dimensional tensor"):
        ember.vander(ember.ones(2, 2))
    with pytest.raises(RuntimeError, match=r"\[vander\] N must be non-negative"):
        ember.vander(ember.ones(2), N=-1)
    with pytest.raises(TypeError, match=r"\[vander\] argument 'N' must be int"):
        ember.vander(ember.ones(2), N=1.5)  # type: ignore[arg-type]


def test_unravel_vander_against_torch() -> None:
    torch = pytest.importorskip("torch")
    got = ember.unravel_index(ember.tensor([5, 11, -1, 30]), (3, 4))
    want = torch.unravel_index(torch.tensor([5, 11, -1, 30]), (3, 4))
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    assert (
        ember.vander(ember.tensor([1, 2, 3]), 4).tolist()
        == torch.vander(torch.tensor([1, 2, 3]), 4).tolist()
    )
