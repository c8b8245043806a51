"""Adamax: Adam with the infinity norm (torch.optim.Adamax)."""

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
    _get_value,
    _new_step,
    _to_scalar,
    _use_fused,
    _write_back_masters,
)

__all__ = ["Adamax", "adamax"]


class Adamax(Optimizer):
    """Adamax (Kingma & Ba, section 7): the second moment is a running maximum of ``|g|``.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.Adamax([w], lr=2e-3)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
        master_weights: bool = False,
    ) -> None:
        _check_master_weights(master_weights)
        _check_lr(lr)
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
            master_weights=master_weights,
        )
        _check_unsupported("Adamax", differentiable, capturable)
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
                ("exp_avg", "exp_inf", "step"),
                lambda p, g: {
                    "step": _new_step(),
                    "exp_avg": ember.zeros_like(p),
                    "exp_inf": ember.zeros_like(p),
                },
            )
            exp_avgs, exp_infs, steps = state["exp_avg"], state["exp_inf"], state["step"]
            beta1, beta2 = group["betas"]
            adamax(
                params,
                grads,
                exp_avgs,
                exp_infs,
                steps,
                foreach=group["foreach"],
                maximize=group["maximize"],
                eps=group["eps"],
                beta1=beta1,
                beta2=beta2,
                lr=_to_scalar(group["lr"]),
                weight_decay=group["weight_decay"],
            )
            _write_back_masters(originals, params)
        return loss


def adamax(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_infs: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    maximize: bool = False,
    *,
    eps: float,
    beta1: float,
    beta2: float,
    lr: float,
    weight_decay: float,
) -> None:
    """The Adamax update of a list of parameters (torch.optim.adamax.adamax).

    One native call (``_C._fused_adamax_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    if _use_fused(foreach, params + grads + exp_avgs + exp_infs):
        _C._fused_adamax_(
            params,
            grads,
            exp_avgs,
            exp_infs,
            state_steps,
            lr=lr,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
        )
        return
    for i, param in enumerate(params):
        exp_avg, exp_inf, step_t = exp_avgs[i], exp_infs[i], state_steps[i]
        grad = grads[i] if not maximize else -grads[i]
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        ember.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps), out=exp_inf)
        clr = lr / (1 - beta1 ** _get_value(step_t))
        param.addcdiv_(exp_avg, exp_inf, value=-clr)
