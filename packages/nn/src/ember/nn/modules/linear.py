"""``Identity``, ``Linear``, ``Bilinear`` and ``LazyLinear``."""

from __future__ import annotations

import math
from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn import init
from ember.nn._functional._checks import check_tensor, check_tensors
from ember.nn._functional.linear import bilinear, linear
from ember.nn.modules.lazy import LazyModuleMixin
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter, UninitializedParameter

__all__ = ["Bilinear", "Identity", "LazyLinear", "Linear", "NonDynamicallyQuantizableLinear"]


class Identity(Module):
    """Returns its input unchanged (constructor arguments are accepted and ignored).

    Example:
        >>> ember.nn.Identity(54, unused="x")(ember.ones(2))
        tensor([1., 1.])
    """

    _ember_builtin = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


def _any(t: object) -> Any:
    return t


def _factory(device: Any, dtype: Any) -> dict[str, Any]:
    return {"device": device, "dtype": dtype}


class Linear(Module):
    """``y = x Wᵀ + b`` over the last dim: ``weight`` (out, in), ``bias`` (out,).

    Initialised as torch: ``weight`` by kaiming_uniform_(a=√5), ``bias`` from U(-1/√in, 1/√in).

    Example:
        >>> fc = ember.nn.Linear(20, 30)
        >>> fc(ember.randn(128, 20)).shape
        ember.Size([128, 30])
    """

    _ember_builtin = True
    in_features: int
    out_features: int
    weight: Parameter
    bias: Parameter | None

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        for name, value in (("in_features", in_features), ("out_features", out_features)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"[Linear] {name} must be a non-negative int, got {value!r}")
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(ember.empty((out_features, in_features), **_factory(device, dtype)))
        if bias:
            self.bias = Parameter(ember.empty(out_features, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-draws the parameters from torch's default distributions."""
        # kaiming_uniform_ with a=sqrt(5) is U(-1/sqrt(in), 1/sqrt(in)): torch's default.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        x: Any = check_tensor(input, "input", self)
        if x.dim() == 0 or x.shape[-1] != self.in_features:
            raise RuntimeError(
                f"expected input with last dimension {self.in_features}, got shape {tuple(x.shape)}"
            )
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear that torch's quantization leaves alone: MultiheadAttention's ``out_proj`` class.

    ember has no quantization, so it is a Linear under torch's name (reprs and pickles match).
    """


class Bilinear(Module):
    """``y = x1ᵀ A x2 + b``: ``weight`` (out, in1, in2), ``bias`` (out,).

    Example:
        >>> m = ember.nn.Bilinear(20, 30, 40)
        >>> m(ember.randn(128, 20), ember.randn(128, 30)).shape
        ember.Size([128, 40])
    """

    _ember_builtin = True
    in1_features: int
    in2_features: int
    out_features: int
    weight: Parameter
    bias: Parameter | None

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(
            ember.empty((out_features, in1_features, in2_features), **_factory(device, dtype))
        )
        if bias:
            self.bias = Parameter(ember.empty(out_features, **_factory(device, dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Re-draws weight and bias from U(-1/√in1, 1/√in1), as torch."""
        bound = 1 / math.sqrt(self.weight.size(1)) if self.weight.size(1) > 0 else 0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        check_tensors(self, input1=input1, input2=input2)
        x1: Any = input1
        x2: Any = input2
        if x1.dim() == 0 or x1.shape[-1] != self.in1_features:
            raise RuntimeError(
                f"expected input1 with last dimension {self.in1_features}, got shape "
                f"{tuple(x1.shape)}"
            )
        if x2.dim() == 0 or x2.shape[-1] != self.in2_features:
            raise RuntimeError(
                f"expected input2 with last dimension {self.in2_features}, got shape "
                f"{tuple(x2.shape)}"
            )
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


class LazyLinear(LazyModuleMixin, Linear):
    """A Linear whose ``in_features`` is read from the first input; then it is a ``Linear``.

    Example:
        >>> m = ember.nn.LazyLinear(4)
        >>> m(ember.ones(2, 7)).shape
        ember.Size([2, 4])
    """

    cls_to_become = Linear
    weight: UninitializedParameter
    bias: UninitializedParameter

    def __init__(
        self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None
    ) -> None:
        # in_features=0 builds empty tensors that are replaced by placeholders at once.
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(device=device, dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(device=device, dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """Sets ``in_features`` from ``input.shape[-1]`` and materializes weight and bias."""
        if not self.has_uninitialized_params():
            # Materialized by load_state_dict: the weight's shape says what in_features is.
            self.in_features = self.weight.shape[-1]
        else:
            with no_grad():
                check_tensor(input, "input", self)
                self.in_features = _any(input).shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()
