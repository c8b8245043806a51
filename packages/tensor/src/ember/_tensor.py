"""The Python half of ``ember.Tensor``: everything that is not on the native hot path."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator
from typing import Any

from ember import _memory_format as _mf
from ember import _tensor_pickle, _vector_ops
from ember._device import DeviceLike, _as_device, _check_cpu, device
from ember._tensor_compat import TensorCompat
from ember._tensor_str import tensor_repr
from ember_core import _C

_CPU = device("cpu")

# Factories another part of ember may or may not provide yet: new_zeros & co. exist only when
# their factory does.
_FACTORIES: dict[str, Callable[..., Any]] = {
    name: getattr(_C, name) for name in ("zeros", "ones", "full", "empty") if hasattr(_C, name)
}


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

    # As torch.Size: slicing, concatenation and repetition stay a Size.
    def __getitem__(self, index: Any) -> Any:
        item = tuple.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(self, other))

    def __radd__(self, other: Any) -> Size:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple.__add__(other, self))

    def __mul__(self, count: Any) -> Size:
        return Size(tuple.__mul__(self, count))

    __rmul__ = __mul__


def _is_dtype_like(value: object) -> bool:
    return isinstance(value, _C.dtype) or value in (float, int, bool)


def _no_grad(requires_grad: bool, op: str) -> None:
    if requires_grad and not _C._has_grad_recorder():
        raise RuntimeError(
            f"[{op}] requires_grad=True needs automatic differentiation: install the "
            "ember-autograd distribution (pip install ember-autograd)"
        )


class Tensor(TensorCompat, _C.TensorBase):
    """A multi-dimensional array of one dtype: a strided view over shared storage.

    Example:
        >>> ember.tensor([[1.0, 2.0], [3.0, 4.0]]).shape
        ember.Size([2, 2])
    """

    __slots__ = ()
    # numpy defers `ndarray + tensor` to Tensor.__radd__ (the result stays a tensor).
    __array_priority__ = 1000

    def __new__(cls, *args: Any, **kwargs: Any) -> Tensor:
        # torch's legacy constructor: Tensor(data), Tensor(*sizes), Tensor() (float32). Tensors
        # made by ops never come here (the core allocates them directly).
        from ember._legacy import legacy_new

        made = legacy_new(_C.float32, args, kwargs, "Tensor")
        if cls is not type(made):
            made = _C._as_subclass(made, cls)
        result: Tensor = made
        return result

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass  # everything happened in __new__ (subclasses may define their own __init__)

    def __repr__(self) -> str:
        return tensor_repr(self, type(self) is Tensor)

    __str__ = __repr__

    def __format__(self, format_spec: str) -> str:
        # As torch: a 0-d tensor formats like its Python value (f"{t:.2f}").
        if self.dim() == 0 and type(self) is Tensor:
            return format(self.item(), format_spec)
        return object.__format__(self, format_spec)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[Any, ...]]:
        # Overridable: multiprocessing's ForkingPickler registers its own reduction for tensors.
        return _tensor_pickle.reduce_tensor(self, protocol)

    def __deepcopy__(self, memo: dict[Any, Any]) -> Tensor:
        result: Tensor = _tensor_pickle.deepcopy_tensor(self, memo)
        return result

    @property
    def device(self) -> device:
        """The device holding the tensor's memory (always ``cpu`` in this build)."""
        return _CPU

    @property
    def is_cpu(self) -> bool:
        """Whether the tensor lives in CPU memory."""
        return True

    @property
    def is_cuda(self) -> bool:
        """Whether the tensor lives on a CUDA device."""
        return False

    # Other devices and layouts torch tensors can have; ember's are all CPU, strided, dense.
    is_xpu = is_mps = is_meta = is_ipu = is_hpu = is_mtia = is_xla = is_maia = is_cuda
    is_vulkan = is_sparse = is_sparse_csr = is_quantized = is_mkldnn = is_nested = is_cuda

    def cpu(self) -> Tensor:
        """The tensor on the CPU: ``self``, since ember tensors already live there."""
        return self

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """Converts dtype and/or device: ``to(dtype)``, ``to(device, dtype)``, ``to(other)``.

        Returns ``self`` when nothing changes, unless ``copy=True``.

        Example:
            >>> ember.tensor([1, 2]).to(ember.float64)
            tensor([1., 2.], dtype=ember.float64)
        """
        fmt = kwargs.pop("memory_format", _mf.preserve_format)
        dtype, dev, copy = _parse_to_args(args, kwargs)
        if dev is not None:
            _check_cpu(dev, "to")
        native: Any = self  # the stub types native results as `object`
        if fmt is not _mf.preserve_format:
            converted = self if dtype is None else native._to_dtype(dtype, False)
            fmt = _mf.check(fmt, "to")
            laid_out: Tensor = _mf.to_format(converted, fmt, "to", copy=False)
            if copy and laid_out is self:
                laid_out = _mf.to_format(self, fmt, "to", copy=True)
            return laid_out
        if dtype is None:
            return native.clone() if copy else self
        result: Tensor = native._to_dtype(dtype, copy)
        return result

    def new_tensor(
        self,
        data: Any,
        *,
        dtype: Any = None,
        device: DeviceLike | None = None,
        requires_grad: bool = False,
    ) -> Tensor:
        """A new tensor holding a copy of ``data``, with this tensor's dtype by default."""
        _check_new_args(device, requires_grad, "new_tensor")
        make: Any = _C.tensor
        result: Tensor = make(
            data, dtype=self.dtype if dtype is None else dtype, requires_grad=requires_grad
        )
        return result

    def new_zeros(self, *size: Any, **kwargs: Any) -> Tensor:
        """A zero-filled tensor of ``size`` with this tensor's dtype by default."""
        return self._new("zeros", size, (), kwargs)

    def new_ones(self, *size: Any, **kwargs: Any) -> Tensor:
        """A one-filled tensor of ``size`` with this tensor's dtype by default."""
        return self._new("ones", size, (), kwargs)

    def new_empty(self, *size: Any, **kwargs: Any) -> Tensor:
        """An uninitialized tensor of ``size`` with this tensor's dtype by default."""
        return self._new("empty", size, (), kwargs)

    def new_full(self, size: Any, fill_value: Any, **kwargs: Any) -> Tensor:
        """A tensor of ``size`` filled with ``fill_value``, with this tensor's dtype by default."""
        return self._new("full", (size,), (fill_value,), kwargs)

    def _new(
        self, factory: str, size: tuple[Any, ...], extra: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Tensor:
        op = f"new_{factory}"
        if factory not in _FACTORIES:
            raise NotImplementedError(f"[{op}] needs ember.{factory}, which this build lacks")
        unknown = set(kwargs) - {"dtype", "device", "requires_grad", "layout", "pin_memory"}
        if unknown:
            raise TypeError(f"[{op}] unexpected keyword argument(s): {', '.join(sorted(unknown))}")
        _check_new_args(kwargs.get("device"), bool(kwargs.get("requires_grad", False)), op)
        dtype = kwargs.get("dtype")
        result: Tensor = _FACTORIES[factory](
            *size,
            *extra,
            dtype=self.dtype if dtype is None else dtype,
            requires_grad=bool(kwargs.get("requires_grad", False)),
        )
        return result

    # Stand-ins for the autograd half of Tensor: ember.autograd replaces them when installed.
    @property
    def grad(self) -> Any:
        """The accumulated gradient (always None without ember-autograd)."""
        return None

    @property
    def grad_fn(self) -> Any:
        """The node that produced this tensor (always None without ember-autograd)."""
        return None

    @property
    def is_leaf(self) -> bool:
        """Whether the tensor was created by the user rather than recorded by an op."""
        return True

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Marks the tensor as needing gradients (needs ember-autograd)."""
        _no_grad(requires_grad, "requires_grad_")
        return self

    def backward(self, *args: Any, **kwargs: Any) -> None:
        """Computes gradients (needs ember-autograd)."""
        _no_grad(True, "backward")

    def register_hook(self, hook: Callable[[Any], Any]) -> Any:
        """Registers a gradient hook (needs ember-autograd)."""
        _no_grad(True, "register_hook")

    def retain_grad(self) -> None:
        """Keeps the gradient of a non-leaf tensor (needs ember-autograd)."""
        _no_grad(True, "retain_grad")

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        """The Array API (2024.12) namespace for ember arrays: the module ``ember.array_api``.

        Example:
            >>> xp = ember.ones(2).__array_namespace__()
            >>> xp.__array_api_version__
            '2024.12'
        """
        if api_version is not None and not isinstance(api_version, str):
            raise TypeError(f"[__array_namespace__] api_version must be a str, got {api_version!r}")
        if api_version not in (None, "2021.12", "2022.12", "2023.12", "2024.12"):
            raise ValueError(
                f"[__array_namespace__] unsupported api_version {api_version!r}; "
                "ember implements 2024.12 (earlier versions get the same namespace)"
            )
        # Imported here: `import ember` must not load the namespace (import-time budget).
        import ember.array_api

        return ember.array_api

    def to_device(self, device: DeviceLike, /, *, stream: int | Any | None = None) -> Tensor:
        """The Array API's ``to_device``: this array itself, as the CPU is its only device.

        Example:
            >>> x = ember.ones(2)
            >>> x.to_device("cpu") is x
            True
        """
        if stream is not None:
            raise ValueError(f"[to_device] stream must be None on the CPU, got {stream!r}")
        _check_cpu(_as_device(device, "to_device"), "to_device")
        return self

    def __iter__(self) -> Iterator[Tensor]:
        if self.dim() == 0:
            raise TypeError("[iter] iteration over a 0-d tensor")
        native: Any = self  # unbind/indexing come from another part of ember
        if hasattr(_C.TensorBase, "unbind"):
            return iter(native.unbind(0))
        if hasattr(_C.TensorBase, "__getitem__"):
            return (native[i] for i in range(len(self)))
        raise NotImplementedError("[iter] iterating needs Tensor.unbind or indexing (not built)")

    def __reversed__(self) -> Tensor:
        if self.dim() == 0:
            return self
        if not hasattr(_C.TensorBase, "flip"):
            raise NotImplementedError("[reversed] needs Tensor.flip, which this build lacks")
        native: Any = self
        result: Tensor = native.flip(0)
        return result

    def __contains__(self, element: object) -> bool:
        if isinstance(element, (_C.TensorBase, numbers.Number)):
            matches: Any = self == element
            return bool(matches.any().item())
        raise RuntimeError(
            "[contains] Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
            f"{type(element)}."
        )

    def inner(self, other: Tensor) -> Tensor:
        """See :func:`ember.inner`."""
        return _vector_ops.inner(self, other)

    def dist(self, other: Tensor, p: float = 2) -> Tensor:
        """See :func:`ember.dist`."""
        return _vector_ops.dist(self, other, p)

    def isreal(self) -> Tensor:
        """See :func:`ember.isreal`."""
        return _vector_ops.isreal(self)

    # Methods of the Python composites (ember/_shape_composites.py, _float_parts.py,
    # _blas_composites.py, _view_scatter.py); imported on call: _float_parts imports
    # ember.special, which needs this module.
    def ravel(self) -> Tensor:
        """See :func:`ember.ravel`."""
        from ember._shape_composites import ravel

        return ravel(self)

    def is_neg(self) -> bool:
        """See :func:`ember.is_neg`."""
        return False

    def resolve_neg(self) -> Tensor:
        """See :func:`ember.resolve_neg`."""
        return self

    def logit(self, eps: float | None = None) -> Tensor:
        """See :func:`ember.logit`."""
        from ember._float_parts import logit

        return logit(self, eps)

    def logit_(self, eps: float | None = None) -> Tensor:
        """In-place :func:`ember.logit`."""
        from ember._float_parts import logit_

        return logit_(self, eps)

    def ldexp(self, other: Tensor) -> Tensor:
        """See :func:`ember.ldexp`."""
        from ember._float_parts import ldexp

        return ldexp(self, other)

    def ldexp_(self, other: Tensor) -> Tensor:
        """In-place :func:`ember.ldexp`."""
        from ember._float_parts import ldexp_

        return ldexp_(self, other)

    def frexp(self) -> tuple[Tensor, Tensor]:
        """See :func:`ember.frexp`."""
        from ember._float_parts import frexp

        return frexp(self)

    def addr(self, vec1: Tensor, vec2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
        """See :func:`ember.addr`."""
        from ember._blas_composites import addr

        return addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def addr_(self, vec1: Tensor, vec2: Tensor, *, beta: float = 1, alpha: float = 1) -> Tensor:
        """In-place :func:`ember.addr`."""
        from ember._blas_composites import addr_

        return addr_(self, vec1, vec2, beta=beta, alpha=alpha)

    def addbmm(
        self, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1
    ) -> Tensor:
        """See :func:`ember.addbmm`."""
        from ember._blas_composites import addbmm

        return addbmm(self, batch1, batch2, beta=beta, alpha=alpha)

    def addbmm_(
        self, batch1: Tensor, batch2: Tensor, *, beta: float = 1, alpha: float = 1
    ) -> Tensor:
        """In-place :func:`ember.addbmm`."""
        from ember._blas_composites import addbmm_

        return addbmm_(self, batch1, batch2, beta=beta, alpha=alpha)

    def renorm(self, p: float, dim: int, maxnorm: float) -> Tensor:
        """See :func:`ember.renorm`."""
        from ember._renorm import renorm

        return renorm(self, p, dim, maxnorm)

    def renorm_(self, p: float, dim: int, maxnorm: float) -> Tensor:
        """In-place :func:`ember.renorm`."""
        from ember._renorm import renorm_

        return renorm_(self, p, dim, maxnorm)

    def select_scatter(self, src: Tensor, dim: int, index: int) -> Tensor:
        """See :func:`ember.select_scatter`."""
        from ember._view_scatter import select_scatter

        return select_scatter(self, src, dim, index)

    def slice_scatter(
        self,
        src: Tensor,
        dim: int = 0,
        start: int | None = None,
        end: int | None = None,
        step: int = 1,
    ) -> Tensor:
        """See :func:`ember.slice_scatter`."""
        from ember._view_scatter import slice_scatter

        return slice_scatter(self, src, dim, start, end, step)

    def diagonal_scatter(
        self, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1
    ) -> Tensor:
        """See :func:`ember.diagonal_scatter`."""
        from ember._view_scatter import diagonal_scatter

        return diagonal_scatter(self, src, offset, dim1, dim2)


def _numpy_operand(other: Any) -> Any:
    """A numpy array as a tensor, a numpy scalar as a Python number; None for anything else."""
    module = type(other).__module__
    if not module.startswith("numpy"):
        return None
    if hasattr(other, "__array_interface__") and hasattr(other, "shape") and other.shape != ():
        return _C.from_numpy(other)
    if hasattr(other, "item"):
        return other.item()
    return None


def _reflected(name: str) -> Callable[[Tensor, Any], Any]:
    # NOTE: only the reflected operators get this Python layer (numpy operands reach them after
    # numpy defers, thanks to __array_priority__); `tensor + x` stays entirely native.
    native = getattr(_C.TensorBase, name)

    def op(self: Tensor, other: Any) -> Any:
        result = native(self, other)
        if result is NotImplemented:
            converted = _numpy_operand(other)
            if converted is not None:
                return native(self, converted)
        return result

    op.__name__ = op.__qualname__ = name
    return op


for _name in (
    "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rpow__",
    "__rand__", "__ror__", "__rxor__", "__rlshift__", "__rrshift__",
):  # fmt: skip
    setattr(Tensor, _name, _reflected(_name))


def _check_new_args(dev: DeviceLike | None, requires_grad: bool, op: str) -> None:
    if dev is not None:
        _check_cpu(_as_device(dev, op), op)
    _no_grad(requires_grad, op)


def _parse_to_args(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[Any, device | None, bool]:
    """Parses Tensor.to's overloads into (dtype or None, device or None, copy)."""
    dtype: Any = None
    dev: device | None = None
    rest = list(args)
    if rest and isinstance(rest[0], _C.TensorBase):
        other = rest.pop(0)
        dtype, dev = other.dtype, _CPU
    elif rest and _is_dtype_like(rest[0]):
        dtype = rest.pop(0)
    elif rest and isinstance(rest[0], (device, str, int)) and not isinstance(rest[0], bool):
        dev = _as_device(rest.pop(0), "to")
        if rest and _is_dtype_like(rest[0]):
            dtype = rest.pop(0)
    elif rest and rest[0] is not None:
        raise TypeError(f"[to] expected a dtype, device or Tensor, got {rest[0]!r}")
    elif rest:
        rest.pop(0)
    if len(rest) > 2:
        raise TypeError(f"[to] too many positional arguments ({len(args)})")
    options = dict(zip(("non_blocking", "copy"), rest, strict=False))
    for key, value in kwargs.items():
        if key not in ("dtype", "device", "non_blocking", "copy", "memory_format"):
            raise TypeError(f"[to] unexpected keyword argument {key!r}")
        if key in options:
            raise TypeError(f"[to] got multiple values for argument {key!r}")
        options[key] = value
    if options.get("dtype") is not None:
        if dtype is not None:
            raise TypeError("[to] dtype given twice")
        dtype = options["dtype"]
    if options.get("device") is not None:
        dev = _as_device(options["device"], "to")
    if dtype is not None and not _is_dtype_like(dtype):
        raise TypeError(f"[to] expected an ember dtype, got {dtype!r}")
    return dtype, dev, bool(options.get("copy", False))


_C._set_tensor_class(Tensor)
_C._set_size_class(Size)
