"""Lazy conjugate views: ``x.conj()`` shares storage with x and sets the conj bit, as in torch.

The oracle is numpy on the conjugated values (``np.conj(a)``); every op family is run on conj
views of several memory layouts and compared, and writes through a conj view are checked to land
conjugated in the shared storage.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ember
from conftest import (
    VIEW_LAYOUTS,
    assert_close,
    autograd_installed,
    raises,
    shapes,
    to_numpy,
    with_layout,
)

COMPLEX = {ember.complex64: np.complex64, ember.complex128: np.complex128}


def sample(shape: tuple[int, ...], dtype: Any = ember.complex128, seed: int = 0) -> np.ndarray:
    """Random complex values with both parts in [-3, 3)."""
    rng = np.random.default_rng(seed)
    values = rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)
    return np.asarray(values, COMPLEX[dtype])  # an array even for shape ()


def conj_pair(
    shape: tuple[int, ...], layout: str = "contiguous", dtype: Any = ember.complex128, seed: int = 0
) -> tuple[ember.Tensor, ember.Tensor, np.ndarray]:
    """(x, x.conj(), np.conj(a)) for a sample a laid out in memory as `layout`."""
    a = with_layout(sample(shape, dtype, seed), layout)
    x = ember.from_numpy(a)
    return x, x.conj(), np.conj(a)


# ---------------------------------------------------------------- the view itself


def test_conj_is_a_view_sharing_storage_both_ways() -> None:
    x = ember.tensor([1 + 2j, 3 - 4j])
    c = x.conj()
    assert c.is_conj() and not x.is_conj() and ember.is_conj(c)
    assert c._is_view_of(x) and c.data_ptr() == x.data_ptr()
    assert c.tolist() == [1 - 2j, 3 + 4j]
    x[0] = 5 + 6j  # a write to x shows in the view
    assert c[0].item() == 5 - 6j
    c[1] = 7 + 8j  # a write to the view stores the conjugate in x
    assert x.tolist() == [5 + 6j, 7 - 8j]
    assert c.conj().tolist() == x.tolist() and not c.conj().is_conj()
    assert c.conj()._is_view_of(x)


def test_real_tensors_are_returned_as_is() -> None:
    r = ember.tensor([1.0, -2.0])
    assert r.conj() is r and ember.conj(r) is r and r.resolve_conj() is r
    assert not r.is_conj()
    m = ember.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert m.H.data_ptr() == m.data_ptr() and not m.mH.is_conj()
    assert_close(ember.conj_physical(r), np.array([1.0, -2.0], np.float32))


def test_resolve_conj_and_conj_physical() -> None:
    x, c, expected = conj_pair((3, 2))
    assert x.resolve_conj() is x
    resolved = c.resolve_conj()
    assert not resolved.is_conj() and not resolved._is_view_of(x)
    assert_close(resolved, expected)
    physical = c.conj_physical()  # conj of the conjugated values: x's values
    assert not physical.is_conj() and not physical._is_view_of(x)
    assert_close(physical, to_numpy(x))
    assert_close(x.conj_physical(), expected)
    out = ember.empty(3, 2, dtype=ember.complex128)
    assert ember.conj_physical(x, out=out) is out
    assert_close(out, expected)
    y = x.clone()
    yc = y.conj()
    yc.conj_physical_()  # yc's values become conj(yc): y stores conj(x)
    assert yc.is_conj()
    assert_close(yc, to_numpy(x))
    assert_close(y, expected)


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("view", lambda t: t.view(6)),
        ("reshape", lambda t: t.reshape(2, 3)),
        ("transpose", lambda t: t.transpose(0, 1)),
        ("t", lambda t: t.t()),
        ("T", lambda t: t.T),
        ("mT", lambda t: t.mT),
        ("permute", lambda t: t.permute(1, 0)),
        ("select", lambda t: t.select(0, 1)),
        ("slice", lambda t: t[1:, ::2]),
        ("expand", lambda t: t.unsqueeze(0).expand(2, 3, 2)),
        ("squeeze", lambda t: t.unsqueeze(1).squeeze(1)),
        ("narrow", lambda t: t.narrow(1, 1, 1)),
        ("diagonal", lambda t: t.diagonal()),
        ("detach", lambda t: t.detach()),
        ("as_strided", lambda t: t.as_strided((2,), (2,))),
        ("flatten", lambda t: t.flatten()),
        ("unfold", lambda t: t.unfold(0, 2, 1)),
        ("contiguous", lambda t: t.contiguous()),
    ],
)
def test_views_of_a_conj_view_keep_the_bit(name: str, fn: Any) -> None:
    x, c, expected = conj_pair((3, 2))
    got = fn(c)
    assert got.is_conj(), name
    assert got._is_view_of(x), name
    assert_close(got, fn(ember.from_numpy(expected)).numpy())


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("split", lambda t: t.split(1)),
        ("chunk", lambda t: t.chunk(3)),
        ("unbind", lambda t: t.unbind(1)),
    ],
)
def test_multi_output_views_keep_the_bit(name: str, fn: Any) -> None:
    x, c, expected = conj_pair((3, 2))
    for got, want in zip(fn(c), fn(ember.from_numpy(expected)), strict=True):
        assert got.is_conj() and got._is_view_of(x), name
        assert_close(got, want.numpy())


@pytest.mark.parametrize(
    ("name", "fn"),
    [
        ("clone", lambda t: t.clone()),
        ("flip", lambda t: t.flip(0)),
        ("advanced index", lambda t: t[[2, 0]]),
        ("mask", lambda t: t[ember.tensor([True, False, True])]),
        ("index_select", lambda t: t.index_select(0, ember.tensor([1, 1]))),
        ("reshape copy", lambda t: t.t().reshape(6)),
        ("repeat", lambda t: t.repeat(2, 1)),
        ("roll", lambda t: t.roll(1, 0)),
        ("to complex128", lambda t: t.to(ember.complex128)),
        ("tril", lambda t: t.tril()),
    ],
)
def test_copies_of_a_conj_view_hold_the_conjugated_values(name: str, fn: Any) -> None:
    # complex64: index_select/gather of complex128 is broken on main (copies 8 of 16 bytes).
    x, c, expected = conj_pair((3, 2), dtype=ember.complex64)
    got = fn(c)
    assert not got.is_conj() and not got._is_view_of(x), name
    assert_close(got, to_numpy(fn(ember.from_numpy(expected))), rtol=1e-6, atol=1e-6)


def test_casts_to_real_and_same_dtype() -> None:
    _, c, expected = conj_pair((2, 2))
    assert c.to(ember.complex128) is c
    assert_close(c.double(), expected.real)
    assert_close(c.bool(), expected != 0)


def test_real_and_imag_of_a_conj_view() -> None:
    x, c, expected = conj_pair((2, 3))
    assert c.real._is_view_of(x) and not c.real.is_conj()
    assert_close(c.real, expected.real)
    assert_close(ember.real(c), expected.real)
    # torch returns a view with a negative bit; ember returns the values in a new tensor.
    assert_close(c.imag, expected.imag)
    assert_close(ember.imag(c), expected.imag)
    assert not c.imag._is_view_of(x)
    raises(RuntimeError, "view_as_real", lambda: ember.view_as_real(c), "resolve_conj")
    assert_close(ember.view_as_real(c.resolve_conj()), np.stack([expected.real, expected.imag], -1))
    raises(RuntimeError, "view", lambda: c.view(ember.float64), "conjugate")


def test_adjoint_family_are_conj_views() -> None:
    x, _, expected = conj_pair((2, 3))
    for got in (x.H, x.mH, x.adjoint(), ember.adjoint(x)):
        assert got.is_conj() and got._is_view_of(x)
        assert_close(got, expected.T)
    assert not x.H.H.is_conj()
    assert_close(x.H.H, to_numpy(x))
    b = ember.from_numpy(sample((4, 2, 3), seed=1))
    assert b.mH.is_conj() and tuple(b.mH.shape) == (4, 3, 2)
    assert_close(b.mH, np.conj(np.swapaxes(to_numpy(b), -1, -2)))


# ---------------------------------------------------------------- ops read the conjugated values


UNARY = {
    "neg": (lambda t: -t, np.negative),
    "exp": (ember.exp, np.exp),
    "sqrt": (ember.sqrt, np.sqrt),
    "abs": (ember.abs, np.abs),
    "angle": (ember.angle, np.angle),
    "square": (ember.square, np.square),
    "sum": (lambda t: t.sum(), np.sum),
    "prod": (lambda t: t.prod(), np.prod),
    "mean": (lambda t: t.mean(), np.mean),
    "isfinite": (ember.isfinite, np.isfinite),
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy: the mean of an empty array
@given(shape=shapes(max_dims=3), layout=st.sampled_from(VIEW_LAYOUTS))
def test_unary_and_reductions_on_conj_views(shape: tuple[int, ...], layout: str) -> None:
    _, c, expected = conj_pair(shape, layout)
    for op, ref in UNARY.values():
        assert_close(op(c), ref(expected), rtol=1e-10, atol=1e-10)


@given(
    shape=shapes(min_side=1, min_dims=1, max_dims=3),
    layout=st.sampled_from(VIEW_LAYOUTS),
    dtype=st.sampled_from(list(COMPLEX)),
)
def test_binary_ops_with_conj_operands(shape: tuple[int, ...], layout: str, dtype: Any) -> None:
    x, c, cx = conj_pair(shape, layout, dtype)
    y = ember.from_numpy(sample(shape, dtype, seed=3))
    b = to_numpy(y)
    tol = 1e-5 if dtype == ember.complex64 else 1e-12
    assert_close(c + y, cx + b, rtol=tol, atol=tol)
    assert_close(y - c, b - cx, rtol=tol, atol=tol)
    assert_close(c * c, cx * cx, rtol=tol, atol=tol)
    assert_close(c * x, cx * to_numpy(x), rtol=tol, atol=tol)  # |x|^2, same storage
    assert_close(c / y, cx / b, rtol=tol, atol=tol)
    assert_close(c * 2.5, cx * 2.5, rtol=tol, atol=tol)
    assert_close(c == x, cx == to_numpy(x))
    assert_close(ember.where(ember.abs(y) > 2, c, y), np.where(np.abs(b) > 2, cx, b), rtol=tol)
    assert_close(ember.cat([c, y]), np.concatenate([cx, b]))
    assert_close(ember.stack([y, c]), np.stack([b, cx]))


@pytest.mark.parametrize("dtype", list(COMPLEX))
def test_matrix_products_with_conj_views(dtype: Any) -> None:
    a = ember.from_numpy(sample((3, 4), dtype, 1))
    b = ember.from_numpy(sample((4, 5), dtype, 2))
    v = ember.from_numpy(sample((4,), dtype, 3))
    na, nb, nv = to_numpy(a), to_numpy(b), to_numpy(v)
    tol = 1e-5 if dtype == ember.complex64 else 1e-12
    assert_close(a.conj() @ b, na.conj() @ nb, rtol=tol, atol=tol)
    assert_close(a.H @ a, na.conj().T @ na, rtol=tol, atol=tol)
    assert_close(ember.mm(b.mH, a.H), nb.conj().T @ na.conj().T, rtol=tol, atol=tol)
    assert_close(ember.mv(a, v.conj()), na @ nv.conj(), rtol=tol, atol=tol)
    assert_close(ember.dot(v.conj(), v), np.dot(nv.conj(), nv), rtol=tol, atol=tol)
    assert_close(ember.vdot(v.conj(), v), np.vdot(nv.conj(), nv), rtol=tol, atol=tol)
    assert_close(ember.einsum("ij,jk->ik", a.conj(), b), na.conj() @ nb, rtol=tol, atol=tol)


# ---------------------------------------------------------------- writes into conj views


@given(shape=shapes(min_side=1, max_dims=3), layout=st.sampled_from(VIEW_LAYOUTS))
def test_inplace_ops_on_conj_views_store_conjugates(shape: tuple[int, ...], layout: str) -> None:
    x, c, cx = conj_pair(shape, layout)
    y = ember.from_numpy(sample(shape, seed=5))
    b = to_numpy(y)
    assert c.mul_(y) is c and c.is_conj()
    cx = cx * b
    assert_close(c, cx, rtol=1e-12, atol=1e-12)
    assert_close(x, np.conj(cx), rtol=1e-12, atol=1e-12)
    c += 1j
    cx = cx + 1j
    assert_close(x, np.conj(cx), rtol=1e-12, atol=1e-12)
    c.add_(c)  # the destination is also an input
    cx = cx + cx
    assert_close(x, np.conj(cx), rtol=1e-12, atol=1e-12)
    c.fill_(2 - 1j)
    assert_close(x, np.full(shape, 2 + 1j))
    c.zero_()
    assert_close(x, np.zeros(shape, np.complex128))


def test_setitem_and_copy_into_conj_views() -> None:
    # complex64: index_put_ of complex128 is broken on main (copies 8 of 16 bytes).
    x, c, cx = conj_pair((3, 2), dtype=ember.complex64)
    c[0, 1] = 4 + 5j
    c[[1, 2], 0] = ember.tensor([1j, 2j])
    c[2] = c[0]  # the value is a conj view too
    cx[0, 1] = 4 + 5j
    cx[[1, 2], 0] = [1j, 2j]
    cx[2] = cx[0]
    assert_close(c, cx)
    assert_close(x, np.conj(cx))
    source = ember.from_numpy(sample((3, 2), ember.complex64, seed=9))
    c.copy_(source)  # plain into conj: x stores the conjugate
    assert_close(x, np.conj(to_numpy(source)))
    plain = ember.zeros(3, 2, dtype=ember.complex64)
    plain.copy_(c)  # conj into plain: the conjugated values
    assert_close(plain, to_numpy(source))
    c.copy_(source.conj())  # conj into conj: the storage is copied as is
    assert_close(x, to_numpy(source))
    x.copy_(x.conj())  # the same memory, conjugated in place
    assert_close(x, np.conj(to_numpy(source)))


def test_out_argument_that_is_a_conj_view() -> None:
    x = ember.from_numpy(sample((2, 3), seed=1))
    y = ember.from_numpy(sample((2, 3), seed=2))
    storage = ember.zeros(2, 3, dtype=ember.complex128)
    out = storage.conj()
    assert ember.add(x, y, out=out) is out
    assert out.is_conj()
    assert_close(out, to_numpy(x) + to_numpy(y), rtol=1e-12)
    assert_close(storage, np.conj(to_numpy(x) + to_numpy(y)), rtol=1e-12)
    square = ember.zeros(2, 2, dtype=ember.complex128)
    assert ember.mm(x, y.H, out=square.H) is not None
    assert_close(square.H, to_numpy(x) @ np.conj(to_numpy(y)).T, rtol=1e-12)
    wrong = ember.zeros(5, dtype=ember.complex128).conj()
    raises(RuntimeError, "add", lambda: ember.add(x, y, out=wrong), "shape")


def test_writes_into_a_read_only_conj_view_raise() -> None:
    a = sample((3,))
    a.flags.writeable = False
    c = ember.from_numpy(a).conj()
    with pytest.raises(ValueError, match=r"^\[copy_\]"):
        c.add_(1)
    assert_close(ember.from_numpy(a), a)


# ---------------------------------------------------------------- exports and printing


def test_numpy_buffer_and_dlpack_refuse_conj_views() -> None:
    x, c, expected = conj_pair((2, 2))
    raises(RuntimeError, "numpy", lambda: c.numpy(), "resolve_conj")
    raises(RuntimeError, "numpy", lambda: np.asarray(c), "resolve_conj")
    np.testing.assert_array_equal(c.numpy(force=True), expected)
    np.testing.assert_array_equal(c.resolve_conj().numpy(), expected)
    with pytest.raises(BufferError, match=r"^\[buffer\] .*conjugate"):
        memoryview(c)
    with pytest.raises(BufferError, match=r"^\[__dlpack__\] .*conjugate"):
        c.__dlpack__()
    alias = ember.from_dlpack(c)  # an ember tensor is aliased, conj bit included
    assert alias.is_conj() and alias._is_view_of(x)
    assert_close(alias, expected)
    assert ember.as_tensor(c) is c
    assert_close(ember.as_tensor(c, dtype=ember.complex64), expected.astype(np.complex64))
    copied = ember.from_dlpack(c.__dlpack__(copy=True))
    assert not copied._is_view_of(x)
    assert_close(copied, expected)
    assert_close(ember.tensor(c), expected)  # a new tensor from the values


def test_printing_shows_the_conjugated_values() -> None:
    x = ember.tensor([[1 + 2j, 3 - 4j], [0.5j, -1]])
    assert repr(x.conj()) == repr(x.conj().resolve_conj())
    assert "1.-2.0000j" in repr(x.conj()) and "3.+4.0000j" in repr(x.conj())
    big = ember.from_numpy(sample((2000,)))
    text = repr(big.conj())  # summarized: goes through numpy
    assert text == repr(big.conj().resolve_conj()) and "..." in text


def test_save_stores_the_conjugated_values(tmp_path: Any) -> None:
    z = ember.tensor([1 + 1j, 2 - 3j])
    ember.save({"c": z.conj(), "z": z}, tmp_path / "c.ember")
    loaded = ember.load(tmp_path / "c.ember")
    assert not loaded["c"].is_conj()
    np.testing.assert_array_equal(loaded["c"].numpy(), [1 - 1j, 2 + 3j])
    np.testing.assert_array_equal(loaded["z"].numpy(), [1 + 1j, 2 - 3j])


# ---------------------------------------------------------------- autograd


@pytest.mark.skipif(not autograd_installed(), reason="needs ember-autograd")
def test_autograd_records_on_conj_views() -> None:
    z = ember.tensor([1 + 2j, 3 - 1j, -0.5j], requires_grad=True)
    w = ember.tensor([0.5 - 1j, 2 + 1j, 1.0])

    def loss(conjugate: Any) -> tuple[float, ember.Tensor]:
        c = conjugate(z)
        value = (c * w + c.resolve_conj().exp()).abs().sum() + c.H.real.sum()
        (grad,) = ember.autograd.grad(value, z)
        return value.item(), grad

    lazy_value, lazy_grad = loss(lambda t: t.conj())
    value, grad = loss(ember.conj_physical)  # the same function without lazy views
    assert lazy_value == pytest.approx(value, rel=1e-6)
    assert_close(lazy_grad, to_numpy(grad), rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(not autograd_installed(), reason="needs ember-autograd")
def test_inplace_writes_into_conj_views_refuse_autograd() -> None:
    z = ember.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    c = (z * 1).conj()
    raises(NotImplementedError, "mul_", lambda: c.mul_(2j), "conjugate view")
    raises(NotImplementedError, "copy_", lambda: c.copy_(z), "conjugate view")
    plain = ember.zeros(2, dtype=ember.complex64).conj()
    raises(NotImplementedError, "copy_", lambda: plain.copy_(z), "conjugate view")
    with ember.no_grad():
        c.mul_(2j)  # not recorded: allowed
    assert_close(c, np.conj(to_numpy(z.detach())) * 2j)


# ---------------------------------------------------------------- bad input


JUNK = [None, "a", 2.5, -7, 10**30, (1, 2), [0, 9], ember.zeros(3), ember.zeros(2, 2, 2)]
OPS = {
    "add": lambda c, j: c.add(j),
    "mul_": lambda c, j: c.mul_(j),
    "view": lambda c, j: c.view(j),
    "reshape": lambda c, j: c.reshape(j),
    "getitem": lambda c, j: c[j],
    "setitem": lambda c, j: c.__setitem__(j, 1),
    "select": lambda c, j: c.select(0, j),
    "transpose": lambda c, j: c.transpose(0, j),
    "expand": lambda c, j: c.expand(j),
    "matmul": lambda c, j: c @ j,
    "out": lambda c, j: ember.add(c, c, out=j),
    "copy_": lambda c, j: c.copy_(j),
    "index_select": lambda c, j: c.index_select(0, j),
}


@given(
    op=st.sampled_from(sorted(OPS)),
    junk=st.sampled_from(range(len(JUNK))),
    shape=shapes(min_dims=1, max_dims=3),
    layout=st.sampled_from(VIEW_LAYOUTS),
)
def test_bad_arguments_on_conj_views_raise_typed_errors(
    op: str, junk: int, shape: tuple[int, ...], layout: str
) -> None:
    x, c, _ = conj_pair(shape, layout)
    before = to_numpy(x)
    try:
        OPS[op](c, JUNK[junk])
    except (TypeError, ValueError, IndexError, RuntimeError) as e:
        message = str(e)
        python_own = ("incompatible function arguments", "unsupported operand type")
        assert message.startswith("[") or any(w in message for w in python_own), message
        if op not in ("copy_",):  # a failed op leaves the storage as it was
            np.testing.assert_array_equal(to_numpy(x), before)
    assert c.is_conj()


def test_adjoints_of_a_vector_name_the_accessor() -> None:
    v = ember.ones(3, dtype=ember.complex64)
    raises(RuntimeError, "mH", lambda: v.mH, "tensor.mH is only supported on matrices")
    raises(RuntimeError, "adjoint", lambda: v.adjoint(), "tensor.adjoint() is only supported")
