"""Grad mode: whether ops record gradients (ember.no_grad and friends).

The mode itself is a per-thread flag in the native core, checked by the op dispatch before
anything is recorded. These context managers live in ember-tensor, so inference code that uses
``with ember.no_grad():`` runs unchanged without ember-autograd installed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from ember_core import _C

_F = TypeVar("_F", bound=Callable[..., Any])

_CO_GENERATOR = 0x20  # inspect.CO_GENERATOR
_inference_depth = 0  # nesting of inference_mode(True) blocks (read by is_inference_mode_enabled)


class _GradModeContext:
    """A context manager that also decorates functions (and generator functions)."""

    def _enter(self) -> None:
        raise NotImplementedError

    def _exit(self) -> None:
        raise NotImplementedError

    def clone(self) -> _GradModeContext:
        return type(self)()

    def __enter__(self) -> None:
        self._enter()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._exit()

    def __call__(self, func: _F) -> _F:
        if isinstance(func, type):
            raise TypeError(f"[{type(self).__name__}] decorating a class is not supported")
        # NOTE: not inspect.isgeneratorfunction: importing inspect costs ~10 ms of `import ember`.
        code = getattr(func, "__code__", None)
        if code is not None and code.co_flags & _CO_GENERATOR:
            return self._wrap_generator(func)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self.clone():
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def _wrap_generator(self, func: _F) -> _F:
        # The mode applies while the generator body runs, not while its consumer runs.
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    value = gen.send(None)
                while True:
                    sent = yield value
                    with self.clone():
                        value = gen.send(sent)
            except StopIteration as stop:
                return stop.value

        return wrapper  # type: ignore[return-value]


class no_grad(_GradModeContext):
    """Disables gradient recording in this thread inside the block (or the decorated function).

    Example:
        >>> with ember.no_grad():
        ...     y = x * 2  # y.requires_grad is False
    """

    def __init__(self) -> None:
        self._prev = True

    def _enter(self) -> None:
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(False)

    def _exit(self) -> None:
        _C._set_grad_enabled(self._prev)


class enable_grad(_GradModeContext):
    """Enables gradient recording inside the block, e.g. within a ``no_grad`` region."""

    def __init__(self) -> None:
        self._prev = True

    def _enter(self) -> None:
        self._prev = _C.is_grad_enabled()
        _C._set_grad_enabled(True)

    def _exit(self) -> None:
        _C._set_grad_enabled(self._prev)


class set_grad_enabled(_GradModeContext):
    """Sets grad mode on or off: at once when called, and back when used as a context manager.

    Example:
        >>> with ember.set_grad_enabled(False):
        ...     y = x * 2
    """

    def __init__(self, mode: bool) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"[set_grad_enabled] mode must be a bool, not {type(mode).__name__}")
        self._prev = _C.is_grad_enabled()
        self._mode = mode
        _C._set_grad_enabled(mode)

    def clone(self) -> set_grad_enabled:
        return set_grad_enabled(self._mode)

    def _enter(self) -> None:
        pass

    def _exit(self) -> None:
        _C._set_grad_enabled(self._prev)

    def __call__(self, func: _F) -> _F:
        # As a decorator it must not leave the mode changed at definition time.
        _C._set_grad_enabled(self._prev)
        return super().__call__(func)


class inference_mode(_GradModeContext):
    """Like ``no_grad`` for code that will never need gradients (``mode=False`` does nothing).

    NOTE: ember does not make inference tensors a separate kind: they are ordinary tensors that
    never recorded history, so using them later in autograd is allowed (torch raises there).
    """

    def __init__(self, mode: bool = True) -> None:
        if not isinstance(mode, bool):
            raise TypeError(f"[inference_mode] mode must be a bool, not {type(mode).__name__}")
        self._mode = mode
        self._prev = True

    def clone(self) -> inference_mode:
        return inference_mode(self._mode)

    def _enter(self) -> None:
        global _inference_depth
        self._prev = _C.is_grad_enabled()
        if self._mode:
            _inference_depth += 1
            _C._set_grad_enabled(False)

    def _exit(self) -> None:
        global _inference_depth
        if self._mode:
            _inference_depth -= 1
        _C._set_grad_enabled(self._prev)


def is_inference_mode_enabled() -> bool:
    """Whether an ``inference_mode()`` block is active."""
    return _inference_depth > 0


def is_grad_enabled() -> bool:
    """Whether gradient recording is on in this thread."""
    return bool(_C.is_grad_enabled())
