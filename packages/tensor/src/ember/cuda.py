"""``ember.cuda``: the CUDA device API. This build has no CUDA support, so it reports no devices."""

from __future__ import annotations

from ember_core import _C

__all__ = ["device_count", "is_available"]


def is_available() -> bool:
    """Whether a CUDA device can be used (always False for the ``cpu`` variant).

    Example:
        >>> ember.cuda.is_available()
        False
    """
    return _C.variant == "cuda" and device_count() > 0


def device_count() -> int:
    """The number of usable CUDA devices (0 unless ember-core is a CUDA build with a GPU)."""
    return 0
