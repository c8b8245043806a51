"""Activation checkpointing (torch.utils.checkpoint): trade compute for memory.

``checkpoint(fn, *args)`` runs ``fn`` without recording its graph (its intermediate activations
are freed at once), keeps only the inputs, and in backward re-runs ``fn`` with grad enabled,
replaying the same random numbers (the global RNG state is saved and restored around the
recomputation), then back-propagates through the recomputed graph.

Both ``use_reentrant`` modes recompute inside an ``ember.autograd.Function``'s backward. With
``use_reentrant=False`` a hidden leaf joins the Function's inputs, so the output requires grad
whenever grad is enabled even if no input does (parameters used inside still get gradients),
keyword arguments are accepted and ``context_fn`` is honoured. Gradients of tensors used inside
``fn`` but not passed as arguments (a module's parameters, closures) are accumulated into their
``.grad`` by the inner backward, as torch's reentrant variant does: use ``loss.backward()``
rather than ``ember.autograd.grad`` through a checkpoint for those.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import ember
from ember._grad_mode import enable_grad, no_grad
from ember._tensor import Tensor
from ember.autograd import Function
from ember.autograd import backward as _backward
from ember.nn.modules.container import Sequential

__all__ = [
    "CheckpointError",
    "check_backward_validity",
    "checkpoint",
    "checkpoint_sequential",
    "detach_variable",
    "get_device_states",
    "noop_context_fn",
    "set_checkpoint_debug_enabled",
    "set_device_states",
]

_debug_enabled: bool | None = None


class CheckpointError(RuntimeError):
    """Raised when the recomputation does not reproduce the forward pass."""


def noop_context_fn() -> tuple[Any, Any]:
    """The default ``context_fn``: two do-nothing context managers."""
    return contextlib.nullcontext(), contextlib.nullcontext()


@contextlib.contextmanager
def set_checkpoint_debug_enabled(enabled: bool | None) -> Iterator[None]:
    """Context manager accepted for torch compatibility (ember's checkpoint has no debug trace).

    Example:
        >>> with ember.utils.checkpoint.set_checkpoint_debug_enabled(True):
        ...     pass
    """
    global _debug_enabled
    previous = _debug_enabled
    _debug_enabled = enabled
    try:
        yield
    finally:
        _debug_enabled = previous


def detach_variable(inputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """Detached copies of the tensors in ``inputs`` that keep their ``requires_grad`` flag.

    Example:
        >>> x = ember.ones(1, requires_grad=True)
        >>> y, = ember.utils.checkpoint.detach_variable((x,))
        >>> y.requires_grad, y.is_leaf
        (True, True)
    """
    if not isinstance(inputs, tuple):
        raise RuntimeError(
            "Only tuple of tensors is supported. Got Unsupported input type: "
            + type(inputs).__name__
        )
    out = []
    for inp in inputs:
        if not isinstance(inp, Tensor):
            out.append(inp)
            continue
        x = inp.detach()
        x.requires_grad_(inp.requires_grad)
        out.append(x)
    return tuple(out)


def check_backward_validity(inputs: Iterable[Any]) -> None:
    """Warns when no tensor input requires grad (the checkpointed output would not either).

    Example:
        >>> ember.utils.checkpoint.check_backward_validity([ember.ones(1, requires_grad=True)])
    """
    if not any(isinstance(i, Tensor) and i.requires_grad for i in inputs):
        warnings.warn(
            "None of the inputs have requires_grad=True. Gradients will be None", stacklevel=2
        )


def get_device_states(*args: Any) -> tuple[list[int], list[Any]]:
    """The RNG states of the accelerator devices used by ``args``: none on CPU-only ember."""
    return [], []


def set_device_states(devices: list[int], states: list[Any], *, device_type: Any = None) -> None:
    """Restores accelerator RNG states (nothing to do on CPU-only ember)."""
    if devices:
        raise RuntimeError("[set_device_states] ember has no accelerator RNG states to restore")


def _as_tuple(outputs: Any) -> tuple[Any, ...]:
    return outputs if isinstance(outputs, tuple) else (outputs,)


def _signature(outputs: tuple[Any, ...]) -> list[Any]:
    return [(tuple(_any(o).shape), o.dtype) if isinstance(o, Tensor) else type(o) for o in outputs]


def _any(t: object) -> Any:
    return t


class _Checkpoint(Function):
    # forward(ctx, state, dummy, *args): state carries the function, kwargs and RNG snapshot.
    @staticmethod
    def forward(ctx: Any, state: dict[str, Any], dummy: Any, *args: Any) -> Any:
        ctx.state = state
        if state["preserve"]:
            state["rng"] = ember.get_rng_state()
        tensor_idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.tensor_idx = tensor_idx
        ctx.others = [None if i in tensor_idx else a for i, a in enumerate(args)]
        ctx.save_for_backward(*(args[i] for i in tensor_idx))
        with no_grad(), state["forward_ctx"]:
            outputs = state["function"](*args, **state["kwargs"])
        state["signature"] = _signature(_as_tuple(outputs))
        state["single"] = not isinstance(outputs, tuple)
        return outputs

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        state = ctx.state
        saved = ctx.saved_tensors
        args = list(ctx.others)
        for i, t in zip(ctx.tensor_idx, saved, strict=True):
            args[i] = t
        detached = detach_variable(tuple(args))
        current_rng = ember.get_rng_state() if state["preserve"] else None
        try:
            if state["preserve"]:
                ember.set_rng_state(state["rng"])
            with enable_grad(), state["recompute_ctx"]:
                outputs = _as_tuple(state["function"](*detached, **state["kwargs"]))
        finally:
            if current_rng is not None:
                ember.set_rng_state(current_rng)
        if state["check"] and _signature(outputs) != state["signature"]:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values have different metadata than during "
                f"the forward pass: forward {state['signature']}, recomputation "
                f"{_signature(outputs)}"
            )
        pairs = [
            (o, g)
            for o, g in zip(outputs, grads, strict=False)
            if isinstance(o, Tensor) and o.requires_grad and g is not None
        ]
        if pairs:
            _backward([o for o, _ in pairs], [g for _, g in pairs])
        arg_grads = tuple(a.grad if isinstance(a, Tensor) else None for a in detached)
        return (None, None, *arg_grads)


def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable[[], tuple[Any, Any]] = noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    **kwargs: Any,
) -> Any:
    """Runs ``function(*args, **kwargs)`` without keeping its activations; recomputes them in
    backward (with the same random numbers when ``preserve_rng_state=True``, the default).

    Example:
        >>> lin = ember.nn.Linear(4, 4)
        >>> x = ember.randn(2, 4, requires_grad=True)
        >>> y = ember.utils.checkpoint.checkpoint(lin, x, use_reentrant=False)
        >>> y.sum().backward()
        >>> x.grad.shape
        ember.Size([2, 4])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
            "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
            "exception. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}"
        )
    if use_reentrant:
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        if context_fn is not noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        check_backward_validity(args)
        forward_ctx, recompute_ctx = contextlib.nullcontext(), contextlib.nullcontext()
        dummy = None
    else:
        forward_ctx, recompute_ctx = context_fn()
        # A leaf that requires grad: the output is recorded even when no argument requires grad.
        dummy = ember.empty(0, requires_grad=True) if ember.is_grad_enabled() else None
    state = {
        "function": function,
        "kwargs": kwargs,
        "preserve": preserve,
        "forward_ctx": forward_ctx,
        "recompute_ctx": recompute_ctx,
        "check": determinism_check == "default",
    }
    return _Checkpoint.apply(state, dummy, *args)


def checkpoint_sequential(
    functions: Any, segments: int, input: Any, use_reentrant: bool | None = None, **kwargs: Any
) -> Any:
    """Runs a Sequential (or list of modules) in ``segments`` chunks, checkpointing all but the
    last.

    Example:
        >>> model = ember.nn.Sequential(*[ember.nn.Linear(3, 3) for _ in range(4)])
        >>> x = ember.randn(2, 3, requires_grad=True)
        >>> ember.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=False).shape
        ember.Size([2, 3])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should "
            "be passed explicitly. In version 2.9 we will raise an exception if use_reentrant "
            "is not passed. use_reentrant=False is recommended, but if you need to preserve the "
            "current default behavior, you can pass use_reentrant=True. Refer to docs for more "
            "details on the differences between the two variants.",
            stacklevel=2,
        )
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if isinstance(functions, Sequential):
        functions = list(functions.children())

    def run_function(start: int, end: int) -> Callable[[Any], Any]:
        def forward(x: Any) -> Any:
            for j in range(start, end + 1):
                x = functions[j](x)
            return x

        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(
            run_function(start, end),
            input,
            use_reentrant=use_reentrant,
            preserve_rng_state=preserve,
        )
    return run_function(end + 1, len(functions) - 1)(input)
