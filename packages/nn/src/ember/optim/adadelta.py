"""Adadelta (torch.optim.Adadelta)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
from ember._grad_mode import enable_grad, no_grad
from ember._tensor import Tensor

from .optimizer import Optimizer, ParamsT, _check_lr, _check_unsupported, _new_step, _to_scalar

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """Adadelta (Zeiler): running averages of squared gradients and of squared updates.

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
    ) -> None:
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
            lr, rho, eps = _to_scalar(group["lr"]), group["rho"], group["eps"]
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self.state[param]
                if len(state) == 0:
                    state["step"] = _new_step()
                    state["square_avg"] = ember.zeros_like(param)
                    state["acc_delta"] = ember.zeros_like(param)
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                state["step"] += 1
                grad = param.grad if not group["maximize"] else -param.grad
                if group["weight_decay"] != 0:
                    grad = grad.add(param, alpha=group["weight_decay"])
                square_avg.mul_(rho).addcmul_(grad, grad, value=1 - rho)
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_()
                delta.div_(std).mul_(grad)
                acc_delta.mul_(rho).addcmul_(delta, delta, value=1 - rho)
                param.add_(delta, alpha=-lr)
        return loss
