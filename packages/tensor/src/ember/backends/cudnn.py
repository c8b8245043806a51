"""``ember.backends.cudnn``: cuDNN's flags (settable, no effect: this build has no cuDNN)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = [
    "allow_tf32",
    "benchmark",
    "deterministic",
    "enabled",
    "flags",
    "is_available",
    "version",
]

enabled: bool = True
benchmark: bool = False
deterministic: bool = False
allow_tf32: bool = True
benchmark_limit: int = 10


def is_available() -> bool:
    """Whether cuDNN can be used: never in this build.

    Example:
        >>> ember.backends.cudnn.is_available()
        False
    """
    return False


def version() -> int | None:
    """cuDNN's version: ``None`` without cuDNN."""
    return None


@contextlib.contextmanager
def flags(
    enabled: bool = False,
    benchmark: bool = False,
    benchmark_limit: int = 10,
    deterministic: bool = False,
    allow_tf32: bool = True,
) -> Iterator[None]:
    """Sets the flags inside a ``with`` block and restores them after, as torch's ``flags``."""
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    values = (enabled, benchmark, benchmark_limit, deterministic, allow_tf32)
    saved = {name: globals()[name] for name in names}
    globals().update(zip(names, values, strict=True))
    try:
        yield
    finally:
        globals().update(saved)
