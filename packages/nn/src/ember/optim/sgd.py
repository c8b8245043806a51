"""SGD with momentum, dampening, Nesterov, weight decay and maximize (torch.optim.SGD)."""

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
    _group_by_dtype,
    _master_grads,
    _master_param,
    _to_scalar,
    _write_back_masters,
)

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    """Stochastic gradient descent, optionally with momentum (torch's update rule).

    By default the step runs as one native call per dtype over every parameter of a group
    (``_C._fused_sgd_``); ``foreach=False`` runs the op-by-op reference algorithm.
    ``master_weights=True`` (an ember extension) updates a float32 copy of each bfloat16/float16
    parameter (``state['master_param']``) and rounds it into the parameter, as in :class:`Adam`.

    Example:
        >>> w = ember.zeros(3, requires_grad=True)
        >>> opt = ember.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> (w - 1).pow(2).sum().backward()
        >>> opt.step()
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float | Tensor = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
        master_weights: bool = False,
    ) -> None:
        _check_lr(lr)
        _check_master_weights(master_weights)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if _to_scalar(weight_decay) < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
            foreach=foreach,
            differentiable=differentiable,
            fused=fused,
            master_weights=master_weights,
        )
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        _check_fused_foreach(fused, foreach, differentiable)
        _check_unsupported("SGD", differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)
            group.setdefault("master_weights", False)

    @no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one step; ``closure`` re-evaluates the model and returns the loss."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            originals: list[Tensor] = []
            params: list[Tensor] = []
            grads: list[Tensor] = []
            bufs: list[Tensor | None] = []
            for p in group["params"]:
                if p.grad is not None:
                    originals.append(p)
                    params.append(_master_param(self.state[p], p, group))
                    grads.append(p.grad)
                    if group["momentum"] != 0:
                        bufs.append(self.state[p].get("momentum_buffer"))
            sgd(
                params,
                _master_grads(params, grads),
                bufs,
                weight_decay=_to_scalar(group["weight_decay"]),
                momentum=group["momentum"],
                lr=_to_scalar(group["lr"]),
                dampening=group["dampening"],
                nesterov=group["nesterov"],
                maximize=group["maximize"],
                foreach=group["foreach"],
                fused=group["fused"],
            )
            if group["momentum"] != 0:
                for p, buf in zip(originals, bufs, strict=True):
                    self.state[p]["momentum_buffer"] = buf
            _write_back_masters(originals, params)
        return loss


def sgd(
    params: list[Tensor],
    grads: list[Tensor],
    momentum_buffer_list: list[Tensor | None],
    *,
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
    foreach: bool | None = None,
    fused: bool | None = None,
) -> None:
    """The SGD update of a list of parameters (fills new momentum buffers in the list)."""
    use_fused = foreach is not False and _fusable(params + grads)
    if fused and not use_fused:
        raise RuntimeError(
            "`fused=True` requires all the params to be contiguous float32 or float64 CPU "
            "tensors of one dtype"
        )
    if not use_fused:
        _sgd_reference(
            params,
            grads,
            momentum_buffer_list,
            weight_decay,
            momentum,
            lr,
            dampening,
            nesterov,
            maximize,
        )
        return
    kw = dict(
        lr=lr,
        momentum=momentum,
        dampening=dampening,
        weight_decay=weight_decay,
        nesterov=nesterov,
        maximize=maximize,
    )
    for idx in _group_by_dtype(range(len(params)), params).values():
        ps = [params[i] for i in idx]
        gs = [grads[i] for i in idx]
        if momentum == 0:
            _C._fused_sgd_(ps, gs, [], [], **kw)
            continue
        new = [momentum_buffer_list[i] is None for i in idx]
        for i in idx:
            if momentum_buffer_list[i] is None:
                momentum_buffer_list[i] = ember.empty_like(params[i])
        bs = [momentum_buffer_list[i] for i in idx]
        _C._fused_sgd_(ps, gs, bs, new, **kw)


def _sgd_reference(
    params: list[Tensor],
    grads: list[Tensor],
    bufs: list[Tensor | None],
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
) -> None:
    # torch's single-tensor algorithm, op by op.
    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        if weight_decay != 0:
            grad = grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = bufs[i]
            if buf is None:
                buf = grad.detach().clone()
                bufs[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf
        param.add_(grad, alpha=-lr)
