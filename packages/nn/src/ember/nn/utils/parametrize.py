"""Parametrizations (torch.nn.utils.parametrize): a tensor attribute computed from originals.

``register_parametrization(module, "weight", P)`` moves ``module.weight`` to
``module.parametrizations.weight.original`` and makes ``module.weight`` a property returning
``P(original)``. As in torch, the module's class is swapped for a generated subclass
(``ParametrizedLinear``) that carries the property, so other instances are untouched.
"""

from __future__ import annotations

import collections.abc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn.modules.container import ModuleDict, ModuleList
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter

__all__ = [
    "ParametrizationList",
    "cached",
    "is_parametrized",
    "register_parametrization",
    "remove_parametrizations",
    "transfer_parametrizations_and_params",
    "type_before_parametrizations",
]

_cache_enabled = 0
_cache: dict[tuple[int, str], Any] = {}


@contextmanager
def cached() -> Iterator[None]:
    """Inside this context each parametrized tensor is computed once and reused.

    Example:
        >>> with ember.nn.utils.parametrize.cached():
        ...     pass
    """
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache.clear()


def _register_parameter_or_buffer(module: Module, name: str, value: Any) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def _set_original(original: Any, value: Any) -> None:
    # torch's original.set_(value): the original keeps its identity, takes value's data.
    original._set_data(value.detach() if isinstance(value, Tensor) else value)


class ParametrizationList(ModuleList):
    """The chain of parametrizations of one tensor, holding its ``original`` (or originals).

    Built by ``register_parametrization``; not constructed directly.
    """

    original: Tensor
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Tensor, unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = tuple(_any(original).shape), original.dtype
        with no_grad():
            new: Any = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    with suppress(NotImplementedError):
                        new = module.right_inverse(new)
        if not isinstance(new, Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {type(new).__name__}"
            )
        new_any: Any = new
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new_any.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new_any.dtype}"
                )
            with no_grad():
                _set_original(original, new)
            _register_parameter_or_buffer(self, "original", original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, Tensor):
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        f"(list, tuple...). Got element {i} of the sequence with type "
                        f"{type(originali).__name__}."
                    )
                if isinstance(original, Parameter):
                    originali = Parameter(originali.detach(), original.requires_grad)
                _register_parameter_or_buffer(self, f"original{i}", originali)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(z).__name__}.")
            if z.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\nparametrized dtype: {z.dtype}"
                )
            if tuple(_any(z).shape) != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {tuple(_any(z).shape)}"
                )

    def right_inverse(self, value: Tensor) -> None:
        """Sets the originals so that the parametrized value becomes ``value``."""
        with no_grad():
            new: Any = value
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(
                        f"parametrization {type(module).__name__} does not implement right_inverse."
                    )
                new = module.right_inverse(new)
            if self.is_tensor:
                if not isinstance(new, Tensor):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {type(new).__name__}"
                    )
                if not self.unsafe and (
                    new.dtype != self.original.dtype
                    or tuple(_any(new).shape) != tuple(_any(self.original).shape)
                ):
                    raise ValueError(
                        "The tensor returned by `right_inverse` must have the same dtype and "
                        f"shape as the original: got {new.dtype} "
                        f"{tuple(_any(new).shape)}, expected {self.original.dtype} "
                        f"{tuple(_any(self.original).shape)}"
                    )
                _set_original(self.original, new)
            else:
                if not isinstance(new, collections.abc.Sequence) or len(new) != self.ntensors:
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors of length "
                        f"{self.ntensors}. Got {type(new).__name__}"
                    )
                for i, tensor in enumerate(new):
                    _set_original(getattr(self, f"original{i}"), tensor)

    def forward(self) -> Any:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            originals = (getattr(self, f"original{i}") for i in range(self.ntensors))
            x = self[0](*originals)
        idx = 1
        while str(idx) in self._modules:
            x = self[idx](x)
            idx += 1
        return x


def _any(t: object) -> Any:
    return t


def _inject_new_class(module: Module) -> None:
    cls = module.__class__

    def getstate(self: Any) -> Any:
        raise RuntimeError(
            "Serialization of parametrized modules is only supported through state_dict(). "
            "See: https://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
        )

    param_cls = type(f"Parametrized{cls.__name__}", (cls,), {"__getstate__": getstate})
    module.__class__ = param_cls


def _inject_property(module: Module, tensor_name: str) -> None:
    def get_parametrized(self: Any) -> Any:
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            key = (id(self), tensor_name)
            if key not in _cache:
                _cache[key] = parametrization()
            return _cache[key]
        return parametrization()

    def set_original(self: Any, value: Any) -> None:
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization (on ``tensor_name``, when given).

    Example:
        >>> ember.nn.utils.parametrize.is_parametrized(ember.nn.Linear(2, 2))
        False
    """
    parametrizations = module.__dict__.get("_modules", {}).get("parametrizations")
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
) -> Module:
    """Makes ``module.<tensor_name>`` the output of ``parametrization(original)``.

    Registering a second parametrization on the same name chains it after the first.

    Example:
        >>> class Symmetric(ember.nn.Module):
        ...     def forward(self, X):
        ...         return X.triu() + X.triu(1).transpose(-1, -2)
        >>> m = ember.nn.Linear(3, 3)
        >>> _ = ember.nn.utils.parametrize.register_parametrization(m, "weight", Symmetric())
        >>> bool((m.weight == m.weight.T).all())
        True
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            y = getattr(module, tensor_name)
            x = parametrization(y)
            if not isinstance(x, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(x).__name__}.")
            if x.dtype != y.dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless the `unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.dtype: {y.dtype}\n"
                    f"parametrization(module.{tensor_name}).dtype: {x.dtype}"
                )
            if tuple(_any(x).shape) != tuple(y.shape):
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless the `unsafe` flag is enabled.\n"
                    f"module.{tensor_name}.shape: {tuple(y.shape)}\n"
                    f"parametrization(module.{tensor_name}).shape: {tuple(_any(x).shape)}"
                )
        chain: Any = module.parametrizations[tensor_name]
        chain.append(parametrization)
        chain.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        chain = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = chain
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a parametrized element "
            f"with name '{tensor_name}'"
        )
    return module


def remove_parametrizations(
    module: Module, tensor_name: str, leave_parametrized: bool = True
) -> Module:
    """Removes the parametrizations of ``tensor_name``; its value stays (by default) or the
    original comes back (``leave_parametrized=False``).

    Example:
        >>> m = ember.nn.Linear(2, 2)
        >>> P = ember.nn.utils.parametrize
        >>> _ = P.register_parametrization(m, "weight", ember.nn.Identity())
        >>> _ = ember.nn.utils.parametrize.remove_parametrizations(m, "weight")
        >>> type(m).__name__
        'Linear'
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain: Any = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
                _set_original(original, t)
    else:
        if not leave_parametrized:
            raise ValueError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                "parametrized in terms of a sequence of tensors."
            )
        with no_grad():
            t = getattr(module, tensor_name)
        if isinstance(chain.original0, Parameter):
            original = Parameter(t.detach(), chain.original0.requires_grad)
        else:
            original = t.detach()
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type[Module]:
    """The module's class before any parametrization was registered.

    Example:
        >>> ember.nn.utils.parametrize.type_before_parametrizations(ember.nn.Linear(1, 1))
        <class 'ember.nn.modules.linear.Linear'>
    """
    if is_parametrized(module):
        base: type[Module] = module.__class__.__bases__[0]
        return base
    return type(module)


def transfer_parametrizations_and_params(
    from_module: Module, to_module: Module, tensor_name: str | None = None
) -> Module:
    """Copies the parametrizations (and their originals) of ``from_module`` to ``to_module``.

    Example:
        >>> a, b = ember.nn.Linear(2, 2), ember.nn.Linear(2, 2)
        >>> P = ember.nn.utils.parametrize
        >>> _ = P.register_parametrization(a, "weight", ember.nn.Identity())
        >>> _ = ember.nn.utils.parametrize.transfer_parametrizations_and_params(a, b)
        >>> ember.nn.utils.parametrize.is_parametrized(b, "weight")
        True
    """
    if not is_parametrized(from_module):
        return to_module
    source: Any = from_module.parametrizations
    names = list(source.keys()) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name).detach()))
        chain = source[name]
        for parametrization in chain:
            register_parametrization(to_module, name, parametrization, unsafe=True)
        target: Any = to_module.parametrizations
        with no_grad():
            if chain.is_tensor:
                target[name].original._set_data(chain.original.detach().clone())
            else:
                for i in range(chain.ntensors):
                    getattr(target[name], f"original{i}")._set_data(
                        getattr(chain, f"original{i}").detach().clone()
                    )
    return to_module
