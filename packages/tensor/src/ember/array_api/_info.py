"""``__array_namespace_info__``: what this namespace supports, per the inspection API."""

from __future__ import annotations

from typing import Any

import ember
from ember._device import device
from ember.array_api._common import check_device, complex_default
from ember.array_api._dtypes import _KINDS, DTYPES

_CPU = device("cpu")


class Info:
    """The namespace's capabilities, devices and dtypes (``__array_namespace_info__()``).

    Example:
        >>> __array_namespace_info__().default_device()
        device(type='cpu')
    """

    __module__ = "ember.array_api"

    def capabilities(self) -> dict[str, Any]:
        """Boolean-mask indexing and data-dependent shapes work; arrays have up to 64 dims."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> device:
        """The CPU: ember arrays live there."""
        return _CPU

    def devices(self) -> list[device]:
        """The devices arrays can be created on: the CPU only."""
        return [_CPU]

    def default_dtypes(self, *, device: Any = None) -> dict[str, Any]:
        """The default dtype of each kind (complex: the default float dtype's precision)."""
        check_device(device, "default_dtypes")
        return {
            "real floating": ember.get_default_dtype(),
            "complex floating": complex_default(),
            "integral": ember.int64,
            "indexing": ember.int64,
        }

    def dtypes(
        self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, Any]:
        """The supported dtypes by name, all of them or those of `kind` (a name or a tuple)."""
        check_device(device, "dtypes")
        if kind is None:
            return dict(DTYPES)
        kinds = (kind,) if isinstance(kind, str) else tuple(kind)
        for k in kinds:
            if k not in _KINDS:
                raise ValueError(f"[dtypes] unknown kind {k!r}; expected one of {sorted(_KINDS)}")
        return {n: d for n, d in DTYPES.items() if any(d in _KINDS[k] for k in kinds)}


def __array_namespace_info__() -> Info:
    """The inspection object of this namespace.

    Example:
        >>> __array_namespace_info__().capabilities()["boolean indexing"]
        True
    """
    return Info()
