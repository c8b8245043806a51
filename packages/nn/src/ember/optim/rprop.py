"""Rprop: resilient backpropagation (torch.optim.Rprop)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
import ember_core._C as _C
from ember._grad_mode import enable_grad, no_grad
from ember._tensor import Tensor

from .optimizer import (
    Optimizer,
    ParamsT,
    _check_lr,
    _check_master_weights,
    _check_unsupported,
    _gather_state,
    _new_step,
    _to_scalar,
    _use_fused,
    _write_back_masters,
)

__all__ = ["Rprop", "rprop"]


class Rprop(Optimizer):
    """Rprop (Riedmiller & Braun): per-element step sizes grown/shrunk by the gradient's sign.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.Rprop([w], lr=0.01, etas=(0.5, 1.2))
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        master_weights: bool = False,
    ) -> None:
        _check_master_weights(master_weights)
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(
            lr=lr,
            etas=etas,
            step_sizes=step_sizes,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
            master_weights=master_weights,
        )
        _check_unsupported("Rprop", differentiable, capturable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, state, originals = _gather_state(
                self.state,
                group,
                ("prev", "step_size", "step"),
                lambda p, g: {
                    "step": _new_step(),
                    "prev": ember.zeros_like(p),
                    "step_size": ember.full_like(p, _to_scalar(g["lr"])),
                },
            )
            prevs, step_sizes, steps = state["prev"], state["step_size"], state["step"]
            etaminus, etaplus = group["etas"]
            step_size_min, step_size_max = group["step_sizes"]
            rprop(
                params,
                grads,
                prevs,
                step_sizes,
                steps,
                foreach=group["foreach"],
                maximize=group["maximize"],
                step_size_min=step_size_min,
                step_size_max=step_size_max,
                etaminus=etaminus,
                etaplus=etaplus,
            )
            _write_back_masters(originals, params)
        return loss


def rprop(
    params: list[Tensor],
    grads: list[Tensor],
    prevs: list[Tensor],
    step_sizes: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    maximize: bool = False,
    *,
    step_size_min: float,
    step_size_max: float,
    etaminus: float,
    etaplus: float,
) -> None:
    """The Rprop update of a list of parameters (torch.optim.rprop.rprop).

    One native call (``_C._fused_rprop_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    if _use_fused(foreach, params + grads + prevs + step_sizes):
        _C._fused_rprop_(
            params,
            grads,
            prevs,
            step_sizes,
            state_steps,
            etaminus=etaminus,
            etaplus=etaplus,
            step_size_min=step_size_min,
            step_size_max=step_size_max,
            maximize=maximize,
        )
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        prev, step_size = prevs[i], step_sizes[i]
        state_steps[i] += 1
        sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = etaplus
        sign[sign.lt(0)] = etaminus
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
