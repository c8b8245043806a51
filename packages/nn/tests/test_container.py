"""Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict (reprs from torch 2.13)."""

from __future__ import annotations

from collections import OrderedDict

import pytest

import ember
import ember.nn as nn


def _lin(i: int = 2, o: int = 2) -> nn.Linear:
    return nn.Linear(i, o)


def test_sequential_indexing_slicing_and_editing() -> None:
    a, b, c = _lin(), nn.Identity(), _lin()
    seq = nn.Sequential(a, b, c)
    assert len(seq) == 3 and seq[0] is a and seq[-1] is c
    sub = seq[1:]
    assert isinstance(sub, nn.Sequential) and list(sub) == [b, c]
    assert list(sub._modules) == ["1", "2"]  # slices keep the original keys, as torch
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]
    seq[1] = nn.Flatten()
    assert isinstance(seq[1], nn.Flatten)
    del seq[0]
    assert list(seq._modules) == ["0", "1"] and seq[1] is c
    seq.append(a)
    seq.insert(0, b)
    assert list(seq) == [b, seq[1], c, a]
    seq.extend([nn.Identity()])
    assert len(seq) == 5
    assert seq.pop(0) is b and len(seq) == 4
    with pytest.raises(IndexError, match="Index out of range"):
        seq.insert(10, b)
    both = nn.Sequential(a) + nn.Sequential(c)
    assert list(both) == [a, c]
    with pytest.raises(ValueError, match="add operator supports only objects of Sequential"):
        nn.Sequential(a) + [c]  # noqa: RUF005
    tripled = nn.Sequential(a) * 3
    assert len(tripled) == 3 and tripled[2] is a
    s = nn.Sequential(a)
    s += nn.Sequential(c)
    assert list(s) == [a, c]


def test_sequential_ordered_dict_and_forward() -> None:
    seq = nn.Sequential(OrderedDict(fc=nn.Linear(3, 2), flat=nn.Flatten(0)))
    assert [n for n, _ in seq.named_children()] == ["fc", "flat"]
    assert seq(ember.ones(4, 3)).shape == (8,)
    assert repr(nn.Sequential()) == "Sequential()"
    assert repr(seq) == (
        "Sequential(\n  (fc): Linear(in_features=3, out_features=2, bias=True)\n"
        "  (flat): Flatten(start_dim=0, end_dim=-1)\n)"
    )


def test_module_list() -> None:
    ml = nn.ModuleList([_lin(), _lin(), nn.Identity(), _lin(2, 3)])
    assert repr(ml) == (
        "ModuleList(\n  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n"
        "  (2): Identity()\n  (3): Linear(in_features=2, out_features=3, bias=True)\n)"
    )
    assert len(ml) == 4 and isinstance(ml[1:3], nn.ModuleList) and len(ml[1:3]) == 2
    assert len(list(ml.parameters())) == 6
    ml.append(nn.Identity())
    ml.insert(0, nn.Flatten())
    assert isinstance(ml[0], nn.Flatten) and len(ml) == 6
    del ml[0]
    assert list(ml._modules) == [str(i) for i in range(5)]
    ml += [nn.Identity()]
    assert len(ml) == 6
    assert len(ml + nn.ModuleList([nn.Identity()])) == 7
    with pytest.raises(IndexError, match="index 9 is out of range"):
        ml[9]
    with pytest.raises(TypeError, match=r"ModuleList\.extend should be called with an iterable"):
        ml.extend(3)
    assert repr(nn.ModuleList()) == "ModuleList()"


def test_module_dict() -> None:
    md = nn.ModuleDict({"b": _lin(), "a": nn.Identity()})
    assert list(md.keys()) == ["b", "a"]  # insertion order (not sorted)
    assert "a" in md and len(md) == 2
    md["c"] = nn.Flatten()
    assert [k for k, _ in md.items()] == ["b", "a", "c"]
    assert isinstance(md.pop("c"), nn.Flatten)
    md.update([("z", nn.Identity())])
    assert list(md) == ["b", "a", "z"]
    with pytest.raises(ValueError, match="has length 1; 2 is required"):
        md.update([("only",)])
    md.clear()
    assert len(md) == 0
    assert repr(nn.ModuleDict({"a": _lin()})) == (
        "ModuleDict(\n  (a): Linear(in_features=2, out_features=2, bias=True)\n)"
    )


def test_parameter_list() -> None:
    pl = nn.ParameterList([nn.Parameter(ember.ones(2, 3)), ember.ones(2, dtype=ember.float64)])
    assert isinstance(pl[1], nn.Parameter)  # plain tensors are wrapped
    assert repr(pl) == (
        "ParameterList(\n    (0): Parameter containing: [ember.float32 of size 2x3]\n"
        "    (1): Parameter containing: [ember.float64 of size 2]\n)"
    )
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    pl.append(ember.zeros(1))
    assert len(pl) == 3 and len(list(pl.parameters())) == 3
    assert isinstance(pl[0:2], nn.ParameterList) and len(pl[0:2]) == 2
    with pytest.raises(TypeError, match=r"ParameterList\.extend should be called with an iterable"):
        pl.extend(ember.ones(2))
    with pytest.raises(RuntimeError, match="ParameterList should not be called"):
        pl(1)


def test_parameter_dict() -> None:
    pd = nn.ParameterDict({"b": nn.Parameter(ember.ones(2, 3)), "a": ember.ones(())})
    assert list(pd) == ["a", "b"]  # a plain dict is sorted, as torch
    assert repr(pd) == (
        "ParameterDict(\n    (a): Parameter containing: [torch.FloatTensor of size ]\n"
        "    (b): Parameter containing: [torch.FloatTensor of size 2x3]\n)"
    )
    pd["c"] = ember.zeros(1)
    assert isinstance(pd["c"], nn.Parameter) and "c" in pd and len(pd) == 3
    assert pd.get("missing", 5) == 5
    assert list(pd.state_dict()) == ["a", "b", "c"]
    k, _ = pd.popitem()
    assert k == "c" and len(pd) == 2
    assert pd.setdefault("d", ember.ones(1)) is pd["d"]
    merged = pd | nn.ParameterDict(OrderedDict(e=ember.ones(1)))
    assert list(merged) == ["a", "b", "d", "e"]
    with pytest.raises(TypeError, match="not a string"):
        pd[1] = ember.ones(1)
    with pytest.raises(RuntimeError, match="ParameterDict should not be called"):
        pd(1)
    pd.clear()
    assert len(pd) == 0


def test_module_list_insert_is_list_insert_and_refuses_junk() -> None:
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
    ml.insert(1, nn.Sigmoid())
    ml.insert(-1, nn.Identity())
    ml.insert(10, nn.ELU())
    assert [type(m).__name__ for m in ml] == ["ReLU", "Sigmoid", "Identity", "Tanh", "ELU"]
    assert list(ml.state_dict()) == [] and list(ml._modules) == ["0", "1", "2", "3", "4"]
    with pytest.raises(TypeError, match="list is not a Module subclass"):
        ml.insert(False, [1.0])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ml.insert("a", nn.ReLU())  # type: ignore[arg-type]
