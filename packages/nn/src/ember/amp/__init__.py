"""Mixed precision (torch.amp): autocast regions and dynamic loss scaling."""

from .autocast_mode import (
    autocast,
    autocast_coverage,
    custom_bwd,
    custom_fwd,
    get_autocast_dtype,
    is_autocast_available,
    is_autocast_enabled,
)
from .grad_scaler import GradScaler

__all__ = [
    "GradScaler",
    "autocast",
    "autocast_coverage",
    "custom_bwd",
    "custom_fwd",
    "get_autocast_dtype",
    "is_autocast_available",
    "is_autocast_enabled",
]
