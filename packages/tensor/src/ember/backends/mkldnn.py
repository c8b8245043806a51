"""``ember.backends.mkldnn``: oneDNN's flags. ember's own CPU kernels play its part."""

from __future__ import annotations

__all__ = ["enabled", "is_available"]

enabled: bool = True


def is_available() -> bool:
    """Whether oneDNN is available: ember does not use it (its own kernels run instead).

    Example:
        >>> ember.backends.mkldnn.is_available()
        False
    """
    return False
