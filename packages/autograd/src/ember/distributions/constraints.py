"""Constraints: what a parameter or a sample must satisfy (torch.distributions.constraints).

Each constraint is an object with ``check(value) -> bool tensor``; ``event_dim`` says how many
rightmost dims one check covers (a simplex checks whole vectors).

Example:
    >>> from ember.distributions import constraints
    >>> constraints.positive.check(ember.tensor([1.0, -1.0])).tolist()
    [True, False]
"""

from __future__ import annotations

from typing import Any

import ember
from ember._tensor import Tensor
from ember.distributions.utils import finfo_of, shape_of

__all__ = [
    "Constraint",
    "boolean",
    "cat",
    "corr_cholesky",
    "dependent",
    "dependent_property",
    "greater_than",
    "greater_than_eq",
    "half_open_interval",
    "independent",
    "integer_interval",
    "interval",
    "is_dependent",
    "less_than",
    "lower_cholesky",
    "lower_triangular",
    "multinomial",
    "nonnegative",
    "nonnegative_integer",
    "one_hot",
    "positive",
    "positive_definite",
    "positive_integer",
    "positive_semidefinite",
    "real",
    "real_vector",
    "simplex",
    "square",
    "symmetric",
    "unit_interval",
]


class Constraint:
    """A region of values; ``check`` returns a bool tensor over the batch dims."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.__class__.__name__[1:] + "()"


class _Dependent(Constraint):
    """A placeholder whose support depends on other parameters (cannot be checked)."""

    def __init__(self, *, is_discrete: bool = False, event_dim: int = 0) -> None:
        self._is_discrete = is_discrete
        self._event_dim = event_dim

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        return self._is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        return self._event_dim

    def __call__(self, *, is_discrete: bool = False, event_dim: int = 0) -> _Dependent:
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, value: Tensor) -> Tensor:
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint: Any) -> bool:
    """True for ``dependent`` placeholders, which validation skips."""
    return isinstance(constraint, _Dependent)


class dependent_property(property):
    """A property whose value is a constraint depending on the instance (e.g. Uniform's support)."""

    def __init__(self, fget: Any = None, *, is_discrete: bool = False, event_dim: int = 0) -> None:
        super().__init__(fget)
        self.is_discrete = is_discrete
        self.event_dim = event_dim

    def __call__(self, fn: Any) -> dependent_property:
        return dependent_property(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


class _IndependentConstraint(Constraint):
    def __init__(self, base: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self) -> bool:  # type: ignore[override]
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:  # type: ignore[override]
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value: Tensor) -> Tensor:
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        if n:
            result = result.reshape(*shape_of(result)[: result.dim() - n], -1).all(-1)
        return result

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value: Tensor) -> Tensor:
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete = True
    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        is_boolean = ((value == 0) | (value == 1)).all(-1)
        return is_boolean & (value.sum(-1) == 1)


class _IntegerInterval(Constraint):
    is_discrete = True

    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value: Tensor) -> Tensor:
        return (value % 1 == 0) & (value >= self.lower_bound) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerGreaterThan(Constraint):
    is_discrete = True

    def __init__(self, lower_bound: int) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return (value % 1 == 0) & (value >= self.lower_bound)

    def __repr__(self) -> str:
        return f"IntegerGreaterThan(lower_bound={self.lower_bound})"


class _Real(Constraint):
    def check(self, value: Tensor) -> Tensor:
        return value == value  # False only for NaN


class _GreaterThan(Constraint):
    def __init__(self, lower_bound: Any) -> None:
        self.lower_bound = lower_bound

    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound < value

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value: Tensor) -> Tensor:
        return self.lower_bound <= value

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _LessThan(Constraint):
    def __init__(self, upper_bound: Any) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Tensor) -> Tensor:
        return value < self.upper_bound

    def __repr__(self) -> str:
        return f"LessThan(upper_bound={self.upper_bound})"


class _Interval(Constraint):
    def __init__(self, lower_bound: Any, upper_bound: Any) -> None:
        self.lower_bound, self.upper_bound = lower_bound, upper_bound

    def check(self, value: Tensor) -> Tensor:
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _HalfOpenInterval(_Interval):
    def check(self, value: Tensor) -> Tensor:
        return (self.lower_bound <= value) & (value < self.upper_bound)

    def __repr__(self) -> str:
        return f"HalfOpenInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value: Tensor) -> Tensor:
        return (value >= 0).all(-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    is_discrete = True
    event_dim = 1

    def __init__(self, upper_bound: int) -> None:
        self.upper_bound = upper_bound

    def check(self, value: Tensor) -> Tensor:
        return (value >= 0).all(-1) & (value.sum(-1) <= self.upper_bound)


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        return (value.tril() == value).reshape(*shape_of(value)[:-2], -1).all(-1)


class _LowerCholesky(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        lower = (value.tril() == value).reshape(*shape_of(value)[:-2], -1).all(-1)
        positive_diagonal = (value.diagonal(0, -2, -1) > 0).all(-1)
        return lower & positive_diagonal


class _CorrCholesky(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        tol = finfo_of(value.dtype).eps * shape_of(value)[-1] * 10
        row_norm = ember.linalg.norm(value.detach(), dim=-1)
        unit = ((row_norm - 1.0).abs() <= tol).all(-1)
        return _LowerCholesky().check(value) & unit


class _Square(Constraint):
    event_dim = 2

    def check(self, value: Tensor) -> Tensor:
        ok = shape_of(value)[-2] == shape_of(value)[-1]
        return ember.full(tuple(shape_of(value)[:-2]), ok, dtype=ember.bool)


class _Symmetric(_Square):
    def check(self, value: Tensor) -> Tensor:
        if shape_of(value)[-2] != shape_of(value)[-1]:
            return super().check(value)
        close = ember.isclose(value, value.transpose(-2, -1), atol=1e-6)
        return close.reshape(*shape_of(value)[:-2], -1).all(-1)


class _PositiveSemidefinite(_Symmetric):
    def check(self, value: Tensor) -> Tensor:
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return (ember.linalg.eigvalsh(value) >= 0).all(-1)


class _PositiveDefinite(_Symmetric):
    def check(self, value: Tensor) -> Tensor:
        symmetric = super().check(value)
        if not bool(symmetric.all()):
            return symmetric
        return ember.linalg.cholesky_ex(value)[1] == 0


class _Cat(Constraint):
    """Constraints applied to consecutive slices along ``dim`` (lengths ``lengths``)."""

    def __init__(self, cseq: list[Constraint], dim: int = 0, lengths: list[int] | None = None):
        self.cseq = list(cseq)
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.cseq)
        self.dim = dim

    def check(self, value: Tensor) -> Tensor:
        checks, start = [], 0
        for constraint, length in zip(self.cseq, self.lengths, strict=True):
            checks.append(constraint.check(value.narrow(self.dim, start, length)))
            start += length
        return ember.cat(checks, self.dim)


dependent = _Dependent()
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = _IndependentConstraint(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
multinomial = _Multinomial
lower_triangular = _LowerTriangular()
lower_cholesky = _LowerCholesky()
corr_cholesky = _CorrCholesky()
square = _Square()
symmetric = _Symmetric()
positive_semidefinite = _PositiveSemidefinite()
positive_definite = _PositiveDefinite()
independent = _IndependentConstraint
cat = _Cat
