"""Whole modules through ember.save/ember.load with the weights-only allowlist: the classes a
caller must list are the ones torch asks for (pytorch/examples word_language_model's pattern)."""

from __future__ import annotations

import io
import math
import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ember
from ember import nn
from ember.nn import functional as F


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, max_len: int = 50) -> None:
        super().__init__()
        self.dropout = nn.Dropout(p=0.1)
        position = ember.arange(max_len, dtype=ember.float32).unsqueeze(1)
        div = ember.exp(ember.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe = ember.zeros(max_len, d_model)
        pe[:, 0::2] = ember.sin(position * div)
        pe[:, 1::2] = ember.cos(position * div)
        self.register_buffer("pe", pe.unsqueeze(1))

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        return self.dropout(x + self.pe[: x.size(0)])


class TinyTransformer(nn.Module):
    """word_language_model's TransformerModel, small."""

    def __init__(self, ntoken: int = 20, d: int = 8) -> None:
        super().__init__()
        self.pos_encoder = PositionalEncoding(d)
        layer = nn.TransformerEncoderLayer(d, 2, 16, 0.1)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.embed = nn.Embedding(ntoken, d)
        self.decoder = nn.Linear(d, ntoken)

    def forward(self, src: ember.Tensor) -> ember.Tensor:
        x = self.pos_encoder(self.embed(src) * math.sqrt(8))
        return F.log_softmax(self.decoder(self.encoder(x)), dim=-1)


# What torch 2.13 needs listed for the same model (word_language_model/main.py's list).
NEEDED: list[Any] = [
    PositionalEncoding,
    TinyTransformer,
    F.relu,
    nn.modules.activation.MultiheadAttention,
    nn.modules.container.ModuleList,
    nn.modules.dropout.Dropout,
    nn.modules.linear.Linear,
    nn.modules.linear.NonDynamicallyQuantizableLinear,
    nn.modules.normalization.LayerNorm,
    nn.modules.sparse.Embedding,
    nn.modules.transformer.TransformerEncoder,
    nn.modules.transformer.TransformerEncoderLayer,
]


@pytest.fixture(autouse=True)
def empty_allowlist() -> Iterator[None]:
    ember.serialization.clear_safe_globals()
    yield
    ember.serialization.clear_safe_globals()


def saved(obj: Any) -> bytes:
    buffer = io.BytesIO()
    ember.save(obj, buffer)
    return buffer.getvalue()


def test_a_whole_transformer_loads_under_safe_globals() -> None:
    ember.manual_seed(0)
    model = TinyTransformer().eval()
    src = ember.tensor([[1, 2], [3, 4], [5, 6]])
    want = model(src).detach().numpy()
    raw = saved(model)
    with pytest.raises(pickle.UnpicklingError, match="TinyTransformer") as info:
        ember.load(io.BytesIO(raw))
    assert "weights_only=False" in str(info.value) and "safe_globals" in str(info.value)
    with ember.serialization.safe_globals(NEEDED):
        back = ember.load(io.BytesIO(raw))
    assert type(back) is TinyTransformer and not back.training
    np.testing.assert_array_equal(back(src).detach().numpy(), want)
    assert isinstance(back.decoder.weight, nn.Parameter) and back.decoder.weight.requires_grad
    assert list(back.state_dict()) == list(model.state_dict())


@pytest.mark.parametrize("missing", range(len(NEEDED)))
def test_each_listed_class_is_needed(missing: int) -> None:
    raw = saved(TinyTransformer())
    others = NEEDED[:missing] + NEEDED[missing + 1 :]
    name = NEEDED[missing].__qualname__
    with ember.serialization.safe_globals(others), pytest.raises(pickle.UnpicklingError) as info:
        ember.load(io.BytesIO(raw))
    assert name in str(info.value)


def test_add_safe_globals_and_a_model_of_rnns() -> None:
    ember.manual_seed(0)
    model = nn.Sequential(nn.Embedding(10, 4), nn.Dropout(0.2))
    lstm = nn.LSTM(4, 3, 2)
    raw = saved({"front": model, "rnn": lstm, "step": 3})
    ember.serialization.add_safe_globals([nn.Sequential, nn.Embedding, nn.Dropout, nn.LSTM])
    back = ember.load(io.BytesIO(raw))
    x = ember.tensor([[1, 2, 3]])
    out, _ = back["rnn"](back["front"].eval()(x))
    want, _ = lstm(model.eval()(x))
    np.testing.assert_array_equal(out.detach().numpy(), want.detach().numpy())
    assert back["step"] == 3


def test_a_whole_module_saved_by_torch_loads_under_safe_globals(tmp_path: Any) -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.LayerNorm(2))
    path = tmp_path / "model.pt"
    torch.save(model, path)
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    want = model(torch.from_numpy(x)).detach().numpy()
    # torch itself needs exactly these classes listed
    with pytest.raises(pickle.UnpicklingError):
        torch.load(path)
    classes = [torch.nn.Sequential, torch.nn.Linear, torch.nn.ReLU, torch.nn.LayerNorm]
    with torch.serialization.safe_globals(classes):
        torch.load(path)
    with pytest.raises(pickle.UnpicklingError, match=r"torch\.nn\.modules\.container\.Sequential"):
        ember.load(path)
    with ember.serialization.safe_globals([nn.Sequential, nn.Linear, nn.ReLU, nn.LayerNorm]):
        back = ember.load(path)
    assert type(back) is nn.Sequential and type(back[0]) is nn.Linear
    np.testing.assert_allclose(back(ember.from_numpy(x)).detach().numpy(), want, rtol=1e-6)
    no_relu = [nn.Sequential, nn.Linear, nn.LayerNorm]
    relu = r"torch\.nn\.modules\.activation\.ReLU"
    with (
        ember.serialization.safe_globals(no_relu),
        pytest.raises(pickle.UnpicklingError, match=relu),
    ):
        ember.load(path)


def test_unsafe_globals_of_a_torch_module_match_torch(tmp_path: Any) -> None:
    torch = pytest.importorskip("torch")
    path = tmp_path / "model.pt"
    torch.save(torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU()), path)
    want = sorted(torch.serialization.get_unsafe_globals_in_checkpoint(path))
    assert ember.serialization.get_unsafe_globals_in_checkpoint(path) == want
    with ember.serialization.safe_globals([nn.ReLU]):
        assert ember.serialization.get_unsafe_globals_in_checkpoint(path) == [
            "torch.nn.modules.container.Sequential",
            "torch.nn.modules.linear.Linear",
        ]
