"""Recording: what happens when an op is called on a tensor that requires grad.

The native op dispatch (ember-core's grad_dispatch.cpp) calls ``record(name, func, args,
kwargs)`` only for ops named in ``register()`` and only when an argument requires grad (or a
creation op is given ``requires_grad=True``). ``func`` is the plain native op: calling it never
comes back here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import ember
from ember._tensor import Tensor
from ember.autograd import _anomaly
from ember.autograd._views import rebase_history
from ember.autograd.graph import (
    AutogradMeta,
    Edge,
    Node,
    ensure_meta,
    grad_accumulator,
    is_tensor,
)
from ember_core import _C

if TYPE_CHECKING:
    from ember.autograd._rule import Rule

_TensorBase = _C.TensorBase
_raw_detach = cast(Any, _TensorBase.detach).__wrapped__
_is_grad_enabled = _C.is_grad_enabled
_requires_grad = _TensorBase.requires_grad.__get__
_tuple_new = tuple.__new__

RULES: dict[str, Rule] = {}
# Ops that are differentiable in torch but have no rule here yet: recording them raises.
MISSING: set[str] = set()
# In-place ops (`mul_`, `Tensor.__imul__`); RULES maps them to the out-of-place rule.
INPLACE: set[str] = set()
FACTORIES: set[str] = set()


class SavedTensorsReleased(RuntimeError):
    pass


_RELEASED_MESSAGE = (
    "[backward] Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the graph are "
    "freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need "
    "to backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def _type_name(t: Any) -> str:
    return str(t.type())


class RuleNode(Node):
    """A node recorded from a rule: saved arguments in, formulas out."""

    __slots__ = ("args", "input_meta", "rule", "saved_versions")

    # Set only by the ops that need them (one node is made per recorded op: every attribute
    # set in __init__ costs): the output count and (shape, dtype) of each output of a
    # multi-output op (zeros stand in for a missing grad), and how many tensors each sequence
    # argument held (cat's `tensors`), by position.
    outputs = 1
    output_meta: list[tuple[tuple[int, ...], Any]] | None = None
    list_counts: dict[int, int] | None = None

    def __init__(
        self,
        rule: Rule,
        edges: tuple[Edge | None, ...],
        input_meta: list[tuple[tuple[int, ...], Any] | None],
        saved_versions: list[tuple[Any, int]],
    ) -> None:
        self.next_functions = edges
        self.rule = rule
        self.args: Any = None
        # (shape, dtype) of each input a gradient flows to (None for the others).
        self.input_meta = input_meta
        self.saved_versions = saved_versions

    def name(self) -> str:
        return self.rule.node_name

    @property
    def num_outputs(self) -> int:
        return self.outputs

    def release(self) -> None:
        if self.rule.saves_anything:
            self.args = _RELEASED
            self.saved_versions = []

    def _check_versions(self) -> None:
        for tensor, version in self.saved_versions:
            if tensor._version != version:
                raise RuntimeError(
                    "[backward] one of the variables needed for gradient computation has been "
                    f"modified by an inplace operation: [{_type_name(tensor)} "
                    f"{list(tensor.shape)}], which is saved by {self.name()}, is at version "
                    f"{tensor._version}; expected version {version} instead. Hint: the "
                    "operation that failed to compute its gradient is the one named above; "
                    "clone() the tensor before modifying it in place."
                )

    def apply(self, grads: list[Any]) -> list[Any]:
        args = self.args
        if args is _RELEASED:
            raise RuntimeError(_RELEASED_MESSAGE)
        if self.saved_versions:
            self._check_versions()
        if self.outputs == 1:
            g = grads[0]
            if g is None:
                return [None] * len(self.next_functions)
        else:
            if all(x is None for x in grads):
                return [None] * len(self.next_functions)
            g = tuple(
                x if x is not None else ember.zeros(shape, dtype=dtype)
                for x, (shape, dtype) in zip(grads, self.output_meta or (), strict=True)
            )
        if self.rule.saves_result and _is_grad_enabled():
            args = args._replace(result=self._reattached(args.result))
        out: list[Any] = []
        input_meta = self.input_meta
        edge_index = 0
        for position, formula in self.rule.formulas:
            if self.list_counts is not None and position in self.list_counts:
                count = self.list_counts[position]
                if any(input_meta[edge_index : edge_index + count]):
                    out.extend(formula(g, args))
                else:
                    out.extend([None] * count)
                edge_index += count
                continue
            out.append(formula(g, args) if input_meta[edge_index] is not None else None)
            edge_index += 1
        # Gradients come back in each input's shape and dtype (broadcasting, type promotion).
        for i, grad in enumerate(out):
            meta = input_meta[i]
            if grad is None or meta is None:
                continue
            shape, dtype = meta
            grad_dtype = grad.dtype
            if grad_dtype is not dtype and grad_dtype.is_complex and not dtype.is_complex:
                # A real input promoted into a complex op gets the real part (torch's
                # handle_r_to_c): L is real, so dL/dx is Re of the Wirtinger gradient.
                grad = ember.real(grad)
            if grad._sizes != shape:
                grad = _sum_to(grad, shape)
            if grad.dtype is not dtype:
                grad = grad.to(dtype)
            out[i] = grad
        return out

    def _reattached(self, saved: Any) -> Any:
        """The saved output, connected to this node again (for create_graph=True)."""
        if isinstance(saved, tuple):
            return tuple(self._alias_output(t, nr) for nr, t in enumerate(saved))
        return self._alias_output(saved, 0)

    def _alias_output(self, saved: Any, nr: int) -> Any:
        if not is_tensor(saved) or not carries_grad(saved):
            return saved
        alias = _raw_detach(saved)
        alias._autograd_meta = AutogradMeta(self, nr)
        alias._set_requires_grad(True)
        return alias


_RELEASED = object()


def _sum_to(grad: Any, shape: tuple[int, ...]) -> Any:
    """Sums a broadcast gradient back to ``shape`` (the input's shape before broadcasting)."""
    lead = grad.dim() - len(shape)
    if lead < 0:  # x[i] = value with a value of extra leading size-1 dims
        grad = grad.reshape((1,) * -lead + tuple(grad.shape))
        lead = 0
    dims = list(range(lead))
    dims += [lead + i for i, size in enumerate(shape) if size == 1 and grad.shape[lead + i] != 1]
    if dims:
        grad = grad.sum(dims, keepdim=True)
    if lead:
        grad = grad.reshape(shape)
    return grad


def _check_out(name: str, kwargs: dict[str, Any]) -> None:
    if kwargs.get("out") is not None:
        raise RuntimeError(
            f"[{name}] functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )


def carries_grad(tensor: Any) -> bool:
    """Whether a tensor's dtype can hold gradients: floating point or complex (as in torch)."""
    return bool(tensor.is_floating_point() or tensor.is_complex())


def _make_leaf(name: str, result: Any) -> Any:
    if not carries_grad(result):
        raise RuntimeError(
            f"[{name}] only Tensors of floating point and complex dtype can require gradients, "
            f"got {result.dtype}"
        )
    result._set_requires_grad(True)
    return result


def record(name: str, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Runs the op ``func`` and, when a gradient can flow through it, records its node."""
    rule = RULES.get(name)
    if rule is None or not _is_grad_enabled():
        return _record_unruled(name, func, args, kwargs)
    values = rule.bind(args, kwargs) if kwargs or rule.var_positional is not None else None
    if values is None:
        values = list(args)
        if len(values) < len(rule.defaults):
            values += rule.defaults[len(values) :]
    elif kwargs.get("out") is not None:
        raise RuntimeError(
            f"[{rule.name}] functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )

    edges: list[Edge | None] = []
    input_meta: list[tuple[tuple[int, ...], Any] | None] = []
    needed = False
    list_params = rule.list_params
    # NOTE: _add_edge inlined for single tensors: this loop runs for every recorded op.
    for position, _ in rule.formulas:
        value = values[position]
        if list_params and position in list_params:
            for item in value:
                needed |= _add_edge(item, edges, input_meta)
        elif isinstance(value, _TensorBase) and _requires_grad(value):
            tensor: Any = value
            edge_meta: AutogradMeta | None = tensor._autograd_meta
            if edge_meta is not None and edge_meta.grad_fn is not None:
                edges.append((edge_meta.grad_fn, edge_meta.output_nr))
            else:
                if edge_meta is None:
                    edge_meta = AutogradMeta()
                    tensor._autograd_meta = edge_meta
                edges.append((grad_accumulator(tensor, edge_meta), 0))
            input_meta.append((tensor._sizes, tensor.dtype))
            needed = True
        else:
            edges.append(None)
            input_meta.append(None)
    if not needed:
        return func(*args, **kwargs)

    self_tensor = values[0]
    inplace = name in INPLACE
    untracked_base = None
    if inplace:
        _check_inplace(rule.name, self_tensor)
        untracked_base = _untracked_view_base(rule.name, self_tensor)
        if 0 in rule.saved_params:
            # The formula needs the value before the write. The clone is itself recorded, so
            # gradients of gradients still see how the old value depended on the inputs.
            values[0] = self_tensor.clone()

    saved_versions: list[tuple[Any, int]] = []
    for position in rule.saved_params:
        value = values[position]
        if isinstance(value, _TensorBase):
            saved_versions.append((value, value._version))
    values_before = list(values) if list_params else values
    extra: Any = rule.no_extra  # None for every _shape and _geometry field
    if rule.shape_params or rule.geometry_params:
        extra = list(extra)
        for position in rule.shape_params:
            value = values[position]
            if isinstance(value, (list, tuple)):
                # A non-tensor item is a bad argument: the op itself raises its TypeError below.
                extra[position] = [v._sizes if is_tensor(v) else None for v in value]
            elif is_tensor(value):
                extra[position] = value._sizes
        for position in rule.geometry_params:
            value = self_tensor if inplace and position == 0 else values[position]
            if is_tensor(value):
                geometry = (value._sizes, value.stride(), value.storage_offset())
                extra[len(rule.params) + position] = geometry
    for position in rule.unsaved_params:
        values[position] = None  # not needed by the formulas: don't keep it alive

    result = func(*args, **kwargs)
    if result is self_tensor and not inplace:
        return result  # contiguous(), float(), to(): returned the input itself, nothing to record

    node = RuleNode(rule, tuple(edges), input_meta, saved_versions)
    if list_params:
        node.list_counts = {p: len(values_before[p]) for p in rule.list_params}
    if _anomaly.enabled:
        import traceback  # anomaly mode only: not at import time

        node.metadata["traceback_"] = traceback.format_stack()[:-2]
    target = self_tensor if inplace else result
    saved_result: Any = None
    if type(target) is Tensor:
        if inplace:
            _attach_output(node, rule, target, 0, self_tensor, inplace)
        elif target.is_floating_point() or target.is_complex():  # _attach_output, inlined
            out_meta = AutogradMeta(node, 0)
            if rule.is_view is not False:
                out_meta.view_base = _view_source(rule, target, self_tensor)
            target._autograd_meta = out_meta
            target._set_requires_grad(True)
        meta: Any = target._autograd_meta
        # An integer or bool destination carries no gradient (int_tensor.fill_(float_leaf)):
        # _attach_output left it without history.
        if inplace and meta is not None:
            if meta.view_base is None:
                meta.view_base = untracked_base
            if meta.view_base is not None:
                rebase_history(target, meta, node)
        if rule.saves_result:
            saved_result = _raw_detach(target)
            saved_versions.append((saved_result, saved_result._version))
    else:
        outputs = _attach_outputs(node, rule, target, self_tensor, args)
        if rule.saves_result:
            saved_result = tuple(_raw_detach(o) if is_tensor(o) else o for o in outputs)
            for o in saved_result:
                if is_tensor(o):
                    saved_versions.append((o, o._version))
    values += extra
    values.append(saved_result)
    namespace = rule._namespace
    node.args = _tuple_new(rule.namespace if namespace is None else namespace, values)
    return result


def _add_edge(
    value: Any, edges: list[Edge | None], input_meta: list[tuple[tuple[int, ...], Any] | None]
) -> bool:
    if is_tensor(value) and _requires_grad(value):
        meta = value._autograd_meta
        if meta is None:
            meta = AutogradMeta()
            value._autograd_meta = meta
            edges.append((grad_accumulator(value, meta), 0))
        elif meta.grad_fn is None:
            edges.append((grad_accumulator(value, meta), 0))
        else:
            edges.append((meta.grad_fn, meta.output_nr))
        input_meta.append((value._sizes, value.dtype))
        return True
    edges.append(None)
    input_meta.append(None)
    return False


def _record_unruled(name: str, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if name in FACTORIES and kwargs.get("requires_grad") is True:
        kwargs = dict(kwargs, requires_grad=False)
        return _make_leaf(name, func(*args, **kwargs))
    if _is_grad_enabled() and name in MISSING:
        raise NotImplementedError(
            f"[{name.removeprefix('Tensor.')}] ember.autograd has no derivative for this op "
            "yet; call it on detach()ed tensors or inside ember.no_grad() (listed as missing "
            "in docs/autograd.md)"
        )
    return func(*args, **kwargs)


def _check_inplace(name: str, tensor: Any) -> None:
    meta: AutogradMeta | None = tensor._autograd_meta
    if not tensor.requires_grad:
        return
    if meta is None or meta.grad_fn is None:
        raise RuntimeError(
            f"[{name}] a leaf Variable that requires grad is being used in an in-place operation."
        )
    if meta.view_base is not None:
        base_meta: AutogradMeta | None = meta.view_base._autograd_meta
        if base_meta is None or base_meta.grad_fn is None:
            raise _leaf_view_error(name)


def _leaf_view_error(name: str) -> RuntimeError:
    return RuntimeError(
        f"[{name}] a view of a leaf Variable that requires grad is being used in an in-place "
        "operation."
    )


def _untracked_view_base(name: str, tensor: Any) -> Any:
    """The base of a view autograd did not record (its base did not require grad when it was
    made), which an in-place write of a gradient-carrying value must give a history too; None
    for a tensor that is not such a view."""
    meta: AutogradMeta | None = tensor._autograd_meta
    if meta is not None and meta.view_base is not None:
        return None
    base = tensor._view_base
    if base is None or not base.requires_grad:
        return base
    # The base requires grad now but the view was not recorded: torch refuses both cases.
    base_meta: AutogradMeta | None = base._autograd_meta
    if base_meta is None or base_meta.grad_fn is None:
        raise _leaf_view_error(name)
    raise RuntimeError(
        f"[{name}] a view was created in no_grad mode and is being modified inplace with grad "
        "mode enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
        "You can clarify your code by moving both the view and the inplace either both inside "
        "the no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
        "want the inplace to be tracked)."
    )


def _view_source(rule: Rule, out: Any, source: Any) -> Any:
    """The base ``out`` is a view of, or None: view=None rules ask the storage (basic indexing
    gives a view, advanced indexing a copy), and sequence inputs (atleast_1d(x, y)) are searched
    for the tensor each output views."""
    if isinstance(source, (list, tuple)):
        for item in source:
            if is_tensor(item) and out._is_view_of(item):
                return _view_base(item)
        return None
    if rule.is_view is True or out._is_view_of(source):
        return _view_base(source)
    return None


def _view_base(source: Any) -> Any:
    meta = source._autograd_meta
    if meta is not None and meta.view_base is not None:
        return meta.view_base
    return source


def _attach_output(
    node: RuleNode, rule: Rule, out: Any, nr: int, source: Any, inplace: bool
) -> None:
    """Makes ``out`` require grad with ``node`` as its grad_fn."""
    if not carries_grad(out):
        return
    if inplace:
        meta = ensure_meta(out)
        meta.grad_fn = node
        meta.output_nr = nr
    else:
        meta = AutogradMeta(node, nr)
        if rule.is_view is not False:
            meta.view_base = _view_source(rule, out, source)
        out._autograd_meta = meta
    out._set_requires_grad(True)


def _attach_outputs(
    node: RuleNode, rule: Rule, result: Any, source: Any, args: tuple[Any, ...]
) -> list[Any]:
    """The multi-output case (max(dim), sort, split, unbind, ...)."""
    outputs = list(result)
    # atleast_1d(x, y) returns x itself when it is already 1-D: such outputs keep their history.
    passed = {id(a) for a in args}
    for a in args:
        if isinstance(a, (list, tuple)):
            passed.update(id(item) for item in a)
    chosen = rule.differentiable_outputs
    node.outputs = len(outputs)
    node.output_meta = []
    for nr, out in enumerate(outputs):
        if not is_tensor(out):
            node.output_meta.append(((), None))
            continue
        node.output_meta.append((out._sizes, out.dtype))
        if id(out) in passed:
            continue
        if chosen is None or nr in chosen:
            _attach_output(node, rule, out, nr, source, False)
    return outputs
