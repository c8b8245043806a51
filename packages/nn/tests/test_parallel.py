"""ember.nn.parallel on a build without accelerators: DataParallel wraps and calls the module."""

from __future__ import annotations

import pytest

import ember
from ember import nn


def test_data_parallel_calls_the_module_and_prefixes_state_dict_keys() -> None:
    ember.manual_seed(0)
    inner = nn.Linear(2, 3)
    model = nn.DataParallel(inner)
    x = ember.randn(4, 2)
    assert ember.equal(model(x), inner(x))
    assert sorted(model.state_dict()) == ["module.bias", "module.weight"]
    assert model.device_ids == []
    assert repr(model).startswith("DataParallel(\n  (module): Linear(")


def test_functional_data_parallel_and_device_ids_refused() -> None:
    layer = nn.Linear(2, 3)
    x = ember.ones(1, 2)
    assert ember.equal(nn.parallel.data_parallel(layer, x), layer(x))
    with pytest.raises(RuntimeError, match="accelerator"):
        nn.DataParallel(layer, device_ids=[0])
    with pytest.raises(RuntimeError, match="accelerator"):
        nn.parallel.data_parallel(layer, x, device_ids=[0, 1])


def test_distributed_data_parallel_needs_a_process_group() -> None:
    with pytest.raises(ValueError, match="process group"):
        nn.parallel.DistributedDataParallel(nn.Linear(2, 3))
