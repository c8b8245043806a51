"""Bad arguments to recorded ops raise the op's own typed error (found by the registry fuzzer:
the recorder read them as tensors first and raised AttributeError)."""

from __future__ import annotations

import pytest

import ember


def test_a_non_tensor_in_a_tensor_list_is_the_ops_type_error() -> None:
    x = ember.ones(2, requires_grad=True)
    with pytest.raises(TypeError):
        ember.block_diag(x, -2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ember.atleast_2d(slice(None), x)


@pytest.mark.parametrize("dtype", [ember.int64, ember.bool, ember.uint8])
def test_an_integer_destination_filled_from_a_leaf_carries_no_gradient(dtype: ember.dtype) -> None:
    # torch gives int_tensor.fill_(leaf) requires_grad=True (an integer tensor with a gradient
    # path); ember keeps it out of the graph, as copy_ into an integer tensor does in both.
    t = ember.zeros((), dtype=dtype)
    t.fill_(ember.full((), 0.75, requires_grad=True))
    assert not t.requires_grad
    assert t.item() == (1 if dtype == ember.bool else 0)
