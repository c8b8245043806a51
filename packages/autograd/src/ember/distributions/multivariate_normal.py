"""The multivariate normal distribution, parameterized by a covariance, precision or Cholesky
factor; everything is computed from the lower Cholesky factor ``scale_tril``."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import ember
from ember._tensor import Size, Tensor
from ember.distributions import constraints
from ember.distributions.distribution import Distribution
from ember.distributions.utils import check_tensor, lazy_property, shape_of

__all__ = ["MultivariateNormal"]


def _solve_lower(lower: Tensor, rhs: Tensor) -> Tensor:
    """lower^-1 rhs for a batch of lower-triangular matrices (broadcast over batch dims)."""
    lower, rhs = _broadcast_batch(lower, rhs)
    return ember.linalg.solve(lower, rhs)


def _broadcast_batch(a: Tensor, b: Tensor) -> tuple[Tensor, Tensor]:
    batch = ember.broadcast_shapes(tuple(shape_of(a)[:-2]), tuple(shape_of(b)[:-2]))
    return a.expand(batch + tuple(shape_of(a)[-2:])), b.expand(batch + tuple(shape_of(b)[-2:]))


def _batch_mahalanobis(bL: Tensor, bx: Tensor) -> Tensor:
    """x^T (L L^T)^-1 x for x (..., n) and L (..., n, n)."""
    solved = _solve_lower(bL, bx.unsqueeze(-1)).squeeze(-1)
    return solved.pow(2).sum(-1)


def _precision_to_scale_tril(precision: Tensor) -> Tensor:
    """The lower Cholesky factor of precision^-1."""
    return ember.linalg.cholesky(ember.linalg.inv(precision))


class MultivariateNormal(Distribution):
    """N(loc, covariance) over vectors of length n; give exactly one of ``covariance_matrix``,
    ``precision_matrix`` or ``scale_tril``.

    Example:
        >>> d = ember.distributions.MultivariateNormal(ember.zeros(2), ember.eye(2))
        >>> d.log_prob(ember.zeros(2)).item()  # doctest: +ELLIPSIS
        -1.837...
    """

    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self,
        loc: Tensor,
        covariance_matrix: Tensor | None = None,
        precision_matrix: Tensor | None = None,
        scale_tril: Tensor | None = None,
        validate_args: bool | None = None,
    ) -> None:
        if check_tensor(loc, "loc", "MultivariateNormal").dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [m is not None for m in (covariance_matrix, precision_matrix, scale_tril)]
        if sum(given) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                "specified."
            )
        matrix = next(m for m in (scale_tril, covariance_matrix, precision_matrix) if m is not None)
        name = ("scale_tril", "covariance_matrix", "precision_matrix")[
            [
                scale_tril is not None,
                covariance_matrix is not None,
                precision_matrix is not None,
            ].index(True)
        ]
        if check_tensor(matrix, name, "MultivariateNormal").dim() < 2:
            raise ValueError(
                f"{name} matrix must be at least two-dimensional, with optional leading batch "
                "dimensions"
            )
        batch_shape = ember.broadcast_shapes(
            tuple(shape_of(matrix)[:-2]), tuple(shape_of(loc)[:-1])
        )
        n = shape_of(loc)[-1]
        setattr(self, name, matrix.expand((*batch_shape, n, n)))
        self.loc = loc.expand((*batch_shape, n))
        super().__init__(batch_shape, (n,), validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = ember.linalg.cholesky(covariance_matrix)
        else:
            assert precision_matrix is not None
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def expand(self, batch_shape: Any, _instance: Any = None) -> MultivariateNormal:
        new = self._get_checked_instance(MultivariateNormal, _instance)
        batch_shape = Size(batch_shape)
        loc_shape = tuple(batch_shape) + tuple(self.event_shape)
        cov_shape = loc_shape + tuple(self.event_shape)
        new.loc = self.loc.expand(loc_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(cov_shape))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self) -> Tensor:
        return self._unbroadcasted_scale_tril.expand(
            tuple(self._batch_shape) + tuple(self._event_shape) * 2
        )

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        lower = self._unbroadcasted_scale_tril
        return (lower @ lower.transpose(-2, -1)).expand(
            tuple(self._batch_shape) + tuple(self._event_shape) * 2
        )

    @lazy_property
    def precision_matrix(self) -> Tensor:
        return ember.linalg.inv(self.covariance_matrix)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        lower = self._unbroadcasted_scale_tril
        return lower.pow(2).sum(-1).expand(tuple(self._batch_shape) + tuple(self._event_shape))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = tuple(self._extended_shape(sample_shape))
        eps = ember.randn(shape, dtype=self.loc.dtype)
        return self.loc + (self._unbroadcasted_scale_tril @ eps.unsqueeze(-1)).squeeze(-1)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        lower = self._unbroadcasted_scale_tril
        shape = ember.broadcast_shapes(tuple(shape_of(diff)[:-1]), tuple(shape_of(lower)[:-2]))
        m = _batch_mahalanobis(
            lower.expand(shape + tuple(shape_of(lower)[-2:])),
            diff.expand((*shape, shape_of(diff)[-1])),
        )
        half_log_det = lower.diagonal(0, -2, -1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + m) - half_log_det

    def entropy(self) -> Tensor:
        half_log_det = self._unbroadcasted_scale_tril.diagonal(0, -2, -1).log().sum(-1)
        h = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return h.expand(tuple(self._batch_shape)) if len(self._batch_shape) else h
