"""The weights-only unpickler shared by every format ``ember.load`` reads (docs/serialization.md).

pickle's Python unpickler with the opcodes that reach code replaced, as torch's weights-only
unpickler: a global (``GLOBAL``/``STACK_GLOBAL``) must be in the format's implicit allowlist or
the user's (``ember.serialization.add_safe_globals``); ``REDUCE`` calls only allowlisted
callables; ``NEWOBJ``/``NEWOBJ_EX`` and ``copyreg``'s helpers create only allowlisted classes;
``BUILD`` sets state only on instances of allowlisted classes (``__setstate__`` when the class
defines one, else ``__dict__`` and slots); appends and item sets go only to lists, dicts and
sets. ``INST``, ``OBJ``, ``EXT*``, text ``PERSID`` and out-of-band buffers are refused.
"""

from __future__ import annotations

import _compat_pickle
import collections
import pickle
from collections.abc import Callable
from typing import Any, ClassVar

from ember import _safe_globals

__all__ = [
    "RestrictedUnpickler",
    "UnpicklingError",
    "builtin_builder",
    "codecs_encode",
    "fail",
    "refused_global",
]

# Never allowed, even when the user allowlists something from them (as torch).
_BLOCKED_MODULES = frozenset({"sys", "os", "posix", "nt"})


class UnpicklingError(pickle.UnpicklingError, ValueError):
    """A file's pickle asks for something outside the allowlist, or is malformed.

    Both a ``pickle.UnpicklingError`` (what torch raises for weights-only failures) and a
    ``ValueError`` (what every other ember load failure is).
    """


def fail(message: str) -> UnpicklingError:
    return UnpicklingError(f"[load] {message}")


def _fixes(name: str) -> str:
    return (
        "This file can still be loaded, two ways, only if you trust its source: "
        "(1) ember.load(f, weights_only=False), which can run arbitrary code the file names; "
        f"(2) keep weights_only=True and allowlist the class or function with "
        f"ember.serialization.add_safe_globals([{name}]) or the "
        f"ember.serialization.safe_globals([{name}]) context manager"
    )


def refused_global(name: str) -> UnpicklingError:
    """The error for a global outside both allowlists, naming it and the two fixes."""
    return fail(
        f"Weights only load failed: Unsupported global: GLOBAL {name} was not an allowed "
        f"global by default. {_fixes(name)}"
    )


def codecs_encode(text: Any, encoding: Any = "utf-8") -> bytes:
    """``_codecs.encode``, as protocol-2 pickles spell bytes: only str to latin1."""
    if not isinstance(text, str) or encoding != "latin1":
        raise fail("_codecs.encode is allowed only for latin1 text (bytes in a protocol-2 pickle)")
    return text.encode("latin1")


# The argument types that builtins filled from an argument may take: data the pickle already
# holds, never a count or a lazy range (bytearray(10**12), set(range(10**12)) would allocate).
_MATERIALIZED = (list, tuple, set, frozenset, str, bytes, bytearray)


def builtin_builder(cls: type) -> Callable[..., Any]:
    """``set``/``frozenset``/``bytearray``/``complex``/``slice``/``range`` as a weights-only
    global: arguments checked, so that none of them can be made to allocate unboundedly."""

    def build(*args: Any) -> Any:
        if cls in (set, frozenset, bytearray) and args and not isinstance(args[0], _MATERIALIZED):
            raise fail(
                f"invalid {cls.__name__}: built only from data, got {type(args[0]).__name__}"
            )
        if cls is bytearray and args and isinstance(args[0], (list, tuple, set, frozenset)):
            raise fail("invalid bytearray: built only from bytes or text")
        try:
            return cls(*args)
        except (TypeError, ValueError, OverflowError) as error:
            raise fail(f"invalid {cls.__name__}: {error}") from None

    build.__qualname__ = build.__name__ = f"checked_{cls.__name__}"
    return build


def _qualname(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', type(obj).__name__)}"


def _newobj(cls: Any, *args: Any) -> Any:
    """``copyreg.__newobj__``: the class is checked before this runs (see load_reduce)."""
    return cls.__new__(cls, *args)


def _newobj_ex(cls: Any, args: Any, kwargs: Any) -> Any:
    return cls.__new__(cls, *args, **kwargs)


def _reconstructor(cls: Any, base: Any, state: Any) -> Any:
    """``copyreg._reconstructor`` (protocols 0 and 1): only over ``object``."""
    if base is not object or state is not None:
        raise fail(
            f"weights-only load refused copyreg._reconstructor of {_qualname(cls)} over "
            f"{_qualname(base)}: only plain object subclasses are reconstructed"
        )
    return object.__new__(cls)


# copyreg's helpers: allowed globals whose first argument must be an allowlisted class.
_CREATORS: dict[str, Callable[..., Any]] = {
    "copyreg.__newobj__": _newobj,
    "copyreg.__newobj_ex__": _newobj_ex,
    "copyreg._reconstructor": _reconstructor,
}
_CREATOR_IDS = frozenset(id(f) for f in _CREATORS.values())


class RestrictedUnpickler(pickle._Unpickler):
    """A weights-only unpickler over ``implicit`` (name -> object) plus the user allowlist.

    Subclasses give ``implicit`` and may replace ``persistent_load``.
    """

    dispatch: ClassVar[dict[int, Callable[[Any], None]]] = dict(pickle._Unpickler.dispatch)
    # pickle._Unpickler's working state (set by load(); not in typeshed's stub)
    stack: list[Any]
    append: Callable[[Any], None]
    pop_mark: Callable[[], list[Any]]
    proto: int

    def __init__(self, file: Any, implicit: dict[str, Any]) -> None:
        super().__init__(file)
        self.implicit = implicit
        self.user = _safe_globals.user_allowed()
        values = [*implicit.values(), *self.user.values()]
        self._callable_ids = {id(v) for v in values if callable(v)}
        self._class_ids = {id(v) for v in values if isinstance(v, type)}

    # ---- globals.

    def find_class(self, module: str, name: str) -> Any:
        if self.proto < 3:  # protocol 2 spells Python 2 names (__builtin__, copy_reg)
            if (module, name) in _compat_pickle.NAME_MAPPING:
                module, name = _compat_pickle.NAME_MAPPING[(module, name)]
            elif module in _compat_pickle.IMPORT_MAPPING:
                module = _compat_pickle.IMPORT_MAPPING[module]
        key = f"{module}.{name}"
        if module.split(".")[0] in _BLOCKED_MODULES:
            raise fail(
                f"Weights only load failed: GLOBAL {key} is from module {module}, which is "
                "never allowed (not even with add_safe_globals); only weights_only=False, "
                "for a file you trust, loads it"
            )
        if key in self.implicit:
            return self.implicit[key]
        if key in self.user:
            return self.user[key]
        if key in _CREATORS:
            return _CREATORS[key]
        if key == "builtins.object":  # _reconstructor's base: creates nothing by itself
            return object
        found = self.alias(module, name)
        if found is not None:
            return found
        raise refused_global(key)

    def alias(self, module: str, name: str) -> Any:
        """Another spelling of an allowlisted object (subclasses: torch's names), or None."""
        return None

    def _allowed_class(self, cls: Any) -> bool:
        return isinstance(cls, type) and id(cls) in self._class_ids

    # ---- the opcodes that create objects or set state.

    def load_reduce(self) -> None:
        args = self.stack.pop()
        func = self.stack[-1]
        if id(func) not in self._callable_ids and id(func) not in _CREATOR_IDS:
            raise fail(
                f"Weights only load failed: REDUCE of {_qualname(func)}, which is not "
                f"allowlisted. {_fixes(_qualname(func))}"
            )
        if not isinstance(args, tuple):
            raise fail(f"REDUCE arguments must be a tuple, got {type(args).__name__}")
        if id(func) in _CREATOR_IDS:
            cls = args[0] if args else None
            if not self._allowed_class(cls):
                raise self._refused_class(cls, "create")
        self.stack[-1] = func(*args)

    dispatch[pickle.REDUCE[0]] = load_reduce

    def load_newobj(self) -> None:
        args = self.stack.pop()
        cls = self.stack.pop()
        if not self._allowed_class(cls):
            raise self._refused_class(cls, "create")
        if not isinstance(args, tuple):
            raise fail(f"NEWOBJ arguments must be a tuple, got {type(args).__name__}")
        self.append(cls.__new__(cls, *args))

    dispatch[pickle.NEWOBJ[0]] = load_newobj

    def load_newobj_ex(self) -> None:
        kwargs = self.stack.pop()
        args = self.stack.pop()
        cls = self.stack.pop()
        if not self._allowed_class(cls):
            raise self._refused_class(cls, "create")
        if not isinstance(args, tuple) or not isinstance(kwargs, dict):
            raise fail("NEWOBJ_EX needs a tuple and a dict of arguments")
        self.append(cls.__new__(cls, *args, **kwargs))

    dispatch[pickle.NEWOBJ_EX[0]] = load_newobj_ex

    def load_build(self) -> None:
        state = self.stack.pop()
        inst = self.stack[-1]
        cls = type(inst)
        if cls is not collections.OrderedDict and not self._allowed_class(cls):
            raise self._refused_class(cls, "set the state of")
        if cls is collections.OrderedDict and not (
            isinstance(state, dict)
            and all(isinstance(k, str) and not k.startswith("__") for k in state)
        ):
            # As torch, an OrderedDict's attributes (state_dict()._metadata); no dunders.
            raise fail(f"cannot set the state {state!r:.60} of an OrderedDict")
        setstate = getattr(inst, "__setstate__", None)
        if setstate is not None and cls is not collections.OrderedDict:
            setstate(state)
            return
        slotstate = None
        if isinstance(state, tuple) and len(state) == 2:
            state, slotstate = state
        if state:
            if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
                raise fail(f"the state of a {_qualname(cls)} must be a dict of str keys")
            inst.__dict__.update(state)
        if slotstate:
            if not isinstance(slotstate, dict) or not all(isinstance(k, str) for k in slotstate):
                raise fail(f"the slot state of a {_qualname(cls)} must be a dict of str keys")
            for key, value in slotstate.items():
                setattr(inst, key, value)

    dispatch[pickle.BUILD[0]] = load_build

    def _refused_class(self, cls: Any, action: str) -> UnpicklingError:
        name = _qualname(cls)
        return fail(
            f"Weights only load failed: cannot {action} an object of {name}, which is not "
            f"allowlisted. {_fixes(name)}"
        )

    # ---- containers: lists, dicts and sets, or allowlisted subclasses of them (whose methods
    # the caller trusts).

    def _target(self, kinds: tuple[type, ...], opcode: str) -> Any:
        target = self.stack[-1]
        if not isinstance(target, kinds) or not (
            type(target) in kinds or self._allowed_class(type(target))
        ):
            raise fail(f"{opcode} onto a {type(target).__name__} is not allowed")
        return target

    def load_append(self) -> None:
        value = self.stack.pop()
        self._target((list,), "APPEND").append(value)

    dispatch[pickle.APPEND[0]] = load_append

    def load_appends(self) -> None:
        items = self.pop_mark()
        self._target((list,), "APPENDS").extend(items)

    dispatch[pickle.APPENDS[0]] = load_appends

    def load_setitem(self) -> None:
        value = self.stack.pop()
        key = self.stack.pop()
        self._target((dict,), "SETITEM")[key] = value

    dispatch[pickle.SETITEM[0]] = load_setitem

    def load_setitems(self) -> None:
        items = self.pop_mark()
        target = self._target((dict,), "SETITEMS")
        if len(items) % 2:
            raise fail("SETITEMS needs key/value pairs")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    dispatch[pickle.SETITEMS[0]] = load_setitems

    def load_additems(self) -> None:
        items = self.pop_mark()
        self._target((set,), "ADDITEMS").update(items)

    dispatch[pickle.ADDITEMS[0]] = load_additems


def _refuse_opcode(name: str) -> Callable[[Any], None]:
    def refuse(self: Any) -> None:
        raise fail(f"Weights only load failed: pickle opcode {name} is not allowed")

    return refuse


for _name in ("INST", "OBJ", "EXT1", "EXT2", "EXT4", "PERSID", "NEXT_BUFFER", "READONLY_BUFFER"):
    RestrictedUnpickler.dispatch[getattr(pickle, _name)[0]] = _refuse_opcode(_name)
