"""RMSprop, plain or centered, with momentum (torch.optim.RMSprop)."""

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

__all__ = ["RMSprop", "rmsprop"]


def _optional_state(group: dict[str, Any]) -> list[str]:
    """The state tensors RMSprop keeps only with momentum or centered."""
    return [
        *(["momentum_buffer"] if group["momentum"] > 0 else []),
        *(["grad_avg"] if group["centered"] else []),
    ]


class RMSprop(Optimizer):
    """RMSprop (Hinton), optionally centered (Graves) and with momentum.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

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
        *,
        master_weights: bool = False,
    ) -> None:
        _check_master_weights(master_weights)
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
            master_weights=master_weights,
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
            params, grads, state, originals = _gather_state(
                self.state,
                group,
                ("square_avg", "step", *_optional_state(group)),
                lambda p, g: {
                    "step": _new_step(),
                    "square_avg": ember.zeros_like(p),
                    **{k: ember.zeros_like(p) for k in _optional_state(g)},
                },
            )
            square_avgs, steps = state["square_avg"], state["step"]
            bufs, grad_avgs = state.get("momentum_buffer", []), state.get("grad_avg", [])
            rmsprop(
                params,
                grads,
                square_avgs,
                grad_avgs,
                bufs,
                steps,
                foreach=group["foreach"],
                maximize=group["maximize"],
                lr=_to_scalar(group["lr"]),
                alpha=group["alpha"],
                eps=group["eps"],
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                centered=group["centered"],
            )
            _write_back_masters(originals, params)
        return loss


def rmsprop(
    params: list[Tensor],
    grads: list[Tensor],
    square_avgs: list[Tensor],
    grad_avgs: list[Tensor],
    momentum_buffer_list: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    maximize: bool = False,
    *,
    lr: float,
    alpha: float,
    eps: float,
    weight_decay: float,
    momentum: float,
    centered: bool,
) -> None:
    """The RMSprop update of a list of parameters (torch.optim.rmsprop.rmsprop).

    One native call (``_C._fused_rmsprop_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    tensors = params + grads + square_avgs + grad_avgs + momentum_buffer_list
    if _use_fused(foreach, tensors):
        _C._fused_rmsprop_(
            params,
            grads,
            square_avgs,
            momentum_buffer_list,
            grad_avgs,
            state_steps,
            lr=lr,
            alpha=alpha,
            eps=eps,
            weight_decay=weight_decay,
            momentum=momentum,
            centered=centered,
            maximize=maximize,
        )
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        square_avg = square_avgs[i]
        state_steps[i] += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if centered:
            grad_avg = grad_avgs[i]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(eps)
        if momentum > 0:
            buf = momentum_buffer_list[i]
            buf.mul_(momentum).addcdiv_(grad, avg)
            param.add_(buf, alpha=-lr)
        else:
            param.addcdiv_(grad, avg, value=-lr)
