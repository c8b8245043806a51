"""The user's weights-only allowlist: ``ember.serialization.add_safe_globals`` and friends.

torch 2.6+'s API: the classes and functions a caller trusts are kept in one process-wide set,
which every weights-only load (ember files' pickle sections, torch zip and legacy checkpoints)
consults after its implicit allowlist. An entry is a class/function, named in a pickle by its
``__module__`` and ``__qualname__``, or an ``(object, "qualified.name")`` pair for an object
pickled under another name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import TracebackType
from typing import Any

__all__ = [
    "add_safe_globals",
    "clear_safe_globals",
    "get_safe_globals",
    "get_unsafe_globals_in_checkpoint",
    "safe_globals",
    "skip_data",
]

SafeGlobal = Callable[..., Any] | tuple[Callable[..., Any], str]

_marked: set[Any] = set()


def _checked(entries: Any, op: str) -> set[Any]:
    if isinstance(entries, (str, bytes)) or not isinstance(entries, Iterable):
        raise TypeError(
            f"[{op}] expects a list of classes/functions or (object, 'module.name') tuples, "
            f"got {type(entries).__name__}"
        )
    made = set()
    for entry in entries:
        if isinstance(entry, tuple):
            if len(entry) != 2:
                raise ValueError(
                    f"[{op}] Expected tuple of length 2 (global, str of callable full path), "
                    f"but got tuple of length: {len(entry)}"
                )
            if type(entry[1]) is not str:
                raise TypeError(
                    f"[{op}] Expected second item in tuple to be str of callable full path, "
                    f"but got: {type(entry[1])}"
                )
        elif not isinstance(getattr(entry, "__module__", None), str) or not isinstance(
            getattr(entry, "__qualname__", None), str
        ):
            raise TypeError(
                f"[{op}] {entry!r:.80} has no __module__/__qualname__ to be named by in a "
                "pickle: pass it as an (object, 'module.name') tuple"
            )
        try:
            made.add(entry)
        except TypeError:
            raise TypeError(f"[{op}] entries must be hashable, got {entry!r:.80}") from None
    return made


def add_safe_globals(safe_globals: list[SafeGlobal]) -> None:
    """Marks classes and functions as safe for weights-only loads (process-wide).

    An allowlisted class may then be named, instantiated (``__new__``, ``copyreg`` helpers) and
    given its state (``__setstate__`` or ``__dict__``) by a file loaded with the default
    ``weights_only=True``; an allowlisted function may be called with the file's arguments.

    Args:
        safe_globals: classes/functions, or ``(object, "module.qualname")`` tuples for objects
            that a pickle names differently from their ``__module__.__qualname__``.

    Raises:
        TypeError: not a list, or an entry that can be named neither way.
        ValueError: a tuple that is not a pair.

    Example:
        >>> class Point:
        ...     pass
        >>> ember.serialization.add_safe_globals([Point])
        >>> Point in ember.serialization.get_safe_globals()
        True
        >>> ember.serialization.clear_safe_globals()
    """
    global _marked
    _marked = _marked | _checked(safe_globals, "add_safe_globals")


def get_safe_globals() -> list[SafeGlobal]:
    """The user allowlist (``add_safe_globals``, ``safe_globals``), as a list.

    Example:
        >>> ember.serialization.get_safe_globals()
        []
    """
    return list(_marked)


def clear_safe_globals() -> None:
    """Empties the user allowlist.

    Example:
        >>> ember.serialization.clear_safe_globals()
    """
    global _marked
    _marked = set()


def get_unsafe_globals_in_checkpoint(f: Any) -> list[str]:
    """The classes and functions a file's pickles name that a weights-only ``ember.load`` would
    refuse: neither implicitly allowed nor given to ``add_safe_globals``/``safe_globals``.

    Reads torch zip and legacy checkpoints and ember files (their pickle section), statically:
    objects a pickle creates on the fly are not listed.

    Args:
        f: a path, or a seekable binary file object.

    Returns:
        ``"module.qualname"`` strings, sorted.

    Raises:
        ValueError: the file is not a valid checkpoint.
        TypeError: ``f`` is neither a path nor a seekable binary file.

    Example:
        >>> ember.save({"w": ember.ones(2)}, "w.pt")
        >>> ember.serialization.get_unsafe_globals_in_checkpoint("w.pt")
        []
    """
    # Imported here: the pickle machinery stays out of `import ember`.
    from ember._checkpoint_globals import unsafe_globals

    return unsafe_globals(f)


class safe_globals:  # torch's name
    """Context manager: the given classes/functions are allowlisted inside the ``with`` block.

    As in torch, leaving the block removes exactly these entries (also when the block raises),
    so nested blocks give back the enclosing block's list.

    Args:
        safe_globals: as for :func:`add_safe_globals`.

    Example:
        >>> class Point:
        ...     pass
        >>> with ember.serialization.safe_globals([Point]):
        ...     Point in ember.serialization.get_safe_globals()
        True
        >>> Point in ember.serialization.get_safe_globals()
        False
    """

    def __init__(self, safe_globals: list[SafeGlobal]) -> None:
        self._entries = _checked(safe_globals, "safe_globals")

    def __enter__(self) -> None:
        global _marked
        _marked = _marked | self._entries

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        global _marked
        _marked = _marked - self._entries


class skip_data:  # torch's name
    """torch's ``skip_data`` (save/load without storage bytes): not supported by ember.

    Raises:
        NotImplementedError: on entering the block.

    Example:
        >>> ember.serialization.skip_data()  # doctest: +SKIP
    """

    def __init__(self, materialize_fake_tensors: bool = False) -> None:
        self.materialize_fake_tensors = materialize_fake_tensors

    def __enter__(self) -> None:
        raise NotImplementedError(
            "[serialization.skip_data] saving or loading without storage bytes is not "
            "supported by ember (it serves torch's fake tensors, which ember does not have)"
        )

    def __exit__(self, *args: object) -> None:
        return None


def user_allowed() -> dict[str, Any]:
    """The user allowlist by the name a pickle spells: ``"module.qualname"`` -> object."""
    named: dict[str, Any] = {}
    for entry in _marked:
        if isinstance(entry, tuple):
            named[entry[1]] = entry[0]
        else:
            named[f"{entry.__module__}.{entry.__qualname__}"] = entry
    return named
