"""A state_dict saved by PyTorch (safetensors) loads into the same ember.nn model and gives
torch's outputs. Fixtures: tests/data/make_torch_fixture.py (run with PyTorch 2.13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ember
import ember.nn as nn

DATA = Path(__file__).with_name("data")


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 8))
        self.bil = nn.Bilinear(8, 4, 5)
        self.head = nn.Linear(5, 3, bias=False)
        self.register_buffer("scale", ember.ones(3))

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        h = self.encoder(x).tanh()
        return self.head(self.bil(h, x)) * self.scale


def test_torch_state_dict_gives_torch_outputs() -> None:
    state = ember.load(DATA / "torch_mlp.safetensors")
    io = ember.load(DATA / "torch_mlp_io.safetensors")
    model = Net()
    assert sorted(model.state_dict()) == sorted(state)  # torch's key names
    assert repr(model.load_state_dict(state)) == "<All keys matched successfully>"
    with ember.no_grad():
        y = model(io["x"])
    np.testing.assert_allclose(y.numpy(), io["y"].numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(model.scale.numpy(), [0.5, 2.0, -1.0])


def test_ember_state_dict_round_trips_through_ember_save(tmp_path: Path) -> None:
    model = Net()
    ember.save(model.state_dict(), tmp_path / "m.pt")
    other = Net()
    other.load_state_dict(ember.load(tmp_path / "m.pt"))
    x = ember.randn(2, 4)
    np.testing.assert_array_equal(other(x).detach().numpy(), model(x).detach().numpy())


def test_against_live_torch_when_installed() -> None:
    torch = pytest.importorskip("torch")
    lin_t = torch.nn.Linear(3, 2)
    lin_e = nn.Linear(3, 2)
    lin_e.load_state_dict(
        {k: ember.tensor(v.detach().numpy()) for k, v in lin_t.state_dict().items()}
    )
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    np.testing.assert_allclose(
        lin_e(ember.tensor(x)).detach().numpy(), lin_t(torch.tensor(x)).detach().numpy(), rtol=1e-5
    )
    assert repr(lin_e) == repr(lin_t)
