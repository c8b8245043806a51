"""The forward/backward hook registration and the hook-running ``__call__`` of ``Module``."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ember.nn.modules import _errors
from ember.nn.modules import _global_hooks as g
from ember.nn.modules._hooks import BackwardHook, RemovableHandle


class HooksMixin:
    """Hook registration and calling; ``Module`` inherits it (kept in its own file)."""

    _forward_hooks: OrderedDict[int, Callable[..., Any]]
    _forward_hooks_with_kwargs: OrderedDict[int, bool]
    _forward_hooks_always_called: OrderedDict[int, bool]
    _forward_pre_hooks: OrderedDict[int, Callable[..., Any]]
    _forward_pre_hooks_with_kwargs: OrderedDict[int, bool]
    _backward_hooks: OrderedDict[int, Callable[..., Any]]
    _backward_pre_hooks: OrderedDict[int, Callable[..., Any]]
    _is_full_backward_hook: bool | None
    forward: Callable[..., Any]

    def register_forward_pre_hook(
        self, hook: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False
    ) -> RemovableHandle:
        """Runs ``hook(module, args)`` (or ``hook(module, args, kwargs)``) before ``forward``.

        It may return new args (a tuple or one value), or with ``with_kwargs`` ``(args, kwargs)``.

        Example:
            >>> m = ember.nn.Identity()
            >>> _ = m.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))
            >>> m(ember.ones(1))
            tensor([2.])
        """
        handle = RemovableHandle(
            self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs
        )
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(
        self,
        hook: Callable[..., Any],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> RemovableHandle:
        """Runs ``hook(module, args, output)`` after ``forward``; a non-None result replaces it.

        ``with_kwargs`` passes ``(module, args, kwargs, output)``; ``always_call`` runs the hook
        even when ``forward`` raises.

        Example:
            >>> m = ember.nn.Identity()
            >>> _ = m.register_forward_hook(lambda mod, args, out: out + 1)
            >>> m(ember.zeros(1))
            tensor([1.])
        """
        handle = RemovableHandle(
            self._forward_hooks,
            extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called],
        )
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Runs ``hook(module, grad_output)`` when the gradients w.r.t. the outputs are known.

        It may return replacement ``grad_output``.

        Example:
            >>> m = ember.nn.Linear(2, 1)
            >>> _ = m.register_full_backward_pre_hook(lambda mod, g: (g[0] * 0,))
            >>> m(ember.ones(1, 2)).sum().backward()
            >>> m.weight.grad
            tensor([[0., 0.]])
        """
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(
        self, hook: Callable[..., Any], prepend: bool = False
    ) -> RemovableHandle:
        """Runs ``hook(module, grad_input, grad_output)`` when the input gradients are computed.

        ``grad_input`` holds the gradients w.r.t. the positional tensor inputs (None for those
        that do not require grad); a non-None result replaces it.

        Example:
            >>> m = ember.nn.Identity()
            >>> seen = []
            >>> _ = m.register_full_backward_hook(lambda mod, gi, go: seen.append(go[0]))
            >>> m(ember.ones(2, requires_grad=True)).sum().backward()
            >>> seen
            [tensor([1., 1.])]
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them."
            )
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Legacy backward hook; ember gives it full-hook semantics (see docs/nn.md).

        Example:
            >>> h = ember.nn.Linear(2, 2).register_backward_hook(lambda m, gi, go: None)
        """
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a single "
                "Module. Please use only one of them."
            )
        self._is_full_backward_hook = False
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    # --- calling ------------------------------------------------------------------------------

    def _call_impl(self, *args: Any, **kwargs: Any) -> Any:
        if not (
            self._forward_hooks
            or self._forward_pre_hooks
            or self._backward_hooks
            or self._backward_pre_hooks
            or g._global_forward_hooks
            or g._global_forward_pre_hooks
            or g._global_backward_hooks
            or g._global_backward_pre_hooks
        ):
            try:
                return self.forward(*args, **kwargs)
            except Exception as exc:
                _errors.annotate(self, exc)
                raise
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        called_always: set[int] = set()
        result: Any = None
        try:
            for hook_id, hook in (
                *g._global_forward_pre_hooks.items(),
                *self._forward_pre_hooks.items(),
            ):
                if hook_id in self._forward_pre_hooks_with_kwargs:
                    out = hook(self, args, kwargs)
                    if out is not None:
                        if isinstance(out, tuple) and len(out) == 2:
                            args, kwargs = out
                        else:
                            raise RuntimeError(
                                "forward pre-hook must return None or a tuple of (new_args, "
                                f"new_kwargs), but got {out}."
                            )
                else:
                    out = hook(self, args)
                    if out is not None:
                        args = out if isinstance(out, tuple) else (out,)
            bw_hook = None
            full_hooks = [*g._global_backward_hooks.values(), *self._backward_hooks.values()]
            pre_hooks = [*g._global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
            if full_hooks or pre_hooks:
                bw_hook = BackwardHook(self, full_hooks, pre_hooks)
                args = bw_hook.setup_input_hook(args)
            try:
                result = self.forward(*args, **kwargs)
            except Exception as exc:
                _errors.annotate(self, exc)
                raise
            for hook_id, hook in (*g._global_forward_hooks.items(), *self._forward_hooks.items()):
                if hook_id in self._forward_hooks_always_called or (
                    hook_id in g._global_forward_hooks_always_called
                ):
                    called_always.add(hook_id)
                if hook_id in self._forward_hooks_with_kwargs or (
                    hook_id in g._global_forward_hooks_with_kwargs
                ):
                    out = hook(self, args, kwargs, result)
                else:
                    out = hook(self, args, result)
                if out is not None:
                    result = out
            if bw_hook is not None:
                result = bw_hook.setup_output_hook(result)
            return result
        except Exception:
            # always_call hooks still run when forward (or an earlier hook) raised.
            for hook_id, hook in (*g._global_forward_hooks.items(), *self._forward_hooks.items()):
                always = hook_id in self._forward_hooks_always_called or (
                    hook_id in g._global_forward_hooks_always_called
                )
                if always and hook_id not in called_always:
                    try:
                        if hook_id in self._forward_hooks_with_kwargs or (
                            hook_id in g._global_forward_hooks_with_kwargs
                        ):
                            hook(self, args, kwargs, result)
                        else:
                            hook(self, args, result)
                    except Exception:
                        continue
            raise
