"""memory_format (channels_last & co.), layout, storage access and the legacy in-place methods."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import ember

HAS_AUTOGRAD = ember._C._has_grad_recorder()


def _channels_last_strides(n: int, c: int, h: int, w: int) -> tuple[int, ...]:
    return (h * w * c, 1, w * c, c)  # closed form: C innermost, then W, H, N


def test_channels_last_strides_and_values() -> None:
    x = ember.arange(120.0).reshape(2, 3, 4, 5)
    y = x.contiguous(memory_format=ember.channels_last)
    assert y.stride() == _channels_last_strides(2, 3, 4, 5)
    assert y.is_contiguous(memory_format=ember.channels_last) and not y.is_contiguous()
    np.testing.assert_array_equal(y.numpy(), x.numpy())
    assert y.contiguous(memory_format=ember.channels_last) is y
    assert x.clone(memory_format=ember.channels_last).stride() == y.stride()
    assert y.clone().stride() == y.stride()  # preserve_format
    assert y.clone(memory_format=ember.contiguous_format).stride() == (60, 20, 5, 1)
    assert x.to(memory_format=ember.channels_last).stride() == y.stride()
    z = x.to(ember.float64, memory_format=ember.channels_last)
    assert z.dtype == ember.float64 and z.stride() == y.stride()


def test_channels_last_3d() -> None:
    x = ember.zeros(2, 3, 4, 5, 6).contiguous(memory_format=ember.channels_last_3d)
    assert x.stride() == (360, 1, 90, 18, 3)
    assert x.is_contiguous(memory_format=ember.channels_last_3d)


def test_size_one_dims_are_ignored_like_torch() -> None:
    x = ember.zeros(2, 1, 4, 5)
    assert x.is_contiguous(memory_format=ember.channels_last)
    assert not ember.zeros(2, 3, 4).is_contiguous(memory_format=ember.channels_last)


def test_memory_format_errors() -> None:
    with pytest.raises(RuntimeError, match="rank 4"):
        ember.zeros(2, 3, 4).contiguous(memory_format=ember.channels_last)
    with pytest.raises(RuntimeError, match="preserve"):
        ember.zeros(2).contiguous(memory_format=ember.preserve_format)
    with pytest.raises(TypeError, match="memory_format"):
        ember.zeros(2).clone(memory_format="channels_last")


@pytest.mark.parametrize(
    "name", ["empty_like", "zeros_like", "ones_like", "rand_like", "randn_like"]
)
def test_like_factories(name: str) -> None:
    f = getattr(ember, name)
    x = ember.zeros(2, 3, 4, 5)
    assert f(x, memory_format=ember.channels_last).stride() == _channels_last_strides(2, 3, 4, 5)
    cl = x.contiguous(memory_format=ember.channels_last)
    assert f(cl).stride() == cl.stride()  # preserve_format
    assert f(cl, memory_format=ember.contiguous_format).stride() == (60, 20, 5, 1)
    assert ember.full_like(x, 2.0, memory_format=ember.channels_last).stride() == cl.stride()


def test_memory_format_objects() -> None:
    assert repr(ember.channels_last) == "ember.channels_last"
    assert pickle.loads(pickle.dumps(ember.channels_last)) is ember.channels_last
    assert ember.zeros(2).layout is ember.strided and repr(ember.strided) == "ember.strided"
    assert isinstance(ember.contiguous_format, ember.memory_format)
    assert isinstance(ember.strided, ember.layout)


@pytest.mark.skipif(not HAS_AUTOGRAD, reason="needs ember-autograd")
def test_channels_last_is_differentiable() -> None:
    x = ember.randn(1, 2, 3, 3, dtype=ember.float64, requires_grad=True)
    y = x.contiguous(memory_format=ember.channels_last)
    (y * y).sum().backward()
    assert x.grad is not None
    np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())


def test_storage_access() -> None:
    x = ember.arange(6.0)
    view = x[2:]
    assert view.storage_offset() == 2
    s = view.untyped_storage()
    assert s.nbytes() == 24 and s.size() == 24 and len(s) == 24
    assert s.data_ptr() == x.data_ptr() and view.data_ptr() == x.data_ptr() + 8
    assert s.element_size() == 1 and s.device == ember.device("cpu")
    assert s.tolist()[4:8] == list(np.float32(1.0).tobytes())


def test_pinned_memory_like_torch_without_accelerator() -> None:
    x = ember.zeros(2)
    assert x.is_pinned() is False
    with pytest.raises(RuntimeError, match="accelerator"):
        x.pin_memory()


def test_apply_and_map() -> None:
    x = ember.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.apply_(lambda v: v * v) is x
    assert x.tolist() == [[1.0, 4.0], [9.0, 16.0]]
    y = ember.tensor([1, 2, 3]).map_(ember.tensor([10]), lambda a, b: a + b)
    assert y.tolist() == [11, 12, 13]
    with pytest.raises(TypeError, match="number"):
        ember.zeros(1).apply_(lambda v: "x")
    view = ember.zeros(4)[::2]
    view.apply_(lambda v: 5.0)
    assert view.tolist() == [5.0, 5.0]


@pytest.mark.skipif(not HAS_AUTOGRAD, reason="needs ember-autograd")
def test_apply_refuses_grad() -> None:
    with pytest.raises(RuntimeError, match="detach"):
        ember.zeros(2, requires_grad=True).apply_(lambda v: v)


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    t = torch.zeros(2, 3, 4, 5).contiguous(memory_format=torch.channels_last)
    e = ember.zeros(2, 3, 4, 5).contiguous(memory_format=ember.channels_last)
    assert t.stride() == e.stride()
