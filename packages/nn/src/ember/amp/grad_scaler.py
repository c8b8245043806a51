"""GradScaler: dynamic loss scaling for float16 training (torch.amp.GradScaler's semantics)."""

from __future__ import annotations

import warnings
from collections import defaultdict
from collections.abc import Iterable
from enum import Enum
from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor

__all__ = ["GradScaler", "OptState"]


class OptState(Enum):
    """Where an optimizer is between two ``update()`` calls."""

    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _refresh_per_optimizer_state() -> dict[str, Any]:
    return {"stage": OptState.READY, "found_inf_per_device": {}}


class GradScaler:
    """Scales the loss so small float16 gradients do not flush to zero, and skips the steps
    whose gradients overflowed (inf/NaN), adapting the scale: ``backoff_factor`` after an
    overflow, ``growth_factor`` after ``growth_interval`` clean steps.

    Args:
        device: ``"cpu"``; ``"cuda"`` (torch's default) warns and disables itself when CUDA is
            absent, as torch does.
        init_scale: the initial scale.
        growth_factor: multiplier after ``growth_interval`` steps without inf/NaN.
        backoff_factor: multiplier after a step with inf/NaN gradients.
        growth_interval: clean steps between two growths.
        enabled: ``False`` makes every method a pass-through.

    Example:
        >>> scaler = ember.amp.GradScaler("cpu")
        >>> with ember.autocast("cpu", dtype=ember.float16):
        ...     loss = model(x).sum()
        >>> scaler.scale(loss).backward()
        >>> scaler.step(optimizer)
        >>> scaler.update()
    """

    def __init__(
        self,
        device: str = "cuda",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled and not ember.cuda.is_available():
            warnings.warn(
                "ember.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                stacklevel=2,
            )
            self._enabled = False
        elif device not in ("cpu", "cuda"):
            raise RuntimeError(f"GradScaler: unsupported device '{device}' (use 'cpu')")
        if self._enabled:
            if growth_factor <= 1.0:
                raise ValueError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise ValueError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale: Tensor | None = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker: Tensor | None = None
            self._per_optimizer_states: defaultdict[int, dict[str, Any]] = defaultdict(
                _refresh_per_optimizer_state
            )

    def _check_scale_growth_tracker(self, funcname: str) -> tuple[Tensor, Tensor]:
        fix = "This may indicate your script did not use scaler.scale(loss or outputs) earlier."
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + fix)
        if self._growth_tracker is None:
            raise AssertionError(f"Attempted {funcname} but _growth_tracker is None.  " + fix)
        return self._scale, self._growth_tracker

    def _lazy_init_scale_growth_tracker(self) -> None:
        self._scale = ember.full((), self._init_scale, dtype=ember.float32)
        self._growth_tracker = ember.full((), self._init_growth_tracker, dtype=ember.int32)

    def scale(self, outputs: Any) -> Any:
        """Multiplies a tensor (or the tensors of nested lists/tuples/dicts) by the scale."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._lazy_init_scale_growth_tracker()
            assert self._scale is not None
            return outputs * self._scale

        def apply_scale(val: Any) -> Any:
            if isinstance(val, Tensor):
                return self.scale(val)
            if isinstance(val, dict):
                return {k: apply_scale(v) for k, v in val.items()}
            if isinstance(val, (list, tuple)):
                return type(val)(apply_scale(v) for v in val)
            if isinstance(val, Iterable):
                return map(apply_scale, val)
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply_scale(outputs)

    def _unscale_grads_(
        self, optimizer: Any, inv_scale: Tensor, found_inf: Tensor, allow_fp16: bool
    ) -> Tensor:
        with no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if (not allow_fp16) and param.grad.dtype == ember.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    grad = param.grad
                    # One pass finds inf/NaN, one multiplies (torch's non_finite_check_and_unscale).
                    if not bool(ember.isfinite(grad).all()):
                        found_inf.fill_(1.0)
                    grad.mul_(inv_scale.to(grad.dtype))
        return found_inf

    def unscale_(self, optimizer: Any) -> None:
        """Divides the optimizer's gradients by the scale in place (once per ``update()``)."""
        if not self._enabled:
            return
        self._check_scale_growth_tracker("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError(
                "unscale_() has already been called on this optimizer since the last update()."
            )
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        assert self._scale is not None
        inv_scale = ember.full((), 1.0 / float(self._scale.double()), dtype=ember.float32)
        found_inf = ember.full((), 0.0, dtype=ember.float32)
        state["found_inf_per_device"] = {
            "cpu": self._unscale_grads_(optimizer, inv_scale, found_inf, False)
        }
        state["stage"] = OptState.UNSCALED

    def _maybe_opt_step(
        self, optimizer: Any, state: dict[str, Any], *args: Any, **kwargs: Any
    ) -> Any:
        if not sum(float(v) for v in state["found_inf_per_device"].values()):
            return optimizer.step(*args, **kwargs)
        return None

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """Unscales (if not done yet) and runs ``optimizer.step()`` unless a gradient is inf/NaN.

        Returns what ``optimizer.step`` returned, or None when the step was skipped.
        """
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale_growth_tracker("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        if len(state["found_inf_per_device"]) == 0:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = self._maybe_opt_step(optimizer, state, *args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale: float | Tensor | None = None) -> None:
        """Adapts the scale after the steps of this iteration (or sets ``new_scale``)."""
        if not self._enabled:
            return
        scale, growth_tracker = self._check_scale_growth_tracker("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                scale.fill_(new_scale)
            else:
                reason = (
                    "new_scale should be a float or a 1-element ember.FloatTensor with "
                    "requires_grad=False."
                )
                if not isinstance(new_scale, Tensor):
                    raise TypeError(reason)
                if new_scale.numel() != 1 or new_scale.requires_grad:
                    raise ValueError(reason)
                scale.copy_(new_scale)
        else:
            found_infs = [
                float(found_inf)
                for state in self._per_optimizer_states.values()
                for found_inf in state["found_inf_per_device"].values()
            ]
            if len(found_infs) == 0:
                raise AssertionError("No inf checks were recorded prior to update.")
            # torch._amp_update_scale_: back off on overflow, else grow every growth_interval.
            if sum(found_infs) > 0:
                scale.mul_(self._backoff_factor)
                growth_tracker.fill_(0)
            else:
                successful = int(growth_tracker) + 1
                if successful == self._growth_interval:
                    scale.mul_(self._growth_factor)
                    growth_tracker.fill_(0)
                else:
                    growth_tracker.fill_(successful)
        self._per_optimizer_states = defaultdict(_refresh_per_optimizer_state)

    def _get_scale_async(self) -> Tensor | None:
        return self._scale

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else float(self._scale)

    def get_growth_factor(self) -> float:
        """The scale growth factor."""
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        """Sets the scale growth factor."""
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        """The scale backoff factor."""
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        """Sets the scale backoff factor."""
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        """Clean steps between two growths."""
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        """Sets the number of clean steps between two growths."""
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if self._growth_tracker is None:
            return self._init_growth_tracker
        return int(self._growth_tracker)

    def is_enabled(self) -> bool:
        """Whether the scaler is enabled."""
        return self._enabled

    def state_dict(self) -> dict[str, Any]:
        """``scale``, ``growth_factor``, ``backoff_factor``, ``growth_interval`` and
        ``_growth_tracker`` (empty when disabled), as torch."""
        if self._enabled:
            return {
                "scale": self.get_scale(),
                "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._get_growth_tracker(),
            }
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Loads a state made by :meth:`state_dict`."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(
                "The source state dict is empty, possibly because it was saved from a disabled "
                "instance of GradScaler."
            )
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])
