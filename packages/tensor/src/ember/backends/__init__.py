"""``ember.backends``: torch's backend flags, as a CPU build of ember reports them.

The cuDNN, MPS and CUDA flags are readable and settable (scripts set them unconditionally) and
change nothing: this build has neither backend. ``cpu.get_cpu_capability()`` names the kernel
ISA ember chose at run time.

Example:
    >>> import ember.backends.cudnn
    >>> ember.backends.cudnn.deterministic = True
"""

from __future__ import annotations

from ember.backends import cpu, cuda, cudnn, mkldnn, mps, openmp

__all__ = ["cpu", "cuda", "cudnn", "mkldnn", "mps", "openmp"]
