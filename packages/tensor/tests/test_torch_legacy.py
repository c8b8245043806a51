"""ember.load of torch's legacy non-zip checkpoints (``_use_new_zipfile_serialization=False``):
the committed fixture, fresh files made by torch when it is importable, hand-assembled files."""

from __future__ import annotations

import collections
import io
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch_fixture
import torch_pickles as tp
from test_torch_checkpoint import assert_same_tree

import ember

FIXTURE = Path(__file__).parent / "data" / "torch_legacy_state_dict.pt"
F32 = np.arange(1.0, 5.0, dtype=np.float32).tobytes()


def test_committed_legacy_fixture_loads_with_identical_values() -> None:
    raw = FIXTURE.read_bytes()
    assert raw.startswith(b"\x80\x02\x8a\x0a")  # the magic number, pickled: not a zip
    loaded = ember.load(FIXTURE)
    assert_same_tree(loaded, torch_fixture.build(ember))
    sd = loaded["state_dict"]
    assert type(sd) is collections.OrderedDict
    np.testing.assert_array_equal(sd["fc.weight"].numpy(), np.arange(12.0).reshape(3, 4) / 8)
    np.testing.assert_array_equal(sd["fc.bias"].numpy(), (np.arange(3.0) - 1) * 0.25)
    np.testing.assert_array_equal(sd["bn.mean16"].numpy(), np.arange(4, dtype=np.float16) / 4)
    assert sd["mask"].tolist() == [True, False, True] and sd["bn.num_batches_tracked"].item() == 7
    assert sd["emb.t"].stride() == (1, 3)
    assert sd["fc.row"]._is_view_of(sd["fc.weight"]) and sd["fc.row"].storage_offset() == 4
    assert loaded["big"] == 2**70 and loaded["flags"] == {"amp": True, 4: "four"}
    assert loaded["history"] == [1, (2.5, None)] and loaded["name"] == "run"


def test_legacy_fixture_from_file_objects() -> None:
    raw = FIXTURE.read_bytes()
    assert ember.load(io.BytesIO(raw), map_location="cpu")["epoch"] == 3
    with open(FIXTURE, "rb") as fh:
        assert ember.load(fh, mmap=True)["lr"] == 0.1
    # two checkpoints back to back in one stream load one after the other, as in torch
    stream = io.BytesIO(raw + raw)
    assert ember.load(stream)["epoch"] == 3
    assert ember.load(stream)["name"] == "run"


def test_fresh_legacy_checkpoints_made_by_torch(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.BatchNorm1d(3))
    path = tmp_path / "model.pt"
    torch.save(model.state_dict(), path, _use_new_zipfile_serialization=False)
    loaded = ember.load(path)
    assert list(loaded) == list(model.state_dict())
    for key, value in model.state_dict().items():
        np.testing.assert_array_equal(loaded[key].numpy(), value.numpy())
    for protocol in (2, 4):
        buffer = io.BytesIO()
        torch.save(torch_fixture.build(torch), buffer, pickle_protocol=protocol,
                   _use_new_zipfile_serialization=False)  # fmt: skip
        assert_same_tree(ember.load(io.BytesIO(buffer.getvalue())), torch_fixture.build(ember))
    # the same bytes as the committed fixture: torch writes the format deterministically
    fresh = tmp_path / "fixture.pt"
    torch.save(torch_fixture.build(torch), fresh, _use_new_zipfile_serialization=False)
    assert_same_tree(ember.load(fresh), ember.load(FIXTURE))


def test_whole_modules_saved_the_legacy_way_need_weights_only_false(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("ember.nn")  # not a dependency of ember-tensor
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU())
    path = tmp_path / "module.pt"
    torch.save(model, path, _use_new_zipfile_serialization=False)
    # torch refuses these under weights_only even with safe_globals (persistent id 'module')
    classes = [ember.nn.Sequential, ember.nn.Linear, ember.nn.ReLU]
    with (
        ember.serialization.safe_globals(classes),
        pytest.raises(pickle.UnpicklingError, match="weights_only=False"),
    ):
        ember.load(path)
    loaded = ember.load(path, weights_only=False)
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    want = model(torch.from_numpy(x)).detach().numpy()
    np.testing.assert_allclose(loaded(ember.from_numpy(x)).detach().numpy(), want, rtol=1e-6)


def test_hand_assembled_legacy_file_shares_storages() -> None:
    w = tp.PickleWriter().op(b"(").tensor("7", 4, (2, 2), (2, 1), legacy=True)
    w.tensor("7", 4, (2,), (2,), offset=1, legacy=True)
    raw = tp.legacy_file(w.op(b"l").done(), {"7": (4, F32)})
    a, b = ember.load(io.BytesIO(raw))
    assert a.tolist() == [[1.0, 2.0], [3.0, 4.0]] and b.tolist() == [2.0, 4.0]
    assert a._is_view_of(b)
