"""``ember.version``: the installed version and the ember-core build variant."""

from __future__ import annotations

from ember_core import _C

__all__ = ["__version__", "core", "cuda", "variant"]

__version__ = "0.1.0"
# ember-core's version, with its local label when it has one ("0.1.0+cu130").
core: str = _C._version
# "cpu" or "cuda": which ember-core build is installed.
variant: str = _C.variant
# The CUDA version ember-core was built against (None for CPU builds), as in torch.version.cuda.
cuda: str | None = _C._cuda_toolkit_version() or None
