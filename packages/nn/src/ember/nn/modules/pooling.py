"""Pooling layers: MaxPool, AvgPool, LPPool, adaptive pools and MaxUnpool (1-d to 3-d)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ember._tensor import Tensor
from ember.nn._functional import pooling as F
from ember.nn._functional._window import IntOrTuple, ntuple
from ember.nn.modules.module import Module

__all__ = [
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "LPPool1d",
    "LPPool2d",
    "LPPool3d",
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
]


class _MaxPoolNd(Module):
    _ember_builtin = True
    _n = 2

    def __init__(
        self,
        kernel_size: IntOrTuple,
        stride: IntOrTuple | None = None,
        padding: IntOrTuple = 0,
        dilation: IntOrTuple = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input: Tensor) -> Any:
        fn = (F.max_pool1d, F.max_pool2d, F.max_pool3d)[self._n - 1]
        return fn(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool1d(_MaxPoolNd):
    """Max over sliding windows of [N, C, L]; ``return_indices`` also gives the argmax positions.

    Example:
        >>> ember.nn.MaxPool1d(2)(ember.tensor([[[1.0, 3.0, 2.0, 0.0]]]))
        tensor([[[3., 2.]]])
    """

    _n = 1


class MaxPool2d(_MaxPoolNd):
    """Max over sliding windows of [N, C, H, W] (stride defaults to kernel_size).

    Example:
        >>> ember.nn.MaxPool2d(2)(ember.randn(1, 3, 8, 8)).shape
        ember.Size([1, 3, 4, 4])
    """

    _n = 2


class MaxPool3d(_MaxPoolNd):
    """Max over sliding windows of [N, C, D, H, W].

    Example:
        >>> ember.nn.MaxPool3d(2)(ember.randn(1, 1, 4, 4, 4)).shape
        ember.Size([1, 1, 2, 2, 2])
    """

    _n = 3


class _AvgPoolNd(Module):
    _ember_builtin = True
    _n = 2

    def __init__(
        self,
        kernel_size: IntOrTuple,
        stride: IntOrTuple | None = None,
        padding: IntOrTuple = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        if self._n > 1:
            self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        if self._n == 1:
            return F.avg_pool1d(
                input,
                self.kernel_size,
                self.stride,
                self.padding,
                self.ceil_mode,
                self.count_include_pad,
            )
        fn = F.avg_pool2d if self._n == 2 else F.avg_pool3d
        return fn(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """Average over sliding windows of [N, C, L].

    Example:
        >>> ember.nn.AvgPool1d(2)(ember.tensor([[[1.0, 3.0, 2.0, 0.0]]]))
        tensor([[[2., 1.]]])
    """

    _n = 1

    def __init__(
        self,
        kernel_size: IntOrTuple,
        stride: IntOrTuple | None = None,
        padding: IntOrTuple = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__(kernel_size, stride, padding, ceil_mode, count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """Average over sliding windows of [N, C, H, W] (count_include_pad, divisor_override).

    Example:
        >>> ember.nn.AvgPool2d(2)(ember.ones(1, 1, 4, 4)).shape
        ember.Size([1, 1, 2, 2])
    """

    _n = 2


class AvgPool3d(_AvgPoolNd):
    """Average over sliding windows of [N, C, D, H, W].

    Example:
        >>> ember.nn.AvgPool3d(2)(ember.ones(1, 1, 2, 2, 2)).shape
        ember.Size([1, 1, 1, 1, 1])
    """

    _n = 3


class _LPPoolNd(Module):
    _ember_builtin = True
    _n = 2

    def __init__(
        self,
        norm_type: float,
        kernel_size: IntOrTuple,
        stride: IntOrTuple | None = None,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        fn = (F.lp_pool1d, F.lp_pool2d, F.lp_pool3d)[self._n - 1]
        return fn(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self) -> str:
        return (
            f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
            f"ceil_mode={self.ceil_mode}"
        )


class LPPool1d(_LPPoolNd):
    """p-norm over sliding windows of [N, C, L].

    Example:
        >>> ember.nn.LPPool1d(2, 2)(ember.tensor([[[3.0, 4.0]]]))
        tensor([[[5.]]])
    """

    _n = 1


class LPPool2d(_LPPoolNd):
    """p-norm over sliding windows of [N, C, H, W].

    Example:
        >>> ember.nn.LPPool2d(1, 2)(ember.ones(1, 1, 2, 2))
        tensor([[[[4.]]]])
    """

    _n = 2


class LPPool3d(_LPPoolNd):
    """p-norm over sliding windows of [N, C, D, H, W].

    Example:
        >>> ember.nn.LPPool3d(1, 2)(ember.ones(1, 1, 2, 2, 2)).shape
        ember.Size([1, 1, 1, 1, 1])
    """

    _n = 3


class _AdaptiveAvgPoolNd(Module):
    _ember_builtin = True
    _n = 2

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        fn = (F.adaptive_avg_pool1d, F.adaptive_avg_pool2d, F.adaptive_avg_pool3d)[self._n - 1]
        return fn(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed output length.

    Example:
        >>> ember.nn.AdaptiveAvgPool1d(2)(ember.tensor([[[1.0, 2.0, 3.0, 4.0]]]))
        tensor([[[1.5000, 3.5000]]])
    """

    _n = 1


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed output size (None keeps that dim).

    Example:
        >>> ember.nn.AdaptiveAvgPool2d((1, 1))(ember.randn(2, 3, 7, 7)).shape
        ember.Size([2, 3, 1, 1])
    """

    _n = 2


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling to a fixed output size over [N, C, D, H, W].

    Example:
        >>> ember.nn.AdaptiveAvgPool3d(1)(ember.randn(1, 2, 3, 4, 5)).shape
        ember.Size([1, 2, 1, 1, 1])
    """

    _n = 3


class _AdaptiveMaxPoolNd(Module):
    _ember_builtin = True
    _n = 2

    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input: Tensor) -> Any:
        fn = (F.adaptive_max_pool1d, F.adaptive_max_pool2d, F.adaptive_max_pool3d)[self._n - 1]
        return fn(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output length.

    Example:
        >>> ember.nn.AdaptiveMaxPool1d(2)(ember.tensor([[[1.0, 5.0, 3.0, 4.0]]]))
        tensor([[[5., 4.]]])
    """

    _n = 1


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output size.

    Example:
        >>> ember.nn.AdaptiveMaxPool2d(3)(ember.randn(1, 2, 7, 7)).shape
        ember.Size([1, 2, 3, 3])
    """

    _n = 2


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling to a fixed output size over [N, C, D, H, W].

    Example:
        >>> ember.nn.AdaptiveMaxPool3d(2)(ember.randn(1, 1, 4, 4, 4)).shape
        ember.Size([1, 1, 2, 2, 2])
    """

    _n = 3


class _MaxUnpoolNd(Module):
    _ember_builtin = True
    _n = 2

    def __init__(
        self, kernel_size: IntOrTuple, stride: IntOrTuple | None = None, padding: IntOrTuple = 0
    ) -> None:
        super().__init__()
        name, n = type(self).__name__, self._n
        self.kernel_size = ntuple(kernel_size, n, "kernel_size", name)
        self.stride = ntuple(stride if (stride is not None) else kernel_size, n, "stride", name)
        self.padding = ntuple(padding, n, "padding", name)

    def forward(
        self, input: Tensor, indices: Tensor, output_size: Sequence[int] | None = None
    ) -> Tensor:
        fn = (F.max_unpool1d, F.max_unpool2d, F.max_unpool3d)[self._n - 1]
        return fn(input, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Partial inverse of MaxPool1d: values back at their indices, zeros elsewhere.

    Example:
        >>> pool, unpool = ember.nn.MaxPool1d(2, return_indices=True), ember.nn.MaxUnpool1d(2)
        >>> unpool(*pool(ember.tensor([[[1.0, 3.0, 2.0, 0.0]]])))
        tensor([[[0., 3., 2., 0.]]])
    """

    _n = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """Partial inverse of MaxPool2d (``output_size`` resolves ambiguous sizes).

    Example:
        >>> pool, unpool = ember.nn.MaxPool2d(2, return_indices=True), ember.nn.MaxUnpool2d(2)
        >>> unpool(*pool(ember.randn(1, 1, 4, 4))).shape
        ember.Size([1, 1, 4, 4])
    """

    _n = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Partial inverse of MaxPool3d.

    Example:
        >>> pool, unpool = ember.nn.MaxPool3d(2, return_indices=True), ember.nn.MaxUnpool3d(2)
        >>> unpool(*pool(ember.randn(1, 1, 2, 2, 2))).shape
        ember.Size([1, 1, 2, 2, 2])
    """

    _n = 3
