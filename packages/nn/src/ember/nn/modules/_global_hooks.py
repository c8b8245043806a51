"""Global module hooks (torch.nn.modules.module.register_module_*): they run for every module.

``ember.nn.modules.module`` re-exports every function here, where torch users look for them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ember.nn.modules._hooks import RemovableHandle

_global_backward_pre_hooks: dict[int, Callable[..., Any]] = OrderedDict()
_global_backward_hooks: dict[int, Callable[..., Any]] = OrderedDict()
_global_is_full_backward_hook: bool | None = None
_global_forward_pre_hooks: dict[int, Callable[..., Any]] = OrderedDict()
_global_forward_hooks: dict[int, Callable[..., Any]] = OrderedDict()
_global_forward_hooks_always_called: dict[int, bool] = OrderedDict()
_global_forward_hooks_with_kwargs: dict[int, bool] = OrderedDict()
_global_buffer_registration_hooks: dict[int, Callable[..., Any]] = OrderedDict()
_global_module_registration_hooks: dict[int, Callable[..., Any]] = OrderedDict()
_global_parameter_registration_hooks: dict[int, Callable[..., Any]] = OrderedDict()


def register_module_buffer_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Runs ``hook(module, name, buffer)`` on every ``register_buffer``; may return a new buffer.

    Example:
        >>> h = ember.nn.modules.module.register_module_buffer_registration_hook(
        ...     lambda m, n, b: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_buffer_registration_hooks)
    _global_buffer_registration_hooks[handle.id] = hook
    return handle


def register_module_module_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Runs ``hook(module, name, submodule)`` on every submodule registration.

    Example:
        >>> h = ember.nn.modules.module.register_module_module_registration_hook(
        ...     lambda m, n, s: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_module_registration_hooks)
    _global_module_registration_hooks[handle.id] = hook
    return handle


def register_module_parameter_registration_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Runs ``hook(module, name, param)`` on every ``register_parameter``.

    Example:
        >>> h = ember.nn.modules.module.register_module_parameter_registration_hook(
        ...     lambda m, n, p: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_parameter_registration_hooks)
    _global_parameter_registration_hooks[handle.id] = hook
    return handle


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A forward pre-hook ``hook(module, args)`` for every module (before its own hooks).

    Example:
        >>> h = ember.nn.modules.module.register_module_forward_pre_hook(lambda m, a: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(
    hook: Callable[..., Any], *, with_kwargs: bool = False, always_call: bool = False
) -> RemovableHandle:
    """A forward hook ``hook(module, args, output)`` for every module (before its own hooks).

    Example:
        >>> h = ember.nn.modules.module.register_module_forward_hook(lambda m, a, o: None)
        >>> h.remove()
    """
    handle = RemovableHandle(
        _global_forward_hooks,
        extra_dict=[_global_forward_hooks_always_called, _global_forward_hooks_with_kwargs],
    )
    _global_forward_hooks[handle.id] = hook
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def _set_global_full(full: bool) -> None:
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward hooks as a global Module "
            "hook. Please use only one of them."
        )
    _global_is_full_backward_hook = full


def register_module_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """Legacy global backward hook; ember runs it with full-hook semantics (see docs/nn.md).

    Example:
        >>> ember.nn.modules.module.register_module_backward_hook(hook)  # doctest: +SKIP
    """
    _set_global_full(False)
    handle = RemovableHandle(_global_backward_hooks)
    _global_backward_hooks[handle.id] = hook
    return handle


def register_module_full_backward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A backward pre-hook ``hook(module, grad_output)`` for every module.

    Example:
        >>> h = ember.nn.modules.module.register_module_full_backward_pre_hook(lambda m, g: None)
        >>> h.remove()
    """
    handle = RemovableHandle(_global_backward_pre_hooks)
    _global_backward_pre_hooks[handle.id] = hook
    return handle


def register_module_full_backward_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A full backward hook ``hook(module, grad_input, grad_output)`` for every module.

    Example:
        >>> h = ember.nn.modules.module.register_module_full_backward_hook(
        ...     lambda m, gi, go: None)
        >>> h.remove()
    """
    _set_global_full(True)
    handle = RemovableHandle(_global_backward_hooks)
    _global_backward_hooks[handle.id] = hook
    return handle
