"""NAdam: Adam with Nesterov momentum (torch.optim.NAdam)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
from ember._grad_mode import enable_grad, no_grad
from ember._tensor import Tensor

from .optimizer import (
    Optimizer,
    ParamsT,
    _check_lr,
    _check_unsupported,
    _get_value,
    _new_step,
    _to_scalar,
)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """NAdam (Dozat), with momentum decay and optional decoupled weight decay.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.NAdam([w], lr=2e-3, decoupled_weight_decay=True)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not momentum_decay >= 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
        )
        _check_unsupported("NAdam", differentiable, capturable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            lr, eps, wd = _to_scalar(group["lr"]), group["eps"], group["weight_decay"]
            beta1, beta2 = group["betas"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self.state[param]
                if len(state) == 0:
                    state["step"] = _new_step()
                    state["mu_product"] = ember.tensor(1.0, dtype=ember.float32)
                    state["exp_avg"] = ember.zeros_like(param)
                    state["exp_avg_sq"] = ember.zeros_like(param)
                grad = param.grad if not group["maximize"] else -param.grad
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                mu_product, step_t = state["mu_product"], state["step"]
                step_t += 1
                step = _get_value(step_t)
                bias_correction2 = 1 - beta2**step
                if wd != 0:
                    if group["decoupled_weight_decay"]:
                        param.mul_(1 - lr * wd)
                    else:
                        grad = grad.add(param, alpha=wd)
                mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group["momentum_decay"])))
                mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
                mu_product *= mu
                exp_avg.lerp_(grad, 1 - beta1)
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
                denom = exp_avg_sq.div(bias_correction2).sqrt()
                mu_product_next = _get_value(mu_product) * mu_next
                denom.add_(eps)
                param.addcdiv_(
                    grad, denom, value=(-lr * (1.0 - mu) / (1.0 - _get_value(mu_product)))
                )
                param.addcdiv_(exp_avg, denom, value=(-lr * mu_next) / (1.0 - mu_product_next))
        return loss
