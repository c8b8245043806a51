"""Continuous relaxations of discrete draws (the Concrete / Gumbel-softmax distributions):
LogitRelaxedBernoulli, RelaxedBernoulli, ExpRelaxedCategorical, RelaxedOneHotCategorical.
Their ``rsample`` is differentiable in ``probs``/``logits`` (not in ``temperature``'s draws)."""

from __future__ import annotations

from typing import Any, ClassVar

import ember
from ember._tensor import Size, Tensor
from ember.distributions import constraints
from ember.distributions.distribution import Distribution
from ember.distributions.transformed import TransformedDistribution
from ember.distributions.transforms import ExpTransform, SigmoidTransform
from ember.distributions.utils import (
    broadcast_all,
    clamp_probs,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    shape_of,
)

__all__ = [
    "ExpRelaxedCategorical",
    "LogitRelaxedBernoulli",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
]


def _softplus(x: Tensor) -> Tensor:
    return x.clamp(min=0) + (-x.abs()).exp().log1p()


def _one_of(probs: Any, logits: Any, where: str, numbers: bool = True) -> None:
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    for name, value in (("probs", probs), ("logits", logits)):
        accepted = (Tensor, int, float) if numbers else (Tensor,)
        if value is not None and not isinstance(value, accepted):
            raise TypeError(f"{where}: {name} must be a Tensor, not {type(value).__name__}")


class LogitRelaxedBernoulli(Distribution):
    """The logit of a RelaxedBernoulli draw: (logits + logistic noise) / temperature.

    Example:
        >>> from ember.distributions import LogitRelaxedBernoulli
        >>> d = LogitRelaxedBernoulli(ember.tensor(0.5), logits=ember.tensor(0.0))
        >>> d.rsample((2,)).shape
        ember.Size([2])
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.real
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        _one_of(probs, logits, "LogitRelaxedBernoulli")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            param = self.probs
        else:
            (self.logits,) = broadcast_all(logits)
            param = self.logits
        (self.temperature,) = broadcast_all(temperature)
        self._param = param
        super().__init__(shape_of(param), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LogitRelaxedBernoulli:
        new = self._get_checked_instance(LogitRelaxedBernoulli, _instance)
        batch_shape = Size(batch_shape)
        new.temperature = self.temperature
        if "probs" in self.__dict__:
            new.probs = self.probs.expand(batch_shape)
            new._param = new.probs
        if "logits" in self.__dict__:
            new.logits = self.logits.expand(batch_shape)
            new._param = new.logits
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        probs = clamp_probs(self.probs.expand(shape))
        uniforms = clamp_probs(ember.rand(shape, dtype=probs.dtype))
        noise = uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()
        return noise / self.temperature

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diff = self.logits - value * self.temperature
        return self.temperature.log() + diff - 2 * _softplus(diff)


class RelaxedBernoulli(TransformedDistribution):
    """A draw in (0, 1) that tends to Bernoulli(probs) as ``temperature`` goes to 0.

    Example:
        >>> d = ember.distributions.RelaxedBernoulli(ember.tensor(0.5), probs=ember.tensor(0.3))
        >>> bool(((d.sample((5,)) > 0) & (d.sample((5,)) < 1)).all())
        True
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.unit_interval
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        base = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> RelaxedBernoulli:
        new = self._get_checked_instance(RelaxedBernoulli, _instance)
        return super().expand(batch_shape, _instance=new)  # type: ignore[return-value]

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature  # type: ignore[attr-defined]

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits  # type: ignore[attr-defined]

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs  # type: ignore[attr-defined]


class ExpRelaxedCategorical(Distribution):
    """The log of a RelaxedOneHotCategorical draw (log-softmax of Gumbel-perturbed logits).

    Example:
        >>> d = ember.distributions.ExpRelaxedCategorical(ember.tensor(1.0), logits=ember.zeros(3))
        >>> d.rsample().exp().sum().item()  # doctest: +ELLIPSIS
        1.0...
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Tensor | None = None,
        logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:
        from ember.distributions.discrete import Categorical

        self._categorical = Categorical(probs, logits)
        (self.temperature,) = broadcast_all(temperature)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> ExpRelaxedCategorical:
        new = self._get_checked_instance(ExpRelaxedCategorical, _instance)
        batch_shape = Size(batch_shape)
        new.temperature = self.temperature
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        uniforms = clamp_probs(ember.rand(shape, dtype=self.logits.dtype))
        gumbels = -((-(uniforms.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(-1, keepdim=True)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        k = self.event_shape[0]
        log_scale = ember.full_like(self.temperature, float(k)).lgamma() + (k - 1) * (
            self.temperature.log()
        )
        score = self.logits - value * self.temperature
        score = (score - score.logsumexp(-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """A point of the simplex that tends to OneHotCategorical(probs) as ``temperature`` -> 0
    (the Gumbel-softmax / Concrete distribution).

    Example:
        >>> from ember.distributions import RelaxedOneHotCategorical
        >>> d = RelaxedOneHotCategorical(ember.tensor(0.5), probs=ember.ones(3) / 3)
        >>> d.sample().shape
        ember.Size([3])
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.simplex,
        "logits": constraints.real_vector,
    }
    support = constraints.simplex
    has_rsample = True

    def __init__(
        self,
        temperature: Any,
        probs: Tensor | None = None,
        logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> RelaxedOneHotCategorical:
        new = self._get_checked_instance(RelaxedOneHotCategorical, _instance)
        return super().expand(batch_shape, _instance=new)  # type: ignore[return-value]

    @property
    def temperature(self) -> Tensor:
        return self.base_dist.temperature  # type: ignore[attr-defined]

    @property
    def logits(self) -> Tensor:
        return self.base_dist.logits  # type: ignore[attr-defined]

    @property
    def probs(self) -> Tensor:
        return self.base_dist.probs  # type: ignore[attr-defined]
