"""``kl_divergence(p, q)`` and its registry (``register_kl``).

Implementations are registered for pairs of distribution classes; a call dispatches on the most
specific registered pair for ``(type(p), type(q))`` by method resolution order, warning when two
registrations are equally specific in different arguments (as torch does).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import ember
from ember._tensor import Tensor
from ember.distributions.continuous import Cauchy, Exponential, Laplace, Normal, Uniform
from ember.distributions.discrete import (
    Bernoulli,
    Binomial,
    Categorical,
    Geometric,
    OneHotCategorical,
    Poisson,
)
from ember.distributions.distribution import Distribution
from ember.distributions.gamma_family import Beta, Dirichlet, Gamma
from ember.distributions.multivariate_normal import MultivariateNormal, _solve_lower
from ember.distributions.transformed import (
    HalfNormal,
    Independent,
    LogNormal,
    TransformedDistribution,
)
from ember.distributions.utils import shape_of, sum_rightmost

__all__ = ["kl_divergence", "register_kl"]

KLFunction = Callable[[Any, Any], Tensor]
_KL_REGISTRY: dict[tuple[type, type], KLFunction] = {}


def register_kl(type_p: type, type_q: type) -> Callable[[KLFunction], KLFunction]:
    """Decorator registering ``fn(p, q)`` as KL(p || q) for these two classes.

    Example:
        >>> from ember.distributions import Normal, register_kl
        >>> class MyNormal(Normal): ...
        >>> @register_kl(MyNormal, MyNormal)
        ... def _kl(p, q):
        ...     return ember.zeros(p.batch_shape)
    """
    if not isinstance(type_p, type) or not issubclass(type_p, Distribution):
        raise TypeError(f"Expected type_p to be a Distribution subclass but got {type_p}")
    if not isinstance(type_q, type) or not issubclass(type_q, Distribution):
        raise TypeError(f"Expected type_q to be a Distribution subclass but got {type_q}")

    def decorator(fun: KLFunction) -> KLFunction:
        _KL_REGISTRY[type_p, type_q] = fun
        _DISPATCH_CACHE.clear()
        return fun

    return decorator


_DISPATCH_CACHE: dict[tuple[type, type], KLFunction | None] = {}


def _dispatch_kl(type_p: type, type_q: type) -> KLFunction | None:
    key = (type_p, type_q)
    if key not in _DISPATCH_CACHE:
        _DISPATCH_CACHE[key] = _find_kl(type_p, type_q)
    return _DISPATCH_CACHE[key]


def _find_kl(type_p: type, type_q: type) -> KLFunction | None:
    matches = [
        (sp, sq) for sp, sq in _KL_REGISTRY if issubclass(type_p, sp) and issubclass(type_q, sq)
    ]
    if not matches:
        return None
    rank = {m: (type_p.__mro__.index(m[0]), type_q.__mro__.index(m[1])) for m in matches}
    left = min(matches, key=lambda m: rank[m])
    right = min(matches, key=lambda m: (rank[m][1], rank[m][0]))
    left_fun, right_fun = _KL_REGISTRY[left], _KL_REGISTRY[right]
    if left_fun is not right_fun:
        warnings.warn(
            f"Ambiguous kl_divergence({type_p.__name__}, {type_q.__name__}). Please register_kl"
            f"({left[0].__name__}, {right[1].__name__})",
            RuntimeWarning,
            stacklevel=3,
        )
    return left_fun


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) = E_p[log p(x) - log q(x)], batched over the distributions' batch shape.

    Example:
        >>> from ember.distributions import Normal, kl_divergence
        >>> kl_divergence(Normal(0.0, 1.0), Normal(0.0, 1.0)).item()
        0.0
    """
    fun = _dispatch_kl(type(p), type(q))
    if fun is None:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {p.__class__.__name__} and q type "
            f"{q.__class__.__name__}"
        )
    return fun(p, q)


def _infinite_like(t: Tensor) -> Tensor:
    return ember.full_like(t, math.inf)


def softplus(x: Tensor) -> Tensor:
    return x.clamp(min=0) + (-x.abs()).exp().log1p()


# ---------------------------------------------------------------- same-family pairs
@register_kl(Normal, Normal)
def _kl_normal_normal(p: Normal, q: Normal) -> Tensor:
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(p: Bernoulli, q: Bernoulli) -> Tensor:
    t1 = p.probs * (softplus(-q.logits) - softplus(-p.logits))
    t1 = ember.where(q.probs == 0, _infinite_like(t1), t1)
    t1 = ember.where(p.probs == 0, ember.zeros_like(t1), t1)
    t2 = (1 - p.probs) * (softplus(q.logits) - softplus(p.logits))
    t2 = ember.where(q.probs == 1, _infinite_like(t2), t2)
    t2 = ember.where(p.probs == 1, ember.zeros_like(t2), t2)
    return t1 + t2


@register_kl(Categorical, Categorical)
def _kl_categorical_categorical(p: Categorical, q: Categorical) -> Tensor:
    t = p.probs * (p.logits - q.logits)
    t = ember.where(q.probs == 0, _infinite_like(t), t)
    t = ember.where(p.probs == 0, ember.zeros_like(t), t)
    return t.sum(-1)


@register_kl(OneHotCategorical, OneHotCategorical)
def _kl_onehot_onehot(p: OneHotCategorical, q: OneHotCategorical) -> Tensor:
    return _kl_categorical_categorical(p._categorical, q._categorical)


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p: Geometric, q: Geometric) -> Tensor:
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p: Binomial, q: Binomial) -> Tensor:
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError(
            "KL between Binomials where q.total_count > p.total_count is not implemented"
        )
    kl = p.total_count * (p.probs * (p.logits - q.logits) - softplus(p.logits) + softplus(q.logits))
    inf_idxs = p.total_count > q.total_count
    return ember.where(inf_idxs, _infinite_like(kl), kl)


@register_kl(Poisson, Poisson)
def _kl_poisson_poisson(p: Poisson, q: Poisson) -> Tensor:
    return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)


@register_kl(Exponential, Exponential)
def _kl_exponential_exponential(p: Exponential, q: Exponential) -> Tensor:
    rate_ratio = q.rate / p.rate
    return rate_ratio - 1 - rate_ratio.log()


@register_kl(Gamma, Gamma)
def _kl_gamma_gamma(p: Gamma, q: Gamma) -> Tensor:
    t1 = q.concentration * (p.rate / q.rate).log()
    t2 = q.concentration.lgamma() - p.concentration.lgamma()
    t3 = (p.concentration - q.concentration) * p.concentration.digamma()
    t4 = (q.rate - p.rate) * (p.concentration / p.rate)
    return t1 + t2 + t3 + t4


@register_kl(Beta, Beta)
def _kl_beta_beta(p: Beta, q: Beta) -> Tensor:
    sum_p = p.concentration1 + p.concentration0
    sum_q = q.concentration1 + q.concentration0
    t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_p.lgamma()
    t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_q.lgamma()
    t3 = (p.concentration1 - q.concentration1) * p.concentration1.digamma()
    t4 = (p.concentration0 - q.concentration0) * p.concentration0.digamma()
    t5 = (sum_q - sum_p) * sum_p.digamma()
    return t1 - t2 + t3 + t4 + t5


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(p: Dirichlet, q: Dirichlet) -> Tensor:
    sum_p = p.concentration.sum(-1)
    sum_q = q.concentration.sum(-1)
    t1 = sum_p.lgamma() - sum_q.lgamma()
    t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
    t3 = p.concentration - q.concentration
    t4 = p.concentration.digamma() - sum_p.digamma().unsqueeze(-1)
    return t1 - t2 + (t3 * t4).sum(-1)


@register_kl(Laplace, Laplace)
def _kl_laplace_laplace(p: Laplace, q: Laplace) -> Tensor:
    scale_ratio = p.scale / q.scale
    loc_abs_diff = (p.loc - q.loc).abs()
    t1 = -scale_ratio.log()
    t2 = loc_abs_diff / q.scale
    t3 = scale_ratio * (-loc_abs_diff / p.scale).exp()
    return t1 + t2 + t3 - 1


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p: Cauchy, q: Cauchy) -> Tensor:
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2


@register_kl(Uniform, Uniform)
def _kl_uniform_uniform(p: Uniform, q: Uniform) -> Tensor:
    result = ((q.high - q.low) / (p.high - p.low)).log()
    outside = (q.low > p.low) | (q.high < p.high)
    return ember.where(outside, _infinite_like(result), result)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p: HalfNormal, q: HalfNormal) -> Tensor:
    return _kl_normal_normal(p.base_dist, q.base_dist)


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn_mvn(p: MultivariateNormal, q: MultivariateNormal) -> Tensor:
    if tuple(p.event_shape) != tuple(q.event_shape):
        raise ValueError(
            "KL-divergence between two Multivariate Normals with different event shapes cannot "
            "be computed"
        )
    lp, lq = p._unbroadcasted_scale_tril, q._unbroadcasted_scale_tril
    half_term1 = lq.diagonal(0, -2, -1).log().sum(-1) - lp.diagonal(0, -2, -1).log().sum(-1)
    n = p.event_shape[0]
    batch = ember.broadcast_shapes(
        tuple(shape_of(lq)[:-2]),
        tuple(shape_of(lp)[:-2]),
        tuple(shape_of(p.loc)[:-1]),
        tuple(shape_of(q.loc)[:-1]),
    )
    lq_b = lq.expand((*batch, n, n))
    term2 = _solve_lower(lq_b, lp.expand((*batch, n, n))).pow(2).sum((-2, -1))
    diff = (q.loc - p.loc).expand((*batch, n))
    term3 = _solve_lower(lq_b, diff.unsqueeze(-1)).squeeze(-1).pow(2).sum(-1)
    return half_term1 + 0.5 * (term2 + term3 - n)


@register_kl(Independent, Independent)
def _kl_independent_independent(p: Independent, q: Independent) -> Tensor:
    if p.reinterpreted_batch_ndims != q.reinterpreted_batch_ndims:
        raise NotImplementedError
    result = kl_divergence(p.base_dist, q.base_dist)
    return sum_rightmost(result, p.reinterpreted_batch_ndims)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p: TransformedDistribution, q: TransformedDistribution) -> Tensor:
    if p.transforms != q.transforms and not _same_transforms(p, q):
        raise NotImplementedError
    if tuple(p.event_shape) != tuple(q.event_shape):
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)


def _same_transforms(p: TransformedDistribution, q: TransformedDistribution) -> bool:
    """Transforms of the same classes without parameters (ExpTransform of two LogNormals)."""
    if len(p.transforms) != len(q.transforms):
        return False
    return all(
        type(a) is type(b) and not vars(a).keys() - {"_cache_size", "_cached"}
        for a, b in zip(p.transforms, q.transforms, strict=True)
    )


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p: LogNormal, q: LogNormal) -> Tensor:
    return _kl_normal_normal(p.base_dist, q.base_dist)


# ---------------------------------------------------------------- cross-family pairs
@register_kl(Uniform, Normal)
def _kl_uniform_normal(p: Uniform, q: Normal) -> Tensor:
    common_term = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / common_term).log()
    t2 = common_term.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p: Exponential, q: Normal) -> Tensor:
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * (rate_sqr * var_normal * 2 * math.pi).log()
    t2 = rate_sqr.reciprocal()
    t3 = q.loc / p.rate
    t4 = q.loc.pow(2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p: Exponential, q: Gamma) -> Tensor:
    ratio = q.rate / p.rate
    t1 = -q.concentration * ratio.log()
    return (
        t1
        + ratio
        + q.concentration.lgamma()
        + q.concentration * 0.5772156649015329
        - (1 + 0.5772156649015329)
    )


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p: Normal, q: Laplace) -> Tensor:
    loc_diff = p.loc - q.loc
    scale_ratio = p.scale / q.scale
    loc_diff_scale_ratio = loc_diff / p.scale
    t1 = scale_ratio.log()
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * loc_diff_scale_ratio.pow(2)).exp()
    t3 = loc_diff * ember.erf(math.sqrt(0.5) * loc_diff_scale_ratio)
    return -t1 + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p: Beta, q: Uniform) -> Tensor:
    result = -p.entropy() + (q.high - q.low).log()
    outside = (q.low > 0) | (q.high < 1)
    return ember.where(outside, _infinite_like(result), result)
