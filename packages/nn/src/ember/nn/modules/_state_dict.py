"""``state_dict`` / ``load_state_dict`` and their hooks, as a base of ``Module``.

Keys, metadata (``state_dict._metadata``), the ``_IncompatibleKeys`` result and the error text
follow torch, so checkpoints and the code that inspects them carry over unchanged.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn.modules._hooks import RemovableHandle
from ember.nn.parameter import Parameter, is_lazy

if TYPE_CHECKING:
    from ember.nn.modules.module import Module


class StateDictMixin:
    """The state-dict half of ``Module`` (kept in its own file; ``Module`` inherits it)."""

    _version: int
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _modules: dict[str, Module | None]
    _non_persistent_buffers_set: set[str]
    _state_dict_hooks: dict[int, Callable[..., Any]]
    _state_dict_pre_hooks: dict[int, Callable[..., Any]]
    _load_state_dict_pre_hooks: dict[int, Callable[..., Any]]
    _load_state_dict_post_hooks: dict[int, Callable[..., Any]]

    # --- extra state --------------------------------------------------------------------------

    def get_extra_state(self) -> Any:
        """Override (with ``set_extra_state``) to save non-tensor state as ``_extra_state``."""
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/ember-ml/ember/issues/new to report "
            "this bug."
        )

    def set_extra_state(self, state: Any) -> None:
        """Override (with ``get_extra_state``) to restore what ``get_extra_state`` returned."""
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/ember-ml/ember/issues/new to report "
            "this bug."
        )

    def _has_extra_state(self) -> bool:
        return type(self).get_extra_state is not StateDictMixin.get_extra_state

    # --- saving -------------------------------------------------------------------------------

    def _save_to_state_dict(self, destination: Any, prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if self._has_extra_state():
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def state_dict(
        self,
        *args: Any,
        destination: Any = None,
        prefix: str = "",
        keep_vars: bool = False,
    ) -> dict[str, Any]:
        """An OrderedDict of every parameter and persistent buffer, keyed by dotted name.

        The values are detached tensors sharing the module's storage (``keep_vars=True`` keeps
        the Parameters themselves).

        Example:
            >>> list(ember.nn.Linear(2, 3).state_dict())
            ['weight', 'bias']
        """
        if args:
            # torch's deprecated positional form: state_dict(destination, prefix, keep_vars)
            names = ("destination", "prefix", "keep_vars")
            values = dict(zip(names, args, strict=False))
            destination = values.get("destination", destination)
            prefix = values.get("prefix", prefix)
            keep_vars = values.get("keep_vars", keep_vars)
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if getattr(hook, "_from_public_api", False):
                if result is not None:
                    raise RuntimeError("state_dict post-hook must return None")
            elif result is not None:
                destination = result
        return destination  # type: ignore[no-any-return]

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Runs ``hook(module, prefix, keep_vars)`` before this module's ``state_dict``.

        Example:
            >>> h = ember.nn.Linear(2, 2).register_state_dict_pre_hook(lambda m, p, k: None)
        """
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Runs ``hook(module, state_dict, prefix, local_metadata)`` after; it may edit in place.

        Example:
            >>> m = ember.nn.Linear(2, 2)
            >>> def drop_bias(mod, sd, prefix, metadata):
            ...     del sd[prefix + "bias"]
            >>> _ = m.register_state_dict_post_hook(drop_bias)
            >>> list(m.state_dict())
            ['weight']
        """

        @functools.wraps(hook)
        def public(*args: Any) -> Any:
            return hook(*args)

        public._from_public_api = True  # type: ignore[attr-defined]
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = public
        return handle

    def _register_state_dict_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        # The private form (torch's): the hook may return a replacement dict.
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    # --- loading ------------------------------------------------------------------------------

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Runs ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
        unexpected_keys, error_msgs)`` before this module loads its entries.

        Example:
            >>> h = ember.nn.Linear(2, 2).register_load_state_dict_pre_hook(lambda *a: None)
        """
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def _register_load_state_dict_pre_hook(
        self, hook: Callable[..., Any], with_module: bool = False
    ) -> RemovableHandle:
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = (
            functools.partial(hook, self) if with_module else hook
        )
        return handle

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """Runs ``hook(module, incompatible_keys)`` after loading; it may edit the key lists.

        Example:
            >>> h = ember.nn.Linear(2, 2).register_load_state_dict_post_hook(lambda m, k: None)
        """
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    def _load_from_state_dict(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        for hook in self._load_state_dict_pre_hooks.values():
            hook(
                state_dict,
                prefix,
                local_metadata,
                strict,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
        persistent = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_state = {
            k: v for k, v in (*self._parameters.items(), *persistent.items()) if v is not None
        }
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, Tensor):
                error_msgs.append(
                    f'While copying the parameter named "{key}", expected Tensor or '
                    f"Tensor-like object from checkpoint but received {type(input_param)}"
                )
                continue
            lazy = is_lazy(param)
            if not lazy and param.dim() == 0 and input_param.dim() == 1:
                input_param = input_param[0]  # torch's compatibility for old 1-element scalars
            if not lazy and input_param.shape != param.shape:
                error_msgs.append(
                    f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                    f"from checkpoint, the shape in current model is {param.shape}."
                )
                continue
            try:
                with no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            if not isinstance(input_param, Parameter):
                                input_param = Parameter(
                                    input_param, requires_grad=param.requires_grad
                                )
                            else:
                                input_param.requires_grad_(param.requires_grad)
                        setattr(self, name, input_param)
                    elif lazy:
                        param.materialize(input_param.shape)  # type: ignore[attr-defined]
                        param.copy_(input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:
                error_msgs.append(
                    f'While copying the parameter named "{key}", whose dimensions in the model '
                    f"are {param.size()} and whose dimensions in the checkpoint are "
                    f"{input_param.size()}, an exception occurred : {ex.args}."
                )
        extra_key = prefix + "_extra_state"
        if type(self).set_extra_state is not StateDictMixin.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    head, *rest = key[len(prefix) :].split(".", 1)
                    if rest:
                        if head not in self._modules:
                            unexpected_keys.append(key)
                    elif head not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> Any:
        """Copies parameters and buffers from ``state_dict`` (e.g. one saved by torch).

        ``strict`` requires the keys to match exactly; ``assign`` keeps the given tensors
        instead of copying into the existing ones. Returns ``_IncompatibleKeys(missing_keys,
        unexpected_keys)``; raises RuntimeError listing every problem (torch's text).

        Example:
            >>> a, b = ember.nn.Linear(2, 2), ember.nn.Linear(2, 2)
            >>> b.load_state_dict(a.state_dict())
            <All keys matched successfully>
        """
        from ember.nn.modules.module import _IncompatibleKeys

        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state = OrderedDict(state_dict)
        if metadata is not None:
            state._metadata = metadata  # type: ignore[attr-defined]

        def load(module: Any, local_state: dict[str, Any], prefix: str = "") -> None:
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state,
                prefix,
                local_metadata,
                True,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state = {
                        k: v for k, v in local_state.items() if k.startswith(child_prefix)
                    }
                    load(child, child_state, child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible) is not None:
                    raise RuntimeError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be modified,"
                        "it should be done inplace."
                    )

        load(self, state)
        if strict:
            if unexpected_keys:
                keys = ", ".join(f'"{k}"' for k in unexpected_keys)
                error_msgs.insert(0, f"Unexpected key(s) in state_dict: {keys}. ")
            if missing_keys:
                keys = ", ".join(f'"{k}"' for k in missing_keys)
                error_msgs.insert(0, f"Missing key(s) in state_dict: {keys}. ")
        if error_msgs:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)
