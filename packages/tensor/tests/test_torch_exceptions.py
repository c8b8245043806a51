"""Exception classes as torch 2.13 raises them (each also keeps ember's earlier class)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import ember

# (case, call, torch's class, ember's earlier class): the error must be an instance of both.
CASES: list[tuple[str, Callable[[Any], Any], type[BaseException], type[BaseException]]] = [
    ("gather", lambda m: m.zeros(3).gather(0, m.tensor([5])), RuntimeError, IndexError),
    ("scatter", lambda m: m.zeros(3).scatter(0, m.tensor([5]), 1.0), RuntimeError, IndexError),
    ("scatter_add", lambda m: m.zeros(3).scatter_add(0, m.tensor([5]), m.ones(1)), RuntimeError,
     IndexError),
    ("mean of int", lambda m: m.zeros(3, dtype=m.int64).mean(), RuntimeError, TypeError),
    ("bitwise_and on float", lambda m: m.bitwise_and(m.zeros(2), m.zeros(2)),
     NotImplementedError, TypeError),
    ("int() of 2 elements", lambda m: int(m.zeros(2)), ValueError, RuntimeError),
    ("float() of 2 elements", lambda m: float(m.zeros(2)), ValueError, RuntimeError),
    ("tensor(2**64)", lambda m: m.tensor(2**64), ValueError, RuntimeError),
    ("where with float condition", lambda m: m.where(m.zeros(2), m.zeros(2), m.zeros(2)),
     RuntimeError, TypeError),
    ("tensor of strings", lambda m: m.tensor(["a"]), ValueError, TypeError),
    ("tensor of a string", lambda m: m.tensor("a"), TypeError, TypeError),
    ("index out of range", lambda m: m.zeros(3)[m.tensor([10])], IndexError, IndexError),
    ("item of 2 elements", lambda m: m.zeros(2).item(), RuntimeError, RuntimeError),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "call", "torch_cls", "ember_cls"), CASES, ids=[c[0] for c in CASES]
)
def test_exception_classes(
    case: str, call: Callable[[Any], Any], torch_cls: type, ember_cls: type
) -> None:
    with pytest.raises(torch_cls) as info:
        call(ember)
    assert isinstance(info.value, ember_cls)
    assert str(info.value).startswith("[")  # ember's message names the op


@pytest.mark.parametrize(
    ("case", "call", "torch_cls", "ember_cls"), CASES, ids=[c[0] for c in CASES]
)
def test_against_torch(
    case: str, call: Callable[[Any], Any], torch_cls: type, ember_cls: type
) -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as info:
        call(torch)
    assert type(info.value) is torch_cls or type(info.value).__mro__[1] is torch_cls


def test_cuda_errors_are_assertion_errors_like_torch() -> None:
    if ember.cuda.is_available():
        pytest.skip("a CUDA device is present")
    with pytest.raises(AssertionError):
        ember.zeros(1).cuda()
    with pytest.raises(RuntimeError):  # and a RuntimeError, as ember's other errors
        ember.cuda.synchronize()


def test_numpy_of_a_tensor_requiring_grad() -> None:
    if not ember._C._has_grad_recorder():
        pytest.skip("needs ember-autograd")
    x = ember.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"detach\(\)\.numpy\(\)"):
        x.numpy()
    import numpy as np

    with pytest.raises(RuntimeError, match="detach"):
        np.asarray(x)
    assert x.detach().numpy().tolist() == [1.0, 1.0]
    assert x.numpy(force=True).tolist() == [1.0, 1.0]
