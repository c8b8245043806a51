"""TensorBase._make_subclass, as_subclass and _set_data: the hooks nn.Parameter is built on."""

from __future__ import annotations

import numpy as np
import pytest

import ember


class Sub(ember.Tensor):
    """A subclass with a __dict__, like nn.Parameter."""


def test_make_subclass_shares_storage_as_a_new_tensor() -> None:
    base = ember.arange(6.0).reshape(2, 3)
    sub = ember.Tensor._make_subclass(Sub, base, False)
    assert type(sub) is Sub and isinstance(sub, ember.Tensor)
    assert sub.data_ptr() == base.data_ptr() and sub.shape == (2, 3)
    assert not sub._is_same_tensor(base)  # a new TensorImpl over the same storage
    sub.tag = "attributes work"
    base.add_(1)
    np.testing.assert_array_equal(sub.numpy(), np.arange(1.0, 7.0).reshape(2, 3))
    assert type(sub + 1) is ember.Tensor  # ops return the registered class


def test_as_subclass_is_the_same_tensor() -> None:
    base = ember.ones(3)
    sub = base.as_subclass(Sub)
    assert type(sub) is Sub and sub._is_same_tensor(base)
    with pytest.raises(TypeError, match=r"\[as_subclass\] cls must be a subclass of Tensor"):
        base.as_subclass(int)
    with pytest.raises(TypeError, match=r"\[_make_subclass\] cls must be a subclass of Tensor"):
        ember.Tensor._make_subclass(dict, base, False)


def test_set_data_replaces_storage_and_geometry_in_place() -> None:
    t = ember.zeros(2)
    other = ember.arange(12, dtype=ember.float64).reshape(3, 4)[:, 1:]
    assert t._set_data(other) is t
    assert t.shape == (3, 3) and t.dtype == ember.float64 and t.stride() == (4, 1)
    assert t.data_ptr() == other.data_ptr()
    np.testing.assert_array_equal(t.numpy(), other.numpy())
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got int"):
        t._set_data(3)
