"""Dropout functions of ``ember.nn.functional`` (torch 2.13 semantics).

Plain dropout of a contiguous floating-point tensor is one native pass each way
(``_C._nn_dropout``: the keep bits come from ember's generator, so ``ember.manual_seed`` makes
them reproducible, and are kept packed 8 per byte for the backward). The other forms (in place,
feature and alpha dropout, strided inputs) draw a mask with ``bernoulli_`` and pre-scale it, so
their forward and backward are one multiply each.
"""

from __future__ import annotations

import warnings

import ember
from ember._tensor import Tensor
from ember.nn._functional._checks import check_tensor
from ember_core import _C

__all__ = [
    "alpha_dropout",
    "dropout",
    "dropout1d",
    "dropout2d",
    "dropout3d",
    "feature_alpha_dropout",
]

# -SELU alpha * SELU scale: the value a dropped SELU activation is set to.
_ALPHA = 1.7580993408473766


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _apply(input: Tensor, factor: Tensor, shift: Tensor | None, inplace: bool) -> Tensor:
    if inplace:
        input.mul_(factor)
        return input.add_(shift) if shift is not None else input
    out = input * factor
    return out + shift if shift is not None else out


def _noise_shape(input: Tensor, feature: bool) -> list[int]:
    if feature:
        return list(input.size()[:2]) + [1] * (input.dim() - 2)
    return list(input.size())


def _dropout_impl(
    input: Tensor, p: float, training: bool, inplace: bool, feature: bool, alpha: bool
) -> Tensor:
    check_tensor(
        input, "input", ("feature_" if feature else "") + ("alpha_dropout" if alpha else "dropout")
    )
    _check_p(p)
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:
        return _apply(input, ember.zeros([], dtype=input.dtype), None, inplace)
    if not (alpha or feature or inplace) and input.is_floating_point() and input.is_contiguous():
        out: Tensor = _C._nn_dropout(input, p)[0]
        return out
    shape = _noise_shape(input, feature)
    noise = ember.empty(shape, dtype=input.dtype).bernoulli_(1.0 - p)
    if not alpha:
        return _apply(input, noise.mul_(1.0 / (1.0 - p)), None, inplace)
    a = 1.0 / ((_ALPHA * _ALPHA * p + 1.0) * (1.0 - p)) ** 0.5
    shift = (noise - 1.0).mul_(_ALPHA * a).add_(_ALPHA * a * p)
    return _apply(input, noise.mul_(a), shift, inplace)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zeroes each element with probability ``p`` and scales the rest by 1 / (1 - p).

    Example:
        >>> F.dropout(ember.ones(4), p=0.5, training=False)
        tensor([1., 1., 1., 1.])
    """
    return _dropout_impl(input, p, training, inplace, feature=False, alpha=False)


def alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    """Dropout that keeps SELU's self-normalizing mean and variance.

    Example:
        >>> F.alpha_dropout(ember.ones(2), 0.2)
        tensor([1., 1.])
    """
    return _dropout_impl(input, p, training, inplace, feature=False, alpha=True)


def feature_alpha_dropout(
    input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False
) -> Tensor:
    """Alpha dropout of whole channels (dim 1).

    Example:
        >>> F.feature_alpha_dropout(ember.ones(1, 2, 3), 0.2)
        tensor([[[1., 1., 1.],
                 [1., 1., 1.]]])
    """
    return _dropout_impl(input, p, training, inplace, feature=True, alpha=True)


def _feature_dropout(
    name: str, spatial: int, input: Tensor, p: float, training: bool, inplace: bool
) -> Tensor:
    _check_p(p)
    batched = input.dim() == spatial + 2
    if batched:
        return _dropout_impl(input, p, training, inplace, feature=True, alpha=False)
    out = _dropout_impl(input.unsqueeze(0), p, training, False, feature=True, alpha=False)
    out = out.squeeze(0)
    return input.copy_(out) if inplace and out is not input else out


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zeroes whole channels of (N, C, L) or (C, L) inputs.

    Example:
        >>> F.dropout1d(ember.ones(2, 3), training=False).shape
        ember.Size([2, 3])
    """
    check_tensor(input, "input", "dropout1d")
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note "
            "that dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs)."
        )
    return _feature_dropout("dropout1d", 1, input, p, training, inplace)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zeroes whole channels of (N, C, H, W) inputs (a 3-D input is read as (N, C, L), as torch).

    Example:
        >>> F.dropout2d(ember.ones(1, 2, 2, 2), training=False).shape
        ember.Size([1, 2, 2, 2])
    """
    check_tensor(input, "input", "dropout2d")
    _check_p(p)
    ndim = input.dim()
    if ndim not in (3, 4):
        warnings.warn(
            f"dropout2d: Received a {ndim}-D input to dropout2d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout2d exists to provide "
            "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, "
            "and an optional batch dimension (i.e. 3D or 4D inputs).",
            stacklevel=2,
        )
    if ndim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
            "the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2,
        )
    if ndim < 2:
        return _dropout_impl(input, p, training, inplace, feature=False, alpha=False)
    return _dropout_impl(input, p, training, inplace, feature=True, alpha=False)


def dropout3d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) inputs.

    Example:
        >>> F.dropout3d(ember.ones(2, 1, 1, 1), training=False).shape
        ember.Size([2, 1, 1, 1])
    """
    check_tensor(input, "input", "dropout3d")
    _check_p(p)
    ndim = input.dim()
    if ndim not in (4, 5):
        warnings.warn(
            f"dropout3d: Received a {ndim}-D input to dropout3d, which is deprecated and will "
            "result in an error in a future release. To retain the behavior and silence this "
            "warning, please use dropout instead. Note that dropout3d exists to provide "
            "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, "
            "and an optional batch dimension (i.e. 4D or 5D inputs).",
            stacklevel=2,
        )
    if ndim == 5:
        return _dropout_impl(input, p, training, inplace, feature=True, alpha=False)
    out = _dropout_impl(input.unsqueeze(0), p, training, False, feature=True, alpha=False)
    out = out.squeeze(0)
    return input.copy_(out) if inplace and training and p > 0 else out
