"""Argument handling shared by the sliding-window ops (conv, pooling, unfold/fold)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor

IntOrTuple = int | Sequence[int]


def ntuple(value: IntOrTuple, n: int, name: str, op: str) -> tuple[int, ...]:
    """``value`` as n ints: an int repeats, a sequence must have length n (or 1)."""
    if isinstance(value, bool):
        raise TypeError(f"{op}(): argument '{name}' must be an int or a tuple of ints, not bool")
    if isinstance(value, int):
        return (value,) * n
    if is_tensor(value):
        raise TypeError(f"{op}(): argument '{name}' must be an int or a tuple of ints, not Tensor")
    try:
        items = tuple(int(v) for v in value)
    except TypeError:
        raise TypeError(
            f"{op}(): argument '{name}' must be an int or a tuple of ints, "
            f"not {type(value).__name__}"
        ) from None
    if len(items) == 1 and n > 1:
        return items * n
    if len(items) != n:
        raise RuntimeError(f"{op}(): expected {name} to have {n} values, got {list(items)}")
    return items


def batched(input: Any, d: int, op: str) -> tuple[Any, bool]:
    """``input`` as [N, C, *spatial] (d spatial dims), and whether it came unbatched."""
    check_tensor(input, "input", op)
    if input.dim() == d + 2:
        return input, False
    if input.dim() == d + 1:
        return input.unsqueeze(0), True
    raise RuntimeError(
        f"{op}: expected {d + 1}D (unbatched) or {d + 2}D (batched) input, but got input of "
        f"size: {list(input.shape)}"
    )


def fmt(sizes: Sequence[int]) -> str:
    """(2 x 3): how torch prints spatial sizes in its error messages."""
    return "(" + " x ".join(str(s) for s in sizes) + ")"


def float_only(input: Any, op: str) -> None:
    """The window natives compute in floating point; integer inputs are not supported yet."""
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"{op}: not implemented for '{str(input.dtype).removeprefix('ember.')}' tensors "
            "(ember pools and convolves floating point tensors only)"
        )


def is_tensor(value: object) -> bool:
    """isinstance without narrowing: the impls keep tensors typed Any (the stubs type .shape as
    object)."""
    return isinstance(value, Tensor)
