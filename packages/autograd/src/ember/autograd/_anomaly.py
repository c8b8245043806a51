"""Anomaly detection: remember where each node was recorded and fail on NaN gradients."""

from __future__ import annotations

from types import TracebackType

enabled = False
check_nan = True


class detect_anomaly:
    """Context manager: backward errors and NaN gradients name the forward op that caused them.

    Example:
        >>> with ember.autograd.detect_anomaly():
        ...     loss.backward()
    """

    def __init__(self, check_nan: bool = True) -> None:
        self._check_nan = check_nan
        self._prev = (False, True)

    def __enter__(self) -> None:
        global enabled, check_nan
        self._prev = (enabled, check_nan)
        enabled, check_nan = True, self._check_nan

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        global enabled, check_nan
        enabled, check_nan = self._prev


class set_detect_anomaly:
    """Turns anomaly detection on or off (at once, and restores it when used with ``with``)."""

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        global enabled
        self._prev = (enabled, globals()["check_nan"])
        globals()["enabled"] = mode
        globals()["check_nan"] = check_nan

    def __enter__(self) -> None:
        pass

    def __exit__(self, *args: object) -> None:
        globals()["enabled"], globals()["check_nan"] = self._prev


def is_anomaly_enabled() -> bool:
    return enabled


def is_anomaly_check_nan_enabled() -> bool:
    return check_nan
