"""autocast: regions in which torch's CPU autocast ops run in bfloat16/float16 (or float32).

The casting happens in ember-core's op dispatcher (``bindings/autocast_dispatch.cpp``): this
module keeps torch's Python API (context manager, decorator, nesting, ``enabled=False``,
``cache_enabled``) and tells the dispatcher which ops follow which policy.
"""

from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import ember
import ember_core._C as _C
from ember._tensor import Tensor

from . import _op_lists, _python_ops

__all__ = [
    "autocast",
    "autocast_coverage",
    "custom_bwd",
    "custom_fwd",
    "get_autocast_dtype",
    "is_autocast_available",
    "is_autocast_enabled",
]

F = TypeVar("F", bound=Callable[..., Any])

_LOW_DTYPES = (ember.bfloat16, ember.float16)
_registered: dict[str, int] | None = None
_nesting = threading.local()  # entered CPU regions in this thread (torch's nesting counter)


def _dispatch_names() -> set[str]:
    names = {k for k, v in vars(_C).items() if type(v).__name__ == "op"}
    names |= {"Tensor." + k for k, v in vars(_C.TensorBase).items() if type(v).__name__ == "op"}
    return names


def _register_ops() -> dict[str, int]:
    """Hands the dispatcher torch's op lists, once (the ember names each torch name maps to)."""
    global _registered
    if _registered is None:
        available = _dispatch_names()
        policies: dict[str, int] = {}
        for policy, names in (
            ("lower", _op_lists.LOWER_PRECISION),
            ("fp32", _op_lists.FLOAT32),
            ("promote", _op_lists.PROMOTE),
        ):
            for name in names:
                aliases = _op_lists.EMBER_ALIASES.get(name, ())
                for candidate in (name, "_" + name, "Tensor." + name, *aliases):
                    if candidate in available:
                        policies[candidate] = _op_lists.POLICY_CODES[policy]
        _C._set_autocast_ops(policies)
        _registered = policies
        _python_ops.install()
    return _registered


def autocast_coverage() -> dict[str, list[str]]:
    """Which of torch's CPU autocast ops ember's dispatcher casts, and which it does not see.

    Returns ``{"covered": [...], "not_covered": [...]}`` (torch's op names). Ops that ember
    implements in Python over other ops (e.g. ``nn.functional.linear`` over ``matmul``) are cast
    through the ops they call when those are covered.
    """
    registered = _register_ops()
    covered_names = {n.removeprefix("Tensor.").lstrip("_") for n in registered}
    every = _op_lists.LOWER_PRECISION + _op_lists.FLOAT32 + _op_lists.PROMOTE
    # Every ember.fft transform reaches _fft_c2c/_fft_r2c/_fft_c2r.
    fft = "_fft_c2c" in registered
    aliased = {
        n for n, names in _op_lists.EMBER_ALIASES.items() if any(a in registered for a in names)
    }
    python = _python_ops.install()
    covered = sorted(
        {
            n
            for n in every
            if n.lstrip("_") in covered_names
            or (fft and n.startswith("fft_"))
            or n in aliased
            or n in python
        }
    )
    return {"covered": covered, "not_covered": sorted(set(every) - set(covered))}


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast can run on ``device_type`` (the CPU; CUDA has no ember kernels yet)."""
    return device_type == "cpu"


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type`` in this thread.

    As in torch, no argument asks about CUDA (never enabled in ember).
    """
    if device_type is None or device_type != "cpu":
        return False
    return bool(_C._get_autocast_enabled())


def get_autocast_dtype(device_type: str) -> ember.dtype:
    """The low-precision dtype autocast uses on ``device_type`` (CPU default: bfloat16)."""
    if device_type == "cpu":
        dtype: ember.dtype = _C._get_autocast_dtype()
        return dtype
    if device_type == "cuda":
        return ember.float16
    raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")


class autocast:
    """Runs matmul/conv-like ops in ``dtype`` and precision-sensitive ops in float32.

    Context manager and decorator, as ``torch.autocast``. Regions nest (an inner
    ``enabled=False`` region turns casting off); weights (leaf tensors that require grad) are
    cast once per outermost region when ``cache_enabled``.

    Args:
        device_type: ``"cpu"`` (``"cuda"`` warns and disables when CUDA is absent).
        dtype: ``ember.bfloat16`` (CPU default) or ``ember.float16``.
        enabled: whether casting is on inside the region.
        cache_enabled: whether weight casts are cached (default True).

    Example:
        >>> a, b = ember.randn(4, 4), ember.randn(4, 4)
        >>> with ember.autocast("cpu", dtype=ember.bfloat16):
        ...     c = a @ b
        >>> c.dtype
        ember.bfloat16
    """

    def __init__(
        self,
        device_type: str,
        dtype: ember.dtype | None = None,
        enabled: bool = True,
        cache_enabled: bool | None = None,
    ) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.device = device_type
        self.fast_dtype = dtype if dtype is not None else _default_dtype(device_type)
        self._cache_enabled = True if cache_enabled is None else bool(cache_enabled)
        if device_type == "cpu":
            if enabled and self.fast_dtype not in _LOW_DTYPES:
                warnings.warn(
                    "In CPU autocast, but the target dtype is not supported. Disabling "
                    "autocast.\nCPU Autocast only supports dtype of ember.bfloat16, "
                    "ember.float16 currently.",
                    stacklevel=2,
                )
                enabled = False
        elif device_type == "cuda":
            if enabled and not ember.cuda.is_available():
                warnings.warn(
                    "User provided device_type of 'cuda', but CUDA is not available. Disabling",
                    stacklevel=2,
                )
            enabled = False
        else:
            raise RuntimeError(
                f"User specified an unsupported autocast device_type '{device_type}'"
            )
        self._enabled = bool(enabled)

    def __enter__(self) -> None:
        if self.device != "cpu":
            return
        _register_ops()
        self.prev = bool(_C._get_autocast_enabled())
        self.prev_dtype = _C._get_autocast_dtype()
        self.prev_cache_enabled = bool(_C._get_autocast_cache_enabled())
        _C._set_autocast_cache_enabled(self._cache_enabled)
        dtype = self.fast_dtype if self.fast_dtype in _LOW_DTYPES else self.prev_dtype
        _C._set_autocast_enabled(self._enabled, dtype)
        _nesting.depth = getattr(_nesting, "depth", 0) + 1

    def __exit__(self, *exc: object) -> None:
        if self.device != "cpu":
            return
        _nesting.depth -= 1
        if _nesting.depth == 0:
            _C._clear_autocast_cache()
        _C._set_autocast_enabled(self.prev, self.prev_dtype)
        _C._set_autocast_cache_enabled(self.prev_cache_enabled)

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def decorate_autocast(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return decorate_autocast  # type: ignore[return-value]


def _default_dtype(device_type: str) -> ember.dtype:
    return get_autocast_dtype(device_type) if device_type in ("cpu", "cuda") else ember.bfloat16


def _cast(value: Any, dtype: ember.dtype) -> Any:
    if isinstance(value, Tensor):
        return value.to(dtype) if value.is_floating_point() else value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast(v, dtype) for k, v in value.items()}
    return value


def custom_fwd(
    fwd: Callable[..., Any] | None = None,
    *,
    device_type: str,
    cast_inputs: ember.dtype | None = None,
) -> Any:
    """Decorates a custom Function's ``forward`` (torch.amp.custom_fwd).

    With ``cast_inputs``, inside an autocast region the forward runs with autocast off and its
    floating tensor arguments cast to ``cast_inputs``; the backward (``custom_bwd``) then runs
    with the forward's autocast state.
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args: Any, **kwargs: Any) -> Any:
        ctx = args[0]
        ctx._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            ctx._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        ctx._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, cast_inputs), **_cast(kwargs, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd: Callable[..., Any] | None = None, *, device_type: str) -> Any:
    """Decorates a custom Function's ``backward``: it runs with the forward's autocast state."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args: Any, **kwargs: Any) -> Any:
        ctx = args[0]
        with autocast(device_type=device_type, enabled=ctx._fwd_used_autocast, dtype=ctx._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd
