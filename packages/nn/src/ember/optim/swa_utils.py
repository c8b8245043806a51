"""Stochastic weight averaging and EMA (torch.optim.swa_utils): AveragedModel, the averaging
functions, SWALR and update_bn."""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from typing import Any, Literal

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn import Module

from .lr_scheduler import LRScheduler, _format_param
from .optimizer import Optimizer

__all__ = [
    "SWALR",
    "AveragedModel",
    "get_ema_avg_fn",
    "get_ema_multi_avg_fn",
    "get_swa_avg_fn",
    "get_swa_multi_avg_fn",
    "update_bn",
]

ParamList = Sequence[Tensor]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[[ParamList, ParamList, Any], None]:
    """In-place EMA over lists: ``ema = lerp(ema, current, 1 - decay)``.

    Example:
        >>> ema = ember.optim.swa_utils.AveragedModel(
        ...     model, multi_avg_fn=ember.optim.swa_utils.get_ema_multi_avg_fn(0.99))
    """
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_params: ParamList, current: ParamList, _: Any) -> None:
        for p_ema, p_model in zip(ema_params, current, strict=True):
            if p_ema.is_floating_point() or p_ema.is_complex():
                p_ema.lerp_(p_model, 1 - decay)
            else:
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[[ParamList, ParamList, Any], None]:
    """In-place running mean over lists: ``avg += (current - avg) / (n + 1)``."""

    @no_grad()
    def swa_update(averaged: ParamList, current: ParamList, num_averaged: Any) -> None:
        n = float(num_averaged)
        for p_avg, p_model in zip(averaged, current, strict=True):
            if p_avg.is_floating_point() or p_avg.is_complex():
                p_avg.lerp_(p_model, 1 / (n + 1))
            else:
                # Integer buffers (num_batches_tracked): torch's integer addcdiv truncates.
                p_avg.add_(ember.div(p_model - p_avg, int(n) + 1, rounding_mode="trunc"))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[[Tensor, Tensor, Any], Tensor]:
    """EMA of one tensor: returns ``decay * ema + (1 - decay) * current``."""
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        out: Tensor = decay * ema_param + (1 - decay) * current_param
        return out

    return ema_update


def get_swa_avg_fn() -> Callable[[Tensor, Tensor, Any], Tensor]:
    """Running mean of one tensor: returns ``avg + (current - avg) / (n + 1)``."""

    @no_grad()
    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        out: Tensor = averaged_param + (current_param - averaged_param) / (num_averaged + 1)
        return out

    return swa_update


def _deepcopy_module(model: Module) -> Module:
    """deepcopy(model); tensors without __deepcopy__ (plain buffers, until ember-tensor has it)
    are cloned into the memo first, so the copy shares nothing with ``model``."""
    memo: dict[int, Any] = {}
    for t in itertools.chain(model.parameters(), model.buffers()):
        if not hasattr(type(t), "__deepcopy__"):
            memo[id(t)] = t.detach().clone().requires_grad_(t.requires_grad)
    copied: Module = deepcopy(model, memo)
    return copied


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the average (SWA) or the EMA of ``model``'s
    parameters at each :meth:`update_parameters` call.

    Args:
        model: the model to average (deep-copied).
        device: where to keep the copy (only the CPU in ember).
        avg_fn: ``avg_fn(averaged, current, n_averaged) -> Tensor`` per tensor.
        multi_avg_fn: in-place ``multi_avg_fn(averaged_list, current_list, n_averaged)``.
        use_buffers: also average the buffers (else they are copied from ``model``).

    Example:
        >>> swa = ember.optim.swa_utils.AveragedModel(model)
        >>> for epoch in range(10):
        ...     train(model)
        ...     swa.update_parameters(model)
    """

    n_averaged: Tensor

    def __init__(
        self,
        model: Module,
        device: Any = None,
        avg_fn: Callable[[Tensor, Tensor, Any], Tensor] | None = None,
        multi_avg_fn: Callable[[ParamList, ParamList, Any], None] | None = None,
        use_buffers: bool = False,
    ) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = _deepcopy_module(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", ember.tensor(0, dtype=ember.int64))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the averaged copy."""
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Folds ``model``'s current parameters into the average (the first call copies them)."""
        if self.use_buffers:
            own: Iterable[Tensor] = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs: Iterable[Tensor] = itertools.chain(model.parameters(), model.buffers())
        else:
            own, theirs = self.parameters(), model.parameters()
        own_detached: list[Tensor] = []
        theirs_detached: list[Tensor] = []
        first = int(self.n_averaged) == 0
        for p_avg, p_model in zip(own, theirs, strict=False):
            own_detached.append(p_avg.detach())
            theirs_detached.append(p_model.detach())
            if first:
                p_avg.detach().copy_(p_model.detach())
        if not first:
            if self.avg_fn is None:
                fn = self.multi_avg_fn if self.multi_avg_fn is not None else get_swa_multi_avg_fn()
                # Grouped by dtype, as torch's foreach grouping.
                groups: dict[Any, tuple[list[Tensor], list[Tensor]]] = {}
                for a, b in zip(own_detached, theirs_detached, strict=True):
                    ga, gb = groups.setdefault(a.dtype, ([], []))
                    ga.append(a)
                    gb.append(b)
                for ga, gb in groups.values():
                    fn(ga, gb, self.n_averaged)
            else:
                for a, b in zip(own_detached, theirs_detached, strict=True):
                    a.copy_(self.avg_fn(a, b, self.n_averaged))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


@no_grad()
def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recomputes the BatchNorm running statistics of ``model`` with one pass over ``loader``.

    Each batch is the loader's item (or its first element for lists/tuples). The statistics are
    cumulative averages (momentum None) over the pass.
    """
    momenta = {}
    for module in model.modules():
        if hasattr(module, "reset_running_stats") and hasattr(module, "momentum"):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to ``swa_lr`` over ``anneal_epochs`` (cos or linear), then holds.

    Example:
        >>> swa_sched = ember.optim.swa_utils.SWALR(opt, swa_lr=0.05, anneal_epochs=5)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        swa_lr: float | list[float],
        anneal_epochs: int = 10,
        anneal_strategy: Literal["cos", "linear"] = "cos",
        last_epoch: int = -1,
    ) -> None:
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[Any]:
        """The annealed lr: recovers the pre-annealing lr, then mixes it with ``swa_lr``."""
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, please use "
                "`get_last_lr()`.",
                UserWarning,
                stacklevel=2,
            )
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        groups = self.optimizer.param_groups
        prev_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev_lrs, strict=True)
        ]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        """As the base, without the anneal function."""
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restores the attributes and the anneal function."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
