"""Adadelta (torch.optim.Adadelta)."""

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

__all__ = ["Adadelta", "adadelta"]


class Adadelta(Optimizer):
    """Adadelta (Zeiler): running averages of squared gradients and of squared updates.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.Adadelta([w], lr=1.0, rho=0.9)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
        master_weights: bool = False,
    ) -> None:
        _check_master_weights(master_weights)
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            capturable=capturable,
            foreach=foreach,
            differentiable=differentiable,
            master_weights=master_weights,
        )
        _check_unsupported("Adadelta", differentiable, capturable)
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
                ("square_avg", "acc_delta", "step"),
                lambda p, g: {
                    "step": _new_step(),
                    "square_avg": ember.zeros_like(p),
                    "acc_delta": ember.zeros_like(p),
                },
            )
            square_avgs, acc_deltas, steps = state["square_avg"], state["acc_delta"], state["step"]
            adadelta(
                params,
                grads,
                square_avgs,
                acc_deltas,
                steps,
                foreach=group["foreach"],
                maximize=group["maximize"],
                lr=_to_scalar(group["lr"]),
                rho=group["rho"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
            )
            _write_back_masters(originals, params)
        return loss


def adadelta(
    params: list[Tensor],
    grads: list[Tensor],
    square_avgs: list[Tensor],
    acc_deltas: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    maximize: bool = False,
    *,
    lr: float,
    rho: float,
    eps: float,
    weight_decay: float,
) -> None:
    """The Adadelta update of a list of parameters (torch.optim.adadelta.adadelta).

    One native call (``_C._fused_adadelta_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    if _use_fused(foreach, params + grads + square_avgs + acc_deltas):
        _C._fused_adadelta_(
            params,
            grads,
            square_avgs,
            acc_deltas,
            state_steps,
            lr=lr,
            rho=rho,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
        )
        return
    for i, param in enumerate(params):
        square_avg, acc_delta = square_avgs[i], acc_deltas[i]
        state_steps[i] += 1
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
        param.add_(delta, alpha=-lr)
