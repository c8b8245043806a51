"""Views and shape ops against numpy: values, storage sharing, strides (torch's) and errors."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import (
    NUMPY_DTYPES,
    VIEW_LAYOUTS,
    assert_close,
    numpy_array,
    raises,
    shapes,
    tensor,
    to_numpy,
)

nonempty_shapes = shapes(min_side=1, min_dims=1)


@st.composite
def arrays(draw: st.DrawFn, shape_strategy: Any = None) -> np.ndarray:
    """A numpy_array of a drawn shape (default: shapes()) in a drawn layout."""
    shape = draw(shapes() if shape_strategy is None else shape_strategy)
    return numpy_array(shape, draw(st.sampled_from(VIEW_LAYOUTS)))


def assert_view(result: ember.Tensor, base: ember.Tensor) -> None:
    """result shares base's storage, and a write through it shows in base."""
    assert result._is_view_of(base)
    if result.numel() > 0:
        before = to_numpy(base)
        result.fill_(-7) if result.dim() == 0 else result[(0,) * result.dim()].fill_(-7)
        assert (to_numpy(base) == -7).sum() == (before == -7).sum() + 1


# ---------------------------------------------------------------- view / reshape


@st.composite
def reshape_cases(draw: st.DrawFn) -> tuple[np.ndarray, tuple[int, ...]]:
    a = draw(arrays())
    # A target with the same number of elements: a permutation of the sizes plus 1s, and
    # sometimes one -1.
    target = list(draw(st.permutations(a.shape)))
    for _ in range(draw(st.integers(0, 2))):
        target.insert(draw(st.integers(0, len(target))), 1)
    if target and a.size > 0 and draw(st.booleans()):
        target[draw(st.integers(0, len(target) - 1))] = -1
    return a, tuple(target)


@given(reshape_cases())
def test_reshape_and_view_match_numpy(case: tuple[np.ndarray, tuple[int, ...]]) -> None:
    a, target = case
    x = ember.from_numpy(a)
    expected = np.reshape(a, target)
    r = x.reshape(target)
    assert_close(r, expected)
    assert_close(ember.reshape(x, target), expected)
    assert_close(x.reshape(*target) if target else x.reshape(()), expected)
    if a.flags.c_contiguous:
        v = x.view(target)
        assert_close(v, expected)
        assert v.is_contiguous() or a.size == 0
        assert_view(v, x)
        assert r._is_view_of(x)


@pytest.mark.parametrize(
    ("make", "shape", "strides"),
    [  # expected strides checked against torch 2.13
        (lambda: tensor((4, 2))[:, ::2], (2, 2), (4, 2)),
        (lambda: tensor((4, 2))[:, ::2], (2, 1, 2), (4, 4, 2)),
        (lambda: tensor((4, 2))[:, ::2], (2, 2, 1), (4, 2, 2)),
        (lambda: tensor((4, 1, 2))[:, :, ::2], (4,), (2,)),
        (lambda: tensor((4, 2)).t(), (2, 2, 2), (1, 4, 2)),
        (lambda: tensor((4, 2)).t(), (1, 2, 4, 1), (2, 1, 2, 2)),
        (lambda: tensor((2, 4)).t(), (2, 2, 2), (2, 1, 4)),
        (lambda: tensor((1, 4)).expand(3, 4), (3, 2, 2), (0, 2, 1)),
        (lambda: tensor((1, 4)).expand(3, 4), (1, 3, 4), (0, 0, 1)),
        (lambda: tensor((1, 3)).expand(2, -1), (2, 3, 1), (0, 1, 1)),
        (lambda: tensor((3,)), (-1, 1, 1, 3), (3, 3, 3, 1)),
        (lambda: tensor((4, 1, 3)), (4, 3), (3, 1)),
        (lambda: tensor((2, 0, 3)), (0, 3, 2), (6, 2, 1)),
        (lambda: tensor((2, 0, 3)).transpose(0, 1), (0, 3, 2), (6, 2, 1)),
        (lambda: tensor((2, 0, 3)).permute(2, 0, 1), (6, 0), (1, 1)),
        (lambda: tensor(()), (1, 1), (1, 1)),
    ],
)
def test_view_strides_like_torch(
    make: Callable[[], ember.Tensor], shape: tuple[int, ...], strides: tuple[int, ...]
) -> None:
    x = make()
    v = x.view(shape)
    assert v.stride() == strides
    assert_close(v, np.reshape(to_numpy(x), shape))
    assert v._is_view_of(x)


@pytest.mark.parametrize(
    ("make", "shape"),
    [
        (lambda: tensor((2, 3, 4)).transpose(0, 1), (24,)),
        (lambda: tensor((4, 2))[::2], (4,)),
        (lambda: tensor((4, 2)).t(), (8,)),
        (lambda: tensor((1, 3)).expand(2, -1), (6,)),
    ],
)
def test_view_needs_compatible_strides(
    make: Callable[[], ember.Tensor], shape: tuple[int, ...]
) -> None:
    x = make()
    raises(RuntimeError, "view", lambda: x.view(shape), "reshape", str(tuple(x.shape)))
    r = x.reshape(shape)  # reshape copies instead
    assert not r._is_view_of(x)
    assert r.is_contiguous()
    assert_close(r, np.reshape(to_numpy(x), shape))


def test_reshape_views_when_possible_like_torch() -> None:
    x = tensor((2, 3, 4))
    picked = x[:, :, 1].reshape(6)
    assert picked._is_view_of(x) and picked.stride() == (4,)
    copied = x.transpose(1, 2).reshape(2, 12)
    assert not copied._is_view_of(x) and copied.stride() == (12, 1)
    assert x.reshape_as(tensor((4, 6))).shape == (4, 6)
    assert x.view_as(tensor((6, 4))).stride() == (4, 1)


def test_view_shape_errors() -> None:
    x = tensor((2, 3, 4))
    raises(RuntimeError, "view", lambda: x.view(5, -1), "(5, -1)", "24")
    raises(RuntimeError, "view", lambda: x.view(7), "(7,)", "24")
    raises(RuntimeError, "view", lambda: x.view(4, -1, -1), "only one dimension")
    raises(RuntimeError, "view", lambda: x.view(-2, 12), "invalid shape dimension -2")
    raises(RuntimeError, "reshape", lambda: x.reshape(-1, 0), "24")
    raises(RuntimeError, "view", lambda: tensor((0, 3)).view(-1, 0), "ambiguous")
    raises(TypeError, "view", lambda: x.view(4, 6.0))
    raises(TypeError, "reshape", lambda: ember.reshape(x, x))
    assert tensor((0,)).view(-1).shape == (0,)
    assert tensor(()).view(-1).shape == (1,)


def test_view_dtype() -> None:
    x = tensor((2, 4))
    assert x.view(ember.int32).dtype == ember.int32
    halves = x.view(ember.float16)
    assert halves.shape == (2, 8) and halves.stride() == (8, 1)
    assert_close(halves, to_numpy(x).astype(np.float32).view(np.float16))
    back = halves.view(ember.float32)
    assert back.shape == (2, 4)
    assert_close(back, to_numpy(x))
    doubles = x.view(ember.float64)
    assert doubles.shape == (2, 2)
    raises(RuntimeError, "view", lambda: x.t().view(ember.float16), "stride(-1) must be 1")
    raises(RuntimeError, "view", lambda: tensor((2, 3)).view(ember.float64), "size(-1)")
    raises(RuntimeError, "view", lambda: tensor(()).view(ember.float16), "dim() cannot be 0")
    raises(RuntimeError, "view", lambda: x[:, 1:3].view(ember.float64), "storage_offset()")


# ---------------------------------------------------------------- permutations


@given(arrays(), st.data())
def test_permute_transpose_movedim_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    n = a.ndim
    dims = data.draw(st.permutations(range(n)))
    p = x.permute(*dims) if dims else x.permute(())
    assert_close(p, np.transpose(a, dims))
    assert p.stride() == tuple(x.stride()[d] for d in dims)
    assert_close(ember.permute(x, dims), np.transpose(a, dims))
    assert_view(p, x)
    if n >= 1:
        d0 = data.draw(st.integers(-n, n - 1))
        d1 = data.draw(st.integers(-n, n - 1))
        for name in ("transpose", "swapaxes", "swapdims"):
            assert_close(getattr(x, name)(d0, d1), np.swapaxes(a, d0, d1))
            assert_close(getattr(ember, name)(x, d0, d1), np.swapaxes(a, d0, d1))
        k = data.draw(st.integers(0, n))
        src = data.draw(st.permutations(range(n)))[:k]
        dst = data.draw(st.permutations(range(n)))[:k]
        assert_close(x.movedim(src, dst), np.moveaxis(a, src, dst))
        assert_close(ember.moveaxis(x, src, dst), np.moveaxis(a, src, dst))
    assert_close(x.T, a.T)
    if n >= 2:
        assert_close(x.mT, np.swapaxes(a, -1, -2))
        assert_close(x.mH, np.swapaxes(a, -1, -2))
    if n <= 2:
        assert_close(x.t(), a.T)
        assert_close(ember.t(x), a.T)


def test_permutation_strides_like_torch() -> None:
    x = tensor((2, 3, 4))
    assert x.swapaxes(0, -1).stride() == (1, 4, 12)
    assert x.movedim(0, -1).stride() == (4, 1, 12)
    assert ember.movedim(x, [0, 1], [-1, 0]).stride() == (4, 1, 12)
    assert ember.movedim(x, source=2, destination=0).stride() == (1, 12, 4)
    assert x.moveaxis((2, 0), (0, 2)).stride() == (1, 4, 12)
    assert x.mT.stride() == (12, 1, 4)
    assert x.T.shape == (4, 3, 2)
    assert tensor((3, 1)).t().stride() == (1, 1)
    z = tensor(())
    assert z.t().shape == () and z.T.shape == () and z.mT.shape == ()
    assert z.transpose(0, -1).shape == () and z.permute(()).shape == ()
    assert z.movedim(0, 0).shape == ()


def test_permutation_errors() -> None:
    x = tensor((2, 3, 4))
    raises(RuntimeError, "permute", lambda: x.permute(0, 1), "(2, 3, 4)", "(0, 1)")
    raises(RuntimeError, "permute", lambda: x.permute(0, 1, 1), "duplicate")
    raises(IndexError, "permute", lambda: x.permute(0, 1, 5), "[-3, 2]", "5")
    raises(IndexError, "transpose", lambda: x.transpose(0, 5), "5")
    raises(RuntimeError, "t", lambda: x.t(), "3D")
    raises(RuntimeError, "mT", lambda: tensor((3,)).mT, "1-D")
    raises(RuntimeError, "movedim", lambda: x.movedim((0, 1), (0,)), "same number")
    raises(RuntimeError, "movedim", lambda: x.movedim((0, 0), (1, 2)), "repeated dim")
    raises(RuntimeError, "movedim", lambda: x.movedim((0, 1), (1, 1)), "repeated dim")
    raises(IndexError, "movedim", lambda: x.movedim(5, 0), "5")
    raises(TypeError, "transpose", lambda: x.transpose(0.5, 1))


def test_in_place_view_ops() -> None:
    x = tensor((1, 2, 3))
    base = x[...]
    assert x.squeeze_() is x and x.shape == (2, 3)
    assert x.unsqueeze_(-1) is x and x.shape == (2, 3, 1) and x.stride() == (3, 1, 1)
    assert x.transpose_(0, 1) is x and x.shape == (3, 2, 1) and x.stride() == (1, 3, 1)
    assert x.squeeze_(2).t_() is x and x.shape == (2, 3)
    assert x.swapdims_(0, 1).shape == (3, 2)
    assert base.shape == (1, 2, 3)  # other views keep their geometry
    assert_close(x, np.arange(6.0).reshape(2, 3).T)
    raises(RuntimeError, "t_", lambda: tensor((1, 2, 3)).t_(), "3D")


# ---------------------------------------------------------------- expand / squeeze


@given(arrays(), st.data())
def test_expand_matches_broadcast_to(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    target = [data.draw(st.integers(0, 3)) if s == 1 else s for s in a.shape]
    target = [data.draw(st.integers(0, 2)) for _ in range(data.draw(st.integers(0, 2)))] + target
    e = x.expand(*target) if target else x.expand(())
    assert_close(e, np.broadcast_to(a, tuple(target)))
    assert e._is_view_of(x)
    for i, (old, new) in enumerate(zip(a.shape[::-1], target[::-1], strict=False)):
        if old != new:
            assert e.stride()[len(target) - 1 - i] == 0
    keep = [-1] * a.ndim
    assert x.expand(*keep).shape == a.shape if keep else True
    assert_close(x.expand_as(ember.from_numpy(np.zeros(target))), np.broadcast_to(a, target))


def test_expand_strides_and_errors() -> None:
    x = tensor((2, 3, 4))
    assert x.expand(1, -1, -1, -1).stride() == (24, 12, 4, 1)
    assert tensor((3, 1)).expand(2, -1, -1).stride() == (0, 1, 1)
    assert tensor((3, 1)).expand(-1, 0).stride() == (1, 0)
    assert tensor(()).expand(3, 2).stride() == (0, 0)
    raises(RuntimeError, "expand", lambda: x.expand(3, 4), "(2)", "(3)")
    raises(RuntimeError, "expand", lambda: x.expand(-1, 2, 3, 4), "leading")
    raises(RuntimeError, "expand", lambda: x.expand(2, 3, 5), "(5)", "(4)", "(2, 3, 4)")
    raises(RuntimeError, "expand", lambda: x.expand(2, -2, 4), "-2")
    raises(RuntimeError, "expand", lambda: tensor((1,)).expand(-2), "-2")


@given(arrays(), st.data())
def test_squeeze_unsqueeze_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    assert_close(x.squeeze(), np.squeeze(a))
    assert_close(ember.squeeze(x), np.squeeze(a))
    n = a.ndim
    if n:
        dims = data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
        expected = np.squeeze(a, axis=tuple(d for d in dims if a.shape[d] == 1))
        assert_close(x.squeeze(tuple(dims)), expected)
        d = data.draw(st.integers(-n, n - 1))
        assert_close(x.squeeze(d), np.squeeze(a, d) if a.shape[d] == 1 else a)
    d = data.draw(st.integers(-n - 1, n))
    u = x.unsqueeze(d)
    assert_close(u, np.expand_dims(a, d))
    assert_close(ember.unsqueeze(x, d), np.expand_dims(a, d))
    assert_view(u, x)


def test_squeeze_unsqueeze_strides_and_errors() -> None:
    x = tensor((2, 3, 4))
    assert x.unsqueeze(-1).stride() == (12, 4, 1, 1)
    assert tensor((2, 0, 3)).unsqueeze(1).stride() == (3, 0, 3, 1)
    assert tensor((3, 1)).expand(3, 4).unsqueeze(1).stride() == (1, 0, 0)
    assert tensor(()).unsqueeze(0).stride() == (1,)
    assert tensor((2, 1, 3)).squeeze().stride() == (3, 1)
    assert tensor((1, 2, 1)).squeeze((0, 1)).shape == (2, 1)
    assert tensor(()).squeeze(0).shape == () and tensor(()).squeeze(-1).shape == ()
    assert x.squeeze(()).shape == (2, 3, 4)
    raises(IndexError, "squeeze", lambda: x.squeeze(5), "[-3, 2]")
    raises(RuntimeError, "squeeze", lambda: x.squeeze((0, 0)), "multiple times")
    raises(IndexError, "unsqueeze", lambda: x.unsqueeze(4), "[-4, 3]")
    raises(IndexError, "unsqueeze", lambda: x.unsqueeze(-5), "-5")
    raises(IndexError, "unsqueeze", lambda: tensor(()).unsqueeze(1), "[-1, 0]")


# ---------------------------------------------------------------- flatten / unflatten


@given(arrays(), st.data())
def test_flatten_unflatten(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    n = max(a.ndim, 1)
    start = data.draw(st.integers(0, n - 1))
    end = data.draw(st.integers(start, n - 1))
    shape = (*a.shape[:start], math.prod(a.shape[start : end + 1]), *a.shape[end + 1 :])
    expected = np.reshape(a, shape if a.ndim else (1,))
    assert_close(x.flatten(start, end), expected)
    assert_close(ember.flatten(x, start_dim=start, end_dim=end), expected)
    assert_close(x.flatten(), a.reshape(-1))
    if a.ndim:
        d = data.draw(st.integers(-a.ndim, a.ndim - 1))
        size = a.shape[d]
        sizes = (1, -1, 1) if size > 0 else (1, 0, 1)
        u = x.unflatten(d, sizes)
        dd = d % a.ndim
        assert_close(u, np.reshape(a, (*a.shape[:dd], 1, size, 1, *a.shape[dd + 1 :])))
        assert u._is_view_of(x)
        assert_close(ember.unflatten(x, d, (size,)), a)


def test_flatten_unflatten_strides_and_errors() -> None:
    x = tensor((2, 3, 4))
    assert x.flatten(1).stride() == (12, 1)
    assert x.flatten(1, 1).stride() == (12, 4, 1)
    assert x.transpose(1, 2).flatten(1).stride() == (12, 1)
    assert x.transpose(1, 2).flatten(0, 0).stride() == (12, 1, 4)
    assert not x.transpose(0, 1).flatten()._is_view_of(x)
    assert tensor(()).flatten().shape == (1,)
    assert x.unflatten(-1, (2, 2)).stride() == (12, 4, 2, 1)
    assert x.unflatten(1, (3, -1)).stride() == (12, 4, 4, 1)
    assert tensor((6,))[::2].unflatten(0, (3, 1)).stride() == (2, 2)
    assert tensor((0,)).unflatten(0, (0, 5)).stride() == (5, 1)
    raises(RuntimeError, "flatten", lambda: x.flatten(2, 1), "start_dim")
    raises(IndexError, "flatten", lambda: x.flatten(0, 3), "3")
    raises(RuntimeError, "unflatten", lambda: x.unflatten(1, (2, 2)), "(2, 2)", "(3)")
    raises(RuntimeError, "unflatten", lambda: x.unflatten(1, ()), "non-empty")
    raises(RuntimeError, "unflatten", lambda: x.unflatten(1, (-1, -1)), "(-1, -1)")
    raises(RuntimeError, "unflatten", lambda: x.unflatten(1, (0, -1)), "(0, -1)")
    raises(RuntimeError, "unflatten", lambda: tensor(()).unflatten(0, (1,)), "0-dim")


# ---------------------------------------------------------------- narrow / select / unbind


@given(arrays(nonempty_shapes), st.data())
def test_narrow_select_unbind(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    size = a.shape[d]
    start = data.draw(st.integers(-size, size))
    length = data.draw(st.integers(0, size - (start % size if start < 0 else start)))
    s = start + size if start < 0 else start
    expected = np.take(a, range(s, s + length), axis=d)
    r = x.narrow(d, start, length)
    assert_close(r, expected)
    assert_close(ember.narrow(x, d, start, length), expected)
    assert_view(r, x)
    i = data.draw(st.integers(-size, size - 1))
    assert_close(x.select(d, i), np.take(a, i, axis=d))
    assert_close(ember.select(x, d, i), np.take(a, i, axis=d))
    parts = x.unbind(d)
    assert isinstance(parts, tuple) and len(parts) == size
    for k, part in enumerate(ember.unbind(x, dim=d)):
        assert_close(part, np.take(a, k, axis=d))
        assert part._is_view_of(x)


def test_narrow_select_errors() -> None:
    x = tensor((2, 3, 4))
    assert x.narrow(1, -3, 1).storage_offset() == 0
    assert x.narrow(1, 3, 0).shape == (2, 0, 4)
    assert x.narrow(0, ember.tensor(1), 1).shape == (1, 3, 4)
    assert x.narrow(np.int64(0), np.int32(1), 1).shape == (1, 3, 4)
    raises(TypeError, "narrow", lambda: x.narrow(0, np.array([1]), 1), "ndarray")
    raises(TypeError, "narrow", lambda: x.narrow(0, True, 1), "bool")
    raises(TypeError, "narrow", lambda: x.narrow(0, ember.tensor(1.0), 1))
    raises(IndexError, "narrow", lambda: x.narrow(1, 4, 0), "[-3, 3]", "4")
    raises(IndexError, "narrow", lambda: x.narrow(1, -4, 1), "-4")
    raises(RuntimeError, "narrow", lambda: x.narrow(1, 2, 2), "start (2)", "length (2)", "(3)")
    raises(RuntimeError, "narrow", lambda: x.narrow(1, 1, -1), "non-negative")
    raises(RuntimeError, "narrow", lambda: tensor(()).narrow(0, 0, 1), "0-dim")
    raises(IndexError, "select", lambda: x.select(1, 3), "index 3", "(2, 3, 4)", "dimension 1")
    raises(IndexError, "select", lambda: x.select(1, -4), "-4")
    raises(IndexError, "select", lambda: tensor(()).select(0, 0), "0-dim")
    raises(IndexError, "unbind", lambda: tensor(()).unbind(), "no dimensions")
    raises(IndexError, "unbind", lambda: x.unbind(3), "3")


# ---------------------------------------------------------------- diagonal


@given(arrays(shapes(min_dims=2)), st.data())
def test_diagonal_matches_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    n = a.ndim
    d1, d2 = data.draw(st.permutations(range(n)))[:2]
    offset = data.draw(st.integers(-5, 5))
    r = x.diagonal(offset, d1, d2)
    assert_close(r, np.diagonal(a, offset, d1, d2))
    assert_close(
        ember.diagonal(x, offset=offset, dim1=d1 - n, dim2=d2), np.diagonal(a, offset, d1, d2)
    )
    assert r._is_view_of(x)


def test_diagonal_strides_and_errors() -> None:
    assert tensor((5, 5)).diagonal(1).stride() == (6,)
    assert tensor((5, 5)).diagonal(10).storage_offset() == 0
    assert tensor((5, 5)).diagonal(-2).storage_offset() == 10
    x = tensor((2, 3, 4))
    assert x.permute(2, 0, 1).diagonal(0, 0, 2).stride() == (12, 5)
    assert x.diagonal(1, -1, 1).shape == (2, 2)
    assert x.diagonal(1, -1, 1).storage_offset() == 4
    assert x.diagonal(5, 1, 2).shape == (2, 0)
    raises(RuntimeError, "diagonal", lambda: x.diagonal(0, 1, 1), "identical")
    raises(IndexError, "diagonal", lambda: tensor((3,)).diagonal(), "1")
    raises(IndexError, "diagonal", lambda: tensor(()).diagonal(), "1")


# ---------------------------------------------------------------- cat / stack


@given(arrays(nonempty_shapes), st.data())
def test_cat_stack_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    others = []
    for _ in range(data.draw(st.integers(0, 3))):
        shape = list(a.shape)
        shape[d] = data.draw(st.integers(0, 3))
        others.append(numpy_array(tuple(shape), data.draw(st.sampled_from(VIEW_LAYOUTS))) + 100)
    arrays_ = [a, *others]
    tensors = [ember.from_numpy(o) for o in arrays_]
    expected = np.concatenate(arrays_, axis=d)
    for fn in (ember.cat, ember.concat, ember.concatenate):
        r = fn(tensors, d)
        assert_close(r, expected, dtype=ember.float64)
        assert r.is_contiguous() and not r._is_view_of(x)
    assert_close(ember.cat(tuple(tensors), dim=d), expected)
    assert_close(ember.concat(tensors, axis=d), expected)
    s = data.draw(st.integers(-a.ndim - 1, a.ndim))
    same = [x, x + 1, ember.from_numpy(numpy_array(a.shape, "transposed"))]
    assert_close(ember.stack(same, s), np.stack([to_numpy(t) for t in same], s))


@pytest.mark.parametrize(
    ("dtypes", "expected"),
    [
        ((ember.uint8, ember.int8), ember.int16),
        ((ember.bool, ember.int8), ember.int8),
        ((ember.bool, ember.bool), ember.bool),
        ((ember.float16, ember.bfloat16), ember.float32),
        ((ember.int32, ember.float32), ember.float32),
        ((ember.int64, ember.float16, ember.int8), ember.float16),
        ((ember.float64, ember.int32), ember.float64),
    ],
)
def test_cat_promotes_dtypes_like_torch(dtypes: tuple[Any, ...], expected: Any) -> None:
    parts = [tensor((2, 2), dt) for dt in dtypes]
    r = ember.cat(parts, 1)
    assert r.dtype == expected
    wanted = np.concatenate([to_numpy(p).astype(np.float64) for p in parts], 1)
    assert_close(r.float(), wanted.astype(np.float32))
    assert ember.stack(parts).dtype == expected


@pytest.mark.parametrize("dtype", [*list(NUMPY_DTYPES), ember.bfloat16])
def test_shape_ops_keep_every_dtype(dtype: Any) -> None:
    x = tensor((2, 3), dtype)
    expected = to_numpy(tensor((2, 3), dtype))
    assert_close(ember.cat([x, x.t().t()], 1), np.concatenate([expected, expected], 1))
    assert_close(x.t().reshape(6), expected.T.reshape(6))
    assert_close(ember.stack([x, x], 2), np.stack([expected, expected], 2))
    assert x.view(2, 3).dtype == dtype and x.T.dtype == dtype and x[0].dtype == dtype


def test_cat_legacy_empty_and_out() -> None:
    empty64 = ember.from_numpy(np.zeros(0))
    ints = tensor((1, 2), ember.int32)
    r = ember.cat([empty64, ints])
    assert r.shape == (1, 2) and r.dtype == ember.float64
    assert ember.cat([empty64, empty64]).shape == (0,)
    r = ember.cat([tensor((0,), ember.int8), tensor((0, 3), ember.int16)])
    assert r.shape == (0, 3) and r.dtype == ember.int16
    raises(RuntimeError, "cat", lambda: ember.cat([tensor((1, 0)), tensor((1, 2))]), "size 0")
    x = tensor((2, 3, 4))
    out = ember.from_numpy(np.zeros(2))
    res = ember.cat([x, x], out=out)
    assert res is out and out.shape == (4, 3, 4)
    assert_close(out, np.concatenate([to_numpy(x)] * 2))
    half = ember.from_numpy(np.zeros((4, 3, 4), dtype=np.float16))
    ember.cat([x.long(), x.long()], out=half)
    assert_close(half, np.concatenate([to_numpy(x)] * 2))
    strided = ember.from_numpy(np.zeros((4, 3, 8)))[:, :, ::2]
    ember.cat([x, x], out=strided)
    assert_close(strided, np.concatenate([to_numpy(x)] * 2))
    stacked = ember.stack((x, x), out=ember.from_numpy(np.zeros(0, dtype=np.float32)))
    assert stacked.shape == (2, 2, 3, 4)
    longs = ember.from_numpy(np.zeros((4, 3, 4), dtype=np.int64))
    raises(TypeError, "cat", lambda: ember.cat([x, x], out=longs), "int64")
    raises(RuntimeError, "cat", lambda: ember.cat([x[:1], x[1:]], out=x), "memory")


def test_cat_stack_errors() -> None:
    x = tensor((2, 3, 4))
    raises(ValueError, "cat", lambda: ember.cat([]), "non-empty")
    raises(RuntimeError, "cat", lambda: ember.cat([tensor(()), tensor(())]), "zero-dim")
    raises(RuntimeError, "cat", lambda: ember.cat([x, tensor((2, 3))]), "3 and 2", "(2, 3)")
    raises(
        RuntimeError,
        "cat",
        lambda: ember.cat([x, tensor((2, 4, 4))], 2),
        "dimension 2",
        "(2, 3, 4)",
        "(2, 4, 4)",
    )
    raises(IndexError, "cat", lambda: ember.cat([x, x], 3), "3")
    raises(TypeError, "cat", lambda: ember.cat(x), "Tensor")
    raises(TypeError, "cat", lambda: ember.cat([x, 3]), "element 1")
    raises(TypeError, "cat", lambda: ember.cat([x], 1.0), "dim")
    raises(RuntimeError, "stack", lambda: ember.stack([]), "non-empty")
    raises(
        RuntimeError,
        "stack",
        lambda: ember.stack([tensor((2,)), tensor((3,))]),
        "(2,)",
        "(3,)",
        "entry 1",
    )
    raises(IndexError, "stack", lambda: ember.stack([x, x], 4), "4")
    assert ember.stack([tensor(()), tensor(())]).shape == (2,)
    raises(IndexError, "stack", lambda: ember.stack([tensor(()), tensor(())], 1), "1")


# ---------------------------------------------------------------- split / chunk


def torch_chunk_sizes(size: int, chunks: int) -> list[int]:
    """torch.chunk's rule: pieces of ceil(size / chunks), the last one smaller (maybe fewer)."""
    if size == 0:
        return [0] * chunks
    step = -(-size // chunks)
    return [min(step, size - start) for start in range(0, size, step)]


@pytest.mark.parametrize(
    ("size", "chunks", "expected"),
    [(5, 4, [2, 2, 1]), (6, 4, [2, 2, 2]), (0, 3, [0, 0, 0]), (3, 5, [1, 1, 1]), (7, 1, [7])],
)
def test_chunk_sizes_like_torch(size: int, chunks: int, expected: list[int]) -> None:
    assert [p.shape[0] for p in tensor((size,)).chunk(chunks)] == expected
    assert torch_chunk_sizes(size, chunks) == expected
    # np.array_split spreads the remainder instead: torch.chunk differs.
    if size == 5 and chunks == 4:
        assert [len(p) for p in np.array_split(np.zeros(5), 4)] == [2, 1, 1, 1]


@given(arrays(nonempty_shapes), st.data())
def test_split_chunk_match_numpy(a: np.ndarray, data: st.DataObject) -> None:
    x = ember.from_numpy(a)
    d = data.draw(st.integers(-a.ndim, a.ndim - 1))
    size = a.shape[d]
    step = data.draw(st.integers(1, size + 1))
    parts = x.split(step, d)
    bounds = list(range(step, size, step))
    expected = np.split(a, bounds, axis=d)
    assert isinstance(parts, tuple) and len(parts) == len(expected)
    for p, e in zip(parts, expected, strict=True):
        assert_close(p, e)
        assert p._is_view_of(x)
    sections = data.draw(st.lists(st.integers(0, size), min_size=1, max_size=4))
    sections[-1] = size - sum(sections[:-1])
    if sections[-1] >= 0:
        cuts = list(np.cumsum(sections[:-1]))
        for p, e in zip(ember.split(x, sections, d), np.split(a, cuts, axis=d), strict=True):
            assert_close(p, e)
        for p, e in zip(x.split_with_sizes(sections, d), np.split(a, cuts, axis=d), strict=True):
            assert_close(p, e)
    chunks = data.draw(st.integers(1, 6))
    sizes = torch_chunk_sizes(size, chunks)
    got = ember.chunk(x, chunks, d)
    assert [p.shape[d] for p in got] == sizes
    assert_close(ember.cat(list(got), d), a)


def test_split_chunk_errors_and_edges() -> None:
    x = tensor((2, 3, 4))
    assert x.split(2, -1)[1].storage_offset() == 2
    assert x.split((1, 2), 1)[1].storage_offset() == 4
    assert [p.shape for p in ember.split(x, [0, 0, 3], 1)] == [(2, 0, 4), (2, 0, 4), (2, 3, 4)]
    assert len(tensor((0, 2)).split(0)) == 1
    assert len(tensor((0,)).split(2)) == 1
    assert tensor((0,)).split([]) == ()
    raises(RuntimeError, "split", lambda: x.split(-1), "split_size=-1")
    raises(RuntimeError, "split", lambda: x.split(0), "dimension size of 2")
    raises(RuntimeError, "split_with_sizes", lambda: x.split([1, 2]), "sum exactly to 2")
    raises(RuntimeError, "split_with_sizes", lambda: x.split([3, -1]), "non-negative")
    raises(RuntimeError, "split", lambda: tensor(()).split(1), "1-dimensional")
    raises(IndexError, "split", lambda: x.split(1, 5), "5")
    raises(RuntimeError, "chunk", lambda: x.chunk(0), "greater than 0")
    raises(RuntimeError, "chunk", lambda: tensor(()).chunk(1), "1-dimensional")
    raises(TypeError, "split", lambda: x.split(1.5))


# ---------------------------------------------------------------- bad input never crashes

MODULE_OPS = [
    ("reshape", ((2, 3),)),
    ("permute", ((0, 1),)),
    ("transpose", (0, 1)),
    ("swapaxes", (0, 1)),
    ("swapdims", (0, 1)),
    ("t", ()),
    ("squeeze", ()),
    ("unsqueeze", (0,)),
    ("flatten", ()),
    ("unflatten", (1, (3, 1))),
    ("narrow", (0, 0, 1)),
    ("select", (0, 0)),
    ("unbind", ()),
    ("movedim", (0, 1)),
    ("moveaxis", (0, 1)),
    ("diagonal", ()),
    ("split", (1,)),
    ("chunk", (2,)),
]


@pytest.mark.parametrize(("name", "args"), MODULE_OPS)
def test_module_functions_need_a_tensor_input(name: str, args: tuple[Any, ...]) -> None:
    x = tensor((2, 3))
    getattr(ember, name)(x, *args)
    raises(TypeError, name, lambda: getattr(ember, name)(3, *args), "int")
    raises(TypeError, name, lambda: getattr(ember, name)(None, *args), "NoneType")


garbage = st.one_of(
    st.integers(-6, 6),
    st.integers(-(2**70), 2**70),
    st.none(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.text(max_size=2),
    st.lists(st.integers(-3, 5), max_size=5).map(tuple),
    st.lists(st.integers(-3, 5), max_size=3),
)

METHODS = [
    "view", "reshape", "permute", "transpose", "expand", "squeeze", "unsqueeze", "flatten",
    "unflatten", "narrow", "select", "unbind", "movedim", "diagonal", "split", "chunk",
    "swapaxes", "squeeze_", "unsqueeze_", "transpose_", "__getitem__", "split_with_sizes",
]  # fmt: skip


@given(shapes(), st.sampled_from(METHODS), st.lists(garbage, max_size=3))
def test_bad_arguments_raise_typed_errors(
    shape: tuple[int, ...], name: str, args: list[Any]
) -> None:
    x = tensor(shape)
    try:
        getattr(x, name)(*args)
    except (IndexError, ValueError, RuntimeError, NotImplementedError) as e:
        assert str(e).startswith("["), (name, args, str(e))
    except TypeError:
        pass  # nanobind's own arity errors do not carry an [op] prefix
    for bad in ([x, 1], [x, "a"], [x, None], 3):
        with pytest.raises(TypeError):
            ember.cat(bad)  # type: ignore[arg-type]
