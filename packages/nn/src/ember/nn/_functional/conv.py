"""Convolutions (conv1d/2d/3d) and transposed convolutions, one native call each way.

``_C._nn_conv`` runs per-sample im2col + GEMM (bias included) with the samples split over the
pool; its gradients are ``_C._nn_conv_input_grad`` (GEMM + col2im per sample) and
``_C._nn_conv_weight_grad`` (one GEMM per sample summed over the batch). The transposed
convolution is the input gradient of the convolution whose weight it holds. The three natives are
each other's derivatives (derivatives/conv.py), so every order of gradient stays native. This
module checks torch's arguments and computes the output geometry.
"""

from __future__ import annotations

from typing import Any

from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor
from ember.nn._functional._window import IntOrTuple, batched, fmt, ntuple
from ember_core import _C

PaddingArg = IntOrTuple | str


def _check_common(input: Any, weight: Any, bias: Any, d: int, op: str) -> tuple[Any, bool]:
    check_tensor(weight, "weight", op)
    check_tensor(input, "input", op)
    if input.dim() not in (d + 1, d + 2):
        raise RuntimeError(
            f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {op}, but got input "
            f"of size: {list(input.shape)}"
        )
    if weight.dim() != d + 2:
        raise RuntimeError(
            f"{op}: expected a {d + 2}-dimensional weight for {d}-d convolution, got weight of "
            f"size {list(weight.shape)}"
        )
    if input.dtype != weight.dtype or (bias is not None and bias.dtype != input.dtype):
        other = weight.dtype if input.dtype != weight.dtype else bias.dtype
        raise RuntimeError(
            f"{op}: expected scalar type {str(input.dtype).removeprefix('ember.')} but found "
            f"{str(other).removeprefix('ember.')} (input, weight and bias must share one dtype)"
        )
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            f"{op}: not implemented for '{str(input.dtype).removeprefix('ember.')}' tensors "
            "(ember convolves floating point tensors only)"
        )
    return batched(input, d, op)


def _geometry_checks(
    stride: tuple[int, ...], padding: tuple[int, ...], dilation: tuple[int, ...], groups: int
) -> None:
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(v <= 0 for v in dilation):
        raise RuntimeError("dilation should be greater than zero")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")


def _bias_check(weight: Any, bias: Any, channels: int) -> None:
    if bias is not None and (bias.dim() != 1 or bias.shape[0] != channels):
        raise RuntimeError(
            f"Given weight of size {list(weight.shape)}, expected bias to be 1-dimensional with "
            f"{channels} elements, but got bias of size {list(bias.shape)} instead"
        )


def _add_bias(out: Any, bias: Any, d: int) -> Any:
    if bias is None:
        return out
    return out + bias.reshape(bias.shape[0], *([1] * d))


def _conv(
    input: Any,
    weight: Any,
    bias: Any,
    stride: IntOrTuple,
    padding: PaddingArg,
    dilation: IntOrTuple,
    groups: int,
    d: int,
) -> Any:
    op = f"conv{d}d"
    x, unbatched = _check_common(input, weight, bias, d, op)
    s = ntuple(stride, d, "stride", op)
    dil = ntuple(dilation, d, "dilation", op)
    kernel = tuple(weight.shape[2:])
    spatial = tuple(x.shape[2:])
    c = x.shape[1]
    _geometry_checks(s, (0,) * d, dil, groups)
    if isinstance(padding, str):
        if padding == "valid":
            pad: tuple[int, ...] = (0,) * d
            out_size = tuple(
                (spatial[i] - dil[i] * (kernel[i] - 1) - 1) // s[i] + 1 for i in range(d)
            )
        elif padding == "same":
            if any(v != 1 for v in s):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            # An odd total pads one more on the right, as torch does.
            pad = tuple(dil[i] * (kernel[i] - 1) // 2 for i in range(d))
            out_size = spatial
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    else:
        pad = ntuple(padding, d, "padding", op)
        out_size = tuple(
            (spatial[i] + 2 * pad[i] - dil[i] * (kernel[i] - 1) - 1) // s[i] + 1 for i in range(d)
        )
    _geometry_checks(s, pad, dil, groups)
    c_out = weight.shape[0]
    if c_out % groups != 0:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size {list(weight.shape)} instead"
        )
    if weight.shape[1] * groups != c:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(x.shape)} to have {weight.shape[1] * groups} channels, but got {c} channels "
            "instead"
        )
    padded = tuple(spatial[i] + 2 * pad[i] for i in range(d))
    effective = tuple(dil[i] * (kernel[i] - 1) + 1 for i in range(d))
    if not isinstance(padding, str) and any(effective[i] > padded[i] for i in range(d)):
        raise RuntimeError(
            f"Calculated padded input size per channel: {fmt(padded)}. Kernel size: "
            f"{fmt(effective)}. Kernel size can't be greater than actual input size"
        )
    if any(o <= 0 for o in out_size):
        raise RuntimeError(
            f"{op}: calculated output size {fmt(out_size)} from input size {fmt(spatial)}, "
            f"kernel size {fmt(effective)} and padding {fmt(pad)} is too small"
        )
    _bias_check(weight, bias, c_out)
    out = _C._nn_conv(x, weight, bias, s, pad, dil, groups, out_size)
    return out.squeeze(0) if unbatched else out


def conv1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: IntOrTuple = 1,
    padding: PaddingArg = 0,
    dilation: IntOrTuple = 1,
    groups: int = 1,
) -> Tensor:
    """1-d convolution (cross-correlation) over [N, C_in, L] or unbatched [C_in, L] input.

    Args:
        input: [N, C_in, L] or [C_in, L].
        weight: [C_out, C_in / groups, k].
        bias: optional [C_out].
        stride, padding, dilation: ints or 1-tuples; padding may be 'valid' or 'same'.
        groups: splits the channels into independent groups.

    Example:
        >>> y = conv1d(ember.randn(2, 4, 10), ember.randn(8, 4, 3), padding="same")
        >>> y.shape
        ember.Size([2, 8, 10])
    """
    result: Tensor = _conv(input, weight, bias, stride, padding, dilation, groups, 1)
    return result


def conv2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: IntOrTuple = 1,
    padding: PaddingArg = 0,
    dilation: IntOrTuple = 1,
    groups: int = 1,
) -> Tensor:
    """2-d convolution (cross-correlation) over [N, C_in, H, W] or unbatched [C_in, H, W].

    Example:
        >>> y = conv2d(ember.randn(2, 3, 8, 8), ember.randn(16, 3, 3, 3), padding=1)
        >>> y.shape
        ember.Size([2, 16, 8, 8])
    """
    result: Tensor = _conv(input, weight, bias, stride, padding, dilation, groups, 2)
    return result


def conv3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: IntOrTuple = 1,
    padding: PaddingArg = 0,
    dilation: IntOrTuple = 1,
    groups: int = 1,
) -> Tensor:
    """3-d convolution over [N, C_in, D, H, W] or unbatched [C_in, D, H, W].

    Example:
        >>> conv3d(ember.randn(1, 2, 4, 4, 4), ember.randn(3, 2, 3, 3, 3)).shape
        ember.Size([1, 3, 2, 2, 2])
    """
    result: Tensor = _conv(input, weight, bias, stride, padding, dilation, groups, 3)
    return result


def _conv_transpose(
    input: Any,
    weight: Any,
    bias: Any,
    stride: IntOrTuple,
    padding: IntOrTuple,
    output_padding: IntOrTuple,
    groups: int,
    dilation: IntOrTuple,
    d: int,
) -> Any:
    op = f"conv_transpose{d}d"
    x, unbatched = _check_common(input, weight, bias, d, op)
    s = ntuple(stride, d, "stride", op)
    pad = ntuple(padding, d, "padding", op)
    dil = ntuple(dilation, d, "dilation", op)
    out_pad = ntuple(output_padding, d, "output_padding", op)
    _geometry_checks(s, pad, dil, groups)
    if any(out_pad[i] >= s[i] and out_pad[i] >= dil[i] for i in range(d)) or any(
        p < 0 for p in out_pad
    ):
        raise RuntimeError(
            "output padding must be smaller than either stride or dilation, but got "
            f"output_padding={list(out_pad)}, stride={list(s)}, dilation={list(dil)}"
        )
    c = x.shape[1]
    if weight.shape[0] != c:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
            f"{list(x.shape)} to have {weight.shape[0]} channels, but got {c} channels instead"
        )
    if c % groups != 0:
        raise RuntimeError(
            f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
            f"but got weight of size {list(weight.shape)} instead"
        )
    kernel = tuple(weight.shape[2:])
    spatial = tuple(x.shape[2:])
    c_out = weight.shape[1] * groups
    out_size = tuple(
        (spatial[i] - 1) * s[i] - 2 * pad[i] + dil[i] * (kernel[i] - 1) + out_pad[i] + 1
        for i in range(d)
    )
    if any(o <= 0 for o in out_size):
        raise RuntimeError(
            f"{op}: given input size {fmt(spatial)}, calculated output size {fmt(out_size)}, "
            "but the output size must be positive"
        )
    _bias_check(weight, bias, c_out)
    # The transposed convolution is the input gradient of the convolution whose weight it holds.
    out = _C._nn_conv_input_grad(x, weight, out_size, s, pad, dil, groups)
    out = _add_bias(out, bias, d)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    output_padding: IntOrTuple = 0,
    groups: int = 1,
    dilation: IntOrTuple = 1,
) -> Tensor:
    """Transposed 1-d convolution; weight is [C_in, C_out / groups, k].

    Example:
        >>> conv_transpose1d(ember.randn(1, 4, 5), ember.randn(4, 2, 3), stride=2).shape
        ember.Size([1, 2, 11])
    """
    result: Tensor = _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 1
    )
    return result


def conv_transpose2d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    output_padding: IntOrTuple = 0,
    groups: int = 1,
    dilation: IntOrTuple = 1,
) -> Tensor:
    """Transposed 2-d convolution; weight is [C_in, C_out / groups, kH, kW].

    Example:
        >>> conv_transpose2d(ember.randn(1, 4, 5, 5), ember.randn(4, 2, 3, 3)).shape
        ember.Size([1, 2, 7, 7])
    """
    result: Tensor = _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 2
    )
    return result


def conv_transpose3d(
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None = None,
    stride: IntOrTuple = 1,
    padding: IntOrTuple = 0,
    output_padding: IntOrTuple = 0,
    groups: int = 1,
    dilation: IntOrTuple = 1,
) -> Tensor:
    """Transposed 3-d convolution; weight is [C_in, C_out / groups, kD, kH, kW].

    Example:
        >>> conv_transpose3d(ember.randn(1, 2, 3, 3, 3), ember.randn(2, 1, 2, 2, 2)).shape
        ember.Size([1, 1, 4, 4, 4])
    """
    result: Tensor = _conv_transpose(
        input, weight, bias, stride, padding, output_padding, groups, dilation, 3
    )
    return result
