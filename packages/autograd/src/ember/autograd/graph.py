"""The recorded graph: one Node per differentiable op call, edges to the nodes of its inputs.

A tensor that takes part in autograd carries an ``AutogradMeta`` (in the native tensor's opaque
slot, so every Python wrapper of the same tensor sees it): the node that produced it and which
of that node's outputs it is, or, for a leaf, its ``.grad`` and the node accumulating into it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ember
from ember_core import _C

# An edge points at the node that receives a gradient and which of its outputs the gradient is for.
Edge = tuple["Node", int]


class AutogradMeta:
    """Per-tensor autograd state; ``grad_fn is None`` means the tensor is a leaf.

    Fields other than grad_fn/output_nr default to class attributes and are set only when used
    (one is created per recorded output, so construction is kept cheap).
    """

    grad: Any = None
    grad_accumulator: AccumulateGrad | None = None
    retains_grad = False
    hooks: list[Callable[[Any], Any]] | None = None
    post_accumulate_hooks: list[Callable[[Any], Any]] | None = None
    # For a view recorded from a tensor that requires grad: the tensor it views (its base).
    view_base: Any = None
    name: str | None = None

    def __init__(self, grad_fn: Node | None = None, output_nr: int = 0) -> None:
        self.grad_fn = grad_fn
        self.output_nr = output_nr


def is_tensor(value: Any) -> bool:
    """isinstance(value, Tensor) without narrowing the type (native results are typed object)."""
    return isinstance(value, _C.TensorBase)


def meta_of(tensor: Any) -> AutogradMeta | None:
    meta: AutogradMeta | None = tensor._autograd_meta
    return meta


def ensure_meta(tensor: Any) -> AutogradMeta:
    meta: AutogradMeta | None = tensor._autograd_meta
    if meta is None:
        meta = AutogradMeta()
        tensor._autograd_meta = meta
    return meta


class Node:
    """A backward function in the graph (``y.grad_fn``).

    Subclasses implement ``apply(grads) -> grads``: gradients of the outputs in, gradients of
    the inputs (aligned with ``next_functions``) out. Hook lists default to class attributes
    and exist only once a hook is registered.
    """

    next_functions: tuple[Edge | None, ...] = ()
    _pre_hooks: list[Callable[..., Any]] | None = None
    _hooks: list[Callable[..., Any]] | None = None
    # Hooks registered on the tensors this node produced, by output number.
    _tensor_pre_hooks: dict[int, list[Callable[[Any], Any]]] | None = None
    # Outputs whose tensor called retain_grad(), by output number.
    _retained_grads: dict[int, AutogradMeta] | None = None

    def __init__(self, next_functions: tuple[Edge | None, ...]) -> None:
        self.next_functions = next_functions

    @property
    def metadata(self) -> dict[str, Any]:
        found: dict[str, Any] | None = self.__dict__.get("_metadata")
        if found is None:
            found = self.__dict__["_metadata"] = {}
        return found

    def name(self) -> str:
        return type(self).__name__

    @property
    def num_outputs(self) -> int:
        return 1

    def apply(self, grads: list[Any]) -> list[Any]:
        raise NotImplementedError

    def release(self) -> None:
        """Frees what the node saved for backward (after a backward without retain_graph)."""

    def register_hook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after the node; it may return new grad_inputs."""
        if self._hooks is None:
            self._hooks = []
        self._hooks.append(fn)
        return RemovableHandle(self._hooks, fn)

    def register_prehook(self, fn: Callable[..., Any]) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before the node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(fn)
        return RemovableHandle(self._pre_hooks, fn)

    def _add_tensor_pre_hook(self, output_nr: int, fn: Callable[[Any], Any]) -> RemovableHandle:
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = self._tensor_pre_hooks.setdefault(output_nr, [])
        hooks.append(fn)
        return RemovableHandle(hooks, fn)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The sink of a leaf tensor: adds the incoming gradient into ``leaf.grad``."""

    def __init__(self, leaf: Any, meta: AutogradMeta) -> None:
        super().__init__(())
        self.meta = meta
        self.shape = tuple(leaf.shape)
        self.dtype = leaf.dtype
        # NOTE: the leaf is kept only as a detached alias; holding the tensor itself would make
        # a reference cycle through the native object that Python's GC cannot see.
        self.variable_ref = leaf.detach()

    @property
    def variable(self) -> Any:
        return self.variable_ref

    def apply(self, grads: list[Any]) -> list[Any]:
        raise AssertionError("AccumulateGrad is run by the engine")


class RemovableHandle:
    """Returned by ``register_hook``: ``handle.remove()`` unregisters the hook."""

    __slots__ = ("_fn", "_hooks")

    def __init__(self, hooks: list[Any], fn: Any) -> None:
        self._hooks = hooks
        self._fn = fn

    def remove(self) -> None:
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *args: object) -> None:
        self.remove()


def grad_accumulator(tensor: Any, meta: AutogradMeta) -> AccumulateGrad:
    acc = meta.grad_accumulator
    if acc is None:
        acc = AccumulateGrad(tensor, meta)
        meta.grad_accumulator = acc
    return acc


def gradient_edge(tensor: Any) -> Edge | None:
    """Where a gradient for ``tensor`` goes: its grad_fn, or its leaf accumulator."""
    if not tensor.requires_grad:
        return None
    meta = ensure_meta(tensor)
    if meta.grad_fn is not None:
        return (meta.grad_fn, meta.output_nr)
    return (grad_accumulator(tensor, meta), 0)


def zeros_like_meta(shape: tuple[int, ...], dtype: Any) -> Any:
    return ember.zeros(shape, dtype=dtype)
