"""``python -m ember.info``: what is installed: components, variant, CPU features, threads, GPUs.

Run it to see which ember-core variant an environment has (``0.1.0+cu130`` or ``0.1.0+cpu``)
and which ember distributions sit next to it; ``--json`` prints the same as JSON.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import re
import sys
from collections.abc import Sequence
from typing import Any

from ember_core import _C

__all__ = ["info", "main"]


def _components() -> dict[str, str]:
    """Every installed distribution named ``ember`` or ``ember-*``, with its version."""
    found: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        name = re.sub(r"[-_.]+", "-", dist.metadata["Name"] or "").lower()
        if name == "ember" or name.startswith("ember-"):
            found[name] = dist.version
    return dict(sorted(found.items()))


def _cuda() -> dict[str, Any]:
    if _C.variant != "cuda":
        return {"built_with": None, "devices": [], "unavailable": _C._cuda_unavailable_reason()}
    count = int(_C._cuda_device_count())
    return {
        "built_with": _C._cuda_toolkit_version(),
        "runtime": _C._cuda_runtime_version() or None,
        "devices": [str(_C._cuda_device_name(i)) for i in range(count)],
        "unavailable": _C._cuda_unavailable_reason() or None,
    }


def info() -> dict[str, Any]:
    """Everything ``python -m ember.info`` prints, as a dict.

    Example:
        >>> from ember.info import info
        >>> info()["variant"]
        'cpu'
    """
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return {
        "components": _components(),
        "ember_core": _C._version,
        "variant": _C.variant,
        "cpu_capability": _C._cpu_capability(),
        "cpu_capability_forced": os.environ.get("EMBER_CPU_CAPABILITY") or None,
        "threads": _C.get_num_threads(),
        "cpus_usable": len(affinity) if affinity is not None else os.cpu_count(),
        "blas": "scipy-openblas32" if _C._blas_available() else None,
        "cuda": _cuda(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _format(data: dict[str, Any]) -> str:
    cuda = data["cuda"]
    lines = ["ember components:"]
    lines += [f"  {name:<24} {version}" for name, version in data["components"].items()]
    capability = data["cpu_capability"]
    if data["cpu_capability_forced"]:
        capability += f" (forced by EMBER_CPU_CAPABILITY={data['cpu_capability_forced']})"
    lines += [
        f"variant:        {data['variant']} (ember-core {data['ember_core']})",
        f"CPU kernels:    {capability}",
        f"threads:        {data['threads']} (usable CPUs: {data['cpus_usable']})",
        f"BLAS:           {data['blas'] or 'not found (matmul unavailable)'}",
    ]
    if cuda["built_with"] is None:
        lines.append(f"CUDA:           none ({cuda['unavailable']})")
    else:
        runtime = cuda["runtime"] or "not loaded"
        lines.append(f"CUDA:           built with {cuda['built_with']}, runtime {runtime}")
        for index, name in enumerate(cuda["devices"]):
            lines.append(f"  cuda:{index}  {name}")
        if cuda["unavailable"]:
            lines.append(f"  no usable device: {cuda['unavailable']}")
    lines.append(f"Python:         {data['python']} on {data['platform']}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Prints :func:`info` as text (or ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m ember.info", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    data = info()
    print(json.dumps(data, indent=2) if args.json else _format(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
