"""Activation modules of ``ember.nn`` (torch 2.13 names, arguments and reprs).

Each module stores its arguments and calls the function of the same name in
``ember.nn.functional``.
"""

from __future__ import annotations

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor
from ember.nn._functional import activation as A
from ember.nn._functional._checks import AssertionValueError
from ember.nn.modules.module import Module
from ember.nn.parameter import Parameter

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "SELU",
    "Hardshrink",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "LeakyReLU",
    "LogSigmoid",
    "LogSoftmax",
    "Mish",
    "PReLU",
    "RReLU",
    "ReLU",
    "ReLU6",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softmax2d",
    "Softmin",
    "Softplus",
    "Softshrink",
    "Softsign",
    "Tanh",
    "Tanhshrink",
    "Threshold",
]


class _Inplace(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Threshold(Module):
    """Replaces values not greater than ``threshold`` by ``value``.

    Example:
        >>> nn.Threshold(0.1, 20.0)(ember.tensor([0.0, 1.0]))
        tensor([20.,  1.])
    """

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return A.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace}"


class ReLU(_Inplace):
    """max(0, x).

    Example:
        >>> nn.ReLU()(ember.tensor([-1.0, 2.0]))
        tensor([0., 2.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.relu(input, inplace=self.inplace)


class RReLU(Module):
    """Randomized leaky ReLU: random slopes in training, their mean in eval.

    Example:
        >>> nn.RReLU().eval()(ember.tensor([-1.0, 2.0]))
        tensor([-0.2292,  2.0000])
    """

    def __init__(
        self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False
    ) -> None:
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return A.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace}"


class Hardtanh(Module):
    """Clamps to ``[min_val, max_val]``.

    Example:
        >>> nn.Hardtanh()(ember.tensor([-2.0, 0.5]))
        tensor([-1.0000,  0.5000])
    """

    def __init__(
        self,
        min_val: float = -1.0,
        max_val: float = 1.0,
        inplace: bool = False,
        min_value: float | None = None,
        max_value: float | None = None,
    ) -> None:
        super().__init__()
        if min_value is not None:
            min_val = min_value
        if max_value is not None:
            max_val = max_value
        if max_val <= min_val:
            # torch asserts here: AssertionValueError is a ValueError and an AssertionError.
            raise AssertionValueError(
                f"Hardtanh: max_val ({max_val}) must be above min_val ({min_val})"
            )
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return A.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace}"


class ReLU6(Hardtanh):
    """min(max(0, x), 6).

    Example:
        >>> nn.ReLU6()(ember.tensor([7.0]))
        tensor([6.])
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    """1 / (1 + exp(-x)).

    Example:
        >>> nn.Sigmoid()(ember.tensor([0.0]))
        tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.sigmoid(input)


class Hardsigmoid(_Inplace):
    """relu6(x + 3) / 6.

    Example:
        >>> nn.Hardsigmoid()(ember.tensor([0.0]))
        tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.hardsigmoid(input, self.inplace)


class Tanh(Module):
    """Hyperbolic tangent.

    Example:
        >>> nn.Tanh()(ember.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.tanh(input)


class SiLU(_Inplace):
    """x * sigmoid(x).

    Example:
        >>> nn.SiLU()(ember.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.silu(input, inplace=self.inplace)


class Mish(_Inplace):
    """x * tanh(softplus(x)).

    Example:
        >>> nn.Mish()(ember.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.mish(input, inplace=self.inplace)


class Hardswish(_Inplace):
    """x * relu6(x + 3) / 6.

    Example:
        >>> nn.Hardswish()(ember.tensor([1.0]))
        tensor([0.6667])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.hardswish(input, self.inplace)


class ELU(Module):
    """x if x > 0 else alpha * (exp(x) - 1).

    Example:
        >>> nn.ELU()(ember.tensor([-1.0]))
        tensor([-0.6321])
    """

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return A.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace}"


class CELU(ELU):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).

    Example:
        >>> nn.CELU(2.0)(ember.tensor([-1.0]))
        tensor([-0.7869])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.celu(input, self.alpha, self.inplace)


class SELU(_Inplace):
    """Scaled ELU with the self-normalizing constants.

    Example:
        >>> nn.SELU()(ember.tensor([1.0]))
        tensor([1.0507])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.selu(input, self.inplace)


class GLU(Module):
    """Gated linear unit over ``dim``.

    Example:
        >>> nn.GLU()(ember.tensor([1.0, 0.0]))
        tensor([0.5000])
    """

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return A.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GELU(Module):
    """Gaussian error linear unit (``approximate='none'`` or ``'tanh'``).

    Example:
        >>> nn.GELU()(ember.tensor([1.0]))
        tensor([0.8413])
    """

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return A.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Hardshrink(Module):
    """x where |x| > lambd, else 0.

    Example:
        >>> nn.Hardshrink()(ember.tensor([0.2, 1.0]))
        tensor([0., 1.])
    """

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        return A.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """Soft thresholding by ``lambd``.

    Example:
        >>> nn.Softshrink()(ember.tensor([1.0]))
        tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.softshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return str(self.lambd)


class LeakyReLU(Module):
    """x if x > 0 else negative_slope * x.

    Example:
        >>> nn.LeakyReLU(0.1)(ember.tensor([-1.0]))
        tensor([-0.1000])
    """

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return A.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace}"


class LogSigmoid(Module):
    """log(sigmoid(x)).

    Example:
        >>> nn.LogSigmoid()(ember.tensor([0.0]))
        tensor([-0.6931])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.logsigmoid(input)


class Softplus(Module):
    """log(1 + exp(beta x)) / beta, linear above ``threshold``.

    Example:
        >>> nn.Softplus()(ember.tensor([0.0]))
        tensor([0.6931])
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:
        return A.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class PReLU(Module):
    """Leaky ReLU with learnable slopes (one, or one per channel), initialised to ``init``.

    Example:
        >>> m = nn.PReLU()
        >>> m(ember.tensor([-1.0])).shape, m.weight.shape
        (ember.Size([1]), ember.Size([1]))
    """

    def __init__(
        self,
        num_parameters: int = 1,
        init: float = 0.25,
        device: object = None,
        dtype: ember.dtype | None = None,
    ) -> None:
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(ember.empty(num_parameters, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        with no_grad():
            self.weight.fill_(self.init)

    def forward(self, input: Tensor) -> Tensor:
        return A.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Softsign(Module):
    """x / (1 + |x|).

    Example:
        >>> nn.Softsign()(ember.tensor([1.0]))
        tensor([0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x).

    Example:
        >>> nn.Tanhshrink()(ember.tensor([0.0]))
        tensor([0.])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.tanhshrink(input)


class _SoftmaxBase(Module):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def __setstate__(self, state: dict[str, object]) -> None:
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(_SoftmaxBase):
    """softmax(-x) along ``dim``.

    Example:
        >>> nn.Softmin(dim=0)(ember.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.softmin(input, self.dim, _stacklevel=5)


class Softmax(_SoftmaxBase):
    """Softmax along ``dim``.

    Example:
        >>> nn.Softmax(dim=0)(ember.tensor([0.0, 0.0]))
        tensor([0.5000, 0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_SoftmaxBase):
    """log(softmax(x)) along ``dim``.

    Example:
        >>> nn.LogSoftmax(dim=0)(ember.tensor([0.0, 0.0]))
        tensor([-0.6931, -0.6931])
    """

    def forward(self, input: Tensor) -> Tensor:
        return A.log_softmax(input, self.dim, _stacklevel=5)


class Softmax2d(Module):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) inputs.

    Example:
        >>> nn.Softmax2d()(ember.zeros(2, 1, 1)).flatten()
        tensor([0.5000, 0.5000])
    """

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in (3, 4):
            raise ValueError(
                f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead"
            )
        return A.softmax(input, -3, _stacklevel=5)


# torch defines MultiheadAttention in this module; programs name it here (torch.load's
# safe_globals lists). Imported last: attention.py imports from the modules this one does.
from ember.nn.modules.attention import MultiheadAttention as MultiheadAttention  # noqa: E402
