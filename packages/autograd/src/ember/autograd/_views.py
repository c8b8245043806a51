"""In-place ops on views: rewriting the base's history (torch's CopySlices).

When ``v = b[0]`` and then ``v.mul_(2)``, the write changes ``b`` too. The base gets a new node
that routes the part of its gradient under the view through the in-place op's backward, and the
view becomes a view of the new base.
"""

from __future__ import annotations

from typing import Any

import ember
from ember.autograd.graph import AutogradMeta, Edge, Node, ensure_meta


class _Geometry:
    """Sizes, strides and storage offset of a tensor, to re-create views of a gradient."""

    __slots__ = ("dtype", "offset", "sizes", "strides")

    def __init__(self, t: Any) -> None:
        self.sizes = tuple(t.shape)
        self.strides = t.stride()
        self.offset = t.storage_offset()
        self.dtype = t.dtype

    def empty_like(self) -> Any:
        return ember.empty_strided(self.sizes, self.strides, dtype=self.dtype)

    def view_in(self, buffer: Any, base: _Geometry) -> Any:
        """This geometry's elements inside ``buffer``, a tensor laid out like ``base``."""
        offset = buffer.storage_offset() + self.offset - base.offset
        return ember.as_strided(buffer, self.sizes, self.strides, offset)


class CopySlices(Node):
    """The base's node after an in-place op wrote through one of its views."""

    def __init__(self, base_edge: Edge | None, base: _Geometry, view: _Geometry, op: Node) -> None:
        # The base's previous history, then the in-place op's other inputs.
        super().__init__((base_edge, *op.next_functions[1:]))
        self.base = base
        self.view = view
        self.op = op

    def name(self) -> str:
        return "CopySlices"

    def apply(self, grads: list[Any]) -> list[Any]:
        grad = grads[0]
        if grad is None:
            return [None] * len(self.next_functions)
        result = self.base.empty_like()
        result.copy_(grad)
        region = self.view.view_in(result, self.base)
        op_grads = self.op.apply([region.clone()])
        if op_grads[0] is None:
            region.zero_()
        else:
            region.copy_(op_grads[0])
        return [result, *op_grads[1:]]

    def release(self) -> None:
        self.op.release()


class ViewOfBase(Node):
    """A view's node after its base's history was rewritten: its gradient lands in the base."""

    def __init__(self, base_edge: Edge, base: _Geometry, view: _Geometry) -> None:
        super().__init__((base_edge,))
        self.base = base
        self.view = view

    def name(self) -> str:
        return "AsStridedBackward0"

    def apply(self, grads: list[Any]) -> list[Any]:
        grad = grads[0]
        if grad is None:
            return [None]
        result = ember.zeros(self.base.sizes, dtype=grad.dtype)
        full = self.base.empty_like()
        full.copy_(result)
        self.view.view_in(full, self.base).copy_(grad)
        return [full]


def rebase_history(view: Any, view_meta: AutogradMeta, op_node: Node) -> None:
    """After ``op_node`` wrote into ``view`` in place, make its base record the write."""
    base = view_meta.view_base
    base_meta = ensure_meta(base)
    base_geometry = _Geometry(base)
    view_geometry = _Geometry(view)
    base_edge: Edge | None = None
    if base_meta.grad_fn is not None:
        base_edge = (base_meta.grad_fn, base_meta.output_nr)
    copy_slices = CopySlices(base_edge, base_geometry, view_geometry, op_node)
    base_meta.grad_fn = copy_slices
    base_meta.output_nr = 0
    base._set_requires_grad(True)
    view_meta.grad_fn = ViewOfBase((copy_slices, 0), base_geometry, view_geometry)
    view_meta.output_nr = 0
