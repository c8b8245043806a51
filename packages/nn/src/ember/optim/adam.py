"""Adam (and the shared Adam/AdamW update): torch.optim.Adam's arguments and algorithm."""

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
    _check_fused_foreach,
    _check_lr,
    _check_master_weights,
    _check_unsupported,
    _fusable,
    _get_value,
    _group_by_dtype,
    _master_grads,
    _master_param,
    _new_step,
    _to_scalar,
    _write_back_masters,
)

__all__ = ["Adam", "adam"]


class Adam(Optimizer):
    """Adam (Kingma & Ba), with amsgrad, maximize and L2 or decoupled weight decay.

    The default step is one native call per dtype over every parameter of a group
    (``_C._fused_adam_``: p, g, m, v read once); ``foreach=False`` runs torch's
    single-tensor algorithm op by op (same results, bit for bit on this build).

    ``master_weights=True`` (an ember extension; torch has no such flag) keeps a float32 copy of
    each bfloat16/float16 parameter in ``state['master_param']``, with float32 moments: the step
    updates the copy (with the gradient cast to float32) and rounds it into the parameter, so
    updates smaller than the parameter's precision accumulate instead of being lost.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.Adam([w], lr=1e-2)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        betas: tuple[float | Tensor, float | Tensor] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
        master_weights: bool = False,
    ) -> None:
        _check_lr(lr)
        _check_master_weights(master_weights)
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= _to_scalar(betas[0]) < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= _to_scalar(betas[1]) < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if isinstance(betas[0], Tensor) != isinstance(betas[1], Tensor):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = dict(
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            foreach=foreach,
            capturable=capturable,
            differentiable=differentiable,
            fused=fused,
            decoupled_weight_decay=decoupled_weight_decay,
            master_weights=master_weights,
        )
        _check_fused_foreach(fused, foreach, differentiable)
        _check_unsupported(type(self).__name__, differentiable, capturable)
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("capturable", False)
            group.setdefault("differentiable", False)
            group.setdefault("decoupled_weight_decay", False)
            group.setdefault("fused", None)
            group.setdefault("master_weights", False)
        for s in self.state.values():
            if "step" in s and not isinstance(s["step"], Tensor):
                s["step"] = ember.tensor(float(s["step"]), dtype=ember.float32)

    def _init_group(self, group: dict[str, Any]) -> tuple[list[Tensor], ...]:
        params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = [], [], [], [], [], []
        for p in group["params"]:
            if p.grad is None:
                continue
            state = self.state[p]
            target = _master_param(state, p, group)
            params.append(target)
            grads.append(p.grad)
            if "step" not in state:
                state["step"] = _new_step()
                state["exp_avg"] = ember.zeros_like(target)
                state["exp_avg_sq"] = ember.zeros_like(target)
                if group["amsgrad"]:
                    state["max_exp_avg_sq"] = ember.zeros_like(target)
            exp_avgs.append(state["exp_avg"])
            exp_avg_sqs.append(state["exp_avg_sq"])
            if group["amsgrad"]:
                max_exp_avg_sqs.append(state["max_exp_avg_sq"])
            steps.append(state["step"])
        return params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = self._init_group(group)
            beta1, beta2 = group["betas"]
            originals = [p for p in group["params"] if p.grad is not None]
            adam(
                params,
                _master_grads(params, grads),
                exp_avgs,
                exp_avg_sqs,
                max_exp_avg_sqs,
                steps,
                amsgrad=group["amsgrad"],
                beta1=_to_scalar(beta1),
                beta2=_to_scalar(beta2),
                lr=_to_scalar(group["lr"]),
                weight_decay=group["weight_decay"],
                eps=group["eps"],
                maximize=group["maximize"],
                decoupled_weight_decay=group["decoupled_weight_decay"],
                foreach=group["foreach"],
                fused=group["fused"],
            )
            _write_back_masters(originals, params)
        return loss


def adam(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    max_exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    *,
    amsgrad: bool,
    beta1: float,
    beta2: float,
    lr: float,
    weight_decay: float,
    eps: float,
    maximize: bool,
    decoupled_weight_decay: bool = False,
    foreach: bool | None = None,
    fused: bool | None = None,
) -> None:
    """The Adam/AdamW update of a list of parameters and their state (torch.optim.adam.adam)."""
    tensors = params + grads + exp_avgs + exp_avg_sqs + max_exp_avg_sqs
    use_fused = foreach is not False and _fusable(tensors)
    if fused and not use_fused:
        raise RuntimeError(
            "`fused=True` requires all the params to be contiguous float32 or float64 CPU "
            "tensors of one dtype"
        )
    if not use_fused:
        _adam_reference(
            params,
            grads,
            exp_avgs,
            exp_avg_sqs,
            max_exp_avg_sqs,
            state_steps,
            amsgrad,
            beta1,
            beta2,
            lr,
            weight_decay,
            eps,
            maximize,
            decoupled_weight_decay,
        )
        return
    for idx in _group_by_dtype(range(len(params)), params).values():
        _C._fused_adam_(
            [params[i] for i in idx],
            [grads[i] for i in idx],
            [exp_avgs[i] for i in idx],
            [exp_avg_sqs[i] for i in idx],
            [max_exp_avg_sqs[i] for i in idx] if amsgrad else [],
            [state_steps[i] for i in idx],
            lr=lr,
            beta1=beta1,
            beta2=beta2,
            weight_decay=weight_decay,
            eps=eps,
            amsgrad=amsgrad,
            maximize=maximize,
            decoupled=decoupled_weight_decay,
        )


def _adam_reference(
    params: list[Tensor],
    grads: list[Tensor],
    exp_avgs: list[Tensor],
    exp_avg_sqs: list[Tensor],
    max_exp_avg_sqs: list[Tensor],
    state_steps: list[Tensor],
    amsgrad: bool,
    beta1: float,
    beta2: float,
    lr: float,
    weight_decay: float,
    eps: float,
    maximize: bool,
    decoupled: bool,
) -> None:
    # torch's single-tensor algorithm (capturable=False), op by op.
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        exp_avg, exp_avg_sq, step_t = exp_avgs[i], exp_avg_sqs[i], state_steps[i]
        step_t += 1
        if weight_decay != 0:
            if decoupled:
                param.mul_(1 - lr * weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        step = _get_value(step_t)
        bias_correction1 = 1 - beta1**step
        bias_correction2 = 1 - beta2**step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = bias_correction2**0.5
        if amsgrad:
            ember.maximum(max_exp_avg_sqs[i], exp_avg_sq, out=max_exp_avg_sqs[i])
            denom = (max_exp_avg_sqs[i].sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        param.addcdiv_(exp_avg, denom, value=-step_size)
