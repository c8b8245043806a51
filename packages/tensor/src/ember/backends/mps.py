"""``ember.backends.mps``: Apple's Metal backend, which this build does not have."""

from __future__ import annotations

__all__ = ["is_available", "is_built"]


def is_available() -> bool:
    """Whether MPS can be used: never in this build.

    Example:
        >>> ember.backends.mps.is_available()
        False
    """
    return False


def is_built() -> bool:
    """Whether ember was built with MPS: no."""
    return False
