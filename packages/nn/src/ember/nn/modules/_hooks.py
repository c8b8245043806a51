"""Hook handles and the autograd plumbing of full backward hooks (torch.utils.hooks)."""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import ember
from ember._tensor import Tensor
from ember.autograd import Function

__all__ = ["BackwardHook", "RemovableHandle"]


class RemovableHandle:
    """Returned by every ``register_*_hook``: ``handle.remove()`` unregisters the hook.

    Example:
        >>> m = ember.nn.Linear(2, 2)
        >>> h = m.register_forward_hook(lambda mod, args, out: None)
        >>> h.remove()
        >>> len(m._forward_hooks)
        0
    """

    next_id = 0

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extras = [] if extra_dict is None else extra_dict
        if isinstance(extras, dict):
            extras = [extras]
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras)

    def remove(self) -> None:
        """Removes the hook (and its entries in the extra dicts); removing twice is harmless."""
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            d = ref()
            if d is not None and self.id in d:
                del d[self.id]

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.hooks_dict_ref(), self.id, tuple(r() for r in self.extra_dict_ref))

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        hooks = OrderedDict() if state[0] is None else state[0]
        self.hooks_dict_ref = weakref.ref(hooks)
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in state[2] if d is not None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *args: object) -> None:
        self.remove()


class _HookState:
    """What one forward call's backward hooks share between the output and input identities."""

    def __init__(
        self,
        module: Any,
        hooks: list[Callable[..., Any]],
        pre_hooks: list[Callable[..., Any]],
        n_inputs: int,
    ) -> None:
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.n_inputs = n_inputs
        self.grad_outputs: tuple[Any, ...] | None = None
        self.inputs_require_grad = False


def _fix_grads(name: str, new: Any, old: tuple[Any, ...], what: str) -> tuple[Any, ...]:
    if new is None:
        return old
    if not isinstance(new, (tuple, list)):
        new = (new,)
    fixed: tuple[Any, ...] = tuple(new)
    if len(fixed) != len(old):
        raise RuntimeError(
            f"Backward hook returned an invalid number of grad_{what}, got {len(fixed)}, but "
            f"expected {len(old)} (hook of {name})"
        )
    return fixed


class _OutputIdentity(Function):
    # The outputs pass through unchanged; in backward the pre-hooks see (and may replace) the
    # gradients w.r.t. the outputs, which the input identity later hands to the full hooks.
    @staticmethod
    def forward(ctx: Any, state: _HookState, *outputs: Any) -> Any:
        ctx.state = state
        return tuple(o.view_as(o) for o in outputs)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        state: _HookState = ctx.state
        for hook in state.pre_hooks:
            grads = _fix_grads(hook.__name__, hook(state.module, grads), grads, "output")
        state.grad_outputs = grads
        if not state.inputs_require_grad and state.hooks:
            # No input carries a gradient: the full hooks run now, with grad_input all None.
            warnings.warn(
                "Full backward hook is firing when gradients are computed with respect to "
                "module outputs since no inputs require gradients. See "
                "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                "#torch.nn.Module.register_full_backward_hook for more details.",
                stacklevel=2,
            )
            for hook in state.hooks:
                if hook(state.module, (None,) * state.n_inputs, grads) is not None:
                    raise RuntimeError(
                        "Backward hook for Modules where no input requires gradient should "
                        "always return None or None for all gradients."
                    )
        return (None, *grads)


class _InputIdentity(Function):
    @staticmethod
    def forward(ctx: Any, state: _HookState, *inputs: Any) -> Any:
        ctx.state = state
        return tuple(i.view_as(i) for i in inputs)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        state: _HookState = ctx.state
        grads = tuple(
            g if need else None for g, need in zip(grads, ctx.needs_input_grad[1:], strict=False)
        )
        grad_outputs = state.grad_outputs if state.grad_outputs is not None else ()
        for hook in state.hooks:
            new = hook(state.module, grads, grad_outputs)
            grads = _fix_grads(hook.__name__, new, grads, "input")
        return (None, *grads)


class BackwardHook:
    """Wraps one forward call's tensor inputs and outputs in identity autograd Functions.

    The output identity's backward runs the backward pre-hooks on ``grad_output``; the input
    identity's backward runs the full backward hooks with ``(grad_input, grad_output)``.
    """

    def __init__(
        self,
        module: Any,
        user_hooks: list[Callable[..., Any]],
        user_pre_hooks: list[Callable[..., Any]],
    ) -> None:
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.state: _HookState | None = None

    def setup_input_hook(self, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """Routes the positional tensor inputs through the input identity."""
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        state = _HookState(self.module, self.user_hooks, self.user_pre_hooks, len(positions))
        self.state = state
        state.inputs_require_grad = any(args[i].requires_grad for i in positions)
        if not state.inputs_require_grad or not ember.is_grad_enabled() or not self.user_hooks:
            return args
        wrapped = _InputIdentity.apply(state, *(args[i] for i in positions))
        out = list(args)
        for i, w in zip(positions, wrapped, strict=True):
            out[i] = w
        return tuple(out)

    def setup_output_hook(self, result: Any) -> Any:
        """Routes the tensor outputs (a tensor or a tuple/list of them) through the output one."""
        state = self.state
        if state is None or not ember.is_grad_enabled():
            return result
        single = isinstance(result, Tensor)
        items = [result] if single else list(result) if isinstance(result, (tuple, list)) else []
        positions = [i for i, r in enumerate(items) if isinstance(r, Tensor) and r.requires_grad]
        if not positions:
            return result
        wrapped = _OutputIdentity.apply(state, *(items[i] for i in positions))
        for i, w in zip(positions, wrapped, strict=True):
            items[i] = w
        if single:
            return items[0]
        return type(result)(items)
