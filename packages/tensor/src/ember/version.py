"""``ember.version``: the installed version and the ember-core build variant."""

from __future__ import annotations

from ember_core import _C

__all__ = ["__version__", "cuda", "variant"]

__version__ = "0.1.0"
# "cpu", "cuda" or "rocm": which ember-core build is installed.
variant: str = _C.variant
# The CUDA version ember-core was built against (None for CPU builds), as in torch.version.cuda.
cuda: str | None = None
