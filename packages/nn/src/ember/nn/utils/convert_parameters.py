"""``parameters_to_vector`` and ``vector_to_parameters``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor_sequence

__all__ = ["parameters_to_vector", "vector_to_parameters"]

_P2V = "parameters_to_vector"


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened and concatenated into one 1-d tensor (a copy).

    Example:
        >>> ember.nn.utils.parameters_to_vector(ember.nn.Linear(2, 3).parameters()).shape
        ember.Size([9])
    """
    flat = [p.reshape(-1) for p in check_tensor_sequence(parameters, "parameters", _P2V)]
    out: Tensor = ember.cat(flat) if flat else ember.empty(0)
    return out


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copies consecutive slices of ``vec`` into the parameters (replacing their data).

    Example:
        >>> lin = ember.nn.Linear(2, 1)
        >>> ember.nn.utils.vector_to_parameters(ember.arange(3.0), lin.parameters())
        >>> lin.bias
        Parameter containing:
        tensor([2.], requires_grad=True)
    """
    if not isinstance(vec, Tensor):  # torch's text
        raise TypeError(f"expected ember.Tensor, but got: {type(vec).__name__}")
    params = check_tensor_sequence(parameters, "parameters", "vector_to_parameters")
    total = sum(p.numel() for p in params)
    if vec.dim() != 1 or vec.numel() < total:
        shape: Any = vec.shape
        raise ValueError(
            f"[vector_to_parameters] vec must be 1-d with at least {total} elements (the "
            f"parameters' total), got shape {tuple(shape)}"
        )
    pointer = 0
    for p in params:
        n = p.numel()
        p._set_data(vec[pointer : pointer + n].view_as(p).detach())
        pointer += n
