"""Argument checks and ``out=`` handling shared by ember.linalg's Python functions."""

from __future__ import annotations

from typing import Any

from ember_core import _C

# The native module, typed loosely: its stub types every result as `object`.
N: Any = _C
# ember.return_types: the named tuples of linalg results (torch.return_types' names).
RT: Any = N.return_types


def check_tensor(x: object, op: str, name: str = "A") -> Any:
    """Returns x when it is a tensor; TypeError naming `op` and the argument otherwise."""
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"[{op}] argument '{name}' must be Tensor, not {type(x).__name__}")
    return x


def check_bool(x: object, op: str, name: str) -> bool:
    """Returns x when it is a bool; TypeError otherwise."""
    if not isinstance(x, bool):
        raise TypeError(f"[{op}] argument '{name}' must be bool, not {type(x).__name__}")
    return x


def check_uplo(uplo: object, op: str) -> str:
    """Returns UPLO when it is a str (its value is checked natively)."""
    if not isinstance(uplo, str):
        raise TypeError(f"[{op}] argument 'UPLO' must be str, not {type(uplo).__name__}")
    return uplo


def check_float(x: Any, op: str) -> None:
    """float32/float64 only, as the LAPACK-backed functions (TypeError otherwise)."""
    if x.dtype in (_C.float16, _C.bfloat16):
        raise TypeError(f"[{op}] Low precision dtypes not supported. Got {x.dtype}")
    if x.dtype not in (_C.float32, _C.float64):
        raise TypeError(f"[{op}] Expected a floating point tensor as input. Got {x.dtype}")


def check_matrix(x: Any, op: str, square: bool = False) -> None:
    """At least 2 dims (and square matrices when asked), with torch's messages."""
    if x.dim() < 2:
        raise RuntimeError(f"[{op}] The input tensor A must have at least 2 dimensions.")
    if square and x.shape[-1] != x.shape[-2]:
        raise RuntimeError(
            f"[{op}] A must be batches of square matrices, but they are "
            f"{x.shape[-2]} by {x.shape[-1]} matrices"
        )


def check_int(x: object, op: str, name: str) -> int:
    """Returns x when it is an int (not a bool); TypeError otherwise."""
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"[{op}] argument '{name}' must be int, not {type(x).__name__}")
    return x


def out(result: Any, out: object, op: str) -> Any:
    """Copies `result` into `out` (a tensor, or a tuple of them for tuple results) when given.

    As in torch, each out tensor must have the result's dtype and is resized to its shape, and
    out= refuses results that require grad (RuntimeError).
    """
    if out is None:
        return result
    outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
    results = result if isinstance(result, tuple) else (result,)
    if _C.is_grad_enabled() and any(getattr(t, "requires_grad", False) for t in results + outs):
        # As torch: a copy into `out` cannot be recorded (the result needs a grad_fn, out not).
        raise RuntimeError(
            f"[{op}] functions with out=... arguments don't support automatic differentiation, "
            "but one of the arguments requires grad."
        )
    if isinstance(result, tuple):
        if not isinstance(out, (tuple, list)) or len(out) != len(result):
            raise TypeError(f"[{op}] argument 'out' must be a tuple of {len(result)} tensors")
        copied = [N._linalg_copy_out(o, r, op) for o, r in zip(out, result, strict=True)]
        return type(result)(*copied)
    return N._linalg_copy_out(out, result, op)
