"""Fold an eval-mode BatchNorm into the preceding Conv or Linear (torch.nn.utils.fusion)."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import (
    AssertionValueError,
    check_module,
    check_optional_tensors,
    check_tensors,
)
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter

__all__ = [
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
]

_M = TypeVar("_M", bound=Module)


def fuse_conv_bn_weights(
    conv_w: Tensor,
    conv_b: Tensor | None,
    bn_rm: Tensor,
    bn_rv: Tensor,
    bn_eps: float,
    bn_w: Tensor | None,
    bn_b: Tensor | None,
    transpose: bool = False,
) -> tuple[Parameter, Parameter]:
    """The conv weight and bias that compute ``bn(conv(x))`` in one conv.

    Example:
        >>> w, b = ember.nn.utils.fuse_conv_bn_weights(
        ...     ember.ones(2, 1, 1, 1), None, ember.zeros(2), ember.ones(2), 0.0, None, None)
        >>> b  # no conv bias: the fused bias starts from zeros that do not require grad
        Parameter containing:
        tensor([0., 0.])
    """
    check_tensors("fuse_conv_bn_weights", conv_w=conv_w, bn_rm=bn_rm, bn_rv=bn_rv)
    check_optional_tensors("fuse_conv_bn_weights", conv_b=conv_b, bn_w=bn_w, bn_b=bn_b)
    cw: Any = conv_w
    weight_dtype = cw.dtype
    bias_dtype = conv_b.dtype if conv_b is not None else weight_dtype
    cb: Any = ember.zeros_like(bn_rm) if conv_b is None else conv_b
    bw: Any = ember.ones_like(bn_rm) if bn_w is None else bn_w
    bb: Any = ember.zeros_like(bn_rm) if bn_b is None else bn_b
    rsqrt = ember.rsqrt(_any(bn_rv) + bn_eps)
    shape = [1, -1] if transpose else [-1, 1]
    shape += [1] * (cw.dim() - 2)
    fused_w = (cw * (bw * rsqrt).reshape(shape)).to(dtype=weight_dtype)
    fused_b = ((cb - bn_rm) * rsqrt * bw + bb).to(dtype=bias_dtype)
    return Parameter(fused_w.detach(), cw.requires_grad), Parameter(
        fused_b.detach(), cb.requires_grad
    )


def _any(t: object) -> Any:
    return t


def fuse_conv_bn_eval(conv: _M, bn: Module, transpose: bool = False) -> _M:
    """A copy of ``conv`` whose output equals ``bn(conv(x))`` for eval-mode ``bn``.

    Example:
        >>> # conv and bn from ember.nn; both in eval mode
        >>> callable(ember.nn.utils.fuse_conv_bn_eval)
        True
    """
    check_module(conv, "conv", "fuse_conv_bn_eval")
    check_module(bn, "bn", "fuse_conv_bn_eval")
    # torch asserts the eval mode: AssertionValueError is a ValueError and an AssertionError.
    if conv.training or bn.training:
        raise AssertionValueError("Fusion only for eval!")
    fused = copy.deepcopy(conv)
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionValueError("[fuse_conv_bn_eval] bn must track running statistics")
    fused_any: Any = fused
    fused_any.weight, fused_any.bias = fuse_conv_bn_weights(
        fused_any.weight,
        fused_any.bias,
        bn.running_mean,
        bn.running_var,
        bn.eps,
        bn.weight,
        bn.bias,
        transpose,
    )
    return fused


def fuse_linear_bn_weights(
    linear_w: Tensor,
    linear_b: Tensor | None,
    bn_rm: Tensor,
    bn_rv: Tensor,
    bn_eps: float,
    bn_w: Tensor,
    bn_b: Tensor,
) -> tuple[Parameter, Parameter]:
    """The linear weight and bias that compute ``bn(linear(x))`` in one linear.

    Example:
        >>> w, b = ember.nn.utils.fuse_linear_bn_weights(
        ...     ember.ones(2, 3), None, ember.zeros(2), ember.ones(2), 0.0, ember.ones(2),
        ...     ember.zeros(2))
        >>> tuple(w.shape)
        (2, 3)
    """
    check_tensors(
        "fuse_linear_bn_weights", linear_w=linear_w, bn_rm=bn_rm, bn_rv=bn_rv, bn_w=bn_w, bn_b=bn_b
    )
    check_optional_tensors("fuse_linear_bn_weights", linear_b=linear_b)
    lw: Any = linear_w
    lb: Any = ember.zeros_like(bn_rm) if linear_b is None else linear_b
    scale = _any(bn_w) * ember.rsqrt(_any(bn_rv) + bn_eps)
    fused_w = lw * scale.unsqueeze(-1)
    fused_b = (lb - bn_rm) * scale + bn_b
    return Parameter(fused_w.detach(), lw.requires_grad), Parameter(
        fused_b.detach(), lb.requires_grad
    )


def fuse_linear_bn_eval(linear: _M, bn: Module) -> _M:
    """A copy of ``linear`` whose output equals ``bn(linear(x))`` for eval-mode ``bn``.

    Example:
        >>> callable(ember.nn.utils.fuse_linear_bn_eval)
        True
    """
    check_module(linear, "linear", "fuse_linear_bn_eval")
    check_module(bn, "bn", "fuse_linear_bn_eval")
    if linear.training or bn.training:
        raise AssertionValueError("Fusion only for eval!")
    lin: Any = linear
    if not (lin.out_features == bn.num_features or bn.num_features == 1):
        raise AssertionValueError(
            "To fuse, linear.out_features must equal bn.num_features or bn.num_features must be 1"
        )
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionValueError("[fuse_linear_bn_eval] bn must track running statistics")
    fused = copy.deepcopy(linear)
    fused_any: Any = fused
    fused_any.weight, fused_any.bias = fuse_linear_bn_weights(
        fused_any.weight,
        fused_any.bias,
        bn.running_mean,
        bn.running_var,
        bn.eps,
        bn.weight,
        bn.bias,
    )
    return fused
