"""Legacy hook-based ``spectral_norm`` (torch.nn.utils.spectral_norm): not built."""

from __future__ import annotations

from typing import Any

__all__ = ["remove_spectral_norm", "spectral_norm"]


def spectral_norm(module: Any, *args: Any, **kwargs: Any) -> Any:
    """Not available: use ``ember.nn.utils.parametrizations.spectral_norm``.

    Example:
        >>> ember.nn.utils.spectral_norm(ember.nn.Linear(2, 2))  # doctest: +SKIP
    """
    raise NotImplementedError(
        "[nn.utils.spectral_norm] the legacy hook-based spectral_norm (keys weight_orig, "
        "weight_u, weight_v) is not built in ember-nn 0.1; use "
        "ember.nn.utils.parametrizations.spectral_norm (torch's recommended form)"
    )


def remove_spectral_norm(module: Any, name: str = "weight") -> Any:
    """Not available (see ``spectral_norm``)."""
    raise NotImplementedError(
        "[nn.utils.remove_spectral_norm] the legacy hook-based spectral_norm is not built; use "
        "ember.nn.utils.parametrize.remove_parametrizations"
    )
