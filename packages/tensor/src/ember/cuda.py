"""``ember.cuda``: which CUDA devices exist.

CUDA variants of ember-core (``X+cu130``) query NVIDIA's CUDA runtime, loaded on the first call,
so they import and answer ``False``/``0`` on machines without a GPU or driver. CPU builds always
report no device. No variant creates CUDA tensors yet: ``device="cuda"`` raises.
"""

from __future__ import annotations

from ember._device import device as _device
from ember_core import _C

__all__ = [
    "current_device", "device_count", "empty_cache", "get_device_name", "is_available",
    "is_initialized", "manual_seed", "manual_seed_all", "memory_allocated", "seed", "synchronize",
]  # fmt: skip


def is_available() -> bool:
    """Whether a CUDA device can be used (always False for the ``cpu`` variant).

    Example:
        >>> ember.cuda.is_available()
        False
    """
    return device_count() > 0


def device_count() -> int:
    """The number of usable CUDA devices: 0 on CPU builds and on machines without a GPU.

    Example:
        >>> ember.cuda.device_count()
        0
    """
    return int(_C._cuda_device_count())


def get_device_name(device: _device | str | int | None = None) -> str:
    """The name of a CUDA device (``None`` means device 0), as in ``torch.cuda.get_device_name``.

    Args:
        device: an index, ``"cuda:N"`` or an ``ember.device`` of type cuda.

    Raises:
        RuntimeError: no CUDA device is available (CPU build, no driver or no GPU).
        IndexError: the index is not below ``device_count()``.
        ValueError: the device is not a CUDA device.

    Example:
        >>> ember.cuda.get_device_name(0)  # doctest: +SKIP
        'NVIDIA H200'
    """
    return str(_C._cuda_device_name(_device_index(device)))


def _device_index(device: _device | str | int | None) -> int:
    if device is None:
        return 0
    if isinstance(device, bool) or not isinstance(device, (_device, str, int)):
        raise TypeError(
            f"[get_device_name] expected a device (ember.device, str or int), got {device!r}"
        )
    if isinstance(device, int):
        return device
    parsed = _device(device)
    if parsed.type != "cuda":
        raise ValueError(f"[get_device_name] expected a CUDA device, got {str(parsed)!r}")
    return 0 if parsed.index is None else parsed.index


# As torch on an install without CUDA tensors: seeding and cache calls are quiet no-ops (torch
# queues them until CUDA initializes, which never happens), calls that need a device raise
# torch's AssertionError.


def _check_seed(seed: object, op: str) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"[{op}] seed must be an int, got {type(seed).__name__}")


def manual_seed(seed: int) -> None:
    """Seeds the current CUDA device's generator: nothing to seed without CUDA tensors.

    Example:
        >>> ember.cuda.manual_seed(0)
    """
    _check_seed(seed, "manual_seed")


def manual_seed_all(seed: int) -> None:
    """Seeds every CUDA device's generator: nothing to seed without CUDA tensors.

    Example:
        >>> ember.cuda.manual_seed_all(0)
    """
    _check_seed(seed, "manual_seed_all")


def seed() -> None:
    """Seeds the CUDA generator randomly: nothing to seed without CUDA tensors."""


def empty_cache() -> None:
    """Releases cached CUDA memory: there is none without CUDA tensors."""


def memory_allocated(device: _device | str | int | None = None) -> int:
    """Bytes of CUDA memory held by tensors: 0 without CUDA tensors."""
    return 0


def is_initialized() -> bool:
    """Whether CUDA state was initialized: never, without CUDA tensors."""
    return False


def synchronize(device: _device | str | int | None = None) -> None:
    """Waits for CUDA work: raises, as torch does without CUDA (an AssertionError)."""
    raise _not_compiled("synchronize")


def current_device() -> int:
    """The current CUDA device's index: raises, as torch does without CUDA (AssertionError)."""
    raise _not_compiled("current_device")


def _not_compiled(op: str) -> Exception:
    from ember._tensor_compat import not_compiled_with_cuda

    return not_compiled_with_cuda(op)
