"""RMSprop, plain or centered, with momentum (torch.optim.RMSprop)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
from ember._grad_mode import enable_grad, no_grad
from ember._tensor import Tensor

from .optimizer import Optimizer, ParamsT, _check_lr, _check_unsupported, _new_step, _to_scalar

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """RMSprop (Hinton), optionally centered (Graves) and with momentum.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.RMSprop([w], lr=1e-2, momentum=0.9, centered=True)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ) -> None:
        _check_lr(lr)
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not momentum >= 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not alpha >= 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            alpha=alpha,
            eps=eps,
            centered=centered,
            weight_decay=weight_decay,
            capturable=capturable,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
        )
        _check_unsupported("RMSprop", differentiable, capturable)
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            lr = _to_scalar(group["lr"])
            alpha, eps, wd, momentum = (
                group["alpha"],
                group["eps"],
                group["weight_decay"],
                group["momentum"],
            )
            for param in group["params"]:
                if param.grad is None:
                    continue
                state = self.state[param]
                if len(state) == 0:
                    state["step"] = _new_step()
                    state["square_avg"] = ember.zeros_like(param)
                    if momentum > 0:
                        state["momentum_buffer"] = ember.zeros_like(param)
                    if group["centered"]:
                        state["grad_avg"] = ember.zeros_like(param)
                grad = param.grad if not group["maximize"] else -param.grad
                square_avg = state["square_avg"]
                state["step"] += 1
                if wd != 0:
                    grad = grad.add(param, alpha=wd)
                square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                if group["centered"]:
                    grad_avg = state["grad_avg"]
                    grad_avg.lerp_(grad, 1 - alpha)
                    avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                else:
                    avg = square_avg.sqrt()
                avg = avg.add_(eps)
                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).addcdiv_(grad, avg)
                    param.add_(buf, alpha=-lr)
                else:
                    param.addcdiv_(grad, avg, value=-lr)
        return loss
