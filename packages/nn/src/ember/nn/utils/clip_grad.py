"""Gradient clipping: ``clip_grad_norm_``, ``clip_grad_value_``, ``get_total_norm``.

``foreach`` is accepted for torch compatibility; ember runs the same per-tensor loop either way
(the norms are one native reduction per gradient plus one over the stacked norms).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor_sequence

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
]

_TensorOrTensors = Tensor | Iterable[Tensor]


def _as_list(tensors: Any, where: str, name: str = "parameters") -> list[Any]:
    return check_tensor_sequence(tensors, name, where)


def _grads(parameters: Any, where: str) -> list[Any]:
    return [p.grad for p in _as_list(parameters, where) if p.grad is not None]


def get_total_norm(
    tensors: _TensorOrTensors,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """The ``norm_type``-norm of all ``tensors`` together (as if concatenated).

    Example:
        >>> ember.nn.utils.get_total_norm([ember.tensor([3.0]), ember.tensor([4.0])])
        tensor(5.)
    """
    items = _as_list(tensors, "get_total_norm", "tensors")
    norm_type = float(norm_type)
    if not items:
        empty: Tensor = ember.tensor(0.0)
        return empty
    with no_grad():
        norms = [ember.linalg.vector_norm(t, norm_type) for t in items]
        dtype = norms[0].dtype
        total: Any = ember.linalg.vector_norm(ember.stack([n.to(dtype) for n in norms]), norm_type)
    if error_if_nonfinite and not bool(ember.isfinite(total)):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`"
        )
    result: Tensor = total
    return result


def clip_grads_with_norm_(
    parameters: _TensorOrTensors,
    max_norm: float,
    total_norm: Tensor,
    foreach: bool | None = None,
) -> None:
    """Scales the gradients by ``max_norm / (total_norm + 1e-6)`` when that is below 1.

    Example:
        >>> p = ember.nn.Parameter(ember.ones(2))
        >>> p.grad = ember.tensor([3.0, 4.0])
        >>> ember.nn.utils.clip_grads_with_norm_([p], 1.0, ember.tensor(5.0))
        >>> p.grad
        tensor([0.6000, 0.8000])
    """
    grads = _grads(parameters, "clip_grads_with_norm_")
    if not grads:
        return
    with no_grad():
        coef: Any = ember.clamp(float(max_norm) / (total_norm + 1e-6), max=1.0)
        for g in grads:
            g.mul_(coef.to(g.dtype))


def clip_grad_norm_(
    parameters: _TensorOrTensors,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Rescales the gradients in place so their total norm is at most ``max_norm``.

    Returns the total norm before clipping. ``norm_type`` may be ``inf``.

    Example:
        >>> p = ember.nn.Parameter(ember.ones(2))
        >>> p.grad = ember.tensor([3.0, 4.0])
        >>> ember.nn.utils.clip_grad_norm_([p], max_norm=1.0)
        tensor(5.)
    """
    params = _as_list(parameters, "clip_grad_norm_", "parameters")  # a generator is read once
    grads = _grads(params, "clip_grad_norm_")
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(params, max_norm, total, foreach)
    return total


def clip_grad_norm(
    parameters: _TensorOrTensors,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> Tensor:
    """Deprecated alias of ``clip_grad_norm_``."""
    warnings.warn(
        "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
        "`torch.nn.utils.clip_grad_norm_`.",
        FutureWarning,
        stacklevel=2,
    )
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(
    parameters: _TensorOrTensors, clip_value: float, foreach: bool | None = None
) -> None:
    """Clamps every gradient element into ``[-clip_value, clip_value]`` in place.

    Example:
        >>> p = ember.nn.Parameter(ember.ones(2))
        >>> p.grad = ember.tensor([3.0, -4.0])
        >>> ember.nn.utils.clip_grad_value_([p], 1.0)
        >>> p.grad
        tensor([ 1., -1.])
    """
    clip_value = float(clip_value)
    with no_grad():
        for g in _grads(parameters, "clip_grad_value_"):
            g.clamp_(min=-clip_value, max=clip_value)
