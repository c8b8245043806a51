"""The ``Distribution`` base class: shapes, validation, sampling entry points, summaries."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from ember._grad_mode import no_grad
from ember._tensor import Size, Tensor
from ember.distributions import constraints
from ember.distributions.utils import (
    ArgumentChecks,
    check_shape,
    check_value,
    guard_arguments,
    shape_of,
)

__all__ = ["Distribution"]


class Distribution:
    """Abstract base class of every probability distribution (torch.distributions.Distribution).

    A distribution has a ``batch_shape`` (independent parameter sets) and an ``event_shape``
    (the shape of one draw); ``sample(sample_shape)`` has shape
    ``sample_shape + batch_shape + event_shape`` and ``log_prob(value)`` has shape
    ``sample_shape + batch_shape``.

    Example:
        >>> from ember.distributions import Normal
        >>> Normal(0.0, 1.0).log_prob(ember.tensor(0.0)).item()  # doctest: +ELLIPSIS
        -0.918...
    """

    has_rsample = False
    has_enumerate_support = False
    _validate_args_default: ClassVar[bool] = __debug__
    arg_constraints: ClassVar[dict[str, constraints.Constraint]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        guard_arguments(cls, _ARGUMENT_CHECKS)  # every family refuses junk the same way

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        """Turns argument and sample validation on or off for distributions made afterwards."""
        if value not in (True, False):
            raise ValueError
        Distribution._validate_args_default = value

    def __init__(
        self,
        batch_shape: tuple[int, ...] | Size = (),
        event_shape: tuple[int, ...] | Size = (),
        validate_args: bool | None = None,
    ) -> None:
        self._batch_shape = check_shape(batch_shape, "batch_shape", type(self).__name__)
        self._event_shape = check_shape(event_shape, "event_shape", type(self).__name__)
        if validate_args is not None:
            self._validate_args = validate_args
        else:
            self._validate_args = Distribution._validate_args_default
        if self._validate_args:
            arg_constraints = self.arg_constraints
            for param, constraint in arg_constraints.items():
                if constraints.is_dependent(constraint):
                    continue
                if param not in self.__dict__ and isinstance(
                    getattr(type(self), param, None), _lazy_type()
                ):
                    continue  # the other parameterization (logits of given probs): not computed
                value = getattr(self, param)
                valid = constraint.check(value)
                if not bool(valid.all()):
                    raise ValueError(
                        f"Expected parameter {param} ({type(value).__name__} of shape "
                        f"{tuple(shape_of(value))}) of distribution {self!r} to satisfy the "
                        f"constraint {constraint!r}, but found invalid values:\n{value}"
                    )
        super().__init__()

    # ------------------------------------------------------------------ shapes
    @property
    def batch_shape(self) -> Size:
        """The shape over which parameters are batched."""
        return self._batch_shape

    @property
    def event_shape(self) -> Size:
        """The shape of a single sample (without batching)."""
        return self._event_shape

    def _extended_shape(self, sample_shape: Any = ()) -> Size:
        if not isinstance(sample_shape, Size):
            sample_shape = Size(sample_shape)
        return Size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def expand(self, batch_shape: Any, _instance: Any = None) -> Distribution:
        """A distribution of the same family whose parameters are expanded to ``batch_shape``."""
        raise NotImplementedError(f"{type(self).__name__}.expand is not implemented")

    def _get_checked_instance(self, cls: type, _instance: Any) -> Any:
        if _instance is None and type(self) is not cls and "__init__" in vars(type(self)):
            raise NotImplementedError(
                f"Subclass {self.__class__.__name__} of {cls.__name__} that defines a custom "
                "__init__ method must also define a custom .expand() method."
            )
        return self.__new__(type(self)) if _instance is None else _instance

    # ------------------------------------------------------------------ summaries
    @property
    def support(self) -> Any:
        """The constraint a sample satisfies."""
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mean")

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement mode")

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError(f"{self.__class__} does not implement variance")

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    # ------------------------------------------------------------------ sampling
    def sample(self, sample_shape: Any = ()) -> Tensor:
        """Draws ``sample_shape`` samples (not differentiable)."""
        with no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        """Draws reparameterized samples: gradients flow to the parameters."""
        raise NotImplementedError(f"{type(self).__name__} does not implement rsample")

    def sample_n(self, n: int) -> Tensor:
        """``sample((n,))`` (deprecated in torch)."""
        return self.sample(Size((n,)))

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not implement cdf")

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not implement icdf")

    def enumerate_support(self, expand: bool = True) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not implement enumerate_support")

    def entropy(self) -> Tensor:
        raise NotImplementedError(f"{type(self).__name__} does not implement entropy")

    def perplexity(self) -> Tensor:
        return self.entropy().exp()

    # ------------------------------------------------------------------ validation
    def _validate_sample(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise ValueError("The value argument to log_prob must be a Tensor")
        event_dim_start = value.dim() - len(self._event_shape)
        if tuple(shape_of(value)[event_dim_start:]) != tuple(self._event_shape):
            raise ValueError(
                f"The right-most size of value must match event_shape: {tuple(shape_of(value))} vs "
                f"{tuple(self._event_shape)}."
            )
        actual_shape = tuple(shape_of(value))
        expected_shape = tuple(self._batch_shape) + tuple(self._event_shape)
        for i, j in zip(reversed(actual_shape), reversed(expected_shape), strict=False):
            if i != 1 and j != 1 and i != j:
                raise ValueError(
                    f"Value is not broadcastable with batch_shape+event_shape: {actual_shape} vs "
                    f"{expected_shape}."
                )
        support = self.support
        if constraints.is_dependent(support):
            return
        valid = support.check(value)
        if not bool(valid.all()):
            raise ValueError(
                f"Expected value argument ({type(value).__name__} of shape "
                f"{tuple(shape_of(value))}) to be within the support ({support!r}) of the "
                f"distribution {self!r}, but found invalid values:\n{value}"
            )

    def __repr__(self) -> str:
        names = [k for k in self.arg_constraints if k in self.__dict__]
        args = ", ".join(
            f"{p}: {self.__dict__[p] if self.__dict__[p].numel() == 1 else self.__dict__[p].size()}"
            for p in names
        )
        return self.__class__.__name__ + "(" + args + ")"


def _lazy_type() -> type:
    from ember.distributions.utils import lazy_property

    return lazy_property


_LOG_2PI = math.log(2 * math.pi)


def _shape_arg(value: Any, where: str) -> Any:
    return check_shape(value, "the shape", where)


# The argument each public method checks before a family's code sees it (torch raises
# TypeError naming the argument where the family would hit an attribute error).
_ARGUMENT_CHECKS: ArgumentChecks = {
    "log_prob": (("value",), check_value),
    "cdf": (("value",), check_value),
    "icdf": (("value",), check_value),
    "sample": (("sample_shape",), _shape_arg),
    "rsample": (("sample_shape",), _shape_arg),
    "expand": (("batch_shape",), _shape_arg),
}
guard_arguments(Distribution, _ARGUMENT_CHECKS)
