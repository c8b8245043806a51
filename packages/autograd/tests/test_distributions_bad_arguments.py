"""Distributions and transforms refuse malformed arguments with a TypeError naming them.

The api sweep found AttributeErrors ('list' object has no attribute 'dim') in every family; one
guard in the Distribution and Transform base classes checks each public method's argument for
every subclass, so these tests pick families of each kind.
"""

from __future__ import annotations

from typing import Any

import pytest

import ember
from ember.distributions import (
    AffineTransform,
    Categorical,
    ComposeTransform,
    Dirichlet,
    Exponential,
    Independent,
    IndependentTransform,
    LogNormal,
    MultivariateNormal,
    Normal,
    OneHotCategorical,
    StickBreakingTransform,
    TransformedDistribution,
)

JUNK: list[Any] = [None, "abc", {}, [1.0, "a"], object()]


@pytest.mark.parametrize("junk", JUNK)
@pytest.mark.parametrize("method", ["log_prob", "cdf", "icdf"])
def test_a_junk_value_is_a_type_error(method: str, junk: Any) -> None:
    for dist in (Normal(0.0, 1.0), Exponential(ember.tensor(1.0)), LogNormal(0.0, 1.0)):
        with pytest.raises(TypeError, match=rf"{type(dist).__name__}\.{method}\(\): value must"):
            getattr(dist, method)(junk)
        with pytest.raises(TypeError, match="value must"):
            getattr(dist, method)(value=junk)  # by keyword too


def test_numbers_and_tensors_still_pass_as_values() -> None:
    d = Normal(0.0, 1.0)
    assert abs(d.log_prob(0.0).item() - d.log_prob(ember.tensor(0.0)).item()) < 1e-7
    assert abs(Exponential(ember.tensor(2.0)).cdf(1).item() - (1 - 2.718281828**-2)) < 1e-6


@pytest.mark.parametrize("junk", ["ab", {}, 1.5, [1.5], object()])
def test_a_junk_shape_is_a_type_error(junk: Any) -> None:
    d = Normal(ember.zeros(3), 1.0)
    for call in (d.sample, d.rsample, d.expand):
        with pytest.raises(TypeError, match="the shape must be a tuple of ints"):
            call(junk)
    with pytest.raises(TypeError, match=r"Normal\.expand\(\): the shape must"):
        d.expand(batch_shape=junk)  # by keyword too
    assert d.sample((2,)).shape == (2, 3) and d.expand([4, 3]).batch_shape == (4, 3)


@pytest.mark.parametrize("junk", ["ab", [0.5, 0.5], {}, None])
def test_junk_parameters_are_type_errors(junk: Any) -> None:
    if junk is not None:
        with pytest.raises(TypeError, match="Categorical: probs must be a Tensor"):
            Categorical(probs=junk)
        with pytest.raises(TypeError, match="logits must be a Tensor"):
            OneHotCategorical(logits=junk)
    with pytest.raises(TypeError, match="Dirichlet: concentration must be a Tensor"):
        Dirichlet(junk)
    with pytest.raises(TypeError, match="MultivariateNormal: loc must be a Tensor"):
        MultivariateNormal(junk, covariance_matrix=ember.eye(2))
    with pytest.raises(TypeError, match="MultivariateNormal: scale_tril must be a Tensor"):
        MultivariateNormal(ember.zeros(2), scale_tril=junk if junk is not None else "x")
    with pytest.raises(TypeError, match="Independent: base_distribution must be a Distribution"):
        Independent(junk, 1)
    with pytest.raises(TypeError, match="base_distribution must be a Distribution"):
        TransformedDistribution(junk, [AffineTransform(0.0, 1.0)])


def test_transforms_refuse_junk_arguments() -> None:
    with pytest.raises(TypeError, match="ComposeTransform: each part must be a Transform"):
        ComposeTransform([AffineTransform(0.0, 1.0), 1.5])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="ComposeTransform: parts must be a list"):
        ComposeTransform("ab")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="IndependentTransform: base_transform must be"):
        IndependentTransform(ember.rand(2), 1)  # type: ignore[arg-type]
    t = AffineTransform(1.0, 2.0)
    with pytest.raises(TypeError, match=r"AffineTransform\.__call__\(\): the argument must"):
        t([1.0])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"StickBreakingTransform\.log_abs_det_jacobian"):
        StickBreakingTransform().log_abs_det_jacobian(ember.rand(3), False)  # type: ignore[arg-type]
    x = ember.tensor([0.5])
    assert t(x).tolist() == [2.0] and t.inv(t(x)).tolist() == [0.5]
