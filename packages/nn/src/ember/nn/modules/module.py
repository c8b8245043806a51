"""``Module``: the base class of every layer and model (torch.nn.Module's API)."""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar, overload

import ember
from ember._device import device as _device
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn.modules._call import HooksMixin
from ember.nn.modules._global_hooks import (
    _global_buffer_registration_hooks,
    _global_module_registration_hooks,
    _global_parameter_registration_hooks,
    register_module_backward_hook,
    register_module_buffer_registration_hook,
    register_module_forward_hook,
    register_module_forward_pre_hook,
    register_module_full_backward_hook,
    register_module_full_backward_pre_hook,
    register_module_module_registration_hook,
    register_module_parameter_registration_hook,
)
from ember.nn.modules._state_dict import StateDictMixin
from ember.nn.parameter import Buffer, Parameter

__all__ = [
    "Module",
    "register_module_backward_hook",
    "register_module_buffer_registration_hook",
    "register_module_forward_hook",
    "register_module_forward_pre_hook",
    "register_module_full_backward_hook",
    "register_module_full_backward_pre_hook",
    "register_module_module_registration_hook",
    "register_module_parameter_registration_hook",
]

_P = ParamSpec("_P")
_R = TypeVar("_R", covariant=True)
T = TypeVar("T", bound="Module")


class _HasForward(Protocol[_P, _R]):
    def forward(self, *args: _P.args, **kwargs: _P.kwargs) -> _R: ...


class _TypedCall:
    # Seen by type checkers only: `module(x)` has the signature and result type of the module
    # class's `forward` (torch's Module.__call__ returns Any).
    @overload
    def __get__(self, obj: None, owner: type[Any]) -> _TypedCall: ...
    @overload
    def __get__(self, obj: _HasForward[_P, _R], owner: type[Any]) -> Callable[_P, _R]: ...
    def __get__(self, obj: Any, owner: Any) -> Any:  # pragma: no cover - typing only
        raise NotImplementedError


_IncompatibleKeysBase = namedtuple("_IncompatibleKeysBase", ["missing_keys", "unexpected_keys"])


class _IncompatibleKeys(_IncompatibleKeysBase):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s: str, num_spaces: int) -> str:
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * num_spaces + line for line in lines)


def _tensor_type_name(value: object) -> str:
    if isinstance(value, Tensor):
        name: str = value.type()
        return name
    return type(value).__name__


def _applied(fn: Callable[[Tensor], Tensor], t: Tensor) -> Tensor:
    # A conversion that returns no tensor (Tensor.type(None) returns a name) changes nothing.
    out = fn(t)
    if not isinstance(out, Tensor):
        raise TypeError(f"_apply(): the function must return a Tensor, not {type(out).__name__}")
    return out


def _check_target(target: object, where: str) -> str:
    # A dotted path; a missing name along it is torch's (documented) AttributeError.
    if not isinstance(target, str):
        raise TypeError(f"{where}(): argument 'target' must be str, not {type(target).__name__}")
    return target


def _check_name(kind: str, name: object, owner: Module) -> str:
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
    if "." in name:
        got = f", got: {name}" if kind == "module" else ""  # torch's texts differ here
        raise KeyError(f'{kind} name can\'t contain "."{got}')
    if name == "":
        raise KeyError(f'{kind} name can\'t be empty string ""')
    return name


class Module(HooksMixin, StateDictMixin):
    """Base class of all neural-network modules; subclass it and define ``forward``.

    Attributes that are Parameters, Modules or registered buffers are tracked: they appear in
    ``parameters()``, ``state_dict()``, ``to()``, ``repr`` and so on.

    Example:
        >>> class Net(ember.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = ember.nn.Linear(4, 2)
        ...     def forward(self, x):
        ...         return self.fc(x).relu()
        >>> Net()(ember.ones(3, 4)).shape
        ember.Size([3, 2])
    """

    dump_patches: bool = False
    _version: int = 1
    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _non_persistent_buffers_set: set[str]
    _modules: dict[str, Module | None]
    _is_full_backward_hook: bool | None
    call_super_init: bool = False
    # Built-in layers set this: errors raised in their forward get "[Layer(...) at 'path']".
    _ember_builtin: bool = False
    forward: Callable[..., Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if self.call_super_init is False and kwargs:
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )
        if self.call_super_init is False and args:
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )
        setattr_ = object.__setattr__
        setattr_(self, "training", True)
        setattr_(self, "_parameters", {})
        setattr_(self, "_buffers", {})
        setattr_(self, "_non_persistent_buffers_set", set())
        setattr_(self, "_backward_pre_hooks", OrderedDict())
        setattr_(self, "_backward_hooks", OrderedDict())
        setattr_(self, "_is_full_backward_hook", None)
        setattr_(self, "_forward_hooks", OrderedDict())
        setattr_(self, "_forward_hooks_with_kwargs", OrderedDict())
        setattr_(self, "_forward_hooks_always_called", OrderedDict())
        setattr_(self, "_forward_pre_hooks", OrderedDict())
        setattr_(self, "_forward_pre_hooks_with_kwargs", OrderedDict())
        setattr_(self, "_state_dict_hooks", OrderedDict())
        setattr_(self, "_state_dict_pre_hooks", OrderedDict())
        setattr_(self, "_load_state_dict_pre_hooks", OrderedDict())
        setattr_(self, "_load_state_dict_post_hooks", OrderedDict())
        setattr_(self, "_modules", {})
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    def _forward_unimplemented(self, *input: Any) -> None:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    forward = _forward_unimplemented

    # --- registration -------------------------------------------------------------------------

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Adds a buffer (state that is not a parameter, e.g. running statistics).

        Non-persistent buffers are left out of ``state_dict``.

        Example:
            >>> m = ember.nn.Module()
            >>> m.register_buffer("steps", ember.zeros(()))
            >>> m.steps
            tensor(0.)
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name("buffer", name, self)
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{_tensor_type_name(tensor)}' object to buffer '{name}' "
                "(ember Tensor or None required)"
            )
        if isinstance(tensor, Buffer):
            persistent = getattr(tensor, "persistent", persistent)
            tensor = ember.nn.parameter._native(tensor).as_subclass(Tensor)
        for hook in _global_buffer_registration_hooks.values():
            output = hook(self, name, tensor)
            if output is not None:
                tensor = output
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Adds a parameter (``None`` registers the name without a value, like a bias=False).

        Example:
            >>> m = ember.nn.Module()
            >>> m.register_parameter("w", ember.nn.Parameter(ember.ones(2)))
            >>> [n for n, _ in m.named_parameters()]
            ['w']
        """
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name("parameter", name, self)
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
            return
        if not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{_tensor_type_name(param)}' object to parameter '{name}' "
                "(ember.nn.Parameter or None required)"
            )
        if param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                "created explicitly. To express '{name}' as a function of another Tensor, compute "
                "the value in the forward() method."
            )
        for hook in _global_parameter_registration_hooks.values():
            output = hook(self, name, param)
            if output is not None:
                param = output
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Adds a child module, reachable as an attribute called ``name``.

        Example:
            >>> m = ember.nn.Module()
            >>> m.add_module("fc", ember.nn.Linear(2, 2))
            >>> [n for n, _ in m.named_children()]
            ['fc']
        """
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        _check_name("module", name, self)
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        for hook in _global_module_registration_hooks.values():
            output = hook(self, name, module)
            if output is not None:
                module = output
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        """Alias of ``add_module``."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> Module:
        """The submodule at a dotted path (``"encoder.layers.0"``); ``""`` is the module itself.

        Example:
            >>> seq = ember.nn.Sequential(ember.nn.Linear(2, 2))
            >>> type(seq.get_submodule("0")).__name__
            'Linear'
        """
        if _check_target(target, "get_submodule") == "":
            return self
        mod: Module = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            nxt = getattr(mod, item)
            if not isinstance(nxt, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
            mod = nxt
        return mod

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Replaces (or, unless ``strict``, adds) the submodule at a dotted path.

        Example:
            >>> seq = ember.nn.Sequential(ember.nn.Linear(2, 2))
            >>> seq.set_submodule("0", ember.nn.Identity())
            >>> seq
            Sequential(
              (0): Identity()
            )
        """
        if _check_target(target, "set_submodule") == "":
            raise ValueError("Cannot set the submodule without a target name!")
        *path, name = target.split(".")
        if not isinstance(module, Module):
            raise ValueError("`module` is not an nn.Module, found " + str(type(module)))
        mod = self.get_submodule(".".join(path))
        if strict and not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        if hasattr(mod, name) and not isinstance(getattr(mod, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(mod, name, module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at a dotted path (``"fc.weight"``).

        Example:
            >>> tuple(ember.nn.Linear(2, 3).get_parameter("weight").shape)
            (3, 2)
        """
        module_path, _, param_name = _check_target(target, "get_parameter").rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at a dotted path.

        Example:
            >>> m = ember.nn.Module()
            >>> m.register_buffer("b", ember.ones(1))
            >>> m.get_buffer("b")
            tensor([1.])
        """
        module_path, _, buffer_name = _check_target(target, "get_buffer").rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")
        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        buffer: Tensor = getattr(mod, buffer_name)
        return buffer

    # --- attribute routing --------------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        d = self.__dict__
        if "_parameters" in d and name in d["_parameters"]:
            return d["_parameters"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        if "_modules" in d and name in d["_modules"]:
            return d["_modules"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        def remove_from(*dicts_or_sets: Any) -> None:
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(
                self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set
            )
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_tensor_type_name(value)}' as parameter '{name}' "
                    "(ember.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(
                self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set
            )
            for hook in _global_module_registration_hooks.values():
                output = hook(self, name, value)
                if output is not None:
                    value = output
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{_tensor_type_name(value)}' as child module '{name}' "
                    "(ember.nn.Module or None expected)"
                )
            modules[name] = value
            return
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Buffer) or (buffers is not None and name in buffers):
            if buffers is None:
                raise AttributeError("cannot assign buffer before Module.__init__() call")
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{_tensor_type_name(value)}' as buffer '{name}' "
                    "(ember.nn.Buffer, Tensor or None expected)"
                )
            if isinstance(value, Buffer):
                persistent = value.persistent  # type: ignore[attr-defined]
            else:
                persistent = name not in self._non_persistent_buffers_set
            remove_from(self.__dict__, self._parameters, self._modules)
            self.register_buffer(name, value, persistent)
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        keys = [
            *dir(self.__class__),
            *self.__dict__,
            *self._parameters,
            *self._modules,
            *self._buffers,
        ]
        return sorted(k for k in set(keys) if not k[0].isdigit())

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        # Modules pickled by older code may lack newer hook dicts.
        for name in (
            "_forward_pre_hooks",
            "_forward_pre_hooks_with_kwargs",
            "_forward_hooks",
            "_forward_hooks_with_kwargs",
            "_forward_hooks_always_called",
            "_state_dict_hooks",
            "_state_dict_pre_hooks",
            "_load_state_dict_pre_hooks",
            "_load_state_dict_post_hooks",
            "_backward_pre_hooks",
            "_backward_hooks",
        ):
            if name not in self.__dict__:
                self.__dict__[name] = OrderedDict()
        self.__dict__.setdefault("_non_persistent_buffers_set", set())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    # --- iteration ----------------------------------------------------------------------------

    def _named_members(
        self,
        get_members_fn: Callable[[Module], Any],
        prefix: str = "",
        recurse: bool = True,
        remove_duplicate: bool = True,
    ) -> Iterator[tuple[str, Any]]:
        memo: set[int] = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or id(v) in memo:
                    continue
                if remove_duplicate:
                    memo.add(id(v))
                yield (module_prefix + ("." if module_prefix else "") + k, v)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module and (``recurse``) its submodules, each once.

        Example:
            >>> [tuple(p.shape) for p in ember.nn.Linear(2, 3).parameters()]
            [(3, 2), (3,)]
        """
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)`` pairs, in registration order.

        Example:
            >>> [n for n, _ in ember.nn.Sequential(ember.nn.Linear(2, 2)).named_parameters()]
            ['0.weight', '0.bias']
        """
        return self._named_members(
            lambda m: m._parameters.items(), prefix, recurse, remove_duplicate
        )

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers of this module and (``recurse``) its submodules.

        Example:
            >>> m = ember.nn.Module()
            >>> m.register_buffer("b", ember.ones(1))
            >>> list(m.buffers())
            [tensor([1.])]
        """
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        """``(dotted name, buffer)`` pairs, in registration order.

        Example:
            >>> m = ember.nn.Module()
            >>> m.register_buffer("b", ember.ones(1))
            >>> [n for n, _ in m.named_buffers(prefix="model")]
            ['model.b']
        """
        return self._named_members(lambda m: m._buffers.items(), prefix, recurse, remove_duplicate)

    def children(self) -> Iterator[Module]:
        """The direct submodules.

        Example:
            >>> len(list(ember.nn.Sequential(ember.nn.ReLU() if hasattr(ember.nn, "ReLU")
            ...     else ember.nn.Identity()).children()))
            1
        """
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """``(name, submodule)`` for the direct submodules, each module once.

        Example:
            >>> [n for n, _ in ember.nn.Sequential(ember.nn.Identity()).named_children()]
            ['0']
        """
        memo: set[int] = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self) -> Iterator[Module]:
        """This module and all its submodules, depth first, each once.

        Example:
            >>> len(list(ember.nn.Sequential(ember.nn.Identity()).modules()))
            2
        """
        for _, module in self.named_modules():
            yield module

    def named_modules(
        self, memo: set[Any] | None = None, prefix: str = "", remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Module]]:
        """``(dotted path, module)`` for this module (path ``prefix``) and every submodule.

        Example:
            >>> [n for n, _ in ember.nn.Sequential(ember.nn.Identity()).named_modules()]
            ['', '0']
        """
        if memo is None:
            memo = set()
        elif not isinstance(memo, set):
            raise TypeError(
                f"named_modules(): argument 'memo' must be a set, not {type(memo).__name__}"
            )
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            submodule_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    def __hash__(self) -> int:
        return id(self)

    # --- modes and gradients ------------------------------------------------------------------

    def train(self: T, mode: bool = True) -> T:
        """Sets training mode (dropout active, batch statistics) on this module and below.

        Example:
            >>> ember.nn.Linear(2, 2).train(False).training
            False
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self: T) -> T:
        """Sets evaluation mode: ``train(False)``.

        Example:
            >>> ember.nn.Linear(2, 2).eval().training
            False
        """
        return self.train(False)

    def requires_grad_(self: T, requires_grad: bool = True) -> T:
        """Sets ``requires_grad`` of every parameter (freezing with ``False``).

        Example:
            >>> m = ember.nn.Linear(2, 2).requires_grad_(False)
            >>> m.weight.requires_grad
            False
        """
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Resets the gradients of every parameter: to None (default) or to zeros.

        Example:
            >>> m = ember.nn.Linear(2, 1)
            >>> m(ember.ones(1, 2)).sum().backward()
            >>> m.zero_grad()
            >>> m.weight.grad is None
            True
        """
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                ember.nn.parameter._native(p).grad = None
            else:
                grad = p.grad
                if grad.grad_fn is not None:
                    grad.detach_()
                else:
                    grad.requires_grad_(False)
                grad.zero_()

    def share_memory(self: T) -> T:
        """Moves every parameter and buffer into shared memory (for multiprocessing).

        Example:
            >>> m = ember.nn.Linear(2, 2)
            >>> hasattr(m, "share_memory")
            True
        """
        if not hasattr(Tensor, "share_memory_"):
            raise RuntimeError(
                "[share_memory] ember tensors cannot be moved to shared memory yet: "
                "Tensor.share_memory_ comes with the ember-multiprocessing distribution"
            )
        return self._apply(lambda t: ember.nn.parameter._native(t).share_memory_())

    def apply(self: T, fn: Callable[[Module], None]) -> T:
        """Calls ``fn`` on every submodule (children first) and then on this module.

        Example:
            >>> seen = []
            >>> _ = ember.nn.Sequential(ember.nn.Identity()).apply(
            ...     lambda m: seen.append(type(m).__name__))
            >>> seen
            ['Identity', 'Sequential']
        """
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- conversion ---------------------------------------------------------------------------

    def _apply(self: T, fn: Callable[[Tensor], Tensor], recurse: bool = True) -> T:
        if recurse:
            for module in self.children():
                module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with no_grad():
                param_applied = _applied(fn, param)
            # As torch by default: the Parameter object stays (optimizers keep working), its data
            # changes.
            if param_applied is not param:
                ember.nn.parameter._native(param)._set_data(param_applied.detach())
            grad = param.grad
            if grad is not None:
                with no_grad():
                    grad_applied = _applied(fn, grad)
                if grad_applied is not grad:
                    ember.nn.parameter._native(grad)._set_data(grad_applied.detach())
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = _applied(fn, buf)
        return self

    def to(self: T, *args: Any, **kwargs: Any) -> T:
        """Converts parameters and buffers: ``to(dtype)``, ``to(device)``, ``to(tensor)``.

        A dtype applies to floating point and complex tensors only, as in torch.

        Example:
            >>> ember.nn.Linear(2, 2).to(ember.float64).weight.dtype
            ember.float64
        """
        device, dtype, _ = _parse_module_to(args, kwargs)  # copies are synchronous
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(
                "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                f"dtype={dtype}"
            )

        def convert(t: Tensor) -> Tensor:
            options: dict[str, Any] = {} if device is None else {"device": device}
            if dtype is not None and (t.is_floating_point() or t.is_complex()):
                options["dtype"] = dtype
            return t.to(**options) if options else t

        return self._apply(convert)

    def cpu(self: T) -> T:
        """Moves parameters and buffers to the CPU (where ember tensors already live).

        Example:
            >>> ember.nn.Linear(2, 2).cpu().weight.device
            device(type='cpu')
        """
        return self._apply(lambda t: t.cpu())

    def cuda(self: T, device: Any = None) -> T:
        """Moves parameters and buffers to a CUDA device (raises on builds without CUDA).

        Example:
            >>> ember.nn.Linear(2, 2).cuda()  # doctest: +SKIP
        """
        if not ember.cuda.is_available() or not hasattr(Tensor, "cuda"):
            raise RuntimeError(
                "[Module.cuda] ember not compiled with CUDA enabled (or no CUDA device): "
                "install a CUDA variant of ember-core (e.g. 0.1.0+cu130) on a machine with a GPU"
            )
        return self._apply(lambda t: t.cuda(device))

    def type(self: T, dst_type: Any) -> T:
        """Casts every parameter and buffer to ``dst_type`` (a dtype or a type name).

        Example:
            >>> ember.nn.Linear(2, 2).type(ember.float64).weight.dtype
            ember.float64
        """
        return self._apply(lambda t: t.type(dst_type))

    def float(self: T) -> T:
        """Casts floating point parameters and buffers to float32."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self: T) -> T:
        """Casts floating point parameters and buffers to float64.

        Example:
            >>> ember.nn.Linear(2, 2).double().bias.dtype
            ember.float64
        """
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self: T) -> T:
        """Casts floating point parameters and buffers to float16."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self: T) -> T:
        """Casts floating point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def to_empty(self: T, *, device: Any = None, recurse: bool = True) -> T:
        """Replaces parameters and buffers by uninitialized tensors of the same shape.

        Example:
            >>> tuple(ember.nn.Linear(2, 3).to_empty(device="cpu").weight.shape)
            (3, 2)
        """
        return self._apply(lambda t: ember.empty_like(t, device=device), recurse=recurse)

    if TYPE_CHECKING:
        __call__ = _TypedCall()
    else:
        __call__ = HooksMixin._call_impl

    # --- repr ---------------------------------------------------------------------------------

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The text inside this module's ``repr`` parentheses; override it in layers.

        Example:
            >>> ember.nn.Linear(2, 3).extra_repr()
            'in_features=2, out_features=3, bias=True'
        """
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            "(" + key + "): " + _addindent(repr(module), 2) for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"


def _parse_module_to(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, bool]:
    # to(device=None, dtype=None, non_blocking=False) | to(dtype, non_blocking) | to(tensor)
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = bool(kwargs.pop("non_blocking", False))
    kwargs.pop("memory_format", None)
    kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(f"to() received an invalid keyword argument '{next(iter(kwargs))}'")
    rest = list(args)
    if rest and isinstance(rest[0], Tensor):
        t = rest.pop(0)
        device, dtype = t.device, t.dtype
    elif rest and isinstance(rest[0], ember.dtype):
        dtype = rest.pop(0)
    elif rest and (isinstance(rest[0], (str, int, _device))):
        device = rest.pop(0)
        if rest and isinstance(rest[0], ember.dtype):
            dtype = rest.pop(0)
    if rest and isinstance(rest[0], bool):
        non_blocking = rest.pop(0)
    if rest:
        raise TypeError(f"to() received invalid arguments: {tuple(args)!r}")
    if device is not None:
        device = _device(device) if not isinstance(device, _device) else device
    return device, dtype, non_blocking
