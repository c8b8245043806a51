"""RAdam: rectified Adam (torch.optim.RAdam)."""

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

__all__ = ["RAdam", "radam"]


class RAdam(Optimizer):
    """RAdam (Liu et al.): Adam whose adaptive term is switched on once its variance is tractable.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.RAdam([w], lr=1e-3)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
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
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            decoupled_weight_decay=decoupled_weight_decay,
            differentiable=differentiable,
            master_weights=master_weights,
        )
        _check_unsupported("RAdam", differentiable, capturable)
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
                ("exp_avg", "exp_avg_sq", "step"),
                lambda p, g: {
                    "step": _new_step(),
                    "exp_avg": ember.zeros_like(p),
                    "exp_avg_sq": ember.zeros_like(p),
                },
            )
            exp_avgs, exp_avg_sqs, steps = state["exp_avg"], state["exp_avg_sq"], state["step"]
            beta1, beta2 = group["betas"]
            radam(
                params,
                grads,
                exp_avgs,
                exp_avg_sqs,
                steps,
                foreach=group["foreach"],
                maximize=group["maximize"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
                beta1=beta1,
                beta2=beta2,
                lr=_to_scalar(group["lr"]),
                weight_decay=group["weight_decay"],
                eps=group["eps"],
            )
            _write_back_masters(originals, params)
        return loss


def radam(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    decoupled_weight_decay: bool = False,
    foreach: bool | None = None,
    maximize: bool = False,
    *,
    beta1: float,
    beta2: float,
    lr: float,
    weight_decay: float,
    eps: float,
) -> None:
    """The RAdam update of a list of parameters (torch.optim.radam.radam).

    One native call (``_C._fused_radam_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    if _use_fused(foreach, params + grads + exp_avgs + exp_avg_sqs):
        _C._fused_radam_(
            params,
            grads,
            exp_avgs,
            exp_avg_sqs,
            state_steps,
            lr=lr,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            weight_decay=weight_decay,
            decoupled=decoupled_weight_decay,
            maximize=maximize,
        )
        return
    wd = weight_decay
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        step_t += 1
        step = _get_value(step_t)
        if wd != 0:
            if decoupled_weight_decay:
                param.mul_(1 - lr * wd)
            else:
                grad = grad.add(param, alpha=wd)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        corrected = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = (
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            ) ** 0.5
            adaptive_lr = (bias_correction2**0.5) / exp_avg_sq.sqrt().add_(eps)
            param.add_(corrected * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            param.add_(corrected * lr, alpha=-1.0)
