"""Shape errors inside a model name the layer, its configuration and its path (issue 13, 8)."""

from __future__ import annotations

from collections import OrderedDict

import pytest

import ember
import ember.nn as nn


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoder = nn.Sequential(OrderedDict(fc1=nn.Linear(10, 5), act=nn.Identity()))
        self.head = nn.Linear(5, 2)

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        return self.head(self.encoder(x))


def test_error_names_layer_and_path() -> None:
    with pytest.raises(RuntimeError) as info:
        Model()(ember.ones(3, 7))
    assert str(info.value) == (
        "[Linear(in_features=10, out_features=5, bias=True) at 'encoder.fc1'] expected input "
        "with last dimension 10, got shape (3, 7)"
    )


def test_error_of_top_level_layer_has_no_path() -> None:
    with pytest.raises(RuntimeError) as info:
        nn.Linear(4, 2)(ember.ones(3))
    assert str(info.value) == (
        "[Linear(in_features=4, out_features=2, bias=True)] expected input with last dimension "
        "4, got shape (3,)"
    )


def test_path_through_module_list_and_keeps_type() -> None:
    layers = nn.ModuleList([nn.Linear(2, 2), nn.Bilinear(2, 3, 1)])

    class M(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layers = layers

        def forward(self, x):
            return self.layers[1](self.layers[0](x), x)

    with pytest.raises(
        RuntimeError, match=r"at 'layers\.1'\] expected input2 with last dimension 3"
    ):
        M()(ember.ones(1, 2))


def test_user_module_errors_are_untouched() -> None:
    class Mine(nn.Module):
        def forward(self, x):
            raise ValueError("my own message")

    outer = nn.Sequential(Mine())
    with pytest.raises(ValueError) as info:
        outer(ember.ones(1))
    assert str(info.value) == "my own message"


def test_native_op_errors_inside_layers_get_the_layer() -> None:
    flat = nn.Sequential(nn.Flatten(start_dim=5))
    with pytest.raises(IndexError) as info:
        flat(ember.ones(2, 3))
    assert str(info.value).startswith("[Flatten(start_dim=5, end_dim=-1) at '0'] ")


def test_same_error_twice_is_not_prefixed_twice() -> None:
    m = Model()
    for _ in range(2):
        with pytest.raises(RuntimeError) as info:
            m(ember.ones(3, 7))
        assert str(info.value).count("[Linear") == 1
