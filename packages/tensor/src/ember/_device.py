"""``ember.device``: where a tensor's memory lives (only ``cpu`` has kernels today)."""

from __future__ import annotations

import builtins
import re

__all__ = ["device"]

# Device types a device string may name; tensors can only live on "cpu" in this build.
_DEVICE_TYPES = ("cpu", "cuda", "meta")
_DEVICE_RE = re.compile(r"^([a-z]+)(?::([0-9]+))?$")


class device:
    """A device: a type (``"cpu"``, ``"cuda"``) and an optional index, like ``torch.device``.

    Example:
        >>> ember.device("cuda:0")
        device(type='cuda', index=0)
    """

    __slots__ = ("_index", "_type")

    def __init__(self, type: str | device, index: int | None = None) -> None:
        if isinstance(type, device):
            if index is not None:
                raise TypeError("[device] index cannot be given with a device object")
            self._type: str = type.type
            self._index: int | None = type.index
            return
        if not isinstance(type, str):
            raise TypeError(
                f"[device] expected a device string such as 'cpu' or 'cuda:0', "
                f"got {type!r} of type {type.__class__.__name__}"
            )
        match = _DEVICE_RE.match(type)
        if match is None:
            if type.split(":")[0] in _DEVICE_TYPES:
                raise RuntimeError(f"[device] Invalid device string: {type!r}")
            raise RuntimeError(
                f"[device] Expected one of {', '.join(_DEVICE_TYPES)} device type at start of "
                f"device string: {type}"
            )
        kind, parsed = match.group(1), match.group(2)
        if kind not in _DEVICE_TYPES:
            raise RuntimeError(
                f"[device] Expected one of {', '.join(_DEVICE_TYPES)} device type at start of "
                f"device string: {type}"
            )
        if parsed is not None and index is not None:
            raise RuntimeError(
                f"[device] type (string) must not include an index because index was passed "
                f"explicitly: {type}"
            )
        if index is not None:
            if isinstance(index, bool) or not isinstance(index, int):
                raise TypeError(f"[device] index must be an int, got {index!r}")
            if index < 0:
                raise RuntimeError(f"[device] Device index must not be negative, got {index}")
        self._type = kind
        self._index = int(parsed) if parsed is not None else index

    @property
    def type(self) -> str:
        """The device type, e.g. ``"cpu"``."""
        return self._type

    @property
    def index(self) -> int | None:
        """The device index, or None when unspecified."""
        return self._index

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, device):
            return False
        return self._type == other._type and self._index == other._index

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type={self._type!r})"
        return f"device(type={self._type!r}, index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __reduce__(self) -> tuple[builtins.type[device], tuple[str, int | None]]:
        return (device, (self._type, self._index))


DeviceLike = device | str | int


def _as_device(value: DeviceLike, op: str) -> device:
    """Parses a device argument; a bare int means ``cuda:<int>`` as in torch."""
    if isinstance(value, device):
        return value
    if isinstance(value, str):
        return device(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return device("cuda", value)
    raise TypeError(f"[{op}] expected a device (ember.device, str or int), got {value!r}")


def _check_cpu(value: device, op: str) -> None:
    """Tensors live on the CPU only: any other device fails with a clear message."""
    if value.type == "cuda":
        raise RuntimeError(
            f"[{op}] device {str(value)!r}: CUDA tensors are not yet supported in this release "
            "of ember (no variant has them yet; ember.cuda only reports devices)"
        )
    if value.type != "cpu":
        raise RuntimeError(
            f"[{op}] device {str(value)!r} is not available: ember tensors live on the CPU only "
            "in this release"
        )
