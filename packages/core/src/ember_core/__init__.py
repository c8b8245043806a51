"""ember's native core. Users import ``ember``; this package only holds the compiled module.

The BLAS library (scipy-openblas32) is located here, by path only, and handed to the native
module, which loads it on the first matrix product so ``import ember`` stays fast.
"""

from __future__ import annotations

import importlib.util
import os

from . import _C

__all__ = ["_C", "__version__"]
__version__ = "0.1.0"


def _locate_openblas() -> str | None:
    spec = importlib.util.find_spec("scipy_openblas32")
    if spec is None or not spec.submodule_search_locations:
        return None
    lib_dir = os.path.join(next(iter(spec.submodule_search_locations)), "lib")
    try:
        names = sorted(n for n in os.listdir(lib_dir) if n.startswith("libscipy_openblas"))
    except OSError:
        return None
    return os.path.join(lib_dir, names[0]) if names else None


_blas_path = _locate_openblas()
if _blas_path is not None:
    _C._set_blas_library_path(_blas_path)
