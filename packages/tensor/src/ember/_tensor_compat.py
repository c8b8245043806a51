"""torch's everyday ``Tensor`` methods around the math: memory formats, storage access, the
legacy ``type``/``type_as``/``apply_``/``map_``, and the CUDA/pinned-memory methods of a CPU build.

``Tensor`` inherits these from :class:`TensorCompat` (listed before the native base, so the
``memory_format`` versions of ``clone``/``contiguous``/``is_contiguous`` take precedence); the
common call without a memory format goes straight to the native method.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from ember import _legacy
from ember import _memory_format as mf
from ember._dtype import is_tensor
from ember_core import _C

__all__ = ["TensorCompat", "TypedStorage", "UntypedStorage"]

# Typed Any: they are called with self, a TensorCompat that is a TensorBase only in ember.Tensor.
_native_clone: Any = _C.TensorBase.clone
_native_contiguous: Any = _C.TensorBase.contiguous
_native_is_contiguous: Any = _C.TensorBase.is_contiguous

_NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class CudaNotCompiledError(AssertionError, RuntimeError):
    """CUDA use in a build without CUDA tensors: torch's AssertionError, and a RuntimeError."""


def not_compiled_with_cuda(op: str) -> CudaNotCompiledError:
    """torch's error for CUDA use in a build without CUDA tensors (an AssertionError, as torch)."""
    return CudaNotCompiledError(
        f"[{op}] Torch not compiled with CUDA enabled: this ember build has only CPU tensors"
    )


class UntypedStorage:
    """The bytes under a tensor (``t.untyped_storage()``), shared with every view of them.

    Example:
        >>> ember.zeros(2).untyped_storage().nbytes()
        8
    """

    __slots__ = ("_bytes",)

    def __init__(self, tensor: Any) -> None:
        self._bytes: Any = _C._storage_bytes(tensor)  # a uint8 view of the whole storage

    def nbytes(self) -> int:
        """The storage's size in bytes."""
        return int(self._bytes.numel())

    def size(self) -> int:
        """The storage's size in bytes (an untyped storage counts bytes)."""
        return self.nbytes()

    __len__ = size

    def element_size(self) -> int:
        """1: an untyped storage holds bytes."""
        return 1

    def data_ptr(self) -> int:
        """The address of the storage's first byte."""
        return int(self._bytes.data_ptr())

    @property
    def device(self) -> Any:
        """The device holding the storage (the CPU)."""
        from ember._device import device

        return device("cpu")

    @property
    def is_cuda(self) -> bool:
        """Whether the storage lives on a CUDA device (never, in this build)."""
        return False

    def is_pinned(self) -> bool:
        """Whether the storage is in pinned memory (never, without an accelerator)."""
        return False

    def tolist(self) -> list[int]:
        """The bytes as a list of ints."""
        result: list[int] = self._bytes.tolist()
        return result

    def __getitem__(self, index: int) -> int:
        return int(self._bytes[index].item())

    def share_memory_(self) -> UntypedStorage:
        """Moves the storage into shared memory (every tensor over it follows); returns self."""
        self._bytes.share_memory_()
        return self

    def is_shared(self) -> bool:
        """Whether the storage lives in shared memory."""
        return bool(self._bytes.is_shared())

    def __repr__(self) -> str:
        return f"ember.UntypedStorage(device=cpu) of size {self.nbytes()}"


_typed_storage_warned = False


class TypedStorage(UntypedStorage):
    """torch's deprecated typed view of a storage (``t.storage()``): sizes count elements.

    Example:
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     ember.zeros(3).storage().size()
        3
    """

    __slots__ = ("dtype",)

    def __init__(self, tensor: Any) -> None:
        global _typed_storage_warned
        if not _typed_storage_warned:
            _typed_storage_warned = True
            warnings.warn(
                "TypedStorage is deprecated. It will be removed in the future and UntypedStorage "
                "will be the only storage class. To access UntypedStorage directly, use "
                "tensor.untyped_storage() instead of tensor.storage()",
                UserWarning,
                stacklevel=3,
            )
        super().__init__(tensor)
        self.dtype: Any = tensor.dtype

    def element_size(self) -> int:
        """The size of one element in bytes."""
        return int(self.dtype.itemsize)

    def size(self) -> int:
        """The number of elements the storage holds."""
        return self.nbytes() // self.element_size()

    __len__ = size

    def tolist(self) -> list[Any]:
        """The elements as Python numbers."""
        result: list[Any] = self._bytes.view(self.dtype).tolist()
        return result

    def __getitem__(self, index: int) -> Any:
        return self._bytes.view(self.dtype)[index].item()

    def __repr__(self) -> str:
        return f"ember.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size {self.size()}"


class TensorCompat:
    """The compatibility half of ``ember.Tensor`` (see the module docstring)."""

    __slots__ = ()

    def clone(self, *, memory_format: Any = mf.preserve_format) -> Any:
        """A copy with its own storage; ``memory_format`` picks its layout (default: the same).

        Example:
            >>> ember.zeros(1, 2, 2, 2).clone(memory_format=ember.channels_last).stride()
            (8, 1, 4, 2)
        """
        if memory_format is mf.preserve_format:
            return _native_clone(self)
        return mf.to_format(self, mf.check(memory_format, "clone"), "clone", copy=True)

    def contiguous(self, memory_format: Any = mf.contiguous_format) -> Any:
        """``self`` if laid out in ``memory_format`` already, else a copy that is.

        Example:
            >>> ember.zeros(2, 3).t().contiguous().stride()
            (2, 1)
        """
        if memory_format is mf.contiguous_format:
            return _native_contiguous(self)
        fmt = mf.check(memory_format, "contiguous")
        if fmt is mf.preserve_format:
            raise RuntimeError(
                "[contiguous] preserve memory format is unsupported by the contiguous operator"
            )
        return mf.to_format(self, fmt, "contiguous", copy=False)

    def is_contiguous(self, memory_format: Any = mf.contiguous_format) -> bool:
        """Whether the elements lie densely in ``memory_format``'s order (row-major by default).

        Example:
            >>> ember.zeros(2, 3).t().is_contiguous()
            False
        """
        if memory_format is mf.contiguous_format:
            return bool(_native_is_contiguous(self))
        fmt = mf.check(memory_format, "is_contiguous")
        if fmt is mf.preserve_format:
            raise RuntimeError(
                "[is_contiguous] preserve memory format is unsupported by the contiguous operator"
            )
        return mf.is_contiguous(self, fmt)

    @property
    def layout(self) -> mf.layout:
        """The tensor's layout: always ``ember.strided``."""
        return mf.strided

    def type(self, dtype: Any = None, non_blocking: bool = False, **kwargs: Any) -> Any:
        """The type name (``'torch.FloatTensor'``, torch's spelling) or, given a dtype, a
        tensor type (``ember.LongTensor``) or a type name (``'torch.LongTensor'`` or
        ``'ember.LongTensor'``), the tensor converted to it.

        Example:
            >>> ember.tensor([1.5]).type('torch.LongTensor')
            tensor([1])
        """
        if dtype is None:
            return _legacy.type_name(self.dtype)  # type: ignore[attr-defined]
        return _legacy.type_convert(self, dtype)

    def type_as(self, other: Any) -> Any:
        """``self`` converted to ``other``'s dtype.

        Example:
            >>> ember.tensor([1.5]).type_as(ember.tensor([1]))
            tensor([1])
        """
        if not isinstance(other, _C.TensorBase):
            raise TypeError(f"[type_as] expected a Tensor, got {type(other).__name__}")
        return _legacy.type_convert(self, other.dtype, "type_as")

    def matrix_exp(self) -> Any:
        """See :func:`ember.linalg.matrix_exp`."""
        from ember._matrix_functions import matrix_exp

        return matrix_exp(self)

    def untyped_storage(self) -> UntypedStorage:
        """The storage's bytes, shared with this tensor and all its views."""
        return UntypedStorage(self)

    def storage(self) -> TypedStorage:
        """torch's deprecated typed storage view (warns once, as torch; prefer untyped_storage)."""
        return TypedStorage(self)

    def is_pinned(self, device: Any = None) -> bool:
        """Whether the tensor is in pinned (page-locked) memory: never, without an accelerator."""
        return False

    def pin_memory(self, device: Any = None) -> Any:
        """Copies the tensor into pinned memory; as torch without an accelerator, this raises."""
        raise RuntimeError(f"[pin_memory] {_NO_ACCELERATOR}")

    def cuda(self, device: Any = None, non_blocking: bool = False, **kwargs: Any) -> Any:
        """The tensor on a CUDA device: not available, ember tensors live on the CPU."""
        raise not_compiled_with_cuda("cuda")

    def apply_(self, callable: Callable[[Any], Any]) -> Any:
        """Replaces every element ``v`` by ``callable(v)`` (in Python: slow, CPU only).

        Example:
            >>> ember.tensor([1.0, 2.0]).apply_(lambda v: v * 10)
            tensor([10., 20.])
        """
        _check_no_grad(self, "apply_")
        _check_callable(callable, "apply_")
        flat: Any = self.reshape(-1).tolist()  # type: ignore[attr-defined]
        return _fill_from(self, [callable(v) for v in flat], "apply_")

    def map_(self, tensor: Any, callable: Callable[[Any, Any], Any]) -> Any:
        """Replaces every element ``a`` by ``callable(a, b)``, ``b`` from ``tensor`` broadcast.

        Example:
            >>> ember.tensor([1.0, 2.0]).map_(ember.tensor([3.0, 4.0]), lambda a, b: a * b)
            tensor([3., 8.])
        """
        _check_no_grad(self, "map_")
        _check_callable(callable, "map_")
        if not is_tensor(tensor):
            raise TypeError(f"[map_] expected a Tensor, got {type(tensor).__name__}")
        flat: Any = self.reshape(-1).tolist()  # type: ignore[attr-defined]
        shape = list(self.shape)  # type: ignore[attr-defined]
        other: Any = tensor.expand(shape).reshape(-1).tolist()
        return _fill_from(self, [callable(a, b) for a, b in zip(flat, other, strict=True)], "map_")


def _check_callable(fn: Any, op: str) -> None:
    if not callable(fn):
        raise TypeError(f"[{op}] expected a callable, got {type(fn).__name__}")


def _check_no_grad(t: Any, op: str) -> None:
    if t.requires_grad:
        raise RuntimeError(
            f"[{op}] Can't call {op}() on Variable that requires grad. Use var.detach().{op}() "
            "instead."
        )


def _fill_from(t: Any, values: list[Any], op: str) -> Any:
    for v in values:
        if not isinstance(v, (int, float, complex, bool)):
            raise TypeError(f"[{op}] the callable must return a number, got {type(v).__name__}")
    if values:
        t.copy_(_C.tensor(values, dtype=t.dtype).reshape(list(t.shape)))
    return t
