"""``ember.backends.cpu``: the CPU kernels' instruction set."""

from __future__ import annotations

from ember_core import _C

__all__ = ["get_cpu_capability"]

# ember's names for its kernel ISAs -> torch's spelling.
_TORCH_NAMES = {"baseline": "DEFAULT", "avx2": "AVX2", "avx512": "AVX512"}


def get_cpu_capability() -> str:
    """The ISA of the kernels in use: ``"DEFAULT"``, ``"AVX2"`` or ``"AVX512"`` (torch's names;
    ``EMBER_CPU_CAPABILITY`` forces one).

    Example:
        >>> ember.backends.cpu.get_cpu_capability() in ("DEFAULT", "AVX2", "AVX512")
        True
    """
    name = str(_C._cpu_capability())
    return _TORCH_NAMES.get(name, name.upper())
