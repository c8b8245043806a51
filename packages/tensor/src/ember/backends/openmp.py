"""``ember.backends.openmp``: ember's thread pool is its own, not OpenMP."""

from __future__ import annotations

__all__ = ["is_available"]


def is_available() -> bool:
    """Whether ember uses OpenMP: no (its fork-join pool runs the parallel loops).

    Example:
        >>> ember.backends.openmp.is_available()
        False
    """
    return False
