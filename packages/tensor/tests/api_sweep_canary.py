"""Targets for test_api_sweep's check that the sweep finds what it must (not a public module)."""

from __future__ import annotations

import os
import signal
from typing import Any


def refuses(x: Any) -> None:
    """A typed refusal: not reported."""
    raise TypeError(f"refuses(): x must be a Tensor, not {type(x).__name__}")


def untyped(x: Any) -> Any:
    """An untyped error on every argument without the attribute: reported."""
    return x.no_such_attribute


if os.environ.get("EMBER_SWEEP_CANARY") == "crash":

    def zz_crashes(x: Any) -> None:
        """Kills the process the way a native crash would."""
        os.kill(os.getpid(), signal.SIGSEGV)
