"""collate with a collate_fn_map; default_collate_fn_map extended in place, as torch documents."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import ember
from ember.utils.data import DataLoader, default_collate
from ember.utils.data._utils.collate import collate, collate_tensor_fn, default_collate_fn_map


class Box:
    def __init__(self, value: float) -> None:
        self.value = value


class SubBox(Box):
    pass


def collate_box(batch: list[Box], *, collate_fn_map: Any) -> ember.Tensor:
    return ember.tensor([b.value for b in batch]) * 10


@pytest.fixture
def box_registered() -> Iterator[None]:
    default_collate_fn_map[Box] = collate_box
    yield
    del default_collate_fn_map[Box]


def test_custom_map_only_handles_its_types() -> None:
    calls: list[int] = []

    def stack(batch: list[ember.Tensor], *, collate_fn_map: Any) -> ember.Tensor:
        calls.append(len(batch))
        return ember.stack(batch, 0)

    out = collate(
        [{"a": ember.ones(2)}, {"a": ember.zeros(2)}], collate_fn_map={ember.Tensor: stack}
    )
    assert tuple(out["a"].shape) == (2, 2) and calls == [2]
    with pytest.raises(TypeError, match="default_collate: batch must contain"):
        collate([1, 2], collate_fn_map={ember.Tensor: stack})  # ints are not in this map


def test_without_a_map_only_containers_recurse() -> None:
    with pytest.raises(TypeError, match=r"found <class 'ember\._tensor\.Tensor'>"):
        collate([ember.ones(1), ember.ones(1)])


def test_extending_default_map_in_place(box_registered: None) -> None:
    out = default_collate([(Box(1.0), 0), (Box(2.0), 1)])
    np.testing.assert_array_equal(out[0].numpy(), [10.0, 20.0])
    assert out[1].tolist() == [0, 1]
    # subclasses go through isinstance, in the map's insertion order
    np.testing.assert_array_equal(default_collate([SubBox(3.0)]).numpy(), [30.0])


def test_default_map_drives_dataloader(box_registered: None) -> None:
    loader = DataLoader([Box(float(i)) for i in range(4)], batch_size=2)
    assert [b.tolist() for b in loader] == [[0.0, 10.0], [20.0, 30.0]]


def test_overriding_the_tensor_entry() -> None:
    def doubled(batch: list[ember.Tensor], *, collate_fn_map: Any) -> ember.Tensor:
        return ember.stack(batch, 0) * 2

    default_collate_fn_map[ember.Tensor] = doubled
    try:
        np.testing.assert_array_equal(default_collate([ember.ones(1)]).numpy(), [[2.0]])
    finally:
        default_collate_fn_map[ember.Tensor] = collate_tensor_fn


def test_numpy_entries_follow_torch_order() -> None:
    default_collate([np.zeros(2)])  # numpy is imported: its entries are registered
    keys = list(default_collate_fn_map)
    assert keys[0] is ember.Tensor and keys[1] is np.ndarray
    assert keys[2] == (np.bool_, np.number, np.object_)
    out = default_collate([np.float32(1.5), np.float32(2.5)])
    assert out.dtype == ember.float32 and out.tolist() == [1.5, 2.5]
    with pytest.raises(TypeError, match="default_collate: batch must contain"):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_collating_plain_samples_does_not_import_numpy() -> None:
    code = (
        "import sys; from ember.utils.data import default_collate; "
        "default_collate([(1.0, 2, 'a'), (3.0, 4, 'b')]); print('numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_matches_torch_on_nested_samples() -> None:
    torch = pytest.importorskip("torch")
    from torch.utils.data._utils.collate import collate as torch_collate
    from torch.utils.data._utils.collate import default_collate_fn_map as torch_map

    samples = [{"x": [1.0, 2], "y": (np.arange(3), "s")}, {"x": [3.0, 4], "y": (np.ones(3), "t")}]
    ours = collate(samples, collate_fn_map=default_collate_fn_map)
    theirs = torch_collate(samples, collate_fn_map=torch_map)
    assert isinstance(theirs["x"][0], torch.Tensor)
    assert ours["x"][0].tolist() == theirs["x"][0].tolist()
    assert ours["x"][1].tolist() == theirs["x"][1].tolist()
    np.testing.assert_array_equal(ours["y"][0].numpy(), theirs["y"][0].numpy())
    assert ours["y"][1] == theirs["y"][1]
