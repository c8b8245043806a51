"""Parameter initialisation (torch.nn.init): every function fills its tensor in place, no grad.

Distributions, fans, gains, defaults and errors are torch's, so a model initialised here has the
same statistics as in torch (the values differ: ember has its own random streams).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import ember
from ember._grad_mode import no_grad
from ember._tensor import Tensor

__all__ = [
    "calculate_gain",
    "constant_",
    "dirac_",
    "eye_",
    "kaiming_normal_",
    "kaiming_uniform_",
    "normal_",
    "ones_",
    "orthogonal_",
    "sparse_",
    "trunc_normal_",
    "uniform_",
    "xavier_normal_",
    "xavier_uniform_",
    "zeros_",
]

_LINEAR_FNS = (
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
)


def calculate_gain(nonlinearity: str, param: float | None = None) -> float:
    """The recommended gain for a nonlinearity (``tanh``: 5/3, ``relu``: √2, ``selu``: 3/4...).

    Example:
        >>> round(ember.nn.init.calculate_gain("leaky_relu", 0.2), 4)
        1.3868
    """
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _any(t: object) -> Any:
    return t


def _check_tensor(tensor: object, fn: str) -> Any:
    # Any: the native methods' stubs type their results as `object`.
    if not isinstance(tensor, Tensor):
        raise TypeError(f"[nn.init.{fn}] expected a Tensor, got {type(tensor).__name__}")
    return tensor


def uniform_(
    tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: ember.Generator | None = None
) -> Tensor:
    """Fills ``tensor`` with values drawn from U(a, b).

    Example:
        >>> w = ember.nn.init.uniform_(ember.empty(3, 5), -0.1, 0.1)
        >>> bool((w.abs() <= 0.1).all())
        True
    """
    t = _check_tensor(tensor, "uniform_")
    with no_grad():
        t.uniform_(a, b, generator=generator)
        return tensor


def normal_(
    tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: ember.Generator | None = None
) -> Tensor:
    """Fills ``tensor`` with values drawn from N(mean, std²).

    Example:
        >>> ember.nn.init.normal_(ember.empty(3, 5)).shape
        ember.Size([3, 5])
    """
    t = _check_tensor(tensor, "normal_")
    with no_grad():
        t.normal_(mean, std, generator=generator)
        return tensor


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: ember.Generator | None = None,
) -> Tensor:
    """Fills ``tensor`` with N(mean, std²) truncated to [a, b] (inverse-CDF sampling).

    Example:
        >>> w = ember.nn.init.trunc_normal_(ember.empty(100), std=1.0, a=-1.0, b=1.0)
        >>> bool((w.abs() <= 1.0).all())
        True
    """
    t = _check_tensor(tensor, "trunc_normal_")

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
            "values may be incorrect.",
            stacklevel=2,
        )
    with no_grad():
        lo = norm_cdf((a - mean) / std)
        hi = norm_cdf((b - mean) / std)
        t.uniform_(2 * lo - 1, 2 * hi - 1, generator=generator)
        t.erfinv_()
        t.mul_(std * math.sqrt(2.0))
        t.add_(mean)
        t.clamp_(min=a, max=b)
        return tensor


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fills ``tensor`` with ``val``.

    Example:
        >>> ember.nn.init.constant_(ember.empty(2), 0.3)
        tensor([0.3000, 0.3000])
    """
    t = _check_tensor(tensor, "constant_")
    with no_grad():
        t.fill_(val)
        return tensor


def ones_(tensor: Tensor) -> Tensor:
    """Fills ``tensor`` with ones.

    Example:
        >>> ember.nn.init.ones_(ember.empty(2))
        tensor([1., 1.])
    """
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    """Fills ``tensor`` with zeros.

    Example:
        >>> ember.nn.init.zeros_(ember.empty(2))
        tensor([0., 0.])
    """
    t = _check_tensor(tensor, "zeros_")
    with no_grad():
        t.zero_()
        return tensor


def eye_(tensor: Tensor) -> Tensor:
    """Fills a 2-d ``tensor`` with the identity matrix.

    Example:
        >>> ember.nn.init.eye_(ember.empty(2, 3))
        tensor([[1., 0., 0.],
                [0., 1., 0.]])
    """
    t = _check_tensor(tensor, "eye_")
    if t.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with no_grad():
        t.copy_(ember.eye(t.shape[0], t.shape[1]))
        return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fills a 3/4/5-d (conv weight) ``tensor`` with the Dirac delta: convolution is identity.

    Example:
        >>> w = ember.nn.init.dirac_(ember.empty(2, 2, 3))
        >>> w[:, :, 1]
        tensor([[1., 0.],
                [0., 1.]])
    """
    t = _check_tensor(tensor, "dirac_")
    dims = t.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = t.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    min_dim = min(out_per_group, sizes[1])
    centre = tuple(s // 2 for s in sizes[2:])
    with no_grad():
        t.zero_()
        for g in range(groups):
            for d in range(min_dim):
                index = (g * out_per_group + d, d, *centre)
                t[index] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    shape: tuple[int, ...] = tuple(_any(tensor).size())
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    if not isinstance(mode, str):
        raise TypeError(f"[nn.init] mode must be 'fan_in' or 'fan_out', got {type(mode).__name__}")
    mode = mode.lower()
    valid = ["fan_in", "fan_out"]
    if mode not in valid:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(
    tensor: Tensor, gain: float = 1.0, generator: ember.Generator | None = None
) -> Tensor:
    """Glorot uniform: U(-a, a) with a = gain·√(6 / (fan_in + fan_out)).

    Example:
        >>> ember.nn.init.xavier_uniform_(ember.empty(3, 5)).shape
        ember.Size([3, 5])
    """
    _check_tensor(tensor, "xavier_uniform_")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(
    tensor: Tensor, gain: float = 1.0, generator: ember.Generator | None = None
) -> Tensor:
    """Glorot normal: N(0, std²) with std = gain·√(2 / (fan_in + fan_out)).

    Example:
        >>> ember.nn.init.xavier_normal_(ember.empty(3, 5)).shape
        ember.Size([3, 5])
    """
    _check_tensor(tensor, "xavier_normal_")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan = _calculate_correct_fan(tensor, mode)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: ember.Generator | None = None,
) -> Tensor:
    """He uniform: U(-b, b) with b = gain·√(3 / fan) (Linear and Conv use a=√5).

    Example:
        >>> w = ember.nn.init.kaiming_uniform_(ember.empty(3, 5), mode="fan_in")
        >>> w.shape
        ember.Size([3, 5])
    """
    t = _check_tensor(tensor, "kaiming_uniform_")
    if 0 in t.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator: ember.Generator | None = None,
) -> Tensor:
    """He normal: N(0, std²) with std = gain / √fan.

    Example:
        >>> ember.nn.init.kaiming_normal_(ember.empty(3, 5), mode="fan_out").shape
        ember.Size([3, 5])
    """
    t = _check_tensor(tensor, "kaiming_normal_")
    if 0 in t.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def orthogonal_(
    tensor: Tensor, gain: float = 1, generator: ember.Generator | None = None
) -> Tensor:
    """Fills ``tensor`` (2-d or more, flattened past dim 0) with a (semi-)orthogonal matrix.

    Example:
        >>> w = ember.nn.init.orthogonal_(ember.empty(3, 3, dtype=ember.float64))
        >>> bool(((w @ w.T) - ember.eye(3, dtype=ember.float64)).abs().max() < 1e-10)
        True
    """
    t = _check_tensor(tensor, "orthogonal_")
    if t.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if t.numel() == 0:
        return tensor
    rows = t.size(0)
    cols = t.numel() // rows
    with no_grad():
        flat = t.new_empty((rows, cols)).normal_(0, 1, generator=generator)
        if rows < cols:
            flat = flat.T
        q, r = ember.linalg.qr(flat)
        # Signs of R's diagonal make the decomposition unique (a uniform draw, Mezzadri 2007).
        q = q * ember.diag(r, 0).sign()
        if rows < cols:
            q = q.T
        t.view_as(q).copy_(q)
        t.mul_(gain)
    return tensor


def sparse_(
    tensor: Tensor, sparsity: float, std: float = 0.01, generator: ember.Generator | None = None
) -> Tensor:
    """Fills a 2-d ``tensor`` with N(0, std²) and zeroes a ``sparsity`` fraction of each column.

    Example:
        >>> w = ember.nn.init.sparse_(ember.empty(10, 3), sparsity=0.5)
        >>> [int((w[:, c] == 0).sum()) for c in range(3)]
        [5, 5, 5]
    """
    t = _check_tensor(tensor, "sparse_")
    if t.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = t.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        t.normal_(0, std, generator=generator)
        for col in range(cols):
            zero_rows = ember.randperm(rows, generator=generator)[:num_zeros]
            t[zero_rows, col] = 0
    return tensor


def _deprecated(new: Callable[..., Tensor]) -> Callable[..., Tensor]:
    old_name = new.__name__[:-1]

    def deprecated_init(*args: Any, **kwargs: Any) -> Tensor:
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new.__name__}`.",
            FutureWarning,
            stacklevel=2,
        )
        return new(*args, **kwargs)

    deprecated_init.__name__ = old_name
    deprecated_init.__doc__ = f"Deprecated alias of ``{new.__name__}``."
    return deprecated_init


# torch's deprecated names without the trailing underscore.
uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
