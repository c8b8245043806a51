"""Optimizer: the base class of every ember optimizer (torch.optim.Optimizer's API and layout).

Parameter groups, per-parameter state, hooks and ``state_dict``/``load_state_dict`` follow torch
2.13 exactly (state keyed by parameter index, ``'step'`` kept as a float32 0-d tensor), so a
checkpoint resumed after k steps continues bitwise like an uninterrupted run.
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Iterable
from copy import deepcopy
from itertools import chain
from typing import Any, TypeAlias, cast

import ember
from ember._tensor import Tensor
from ember.nn.modules._hooks import RemovableHandle

__all__ = [
    "Optimizer",
    "ParamsT",
    "register_optimizer_step_post_hook",
    "register_optimizer_step_pre_hook",
    "required",
]

ParamsT: TypeAlias = Iterable[Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, Tensor]]
StateDict: TypeAlias = dict[str, Any]
OptimizerPreHook: TypeAlias = Callable[..., "tuple[tuple[Any, ...], dict[str, Any]] | None"]
OptimizerPostHook: TypeAlias = Callable[..., None]


class _RequiredParameter:
    """Marks a hyperparameter every param group must give (torch.optim.optimizer.required)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()

_global_optimizer_pre_hooks: OrderedDict[int, OptimizerPreHook] = OrderedDict()
_global_optimizer_post_hooks: OrderedDict[int, OptimizerPostHook] = OrderedDict()


def register_optimizer_step_pre_hook(hook: OptimizerPreHook) -> RemovableHandle:
    """Registers a pre-step hook run before every optimizer's ``step()``.

    ``hook(optimizer, args, kwargs)`` may return ``(new_args, new_kwargs)``.

    Example:
        >>> h = ember.optim.optimizer.register_optimizer_step_pre_hook(lambda o, a, k: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_optimizer_pre_hooks)
    _global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook: OptimizerPostHook) -> RemovableHandle:
    """Registers a post-step hook run after every optimizer's ``step()``.

    Example:
        >>> h = ember.optim.optimizer.register_optimizer_step_post_hook(lambda o, a, k: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_optimizer_post_hooks)
    _global_optimizer_post_hooks[handle.id] = hook
    return handle


def _typename(obj: object) -> str:
    if isinstance(obj, Tensor):
        return "ember." + type(obj).__name__
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", None) else f"{module}.{name}"


def _get_value(x: Any) -> float:
    """A step counter as a Python number (state['step'] is a 0-d tensor)."""
    return float(x.item()) if isinstance(x, Tensor) else float(x)


def _to_scalar(x: Any) -> Any:
    """A one-element tensor hyperparameter (lr=ember.tensor(0.01)) as a Python number."""
    if isinstance(x, Tensor):
        if x.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        return x.item()
    return x


def _deepcopy(value: Any) -> Any:
    """copy.deepcopy that clones tensors (ember tensors do not implement __deepcopy__)."""
    if isinstance(value, Tensor):
        return value.detach().clone()
    if isinstance(value, dict):
        return type(value)((k, _deepcopy(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_deepcopy(v) for v in value)
    return deepcopy(value)


def _new_step() -> Tensor:
    """A fresh step counter: torch keeps it as a float32 0-d tensor on the CPU."""
    step: Tensor = ember.tensor(0.0, dtype=ember.float32)
    return step


def _gather_state(
    state: Any,
    group: dict[str, Any],
    keys: Iterable[str],
    init: Callable[[Tensor, dict[str, Any]], dict[str, Tensor]] | None = None,
) -> tuple[list[Tensor], list[Tensor], dict[str, list[Tensor]], list[Tensor]]:
    """What one group's step updates: targets, their gradients, their state per key, originals.

    The targets are the group's parameters that have a gradient or, with
    ``master_weights=True``, the float32 masters of the bfloat16/float16 ones (their gradients
    cast to float32); ``originals`` are the parameters themselves, for `_write_back_masters`.
    ``init(target, group)`` makes a parameter's state on its first step (its key order is the
    state_dict's, as in torch); ``keys`` names the state tensors the update reads, in order.
    """
    names = list(keys)
    targets: list[Tensor] = []
    grads: list[Tensor] = []
    originals: list[Tensor] = []
    columns: dict[str, list[Tensor]] = {k: [] for k in names}
    for param in group["params"]:
        if param.grad is None:
            continue
        param_state = state[param]
        target = _master_param(param_state, param, group)
        if init is not None and not any(k in param_state for k in names):
            param_state.update(init(target, group))
        originals.append(param)
        targets.append(target)
        grads.append(param.grad)
        for k in names:
            columns[k].append(param_state[k])
    return targets, _master_grads(targets, grads), columns, originals


def _check_lr(lr: Any) -> None:
    if isinstance(lr, bool) or not isinstance(lr, (int, float, Tensor)):
        raise TypeError(f"Invalid learning rate: {lr!r} (a float or a 1-element Tensor is needed)")
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not _to_scalar(lr) >= 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_unsupported(name: str, differentiable: bool, capturable: bool = False) -> None:
    """differentiable/capturable are accepted as in torch but only their default works."""
    if differentiable:
        raise NotImplementedError(
            f"{name}: differentiable=True is not supported by ember.optim (the step runs "
            "outside autograd)"
        )
    if capturable:
        raise NotImplementedError(
            f"{name}: capturable=True is not supported by ember.optim (no graph capture on "
            "the CPU); use capturable=False"
        )


def _check_fused_foreach(fused: bool | None, foreach: bool | None, differentiable: bool) -> None:
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _fusable(tensors: Iterable[Tensor]) -> bool:
    """Whether the native fused step can take these tensors (contiguous float32/float64)."""
    dtype = None
    for t in tensors:
        if t.dtype not in (ember.float32, ember.float64) or not t.is_contiguous():
            return False
        if dtype is None:
            dtype = t.dtype
        elif t.dtype != dtype:
            return False
    return True


_LOW_PRECISION = (ember.bfloat16, ember.float16)


def _master_param(state: dict[str, Any], param: Tensor, group: dict[str, Any]) -> Tensor:
    """What the step updates: ``param``, or with ``master_weights=True`` and a bfloat16/float16
    parameter its float32 copy ``state['master_param']`` (made from the parameter on first use)."""
    if not group.get("master_weights", False) or param.dtype not in _LOW_PRECISION:
        return param
    master = state.get("master_param")
    if master is None:
        master = param.detach().to(dtype=ember.float32)
        state["master_param"] = master
    return master


def _master_grads(params: list[Tensor], grads: list[Tensor]) -> list[Tensor]:
    """The gradients cast to float32 where the update runs on a float32 master copy."""
    return [
        g.to(dtype=p.dtype) if g.dtype != p.dtype else g for p, g in zip(params, grads, strict=True)
    ]


def _write_back_masters(originals: list[Tensor], updated: list[Tensor]) -> None:
    """Copies each updated master into its bfloat16/float16 parameter (rounded to nearest)."""
    for p, m in zip(originals, updated, strict=True):
        if p is not m:
            p.copy_(m)


def _check_master_weights(master_weights: Any) -> None:
    if not isinstance(master_weights, bool):
        raise TypeError(f"master_weights must be a bool, got {type(master_weights).__name__}")


def _use_fused(foreach: bool | None, tensors: Iterable[Tensor]) -> bool:
    """Whether a step takes its native fused path: by default, unless ``foreach=False``."""
    return foreach is not False and _fusable(tensors)


def _group_by_dtype(indices: Iterable[int], params: list[Tensor]) -> dict[Any, list[int]]:
    groups: dict[Any, list[int]] = {}
    for i in indices:
        groups.setdefault(params[i].dtype, []).append(i)
    return groups


class Optimizer:
    """Base class for all optimizers.

    Args:
        params: an iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (param groups).
        defaults: default hyperparameters, used when a group does not give them.

    Example:
        >>> class PlainSGD(ember.optim.Optimizer):
        ...     def __init__(self, params, lr=0.1):
        ...         super().__init__(params, {"lr": lr})
        ...     @no_grad()
        ...     def step(self, closure=None):
        ...         for g in self.param_groups:
        ...             for p in g["params"]:
        ...                 if p.grad is not None:
        ...                     p.add_(p.grad, alpha=-g["lr"])
    """

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        if not isinstance(defaults, dict):
            raise TypeError(
                f"{type(self).__name__}(): argument 'defaults' must be a dict of "
                f"hyperparameters, not {_typename(defaults)}"
            )
        self.defaults = defaults
        self._optimizer_step_pre_hooks: OrderedDict[int, OptimizerPreHook] = OrderedDict()
        self._optimizer_step_post_hooks: OrderedDict[int, OptimizerPostHook] = OrderedDict()
        self._optimizer_state_dict_pre_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_state_dict_post_hooks: OrderedDict[int, Callable[..., Any]] = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict()
        )
        self._optimizer_load_state_dict_post_hooks: OrderedDict[int, Callable[..., Any]] = (
            OrderedDict()
        )
        self._patch_step_function()
        if isinstance(params, Tensor):
            raise TypeError(
                "params argument given to the optimizer should be an iterable of Tensors or "
                "dicts, but got " + _typename(params)
            )
        self.state: defaultdict[Any, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(cast(dict[str, Any], param_group))

    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # -- step hooks ---------------------------------------------------------------------------

    @staticmethod
    def profile_hook_step(func: Callable[..., Any]) -> Callable[..., Any]:
        """Wraps ``step`` so the global and per-optimizer step hooks run around it."""

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self = cast(Optimizer, args[0])
            for pre_hook in chain(
                _global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()
            ):
                result = pre_hook(self, args, kwargs)
                if result is not None:
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            f"{func} must return None or a tuple of (new_args, new_kwargs), "
                            f"but got {result}."
                        )
            out = func(*args, **kwargs)
            for post_hook in chain(
                self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()
            ):
                post_hook(self, args, kwargs)
            return out

        wrapper.hooked = True  # type: ignore[attr-defined]
        return wrapper

    def _patch_step_function(self) -> None:
        # As torch: the most derived class's step is wrapped once, on first instantiation.
        cls = self.__class__
        if not getattr(cls.step, "hooked", False):
            cls.step = self.profile_hook_step(cls.step)  # type: ignore[method-assign]

    def register_step_pre_hook(self, hook: OptimizerPreHook) -> RemovableHandle:
        """Registers ``hook(optimizer, args, kwargs)`` to run before ``step()``.

        It may return ``(new_args, new_kwargs)``; returns a handle whose ``remove()`` drops it.
        """
        handle = RemovableHandle(self._optimizer_step_pre_hooks)
        self._optimizer_step_pre_hooks[handle.id] = hook
        return handle

    def register_step_post_hook(self, hook: OptimizerPostHook) -> RemovableHandle:
        """Registers ``hook(optimizer, args, kwargs)`` to run after ``step()``."""
        handle = RemovableHandle(self._optimizer_step_post_hooks)
        self._optimizer_step_post_hooks[handle.id] = hook
        return handle

    @staticmethod
    def _add_hook(
        hooks: OrderedDict[int, Any], hook: Callable[..., Any], prepend: bool
    ) -> RemovableHandle:
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(
        self, hook: Callable[[Optimizer], None], prepend: bool = False
    ) -> RemovableHandle:
        """Registers ``hook(optimizer)`` to run before ``state_dict()``."""
        return self._add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(
        self,
        hook: Callable[[Optimizer, StateDict], StateDict | None],
        prepend: bool = False,
    ) -> RemovableHandle:
        """Registers ``hook(optimizer, state_dict)``, run after ``state_dict()`` (may replace)."""
        return self._add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(
        self,
        hook: Callable[[Optimizer, StateDict], StateDict | None],
        prepend: bool = False,
    ) -> RemovableHandle:
        """Registers ``hook(optimizer, state_dict)``, run before ``load_state_dict()``."""
        return self._add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(
        self, hook: Callable[[Optimizer], None], prepend: bool = False
    ) -> RemovableHandle:
        """Registers ``hook(optimizer)``, run after ``load_state_dict()``."""
        return self._add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # -- state_dict ---------------------------------------------------------------------------

    def state_dict(self) -> StateDict:
        """The optimizer's state: ``{'state': {index: {...}}, 'param_groups': [...]}``.

        Parameters are replaced by their index in the order of the groups; the state's tensors
        are the live ones (not copies), as in torch.
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        param_mappings: dict[int, int] = {}
        start_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update(
                {
                    id(p): i
                    for i, p in enumerate(group["params"], start_index)
                    if id(p) not in param_mappings
                }
            )
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {
            (param_mappings[id(k)] if isinstance(k, Tensor) else k): v
            for k, v in self.state.items()
        }
        state_dict: StateDict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(
        param: Tensor,
        value: Tensor,
        param_id: int,
        param_groups: list[dict[Any, Any]],
        key: Hashable = None,
    ) -> Tensor:
        # Float state follows the parameter's dtype; 'step' keeps its own (torch issue 74424).
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        master = False
        for pg in param_groups:
            if param_id in pg["params"]:
                master = bool(pg.get("master_weights", False))
                break
        if key == "step":
            return value.to(dtype=ember.float32) if (capturable or fused) else value
        if master and param.dtype in _LOW_PRECISION:
            # float32 master weights: the master copy and the moments stay float32.
            return value.to(dtype=ember.float32)
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict: StateDict) -> None:
        """Loads a state made by :meth:`state_dict` (groups must match in number and sizes)."""
        if not isinstance(state_dict, dict):
            raise TypeError(
                f"load_state_dict(): argument 'state_dict' must be a dict, not "
                f"{_typename(state_dict)}"
            )
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = _deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(
            len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups, strict=True)
        ):
            raise ValueError(
                "loaded state dict contains a parameter group that doesn't match the size of "
                "optimizer's group"
            )
        id_map = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
                strict=True,
            )
        )

        def _cast(param: Tensor, value: Any, param_id: int, key: Hashable = None) -> Any:
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, state_dict["param_groups"], key
                )
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id, key=k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(_cast(param, v, param_id) for v in value)
            return value

        state: defaultdict[Any, Any] = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, k)
            else:
                state[k] = v

        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups, strict=True)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # -- gradients and groups -----------------------------------------------------------------

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Resets the gradients of every parameter (to None by default, else to zeros)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Performs one optimization step (subclasses implement it)."""
        raise NotImplementedError

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Adds a group of parameters with its own hyperparameters (torch's checks and errors)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but the "
                "ordering of tensors in sets will change between runs. Please use a list instead."
            )
        else:
            param_group["params"] = list(params)
        tensors: list[Any] = []
        names: list[Any] = []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) == len(tensors):
                param_group["param_names"] = names
            else:
                raise ValueError(
                    "all optimizer params should be with/without names. Some param names are "
                    "missing"
                )
        for param in tensors:
            if not isinstance(param, Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, but one of the params is "
                    + _typename(param)
                )
            if not self.defaults.get("differentiable", None) and not (
                param.is_leaf or getattr(param, "retains_grad", False)
            ):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter "
                    f"{name}"
                )
            param_group.setdefault(name, default)
        ids = [id(p) for p in tensors]
        if len(ids) != len(set(ids)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; in future, "
                "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                "information",
                stacklevel=3,
            )
        existing: set[int] = set()
        for group in self.param_groups:
            existing.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {which} to the optimizer"
                )
        if not existing.isdisjoint(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)
