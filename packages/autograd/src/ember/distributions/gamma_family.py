"""Distributions built on gamma variates: Gamma, Chi2, Beta, Dirichlet and StudentT.

Gamma draws use Marsaglia and Tsang's squeeze-rejection method (with the U^(1/a) boost for
a < 1), vectorized: every element draws until it is accepted. ``rsample`` is differentiable in
the rate (x = g / rate) and, through implicit reparameterization (gamma_grad.py, torch's
``_standard_gamma`` backward), in the concentration.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ember
from ember._grad_mode import no_grad
from ember._tensor import Size, Tensor
from ember.distributions import constraints
from ember.distributions.distribution import Distribution
from ember.distributions.gamma_grad import standard_gamma_rsample
from ember.distributions.utils import broadcast_all, check_tensor, finfo_of, shape_of

__all__ = ["Beta", "Chi2", "Dirichlet", "Gamma", "StudentT", "standard_gamma"]


def standard_gamma(concentration: Tensor) -> Tensor:
    """Gamma(concentration, 1) draws, one per element (not differentiable).

    Example:
        >>> ember.distributions.gamma_family.standard_gamma(ember.ones(3)).shape
        Size([3])
    """
    with no_grad():
        alpha = concentration.detach().to(ember.float64)
        boost = alpha < 1
        a = ember.where(boost, alpha + 1, alpha)
        d = a - 1.0 / 3
        c = (9 * d).rsqrt()
        out = ember.zeros_like(a)
        done = ember.zeros(tuple(shape_of(a)), dtype=ember.bool)
        # Acceptance is above 95% per round for every a >= 1: a few dozen rounds suffice.
        for _ in range(64):
            x = ember.randn(tuple(shape_of(a)), dtype=ember.float64)
            v = (1 + c * x) ** 3
            u = ember.rand(tuple(shape_of(a)), dtype=ember.float64)
            safe_v = v.clamp(min=1e-300)
            accept = (v > 0) & (u.log() < 0.5 * x * x + d - d * v + d * safe_v.log())
            take = accept & ~done
            out = ember.where(take, d * v, out)
            done = done | accept
            if bool(done.all()):
                break
        u = ember.rand(tuple(shape_of(a)), dtype=ember.float64).clamp(min=1e-300)
        out = ember.where(boost, out * u.pow(1 / alpha.clamp(min=1e-300)), out)
        tiny = finfo_of(concentration.dtype).tiny
        return out.to(concentration.dtype).clamp(min=tiny)


class Gamma(Distribution):
    """The gamma distribution with ``concentration`` (shape) and ``rate`` (1 / scale).

    Example:
        >>> ember.distributions.Gamma(2.0, 4.0).mean.item()
        0.5
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "concentration": constraints.positive,
        "rate": constraints.positive,
    }
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, concentration: Any, rate: Any, validate_args: bool | None = None) -> None:
        self.concentration, self.rate = broadcast_all(concentration, rate)
        super().__init__(shape_of(self.concentration), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Gamma:
        new = self._get_checked_instance(Gamma, _instance)
        batch_shape = Size(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        g = standard_gamma_rsample(self.concentration.expand(shape))
        value = g / self.rate.expand(shape)
        return value.clamp(min=finfo_of(value.dtype).tiny)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = ember.as_tensor(value, dtype=self.rate.dtype)
        return (
            ember.xlogy(self.concentration, self.rate)
            + ember.xlogy(self.concentration - 1, value)
            - self.rate * value
            - self.concentration.lgamma()
        )

    def entropy(self) -> Tensor:
        a = self.concentration
        return a - self.rate.log() + a.lgamma() + (1.0 - a) * a.digamma()


class Chi2(Gamma):
    """The chi-squared distribution with ``df`` degrees of freedom: Gamma(df / 2, 1 / 2).

    Example:
        >>> ember.distributions.Chi2(4.0).mean.item()
        4.0
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {"df": constraints.positive}

    def __init__(self, df: Any, validate_args: bool | None = None) -> None:
        (df,) = broadcast_all(df)
        super().__init__(0.5 * df, ember.full_like(df, 0.5), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Chi2:
        new = self._get_checked_instance(Chi2, _instance)
        return super().expand(batch_shape, new)  # type: ignore[return-value]

    @property
    def df(self) -> Tensor:
        return self.concentration * 2


class Beta(Distribution):
    """The beta distribution on [0, 1] with ``concentration1`` (alpha) and ``concentration0``.

    Example:
        >>> ember.distributions.Beta(2.0, 2.0).mean.item()
        0.5
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "concentration1": constraints.positive,
        "concentration0": constraints.positive,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(
        self, concentration1: Any, concentration0: Any, validate_args: bool | None = None
    ) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        super().__init__(shape_of(self.concentration1), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Beta:
        new = self._get_checked_instance(Beta, _instance)
        batch_shape = Size(batch_shape)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return (self.concentration1 - 1) / (self.concentration1 + self.concentration0 - 2)

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        x = standard_gamma_rsample(self.concentration1.expand(shape))
        y = standard_gamma_rsample(self.concentration0.expand(shape))
        eps = finfo_of(x.dtype).eps
        return (x / (x + y)).clamp(min=eps, max=1 - eps)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        a, b = self.concentration1, self.concentration0
        return (
            ember.xlogy(a - 1, value)
            + ember.xlogy(b - 1, 1 - value)
            + (a + b).lgamma()
            - a.lgamma()
            - b.lgamma()
        )

    def entropy(self) -> Tensor:
        a, b = self.concentration1, self.concentration0
        total = a + b
        log_beta = a.lgamma() + b.lgamma() - total.lgamma()
        return (
            log_beta - (a - 1) * a.digamma() - (b - 1) * b.digamma() + (total - 2) * total.digamma()
        )


class Dirichlet(Distribution):
    """The Dirichlet distribution over the simplex, with ``concentration`` of shape (..., K).

    Example:
        >>> ember.distributions.Dirichlet(ember.ones(3)).mean.tolist()  # doctest: +ELLIPSIS
        [0.333..., 0.333..., 0.333...]
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "concentration": constraints.independent(constraints.positive, 1)
    }
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Tensor, validate_args: bool | None = None) -> None:
        if check_tensor(concentration, "concentration", "Dirichlet").dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        shape = tuple(shape_of(concentration))
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Dirichlet:
        new = self._get_checked_instance(Dirichlet, _instance)
        batch_shape = Size(batch_shape)
        new.concentration = self.concentration.expand(tuple(batch_shape) + tuple(self.event_shape))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, keepdim=True)

    @property
    def mode(self) -> Tensor:
        a = (self.concentration - 1).clamp(min=0.0)
        return a / a.sum(-1, keepdim=True)

    @property
    def variance(self) -> Tensor:
        total = self.concentration.sum(-1, keepdim=True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        g = standard_gamma_rsample(self.concentration.expand(shape))
        value = g / g.sum(-1, keepdim=True)
        eps = finfo_of(value.dtype).eps
        return value.clamp(min=eps, max=1 - eps)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        a = self.concentration
        return ember.xlogy(a - 1.0, value).sum(-1) + a.sum(-1).lgamma() - a.lgamma().sum(-1)

    def entropy(self) -> Tensor:
        a = self.concentration
        k = shape_of(a)[-1]
        a0 = a.sum(-1)
        return (
            a.lgamma().sum(-1)
            - a0.lgamma()
            - (k - a0) * a0.digamma()
            - ((a - 1.0) * a.digamma()).sum(-1)
        )


class StudentT(Distribution):
    """Student's t with ``df`` degrees of freedom, ``loc`` and ``scale``.

    Example:
        >>> ember.distributions.StudentT(3.0).variance.item()
        3.0
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "df": constraints.positive,
        "loc": constraints.real,
        "scale": constraints.positive,
    }
    support = constraints.real
    has_rsample = True

    def __init__(
        self, df: Any, loc: Any = 0.0, scale: Any = 1.0, validate_args: bool | None = None
    ) -> None:
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(shape_of(self.df), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> StudentT:
        new = self._get_checked_instance(StudentT, _instance)
        batch_shape = Size(batch_shape)
        new.df = self.df.expand(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        new._chi2 = self._chi2.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        m = self.loc.clone()
        return ember.where(self.df <= 1, ember.full_like(m, math.nan), m)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        df = self.df
        finite = self.scale.pow(2) * df / (df - 2).clamp(min=1e-300)
        inf = ember.full_like(finite, math.inf)
        nan = ember.full_like(finite, math.nan)
        return ember.where(df > 2, finite, ember.where(df > 1, inf, nan))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        x = ember.randn(shape, dtype=self.df.dtype)
        z = self._chi2.rsample(sample_shape)
        y = x * (self.df / z).sqrt()
        return self.loc + self.scale * y

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (
            self.scale.log()
            + 0.5 * self.df.log()
            + 0.5 * math.log(math.pi)
            + (0.5 * self.df).lgamma()
            - (0.5 * (self.df + 1.0)).lgamma()
        )
        return -0.5 * (self.df + 1.0) * (y.pow(2) / self.df).log1p() - z

    def entropy(self) -> Tensor:
        df = self.df
        lbeta = (0.5 * df).lgamma() + math.lgamma(0.5) - (0.5 * (df + 1)).lgamma()
        return (
            self.scale.log()
            + 0.5 * (df + 1) * ((0.5 * (df + 1)).digamma() - (0.5 * df).digamma())
            + 0.5 * df.log()
            + lbeta
        )
