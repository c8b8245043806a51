"""``ember.distributions``: probability distributions with sampling, log densities and KL.

Pure Python over ember tensors; ``rsample`` is differentiable through ember.autograd (which is
why this package ships in the ember-autograd distribution). The API is torch.distributions'.

Example:
    >>> from ember.distributions import Categorical
    >>> Categorical(probs=ember.tensor([0.2, 0.8])).probs.tolist()  # doctest: +ELLIPSIS
    [0.2..., 0.8...]
"""

from ember.distributions import constraints, transforms
from ember.distributions.continuous import Cauchy, Exponential, Laplace, Normal, Uniform
from ember.distributions.discrete import (
    Bernoulli,
    Binomial,
    Categorical,
    Geometric,
    Multinomial,
    OneHotCategorical,
    Poisson,
)
from ember.distributions.distribution import Distribution
from ember.distributions.gamma_family import Beta, Chi2, Dirichlet, Gamma, StudentT
from ember.distributions.kl import kl_divergence, register_kl
from ember.distributions.multivariate_normal import MultivariateNormal
from ember.distributions.relaxed import (
    ExpRelaxedCategorical,
    LogitRelaxedBernoulli,
    RelaxedBernoulli,
    RelaxedOneHotCategorical,
)
from ember.distributions.transformed import (
    HalfCauchy,
    HalfNormal,
    Independent,
    LogNormal,
    MixtureSameFamily,
    TransformedDistribution,
)
from ember.distributions.transforms import (
    AbsTransform,
    AffineTransform,
    ComposeTransform,
    ExpTransform,
    IndependentTransform,
    PowerTransform,
    SigmoidTransform,
    SoftmaxTransform,
    StickBreakingTransform,
    TanhTransform,
    Transform,
)

__all__ = [
    "AbsTransform",
    "AffineTransform",
    "Bernoulli",
    "Beta",
    "Binomial",
    "Categorical",
    "Cauchy",
    "Chi2",
    "ComposeTransform",
    "Dirichlet",
    "Distribution",
    "ExpRelaxedCategorical",
    "ExpTransform",
    "Exponential",
    "Gamma",
    "Geometric",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "IndependentTransform",
    "Laplace",
    "LogNormal",
    "LogitRelaxedBernoulli",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "Normal",
    "OneHotCategorical",
    "Poisson",
    "PowerTransform",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "SigmoidTransform",
    "SoftmaxTransform",
    "StickBreakingTransform",
    "StudentT",
    "TanhTransform",
    "Transform",
    "TransformedDistribution",
    "Uniform",
    "constraints",
    "kl_divergence",
    "register_kl",
    "transforms",
]
