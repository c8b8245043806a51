"""Learning-rate schedulers (torch.optim.lr_scheduler): the LRScheduler base and the schedules
that follow a fixed formula of the epoch. The cyclic and metric-driven ones (CyclicLR,
OneCycleLR, CosineAnnealingWarmRestarts, ReduceLROnPlateau) are in ``_lr_cyclic.py`` and
re-exported here.

Each ``get_lr`` is torch's chainable form (it updates the current lr); ``_get_closed_form_lr``
is the closed form used when ``step(epoch)`` is given an epoch (deprecated, with torch's warning).
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import wraps
from typing import Any
from weakref import ref

from ember._tensor import Tensor

from .optimizer import Optimizer, _to_scalar

__all__ = [
    "ChainedScheduler",
    "ConstantLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "CyclicLR",
    "ExponentialLR",
    "LRScheduler",
    "LambdaLR",
    "LinearLR",
    "MultiStepLR",
    "MultiplicativeLR",
    "OneCycleLR",
    "PolynomialLR",
    "ReduceLROnPlateau",
    "SequentialLR",
    "StepLR",
]

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

_STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)

_STEP_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)


def _copy(value: Any) -> Any:
    return value.clone() if isinstance(value, Tensor) else value


def _format_param(name: str, optimizer: Optimizer, param: Any) -> list[Any]:
    """One value per param group (a scalar is repeated; a list must match the groups)."""
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. {name} has "
                f"{len(param)} values, param_groups has {len(optimizer.param_groups)}."
            )
    else:
        param = [param] * len(optimizer.param_groups)
    return [_copy(p) for p in param]


def _param_groups_val_list(optimizer: Optimizer, key: str) -> list[Any]:
    # Copies tensor values so the result never aliases group[key].
    return [_copy(group[key]) for group in optimizer.param_groups]


def _update_param_group_val(param_group: dict[str, Any], key: str, val: Any) -> None:
    # A tensor lr is filled in place, so the optimizer keeps the same tensor.
    if isinstance(param_group[key], Tensor):
        param_group[key].fill_(_to_scalar(val))
    else:
        param_group[key] = val


class _enable_get_lr_call:
    def __init__(self, o: LRScheduler) -> None:
        self.o = o

    def __enter__(self) -> _enable_get_lr_call:
        self.o._get_lr_called_within_step = True
        return self

    def __exit__(self, *args: object) -> None:
        self.o._get_lr_called_within_step = False


class _initial_mode:
    def __init__(self, o: LRScheduler) -> None:
        self.o = o

    def __enter__(self) -> None:
        self.o._is_initial = True

    def __exit__(self, *args: object) -> None:
        self.o._is_initial = False


def _warn_get_lr_called_within_step(scheduler: LRScheduler) -> None:
    if not scheduler._get_lr_called_within_step:
        warnings.warn(
            "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
            UserWarning,
            stacklevel=3,
        )


def _patch_track_step_called(scheduler: LRScheduler) -> None:
    # Marks the optimizer when its step runs, for the "scheduler before optimizer" warning.
    opt = scheduler.optimizer
    if hasattr(opt.step, "_wrapped_by_lr_sched"):
        return
    opt_ref = ref(opt)
    func = opt.step.__func__  # type: ignore[attr-defined]

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        o = opt_ref()
        o._opt_called = True  # type: ignore[union-attr]
        return func.__get__(o, o.__class__)(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    opt.step = wrapper  # type: ignore[method-assign]


class LRScheduler:
    """Base class of the schedulers: adjusts ``param_group['lr']`` once per ``step()``.

    Args:
        optimizer: the optimizer whose learning rates are scheduled.
        last_epoch: index of the last epoch; -1 starts a new schedule (and records each
            group's ``initial_lr``).

    Example:
        >>> opt = ember.optim.SGD([w], lr=0.1)
        >>> sched = ember.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
        >>> for epoch in range(30):
        ...     opt.step()
        ...     sched.step()
    """

    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _copy(group["lr"]))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when resuming "
                        "scheduler with last_epoch >= 0.\nThis typically happens when:\n"
                        "1. You're trying to resume training from a checkpoint but haven't "
                        "properly loaded the optimizer state\n2. You're using last_epoch >= 0 "
                        "for a fresh training run (not recommended)"
                    )
        self.base_lrs: list[Any] = _param_groups_val_list(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        _patch_track_step_called(self)
        self._initial_step()

    def _initial_step(self) -> None:
        self._step_count = 0
        with _initial_mode(self):
            self.step()

    def state_dict(self) -> dict[str, Any]:
        """Every attribute except the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restores the attributes saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[Any]:
        """The learning rates the last ``step()`` set, one per param group."""
        return self._last_lr

    def get_lr(self) -> list[Any]:
        """The learning rates of this step (chainable form); subclasses implement it."""
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        """Advances the schedule by one epoch (``epoch=`` is deprecated, as in torch)."""
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_STEP_OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_STEP_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        with _enable_get_lr_call(self):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", None)
                values = closed_form() if closed_form is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _update_param_group_val(group, "lr", lr)
        self._last_lr: list[Any] = _param_groups_val_list(self.optimizer, "lr")


class _LRScheduler(LRScheduler):
    """Deprecated alias of LRScheduler (torch keeps it for old subclasses)."""


def _lambdas(optimizer: Optimizer, lr_lambda: Any) -> list[Callable[[int], float]]:
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(
            f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
        )
    return list(lr_lambda)


class _LambdaStateMixin:
    # Lambdas are not saved; callable objects' attributes are (torch's behaviour).
    lr_lambdas: list[Callable[[int], float]]

    def state_dict(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [
            None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
            for fn in self.lr_lambdas
        ]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        lr_lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lr_lambdas
        for idx, fn in enumerate(lr_lambdas):
            if fn is not None:
                self.lr_lambdas[idx].__dict__.update(fn)


class LambdaLR(_LambdaStateMixin, LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)`` (one lambda, or one per group).

    Example:
        >>> sched = ember.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.95**epoch)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """``base_lr * lambda(last_epoch)`` per group."""
        _warn_get_lr_called_within_step(self)
        return [
            base * fn(self.last_epoch)
            for fn, base in zip(self.lr_lambdas, self.base_lrs, strict=True)
        ]


class MultiplicativeLR(_LambdaStateMixin, LRScheduler):
    """``lr *= lr_lambda(epoch)`` at every step after the first.

    Example:
        >>> sched = ember.optim.lr_scheduler.MultiplicativeLR(opt, lambda epoch: 0.95)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        self.optimizer = optimizer
        self.lr_lambdas = _lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """The current lr times ``lambda(last_epoch)`` (unchanged at construction)."""
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        return [
            g["lr"] * fn(self.last_epoch)
            for fn, g in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)
        ]


class StepLR(LRScheduler):
    """Multiplies the lr by ``gamma`` every ``step_size`` epochs.

    Example:
        >>> sched = ember.optim.lr_scheduler.StepLR(opt, step_size=30, gamma=0.1)
    """

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form: decays at multiples of ``step_size``."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _param_groups_val_list(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [b * self.gamma ** (self.last_epoch // self.step_size) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiplies the lr by ``gamma`` at each milestone (repeated milestones count twice).

    Example:
        >>> sched = ember.optim.lr_scheduler.MultiStepLR(opt, milestones=[30, 80], gamma=0.1)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ) -> None:
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form: decays at the milestones."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch not in self.milestones:
            return _param_groups_val_list(self.optimizer, "lr")
        k = self.milestones[self.last_epoch]
        return [g["lr"] * self.gamma**k for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        milestones = sorted(self.milestones.elements())
        return [b * self.gamma ** bisect_right(milestones, self.last_epoch) for b in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiplies the lr by ``factor`` until epoch ``total_iters``.

    Example:
        >>> sched = ember.optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=4)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form: scaled at epoch 0, restored at ``total_iters``."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [g["lr"] * self.factor for g in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        return [g["lr"] * (1.0 / self.factor) for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        done = self.last_epoch >= self.total_iters
        return [b * (self.factor + done * (1 - self.factor)) for b in self.base_lrs]


class LinearLR(LRScheduler):
    """Scales the lr linearly from ``start_factor`` to ``end_factor`` over ``total_iters``.

    Example:
        >>> sched = ember.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=10)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or equal "
                "to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form: the ratio of consecutive linear factors."""
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [g["lr"] * self.start_factor for g in self.optimizer.param_groups]
        if self._is_initial or self.last_epoch > self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        delta = self.end_factor - self.start_factor
        ratio = 1.0 + delta / (self.total_iters * self.start_factor + (self.last_epoch - 1) * delta)
        return [g["lr"] * ratio for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        delta = self.end_factor - self.start_factor
        frac = min(self.total_iters, self.last_epoch) / self.total_iters
        return [b * (self.start_factor + delta * frac) for b in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiplies the lr by ``gamma`` every epoch.

    Example:
        >>> sched = ember.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form: ``lr * gamma``."""
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        return [g["lr"] * self.gamma for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        return [b * self.gamma**self.last_epoch for b in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decays the lr polynomially to zero over ``total_iters`` epochs.

    Example:
        >>> sched = ember.optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=2.0)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        total_iters: int = 5,
        power: float = 1.0,
        last_epoch: int = -1,
    ) -> None:
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form: the ratio of consecutive polynomial factors."""
        _warn_get_lr_called_within_step(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        decay = (
            (1.0 - self.last_epoch / self.total_iters)
            / (1.0 - (self.last_epoch - 1) / self.total_iters)
        ) ** self.power
        return [g["lr"] * decay for g in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[Any]:
        frac = min(self.total_iters, self.last_epoch) / self.total_iters
        return [b * (1.0 - frac) ** self.power for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Cosine annealing from the initial lr to ``eta_min`` over ``T_max`` epochs (SGDR without
    restarts; past ``T_max`` the cosine continues).

    Example:
        >>> sched = ember.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100, eta_min=1e-5)
    """

    def __init__(
        self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1
    ) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[Any]:
        """Chainable form of the cosine schedule (torch's recurrence)."""
        _warn_get_lr_called_within_step(self)
        groups = self.optimizer.param_groups
        e, t_max, eta_min = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        if self._step_count == 1 and e > 0:
            return [
                eta_min + (b - eta_min) * (1 + math.cos(e * math.pi / t_max)) / 2
                for b in self.base_lrs
            ]
        if (e - 1 - t_max) % (2 * t_max) == 0:
            return [
                g["lr"] + (b - eta_min) * (1 - math.cos(math.pi / t_max)) / 2
                for b, g in zip(self.base_lrs, groups, strict=True)
            ]
        ratio = (1 + math.cos(math.pi * e / t_max)) / (1 + math.cos(math.pi * (e - 1) / t_max))
        return [ratio * (g["lr"] - eta_min) + eta_min for g in groups]

    def _get_closed_form_lr(self) -> list[Any]:
        cos = math.cos(math.pi * self.last_epoch / self.T_max)
        return [self.eta_min + (b - self.eta_min) * (1 + cos) / 2 for b in self.base_lrs]


def _check_children(name: str, optimizer: Optimizer, schedulers: Sequence[Any]) -> None:
    for idx, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {idx} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{idx} in the given schedulers sequence."
            )
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {scheduler.__class__.__name__} at index {idx} has "
                f"{scheduler.optimizer}, which is different from {optimizer.__class__.__name__}."
            )


class _ContainerStateMixin:
    # The children's states are saved as their own state_dicts.
    _schedulers: Sequence[LRScheduler]

    def state_dict(self) -> dict[str, Any]:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        schedulers = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = schedulers
        for s, sd in zip(self._schedulers, schedulers, strict=True):
            s.load_state_dict(sd)


class SequentialLR(_ContainerStateMixin, LRScheduler):
    """Runs ``schedulers[i]`` between ``milestones[i-1]`` and ``milestones[i]``.

    Example:
        >>> warm = ember.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=5)
        >>> cos = ember.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=95)
        >>> sched = ember.optim.lr_scheduler.SequentialLR(opt, [warm, cos], milestones=[5])
    """

    def __init__(
        self,
        optimizer: Optimizer,
        schedulers: list[LRScheduler],
        milestones: list[int],
        last_epoch: int = -1,
    ) -> None:
        name = self.__class__.__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        _check_children(name, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more than "
                "the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to {len(milestones)}"
            )
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # Undo the children's initial steps, then start the first one afresh.
        for group in self.optimizer.param_groups:
            _update_param_group_val(group, "lr", group["initial_lr"])
        self.recursive_undo()
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = schedulers[idx].get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        """Steps every (nested) child's ``last_epoch`` back by one."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:  # type: ignore[override]
        """Steps the scheduler active at this epoch (a new one starts at its milestone)."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


class ChainedScheduler(_ContainerStateMixin, LRScheduler):
    """Steps every scheduler of the list at each ``step()`` (their effects multiply).

    Example:
        >>> a = ember.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
        >>> b = ember.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
        >>> sched = ember.optim.lr_scheduler.ChainedScheduler([a, b])
    """

    def __init__(
        self, schedulers: Sequence[LRScheduler], optimizer: Optimizer | None = None
    ) -> None:
        name = self.__class__.__name__
        if len(schedulers) < 1:
            raise ValueError(
                f"{name} expects at least one scheduler to be chained, but got no scheduler."
            )
        optimizer = optimizer or schedulers[0].optimizer
        _check_children(name, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _param_groups_val_list(self._schedulers[-1].optimizer, "lr")

    def step(self) -> None:  # type: ignore[override]
        """Steps every chained scheduler."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _param_groups_val_list(self._schedulers[-1].optimizer, "lr")


from ._lr_cyclic import (  # noqa: E402 (they subclass LRScheduler defined above)
    CosineAnnealingWarmRestarts,
    CyclicLR,
    OneCycleLR,
    ReduceLROnPlateau,
)
