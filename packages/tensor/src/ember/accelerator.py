"""``ember.accelerator``: the device-agnostic accelerator API of torch 2.x, on what this build has.

No variant of ember-core creates accelerator tensors yet, so this answers as torch does on a
machine without an accelerator: nothing is available, and calls that need a device raise
RuntimeError.
"""

from __future__ import annotations

from ember._device import device as _device

__all__ = [
    "current_accelerator",
    "current_device_index",
    "device_count",
    "is_available",
    "set_device_index",
    "synchronize",
]

_NONE_AVAILABLE = "Cannot access accelerator device when none is available."


def is_available() -> bool:
    """Whether an accelerator can be used (False: ember has no accelerator tensors yet).

    Example:
        >>> ember.accelerator.is_available()
        False
    """
    return False


def current_accelerator(check_available: bool = False) -> _device | None:
    """The accelerator device type in use, or None when there is none (as torch on a CPU).

    Example:
        >>> ember.accelerator.current_accelerator() is None
        True
    """
    del check_available  # with no accelerator the answer is None either way
    return None


def device_count() -> int:
    """The number of accelerator devices (0).

    Example:
        >>> ember.accelerator.device_count()
        0
    """
    return 0


def current_device_index() -> int:
    """Raises RuntimeError: there is no accelerator device (torch's message)."""
    raise RuntimeError(_NONE_AVAILABLE)


def set_device_index(device: _device | str | int) -> None:
    """Raises RuntimeError: there is no accelerator device (torch's message)."""
    del device
    raise RuntimeError(_NONE_AVAILABLE)


def synchronize(device: _device | str | int | None = None) -> None:
    """Raises RuntimeError: there is no accelerator device (torch's message)."""
    del device
    raise RuntimeError(_NONE_AVAILABLE)
