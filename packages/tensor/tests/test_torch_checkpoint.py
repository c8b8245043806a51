"""ember.load of torch.save's zip checkpoints: the committed fixture, fresh files made by torch
when it is importable, and hand-assembled archives for the edge cases."""

from __future__ import annotations

import collections
import io
import os
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch_fixture
from torch_pickles import PickleWriter, archive

import ember

FIXTURE = Path(__file__).parent / "data" / "torch_state_dict.pt"
HAS_AUTOGRAD = ember._C._has_grad_recorder()


def as_numpy(t: ember.Tensor) -> np.ndarray:
    t = t.detach()
    if t.dtype in (ember.bfloat16, ember.float16):
        t = t.float()
    return t.resolve_conj().numpy()


def assert_same_tree(got: object, want: object) -> None:
    assert type(got) is type(want) or (isinstance(got, tuple) and isinstance(want, tuple))
    if isinstance(want, ember.Tensor):
        assert isinstance(got, ember.Tensor)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(as_numpy(got), as_numpy(want))
    elif isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want)
        for key in want:
            assert_same_tree(got[key], want[key])
    elif isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for a, b in zip(got, want, strict=True):
            assert_same_tree(a, b)
    else:
        assert got == want


def test_committed_fixture_loads_with_identical_values() -> None:
    loaded = ember.load(FIXTURE)
    assert_same_tree(loaded, torch_fixture.build(ember))
    sd = loaded["state_dict"]
    assert type(sd) is collections.OrderedDict
    # closed forms, independent of ember's own arithmetic
    np.testing.assert_array_equal(sd["fc.weight"].numpy(), np.arange(12.0).reshape(3, 4) / 8)
    np.testing.assert_array_equal(sd["emb.t"].numpy(), np.arange(6).reshape(2, 3).T)
    assert sd["emb.t"].stride() == (1, 3)  # torch's strides, kept
    assert sd["fc.row"]._is_view_of(sd["fc.weight"]) and sd["fc.row"].storage_offset() == 4
    assert sd["z"].tolist() == [1 + 2j, -0.5j] and sd["u8"].tolist() == [0, 255]
    assert type(loaded["size"]) is ember.Size and loaded["dtype"] == ember.float16
    assert loaded["big"] == 2**70 and loaded["flags"] == {"amp": True, 4: "four"}


def test_fixture_from_a_file_object_and_with_map_location() -> None:
    raw = FIXTURE.read_bytes()
    for kwargs in ({}, {"map_location": "cpu"}, {"map_location": ember.device("cpu")}):
        loaded = ember.load(io.BytesIO(raw), **kwargs)
        assert loaded["epoch"] == 3
    with open(FIXTURE, "rb") as fh:
        assert ember.load(fh, mmap=True)["name"] == "run"


def test_fresh_checkpoints_made_by_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3))
    path = tmp_path / "model.pt"
    torch.save(model.state_dict(), path)
    loaded = ember.load(path)
    assert list(loaded) == list(model.state_dict())
    for key, value in model.state_dict().items():
        assert loaded[key].dtype == getattr(ember, str(value.dtype).removeprefix("torch."))
        np.testing.assert_array_equal(loaded[key].numpy(), value.numpy())
    buffer = io.BytesIO()
    torch.save(torch_fixture.build(torch), buffer, pickle_protocol=4)
    assert_same_tree(ember.load(io.BytesIO(buffer.getvalue())), torch_fixture.build(ember))
    # a Parameter saved as such, and a conjugate view
    p = torch.nn.Parameter(torch.ones(2))
    z = torch.tensor([1 + 1j]).conj()
    torch.save({"p": p, "z": z}, path)
    loaded = ember.load(path)
    assert loaded["p"].tolist() == [1.0, 1.0] and loaded["z"].tolist() == [1 - 1j]
    assert loaded["p"].requires_grad == HAS_AUTOGRAD


def test_weights_only_refuses_other_globals_naming_the_class(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    path = tmp_path / "module.pt"
    torch.save(torch.nn.Linear(2, 2), path)
    with pytest.raises(pickle.UnpicklingError, match=r"torch\.nn\.modules\.linear\.Linear") as info:
        ember.load(path)
    assert "weights_only=False" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_cuda_locations_need_map_location() -> None:
    data = PickleWriter().tensor("0", 2, (2,), (1,), location="cuda:0").done()
    raw = archive(data, {"0": np.array([1.0, 2.0], np.float32).tobytes()})
    with pytest.raises(RuntimeError, match="map_location"):
        ember.load(io.BytesIO(raw))
    assert ember.load(io.BytesIO(raw), map_location="cpu").tolist() == [1.0, 2.0]


def test_hand_assembled_views_share_one_storage() -> None:
    w = PickleWriter().op(b"(")
    w.tensor("0", 6, (2, 3), (3, 1)).tensor("0", 6, (3,), (2,), offset=1)
    data = w.op(b"l").done()  # LIST of the two tensors
    a, b = ember.load(io.BytesIO(archive(data, {"0": np.arange(6, dtype=np.float32).tobytes()})))
    assert a._is_view_of(b) and b.tolist() == [1.0, 3.0, 5.0]


def test_weights_only_false_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    data = PickleWriter().glob("collections", "Counter").value(({"a": 2},)).op(b"R").done()
    raw = archive(data)
    with pytest.raises(pickle.UnpicklingError, match=r"collections\.Counter"):
        ember.load(io.BytesIO(raw))
    assert ember.load(io.BytesIO(raw), weights_only=False) == collections.Counter(a=2)
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    assert ember.load(io.BytesIO(raw)) == collections.Counter(a=2)
    with pytest.raises(pickle.UnpicklingError):
        ember.load(io.BytesIO(raw), weights_only=True)  # an explicit True wins
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "1")
    with pytest.raises(pickle.UnpicklingError):
        ember.load(io.BytesIO(raw), weights_only=False)
    assert os.environ["TORCH_FORCE_WEIGHTS_ONLY_LOAD"] == "1"


def test_the_allowlist_is_short_and_documented() -> None:
    from ember import _torch_format

    names = set(_torch_format.ALLOWED)
    assert "torch._utils._rebuild_tensor_v2" in names and "collections.OrderedDict" in names
    assert not any(n.startswith(("os.", "posix.", "subprocess.", "sys.")) for n in names)
    assert "builtins.eval" not in names and "builtins.getattr" not in names
    doc = (Path(__file__).parents[3] / "docs" / "serialization.md").read_text()
    for name in names:
        module, _, short = name.rpartition(".")
        dtype_like = short.startswith(("float", "int", "uint", "bool", "bfloat", "complex"))
        if module.startswith("__builtin__") or dtype_like:
            continue  # documented as groups (dtypes, builtins under both spellings)
        assert name in doc, name
