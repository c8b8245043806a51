"""ember's native core. Users import ``ember``; this package only holds the compiled module.

The BLAS library (scipy-openblas32) and, for CUDA variants, NVIDIA's CUDA runtime are located
here, by path only, and handed to the native module, which loads each on first use so
``import ember`` stays fast and works on machines without them.
"""

from __future__ import annotations

import importlib.util
import os

from . import _C

__all__ = ["_C", "__version__"]
# Compiled in by the build, local label included ("0.1.0+cu130"), so it names the variant too.
__version__: str = _C._version


def _package_dirs(name: str) -> list[str]:
    """The folders of an installed (possibly namespace) package, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return []
    return list(spec.submodule_search_locations)


def _locate_openblas() -> str | None:
    for root in _package_dirs("scipy_openblas32"):
        lib_dir = os.path.join(root, "lib")
        try:
            names = sorted(n for n in os.listdir(lib_dir) if n.startswith("libscipy_openblas"))
        except OSError:
            continue
        if names:
            return os.path.join(lib_dir, names[0])
    return None


def _locate_cuda_runtime(major: str) -> str | None:
    """libcudart from NVIDIA's wheel (nvidia-cuda-runtime: nvidia/cu13/lib/libcudart.so.13)."""
    for root in _package_dirs("nvidia"):
        path = os.path.join(root, f"cu{major}", "lib", f"libcudart.so.{major}")
        if os.path.exists(path):
            return path
    return None


_blas_path = _locate_openblas()
if _blas_path is not None:
    _C._set_blas_library_path(_blas_path)
if _C._cuda_toolkit_version():
    # Without the wheel the runtime is still looked for on the loader's path (a system CUDA).
    _cudart_path = _locate_cuda_runtime(_C._cuda_toolkit_version().split(".")[0])
    if _cudart_path is not None:
        _C._cuda_set_runtime_library_path(_cudart_path)
