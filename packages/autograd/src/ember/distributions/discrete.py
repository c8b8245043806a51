"""Discrete distributions: Bernoulli, Geometric, Categorical, OneHotCategorical, Multinomial,
Binomial and Poisson. Probabilities are given as ``probs`` or ``logits`` (exactly one); the other
is computed on first use."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ember
from ember._grad_mode import no_grad
from ember._tensor import Size, Tensor
from ember.distributions import constraints
from ember.distributions.distribution import Distribution
from ember.distributions.utils import (
    broadcast_all,
    clamp_probs,
    finfo_of,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    shape_of,
)

__all__ = [
    "Bernoulli",
    "Binomial",
    "Categorical",
    "Geometric",
    "Multinomial",
    "OneHotCategorical",
    "Poisson",
]


def _one_of(probs: Any, logits: Any, where: str, numbers: bool = True) -> None:
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    for name, value in (("probs", probs), ("logits", logits)):
        accepted = (Tensor, int, float) if numbers else (Tensor,)
        if value is not None and not isinstance(value, accepted):
            raise TypeError(f"{where}: {name} must be a Tensor, not {type(value).__name__}")


def _softplus(x: Tensor) -> Tensor:
    return x.clamp(min=0) + (-x.abs()).exp().log1p()


def _expand_params(new: Any, old: Any, batch_shape: Size, event: tuple[int, ...]) -> None:
    shape = tuple(batch_shape) + event
    if "probs" in old.__dict__:
        new.probs = old.probs.expand(shape)
        new._param = new.probs
    if "logits" in old.__dict__:
        new.logits = old.logits.expand(shape)
        new._param = new.logits


class Bernoulli(Distribution):
    """1 with probability ``probs`` (or ``sigmoid(logits)``), else 0.

    Example:
        >>> ember.distributions.Bernoulli(probs=ember.tensor(0.25)).variance.item()
        0.1875
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.boolean
    has_enumerate_support = True

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        _one_of(probs, logits, "Bernoulli")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            self._param = self.probs
        else:
            (self.logits,) = broadcast_all(logits)
            self._param = self.logits
        super().__init__(shape_of(self._param), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Bernoulli:
        new = self._get_checked_instance(Bernoulli, _instance)
        batch_shape = Size(batch_shape)
        _expand_params(new, self, batch_shape, ())
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self) -> Size:
        return shape_of(self._param)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        mode = (self.probs >= 0.5).to(self.probs.dtype)
        return ember.where(self.probs == 0.5, ember.full_like(mode, math.nan), mode)

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        with no_grad():
            return ember.bernoulli(self.probs.detach().expand(shape).contiguous())

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = ember.broadcast_tensors(self.logits, value.to(self.logits.dtype))
        return logits * value - _softplus(logits)

    def entropy(self) -> Tensor:
        return _softplus(self.logits) - self.probs * self.logits

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = ember.arange(2, dtype=self._param.dtype).reshape(
            (-1,) + (1,) * len(self.batch_shape)
        )
        if expand:
            values = values.expand((2, *tuple(self.batch_shape)))
        return values


class Geometric(Distribution):
    """The number of failures before the first success, success probability ``probs``.

    Example:
        >>> ember.distributions.Geometric(probs=ember.tensor(0.5)).mean.item()
        1.0
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    support = constraints.nonnegative_integer

    def __init__(
        self, probs: Any = None, logits: Any = None, validate_args: bool | None = None
    ) -> None:
        _one_of(probs, logits, "Geometric")
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            self._param = self.probs
        else:
            (self.logits,) = broadcast_all(logits)
            self._param = self.logits
        super().__init__(shape_of(self._param), validate_args=validate_args)
        if self._validate_args and probs is not None and not bool((self.probs > 0).all()):
            raise ValueError(
                "Expected parameter probs (Tensor of shape "
                f"{tuple(shape_of(self.probs))}) of distribution {self!r} to satisfy the "
                "constraint Interval(lower_bound=0.0, upper_bound=1.0), but found invalid "
                f"values:\n{self.probs}"
            )

    def expand(self, batch_shape: Any, _instance: Any = None) -> Geometric:
        new = self._get_checked_instance(Geometric, _instance)
        batch_shape = Size(batch_shape)
        _expand_params(new, self, batch_shape, ())
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return ember.zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        tiny = finfo_of(self.probs.dtype).tiny
        with no_grad():
            u = ember.rand(shape, dtype=self.probs.dtype).clamp(min=tiny)
            return (u.log() / (-self.probs.detach()).log1p()).floor()

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value, probs = ember.broadcast_tensors(value.to(self.probs.dtype), self.probs)
        probs = ember.where((probs == 1) & (value == 0), ember.zeros_like(probs), probs)
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        p = clamp_probs(self.probs)
        return -(ember.xlogy(1 - p, 1 - p) + ember.xlogy(p, p)) / p


class Categorical(Distribution):
    """A category index in [0, K) drawn with probabilities ``probs`` (..., K) or ``logits``.

    Example:
        >>> d = ember.distributions.Categorical(probs=ember.tensor([0.5, 0.5]))
        >>> d.log_prob(ember.tensor(1)).item()  # doctest: +ELLIPSIS
        -0.693...
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.simplex,
        "logits": constraints.independent(constraints.real, 1),
    }
    has_enumerate_support = True

    def __init__(
        self,
        probs: Tensor | None = None,
        logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:
        _one_of(probs, logits, "Categorical", numbers=False)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            self._param = self.probs
        else:
            assert logits is not None
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(-1, keepdim=True)
            self._param = self.logits
        self._num_events = shape_of(self._param)[-1]
        batch_shape = tuple(shape_of(self._param)[:-1])
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Categorical:
        new = self._get_checked_instance(Categorical, _instance)
        batch_shape = Size(batch_shape)
        _expand_params(new, self, batch_shape, (self._num_events,))
        new._num_events = self._num_events
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self) -> Any:
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits)

    @property
    def param_shape(self) -> Size:
        return shape_of(self._param)

    @property
    def mean(self) -> Tensor:
        return ember.full(tuple(self._extended_shape()), math.nan, dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(-1)

    @property
    def variance(self) -> Tensor:
        return ember.full(tuple(self._extended_shape()), math.nan, dtype=self.probs.dtype)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        sample_shape = tuple(Size(sample_shape))
        n = math.prod(sample_shape)
        with no_grad():
            probs_2d = self.probs.detach().reshape(-1, self._num_events)
            if shape_of(probs_2d)[0] == 0 or n == 0:
                return ember.zeros(sample_shape + tuple(self.batch_shape), dtype=ember.int64)
            draws = ember.multinomial(probs_2d, n, True).T  # (n, batch)
            return draws.reshape(sample_shape + tuple(self.batch_shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = ember.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self) -> Tensor:
        min_real = finfo_of(self.logits.dtype).min
        logits = self.logits.clamp(min=min_real)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        values = ember.arange(self._num_events, dtype=ember.int64)
        values = values.reshape((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = values.expand((-1, *tuple(self.batch_shape)))
        return values


class OneHotCategorical(Distribution):
    """A Categorical draw as a one-hot vector of length K.

    Example:
        >>> d = ember.distributions.OneHotCategorical(probs=ember.tensor([0.0, 1.0]))
        >>> d.sample().tolist()
        [0.0, 1.0]
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.simplex,
        "logits": constraints.independent(constraints.real, 1),
    }
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(
        self,
        probs: Tensor | None = None,
        logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:
        self._categorical = Categorical(probs, logits)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> OneHotCategorical:
        new = self._get_checked_instance(OneHotCategorical, _instance)
        batch_shape = Size(batch_shape)
        new._categorical = self._categorical.expand(batch_shape)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def _param(self) -> Tensor:
        return self._categorical._param

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def mean(self) -> Tensor:
        return self._categorical.probs

    @property
    def mode(self) -> Tensor:
        probs = self._categorical.probs
        index = probs.argmax(-1, keepdim=True)
        return ember.zeros_like(probs).scatter(-1, index, 1.0)

    @property
    def variance(self) -> Tensor:
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        indices = self._categorical.sample(sample_shape).unsqueeze(-1)
        probs = self._categorical.probs.detach()
        zeros = ember.zeros(
            (*tuple(shape_of(indices)[:-1]), shape_of(probs)[-1]), dtype=probs.dtype
        )
        return zeros.scatter(-1, indices, 1.0)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        indices = value.argmax(-1)
        return self._categorical.log_prob(indices)

    def entropy(self) -> Tensor:
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Tensor:
        n = self.event_shape[0]
        values = ember.eye(n, dtype=self._param.dtype)
        values = values.reshape((n,) + (1,) * len(self.batch_shape) + (n,))
        if expand:
            values = values.expand((n, *tuple(self.batch_shape), n))
        return values


def _check_total_count(total_count: Any) -> None:
    if not isinstance(total_count, int) or isinstance(total_count, bool):
        raise NotImplementedError("inhomogeneous total_count is not supported")


class Multinomial(Distribution):
    """Counts of ``total_count`` categorical draws over K categories.

    Example:
        >>> d = ember.distributions.Multinomial(10, probs=ember.tensor([0.5, 0.5]))
        >>> d.sample().sum().item()
        10.0
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "probs": constraints.simplex,
        "logits": constraints.independent(constraints.real, 1),
    }

    def __init__(
        self,
        total_count: int = 1,
        probs: Tensor | None = None,
        logits: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:
        _check_total_count(total_count)
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Multinomial:
        new = self._get_checked_instance(Multinomial, _instance)
        batch_shape = Size(batch_shape)
        new.total_count = self.total_count
        new._categorical = self._categorical.expand(batch_shape)
        new._binomial = Binomial(total_count=self.total_count, probs=new._categorical.probs)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self) -> Any:
        return constraints.multinomial(self.total_count)

    @property
    def probs(self) -> Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> Tensor:
        return self._categorical.logits

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        sample_shape = tuple(Size(sample_shape))
        draws = self._categorical.sample((self.total_count, *sample_shape))  # (n, s..., b...)
        counts = ember.zeros(
            (self.total_count, *sample_shape, *tuple(self.batch_shape), *tuple(self.event_shape)),
            dtype=self.probs.dtype,
        )
        counts = counts.scatter(-1, draws.unsqueeze(-1), 1.0)
        return counts.sum(0)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = ember.broadcast_tensors(self.logits, value.to(self.logits.dtype))
        logits = logits.clone()
        # 0 * log(0) counts as 0: a -inf logit with a zero count contributes nothing.
        logits = ember.where((value == 0) & (logits == -math.inf), ember.zeros_like(logits), logits)
        log_factorial_n = math.lgamma(self.total_count + 1)
        log_factorial_xs = (value + 1).lgamma().sum(-1)
        log_powers = (logits * value).sum(-1)
        return log_factorial_n - log_factorial_xs + log_powers

    def entropy(self) -> Tensor:
        n = self.total_count
        # H = n H(categorical) - log n! + sum_k sum_x P(X_k = x) log x! (X_k ~ Binomial(n, p_k)).
        support = ember.arange(n + 1, dtype=self.probs.dtype).reshape(
            (n + 1,) + (1,) * (len(self.batch_shape) + 1)
        )
        binomial_probs = self._binomial.log_prob(support).exp()
        weights = (support + 1).lgamma()
        expected = (binomial_probs * weights).sum(0).sum(-1)
        return n * self._categorical.entropy() - math.lgamma(n + 1) + expected


class Binomial(Distribution):
    """The number of successes in ``total_count`` Bernoulli(``probs``) trials.

    Example:
        >>> ember.distributions.Binomial(10, probs=ember.tensor(0.5)).mean.item()
        5.0
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "total_count": constraints.nonnegative_integer,
        "probs": constraints.unit_interval,
        "logits": constraints.real,
    }
    has_enumerate_support = True

    def __init__(
        self,
        total_count: Any = 1,
        probs: Any = None,
        logits: Any = None,
        validate_args: bool | None = None,
    ) -> None:
        _one_of(probs, logits, "Binomial")
        if probs is not None:
            self.total_count, self.probs = broadcast_all(total_count, probs)
            self.total_count = self.total_count.to(self.probs.dtype)
            self._param = self.probs
        else:
            self.total_count, self.logits = broadcast_all(total_count, logits)
            self.total_count = self.total_count.to(self.logits.dtype)
            self._param = self.logits
        super().__init__(shape_of(self._param), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Binomial:
        new = self._get_checked_instance(Binomial, _instance)
        batch_shape = Size(batch_shape)
        new.total_count = self.total_count.expand(batch_shape)
        _expand_params(new, self, batch_shape, ())
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self) -> Any:
        return constraints.integer_interval(0, self.total_count)

    @lazy_property
    def logits(self) -> Tensor:
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self) -> Tensor:
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        with no_grad():
            probs = self.probs.detach().expand(shape)
            n = self.total_count.detach().expand(shape)
            n_max = int(n.max().item()) if n.numel() else 0
            total = ember.zeros(shape, dtype=probs.dtype)
            # Exact: the sum of n Bernoulli trials, drawn in blocks to bound the memory.
            block = 256
            for start in range(0, n_max, block):
                width = min(block, n_max - start)
                trials = ember.rand((*shape, width), dtype=probs.dtype) < probs.unsqueeze(-1)
                index = ember.arange(start, start + width, dtype=probs.dtype)
                live = index < n.unsqueeze(-1)
                total = total + (trials & live).sum(-1).to(probs.dtype)
            return total

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        n = self.total_count
        value = value.to(self.logits.dtype)
        log_factorial_n = (n + 1).lgamma()
        log_factorial_k = (value + 1).lgamma()
        log_factorial_nmk = (n - value + 1).lgamma()
        # k log p + (n - k) log(1 - p) in logits form: k l - n log1p(e^l), stable for any l.
        normalize_term = (
            n * self.logits.clamp(min=0) + n * (-self.logits.abs()).exp().log1p() - log_factorial_n
        )
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self) -> Tensor:
        n_max = int(self.total_count.max().item())
        if not bool((self.total_count == n_max).all()):
            raise NotImplementedError("Inhomogeneous total count not supported by `entropy`.")
        support = self.enumerate_support(False)
        log_prob = self.log_prob(support)
        return -(log_prob.exp() * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        n_max = int(self.total_count.max().item())
        if not bool((self.total_count == n_max).all()):
            raise NotImplementedError(
                "Inhomogeneous total count not supported by `enumerate_support`."
            )
        values = ember.arange(1 + n_max, dtype=self._param.dtype)
        values = values.reshape((-1,) + (1,) * len(self.batch_shape))
        if expand:
            values = values.expand((-1, *tuple(self.batch_shape)))
        return values


class Poisson(Distribution):
    """The Poisson distribution with ``rate``.

    Example:
        >>> ember.distributions.Poisson(3.0).variance.item()
        3.0
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate: Any, validate_args: bool | None = None) -> None:
        (self.rate,) = broadcast_all(rate)
        super().__init__(shape_of(self.rate), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Poisson:
        new = self._get_checked_instance(Poisson, _instance)
        batch_shape = Size(batch_shape)
        new.rate = self.rate.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        with no_grad():
            return ember.poisson(self.rate.detach().expand(shape).contiguous())

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        rate, value = ember.broadcast_tensors(self.rate, value.to(self.rate.dtype))
        return ember.xlogy(value, rate) - rate - (value + 1).lgamma()
