"""``ember.backends.cuda``: CUDA matmul flags (settable, no effect without CUDA tensors)."""

from __future__ import annotations

from ember_core import _C

__all__ = ["is_built", "matmul"]


class _MatmulFlags:
    """``ember.backends.cuda.matmul``: the flags torch reads for CUDA matmuls."""

    def __init__(self) -> None:
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True

    def __repr__(self) -> str:
        return f"ember.backends.cuda.matmul(allow_tf32={self.allow_tf32})"


matmul = _MatmulFlags()


def is_built() -> bool:
    """Whether this ember-core variant was built for CUDA (the ``cu*`` variants).

    Example:
        >>> ember.backends.cuda.is_built() == ember.version.variant.startswith("cu")
        True
    """
    return str(_C.variant).startswith("cu")
