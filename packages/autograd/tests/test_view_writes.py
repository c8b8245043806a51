"""In-place writes through views of tensors autograd did not track (torch's CopySlices on a base
that did not require grad), and the refusals for views autograd cannot track."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember.autograd import gradcheck, gradgradcheck

F64 = ember.float64


def test_write_through_view_gives_the_base_a_history() -> None:
    x = ember.tensor([1.0, 2.0], requires_grad=True)
    buf = ember.zeros(4)
    view = buf[1:3]
    view.copy_(x * 2)
    assert buf.requires_grad and not buf.is_leaf
    assert buf.grad_fn is not None and buf.grad_fn.name() == "CopySlices"
    (buf * ember.arange(4.0)).sum().backward()
    assert x.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_view_of_view_writes_reach_the_root_base() -> None:
    x = ember.tensor([3.0], requires_grad=True)
    buf = ember.zeros(2, 3)
    buf[1][1:2].mul_(0).add_(x)
    assert buf.grad_fn is not None
    (buf**2).sum().backward()
    assert x.grad is not None
    np.testing.assert_array_equal(x.grad.numpy(), [6.0])


def _scatter_into_buffer(x: ember.Tensor, y: ember.Tensor) -> ember.Tensor:
    buf = ember.zeros(3, 4, dtype=F64)
    buf[:, 1:3].copy_(x)
    buf.diagonal().mul_(y)
    return buf.exp()


def test_gradcheck_through_writes_into_a_fresh_buffer() -> None:
    rng = np.random.default_rng(0)
    x = ember.tensor(rng.standard_normal((3, 2)), dtype=F64, requires_grad=True)
    y = ember.tensor(rng.standard_normal(3), dtype=F64, requires_grad=True)
    assert gradcheck(_scatter_into_buffer, [x, y])
    assert gradgradcheck(_scatter_into_buffer, [x, y])


def test_detached_alias_is_not_a_view_for_autograd() -> None:
    w = ember.randn(3, requires_grad=True)
    y = ember.randn(3, requires_grad=True)
    d = w.detach()
    d.copy_(y)
    assert w.grad_fn is None and w.is_leaf
    assert d.grad_fn is not None


def test_view_made_under_no_grad_of_a_leaf_refuses_a_tracked_write() -> None:
    w = ember.randn(3, requires_grad=True)
    y = ember.randn(3, requires_grad=True)
    before = w.detach().clone()
    with ember.no_grad():
        view = w[:2]
    with pytest.raises(RuntimeError, match=r"^\[copy_\] a view of a leaf Variable"):
        view.copy_(y[:2])
    np.testing.assert_array_equal(w.detach().numpy(), before.numpy())  # refused before writing


def test_view_whose_base_later_requires_grad_refuses_a_tracked_write() -> None:
    buf = ember.zeros(3)
    view = buf[:2]
    buf.requires_grad_()
    with pytest.raises(RuntimeError, match="view of a leaf Variable"):
        view.copy_(ember.ones(2, requires_grad=True))


def test_view_made_under_no_grad_of_a_non_leaf_refuses_a_tracked_write() -> None:
    w = ember.randn(3, requires_grad=True)
    h = w * 2
    with ember.no_grad():
        view = h[:2]
    with pytest.raises(RuntimeError, match="created in no_grad mode"):
        view.mul_(w[:2])


def test_untracked_write_leaves_everything_untracked() -> None:
    buf = ember.zeros(3)
    buf[:2].copy_(ember.ones(2))
    assert not buf.requires_grad and buf.grad_fn is None
