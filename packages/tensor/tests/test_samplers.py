"""multinomial, poisson, geometric_, log_normal_ and cauchy_: reproducible streams, sample
statistics against the distributions' moments (numpy computes the expected values), errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ember
from conftest import raises, to_numpy


def gen(seed: int = 0) -> ember.Generator:
    return ember.Generator().manual_seed(seed)


SAMPLERS: dict[str, Callable[[ember.Generator | None], ember.Tensor]] = {
    "multinomial": lambda g: ember.multinomial(
        ember.tensor([[0.1, 0.0, 0.5, 0.4]] * 50), 3, generator=g
    ),
    "multinomial_replacement": lambda g: ember.tensor([1.0, 2.0, 3.0]).multinomial(
        40000, True, generator=g
    ),
    "poisson": lambda g: ember.poisson(ember.full((40000,), 7.5), g),
    "geometric_": lambda g: ember.empty(40000).geometric_(0.3, generator=g),
    "log_normal_": lambda g: ember.empty(40000).log_normal_(1.0, 0.5, generator=g),
    "cauchy_": lambda g: ember.empty(40000, dtype=ember.float64).cauchy_(2.0, 3.0, generator=g),
}


@pytest.mark.parametrize("name", SAMPLERS)
def test_seeded_streams_repeat(name: str) -> None:
    sample = SAMPLERS[name]
    a, b = sample(gen(7)), sample(gen(7))
    assert a.tolist() == b.tolist()
    assert sample(gen(8)).tolist() != a.tolist()
    ember.manual_seed(3)
    c = sample(None)
    ember.manual_seed(3)
    assert sample(None).tolist() == c.tolist()


@pytest.mark.parametrize("name", SAMPLERS)
def test_thread_count_does_not_change_numbers(name: str) -> None:
    threads = ember.get_num_threads()
    try:
        ember.set_num_threads(1)
        one = SAMPLERS[name](gen(5))
        ember.set_num_threads(max(2, threads))
        many = SAMPLERS[name](gen(5))
    finally:
        ember.set_num_threads(threads)
    assert one.tolist() == many.tolist()


def test_multinomial_without_replacement() -> None:
    probs = ember.tensor([[0.1, 0.0, 0.5, 0.4], [1.0, 1.0, 0.0, 0.0]])
    draws = to_numpy(ember.multinomial(probs, 2, generator=gen()))
    assert draws.shape == (2, 2) and draws.dtype == np.int64
    assert all(len(set(row)) == 2 for row in draws)
    assert 1 not in draws[0] and set(draws[1]) == {0, 1}
    # More samples than non-zero weights: zero weights come last, in index order.
    assert ember.multinomial(ember.tensor([1.0, 0.0, 0.0]), 3).tolist() == [0, 1, 2]
    # First picks follow the weights: category 2 (weight 0.5) first about half of the time.
    many = to_numpy(
        ember.multinomial(ember.tensor([[0.1, 0.0, 0.5, 0.4]] * 20000), 1, generator=gen(1))
    )
    freq = np.bincount(many[:, 0], minlength=4) / 20000
    np.testing.assert_allclose(freq, [0.1, 0.0, 0.5, 0.4], atol=0.015)


def test_multinomial_with_replacement_frequencies() -> None:
    weights = np.array([1.0, 0.0, 2.0, 7.0])
    draws = to_numpy(
        ember.multinomial(ember.from_numpy(weights), 50000, replacement=True, generator=gen(2))
    )
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, weights / weights.sum(), atol=0.01)
    assert freq[1] == 0
    assert ember.multinomial(ember.ones(0, 3), 2).shape == (0, 2)
    out = ember.empty(0, dtype=ember.int64)
    assert ember.multinomial(ember.ones(3).double(), 2, out=out) is out and out.shape == (2,)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: ember.multinomial(ember.tensor([1, 2]), 1), "floating"),
        (lambda: ember.multinomial(ember.tensor([-1.0, 2.0]), 1), "element < 0"),
        (lambda: ember.multinomial(ember.tensor([float("nan"), 2.0]), 1), "nan"),
        (lambda: ember.multinomial(ember.tensor([float("inf"), 2.0]), 1), "inf"),
        (lambda: ember.multinomial(ember.tensor([0.0, 0.0]), 1, True), "sum of probabilities"),
        (lambda: ember.multinomial(ember.tensor([1.0, 0.0]), 0), "n_sample <= 0"),
        (lambda: ember.multinomial(ember.tensor(1.0), 1), "1 or 2 dim"),
        (lambda: ember.multinomial(ember.ones(2, 2, 2), 1), "1 or 2 dim"),
        (lambda: ember.multinomial(ember.ones(3), 4), "without replacement"),
        (lambda: ember.multinomial(ember.ones(2, 0), 1, True), "no categories"),
        (lambda: ember.multinomial(ember.ones(3), 2, out=ember.empty(0).int()), "int64"),
    ],
)
def test_multinomial_errors(call: Callable[[], Any], message: str) -> None:
    raises(RuntimeError, "multinomial", call, message)


@pytest.mark.parametrize("rate", [0.0, 0.5, 4.0, 9.99, 10.0, 60.0, 1e5])
def test_poisson_moments(rate: float) -> None:
    draws = to_numpy(ember.poisson(ember.full((40000,), rate, dtype=ember.float64), gen(3)))
    assert (draws == np.round(draws)).all() and (draws >= 0).all()
    se = np.sqrt(rate / draws.size) + 1e-12
    assert abs(draws.mean() - rate) < 5 * se
    assert abs(draws.var() - rate) < 0.05 * rate + 1e-12


def test_poisson_dtypes_and_errors() -> None:
    assert ember.poisson(ember.tensor([1.0, 2.0]).half()).dtype == ember.float16
    assert ember.poisson(ember.zeros(2, 3)).shape == (2, 3)
    raises(NotImplementedError, "poisson", lambda: ember.poisson(ember.tensor([1, 2])))
    raises(RuntimeError, "poisson", lambda: ember.poisson(ember.tensor([-1.0])), "non-negative")
    raises(RuntimeError, "poisson", lambda: ember.poisson(ember.tensor([float("nan")])))
    raises(RuntimeError, "poisson", lambda: ember.poisson(ember.tensor([float("inf")])))
    raises(TypeError, "poisson", lambda: ember.poisson(ember.ones(1), generator=3))


@pytest.mark.parametrize("dtype", [ember.float32, ember.float64, ember.int64, ember.int16])
def test_geometric_moments(dtype: Any) -> None:
    p = 0.3
    draws = to_numpy(ember.empty(40000, dtype=dtype).geometric_(p, generator=gen(4)))
    assert draws.min() >= 1 and (draws == np.round(draws)).all()
    np.testing.assert_allclose(draws.mean(), 1 / p, rtol=0.03)
    np.testing.assert_allclose(draws.var(), (1 - p) / p**2, rtol=0.08)


def test_log_normal_and_cauchy_moments() -> None:
    x = to_numpy(ember.empty(40000, dtype=ember.float64).log_normal_(1.0, 0.5, generator=gen(5)))
    logs = np.log(x)
    assert abs(logs.mean() - 1.0) < 0.02 and abs(logs.std() - 0.5) < 0.02
    c = to_numpy(ember.empty(40000, dtype=ember.float64).cauchy_(2.0, 3.0, generator=gen(6)))
    q1, med, q3 = np.quantile(c, [0.25, 0.5, 0.75])  # quartiles of Cauchy: median -+ sigma
    assert abs(med - 2.0) < 0.1 and abs(q1 + 1.0) < 0.15 and abs(q3 - 5.0) < 0.15
    h = ember.empty(100, dtype=ember.float16).cauchy_()
    assert h.dtype == ember.float16


def test_in_place_samplers_on_views_and_errors() -> None:
    x = ember.zeros(4, 6)
    view = x[:, ::2]
    assert view.geometric_(0.5) is view
    assert (x[:, 1::2] == 0).all().item() and (x[:, ::2] >= 1).all().item()
    raises(RuntimeError, "geometric_", lambda: ember.empty(3).geometric_(1.0), "(0, 1)")
    raises(RuntimeError, "geometric_", lambda: ember.empty(3).geometric_(0.0))
    raises(NotImplementedError, "geometric_", lambda: ember.empty(3).bool().geometric_(0.5))
    raises(RuntimeError, "log_normal_", lambda: ember.empty(3).log_normal_(1.0, 0.0), "std")
    raises(NotImplementedError, "log_normal_", lambda: ember.empty(3).long().log_normal_())
    raises(RuntimeError, "cauchy_", lambda: ember.empty(3).cauchy_(0.0, -1.0), "sigma")
    raises(RuntimeError, "cauchy_", lambda: ember.empty(3).long().cauchy_(), "floating")
    raises(RuntimeError, "geometric_", lambda: ember.zeros(1).expand(3).geometric_(0.5))
    raises(TypeError, "cauchy_", lambda: ember.empty(3).cauchy_(generator="g"))
