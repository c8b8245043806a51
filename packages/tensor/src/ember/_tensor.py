"""The Python half of ``ember.Tensor``: everything that is not on the native hot path."""

from __future__ import annotations

from ember_core import _C


class Size(tuple[int, ...]):
    """The shape of a tensor: a tuple of ints, like ``torch.Size``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"ember.Size({list(self)})"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class Tensor(_C.TensorBase):
    """A multi-dimensional array of one dtype: a strided view over shared storage."""

    __slots__ = ()


_C._set_tensor_class(Tensor)
_C._set_size_class(Size)
