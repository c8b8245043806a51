"""Containers: Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict."""

from __future__ import annotations

import operator
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from typing import Any, TypeVar, overload

from ember._tensor import Tensor
from ember.nn.modules.module import Module, _addindent
from ember.nn.parameter import Parameter

__all__ = [
    "Container",
    "ModuleDict",
    "ModuleList",
    "ParameterDict",
    "ParameterList",
    "Sequential",
]

_V = TypeVar("_V")
_S = TypeVar("_S", bound="Sequential")
_L = TypeVar("_L", bound="ModuleList")


def _item_by_idx(size: int, iterator: Iterable[_V], idx: int) -> _V:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    idx %= size
    return next(islice(iterator, idx, None))


class Container(Module):
    """Deprecated (torch too): a Module built from keyword submodules; subclass Module instead.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     c = ember.nn.Container(fc=ember.nn.Identity())
        >>> [n for n, _ in c.named_children()]
        ['fc']
    """

    def __init__(self, **kwargs: Module) -> None:
        super().__init__()
        warnings.warn(
            "nn.Container is deprecated. All of it's functionality is now implemented in "
            "nn.Module. Subclass that instead.",
            stacklevel=2,
        )
        for key, value in kwargs.items():
            self.add_module(key, value)


class Sequential(Module):
    """Modules called one after the other, each on the previous one's output.

    Built from modules (named ``"0"``, ``"1"``, ...) or from an ``OrderedDict`` of named ones.

    Example:
        >>> model = ember.nn.Sequential(ember.nn.Linear(4, 3), ember.nn.Linear(3, 1))
        >>> model(ember.ones(2, 4)).shape
        ember.Size([2, 1])
        >>> len(model[:1])
        1
    """

    _modules: dict[str, Module]  # type: ignore[assignment]

    @overload
    def __init__(self, *args: Module) -> None: ...
    @overload
    def __init__(self, arg: OrderedDict[str, Module]) -> None: ...
    def __init__(self, *args: Any) -> None:  # type: ignore[misc]
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    @overload
    def __getitem__(self, idx: slice) -> Sequential: ...
    @overload
    def __getitem__(self, idx: int) -> Module: ...
    def __getitem__(self, idx: int | slice) -> Sequential | Module:
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return _item_by_idx(len(self), self._modules.values(), idx)

    def __setitem__(self, idx: int, module: Module) -> None:
        key = _item_by_idx(len(self), self._modules.keys(), idx)
        setattr(self, key, module)

    def __delitem__(self, idx: int | slice) -> None:
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            delattr(self, _item_by_idx(len(self), self._modules.keys(), idx))
        # Renumber, as torch does, so indices stay 0..n-1.
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __add__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)!s} is given."
            )
        ret = Sequential()
        for layer in (*self, *other):
            ret.append(layer)
        return ret

    def __iadd__(self: _S, other: Sequential) -> _S:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)!s} is given."
            )
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def __mul__(self, other: int) -> Sequential:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        combined = Sequential()
        offset = 0
        for _ in range(other):
            for module in self:
                combined.add_module(str(offset), module)
                offset += 1
        return combined

    def __rmul__(self, other: int) -> Sequential:
        return self.__mul__(other)

    def __imul__(self: _S, other: int) -> _S:
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        if other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        n = len(self)
        originals = list(self)
        for rep in range(1, other):
            for i, module in enumerate(originals):
                self.add_module(str(rep * n + i), module)
        return self

    def pop(self, key: int | slice) -> Module:
        """Removes and returns the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def append(self: _S, module: Module) -> _S:
        """Adds ``module`` at the end.

        Example:
            >>> len(ember.nn.Sequential().append(ember.nn.Identity()))
            1
        """
        self.add_module(str(len(self)), module)
        return self

    def insert(self: _S, index: int, module: Module) -> _S:
        """Inserts ``module`` before position ``index`` (negative counts from the end)."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self: _S, sequential: Iterable[Module]) -> _S:
        """Appends every module of ``sequential``."""
        for layer in sequential:
            self.append(layer)
        return self

    def __dir__(self) -> list[str]:
        return [k for k in super().__dir__() if not k.isdigit()]

    def forward(self, input: Any) -> Any:
        for module in self:
            input = module(input)
        return input


class ModuleList(Module):
    """A list of submodules, registered (their parameters are the list module's).

    Example:
        >>> layers = ember.nn.ModuleList([ember.nn.Linear(2, 2) for _ in range(3)])
        >>> len(list(layers.parameters()))
        6
    """

    _modules: dict[str, Module]  # type: ignore[assignment]

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def _get_abs_string_index(self, idx: int) -> str:
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    @overload
    def __getitem__(self, idx: slice) -> ModuleList: ...
    @overload
    def __getitem__(self, idx: int) -> Module: ...
    def __getitem__(self, idx: int | slice) -> Module | ModuleList:
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._get_abs_string_index(idx), module)

    def __delitem__(self, idx: int | slice) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        self._modules = OrderedDict((str(i), m) for i, m in enumerate(self._modules.values()))

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self: _L, modules: Iterable[Module]) -> _L:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        combined = ModuleList()
        for i, module in enumerate([*self, *other]):
            combined.add_module(str(i), module)
        return combined

    def __repr__(self) -> str:
        # Runs of identical children print once: "(0-2): 3 x Linear(...)", as torch.
        reprs = [repr(item) for item in self]
        if not reprs:
            return self._get_name() + "()"
        blocks: list[list[Any]] = [[0, 0, reprs[0]]]
        for i, r in enumerate(reprs[1:], 1):
            if r == blocks[-1][2]:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = []
        for start, end, text in blocks:
            if start == end:
                line = f"({start}): {text}"
            else:
                line = f"({start}-{end}): {end - start + 1} x {text}"
            lines.append(_addindent(line, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self) -> list[str]:
        return [k for k in super().__dir__() if not k.isdigit()]

    def insert(self, index: int, module: Module) -> None:
        """Inserts ``module`` before position ``index`` (as ``list.insert``: negative counts
        from the end, past the end appends)."""
        index = operator.index(index)  # TypeError naming the type for a non-integer
        if not isinstance(module, Module):
            raise TypeError(f"ModuleList.insert: {type(module).__name__} is not a Module subclass")
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m

    def append(self: _L, module: Module) -> _L:
        """Adds ``module`` at the end."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key: int | slice) -> Module:
        """Removes and returns the module at ``key``."""
        v = self[key]
        del self[key]
        return v

    def extend(self: _L, modules: Iterable[Module]) -> _L:
        """Appends every module of the iterable ``modules``."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got "
                + type(modules).__name__
            )
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self


class ModuleDict(Module):
    """An ordered dict of submodules, registered under their keys.

    Example:
        >>> heads = ember.nn.ModuleDict({"a": ember.nn.Linear(2, 1)})
        >>> list(heads.keys()), "a" in heads
        (['a'], True)
    """

    _modules: dict[str, Module]  # type: ignore[assignment]

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Removes every item."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Removes the module under ``key`` and returns it."""
        v = self[key]
        del self[key]
        return v

    def keys(self) -> Iterable[str]:
        """The keys, in insertion order."""
        return self._modules.keys()

    def items(self) -> Iterable[tuple[str, Module]]:
        """``(key, module)`` pairs."""
        return self._modules.items()

    def values(self) -> Iterable[Module]:
        """The modules."""
        return self._modules.values()

    def update(self, modules: Any) -> None:
        """Adds modules from a mapping or from an iterable of ``(key, module)`` pairs."""
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleDict.update should be called with an iterable of key/value pairs, but "
                "got " + type(modules).__name__
            )
        if isinstance(modules, (OrderedDict, ModuleDict, Mapping)):
            for key, module in modules.items():
                self[key] = module
            return
        for j, m in enumerate(list(modules)):
            if not isinstance(m, Iterable):
                raise TypeError(
                    f"ModuleDict update sequence element #{j} should be Iterable; is "
                    + type(m).__name__
                )
            pair = list(m)
            if len(pair) != 2:
                raise ValueError(
                    f"ModuleDict update sequence element #{j} has length {len(pair)}; 2 is required"
                )
            self[pair[0]] = pair[1]


def _param_line(key: object, p: Any, type_name: str) -> str:
    if isinstance(p, Tensor):
        size = "x".join(str(s) for s in p.size())
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{type_name} of size {size}]"
    return f"  ({key}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """A list of parameters (plain tensors given to it become Parameters).

    Example:
        >>> ps = ember.nn.ParameterList([ember.zeros(2), ember.zeros(3)])
        >>> [n for n, _ in ps.named_parameters()]
        ['0', '1']
    """

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx: int) -> str:
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx: int, param: Any) -> None:
        key = self._get_abs_string_index(idx)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, key, param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable[Any]) -> ParameterList:
        return self.extend(parameters)

    def __dir__(self) -> list[str]:
        return [k for k in super().__dir__() if not k.isdigit()]

    def append(self, value: Any) -> ParameterList:
        """Appends ``value`` (a tensor becomes a Parameter)."""
        new_idx = len(self)
        self._size += 1
        try:
            self[new_idx] = value
        except BaseException:  # a value setattr refuses leaves no hole at the end
            self._size -= 1
            raise
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Appends every value of the iterable ``values``."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            raise TypeError(
                "ParameterList.extend should be called with an iterable, but got "
                + type(values).__name__
            )
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(
            _param_line(k, p, repr(p.dtype)) if isinstance(p, Tensor) else _param_line(k, p, "")
            for k, p in enumerate(self)
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("ParameterList should not be called.")


class _MissingKeyError(AttributeError, KeyError):
    """A key a ParameterDict lacks: torch raises AttributeError (its lookup is a getattr), a
    dict KeyError; this is both, so code written for either catches it."""


class ParameterDict(Module):
    """An ordered dict of parameters (plain tensors given to it become Parameters).

    Example:
        >>> pd = ember.nn.ParameterDict({"scale": ember.ones(1)})
        >>> isinstance(pd["scale"], ember.nn.Parameter)
        True
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key: object) -> str:
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type(key).__name__}'). Open an issue on github if you need "
                "non-string keys."
            )
        return key

    def __getitem__(self, key: str) -> Any:
        attr = self._key_to_attr(key)
        if key not in self._keys:  # not a module attribute of the same name ("training")
            raise _MissingKeyError(f"'ParameterDict' object has no key '{key}'")
        return getattr(self, attr)

    def __setitem__(self, key: str, value: Any) -> None:
        attr = self._key_to_attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)
        self._keys[key] = None  # after setattr: a value it refuses leaves no key behind

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(list(self._keys))

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default: Any = None) -> Any:
        """``self[key]``, first setting it to ``default`` when missing."""
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        """Removes every item."""
        for k in list(self._keys):
            del self[k]

    def pop(self, key: str) -> Any:
        """Removes the value under ``key`` and returns it."""
        v = self[key]
        del self[key]
        return v

    def popitem(self) -> tuple[str, Any]:
        """Removes and returns the last inserted ``(key, value)``."""
        k, _ = self._keys.popitem()
        self._keys[k] = None
        val = self[k]
        del self[k]
        return k, val

    def get(self, key: str, default: Any = None) -> Any:
        """``self[key]`` or ``default``."""
        return self[key] if key in self._keys else default

    def fromkeys(self, keys: Iterable[str], default: Any = None) -> ParameterDict:
        """A new ParameterDict with ``keys``, each set to ``default``."""
        return ParameterDict((k, default) for k in keys)

    def keys(self) -> Iterable[str]:
        """The keys, in insertion order."""
        return self._keys.keys()

    def items(self) -> Iterable[tuple[str, Any]]:
        """``(key, value)`` pairs."""
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterable[Any]:
        """The values."""
        return (self[k] for k in self._keys)

    def update(self, parameters: Any) -> None:
        """Adds values from a mapping or an iterable of ``(key, value)`` pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError(
                "ParametersDict.update should be called with an iterable of key/value pairs, "
                "but got " + type(parameters).__name__
            )
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, value in parameters.items():
                self[key] = value
        elif isinstance(parameters, Mapping):
            for key, value in sorted(parameters.items()):
                self[key] = value
        else:
            for j, p in enumerate(list(parameters)):
                if not isinstance(p, Iterable):
                    raise TypeError(
                        f"ParameterDict update sequence element #{j} should be Iterable; is "
                        + type(p).__name__
                    )
                pair = list(p)
                if len(pair) != 2:
                    raise ValueError(
                        f"ParameterDict update sequence element #{j} has length {len(pair)}; 2 "
                        "is required"
                    )
                self[pair[0]] = pair[1]

    def extra_repr(self) -> str:
        return "\n".join(
            _param_line(k, p, p.type() if isinstance(p, Tensor) else "") for k, p in self.items()
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self
