"""copy.copy, copy.deepcopy and pickle of tensors: values against numpy, sharing by storage."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import ember

HAS_AUTOGRAD = ember._C._has_grad_recorder()
needs_autograd = pytest.mark.skipif(not HAS_AUTOGRAD, reason="needs ember-autograd")

DTYPES = [
    ember.bool, ember.uint8, ember.int8, ember.int16, ember.int32, ember.int64,
    ember.float16, ember.bfloat16, ember.float32, ember.float64, ember.complex64, ember.complex128,
]  # fmt: skip


class Tagged(ember.Tensor):
    """A plain subclass with instance attributes."""


def _sample(dtype: ember.dtype) -> ember.Tensor:
    return ember.arange(12).reshape(3, 4).to(dtype)


def _same(a: ember.Tensor, b: ember.Tensor) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.stride() == b.stride() and a.storage_offset() == b.storage_offset()
    np.testing.assert_array_equal(a.resolve_conj().to(ember.float64 if not a.is_complex() else
                                                      ember.complex128).numpy(),
                                  b.resolve_conj().to(ember.float64 if not b.is_complex() else
                                                      ember.complex128).numpy())  # fmt: skip


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
def test_pickle_round_trip_every_dtype(dtype: ember.dtype, protocol: int) -> None:
    x = _sample(dtype)
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    assert type(y) is ember.Tensor
    _same(x, y)
    assert not y._is_view_of(x)


def test_pickle_keeps_geometry_of_views() -> None:
    base = ember.arange(24.0)
    for view in (base[3:], base.view(4, 6).t(), base.view(4, 6)[1:, ::2], base.view(2, 3, 4)[1]):
        _same(view, pickle.loads(pickle.dumps(view)))


def test_pickle_views_of_one_storage_share_it() -> None:
    a = ember.arange(6.0)
    b, c, d = pickle.loads(pickle.dumps([a, a[1:], a.view(2, 3).t()]))
    assert b._is_view_of(c) and b._is_view_of(d) and not b._is_view_of(a)
    b[1] = 100.0
    assert c[0].item() == 100.0 and d[1, 0].item() == 100.0


def test_pickle_separate_pickles_do_not_share() -> None:
    a = ember.arange(4.0)
    b = pickle.loads(pickle.dumps(a))
    c = pickle.loads(pickle.dumps(a[1:]))
    assert not b._is_view_of(c)


def test_pickle_conj_view_stays_conj() -> None:
    z = ember.tensor([1 + 2j, 3 - 1j]).conj()
    y = pickle.loads(pickle.dumps(z))
    assert y.is_conj()
    np.testing.assert_array_equal(y.resolve_conj().numpy(), np.array([1 - 2j, 3 + 1j]))


def test_pickle_holds_no_code() -> None:
    data = pickle.dumps(ember.ones(3))
    # The only globals: the two rebuild functions of ember._tensor_pickle.
    import pickletools

    globals_seen = [
        arg for op, arg, _ in pickletools.genops(data) if op.name in ("GLOBAL", "STACK_GLOBAL")
    ]
    names = {g for g in globals_seen if isinstance(g, str)}
    assert all("ember._tensor_pickle" in g for g in names) or not names
    assert b"_rebuild_tensor" in data and b"_rebuild_storage" in data
    assert b"exec" not in data and b"eval" not in data


def test_unpickle_rejects_out_of_bounds_geometry() -> None:
    from ember import _tensor_pickle as tp

    storage = tp._rebuild_storage(bytes(16))
    with pytest.raises(ValueError, match="outside the storage"):
        tp._rebuild_tensor(storage, "F32", (5,), (1,), 0, False, False, None, None)
    with pytest.raises(ValueError, match="unknown dtype"):
        tp._rebuild_tensor(storage, "X9", (1,), (1,), 0, False, False, None, None)
    with pytest.raises(TypeError):
        tp._rebuild_tensor(b"1234", "F32", (1,), (1,), 0, False, False, None, None)
    with pytest.raises(TypeError):
        tp._rebuild_storage("not bytes")  # type: ignore[arg-type]


def test_pickle_subclass_and_dict() -> None:
    s = ember._C._as_subclass(ember.arange(3.0), Tagged)
    s.note = {"k": [1, 2]}
    y = pickle.loads(pickle.dumps(s))
    assert type(y) is Tagged and y.note == {"k": [1, 2]}
    _same(s, y)


def test_copy_shares_storage_like_torch() -> None:
    x = ember.arange(4.0)
    y = copy.copy(x)
    assert y is not x and y._is_view_of(x)
    y[0] = 7.0
    assert x[0].item() == 7.0


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_deepcopy_every_dtype(dtype: ember.dtype) -> None:
    x = _sample(dtype)
    y = copy.deepcopy(x)
    _same(x, y)
    assert not y._is_view_of(x)


def test_deepcopy_keeps_views_of_one_storage() -> None:
    a = ember.arange(6.0)
    model = {"a": a, "tail": a[1:], "grid": a.view(2, 3), "again": a}
    c = copy.deepcopy(model)
    assert c["again"] is c["a"]
    assert c["a"]._is_view_of(c["tail"]) and c["a"]._is_view_of(c["grid"])
    assert not c["a"]._is_view_of(a)
    c["a"][1] = -1.0
    assert c["tail"][0].item() == -1.0 and a[1].item() == 1.0


def test_deepcopy_conj_and_subclass() -> None:
    z = ember.tensor([1 + 1j]).conj()
    assert copy.deepcopy(z).is_conj()
    s = ember._C._as_subclass(ember.ones(2), Tagged)
    s.items = [1]
    c = copy.deepcopy(s)
    assert type(c) is Tagged and c.items == [1] and c.items is not s.items


@needs_autograd
def test_deepcopy_keeps_requires_grad_and_grad() -> None:
    w = ember.ones(2, requires_grad=True)
    w.grad = ember.tensor([3.0, 4.0])
    c = copy.deepcopy(w)
    assert c.requires_grad and c.is_leaf
    assert c.grad is not None and c.grad.tolist() == [3.0, 4.0]
    assert not c.grad._is_view_of(w.grad)
    p = pickle.loads(pickle.dumps(w))
    assert p.requires_grad and p.grad is None  # as torch: pickling drops .grad


@needs_autograd
def test_deepcopy_of_non_leaf_raises_torchs_error() -> None:
    w = ember.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="graph leaves"):
        copy.deepcopy(w * 2)


def test_reduce_ex_is_overridable() -> None:
    class Custom(ember.Tensor):
        def __reduce_ex__(self, protocol: object) -> tuple[object, tuple[object, ...]]:
            return (list, ([1, 2],))

    c = ember._C._as_subclass(ember.ones(1), Custom)
    assert pickle.loads(pickle.dumps(c)) == [1, 2]
