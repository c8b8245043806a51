"""torch's legacy tensor API: Tensor(...) constructors, typed classes, type names, typename."""

from __future__ import annotations

import numpy as np
import pytest

import ember

TYPED = [
    (ember.FloatTensor, ember.float32, "FloatTensor"),
    (ember.DoubleTensor, ember.float64, "DoubleTensor"),
    (ember.HalfTensor, ember.float16, "HalfTensor"),
    (ember.BFloat16Tensor, ember.bfloat16, "BFloat16Tensor"),
    (ember.LongTensor, ember.int64, "LongTensor"),
    (ember.IntTensor, ember.int32, "IntTensor"),
    (ember.ShortTensor, ember.int16, "ShortTensor"),
    (ember.CharTensor, ember.int8, "CharTensor"),
    (ember.ByteTensor, ember.uint8, "ByteTensor"),
    (ember.BoolTensor, ember.bool, "BoolTensor"),
]


def test_tensor_empty_sizes_and_data() -> None:
    assert ember.Tensor().shape == (0,) and ember.Tensor().dtype == ember.float32
    assert ember.Tensor(2, 3).shape == (2, 3)
    assert ember.Tensor(4).shape == (4,)
    assert ember.Tensor(size=(2, 1)).shape == (2, 1)
    assert ember.Tensor(ember.Size([2, 3])).shape == (2, 3)
    assert ember.Tensor(device="cpu").shape == (0,)
    d = ember.Tensor([[1, 2], [3, 4]])
    assert d.dtype == ember.float32 and d.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert ember.Tensor((2, 3)).tolist() == [2.0, 3.0]  # a tuple is data, as torch
    assert ember.Tensor([]).shape == (0,)
    np.testing.assert_array_equal(ember.Tensor(np.arange(3)).numpy(), np.arange(3.0))


def test_tensor_of_tensor_is_an_alias() -> None:
    t = ember.tensor([1, 2])
    a = ember.Tensor(t)
    assert a is not t and a._is_view_of(t) and a.dtype == ember.int64


def test_legacy_errors_match_torch() -> None:
    with pytest.raises(TypeError, match="data must be a sequence"):
        ember.Tensor(2.5)
    with pytest.raises(TypeError, match="invalid data type 'str'"):
        ember.Tensor("ab")
    with pytest.raises(TypeError, match="unexpected keyword"):
        ember.Tensor([1], dtype=ember.float64)
    with pytest.raises(TypeError, match="tuple of ints"):
        ember.Tensor(2, "a")
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        ember.Tensor(-1)
    with pytest.raises(TypeError, match="expected a tensor of dtype"):
        ember.LongTensor(ember.tensor([1.0]))


@pytest.mark.parametrize(("cls", "dtype", "name"), TYPED, ids=[t[2] for t in TYPED])
def test_typed_classes(cls: type, dtype: ember.dtype, name: str) -> None:
    assert cls(3).dtype == dtype and cls(3).shape == (3,)
    assert cls(2, 2).shape == (2, 2)
    assert cls().shape == (0,)
    made = cls([1, 0])
    assert made.dtype == dtype and made.tolist() == ember.tensor([1, 0], dtype=dtype).tolist()
    assert isinstance(ember.zeros(2, dtype=dtype), cls)
    others = [other for other, odt, _ in TYPED if odt != dtype]
    assert not any(isinstance(ember.zeros(2, dtype=dtype), other) for other in others)
    assert not isinstance([1.0], cls)
    assert not issubclass(cls, ember.Tensor)  # as torch: a type tag, not a tensor subclass
    t = ember.zeros(2, dtype=dtype)
    assert t.type() == f"torch.{name}" and ember.typename(t) == f"torch.{name}"
    assert ember.tensor([1.0]).type(cls).dtype == dtype
    assert ember.tensor([1.0]).type(f"torch.{name}").dtype == dtype
    assert ember.tensor([1.0]).type(f"ember.{name}").dtype == dtype


def test_long_tensor_truncates_like_torch() -> None:
    assert ember.LongTensor([1.5, -2.7]).tolist() == [1, -2]


def test_type_errors() -> None:
    with pytest.raises(ValueError, match="invalid type"):
        ember.zeros(2).type("foo")
    with pytest.raises(RuntimeError, match="CUDA"):
        ember.zeros(2).type("torch.cuda.FloatTensor")
    with pytest.raises(TypeError):
        ember.zeros(2).type(3)


def test_type_as_and_typename() -> None:
    assert ember.tensor([1.5]).type_as(ember.tensor([1])).tolist() == [1]
    x = ember.ones(2)
    assert x.type_as(ember.zeros(1)) is x
    with pytest.raises(TypeError, match="type_as"):
        x.type_as(3)
    assert ember.typename(3) == "int"
    assert ember.typename(ember.Size([1])) == "ember._tensor.Size"


class Plain(ember.Tensor):
    pass


class WithNew(ember.Tensor):
    """A subclass with its own __new__ (the nn.Parameter pattern)."""

    def __new__(cls, data: ember.Tensor, flag: bool = True) -> WithNew:
        made: WithNew = ember._C._as_subclass(data, cls)
        return made

    def __init__(self, data: ember.Tensor, flag: bool = True) -> None:
        self.flag = flag


def test_subclass_constructors() -> None:
    p = Plain([1, 2])
    assert type(p) is Plain and p.tolist() == [1.0, 2.0]
    assert type(Plain(2, 3)) is Plain and Plain(2, 3).shape == (2, 3)
    w = WithNew(ember.ones(2), flag=False)
    assert type(w) is WithNew and w.flag is False and w.tolist() == [1.0, 1.0]
    assert type(w + 1) is ember.Tensor  # ops return plain tensors


def test_size_slicing_and_concatenation() -> None:
    s = ember.Size([1, 2, 3])
    assert type(s[1:]) is ember.Size and s[1:] == (2, 3)
    assert s[0] == 1 and type(s[0]) is int
    assert type(s + (4,)) is ember.Size and s + (4,) == (1, 2, 3, 4)  # noqa: RUF005
    assert type((0,) + s) is ember.Size  # noqa: RUF005
    assert type(s * 2) is ember.Size and type(2 * s) is ember.Size
    with pytest.raises(TypeError):
        s + [4]  # type: ignore[operator]  # noqa: RUF005
    assert repr(s[::-1]) == "ember.Size([3, 2, 1])"


def test_against_torch() -> None:
    torch = pytest.importorskip("torch")
    for args in [(), (2, 3), ([1, 2],), ((2, 3),)]:
        assert tuple(ember.Tensor(*args).shape) == tuple(torch.Tensor(*args).shape)
    assert ember.zeros(2, dtype=ember.int16).type() == torch.zeros(2, dtype=torch.int16).type()
