"""Convolution layers: Conv1d/2d/3d, ConvTranspose1d/2d/3d and their Lazy forms."""

from __future__ import annotations

import math
from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn import init
from ember.nn._functional import conv as F
from ember.nn._functional._checks import check_tensor
from ember.nn._functional._window import IntOrTuple, ntuple
from ember.nn._functional.padding import pad as _pad
from ember.nn.modules.lazy import LazyModuleMixin
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter, UninitializedParameter

__all__ = [
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
]

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


class _ConvNd(Module):
    """Shared state of the convolution layers (torch's attribute names and state_dict keys)."""

    _ember_builtin = True
    _n: int = 2
    in_channels: int
    out_channels: int
    kernel_size: tuple[int, ...]
    stride: tuple[int, ...]
    padding: str | tuple[int, ...]
    dilation: tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, ...]
    groups: int
    padding_mode: str
    weight: Parameter
    bias: Parameter | None

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: IntOrTuple,
        stride: IntOrTuple,
        padding: str | IntOrTuple,
        dilation: IntOrTuple,
        transposed: bool,
        output_padding: IntOrTuple,
        groups: int,
        bias: bool,
        padding_mode: str,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        n, name = self._n, type(self).__name__
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in _PADDING_MODES:
            raise ValueError(
                f"padding_mode must be one of {list(_PADDING_MODES)}, but got "
                f"padding_mode='{padding_mode}'"
            )
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = ntuple(kernel_size, n, "kernel_size", name)
        self.stride = ntuple(stride, n, "stride", name)
        self.dilation = ntuple(dilation, n, "dilation", name)
        if isinstance(padding, str):
            if padding not in ("valid", "same"):
                raise ValueError(
                    f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}"
                )
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            self.padding = padding
        else:
            self.padding = ntuple(padding, n, "padding", name)
        self.transposed = transposed
        self.output_padding = ntuple(output_padding, n, "output_padding", name)
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad order: last dim first, (left, right) per dim; 'same' pads the extra one right.
        pads: list[int] = []
        for i in reversed(range(n)):
            if self.padding == "same":
                total = self.dilation[i] * (self.kernel_size[i] - 1)
                pads += [total // 2, total - total // 2]
            elif self.padding == "valid":
                pads += [0, 0]
            else:
                assert not isinstance(self.padding, str)
                pads += [self.padding[i], self.padding[i]]
        self._reversed_padding_repeated_twice = pads
        factory = {"device": device, "dtype": dtype}
        shape = (
            (in_channels, out_channels // groups, *self.kernel_size)
            if transposed
            else (out_channels, in_channels // groups, *self.kernel_size)
        )
        self.weight = Parameter(ember.empty(shape, **factory))
        if bias:
            self.bias = Parameter(ember.empty(out_channels, **factory))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-draws weight (kaiming_uniform_, a=√5) and bias (U(±1/√fan_in)), as torch."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        n = self._n
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}"
        s += f", stride={self.stride}"
        if self.padding != (0,) * n:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * n:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * n:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class _Conv(_ConvNd):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: IntOrTuple,
        stride: IntOrTuple = 1,
        padding: str | IntOrTuple = 0,
        dilation: IntOrTuple = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            False,
            0,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        fn = (F.conv1d, F.conv2d, F.conv3d)[self._n - 1]
        if self.padding_mode != "zeros":
            padded = _pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return fn(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return fn(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)


class Conv1d(_Conv):
    """1-d convolution over [N, C_in, L] (or [C_in, L]); weight [C_out, C_in / groups, k].

    Example:
        >>> m = ember.nn.Conv1d(16, 33, 3, stride=2)
        >>> m(ember.randn(20, 16, 50)).shape
        ember.Size([20, 33, 24])
    """

    _n = 1


class Conv2d(_Conv):
    """2-d convolution over [N, C_in, H, W] (or [C_in, H, W]); weight [C_out, C_in / groups,
    kH, kW]; padding int, tuple, 'valid' or 'same'; padding_mode 'zeros', 'reflect',
    'replicate' or 'circular'.

    Example:
        >>> m = ember.nn.Conv2d(16, 33, 3, padding=1)
        >>> m(ember.randn(2, 16, 8, 8)).shape
        ember.Size([2, 33, 8, 8])
    """

    _n = 2


class Conv3d(_Conv):
    """3-d convolution over [N, C_in, D, H, W] (or [C_in, D, H, W]).

    Example:
        >>> m = ember.nn.Conv3d(2, 4, 3)
        >>> m(ember.randn(1, 2, 5, 5, 5)).shape
        ember.Size([1, 4, 3, 3, 3])
    """

    _n = 3


def _output_padding(
    m: _ConvNd, input: Tensor, output_size: Any, padding: tuple[int, ...]
) -> tuple[int, ...]:
    """The output_padding that makes a transposed conv produce ``output_size`` (torch's rule)."""
    if output_size is None:
        return m.output_padding
    n = m._n
    x: Any = input
    sizes = [int(v) for v in output_size]
    if len(sizes) in (n + 1, n + 2):
        sizes = sizes[-n:]
    if len(sizes) != n:
        raise ValueError(
            f"ConvTranspose{n}D: for {x.dim()}D input, output_size must have {n} or {n + 2} "
            f"elements (got {len(sizes)})"
        )
    spatial = list(x.shape[-n:])
    lows, highs = [], []
    for i in range(n):
        low = (
            (spatial[i] - 1) * m.stride[i]
            - 2 * padding[i]
            + m.dilation[i] * (m.kernel_size[i] - 1)
            + 1
        )
        lows.append(low)
        highs.append(low + m.stride[i] - 1)
    for i in range(n):
        if not lows[i] <= sizes[i] <= highs[i]:
            raise ValueError(
                f"requested an output size of {sizes}, but valid sizes range from {lows} to "
                f"{highs} (for an input of {spatial})"
            )
    return tuple(sizes[i] - lows[i] for i in range(n))


class _ConvTranspose(_ConvNd):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: IntOrTuple,
        stride: IntOrTuple = 1,
        padding: IntOrTuple = 0,
        output_padding: IntOrTuple = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: IntOrTuple = 1,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            True,
            output_padding,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
        )

    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor:
        check_tensor(input, "input", self)
        padding = self.padding
        assert not isinstance(padding, str)
        out_pad = _output_padding(self, input, output_size, padding)
        fn = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._n - 1]
        return fn(
            input,
            self.weight,
            self.bias,
            self.stride,
            padding,
            out_pad,
            self.groups,
            self.dilation,
        )


class ConvTranspose1d(_ConvTranspose):
    """Transposed 1-d convolution; weight [C_in, C_out / groups, k]; ``forward(input,
    output_size=None)``.

    Example:
        >>> m = ember.nn.ConvTranspose1d(4, 2, 3, stride=2)
        >>> m(ember.randn(1, 4, 5)).shape
        ember.Size([1, 2, 11])
    """

    _n = 1


class ConvTranspose2d(_ConvTranspose):
    """Transposed 2-d convolution; weight [C_in, C_out / groups, kH, kW].

    Example:
        >>> m = ember.nn.ConvTranspose2d(4, 2, 3, stride=2)
        >>> m(ember.randn(1, 4, 5, 5), output_size=[12, 12]).shape
        ember.Size([1, 2, 12, 12])
    """

    _n = 2


class ConvTranspose3d(_ConvTranspose):
    """Transposed 3-d convolution; weight [C_in, C_out / groups, kD, kH, kW].

    Example:
        >>> m = ember.nn.ConvTranspose3d(2, 1, 2)
        >>> m(ember.randn(1, 2, 3, 3, 3)).shape
        ember.Size([1, 1, 4, 4, 4])
    """

    _n = 3


class _LazyConvMixin(LazyModuleMixin):
    """in_channels comes from the first input (dim 1, or dim 0 when unbatched)."""

    def reset_parameters(self: Any) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            _ConvNd.reset_parameters(self)

    def initialize_parameters(self: Any, input: Tensor, *args: Any, **kwargs: Any) -> None:
        if self.has_uninitialized_params():
            with no_grad():
                x: Any = input
                batched = x.dim() == self._n + 2
                self.in_channels = x.shape[1] if batched else x.shape[0]
                if self.in_channels % self.groups != 0:
                    raise ValueError("in_channels must be divisible by groups")
                if self.transposed:
                    shape = (self.in_channels, self.out_channels // self.groups)
                else:
                    shape = (self.out_channels, self.in_channels // self.groups)
                self.weight.materialize((*shape, *self.kernel_size))
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()


def _make_lazy(base: type[_ConvNd], target: type[_ConvNd], doc: str) -> type[Any]:
    def __init__(
        self: Any, out_channels: int, kernel_size: IntOrTuple, *args: Any, **kwargs: Any
    ) -> None:
        use_bias = kwargs.pop("bias", True)
        device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
        groups = kwargs.get("groups", 1)
        # in_channels=groups builds small tensors that are replaced by placeholders at once.
        LazyModuleMixin.__init__(
            self, groups, out_channels, kernel_size, *args, bias=False, **kwargs
        )
        self.in_channels = 0
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        if use_bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    cls = type(
        f"Lazy{target.__name__}",
        (_LazyConvMixin, base),
        {"__init__": __init__, "cls_to_become": target, "__doc__": doc, "_n": target._n},
    )
    cls.__module__ = __name__
    return cls


LazyConv1d = _make_lazy(Conv1d, Conv1d, "A Conv1d whose in_channels comes from the first input.")
LazyConv2d = _make_lazy(Conv2d, Conv2d, "A Conv2d whose in_channels comes from the first input.")
LazyConv3d = _make_lazy(Conv3d, Conv3d, "A Conv3d whose in_channels comes from the first input.")
LazyConvTranspose1d = _make_lazy(
    ConvTranspose1d, ConvTranspose1d, "A ConvTranspose1d whose in_channels comes from the input."
)
LazyConvTranspose2d = _make_lazy(
    ConvTranspose2d, ConvTranspose2d, "A ConvTranspose2d whose in_channels comes from the input."
)
LazyConvTranspose3d = _make_lazy(
    ConvTranspose3d, ConvTranspose3d, "A ConvTranspose3d whose in_channels comes from the input."
)
