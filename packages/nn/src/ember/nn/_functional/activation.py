"""Activation functions of ``ember.nn.functional`` (torch 2.13 semantics).

Each one is a short composite of native tensor ops, so autograd records it without a rule of its
own; formulations avoid evaluating an overflowing branch (its zero gradient times ``inf`` would
give NaN).
"""

from __future__ import annotations

import warnings
from typing import cast

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor

from ._fused import GeluFn

__all__ = [
    "celu",
    "celu_",
    "elu",
    "elu_",
    "gelu",
    "glu",
    "gumbel_softmax",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hardtanh_",
    "leaky_relu",
    "leaky_relu_",
    "log_softmax",
    "logsigmoid",
    "mish",
    "prelu",
    "relu",
    "relu6",
    "relu_",
    "rrelu",
    "rrelu_",
    "selu",
    "selu_",
    "sigmoid",
    "silu",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "threshold_",
]

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _source(input: Tensor, inplace: bool) -> Tensor:
    # An in-place variant computes from a copy when autograd may save the input for backward,
    # so writing the result back does not invalidate it.
    return cast(Tensor, input.clone()) if inplace and input.requires_grad else input


def _write_back(input: Tensor, result: Tensor, inplace: bool) -> Tensor:
    # In-place variants compute out of place and copy: autograd records the copy like torch's.
    if inplace:
        return input.copy_(result)
    return result


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """Replaces every element not greater than ``threshold`` by ``value``.

    Example:
        >>> F.threshold(ember.tensor([-1.0, 2.0]), 0.5, 9.0)
        tensor([9., 2.])
    """
    return _threshold(input, threshold, value, inplace)


def _threshold(input: Tensor, limit: float, value: float, inplace: bool) -> Tensor:
    check_tensor(input, "input", "threshold")
    src = _source(input, inplace)
    return _write_back(input, ember.where(src > limit, src, value), inplace)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    """In-place :func:`threshold`."""
    return _threshold(input, threshold, value, True)


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(0, x) elementwise.

    Example:
        >>> F.relu(ember.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """
    check_tensor(input, "input", "relu")
    if inplace:
        return input.relu_()
    return ember.relu(input)


def relu_(input: Tensor) -> Tensor:
    """In-place :func:`relu`."""
    return relu(input, inplace=True)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    """Clamps to ``[min_val, max_val]``.

    Example:
        >>> F.hardtanh(ember.tensor([-3.0, 0.5]))
        tensor([-1.0000,  0.5000])
    """
    check_tensor(input, "input", "hardtanh")
    if min_val > max_val:
        raise ValueError("hardtanh(): min_val cannot be greater than max_val")
    if inplace:
        return input.clamp_(min_val, max_val)
    return ember.clamp(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """In-place :func:`hardtanh`."""
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(0, x), 6).

    Example:
        >>> F.relu6(ember.tensor([-1.0, 7.0]))
        tensor([0., 6.])
    """
    check_tensor(input, "input", "relu6")
    return hardtanh(input, 0.0, 6.0, inplace)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x if x > 0 else alpha * (exp(x) - 1).

    Example:
        >>> F.elu(ember.tensor([-1.0, 2.0]))
        tensor([-0.6321,  2.0000])
    """
    check_tensor(input, "input", "elu")
    src = _source(input, inplace)
    neg = ember.expm1(src.clamp(max=0.0)) * alpha
    return _write_back(input, ember.where(src > 0, src, neg), inplace)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place :func:`elu`."""
    return elu(input, alpha, inplace=True)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """scale * elu(x, alpha) with the self-normalizing constants.

    Example:
        >>> F.selu(ember.tensor([1.0]))
        tensor([1.0507])
    """
    check_tensor(input, "input", "selu")
    src = _source(input, inplace)
    return _write_back(input, elu(src, _SELU_ALPHA) * _SELU_SCALE, inplace)


def selu_(input: Tensor) -> Tensor:
    """In-place :func:`selu`."""
    return selu(input, inplace=True)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

    Example:
        >>> F.celu(ember.tensor([-1.0, 2.0]), alpha=2.0)
        tensor([-0.7869,  2.0000])
    """
    check_tensor(input, "input", "celu")
    src = _source(input, inplace)
    if alpha == 0:
        raise RuntimeError("celu(): ZeroDivisionError: alpha must not be 0")
    neg = ember.expm1((src / alpha).clamp(max=0.0)) * alpha
    return _write_back(input, ember.where(src > 0, src, neg), inplace)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """In-place :func:`celu`."""
    return celu(input, alpha, inplace=True)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x if x > 0 else negative_slope * x.

    Example:
        >>> F.leaky_relu(ember.tensor([-1.0, 2.0]), 0.1)
        tensor([-0.1000,  2.0000])
    """
    check_tensor(input, "input", "leaky_relu")
    src = _source(input, inplace)
    return _write_back(input, ember.where(src > 0, src, src * negative_slope), inplace)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """In-place :func:`leaky_relu`."""
    return leaky_relu(input, negative_slope, inplace=True)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """Leaky ReLU with a learnable slope per channel (dim 1) or one shared slope.

    Example:
        >>> F.prelu(ember.tensor([[-1.0, 2.0]]), ember.tensor([0.25]))
        tensor([[-0.2500,  2.0000]])
    """
    check_tensor(input, "input", "prelu")
    check_tensor(weight, "weight", "prelu")
    if weight.dim() > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}"
        )
    n = weight.numel()
    if input.dim() == 0 and n != 1:
        raise RuntimeError(f"prelu: Not allow zero-dim input tensor with weight of {n} parameters")
    if n != 1:
        channels = input.size(1) if input.dim() >= 2 else input.size(0)
        if n != channels:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found parameter "
                f"numbers = {n} and channel size = {channels}."
            )
        if input.dim() >= 2:
            weight = weight.reshape([n] + [1] * (input.dim() - 2))
    elif weight.dim() == 1 and input.dim() == 0:
        weight = weight.reshape([])
    return ember.where(input > 0, input, input * weight)


def rrelu(
    input: Tensor,
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Randomized leaky ReLU: slope ~ U(lower, upper) per element when training, else the mean.

    Example:
        >>> F.rrelu(ember.tensor([-1.0, 2.0]))
        tensor([-0.2292,  2.0000])
    """
    check_tensor(input, "input", "rrelu")
    src = _source(input, inplace)
    if lower > upper:
        raise RuntimeError(
            f"rrelu(): Lower bound should be less than or equal to the upper bound, got "
            f"lower={lower}, upper={upper}"
        )
    if training:
        slope = ember.empty_like(src).uniform_(lower, upper)
        out = ember.where(src >= 0, src, src * slope)
    else:
        out = ember.where(src >= 0, src, src * ((lower + upper) / 2))
    return _write_back(input, out, inplace)


def rrelu_(
    input: Tensor, lower: float = 1.0 / 8, upper: float = 1.0 / 3, training: bool = False
) -> Tensor:
    """In-place :func:`rrelu`."""
    return rrelu(input, lower, upper, training, inplace=True)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """Gated linear unit: a * sigmoid(b) with a, b the halves of ``input`` along ``dim``.

    Example:
        >>> F.glu(ember.tensor([1.0, 0.0]))
        tensor([0.5000])
    """
    check_tensor(input, "input", "glu")
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = dim if dim >= 0 else dim + input.dim()
    if not 0 <= d < input.dim():
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-input.dim()}, "
            f"{input.dim() - 1}], but got {dim})"
        )
    size = input.size(d)
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {size}")
    a, b = input.split(size // 2, d)
    return a * ember.sigmoid(b)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit, exact (``'none'``) or its ``'tanh'`` approximation.

    Example:
        >>> F.gelu(ember.tensor([1.0]))
        tensor([0.8413])
    """
    check_tensor(input, "input", "gelu")
    if approximate in ("none", "tanh"):
        return cast(Tensor, GeluFn.apply(input, approximate))
    raise RuntimeError(f"approximate argument must be either none or tanh, got '{approximate}'")


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)), stable for large |x|.

    Example:
        >>> F.logsigmoid(ember.tensor([0.0]))
        tensor([-0.6931])
    """
    check_tensor(input, "input", "logsigmoid")
    return input.clamp(max=0.0) - ember.log1p(ember.exp(-input.abs()))


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0.

    Example:
        >>> F.hardshrink(ember.tensor([0.2, -1.0]))
        tensor([ 0., -1.])
    """
    check_tensor(input, "input", "hardshrink")
    return ember.where(input.abs() > lambd, input, 0.0)


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x).

    Example:
        >>> F.tanhshrink(ember.tensor([0.0]))
        tensor([0.])
    """
    check_tensor(input, "input", "tanhshrink")
    return input - ember.tanh(input)


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|).

    Example:
        >>> F.softsign(ember.tensor([1.0]))
        tensor([0.5000])
    """
    check_tensor(input, "input", "softsign")
    return input / (input.abs() + 1.0)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + exp(beta x)) / beta, linear where beta x > threshold.

    Example:
        >>> F.softplus(ember.tensor([0.0]))
        tensor([0.6931])
    """
    check_tensor(input, "input", "softplus")
    scaled = input * beta if beta != 1 else input
    soft = ember.log1p(ember.exp(scaled.clamp(max=threshold)))
    if beta != 1:
        soft = soft / beta
    return ember.where(scaled > threshold, input, soft)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd above lambd, x + lambd below -lambd, 0 between.

    Example:
        >>> F.softshrink(ember.tensor([1.0, 0.2]))
        tensor([0.5000, 0.0000])
    """
    check_tensor(input, "input", "softshrink")
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return input - input.clamp(-lambd, lambd)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """relu6(x + 3) / 6.

    Example:
        >>> F.hardsigmoid(ember.tensor([0.0]))
        tensor([0.5000])
    """
    check_tensor(input, "input", "hardsigmoid")
    src = _source(input, inplace)
    return _write_back(input, (src * (1.0 / 6.0) + 0.5).clamp(0.0, 1.0), inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * relu6(x + 3) / 6.

    Example:
        >>> F.hardswish(ember.tensor([1.0]))
        tensor([0.6667])
    """
    check_tensor(input, "input", "hardswish")
    src = _source(input, inplace)
    return _write_back(input, src * (src * (1.0 / 6.0) + 0.5).clamp(0.0, 1.0), inplace)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (swish).

    Example:
        >>> F.silu(ember.tensor([0.0]))
        tensor([0.])
    """
    check_tensor(input, "input", "silu")
    src = _source(input, inplace)
    return _write_back(input, src * ember.sigmoid(src), inplace)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * tanh(softplus(x)).

    Example:
        >>> F.mish(ember.tensor([0.0]))
        tensor([0.])
    """
    check_tensor(input, "input", "mish")
    src = _source(input, inplace)
    return _write_back(input, src * ember.tanh(softplus(src)), inplace)


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + exp(-x)).

    Example:
        >>> F.sigmoid(ember.tensor([0.0]))
        tensor([0.5000])
    """
    return ember.sigmoid(check_tensor(input, "input", "sigmoid"))


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent.

    Example:
        >>> F.tanh(ember.tensor([0.0]))
        tensor([0.])
    """
    return ember.tanh(check_tensor(input, "input", "tanh"))


def _softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. "
        "Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor,
    dim: int | None = None,
    _stacklevel: int = 3,
    dtype: ember.dtype | None = None,
) -> Tensor:
    """exp(x) / sum(exp(x)) along ``dim`` (cast to ``dtype`` first when given).

    Example:
        >>> F.softmax(ember.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    check_tensor(input, "input", "softmax")
    if dim is None:
        dim = _softmax_dim("softmax", input.dim(), _stacklevel)
    return ember.softmax(input, dim, dtype=dtype)


def softmin(
    input: Tensor,
    dim: int | None = None,
    _stacklevel: int = 3,
    dtype: ember.dtype | None = None,
) -> Tensor:
    """softmax(-x) along ``dim``.

    Example:
        >>> F.softmin(ember.tensor([0.0, 0.0]), dim=0)
        tensor([0.5000, 0.5000])
    """
    check_tensor(input, "input", "softmin")
    if dim is None:
        dim = _softmax_dim("softmin", input.dim(), _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return ember.softmax(-input, dim)


def log_softmax(
    input: Tensor,
    dim: int | None = None,
    _stacklevel: int = 3,
    dtype: ember.dtype | None = None,
) -> Tensor:
    """log(softmax(x)) along ``dim``, computed stably in one op.

    Example:
        >>> F.log_softmax(ember.tensor([0.0, 0.0]), dim=0)
        tensor([-0.6931, -0.6931])
    """
    check_tensor(input, "input", "log_softmax")
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim(), _stacklevel)
    return ember.log_softmax(input, dim, dtype=dtype)


def gumbel_softmax(
    logits: Tensor, tau: float = 1.0, hard: bool = False, eps: float = 1e-10, dim: int = -1
) -> Tensor:
    """Samples from the Gumbel-softmax distribution; ``hard=True`` returns one-hot samples whose
    gradient is the soft sample's (straight-through).

    Example:
        >>> F.gumbel_softmax(ember.randn(2, 5), tau=0.5, hard=True).sum(-1)
        tensor([1., 1.])
    """
    check_tensor(logits, "logits", "gumbel_softmax")
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -ember.empty_like(logits).exponential_().log()
    y_soft = ember.softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.argmax(dim, keepdim=True)
    y_hard = ember.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
