"""ASGD: averaged stochastic gradient descent (torch.optim.ASGD)."""

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

__all__ = ["ASGD", "asgd"]


class ASGD(Optimizer):
    """Averaged SGD (Polyak & Juditsky); ``state['ax']`` holds the running average.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.ASGD([w], lr=0.01, t0=10)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
        *,
        master_weights: bool = False,
    ) -> None:
        _check_master_weights(master_weights)
        _check_lr(lr)
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
            master_weights=master_weights,
        )
        _check_unsupported("ASGD", differentiable, capturable)
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
                ("ax", "mu", "eta", "step"),
                lambda p, g: {
                    "step": _new_step(),
                    "eta": ember.tensor(float(_to_scalar(g["lr"])), dtype=ember.float32),
                    "mu": ember.ones((), dtype=ember.float32),
                    "ax": ember.zeros_like(p),
                },
            )
            axs, mus, etas, steps = state["ax"], state["mu"], state["eta"], state["step"]
            asgd(
                params,
                grads,
                axs,
                mus,
                etas,
                steps,
                foreach=group["foreach"],
                maximize=group["maximize"],
                lambd=group["lambd"],
                lr=_to_scalar(group["lr"]),
                t0=group["t0"],
                alpha=group["alpha"],
                weight_decay=group["weight_decay"],
            )
            _write_back_masters(originals, params)
        return loss


def asgd(
    params: list[Tensor],
    grads: list[Tensor],
    axs: list[Tensor],
    mus: list[Tensor],
    etas: list[Tensor],
    state_steps: list[Tensor],
    foreach: bool | None = None,
    maximize: bool = False,
    *,
    lambd: float,
    lr: float,
    t0: float,
    alpha: float,
    weight_decay: float,
) -> None:
    """The ASGD update of a list of parameters (torch.optim.asgd.asgd).

    One native call (``_C._fused_asgd_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    if _use_fused(foreach, params + grads + axs):
        _C._fused_asgd_(
            params,
            grads,
            axs,
            mus,
            etas,
            state_steps,
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
            maximize=maximize,
        )
        return
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        mu, ax, eta, step_t = mus[i], axs[i], etas[i], state_steps[i]
        step_t += 1
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        eta_value = _get_value(eta)
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            ax.add_(param.sub(ax).mul_(mu))
        else:
            ax.copy_(param)
        step = _get_value(step_t)
        eta.copy_(ember.as_tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(ember.as_tensor(1 / max(1, step - t0)))
