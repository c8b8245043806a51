"""Loss reduction modes and torch's legacy ``size_average``/``reduce`` arguments."""

from __future__ import annotations

import warnings

from ember._tensor import Tensor

_VALID = ("none", "mean", "sum")


def legacy_get_string(
    size_average: bool | None, reduce: bool | None, emit_warning: bool = True
) -> str:
    """Maps the deprecated ``size_average``/``reduce`` pair to a ``reduction`` string, with
    torch's warning."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        warnings.warn(
            f"size_average and reduce args will be deprecated, please use reduction='{ret}' "
            "instead.",
            stacklevel=3,
        )
    return ret


def resolve(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """The effective reduction: the legacy pair wins when either is given; the result is
    validated (torch's ValueError text)."""
    if size_average is not None or reduce is not None:
        reduction = legacy_get_string(size_average, reduce)
    check(reduction)
    return reduction


def check(reduction: str) -> None:
    if reduction not in _VALID:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def apply(loss: Tensor, reduction: str) -> Tensor:
    """Reduces an elementwise loss: 'none' keeps it, 'mean' averages, 'sum' adds."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
