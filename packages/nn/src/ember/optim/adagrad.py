"""Adagrad with lr_decay and an initial accumulator value (torch.optim.Adagrad)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
import ember_core._C as _C
from ember._grad_mode import enable_grad, no_grad
from ember._tensor import Tensor

from .optimizer import (
    _LOW_PRECISION,
    Optimizer,
    ParamsT,
    _check_fused_foreach,
    _check_lr,
    _check_master_weights,
    _check_unsupported,
    _gather_state,
    _get_value,
    _to_scalar,
    _use_fused,
    _write_back_masters,
)

__all__ = ["Adagrad", "adagrad"]


class Adagrad(Optimizer):
    """Adagrad (Duchi et al.): per-element learning rates from the sum of squared gradients.

    Its state is created at construction (``state['sum']`` filled with
    ``initial_accumulator_value``), as in torch.

    ``master_weights=True`` (an ember extension) keeps a float32 copy of each bfloat16/float16
    parameter and its state, as Adam does.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.Adagrad([w], lr=0.1, lr_decay=1e-3)
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        master_weights: bool = False,
    ) -> None:
        _check_master_weights(master_weights)
        _check_lr(lr)
        if not lr_decay >= 0.0:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not initial_accumulator_value >= 0.0:
            raise ValueError(
                f"Invalid initial_accumulator_value value: {initial_accumulator_value}"
            )
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            fused=fused,
            master_weights=master_weights,
        )
        _check_fused_foreach(fused, foreach, differentiable)
        _check_unsupported("Adagrad", differentiable)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = ember.tensor(0.0, dtype=ember.float32)
                # With master weights the accumulator is float32, like the master it updates.
                master = group["master_weights"] and p.dtype in _LOW_PRECISION
                state["sum"] = ember.full_like(
                    p,
                    group["initial_accumulator_value"],
                    dtype=ember.float32 if master else p.dtype,
                )

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, state, originals = _gather_state(self.state, group, ("sum", "step"))
            sums, steps = state["sum"], state["step"]
            adagrad(
                params,
                grads,
                sums,
                steps,
                lr=_to_scalar(group["lr"]),
                weight_decay=group["weight_decay"],
                lr_decay=group["lr_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                foreach=group["foreach"],
                fused=group["fused"],
            )
            _write_back_masters(originals, params)
        return loss


def adagrad(
    params: list[Tensor],
    grads: list[Tensor],
    state_sums: list[Tensor],
    state_steps: list[Tensor],
    fused: bool | None = None,
    foreach: bool | None = None,
    *,
    lr: float,
    weight_decay: float,
    lr_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    """The Adagrad update of a list of parameters (torch.optim.adagrad.adagrad).

    One native call (``_C._fused_adagrad_``) unless ``foreach=False`` or the tensors are not
    contiguous float32/float64 of one dtype; then torch's single-tensor algorithm, op by op.
    """
    use_fused = _use_fused(foreach, params + grads + state_sums)
    if fused and not use_fused:
        raise RuntimeError(
            "`fused=True` requires all the params to be contiguous float32 or float64 CPU "
            "tensors of one dtype"
        )
    if use_fused:
        _C._fused_adagrad_(
            params,
            grads,
            state_sums,
            state_steps,
            lr=lr,
            lr_decay=lr_decay,
            weight_decay=weight_decay,
            eps=eps,
            maximize=maximize,
        )
        return
    for i, param in enumerate(params):
        step_t, state_sum = state_steps[i], state_sums[i]
        step_t += 1
        step = _get_value(step_t)
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        clr = lr / (1 + (step - 1) * lr_decay)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)
