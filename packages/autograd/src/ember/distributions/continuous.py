"""Location-scale continuous distributions: Normal, Uniform, Exponential, Laplace, Cauchy."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ember
from ember._grad_mode import no_grad
from ember._tensor import Size, Tensor
from ember.distributions import constraints
from ember.distributions.distribution import Distribution
from ember.distributions.utils import broadcast_all, finfo_of, shape_of

__all__ = ["Cauchy", "Exponential", "Laplace", "Normal", "Uniform"]

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _shape(sample_shape: Any) -> tuple[int, ...]:
    return tuple(Size(sample_shape))


def _uniform_open(shape: tuple[int, ...], like: Tensor) -> Tensor:
    """Uniform draws in (0, 1): the smallest positive float replaces an exact 0."""
    u = ember.rand(shape, dtype=like.dtype)
    return u.clamp(min=finfo_of(like.dtype).tiny)


class _LocScale(Distribution):
    """Shared constructor and expand of the two-parameter (loc, scale) families."""

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "loc": constraints.real,
        "scale": constraints.positive,
    }
    has_rsample = True

    def __init__(self, loc: Any, scale: Any, validate_args: bool | None = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        super().__init__(shape_of(self.loc), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        new = self._get_checked_instance(type(self), _instance)
        batch_shape = Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _check(self, value: Tensor) -> None:
        if self._validate_args:
            self._validate_sample(value)


class Normal(_LocScale):
    """The normal distribution N(loc, scale^2).

    Example:
        >>> d = ember.distributions.Normal(ember.tensor([0.0]), ember.tensor([2.0]))
        >>> d.sample((3,)).shape
        Size([3, 1])
    """

    support = constraints.real

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = ember.randn(tuple(shape), dtype=self.loc.dtype)
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        self._check(value)
        var = self.scale**2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - _LOG_SQRT_2PI

    def cdf(self, value: Tensor) -> Tensor:
        self._check(value)
        return 0.5 * (1 + ember.erf((value - self.loc) * self.scale.reciprocal() / math.sqrt(2)))

    def icdf(self, value: Tensor) -> Tensor:
        return self.loc + self.scale * ember.erfinv(2 * value - 1) * math.sqrt(2)

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + self.scale.log()


class Uniform(Distribution):
    """The continuous uniform distribution on [low, high).

    Example:
        >>> ember.distributions.Uniform(0.0, 2.0).entropy().item()  # doctest: +ELLIPSIS
        0.693...
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "low": constraints.dependent(is_discrete=False, event_dim=0),
        "high": constraints.dependent(is_discrete=False, event_dim=0),
    }
    has_rsample = True

    def __init__(self, low: Any, high: Any, validate_args: bool | None = None) -> None:
        self.low, self.high = broadcast_all(low, high)
        super().__init__(shape_of(self.low), validate_args=validate_args)
        if self._validate_args and not bool((self.low < self.high).all()):
            raise ValueError("Uniform is not defined when low>= high")

    def expand(self, batch_shape: Any, _instance: Any = None) -> Uniform:
        new = self._get_checked_instance(Uniform, _instance)
        batch_shape = Size(batch_shape)
        new.low = self.low.expand(batch_shape)
        new.high = self.high.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self) -> Any:
        return constraints.interval(self.low, self.high)

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return ember.full_like(self.high, math.nan)

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        rand = ember.rand(tuple(shape), dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).to(self.low.dtype)
        ub = self.high.gt(value).to(self.low.dtype)
        return (lb * ub).log() - (self.high - self.low).log()

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value: Tensor) -> Tensor:
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return (self.high - self.low).log()


class Exponential(Distribution):
    """The exponential distribution with ``rate`` (mean 1/rate).

    Example:
        >>> ember.distributions.Exponential(2.0).mean.item()
        0.5
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        super().__init__(shape_of(self.rate), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Exponential:
        new = self._get_checked_instance(Exponential, _instance)
        batch_shape = Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return ember.zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        return -_uniform_open(shape, self.rate).log() / self.rate

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        return 1 - (-self.rate * value).exp()

    def icdf(self, value: Tensor) -> Tensor:
        return -(-value).log1p() / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - self.rate.log()


class Laplace(_LocScale):
    """The Laplace distribution with ``loc`` and ``scale`` (variance 2 scale^2).

    Example:
        >>> ember.distributions.Laplace(0.0, 1.0).variance.item()
        2.0
    """

    support = constraints.real

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    @property
    def stddev(self) -> Tensor:
        return math.sqrt(2) * self.scale

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        eps = finfo_of(self.loc.dtype).eps
        u = ember.rand(shape, dtype=self.loc.dtype) * 2 - 1
        u = u.clamp(min=-1 + eps, max=1 - eps)
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value: Tensor) -> Tensor:
        self._check(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value: Tensor) -> Tensor:
        self._check(value)
        z = (value - self.loc) / self.scale
        return 0.5 - 0.5 * z.sign() * (-z.abs()).expm1()

    def icdf(self, value: Tensor) -> Tensor:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self) -> Tensor:
        return 1 + (2 * self.scale).log()


class Cauchy(_LocScale):
    """The Cauchy distribution (no mean or variance: both are NaN / inf as in torch).

    Example:
        >>> ember.distributions.Cauchy(0.0, 1.0).cdf(ember.tensor(0.0)).item()
        0.5
    """

    support = constraints.real

    @property
    def mean(self) -> Tensor:
        return ember.full(tuple(self._extended_shape()), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return ember.full(tuple(self._extended_shape()), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        u = _uniform_open(shape, self.loc)
        return self.loc + self.scale * (math.pi * (u - 0.5)).tan()

    def log_prob(self, value: Tensor) -> Tensor:
        self._check(value)
        z = (value - self.loc) / self.scale
        return -math.log(math.pi) - self.scale.log() - (z * z).log1p()

    def cdf(self, value: Tensor) -> Tensor:
        self._check(value)
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value: Tensor) -> Tensor:
        return (math.pi * (value - 0.5)).tan() * self.scale + self.loc

    def entropy(self) -> Tensor:
        return math.log(4 * math.pi) + self.scale.log()
