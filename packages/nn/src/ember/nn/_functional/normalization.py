"""Normalization functions of ``ember.nn.functional`` (torch 2.13 semantics).

layer_norm, rms_norm, group_norm and training-mode batch_norm are one native call each
(``_C._nn_*``: statistics and output in one pass, float32 accumulation for half types; the
backward is one native pass too, see ember.autograd's derivatives/norm.py); batch_norm updates
the running statistics inside that call, with the unbiased variance as torch does. Eval-mode
batch norm folds the running statistics and the affine parameters into a per-channel scale and
shift, so the full-size work is one ``addcmul``. This module checks torch's arguments and errors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, cast

import ember
from ember._dtype import finfo
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional._checks import check_optional_tensors, check_tensors
from ember_core import _C

__all__ = [
    "batch_norm",
    "group_norm",
    "instance_norm",
    "layer_norm",
    "local_response_norm",
    "normalize",
    "rms_norm",
]


_NATIVE_DTYPES = (ember.float32, ember.float64, ember.float16, ember.bfloat16)


def _native_dtype(t: Tensor) -> bool:
    """Whether the one-pass natives take this input (others keep the composite and its errors)."""
    return t.dtype in _NATIVE_DTYPES


def _verify_batch_size(size: Sequence[int]) -> None:
    if math.prod(list(size[:1]) + list(size[2:])) == 1:
        raise ValueError(
            f"Expected more than 1 value per channel when training, got input size {size}"
        )


def _channel_shape(input: Tensor) -> list[int]:
    return [input.size(1)] + [1] * (input.dim() - 2)


def _check_channels(fname: str, name: str, t: Tensor | None, channels: int) -> None:
    if t is not None and t.numel() != channels:
        raise RuntimeError(
            f"{fname}: expected {name} to have {channels} elements (one per channel), got "
            f"shape {list(t.size())}"
        )


def _update_running(
    running_mean: Tensor | None,
    running_var: Tensor | None,
    mean: Tensor,
    var: Tensor,
    count: int,
    momentum: float,
) -> None:
    # running = (1 - momentum) * running + momentum * batch_stat, variance unbiased.
    with no_grad():
        if running_mean is not None:
            running_mean.mul_(1.0 - momentum).add_(mean.detach().to(running_mean.dtype) * momentum)
        if running_var is not None:
            unbiased = var.detach() * (count / max(count - 1, 1))
            running_var.mul_(1.0 - momentum).add_(unbiased.to(running_var.dtype) * momentum)


def _scale_shift(
    input: Tensor,
    mean: Tensor,
    var: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    eps: float,
) -> Tensor:
    scale = ember.rsqrt(var + eps)
    if weight is not None:
        scale = scale * weight
    shift = -mean * scale
    if bias is not None:
        shift = shift + bias
    shape = _channel_shape(input)
    return ember.addcmul(shift.reshape(shape), input, scale.reshape(shape))


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalizes each channel (dim 1) by batch statistics (training) or running ones (eval).

    Example:
        >>> x = ember.tensor([[1.0], [3.0]])
        >>> F.batch_norm(x, None, None, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
    """
    check_tensors("batch_norm", input=input)
    check_optional_tensors(
        "batch_norm", running_mean=running_mean, running_var=running_var, weight=weight, bias=bias
    )
    if input.dim() < 2:
        raise ValueError(
            f"batch_norm: expected input with at least 2 dimensions (N, C, ...), got shape "
            f"{list(input.size())}"
        )
    channels = input.size(1)
    for name, t in (
        ("running_mean", running_mean),
        ("running_var", running_var),
        ("weight", weight),
        ("bias", bias),
    ):
        _check_channels("batch_norm", name, t, channels)
    if training:
        _verify_batch_size(list(input.size()))
        if _native_dtype(input):
            out = _C._nn_batch_norm(
                input, weight, bias, running_mean, running_var, True, momentum, eps
            )
            return out[0]
        dims = [0, *list(range(2, input.dim()))]
        var, mean = ember.var_mean(input, dims, correction=0)
        _update_running(running_mean, running_var, mean, var, input.numel() // channels, momentum)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError(
                "batch_norm: running_mean and running_var must be defined when training=False"
            )
        mean, var = running_mean, running_var
    return _scale_shift(input, mean, var, weight, bias, eps)


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalizes each (sample, channel) plane by its own statistics.

    Example:
        >>> F.instance_norm(ember.tensor([[[1.0, 3.0]]]))
        tensor([[[-1.0000,  1.0000]]])
    """
    check_tensors("instance_norm", input=input)
    check_optional_tensors(
        "instance_norm",
        running_mean=running_mean,
        running_var=running_var,
        weight=weight,
        bias=bias,
    )
    if input.dim() < 3:
        raise ValueError(
            f"instance_norm: expected input with at least 3 dimensions (N, C, ...), got shape "
            f"{list(input.size())}"
        )
    channels = input.size(1)
    for name, t in (
        ("running_mean", running_mean),
        ("running_var", running_var),
        ("weight", weight),
        ("bias", bias),
    ):
        _check_channels("instance_norm", name, t, channels)
    shape = _channel_shape(input)
    if use_input_stats:
        spatial = math.prod(input.size()[2:])
        if spatial == 1:
            raise ValueError(
                f"Expected more than 1 spatial element when training, got input size "
                f"{list(input.size())}"
            )
        dims = list(range(2, input.dim()))
        var, mean = ember.var_mean(input, dims, correction=0, keepdim=True)
        if running_mean is not None or running_var is not None:
            flat = [input.size(0), channels]
            _update_running(
                running_mean,
                running_var,
                mean.detach().reshape(flat).mean(0),
                var.detach().reshape(flat).mean(0),
                spatial,
                momentum,
            )
        out = (input - mean) * ember.rsqrt(var + eps)
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError(
                "instance_norm: running_mean and running_var must be defined when "
                "use_input_stats=False"
            )
        out = (input - running_mean.reshape(shape)) * ember.rsqrt(running_var.reshape(shape) + eps)
    if weight is not None and bias is not None:
        return ember.addcmul(bias.reshape(shape), out, weight.reshape(shape))
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def _normalized_dims(fname: str, input: Tensor, normalized_shape: int | Sequence[int]) -> list[int]:
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    k = len(shape)
    if k == 0 or input.dim() < k or list(input.size()[input.dim() - k :]) != shape:
        raise RuntimeError(
            f"{fname}: Given normalized_shape={shape}, expected input with shape "
            f"[*, {', '.join(str(s) for s in shape)}], but got input of size{list(input.size())}"
        )
    return list(range(-k, 0))


def _check_affine(fname: str, name: str, t: Tensor | None, shape: list[int]) -> None:
    if t is not None and list(t.size()) != shape:
        raise RuntimeError(f"{fname}: expected {name} of shape {shape}, got {list(t.size())}")


def layer_norm(
    input: Tensor,
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalizes over the trailing ``normalized_shape`` dims, then applies weight and bias.

    Example:
        >>> F.layer_norm(ember.tensor([[1.0, 3.0]]), [2])
        tensor([[-1.0000,  1.0000]])
    """
    check_tensors("layer_norm", input=input)
    check_optional_tensors("layer_norm", weight=weight, bias=bias)
    dims = _normalized_dims("layer_norm", input, normalized_shape)
    shape = list(input.size()[input.dim() - len(dims) :])
    _check_affine("layer_norm", "weight", weight, shape)
    _check_affine("layer_norm", "bias", bias, shape)
    if not _native_dtype(input):
        raise NotImplementedError(
            f"layer_norm: not implemented for {input.dtype} (input of shape {list(input.size())})"
        )
    return _C._nn_layer_norm(input, weight, bias, len(dims), eps)[0]


def rms_norm(
    input: Tensor,
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    """x / sqrt(mean(x^2) + eps) over the trailing dims; ``eps=None`` uses the dtype's epsilon.

    Example:
        >>> F.rms_norm(ember.tensor([[3.0, 4.0]]), [2])
        tensor([[0.8485, 1.1314]])
    """
    check_tensors("rms_norm", input=input)
    check_optional_tensors("rms_norm", weight=weight)
    dims = _normalized_dims("rms_norm", input, normalized_shape)
    shape = list(input.size()[input.dim() - len(dims) :])
    _check_affine("rms_norm", "weight", weight, shape)
    if eps is None:
        eps = finfo(cast(Any, input).dtype).eps
    if not _native_dtype(input):
        raise NotImplementedError(
            f"rms_norm: not implemented for {input.dtype} (input of shape {list(input.size())})"
        )
    return _C._nn_rms_norm(input, weight, len(dims), eps)[0]


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalizes groups of channels by their own statistics, then a per-channel affine map.

    Example:
        >>> F.group_norm(ember.tensor([[[1.0], [3.0]]]), 1)
        tensor([[[-1.0000],
                 [ 1.0000]]])
    """
    check_tensors("group_norm", input=input)
    check_optional_tensors("group_norm", weight=weight, bias=bias)
    if input.dim() < 2:
        raise RuntimeError(
            f"group_norm: expected input of at least 2 dimensions, got shape {list(input.size())}"
        )
    n, channels = input.size(0), input.size(1)
    if num_groups <= 0 or channels % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {list(input.size())} and num_groups={num_groups}"
        )
    _check_channels("group_norm", "weight", weight, channels)
    _check_channels("group_norm", "bias", bias, channels)
    _verify_batch_size([n * channels // num_groups, num_groups, *list(input.size()[2:])])
    if _native_dtype(input):
        return _C._nn_group_norm(input, weight, bias, num_groups, eps)[0]
    grouped = input.reshape([n, num_groups, -1])
    var, mean = ember.var_mean(grouped, [2], correction=0, keepdim=True)
    out = ((grouped - mean) * ember.rsqrt(var + eps)).reshape(input.shape)
    shape = _channel_shape(input)
    if weight is not None and bias is not None:
        return ember.addcmul(bias.reshape(shape), out, weight.reshape(shape))
    if weight is not None:
        return out * weight.reshape(shape)
    if bias is not None:
        return out + bias.reshape(shape)
    return out


def local_response_norm(
    input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0
) -> Tensor:
    """Divides each element by (k + alpha * mean of squares over ``size`` neighbouring
    channels) ** beta.

    Example:
        >>> F.local_response_norm(ember.ones(1, 3, 1), size=2).shape
        ember.Size([1, 3, 1])
    """
    check_tensors("local_response_norm", input=input)
    if input.dim() < 3:
        raise ValueError(
            f"Expected 3D or higher dimensionality input (got {input.dim()} dimensions)"
        )
    if input.numel() == 0:
        return input
    channels = input.size(1)
    sq = input * input
    front, back = size // 2, (size - 1) // 2
    pieces = []
    if front:
        pieces.append(ember.zeros([input.size(0), front, *list(input.size()[2:])], dtype=sq.dtype))
    pieces.append(sq)
    if back:
        pieces.append(ember.zeros([input.size(0), back, *list(input.size()[2:])], dtype=sq.dtype))
    padded = ember.cat(pieces, 1) if len(pieces) > 1 else sq
    window = padded.narrow(1, 0, channels)
    for shift in range(1, size):
        window = window + padded.narrow(1, shift, channels)
    div = (window * (alpha / size) + k) ** beta
    return input / div


def normalize(
    input: Tensor,
    p: float = 2.0,
    dim: int = 1,
    eps: float = 1e-12,
    out: Tensor | None = None,
) -> Tensor:
    """input / max(||input||_p, eps) along ``dim``.

    Example:
        >>> F.normalize(ember.tensor([[3.0, 4.0]]))
        tensor([[0.6000, 0.8000]])
    """
    check_tensors("normalize", input=input)
    check_optional_tensors("normalize", out=out)
    denom = ember.linalg.vector_norm(input, p, dim=dim, keepdim=True).clamp(min=eps)
    result = input / denom
    if out is not None:
        return out.copy_(result)
    return result
