"""Derivatives of whole functions: jacobian, hessian, vjp, jvp, hvp, vhp (torch's semantics).

Each takes ``func`` and ``inputs`` (a Tensor or a tuple of Tensors) and mirrors that structure
in its result. Everything is built on reverse mode (``ember.autograd.grad``): ember has no
forward-mode AD, so ``jvp`` and ``hvp`` use the double-backward trick (the gradient of a
vector-Jacobian product with respect to the vector), as torch does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ember
from ember._grad_mode import enable_grad, set_grad_enabled
from ember.autograd._api import grad as autograd_grad
from ember.autograd.graph import is_tensor
from ember_core import _C

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]

_Func = Callable[..., Any]


def _as_tuple(value: Any, what: str, fn: str) -> tuple[bool, tuple[Any, ...]]:
    """(whether ``value`` was a tuple, ``value`` as a tuple), checking it holds only Tensors."""
    is_tuple = isinstance(value, tuple)
    items = value if is_tuple else (value,)
    for i, item in enumerate(items):
        if not is_tensor(item):
            where = f"the value at index {i}" if is_tuple else f"the given {what}"
            raise TypeError(
                f"[{fn}] The {what} given to {fn} must be either a Tensor or a tuple of Tensors "
                f"but {where} has type {type(item).__name__}."
            )
    return is_tuple, items


def _prepare(inputs: tuple[Any, ...], create_graph: bool, need_graph: bool) -> tuple[Any, ...]:
    """Fresh tensors to differentiate against, keeping the caller's graph only for create_graph."""
    return tuple(
        x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(need_graph)
        for x in inputs
    )


def _finish(values: tuple[Any, ...], create_graph: bool) -> tuple[Any, ...]:
    """Results are detached unless the caller asked to differentiate them further."""
    if create_graph:
        return values
    return tuple(_finish(v, False) if isinstance(v, tuple) else v.detach() for v in values)


def _unpack(values: tuple[Any, ...], is_tuple: bool) -> Any:
    return values if is_tuple else values[0]


def _unpack2(values: tuple[Any, ...], outer_tuple: bool, inner_tuple: bool) -> Any:
    """A tuple of tuples (outputs x inputs) reduced to what the caller's structure was."""
    if not inner_tuple:
        values = tuple(row[0] for row in values)
    return values if outer_tuple else values[0]


def _check_v(fn: str, v: tuple[Any, ...], like: tuple[Any, ...], like_is_tuple: bool) -> None:
    if len(v) != len(like):
        if like_is_tuple:
            raise RuntimeError(
                f"[{fn}] v is a tuple of invalid length: should be {len(like)} but got {len(v)}."
            )
        raise RuntimeError(f"[{fn}] The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, like, strict=True)):
        if a.shape != b.shape:
            entry = f"Entry {i} in " if like_is_tuple else ""
            raise RuntimeError(
                f"[{fn}] {entry}v has invalid size: should be {list(b.shape)} but got "
                f"{list(a.shape)}."
            )


def _get_v(
    fn: str, v: Any, like: tuple[Any, ...], like_is_tuple: bool, create_graph: bool, subject: str
) -> tuple[Any, ...] | None:
    """Validates ``v`` against ``like``; None is allowed only when ``like`` is one element."""
    if v is None:
        if len(like) != 1 or like[0].numel() != 1:
            raise RuntimeError(
                f"[{fn}] The vector v can only be None if {subject} a single Tensor with a single "
                "element."
            )
        return None
    _, vs = _as_tuple(v, "v", fn)
    vs = _prepare(vs, create_graph, need_graph=False)
    _check_v(fn, vs, like, like_is_tuple)
    return vs


_OUTPUTS = "outputs of the user-provided function"


def _require_grad(fn: str, values: Sequence[Any], kind: str, strict: bool) -> None:
    """strict=True: fail when a result that should depend on the inputs does not."""
    if not strict:
        return
    for i, value in enumerate(values):
        if value is None:
            raise RuntimeError(
                f"[{fn}] The output of the user-provided function is independent of input {i}. "
                "This is not allowed in strict mode."
            )
        if value.requires_grad:
            continue
        if kind == "outputs":
            message = (
                f"Output {i} of the user-provided function does not require gradients. The "
                "outputs must be computed in a differentiable manner from the input when running "
                "in strict mode."
            )
        elif kind == "grad_inputs":
            message = (
                f"The gradient with respect to input {i} is independent of the inputs of the "
                "user-provided function. This is not allowed in strict mode."
            )
        elif kind == "jacobian":
            message = (
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode."
            )
        else:
            message = (
                f"The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode."
            )
        raise RuntimeError(f"[{fn}] {message}")


def _grad(
    outputs: Sequence[Any],
    inputs: Sequence[Any],
    grad_outputs: Sequence[Any] | None,
    create_graph: bool,
    retain_graph: bool | None = None,
) -> tuple[Any, ...]:
    """autograd.grad over the outputs that require grad; None for inputs nothing reaches."""
    seeds = grad_outputs if grad_outputs is not None else (None,) * len(outputs)
    pairs = [
        (o, s) for o, s in zip(outputs, seeds, strict=True) if o is not None and o.requires_grad
    ]
    if not pairs:
        return (None,) * len(inputs)
    return autograd_grad(
        [o for o, _ in pairs],
        list(inputs),
        [s for _, s in pairs] if grad_outputs is not None else None,
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


# How strict mode names a gradient that is None, by the stage that produced it.
_INDEPENDENT = {
    "back": "The output of the user-provided function is independent of input {i}.",
    "back_trick": (
        "The gradient with respect to the input is independent of entry {i} in the "
        "grad_outputs when using the double backward trick to compute forward mode gradients."
    ),
    "double_back": "The jacobian of the user-provided function is independent of input {i}.",
    "double_back_trick": (
        "The hessian of the user-provided function is independent of entry {i} in the "
        "grad_jacobian, which prevents using the double backward trick."
    ),
}


def _zeros_for_none(
    fn: str,
    grads: Sequence[Any],
    like: Sequence[Any],
    strict: bool,
    create_graph: bool,
    stage: str,
) -> tuple[Any, ...]:
    """Replaces missing gradients by zeros (their true value), or raises under strict."""
    result = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(
                    f"[{fn}] {_INDEPENDENT[stage].format(i=i)} This is not allowed in strict mode."
                )
            g = ember.zeros_like(like[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if stage.startswith("double") else "jacobian"
            raise RuntimeError(
                f"[{fn}] The {what} of the user-provided function is independent of input {i}. "
                "This is not allowed in strict mode when create_graph=True."
            )
        result.append(g)
    return tuple(result)


def _grad_mode_for_result(create_graph: bool) -> set_grad_enabled:
    """The last backward records a graph only when asked to (or when the caller records)."""
    return set_grad_enabled(create_graph or _C.is_grad_enabled())


def vjp(
    func: _Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """The vector-Jacobian product ``v^T J`` of ``func`` at ``inputs``.

    Args:
        func: takes the input Tensors, returns a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per output, shaped like it; may be omitted when ``func`` returns a single
            one-element Tensor.
        create_graph: make the results differentiable (for higher-order derivatives).
        strict: raise when an output does not depend on an input, instead of returning zeros.

    Returns:
        ``(func_output, vjp)``; ``vjp`` has the structure and shapes of ``inputs``.

    Example:
        >>> x = ember.tensor([1.0, 2.0])
        >>> vjp(lambda t: t * t, x, ember.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    with enable_grad():
        inputs_tuple, ins = _as_tuple(inputs, "inputs", "vjp")
        ins = _prepare(ins, create_graph, need_graph=True)
        outputs_tuple, outs = _as_tuple(func(*ins), _OUTPUTS, "vjp")
        _require_grad("vjp", outs, "outputs", strict)
        vs = _get_v(
            "vjp", v, outs, outputs_tuple, create_graph, "the user-provided function returns"
        )
    with _grad_mode_for_result(create_graph):
        grads = _grad(outs, ins, vs, create_graph)
        result = _zeros_for_none("vjp", grads, ins, strict, create_graph, "back")
    return (
        _unpack(_finish(outs, create_graph), outputs_tuple),
        _unpack(_finish(result, create_graph), inputs_tuple),
    )


def jvp(
    func: _Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """The Jacobian-vector product ``J v`` of ``func`` at ``inputs``.

    ember has no forward-mode AD: this differentiates the vector-Jacobian product with respect
    to its vector (the double-backward trick), which costs two backward passes.

    Args:
        func: takes the input Tensors, returns a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per input, shaped like it; may be omitted when ``inputs`` is a single
            one-element Tensor.
        create_graph: make the results differentiable.
        strict: raise when an output does not depend on an input, instead of returning zeros.

    Returns:
        ``(func_output, jvp)``; ``jvp`` has the structure and shapes of the outputs.

    Example:
        >>> x = ember.tensor([1.0, 2.0])
        >>> jvp(lambda t: t * t, x, ember.ones(2))
        (tensor([1., 4.]), tensor([2., 4.]))
    """
    with enable_grad():
        inputs_tuple, ins = _as_tuple(inputs, "inputs", "jvp")
        ins = _prepare(ins, create_graph, need_graph=True)
        vs = _get_v(
            "jvp", v, ins, inputs_tuple, create_graph, "the input to the user-provided function is"
        )
        outputs_tuple, outs = _as_tuple(func(*ins), _OUTPUTS, "jvp")
        _require_grad("jvp", outs, "outputs", strict)
        # u -> J^T u is linear in u; differentiating it with respect to u at any point gives J.
        dummies = tuple(ember.zeros_like(o, requires_grad=True) for o in outs)
        grad_inputs = _grad(outs, ins, dummies, create_graph=True)
        _require_grad("jvp", grad_inputs, "grad_inputs", strict)
    with _grad_mode_for_result(create_graph):
        grads = _grad(grad_inputs, dummies, vs, create_graph)
        result = _zeros_for_none("jvp", grads, outs, strict, create_graph, "back_trick")
    return (
        _unpack(_finish(outs, create_graph), outputs_tuple),
        _unpack(_finish(result, create_graph), outputs_tuple),
    )


def _check_strategy(fn: str, strategy: str, name: str) -> None:
    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError(
            f'[{fn}] Expected {name} to be either "forward-mode" or "reverse-mode", got '
            f"{strategy!r}"
        )
    if strategy == "forward-mode":
        raise NotImplementedError(
            f'[{fn}] {name}="forward-mode" needs forward-mode AD, which ember.autograd does not '
            'have yet; use "reverse-mode"'
        )


def jacobian(
    func: _Func,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of ``func`` at ``inputs``: one backward pass per output element.

    Args:
        func: takes the input Tensors, returns a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        create_graph: make the Jacobian differentiable (``hessian`` uses this).
        strict: raise when an output does not depend on an input, instead of returning zeros.
        vectorize: accepted for compatibility; ember has no vmap, so it runs the same loop
            (results are identical, only torch's speed-up is missing).
        strategy: ``"reverse-mode"``; ``"forward-mode"`` raises NotImplementedError.

    Returns:
        ``J[i][j]`` of shape ``outputs[i].shape + inputs[j].shape``: a Tensor when both
        ``inputs`` and the output are single Tensors, else (nested) tuples of them.

    Example:
        >>> jacobian(lambda t: t * t, ember.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    _check_strategy("jacobian", strategy, "strategy")
    if strict and vectorize:
        raise RuntimeError(
            "[jacobian] `strict=True` and `vectorize=True` are not supported together. Please "
            "either set `strict=False` or `vectorize=False`."
        )
    with enable_grad():
        inputs_tuple, ins = _as_tuple(inputs, "inputs", "jacobian")
        ins = _prepare(ins, create_graph, need_graph=True)
        outputs_tuple, outs = _as_tuple(func(*ins), _OUTPUTS, "jacobian")
        _require_grad("jacobian", outs, "outputs", strict)
        rows = tuple(_jacobian_of(i, out, ins, create_graph, strict) for i, out in enumerate(outs))
    return _unpack2(_finish(rows, create_graph), outputs_tuple, inputs_tuple)


def _jacobian_of(
    index: int, out: Any, ins: tuple[Any, ...], create_graph: bool, strict: bool
) -> tuple[Any, ...]:
    """d out / d ins[j] for every j, each of shape out.shape + ins[j].shape."""
    columns: list[list[Any]] = [[] for _ in ins]
    for k in range(out.numel()):
        seed = ember.zeros(out.numel(), dtype=out.dtype)
        seed[k] = 1.0
        grads = _grad((out,), ins, (seed.reshape(out.shape),), create_graph, retain_graph=True)
        for j, (g, x) in enumerate(zip(grads, ins, strict=True)):
            if g is None:
                if strict:
                    raise RuntimeError(
                        f"[jacobian] Output {index} of the user-provided function is independent "
                        f"of input {j}. This is not allowed in strict mode."
                    )
                g = ember.zeros_like(x)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(
                    f"[jacobian] The jacobian of the user-provided function is independent of "
                    f"input {index}. This is not allowed in strict mode when create_graph=True."
                )
            columns[j].append(g)
    return tuple(
        _stack(col, x).reshape((*out.shape, *x.shape)) for col, x in zip(columns, ins, strict=True)
    )


def _stack(rows: list[Any], like: Any) -> Any:
    if not rows:  # an empty output: no rows to stack
        return ember.zeros((0, *like.shape), dtype=like.dtype)
    return ember.stack(rows, 0)


def _single_scalar_output(fn: str, func: _Func, strict: bool) -> _Func:
    """Wraps ``func`` to check it returns one one-element Tensor (hessian, vhp, hvp)."""

    def checked(*args: Any) -> Any:
        out = func(*args)
        is_tuple, outs = _as_tuple(out, _OUTPUTS, fn)
        _require_grad(fn, outs, "outputs", strict)
        if is_tuple:
            raise RuntimeError(f"[{fn}] The function given to {fn} should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError(
                f"[{fn}] The Tensor returned by the function given to {fn} should contain a "
                f"single element, got shape {list(out.shape)}"
            )
        return out

    return checked


def hessian(
    func: _Func,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar function: the Jacobian of its gradient.

    Args:
        func: takes the input Tensors, returns a Tensor with a single element.
        inputs: a Tensor or a tuple of Tensors.
        create_graph: make the Hessian differentiable.
        strict: raise when the Hessian (or the gradient) does not depend on an input.
        vectorize: accepted for compatibility; runs the same loop (ember has no vmap).
        outer_jacobian_strategy: ``"reverse-mode"``; ``"forward-mode"`` raises
            NotImplementedError.

    Returns:
        ``H[i][j]`` of shape ``inputs[i].shape + inputs[j].shape``: a Tensor for a single input,
        a tuple of tuples for a tuple of inputs.

    Example:
        >>> hessian(lambda t: (t ** 3).sum(), ember.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    _check_strategy("hessian", outer_jacobian_strategy, "outer_jacobian_strategy")
    inputs_tuple, ins = _as_tuple(inputs, "inputs", "hessian")
    scalar = _single_scalar_output("hessian", func, strict)

    def gradient(*args: Any) -> Any:
        jac = jacobian(lambda *a: scalar(*a).reshape(()), args, create_graph=True)
        _require_grad("hessian", jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, ins, create_graph=create_graph, strict=strict, vectorize=vectorize)
    return _unpack2(result, inputs_tuple, inputs_tuple)


def _scalar_gradient(
    name: str, func: _Func, inputs: Any, v: Any, create_graph: bool, strict: bool
) -> tuple[Any, tuple[Any, ...], Any, tuple[Any, ...], Any]:
    """What vhp and hvp share: checked inputs and v, the scalar output and its gradient (with a
    graph, for the second differentiation). Call inside ``enable_grad()``."""
    inputs_tuple, ins = _as_tuple(inputs, "inputs", name)
    ins = _prepare(ins, create_graph, need_graph=True)
    vs = _get_v(
        name, v, ins, inputs_tuple, create_graph, "the input to the user-provided function is"
    )
    outs = (_single_scalar_output(name, func, strict)(*ins),)
    jac = _grad(outs, ins, None, create_graph=True)
    _require_grad(name, jac, "jacobian", strict)
    return inputs_tuple, ins, vs, outs, jac


def vhp(
    func: _Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """The vector-Hessian product ``v^T H`` of a scalar function at ``inputs``.

    Args:
        func: takes the input Tensors, returns a Tensor with a single element.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per input, shaped like it; may be omitted when ``inputs`` is a single
            one-element Tensor.
        create_graph: make the results differentiable.
        strict: raise when the gradient does not depend on an input, instead of zeros.

    Returns:
        ``(func_output, vhp)``; ``vhp`` has the structure and shapes of ``inputs``.

    Example:
        >>> vhp(lambda t: (t ** 3).sum(), ember.tensor([1.0, 2.0]), ember.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        inputs_tuple, ins, vs, outs, jac = _scalar_gradient(
            "vhp", func, inputs, v, create_graph, strict
        )
    with _grad_mode_for_result(create_graph):
        grads = _grad(jac, ins, vs, create_graph)
        result = _zeros_for_none("vhp", grads, ins, strict, create_graph, "double_back")
    return (
        _finish(outs, create_graph)[0],
        _unpack(_finish(result, create_graph), inputs_tuple),
    )


def hvp(
    func: _Func, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
) -> tuple[Any, Any]:
    """The Hessian-vector product ``H v`` of a scalar function at ``inputs``.

    Computed with the double-backward trick (no forward-mode AD in ember), so it costs about
    one backward pass more than ``vhp``; for a twice continuously differentiable function the
    Hessian is symmetric and ``vhp`` gives the same values faster.

    Args:
        func: takes the input Tensors, returns a Tensor with a single element.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per input, shaped like it; may be omitted when ``inputs`` is a single
            one-element Tensor.
        create_graph: make the results differentiable.
        strict: raise when the gradient does not depend on an input, instead of zeros.

    Returns:
        ``(func_output, hvp)``; ``hvp`` has the structure and shapes of ``inputs``.

    Example:
        >>> hvp(lambda t: (t ** 3).sum(), ember.tensor([1.0, 2.0]), ember.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        inputs_tuple, ins, vs, outs, jac = _scalar_gradient(
            "hvp", func, inputs, v, create_graph, strict
        )
        dummies = tuple(ember.zeros_like(x, requires_grad=True) for x in ins)
        double_back = _grad(jac, ins, dummies, create_graph=True)
        _require_grad("hvp", jac, "hessian", strict)
    with _grad_mode_for_result(create_graph):
        grads = _grad(double_back, dummies, vs, create_graph)
        result = _zeros_for_none("hvp", grads, ins, strict, create_graph, "double_back_trick")
    return (
        _finish(outs, create_graph)[0],
        _unpack(_finish(result, create_graph), inputs_tuple),
    )
