"""``Parameter``, ``Buffer`` and the uninitialized placeholders of lazy modules."""

from __future__ import annotations

import copy
from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor

__all__ = [
    "Buffer",
    "Parameter",
    "UninitializedBuffer",
    "UninitializedParameter",
    "is_lazy",
]


def _native(t: Any) -> Any:
    # TensorBase's extra methods (_make_subclass, _set_data) are typed loosely in the stubs.
    return t


def _rebuild_parameter(data: Tensor, requires_grad: bool, state: dict[str, Any]) -> Parameter:
    param = Parameter(data, requires_grad)
    param.__dict__.update(state)
    return param


def _rebuild_buffer(data: Tensor, requires_grad: bool, state: dict[str, Any]) -> Buffer:
    buf = Buffer(data)
    buf.__dict__.update(state)
    if requires_grad:
        buf.requires_grad_(True)
    return buf


class Parameter(Tensor):
    """A tensor that is a module parameter: assigning one to a Module attribute registers it.

    It shares ``data``'s storage (no copy), is a leaf of the autograd graph and requires grad by
    default. Operations on a Parameter return plain ``Tensor`` values, as in torch.

    Example:
        >>> p = ember.nn.Parameter(ember.zeros(2))
        >>> p.requires_grad, isinstance(p, ember.Tensor)
        (True, True)
    """

    def __new__(cls, data: Tensor | None = None, requires_grad: bool = True) -> Parameter:
        if data is None:
            data = ember.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"[Parameter] data must be a Tensor, not {type(data).__name__}")
        param: Parameter = _native(Tensor)._make_subclass(cls, data, requires_grad)
        return param

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True) -> None:
        # All the work is in __new__ (the instance wraps data's storage).
        pass

    @property
    def data(self) -> Tensor:
        """The parameter's values as a plain tensor outside autograd; assignable as in torch."""
        plain: Tensor = self.detach()
        return plain

    @data.setter
    def data(self, value: Tensor) -> None:
        _native(self)._set_data(value)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + repr(self.detach().requires_grad_(self.requires_grad))

    __str__ = __repr__

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        if id(self) in memo:
            result: Parameter = memo[id(self)]
            return result
        with no_grad():
            result = type(self)(self.detach().clone(), self.requires_grad)
        memo[id(self)] = result
        result.__dict__.update(copy.deepcopy(self.__dict__, memo))
        if self.grad is not None:
            _native(result).grad = self.grad.clone()
        return result

    def __reduce_ex__(self, protocol: Any) -> Any:
        # Rebuilt from its plain data (pickled as an Tensor) and its attributes.
        return (_rebuild_parameter, (self.detach(), self.requires_grad, dict(self.__dict__)))

    __hash__ = Tensor.__hash__


class UninitializedTensorMixin:
    """Behaviour shared by the uninitialized placeholders of lazy modules."""

    cls_to_become: type[Any]

    def materialize(self, shape: Any, device: Any = None, dtype: ember.dtype | None = None) -> None:
        """Allocates the data (``ember.empty(shape)``) and turns into ``cls_to_become``.

        Example:
            >>> p = ember.nn.UninitializedParameter()
            >>> p.materialize((2, 3))
            >>> type(p).__name__, tuple(p.shape)
            ('Parameter', (2, 3))
        """
        if isinstance(shape, int):
            shape = (shape,)
        if dtype is None:
            # The placeholder's own dtype: set at creation, changed by module.double() & co.
            dtype = _native(self).dtype
        data = ember.empty(tuple(shape), dtype=dtype, device=device)
        _native(self)._set_data(data)
        if self.cls_to_become is not Tensor:
            self.__class__ = self.cls_to_become
        # A buffer cannot become a plain Tensor in place (no __dict__ there): LazyModuleMixin
        # replaces it in the module by ``buf.as_subclass(Tensor)``.

    @property
    def shape(self) -> Any:
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing "
            "their attributes."
        )

    def share_memory_(self) -> Any:
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`."
        )

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__}>"

    __str__ = __repr__

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (self.__class__, (getattr(self, "requires_grad", False),))


def is_lazy(param: Any) -> bool:
    """Whether ``param`` is an uninitialized parameter or buffer of a lazy module.

    Example:
        >>> ember.nn.parameter.is_lazy(ember.nn.UninitializedParameter())
        True
    """
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A parameter whose shape is not known yet (lazy modules); ``materialize`` allocates it.

    Example:
        >>> ember.nn.UninitializedParameter()
        <UninitializedParameter>
    """

    cls_to_become = Parameter

    def __new__(
        cls, requires_grad: bool = True, device: Any = None, dtype: ember.dtype | None = None
    ) -> UninitializedParameter:
        data = ember.empty(0, dtype=dtype, device=device)
        param: UninitializedParameter = _native(Tensor)._make_subclass(cls, data, requires_grad)
        return param

    def __init__(
        self, requires_grad: bool = True, device: Any = None, dtype: ember.dtype | None = None
    ) -> None:
        pass

    def __deepcopy__(self, memo: dict[int, Any]) -> UninitializedParameter:
        result = type(self)(self.requires_grad, None, _native(self).dtype)
        memo[id(self)] = result
        return result


class Buffer(Tensor):
    """Marks a tensor as a buffer: assigning a Buffer to a Module attribute registers it.

    The module stores the tensor (as a plain ``Tensor`` over the same storage) with the
    given ``persistent`` flag, like ``register_buffer``.

    Example:
        >>> m = ember.nn.Module()
        >>> m.running = ember.nn.Buffer(ember.zeros(3))
        >>> list(m.state_dict())
        ['running']
    """

    def __new__(cls, data: Tensor | None = None, *, persistent: bool = True) -> Buffer:
        if data is None:
            data = ember.empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"[Buffer] data must be a Tensor, not {type(data).__name__}")
        buf: Buffer = _native(data).as_subclass(cls)
        buf.persistent = persistent  # type: ignore[attr-defined]
        return buf

    def __init__(self, data: Tensor | None = None, *, persistent: bool = True) -> None:
        pass

    def __reduce_ex__(self, protocol: Any) -> Any:
        # As Parameter: the data is pickled as a plain Tensor, so multiprocessing's pickler sends
        # it through shared memory (ember.multiprocessing registers only the exact Tensor type).
        return (_rebuild_buffer, (self.detach(), self.requires_grad, dict(self.__dict__)))

    __hash__ = Tensor.__hash__


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (lazy modules); ``materialize`` allocates it.

    Example:
        >>> ember.nn.UninitializedBuffer()
        <UninitializedBuffer>
    """

    cls_to_become = Tensor

    def __new__(
        cls,
        requires_grad: bool = False,
        device: Any = None,
        dtype: ember.dtype | None = None,
        persistent: bool = True,
    ) -> UninitializedBuffer:
        data = ember.empty(0, dtype=dtype, device=device)
        buf: UninitializedBuffer = _native(Tensor)._make_subclass(cls, data, requires_grad)
        buf.persistent = persistent  # type: ignore[attr-defined]
        return buf

    def __init__(
        self,
        requires_grad: bool = False,
        device: Any = None,
        dtype: ember.dtype | None = None,
        persistent: bool = True,
    ) -> None:
        pass
