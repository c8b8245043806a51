"""``linear`` and ``bilinear`` (torch.nn.functional)."""

from __future__ import annotations

from typing import Any

from ember._tensor import Tensor
from ember.nn._functional._checks import check_optional_tensors, check_tensors
from ember_core import _C

__all__ = ["bilinear", "linear"]


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``: the affine map of ``nn.Linear``, on any leading dims.

    Example:
        >>> ember.nn.functional.linear(ember.ones(2, 3), ember.ones(4, 3)).shape
        ember.Size([2, 4])
    """
    # The hottest layer: two isinstance checks inline, the message only when one fails.
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)) or not (
        bias is None or isinstance(bias, Tensor)
    ):
        check_tensors("linear", input=input, weight=weight)
        check_optional_tensors("linear", bias=bias)
    input_: Any = input
    w: Any = weight
    out: Tensor = _linear(input_, w, bias)
    return out


def _linear(input: Any, weight: Any, bias: Any) -> Any:
    if weight.dim() not in (1, 2):
        raise RuntimeError(f"[linear] weight must be 1-d or 2-d, got shape {tuple(weight.shape)}")
    if input.dim() == 0 or input.shape[-1] != weight.shape[-1]:
        raise RuntimeError(
            f"[linear] input's last dimension must match weight's ({weight.shape[-1]}): "
            f"input shape {tuple(input.shape)}, weight shape {tuple(weight.shape)}"
        )
    if weight.dim() == 2 and (bias is None or bias.dim() <= 1):
        return _C._nn_linear(input, weight, bias)  # one GEMM (bias folded in), one autograd node
    out = input.matmul(weight.T if weight.dim() == 2 else weight)
    return out if bias is None else out + bias


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``y[..., o] = x1[..., i] · weight[o, i, j] · x2[..., j] + bias[o]``.

    Example:
        >>> F = ember.nn.functional
        >>> F.bilinear(ember.ones(2, 3), ember.ones(2, 4), ember.ones(5, 3, 4)).shape
        ember.Size([2, 5])
    """
    check_tensors("bilinear", input1=input1, input2=input2, weight=weight)
    check_optional_tensors("bilinear", bias=bias)
    x1: Any = input1
    x2: Any = input2
    w: Any = weight
    out: Tensor = _bilinear(x1, x2, w, bias)
    return out


def _bilinear(input1: Any, input2: Any, weight: Any, bias: Any) -> Any:
    if weight.dim() != 3:
        raise RuntimeError(
            f"[bilinear] weight must be 3-d (out, in1, in2), got shape {tuple(weight.shape)}"
        )
    if input1.dim() == 0 or input2.dim() == 0 or input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(
            "[bilinear] input1 and input2 must have the same batch dimensions, got shapes "
            f"{tuple(input1.shape)} and {tuple(input2.shape)}"
        )
    if input1.shape[-1] != weight.shape[1] or input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            f"[bilinear] input shapes {tuple(input1.shape)} and {tuple(input2.shape)} do not "
            f"match weight shape {tuple(weight.shape)} (expected last dimensions "
            f"{weight.shape[1]} and {weight.shape[2]})"
        )
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != weight.shape[0]):
        raise RuntimeError(
            f"[bilinear] bias must have shape ({weight.shape[0]},), got {tuple(bias.shape)}"
        )
    batch = input1.shape[:-1]
    x1 = input1.reshape(-1, input1.shape[-1])
    x2 = input2.reshape(-1, input2.shape[-1])
    out_f, in1, in2 = weight.shape
    # (N, in1) @ (in1, out*in2) -> (N, out, in2), then contract in2 with x2: two GEMM-shaped ops.
    t = x1.matmul(weight.permute(1, 0, 2).reshape(in1, out_f * in2)).reshape(-1, out_f, in2)
    out = (t * x2.unsqueeze(1)).sum(-1)
    if bias is not None:
        out = out + bias
    return out.reshape(*batch, out_f)
