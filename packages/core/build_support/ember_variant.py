"""scikit-build-core metadata provider: ember-core's version and dependencies for one wheel variant.

The variant comes from the environment variable ``EMBER_WHEEL_VARIANT`` (read by CMakeLists.txt
too, which compiles the matching device layer):

- unset or empty: the plain CPU build, version ``X`` (the one that would go to PyPI);
- ``cpu``: the same CPU build labelled ``X+cpu``;
- ``cuNNN`` (e.g. ``cu130``): the CUDA build, ``X+cu130``, depending on NVIDIA's CUDA runtime wheel
  of that major version (the runtime is loaded lazily at run time, never vendored).

The public version ``X`` is the ``version`` setting of this provider's entry in pyproject.toml
(``[[tool.dynamic-metadata]]``); tools/release.py bumps it there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

ENV_VAR = "EMBER_WHEEL_VARIANT"


def variant_label() -> str:
    """The local version label asked for through ``EMBER_WHEEL_VARIANT`` ("" for a plain build)."""
    label = os.environ.get(ENV_VAR, "").strip()
    if label not in ("", "cpu") and not re.fullmatch(r"cu[0-9]{3}", label):
        raise ValueError(f"{ENV_VAR}={label!r}: expected nothing (plain), 'cpu' or 'cuNNN' (cu130)")
    return label


def variant_dependencies(label: str) -> list[str]:
    """Runtime dependencies that only this variant has (the CUDA runtime for ``cuNNN``)."""
    if not label.startswith("cu"):
        return []
    major = int(label[2:]) // 10
    return [f"nvidia-cuda-runtime>={major}.0,<{major + 1}"]


def dynamic_metadata(settings: Mapping[str, Any], project: Mapping[str, Any]) -> dict[str, Any]:
    """The ``version`` and extra ``dependencies`` of the variant being built."""
    version = settings.get("version")
    if not isinstance(version, str) or not re.fullmatch(r"[0-9]+(\.[0-9]+)*", version):
        raise ValueError(f"ember_variant: 'version' must be a public version, got {version!r}")
    label = variant_label()
    return {
        "version": f"{version}+{label}" if label else version,
        "dependencies": variant_dependencies(label),
    }
