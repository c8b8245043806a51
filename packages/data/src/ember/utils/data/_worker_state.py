"""The per-process worker state (set in DataLoader workers; None in the main process)."""

from __future__ import annotations

from typing import Any

info: Any = None
