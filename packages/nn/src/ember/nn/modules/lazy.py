"""``LazyModuleMixin``: modules whose parameter shapes come from their first input."""

from __future__ import annotations

from typing import Any

from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn.parameter import UninitializedBuffer, is_lazy


class LazyModuleMixin:
    """Mix into a module whose parameters start as ``UninitializedParameter``.

    The first call runs ``initialize_parameters(*args, **kwargs)`` (which materializes them from
    the input's shape), then the module turns into ``cls_to_become`` (``LazyLinear`` ->
    ``Linear``). Loading a state_dict into an uninitialized module materializes it too.

    Example:
        >>> m = ember.nn.LazyLinear(3)
        >>> _ = m(ember.ones(2, 5))
        >>> type(m).__name__, tuple(m.weight.shape)
        ('Linear', (3, 5))
    """

    cls_to_become: type[Any] | None = None

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if not hasattr(self, "register_forward_pre_hook"):  # not mixed into an nn.Module
            raise TypeError(
                f"{type(self).__name__}: LazyModuleMixin is a mixin for nn.Module subclasses "
                "(class LazyFoo(LazyModuleMixin, Foo)); it cannot be built on its own"
            )
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters, with_kwargs=True)

    def _save_to_state_dict(self: Any, destination: Any, prefix: str, keep_vars: bool) -> None:
        # Uninitialized entries are saved as they are (the placeholder itself), as torch does.
        for name, param in self._parameters.items():
            if param is not None:
                if not (is_lazy(param) or keep_vars):
                    param = param.detach()
                destination[prefix + name] = param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                if not (is_lazy(buf) or keep_vars):
                    buf = buf.detach()
                destination[prefix + name] = buf

    def _lazy_load_hook(
        self: Any,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: Any,
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        for name, param in (*self._parameters.items(), *self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param):
                value = state_dict[key]
                if not is_lazy(value):
                    with no_grad():
                        param.materialize(value.shape)
        _finish_buffers(self)

    def initialize_parameters(self: Any, *args: Any, **kwargs: Any) -> None:
        """Materializes the parameters from the first input; lazy layers override it."""
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}"
        )

    def has_uninitialized_params(self: Any) -> bool:
        """Whether a parameter or buffer is still uninitialized."""
        return any(is_lazy(t) for t in (*self._parameters.values(), *self._buffers.values()))

    def _replicate_for_data_parallel(self: Any) -> Any:
        raise RuntimeError(
            "Modules with uninitialized parameters can't be used with `DataParallel`. Run a "
            "dummy forward pass to correctly initialize the modules"
        )


def _finish_buffers(module: Any) -> None:
    # A materialized UninitializedBuffer is replaced by a plain tensor over the same storage.
    for name, buf in module._buffers.items():
        if isinstance(buf, UninitializedBuffer) and not is_lazy(buf):
            module._buffers[name] = buf.as_subclass(Tensor)


def _infer_parameters(module: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    module.initialize_parameters(*args, **kwargs)
    _finish_buffers(module)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {module._get_name()} has not been fully initialized")
    module._initialize_hook.remove()
    module._load_hook.remove()
    delattr(module, "_initialize_hook")
    delattr(module, "_load_hook")
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become
