"""``ember.autograd.backward`` / ``grad`` and the autograd half of ``ember.Tensor``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ember
from ember.autograd._engine import run_backward
from ember.autograd.graph import (
    Edge,
    Node,
    RemovableHandle,
    ensure_meta,
    gradient_edge,
    is_tensor,
    meta_of,
)
from ember_core import _C

_TensorLike = Any


def _as_tuple(value: Any, op: str = "backward", what: str = "tensors") -> tuple[Any, ...]:
    if value is None:
        return ()
    if is_tensor(value):
        return (value,)
    if not isinstance(value, (tuple, list)):
        raise TypeError(
            f"[{op}] {what} must be a Tensor or a sequence of Tensors, got {type(value).__name__}"
        )
    for item in value:
        if item is not None and not is_tensor(item):
            raise TypeError(
                f"[{op}] {what} must hold Tensors, got an element of type {type(item).__name__}"
            )
    return tuple(value)


def _make_grads(op: str, outputs: Sequence[Any], grads: Sequence[Any]) -> list[Any]:
    if len(grads) != len(outputs):
        raise RuntimeError(f"[{op}] got {len(grads)} gradients for {len(outputs)} outputs")
    result = []
    for out, grad in zip(outputs, grads, strict=True):
        if grad is None:
            if out.numel() != 1:
                raise RuntimeError(
                    f"[{op}] grad can be implicitly created only for scalar outputs, but the "
                    f"output has shape {list(out.shape)}"
                )
            if out.is_complex():
                raise RuntimeError(
                    f"[{op}] grad can be implicitly created only for real scalar outputs, but "
                    f"the output is {out.dtype}"
                )
            grad = ember.ones_like(out)
        elif grad.shape != out.shape:
            raise RuntimeError(
                f"[{op}] Mismatch in shape: grad_output has a shape of {list(grad.shape)} and "
                f"output has a shape of {list(out.shape)}."
            )
        result.append(grad)
    return result


def _roots(
    op: str, outputs: Any, grad_outputs: Any, grads_name: str
) -> tuple[list[Edge], list[Any]]:
    """The graph edges of ``outputs`` and the gradients they start from (validated)."""
    outs = _as_tuple(outputs, op, "outputs" if op == "grad" else "tensors")
    grads = (
        _as_tuple(grad_outputs, op, grads_name) if grad_outputs is not None else (None,) * len(outs)
    )
    return _output_edges(op, outs), _make_grads(op, outs, grads)


def _output_edges(op: str, outputs: Sequence[Any]) -> list[Edge]:
    edges = []
    for i, out in enumerate(outputs):
        if not is_tensor(out):
            raise TypeError(f"[{op}] outputs must be tensors, got {type(out).__name__}")
        edge = gradient_edge(out)
        if edge is None:
            raise RuntimeError(
                f"[{op}] element {i} of tensors does not require grad and does not have a grad_fn"
            )
        edges.append(edge)
    return edges


def backward(
    tensors: Any,
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Any = None,
) -> None:
    """Accumulates into the leaves' ``.grad`` the gradient of ``tensors`` (see Tensor.backward).

    Example:
        >>> x = ember.ones(3, requires_grad=True)
        >>> ember.autograd.backward((x * 2).sum())
        >>> x.grad
        tensor([2., 2., 2.])
    """
    if grad_tensors is None:
        grad_tensors = grad_variables
    roots, root_grads = _roots("backward", tensors, grad_tensors, "gradient")
    if retain_graph is None:
        retain_graph = create_graph
    wanted = _as_tuple(inputs, "backward", "inputs")
    if inputs is not None and not wanted:
        raise RuntimeError("[backward] 'inputs' argument to backward() cannot be empty.")
    if not wanted:
        run_backward(roots, root_grads, retain_graph, create_graph)
        return
    edges = [_input_edge("backward", t) for t in wanted]
    captured = run_backward(roots, root_grads, retain_graph, create_graph, edges, False)
    for tensor, grad in zip(wanted, captured, strict=True):
        if grad is None:
            continue
        meta = ensure_meta(tensor)
        if meta.grad is None:
            meta.grad = grad if create_graph else grad.detach().clone()
        else:
            meta.grad = meta.grad + grad


def _input_edge(op: str, tensor: Any) -> Edge:
    if not is_tensor(tensor):
        raise TypeError(f"[{op}] inputs must be tensors, got {type(tensor).__name__}")
    edge = gradient_edge(tensor)
    if edge is None:
        raise RuntimeError(f"[{op}] One of the differentiated Tensors does not require grad")
    return edge


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Any, ...]:
    """The gradients of ``outputs`` with respect to ``inputs``, returned instead of accumulated.

    Example:
        >>> x = ember.tensor([3.0], requires_grad=True)
        >>> ember.autograd.grad(x * x, x, ember.ones(1))
        (tensor([6.]),)
    """
    if is_grads_batched:
        raise NotImplementedError("[grad] is_grads_batched=True is not supported by ember yet")
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "[grad] Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    ins = _as_tuple(inputs, "grad", "inputs")
    if not ins:
        raise RuntimeError("[grad] grad requires non-empty inputs.")
    roots, root_grads = _roots("grad", outputs, grad_outputs, "grad_outputs")
    if retain_graph is None:
        retain_graph = create_graph
    edges = [_input_edge("grad", t) for t in ins]
    captured = run_backward(roots, root_grads, retain_graph, create_graph, edges, False)
    result = []
    for tensor, g in zip(ins, captured, strict=True):
        if g is None:
            if materialize_grads:
                g = ember.zeros_like(tensor)
            elif not allow_unused:
                raise RuntimeError(
                    "[grad] One of the differentiated Tensors appears to not have been used in "
                    "the graph. Set allow_unused=True if this is the desired behavior."
                )
        result.append(g)
    return tuple(result)


# --- the autograd half of ember.Tensor -------------------------------------------------------

_native_requires_grad = _C.TensorBase.requires_grad


def _get_requires_grad(self: Any) -> bool:
    return bool(_native_requires_grad.__get__(self))


def _set_requires_grad(self: Any, value: bool) -> None:
    _check_flag("requires_grad_", "requires_grad", value)
    meta = meta_of(self)
    if meta is not None and meta.grad_fn is not None:
        if value:
            return
        raise RuntimeError(
            "[requires_grad] you can only change requires_grad flags of leaf variables. If you "
            "want to use a computed variable in a subgraph that doesn't require differentiation "
            "use var_no_grad = var.detach()."
        )
    if value and not (self.is_floating_point() or self.is_complex()):
        raise RuntimeError(
            "[requires_grad] only Tensors of floating point and complex dtype can require "
            f"gradients, got {self.dtype}"
        )
    self._set_requires_grad(value)


def _check_flag(op: str, name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"[{op}] '{name}' must be a bool, got {type(value).__name__}")


def _requires_grad_(self: Any, requires_grad: bool = True) -> Any:
    _set_requires_grad(self, requires_grad)
    return self


def _get_grad(self: Any) -> Any:
    meta = meta_of(self)
    return None if meta is None else meta.grad


def _set_grad(self: Any, value: Any) -> None:
    if value is not None:
        if not is_tensor(value):
            raise TypeError(f"[grad] assigned grad must be a Tensor or None, got {type(value)}")
        if value.shape != self.shape:
            raise RuntimeError(
                f"[grad] assigned grad has data of a different size: {list(value.shape)} "
                f"vs the tensor's {list(self.shape)}"
            )
        if value.dtype != self.dtype:
            raise RuntimeError(
                f"[grad] assigned grad has data of a different type: {value.dtype} vs the "
                f"tensor's {self.dtype}"
            )
    ensure_meta(self).grad = value


def _del_grad(self: Any) -> None:
    meta = meta_of(self)
    if meta is not None:
        meta.grad = None


def _get_grad_fn(self: Any) -> Node | None:
    meta = meta_of(self)
    return None if meta is None else meta.grad_fn


def _is_leaf(self: Any) -> bool:
    meta = meta_of(self)
    return meta is None or meta.grad_fn is None


def _tensor_backward(
    self: Any,
    gradient: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> None:
    """Computes the gradient of this tensor with respect to the graph's leaves.

    Example:
        >>> x = ember.tensor([1.0, 2.0], requires_grad=True)
        >>> (x * x).sum().backward()
        >>> x.grad
        tensor([2., 4.])
    """
    if retain_graph is not None:
        _check_flag("backward", "retain_graph", retain_graph)
    _check_flag("backward", "create_graph", create_graph)
    backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _retain_grad(self: Any) -> None:
    if not self.requires_grad:
        raise RuntimeError("[retain_grad] can't retain_grad on Tensor that has requires_grad=False")
    meta = ensure_meta(self)
    if meta.grad_fn is None or meta.retains_grad:
        return
    meta.retains_grad = True
    node = meta.grad_fn
    if node._retained_grads is None:
        node._retained_grads = {}
    node._retained_grads[meta.output_nr] = meta


def _retains_grad(self: Any) -> bool:
    meta = meta_of(self)
    return bool(meta is not None and meta.retains_grad)


def _check_callable(op: str, hook: Any) -> None:
    if not callable(hook):
        raise TypeError(f"[{op}] hook must be callable, got {type(hook).__name__}")


def _register_hook(self: Any, hook: Callable[[Any], Any]) -> RemovableHandle:
    _check_callable("register_hook", hook)
    if not self.requires_grad:
        raise RuntimeError(
            "[register_hook] cannot register a hook on a tensor that doesn't require gradient"
        )
    meta = ensure_meta(self)
    if meta.grad_fn is not None:
        return meta.grad_fn._add_tensor_pre_hook(meta.output_nr, hook)
    if meta.hooks is None:
        meta.hooks = []
    meta.hooks.append(hook)
    return RemovableHandle(meta.hooks, hook)


def _register_post_accumulate_grad_hook(self: Any, hook: Callable[[Any], Any]) -> RemovableHandle:
    _check_callable("register_post_accumulate_grad_hook", hook)
    if not _is_leaf(self):
        raise RuntimeError(
            "[register_post_accumulate_grad_hook] post accumulate grad hooks cannot be "
            "registered on non-leaf tensors"
        )
    if not self.requires_grad:
        raise RuntimeError(
            "[register_post_accumulate_grad_hook] cannot register a hook on a tensor that "
            "doesn't require gradient"
        )
    meta = ensure_meta(self)
    if meta.post_accumulate_hooks is None:
        meta.post_accumulate_hooks = []
    meta.post_accumulate_hooks.append(hook)
    return RemovableHandle(meta.post_accumulate_hooks, hook)


def _detach_(self: Any) -> Any:
    meta = meta_of(self)
    if meta is not None and meta.view_base is not None:
        raise RuntimeError("[detach_] Can't detach views in-place. Use detach() instead.")
    if meta is not None:
        meta.grad_fn = None
        meta.output_nr = 0
    self._set_requires_grad(False)
    return self


def _get_data(self: Any) -> Any:
    return self.detach()


def _output_nr(self: Any) -> int:
    meta = meta_of(self)
    return 0 if meta is None else meta.output_nr


def _get_name(self: Any) -> str | None:
    meta = meta_of(self)
    return None if meta is None else meta.name


def _is_view(self: Any) -> bool:
    meta = meta_of(self)
    return meta is not None and meta.view_base is not None


def _base(self: Any) -> Any:
    meta = meta_of(self)
    return None if meta is None else meta.view_base


def _transpose_properties(cls: type) -> dict[str, property]:
    """T/mT/H/mH/real/imag are native properties (not ops the dispatch sees): record them as
    permutes (and conj for H/mH of complex tensors) and as ember.real/ember.imag."""
    native = {
        name: getattr(_C.TensorBase, name)
        for name in ("T", "mT", "H", "mH")
        if hasattr(_C.TensorBase, name)
    }

    def reversed_dims(self: Any) -> Any:
        return self.permute(list(range(self.dim() - 1, -1, -1)))

    def last_two(self: Any) -> Any:
        return self.transpose(-2, -1)

    def adjoint(self: Any) -> Any:
        t = reversed_dims(self)
        return t.conj() if t.is_complex() else t

    def last_two_adjoint(self: Any) -> Any:
        t = last_two(self)
        return t.conj() if t.is_complex() else t

    recorded = {"T": reversed_dims, "H": adjoint, "mT": last_two, "mH": last_two_adjoint}
    props = {}
    for name, prop in native.items():

        def getter(self: Any, _prop: Any = prop, _record: Any = recorded[name]) -> Any:
            if _native_requires_grad.__get__(self) and _C.is_grad_enabled():
                return _record(self)
            return _prop.__get__(self)

        props[name] = property(getter, doc=prop.__doc__)
    # x.real and x.imag are native views too: record them as ember.real/ember.imag.
    for name, op in (("real", _C.real), ("imag", _C.imag)):
        prop = getattr(_C.TensorBase, name)

        def part(self: Any, _prop: Any = prop, _op: Any = op) -> Any:
            if _native_requires_grad.__get__(self) and _C.is_grad_enabled():
                return _op(self)
            return _prop.__get__(self)

        props[name] = property(part, doc=prop.__doc__)
    return props


def install_tensor_api(cls: type) -> None:
    """Gives ``ember.Tensor`` its autograd attributes (replacing ember-tensor's stand-ins)."""
    members: dict[str, Any] = {
        "requires_grad": property(_get_requires_grad, _set_requires_grad),
        "grad": property(_get_grad, _set_grad, _del_grad),
        "grad_fn": property(_get_grad_fn),
        "is_leaf": property(_is_leaf),
        "retains_grad": property(_retains_grad),
        "output_nr": property(_output_nr),
        "data": property(_get_data),
        "name": property(_get_name),
        "_base": property(_base),
        "_is_view": _is_view,
        "requires_grad_": _requires_grad_,
        "backward": _tensor_backward,
        "retain_grad": _retain_grad,
        "register_hook": _register_hook,
        "register_post_accumulate_grad_hook": _register_post_accumulate_grad_hook,
        "detach_": _detach_,
        **_transpose_properties(cls),
    }
    for name, member in members.items():
        setattr(cls, name, member)
