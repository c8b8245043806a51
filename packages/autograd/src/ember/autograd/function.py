"""Custom differentiable operations: ``ember.autograd.Function`` with torch's semantics.

A subclass writes ``forward`` and ``backward`` as static methods; ``MyFn.apply(*args)`` runs
``forward`` with grad disabled and, when an input requires grad, records one node of the class
``MyFnBackward``. As in torch, that node *is* the ``ctx`` object ``forward`` received, so
everything stored on ``ctx`` is readable from ``output.grad_fn``.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import ember
from ember._grad_mode import no_grad
from ember.autograd import _anomaly
from ember.autograd._record import (
    _RELEASED_MESSAGE,
    _check_inplace,
    _raw_detach,
    _requires_grad,
    _sum_to,
    _view_base,
    carries_grad,
)
from ember.autograd._views import rebase_history
from ember.autograd.graph import AutogradMeta, Edge, Node, gradient_edge, is_tensor
from ember_core import _C

__all__ = [
    "BackwardCFunction",
    "Function",
    "FunctionCtx",
    "FunctionMeta",
    "once_differentiable",
]

_F = TypeVar("_F", bound=Callable[..., Any])


class FunctionCtx:
    """The ``ctx`` argument of ``forward``/``setup_context``/``backward``.

    Besides the methods below, any attribute may be stored on it (``ctx.k = k``) for backward.
    """

    to_save: tuple[Any, ...] = ()
    dirty_tensors: tuple[Any, ...] = ()
    non_differentiable: tuple[Any, ...] = ()
    materialize_grads = True

    def save_for_backward(self, *tensors: Any) -> None:
        """Saves tensors (or None) for ``backward``, which reads them as ``ctx.saved_tensors``.

        Saved tensors are checked on unpacking: modifying one in place after saving it makes
        ``saved_tensors`` raise, and after a backward without ``retain_graph`` they are freed.

        Example:
            >>> class Square(ember.autograd.Function):
            ...     @staticmethod
            ...     def forward(ctx, x):
            ...         ctx.save_for_backward(x)
            ...         return x * x
            ...     @staticmethod
            ...     def backward(ctx, g):
            ...         (x,) = ctx.saved_tensors
            ...         return 2 * x * g
        """
        for i, tensor in enumerate(tensors):
            if tensor is not None and not is_tensor(tensor):
                raise TypeError(
                    f"[save_for_backward] save_for_backward can only save variables, but "
                    f"argument {i} is of type {type(tensor).__name__}"
                )
        self.to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        """Forward-mode AD (``jvp``) does not exist in ember yet."""
        raise NotImplementedError(
            "[save_for_forward] ember.autograd has no forward-mode AD; custom Function jvp is "
            "not supported"
        )

    def mark_dirty(self, *tensors: Any) -> None:
        """Marks inputs that ``forward`` modified in place; they must be returned as outputs.

        Example:
            >>> class Double_(ember.autograd.Function):
            ...     @staticmethod
            ...     def forward(ctx, x):
            ...         x.mul_(2)
            ...         ctx.mark_dirty(x)
            ...         return x
            ...     @staticmethod
            ...     def backward(ctx, g):
            ...         return 2 * g
        """
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        """Marks outputs that get no gradient (e.g. indices): they will not require grad.

        ``backward`` still receives a gradient slot for them (zeros, or None when
        ``set_materialize_grads(False)``).

        Example:
            >>> class SortValues(ember.autograd.Function):
            ...     @staticmethod
            ...     def forward(ctx, x):
            ...         values, indices = x.sort()
            ...         ctx.mark_non_differentiable(indices)
            ...         ctx.save_for_backward(indices)
            ...         return values, indices
            ...     @staticmethod
            ...     def backward(ctx, g, _g_indices):
            ...         (indices,) = ctx.saved_tensors
            ...         return ember.zeros_like(g).scatter(0, indices, g)
        """
        self.non_differentiable = tuple(self.non_differentiable) + tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, ``backward`` receives None (not zeros) for outputs that got no gradient.

        Example:
            >>> class Identity(ember.autograd.Function):
            ...     @staticmethod
            ...     def forward(ctx, x):
            ...         ctx.set_materialize_grads(False)
            ...         return x.clone()
            ...     @staticmethod
            ...     def backward(ctx, g):
            ...         return g  # may be None
        """
        if not isinstance(value, bool):
            raise TypeError(
                f"[set_materialize_grads] value must be a bool, got {type(value).__name__}"
            )
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The node recorded by ``Function.apply``; each Function subclass gets its own subclass.

    It holds what backward needs: which forward inputs were tensors (and their shapes and
    dtypes), the outputs' shapes and dtypes (to materialize missing gradients) and the saved
    tensors with their versions.
    """

    _forward_cls: type[Function]
    needs_input_grad: tuple[bool, ...] = ()
    # Per forward input: (shape, dtype) of a tensor input, None for anything else.
    _input_meta: tuple[tuple[tuple[int, ...], Any] | None, ...] = ()
    # Per forward output: (shape, dtype) of a tensor output, None for anything else.
    _output_meta: tuple[tuple[tuple[int, ...], Any] | None, ...] = ()
    # Per saved slot: (tensor, version at save time, output number or -1 for a non-output).
    _saved: list[tuple[Any, int, int]] | None = None
    _released = False

    def __init__(self) -> None:
        super().__init__(())

    @property
    def num_outputs(self) -> int:
        return len(self._output_meta)

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        """The tensors given to ``save_for_backward``, checked against in-place modification."""
        if self._released:
            raise RuntimeError(
                _RELEASED_MESSAGE.replace("[backward]", f"[{self._forward_cls.__name__}]")
            )
        if self._saved is None:  # still inside forward: nothing is packed yet
            return tuple(self.to_save)
        return tuple(self._unpack(entry) for entry in self._saved)

    def _unpack(self, entry: tuple[Any, int, int]) -> Any:
        tensor, version, output_nr = entry
        if tensor is None:
            return None
        if tensor._version != version:
            raise RuntimeError(
                f"[{self._forward_cls.__name__}] one of the variables needed for gradient "
                f"computation has been modified by an inplace operation: [{tensor.type()} "
                f"{list(tensor.shape)}], {self._describe(tensor, output_nr)}is at version "
                f"{tensor._version}; expected version {version} instead. Hint: clone() the "
                "tensor before modifying it in place."
            )
        if output_nr < 0 or not carries_grad(tensor):
            return tensor
        # NOTE: outputs are saved detached (an output holding its own grad_fn would be a cycle
        # through the native object); unpacking connects a fresh alias to this node again.
        alias = _raw_detach(tensor)
        alias._autograd_meta = AutogradMeta(self, output_nr)
        alias._set_requires_grad(True)
        return alias

    def _describe(self, tensor: Any, output_nr: int) -> str:
        """Where a saved tensor came from, for the in-place modification error."""
        if output_nr >= 0:
            return f"which is output {output_nr} of {self._forward_cls.__name__}, "
        meta: AutogradMeta | None = tensor._autograd_meta
        if meta is None or meta.grad_fn is None:
            return ""
        return f"which is output {meta.output_nr} of {meta.grad_fn.name()}, "

    def release(self) -> None:
        if self._saved:
            self._saved = []
            self._released = True

    def apply(self, grads: list[Any]) -> list[Any]:
        cls = self._forward_cls
        grad_outputs = []
        for grad, meta in zip(grads, self._output_meta, strict=True):
            if grad is None and meta is not None and self.materialize_grads:
                grad = ember.zeros(meta[0], dtype=meta[1])
            grad_outputs.append(grad)
        result = cls._backward_fn()(self, *grad_outputs)
        return self._check_grads(result if isinstance(result, tuple) else (result,))

    def _check_grads(self, result: tuple[Any, ...]) -> list[Any]:
        """Backward's result (one per forward input) -> one gradient per tensor input."""
        name = self.name()
        prefix = f"[{self._forward_cls.__name__}]"
        expected = len(self._input_meta)
        if len(result) > expected and all(g is None for g in result[expected:]):
            result = result[:expected]
        if len(result) != expected:
            raise RuntimeError(
                f"{prefix} function {name} returned an incorrect number of gradients "
                f"(expected {expected}, got {len(result)})"
            )
        out: list[Any] = []
        for position, (grad, meta) in enumerate(zip(result, self._input_meta, strict=True)):
            if meta is None:
                if grad is not None:
                    raise RuntimeError(
                        f"{prefix} function {name} returned a gradient different than None at "
                        f"position {position + 1}, but the corresponding forward input was not "
                        "a Variable"
                    )
                continue
            if grad is not None and not is_tensor(grad):
                raise RuntimeError(
                    f"{prefix} function {name} returned a gradient that is not a Tensor or "
                    f"None at position {position + 1}: expected Variable or None (got "
                    f"{type(grad).__name__})"
                )
            if grad is None or not self.needs_input_grad[position]:
                out.append(None)
                continue
            out.append(self._fit_grad(grad, meta, len(out)))
        return out

    def _fit_grad(self, grad: Any, meta: tuple[tuple[int, ...], Any], index: int) -> Any:
        """Sums a broadcast gradient down to the input's shape and casts it to its dtype."""
        shape, dtype = meta
        if tuple(grad.shape) != shape:
            if not _expandable(shape, tuple(grad.shape)):
                raise RuntimeError(
                    f"[{self._forward_cls.__name__}] Function {self.name()} returned an invalid "
                    f"gradient at index {index} - got {list(grad.shape)} but expected shape "
                    f"compatible with {list(shape)}"
                )
            grad = _sum_to(grad, shape)
        if grad.dtype != dtype:
            grad = grad.to(dtype)
        return grad


def _expandable(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether ``shape`` broadcasts to ``target`` (so a gradient of ``target`` sums back)."""
    if len(shape) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(reversed(shape), reversed(target), strict=False))


class FunctionMeta(type):
    """Gives every Function subclass its node class, ``<ClassName>Backward``."""

    def __init__(cls, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> None:
        backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        backward_cls.__module__ = __name__
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
    """Base class of custom differentiable operations (torch.autograd.Function).

    Subclasses define static ``forward`` and ``backward`` and are called through ``apply``.
    ``forward(ctx, *args)`` computes the outputs (with grad disabled); alternatively
    ``forward(*args)`` plus ``setup_context(ctx, inputs, output)`` split computing from saving.
    ``backward(ctx, *grad_outputs)`` returns one gradient (or None) per forward input.

    Example:
        >>> class Exp(ember.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         y = x.exp()
        ...         ctx.save_for_backward(y)
        ...         return y
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         (y,) = ctx.saved_tensors
        ...         return g * y
        >>> x = ember.zeros(2, requires_grad=True)
        >>> Exp.apply(x).sum().backward()
        >>> x.grad
        tensor([1., 1.])
    """

    _backward_cls: type[BackwardCFunction]
    # torch's vmap support flag; ember has no vmap, the attribute exists for compatibility.
    generate_vmap_rule = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn(
            f"{type(self)} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"[{type(self).__name__}] Legacy autograd function with non-static forward method "
            "is not supported. Use a static forward method and call it with "
            f"{type(self).__name__}.apply(...)."
        )

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        """Computes the outputs; override it (``forward(ctx, ...)`` or with setup_context)."""
        raise NotImplementedError(
            "[Function] You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        """Saves what backward needs when ``forward`` does not take a ``ctx``; optional."""
        raise NotImplementedError("[Function] setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        """Gradients of the inputs from those of the outputs; override it (or ``vjp``)."""
        raise NotImplementedError(
            "[Function] You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        """Forward-mode derivative; ember has no forward-mode AD."""
        raise NotImplementedError(
            "[Function] ember.autograd has no forward-mode AD, so custom Function jvp is not "
            "supported"
        )

    @staticmethod
    def vmap(info: Any, in_dims: Any, *args: Any) -> Any:
        """Batching rule; ember has no vmap."""
        raise NotImplementedError("[Function] ember has no vmap; Function.vmap is not supported")

    @classmethod
    def _backward_fn(cls) -> Callable[..., Any]:
        backward = cls.backward
        vjp = cls.vjp
        overrides_backward = backward is not Function.backward
        overrides_vjp = vjp is not Function.vjp
        if overrides_backward and overrides_vjp:
            raise RuntimeError(
                f"[{cls.__name__}] Implementing both 'backward' and 'vjp' for a custom Function "
                "is not allowed. You should only implement one of them."
            )
        return vjp if overrides_vjp else backward

    @classmethod
    def _uses_setup_context(cls) -> bool:
        return cls.setup_context is not Function.setup_context

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Runs ``forward`` on the arguments and records ``backward`` for the tensors it returns.

        Tensor arguments (positional or keyword) get gradients; anything else is passed through.

        Example:
            >>> class Scale(ember.autograd.Function):
            ...     @staticmethod
            ...     def forward(ctx, x, k):
            ...         ctx.k = k
            ...         return x * k
            ...     @staticmethod
            ...     def backward(ctx, g):
            ...         return g * ctx.k, None
            >>> x = ember.ones(2, requires_grad=True)
            >>> Scale.apply(x, 3.0).grad_fn.name()
            'ScaleBackward'
        """
        if cls is Function:
            raise RuntimeError(
                "[Function] Function.apply must be called on a subclass that defines forward "
                "and backward"
            )
        setup_style = cls._uses_setup_context()
        if setup_style:
            import inspect  # here, not at module level: it keeps inspect out of `import ember`

            try:
                bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            except TypeError as error:
                raise TypeError(f"[{cls.__name__}] {error}") from None
            bound.apply_defaults()
            args, kwargs = bound.args, bound.kwargs
        inputs = (*args, *kwargs.values())
        ctx = cls._backward_cls()
        grad_enabled = _C.is_grad_enabled()
        needs = tuple(grad_enabled and is_tensor(x) and _requires_grad(x) for x in inputs)
        ctx.needs_input_grad = needs
        # The grad-mode flag is set directly (not `with no_grad()`): apply is on the hot path.
        _C._set_grad_enabled(False)
        try:
            if setup_style:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        finally:
            _C._set_grad_enabled(grad_enabled)
        return _wrap_outputs(cls, ctx, inputs, output, any(needs))


def _wrap_outputs(
    cls: type[Function], ctx: BackwardCFunction, inputs: tuple[Any, ...], output: Any, record: bool
) -> Any:
    """Connects forward's outputs to the node ``ctx`` (when ``record``) and packs saved tensors."""
    name = cls.__name__
    is_tuple = isinstance(output, tuple)
    raw = tuple(output) if is_tuple else (output,)
    input_ids = {id(x) for x in inputs if is_tensor(x)}
    dirty = {id(t) for t in ctx.dirty_tensors}
    non_diff = {id(t) for t in ctx.non_differentiable}
    if dirty and not dirty <= {id(o) for o in raw if is_tensor(o)}:
        raise RuntimeError(
            f"[{name}] Some elements marked as dirty during the forward method were not "
            "returned as output. The inputs that are modified inplace must all be outputs of "
            "the Function."
        )
    if record:
        edges: list[Edge | None] = []
        input_meta: list[tuple[tuple[int, ...], Any] | None] = []
        for x in inputs:
            if is_tensor(x):
                edges.append(gradient_edge(x) if x.requires_grad else None)
                input_meta.append((tuple(x.shape), x.dtype))
            else:
                input_meta.append(None)
        ctx.next_functions = tuple(edges)
        ctx._input_meta = tuple(input_meta)
        if _anomaly.enabled:
            import traceback  # anomaly mode only: kept out of `import ember`

            ctx.metadata["traceback_"] = traceback.format_stack()[:-2]
    outputs: list[Any] = []
    output_meta: list[tuple[tuple[int, ...], Any] | None] = []
    for nr, out in enumerate(raw):
        if not is_tensor(out):
            outputs.append(out)
            output_meta.append(None)
            continue
        output_meta.append((tuple(out.shape), out.dtype))
        outputs.append(_wrap_one(ctx, name, nr, out, inputs, input_ids, dirty, non_diff, record))
    ctx._output_meta = tuple(output_meta)
    if record:
        for out in outputs:
            meta = out._autograd_meta if is_tensor(out) and id(out) in dirty else None
            if meta is not None and meta.grad_fn is ctx and meta.view_base is not None:
                _rebase_dirty_view(name, ctx, out, meta, inputs)
        ctx._saved = _pack_saved(ctx, raw, outputs)
    return tuple(outputs) if is_tuple else outputs[0]


def _rebase_dirty_view(
    name: str, ctx: BackwardCFunction, view: Any, meta: AutogradMeta, inputs: tuple[Any, ...]
) -> None:
    """A dirty input that is a view: its base records the write, as for built-in in-place ops."""
    first_tensor = next(x for x in inputs if is_tensor(x))
    # NOTE: CopySlices feeds the node one gradient and reads back that of its first input.
    if first_tensor is not view or ctx.num_outputs != 1:
        raise NotImplementedError(
            f"[{name}] mark_dirty on a view of a tensor that requires grad is supported only "
            "when the view is the first tensor input and the only output; clone() the view "
            "first"
        )
    rebase_history(view, meta, ctx)


def _wrap_one(
    ctx: BackwardCFunction,
    name: str,
    nr: int,
    out: Any,
    inputs: tuple[Any, ...],
    input_ids: set[int],
    dirty: set[int],
    non_diff: set[int],
    record: bool,
) -> Any:
    """One tensor output: rebased (dirty input), aliased (returned input) or newly attached."""
    is_input = id(out) in input_ids
    is_dirty = id(out) in dirty
    differentiable = record and id(out) not in non_diff and carries_grad(out)
    if is_dirty:
        if record:
            _check_inplace(name, out)
        if not differentiable:
            return out
        meta: AutogradMeta | None = out._autograd_meta
        if meta is None:
            meta = AutogradMeta()
            out._autograd_meta = meta
        meta.grad_fn = ctx
        meta.output_nr = nr
        out._set_requires_grad(True)
        return out
    if is_input:
        # An input returned unchanged comes back as a new view of it, as in torch.
        alias = _raw_detach(out)
        if not differentiable:
            return alias
        meta = AutogradMeta(ctx, nr)
        if out.requires_grad:
            meta.view_base = _view_base(out)
        alias._autograd_meta = meta
        alias._set_requires_grad(True)
        return alias
    if not differentiable:
        return out
    meta = AutogradMeta(ctx, nr)
    for x in inputs:
        if is_tensor(x) and x.requires_grad and out._is_view_of(x):
            meta.view_base = _view_base(x)  # forward returned a view of an input
            break
    out._autograd_meta = meta
    out._set_requires_grad(True)
    return out


def _pack_saved(
    ctx: BackwardCFunction, raw: tuple[Any, ...], outputs: list[Any]
) -> list[tuple[Any, int, int]]:
    """Saved tensors with their versions; outputs are kept detached, with their number."""
    output_nr = {id(o): nr for nr, o in enumerate(raw) if is_tensor(o)}
    saved: list[tuple[Any, int, int]] = []
    for tensor in ctx.to_save:
        if tensor is None:
            saved.append((None, 0, -1))
            continue
        nr = output_nr.get(id(tensor), -1)
        if nr >= 0 and outputs[nr].requires_grad:
            kept = _raw_detach(outputs[nr])
            saved.append((kept, kept._version, nr))
        else:
            saved.append((tensor, tensor._version, -1))
    ctx.to_save = ()  # the packed copies above are what backward reads
    return saved


class DelayedError(Node):
    """Stands behind the results of a ``once_differentiable`` backward: differentiating raises."""

    def __init__(self, message: str, num_outputs: int) -> None:
        super().__init__(())
        self.message = message
        self._num_outputs = num_outputs

    @property
    def num_outputs(self) -> int:
        return self._num_outputs

    def apply(self, grads: list[Any]) -> list[Any]:
        raise RuntimeError(self.message)


def once_differentiable(fn: _F) -> _F:
    """Decorates a ``backward`` that is not itself differentiable (runs it under no_grad).

    With ``create_graph=True`` its results still require grad, but differentiating them again
    raises instead of silently returning wrong higher-order gradients.

    Example:
        >>> from ember.autograd.function import once_differentiable
        >>> class Cube(ember.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x ** 3
        ...     @staticmethod
        ...     @once_differentiable
        ...     def backward(ctx, g):
        ...         (x,) = ctx.saved_tensors
        ...         return 3 * x ** 2 * g
    """

    @functools.wraps(fn)
    def wrapper(ctx: Any, *args: Any) -> Any:
        with no_grad():
            outputs = fn(ctx, *args)
        if not _C.is_grad_enabled():
            return outputs
        if not any(is_tensor(a) and a.requires_grad for a in args):
            return outputs
        name = getattr(ctx, "_forward_cls", type(ctx)).__name__
        results = outputs if isinstance(outputs, tuple) else (outputs,)
        error = DelayedError(
            f"[{name}] trying to differentiate twice a function that was marked with "
            "@once_differentiable",
            len(results),
        )
        wrapped = []
        for nr, result in enumerate(results):
            if is_tensor(result) and carries_grad(result):
                result = _raw_detach(result)
                result._autograd_meta = AutogradMeta(error, nr)
                result._set_requires_grad(True)
            wrapped.append(result)
        return tuple(wrapped) if isinstance(outputs, tuple) else wrapped[0]

    return wrapper  # type: ignore[return-value]
