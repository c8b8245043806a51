"""ember.nn's Parameter and Buffer cross processes through shared memory, keeping their type.

As in torch: a Parameter sent through a Queue (or as a spawned Process's argument) arrives as a
Parameter with its requires_grad, over the sender's memory; tied parameters stay tied. ember-nn is
not a dependency of ember-multiprocessing, so these tests are skipped without it.
"""

from __future__ import annotations

from multiprocessing.reduction import ForkingPickler
from typing import Any

import ember_mp_helpers as helpers
import pytest

import ember
import ember.multiprocessing as mp

nn = pytest.importorskip("ember.nn", reason="Parameter and Buffer come with ember-nn")

METHODS = ["fork", "spawn"]


def roundtrip(method: str, objects: list[Any]) -> list[Any]:
    """Sends each object to a child, which reports on it and adds 1 in place; returns reports."""
    ctx = mp.get_context(method)
    q_in, q_out = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=helpers.nn_tensors_roundtrip, args=(q_in, q_out))
    p.start()
    reports = []
    try:
        for obj in objects:
            q_in.put(obj)
            reports.append(q_out.get(timeout=30))
            assert q_out.get(timeout=30) == "done"
        q_in.put(None)
    finally:
        p.join(30)
    assert p.exitcode == 0
    return reports


@pytest.mark.parametrize("method", METHODS)
def test_parameter_arrives_as_parameter_over_shared_memory(method: str) -> None:
    trained = nn.Parameter(ember.zeros(3))
    frozen = nn.Parameter(ember.full((2,), 5.0), requires_grad=False)
    reports = roundtrip(method, [trained, frozen])
    assert reports[0] == [("Parameter", True, True, None, reports[0][0][4], [0.0, 0.0, 0.0])]
    assert reports[1] == [("Parameter", False, True, None, reports[1][0][4], [5.0, 5.0])]
    # the child's in-place writes landed in this process's memory
    assert trained.tolist() == [1.0, 1.0, 1.0] and frozen.tolist() == [6.0, 6.0]
    assert trained.is_shared() and frozen.is_shared()
    assert type(trained) is nn.Parameter and trained.requires_grad and not frozen.requires_grad


@pytest.mark.parametrize("method", METHODS)
def test_tied_and_view_parameters_keep_sharing(method: str) -> None:
    weight = nn.Parameter(ember.zeros(4))
    tied = nn.Parameter(weight.detach())  # one storage, two parameters (weight tying)
    window = nn.Parameter(ember.zeros(6)[2:5])  # a parameter over an offset view
    reports = roundtrip(method, [(weight, tied), window])
    (w, t), (v,) = reports
    assert w[0] == t[0] == "Parameter" and w[4] == t[4]  # the same memory in the child
    assert weight.tolist() == [2.0] * 4  # both adds reached the one storage
    assert v[:4] == ("Parameter", True, True, None) and v[5] == [0.0, 0.0, 0.0]
    assert window.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("method", METHODS)
def test_buffer_arrives_as_buffer_over_shared_memory(method: str) -> None:
    buf = nn.Buffer(ember.arange(3.0), persistent=False)
    ((kind, requires_grad, shared, persistent, _, values),) = roundtrip(method, [buf])[0]
    assert (kind, requires_grad, shared, persistent) == ("Buffer", False, True, False)
    assert values == [0.0, 1.0, 2.0]
    assert buf.tolist() == [1.0, 2.0, 3.0]


def test_shared_module_as_spawn_argument_is_trained_in_place() -> None:
    ctx = mp.get_context("spawn")
    model = nn.Linear(3, 2).share_memory()
    before = [p.detach().clone() for p in model.parameters()]
    q = ctx.SimpleQueue()
    p = ctx.Process(target=helpers.bump_module_parameters, args=(model, q))
    p.start()
    seen = q.get()
    p.join(30)
    assert p.exitcode == 0
    assert seen == [("Parameter", True, True), ("Parameter", True, True)]
    for param, old in zip(model.parameters(), before, strict=True):
        assert type(param) is nn.Parameter
        assert param.tolist() == (old + 1).tolist()  # the child wrote this memory


def test_non_leaf_view_of_parameter_is_refused() -> None:
    view = nn.Parameter(ember.zeros(4))[1:]  # produced by autograd: not a leaf
    with pytest.raises(RuntimeError, match="non-leaf"):
        ForkingPickler.dumps(view)
    ForkingPickler.dumps(view.detach())  # the data alone can travel
