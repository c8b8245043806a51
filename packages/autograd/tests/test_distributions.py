"""ember.distributions: densities and moments against scipy.stats (when installed) and closed
forms (always), sample statistics, rsample gradients, validation, shapes and KL divergences."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ember
from ember import distributions as D
from ember.autograd import gradcheck


def t64(values: Any) -> ember.Tensor:
    return ember.from_numpy(np.asarray(values, dtype=np.float64))


def close(got: ember.Tensor, want: Any, rtol: float = 1e-10, atol: float = 1e-12) -> None:
    np.testing.assert_allclose(
        got.detach().numpy(), np.asarray(want, dtype=np.float64), rtol=rtol, atol=atol
    )


# ---------------------------------------------------------------- a table against scipy.stats
# (name, ember distribution, scipy frozen distribution builder, points to evaluate, discrete)
def _table() -> list[tuple[str, Callable[[], Any], Callable[[Any], Any], np.ndarray, bool]]:
    loc, scale = np.array([0.0, -1.5, 2.0]), np.array([1.0, 0.3, 4.0])
    x = np.array([[0.3], [-2.0], [5.0]]) + np.zeros(3)
    a, b = np.array([0.5, 2.0, 7.0]), np.array([1.5, 0.7, 3.0])
    u01 = np.array([[0.05], [0.4], [0.93]]) + np.zeros(3)
    pos = np.array([[0.2], [1.3], [6.0]]) + np.zeros(3)
    p = np.array([0.1, 0.5, 0.85])
    k = np.array([[0.0], [1.0], [4.0]]) + np.zeros(3)
    return [
        ("Normal", lambda: D.Normal(t64(loc), t64(scale)), lambda s: s.norm(loc, scale), x, False),
        (
            "Laplace",
            lambda: D.Laplace(t64(loc), t64(scale)),
            lambda s: s.laplace(loc, scale),
            x,
            False,
        ),
        (
            "Cauchy",
            lambda: D.Cauchy(t64(loc), t64(scale)),
            lambda s: s.cauchy(loc, scale),
            x,
            False,
        ),
        (
            "StudentT",
            lambda: D.StudentT(t64(a + 2), t64(loc), t64(scale)),
            lambda s: s.t(a + 2, loc, scale),
            x,
            False,
        ),
        (
            "Uniform",
            lambda: D.Uniform(t64(loc - 3), t64(loc + 6), validate_args=False),
            lambda s: s.uniform(loc - 3, 9),
            x,
            False,
        ),
        ("Exponential", lambda: D.Exponential(t64(a)), lambda s: s.expon(scale=1 / a), pos, False),
        ("Gamma", lambda: D.Gamma(t64(a), t64(b)), lambda s: s.gamma(a, scale=1 / b), pos, False),
        ("Chi2", lambda: D.Chi2(t64(a * 2)), lambda s: s.chi2(a * 2), pos, False),
        ("Beta", lambda: D.Beta(t64(a), t64(b)), lambda s: s.beta(a, b), u01, False),
        (
            "LogNormal",
            lambda: D.LogNormal(t64(loc), t64(scale)),
            lambda s: s.lognorm(scale, scale=np.exp(loc)),
            pos,
            False,
        ),
        (
            "HalfNormal",
            lambda: D.HalfNormal(t64(scale)),
            lambda s: s.halfnorm(scale=scale),
            pos,
            False,
        ),
        (
            "HalfCauchy",
            lambda: D.HalfCauchy(t64(scale)),
            lambda s: s.halfcauchy(scale=scale),
            pos,
            False,
        ),
        (
            "Bernoulli",
            lambda: D.Bernoulli(probs=t64(p)),
            lambda s: s.bernoulli(p),
            np.array([[0.0], [1.0]]) + np.zeros(3),
            True,
        ),
        ("Geometric", lambda: D.Geometric(probs=t64(p)), lambda s: s.geom(p, loc=-1), k, True),
        ("Poisson", lambda: D.Poisson(t64(a)), lambda s: s.poisson(a), k, True),
        (
            "Binomial",
            lambda: D.Binomial(t64([10.0, 10.0, 10.0]), probs=t64(p)),
            lambda s: s.binom(10, p),
            k,
            True,
        ),
    ]


TABLE = _table()


@pytest.mark.parametrize("case", TABLE, ids=[c[0] for c in TABLE])
def test_log_prob_entropy_moments_match_scipy(case: Any) -> None:
    stats = pytest.importorskip("scipy.stats")
    name, make, frozen, points, discrete = case
    d, ref = make(), frozen(stats)
    want = ref.logpmf(points) if discrete else ref.logpdf(points)
    close(d.log_prob(t64(points)), want, rtol=1e-10)
    if name != "Poisson":  # torch's Poisson has no entropy either
        close(d.entropy(), ref.entropy(), rtol=1e-10)
    if name not in ("Cauchy", "HalfCauchy"):  # torch's (and ember's) conventions: nan/inf
        with np.errstate(all="ignore"):
            mean, var = ref.stats(moments="mv")
        close(d.mean, mean, rtol=1e-12)
        close(d.variance, var, rtol=1e-12)
    if not discrete and name not in ("Gamma", "Chi2", "Beta", "StudentT"):
        close(d.cdf(t64(points)), ref.cdf(points), rtol=1e-10)


def test_multivariate_families_match_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 3))
    cov = a @ a.T + 3 * np.eye(3)
    loc = np.array([0.5, -1.0, 2.0])
    x = rng.normal(size=(4, 3))
    for d in (
        D.MultivariateNormal(t64(loc), covariance_matrix=t64(cov)),
        D.MultivariateNormal(t64(loc), precision_matrix=t64(np.linalg.inv(cov))),
        D.MultivariateNormal(t64(loc), scale_tril=t64(np.linalg.cholesky(cov))),
    ):
        ref = stats.multivariate_normal(loc, cov)
        close(d.log_prob(t64(x)), ref.logpdf(x), rtol=1e-10)
        close(d.entropy(), ref.entropy(), rtol=1e-10)
        close(d.covariance_matrix, cov, rtol=1e-10)
        close(d.variance, np.diag(cov), rtol=1e-10)
    alpha = np.array([0.7, 2.0, 4.5])
    pts = np.array([[0.2, 0.3, 0.5], [0.05, 0.9, 0.05]])
    dd = D.Dirichlet(t64(alpha))
    close(dd.log_prob(t64(pts)), [stats.dirichlet(alpha).logpdf(q) for q in pts], rtol=1e-10)
    close(dd.entropy(), stats.dirichlet(alpha).entropy(), rtol=1e-10)
    close(dd.variance, stats.dirichlet(alpha).var(), rtol=1e-12)
    probs = np.array([0.2, 0.3, 0.5])
    counts = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 6.0]])
    dm = D.Multinomial(6, probs=t64(probs))
    close(dm.log_prob(t64(counts)), stats.multinomial(6, probs).logpmf(counts), rtol=1e-10)
    close(dm.entropy(), stats.multinomial(6, probs).entropy(), rtol=1e-10)
    dc = D.Categorical(probs=t64(probs))
    close(dc.entropy(), stats.entropy(probs), rtol=1e-12)


# ---------------------------------------------------------------- closed forms (no scipy)
def test_closed_forms_without_scipy() -> None:
    n = D.Normal(t64([1.0]), t64([2.0]))
    close(n.log_prob(t64([1.0])), [-math.log(2) - 0.5 * math.log(2 * math.pi)])
    close(n.entropy(), [0.5 * math.log(2 * math.pi * math.e * 4)])
    close(n.cdf(t64([1.0])), [0.5])
    close(n.icdf(n.cdf(t64([3.7]))), [3.7], rtol=1e-12)
    e = D.Exponential(t64([2.0]))
    close(e.log_prob(t64([0.5])), [math.log(2) - 1])
    close(e.entropy(), [1 - math.log(2)])
    u = D.Uniform(t64([0.0]), t64([4.0]), validate_args=False)
    close(u.log_prob(t64([1.0])), [-math.log(4)])
    assert u.log_prob(t64([5.0])).item() == -math.inf
    g = D.Gamma(t64([1.0]), t64([3.0]))  # Gamma(1, rate) is Exponential(rate)
    close(g.log_prob(t64([0.4])), D.Exponential(t64([3.0])).log_prob(t64([0.4])))
    close(g.entropy(), D.Exponential(t64([3.0])).entropy(), rtol=1e-12)
    b = D.Beta(t64([1.0]), t64([1.0]))  # Beta(1, 1) is Uniform(0, 1)
    close(b.log_prob(t64([0.3])), [0.0])
    close(b.entropy(), [0.0], atol=1e-14)
    pois = D.Poisson(t64([3.0]))
    close(pois.log_prob(t64([2.0])), [math.log(9 * math.exp(-3) / 2)])
    c = D.Categorical(logits=t64([0.0, math.log(3)]))
    close(c.probs, [0.25, 0.75])
    close(c.log_prob(ember.tensor([1])), [math.log(0.75)])
    bern = D.Bernoulli(logits=t64([0.0]))
    close(bern.log_prob(t64([1.0])), [math.log(0.5)])
    close(bern.entropy(), [math.log(2)])
    binom = D.Binomial(4, probs=t64([0.5]))
    close(binom.log_prob(t64([2.0])), [math.log(6 / 16)])
    mvn = D.MultivariateNormal(t64([0.0, 0.0]), covariance_matrix=t64([[2.0, 0.0], [0.0, 3.0]]))
    indep = D.Independent(D.Normal(t64([0.0, 0.0]), t64([math.sqrt(2), math.sqrt(3)])), 1)
    x = t64([[0.3, -1.2], [2.0, 0.1]])
    close(mvn.log_prob(x), indep.log_prob(x))
    close(mvn.entropy(), indep.entropy())
    ln = D.LogNormal(t64([0.0]), t64([1.0]))
    close(ln.log_prob(t64([1.0])), [-0.5 * math.log(2 * math.pi)])
    close(ln.mean, [math.exp(0.5)])


# ---------------------------------------------------------------- sample statistics
@pytest.mark.parametrize(
    "make",
    [
        lambda: D.Normal(t64(1.5), t64(2.0)),
        lambda: D.Uniform(t64(-1.0), t64(3.0)),
        lambda: D.Exponential(t64(2.5)),
        lambda: D.Laplace(t64(0.5), t64(1.5)),
        lambda: D.Gamma(t64(0.4), t64(2.0)),
        lambda: D.Gamma(t64(5.0), t64(0.5)),
        lambda: D.Beta(t64(2.0), t64(5.0)),
        lambda: D.Bernoulli(probs=t64(0.3)),
        lambda: D.Geometric(probs=t64(0.3)),
        lambda: D.Poisson(t64(4.0)),
        lambda: D.Binomial(t64(12.0), probs=t64(0.3)),
        lambda: D.LogNormal(t64(0.0), t64(0.5)),
        lambda: D.HalfNormal(t64(2.0)),
        lambda: D.StudentT(t64(6.0), t64(1.0), t64(2.0)),
        lambda: D.Chi2(t64(3.0)),
    ],
    ids=lambda f: "",
)
def test_sample_mean_and_variance(make: Callable[[], Any]) -> None:
    ember.manual_seed(1234)
    d = make()
    n = 100_000
    s = d.sample((n,)).numpy().astype(np.float64)
    assert s.shape == (n,)
    mean, var = float(d.mean), float(d.variance)
    # Standard errors of the sample mean and variance (the 4th moment estimated from the draws).
    se_mean = math.sqrt(var / n)
    m4 = float(np.mean((s - mean) ** 4))
    se_var = math.sqrt(max(m4 - var**2, 1e-300) / n)
    assert abs(s.mean() - mean) < 5 * se_mean, (s.mean(), mean)
    assert abs(s.var() - var) < 5 * se_var, (s.var(), var)
    assert bool(d.support.check(t64(s)).all())


def test_categorical_family_samples() -> None:
    ember.manual_seed(0)
    probs = t64([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]])
    c = D.Categorical(probs=probs)
    s = c.sample((50_000,))
    assert tuple(s.shape) == (50_000, 2) and s.dtype == ember.int64
    freq = np.stack([(s.numpy() == k).mean(0) for k in range(3)], -1)
    np.testing.assert_allclose(freq, probs.numpy(), atol=0.01)
    oh = D.OneHotCategorical(probs=probs).sample((1000,))
    assert tuple(oh.shape) == (1000, 2, 3) and bool((oh.sum(-1) == 1).all())
    m = D.Multinomial(7, probs=probs).sample((2000,))
    assert tuple(m.shape) == (2000, 2, 3) and bool((m.sum(-1) == 7).all())
    np.testing.assert_allclose(m.numpy().mean(0), 7 * probs.numpy(), rtol=0.05)
    dirichlet = D.Dirichlet(t64([1.0, 2.0, 3.0])).sample((20_000,))
    np.testing.assert_allclose(dirichlet.numpy().mean(0), [1 / 6, 2 / 6, 3 / 6], atol=0.01)
    mvn = D.MultivariateNormal(t64([1.0, -1.0]), covariance_matrix=t64([[2.0, 0.8], [0.8, 1.0]]))
    x = mvn.sample((50_000,)).numpy()
    np.testing.assert_allclose(np.cov(x.T), [[2.0, 0.8], [0.8, 1.0]], atol=0.05)
    mix = D.MixtureSameFamily(
        D.Categorical(probs=t64([0.3, 0.7])), D.Normal(t64([-2.0, 2.0]), t64([0.5, 0.5]))
    )
    xm = mix.sample((50_000,)).numpy()
    assert abs(xm.mean() - float(mix.mean)) < 0.05
    assert abs(xm.var() - float(mix.variance)) < 0.1


def test_seeded_sampling_is_reproducible() -> None:
    d = D.Gamma(t64([0.5, 3.0]), t64([1.0, 1.0]))
    ember.manual_seed(7)
    first = d.sample((5,))
    ember.manual_seed(7)
    assert ember.equal(first, d.sample((5,)))


# ---------------------------------------------------------------- gradients
def test_rsample_gradients_pass_gradcheck() -> None:
    def seeded(fn: Callable[..., ember.Tensor]) -> Callable[..., ember.Tensor]:
        def run(*args: ember.Tensor) -> ember.Tensor:
            ember.manual_seed(3)
            return fn(*args)

        return run

    loc = t64([0.5, -1.0]).requires_grad_()
    scale = t64([1.5, 0.7]).requires_grad_()
    for family in (D.Normal, D.Laplace, D.Cauchy, D.LogNormal):
        assert gradcheck(seeded(lambda m, s, f=family: f(m, s).rsample((3,))), (loc, scale))
    assert gradcheck(seeded(lambda lo, hi: D.Uniform(lo, hi + 3).rsample((3,))), (loc, scale))
    assert gradcheck(seeded(lambda r: D.Exponential(r).rsample((3,))), (scale,))
    assert gradcheck(seeded(lambda s: D.HalfNormal(s).rsample((3,))), (scale,))
    rate = t64([2.0, 0.5]).requires_grad_()
    assert gradcheck(seeded(lambda r: D.Gamma(t64([1.5, 3.0]), r).rsample((3,))), (rate,))
    tril = t64([[1.5, 0.0], [0.3, 0.8]]).requires_grad_()
    assert gradcheck(
        seeded(lambda m, lt: D.MultivariateNormal(m, scale_tril=lt.tril()).rsample((2,))),
        (loc, tril),
    )


def test_log_prob_and_kl_gradients_pass_gradcheck() -> None:
    x = t64([0.3, 1.7])
    a = t64([1.5, 3.0]).requires_grad_()
    b = t64([0.5, 2.0]).requires_grad_()
    assert gradcheck(lambda c, r: D.Gamma(c, r).log_prob(x), (a, b))
    assert gradcheck(lambda c, r: D.Beta(c, r).log_prob(x / 2), (a, b))
    assert gradcheck(lambda c, r: D.Normal(c, r).entropy(), (a, b))
    assert gradcheck(lambda c, r: D.kl_divergence(D.Gamma(c, r), D.Gamma(r + 1, c)), (a, b))
    logits = t64([0.2, -1.0, 0.5]).requires_grad_()
    assert gradcheck(lambda lg: D.Categorical(logits=lg).log_prob(ember.tensor([0, 2])), (logits,))


def test_gamma_family_rsample_gradients_are_unbiased() -> None:
    # Implicit reparameterization: d/da E[f(x)] estimated by the mean of the pathwise gradients,
    # against closed forms, within 5 standard errors of 2 10^4 draws.
    n = 20_000
    ember.manual_seed(21)

    def mean_grad(make: Callable[[ember.Tensor], ember.Tensor], a0: float) -> tuple[float, float]:
        # One draw per element of a batch of n equal parameters: each draw's gradient lands in
        # its own element, so their mean estimates d/da E[f(x)] and their spread its error.
        a = t64(np.full(n, a0)).requires_grad_()
        (grad,) = ember.autograd.grad(make(a).sum(), [a])
        per_draw = grad.numpy()
        return float(per_draw.mean()), float(per_draw.std() / math.sqrt(n))

    alpha = 2.5
    got, se = mean_grad(lambda a: D.Gamma(a, t64(2.0)).rsample(), alpha)
    assert abs(got - 1 / 2.0) < 5 * se + 1e-3, (got, se)  # E[x] = a / rate
    got, se = mean_grad(lambda a: D.Gamma(a, t64(1.0)).rsample().log(), alpha)
    trigamma = ember.polygamma(1, t64([alpha])).item()  # d/da E[log x] = psi'(a)
    assert abs(got - trigamma) < 5 * se + 1e-3, (got, trigamma)
    got, se = mean_grad(lambda a: D.Gamma(a, t64(1.0)).rsample(), 0.3)
    assert abs(got - 1.0) < 5 * se + 1e-3, (got, se)  # small a: the U^(1/a) boost path
    beta = 1.5  # E[x] = a / (a + b): d/da = b / (a + b)^2
    got, se = mean_grad(lambda a: D.Beta(a, t64(beta)).rsample(), alpha)
    assert abs(got - beta / (alpha + beta) ** 2) < 5 * se + 1e-3, (got, se)
    conc = t64([1.0, 2.0, 3.0]).requires_grad_()
    ember.manual_seed(3)
    x = D.Dirichlet(conc).rsample((n,))
    # 2 10^4 draws: the standard error of each component is below 0.004.
    (g,) = ember.autograd.grad(x[:, 0].mean(), [conc])
    # d E[x_0] / d a_j = (A delta_0j - a_0) / A^2 with A = 6.
    np.testing.assert_allclose(g.numpy(), [5 / 36, -1 / 36, -1 / 36], atol=0.02)


def test_gamma_rsample_values_follow_the_distribution() -> None:
    a = t64([0.7, 4.0]).requires_grad_()
    ember.manual_seed(9)
    x = D.Gamma(a, t64([1.0, 1.0])).rsample((50_000,))
    assert x.requires_grad
    np.testing.assert_allclose(x.detach().numpy().mean(0), [0.7, 4.0], rtol=0.03)


# ---------------------------------------------------------------- validation and shapes
def test_validation_errors_match_torch() -> None:
    with pytest.raises(
        ValueError,
        match=r"Expected parameter scale \(Tensor of shape \(1,\)\) of distribution Normal",
    ):
        D.Normal(t64([0.0]), t64([-1.0]))
    with pytest.raises(ValueError, match="to satisfy the constraint GreaterThan"):
        D.Exponential(t64([0.0]))
    with pytest.raises(
        ValueError, match="Either `probs` or `logits` must be specified, but not both"
    ):
        D.Bernoulli()
    with pytest.raises(ValueError, match="Uniform is not defined when low>= high"):
        D.Uniform(t64([1.0]), t64([0.0]))
    with pytest.raises(ValueError, match="to be within the support"):
        D.Exponential(t64([1.0])).log_prob(t64([-1.0]))
    with pytest.raises(ValueError, match="The right-most size of value must match event_shape"):
        D.Dirichlet(t64([1.0, 1.0])).log_prob(t64([0.3, 0.3, 0.4]))
    with pytest.raises(ValueError, match="Value is not broadcastable"):
        D.Normal(t64([0.0, 0.0]), t64([1.0, 1.0])).log_prob(t64([0.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match="Exactly one of covariance_matrix"):
        D.MultivariateNormal(t64([0.0]))
    # Turned off, the same calls go through.
    assert math.isnan(D.Normal(t64([0.0]), t64([-1.0]), validate_args=False).scale.log().item())
    D.Distribution.set_default_validate_args(False)
    try:
        D.Normal(t64([0.0]), t64([-1.0]))
    finally:
        D.Distribution.set_default_validate_args(True)


def test_batch_event_shapes_and_expand() -> None:
    d = D.Normal(t64([[0.0], [1.0]]), t64([1.0, 2.0, 3.0]))
    assert d.batch_shape == (2, 3) and d.event_shape == ()
    assert tuple(d.sample((4,)).shape) == (4, 2, 3)
    assert tuple(d.log_prob(t64(0.5)).shape) == (2, 3)
    e = d.expand((5, 2, 3))
    assert e.batch_shape == (5, 2, 3) and tuple(e.rsample().shape) == (5, 2, 3)
    ind = D.Independent(d, 1)
    assert ind.batch_shape == (2,) and ind.event_shape == (3,)
    assert tuple(ind.log_prob(t64(np.zeros((2, 3)))).shape) == (2,)
    c = D.Categorical(logits=t64(np.zeros((4, 5))))
    assert c.batch_shape == (4,) and c.expand((3, 4)).sample().shape == (3, 4)
    mvn = D.MultivariateNormal(t64(np.zeros((2, 3))), ember.eye(3, dtype=ember.float64))
    assert mvn.batch_shape == (2,) and mvn.event_shape == (3,)
    assert mvn.expand((4, 2)).sample((5,)).shape == (5, 4, 2, 3)
    dirich = D.Dirichlet(t64(np.ones((2, 4))))
    assert dirich.expand((3, 2)).batch_shape == (3, 2) and dirich.event_shape == (4,)
    for dist in (
        D.Gamma(t64([1.0]), t64([1.0])),
        D.Beta(1.0, 2.0),
        D.Poisson(t64([1.0])),
        D.LogNormal(0.0, 1.0),
        D.Bernoulli(probs=t64([0.3])),
    ):
        assert dist.expand((6,)).batch_shape == (6,)
    assert D.Bernoulli(probs=t64([0.3, 0.5])).enumerate_support().shape == (2, 2)


def test_transforms_round_trip_and_log_det() -> None:
    x = t64([[-1.2, 0.3, 2.0]])
    transforms = [
        D.ExpTransform(),
        D.AffineTransform(1.0, t64([2.0, -3.0, 0.5])),
        D.SigmoidTransform(),
        D.TanhTransform(),
        D.PowerTransform(2.0),
        D.ComposeTransform([D.AffineTransform(0.5, 2.0), D.ExpTransform()]),
    ]
    for t in transforms:
        xin = x.abs() if isinstance(t, D.PowerTransform) else x
        y = t(xin)
        close(t.inv(y), xin.numpy(), rtol=1e-10)
        # log |dy/dx| against a central finite difference.
        h = 1e-6
        fd = (t(xin + h) - t(xin - h)) / (2 * h)
        close(t.log_abs_det_jacobian(xin, y), np.log(np.abs(fd.numpy())), rtol=1e-6, atol=1e-8)
    sb = D.StickBreakingTransform()
    y = sb(x)
    close(y.sum(-1), [1.0])
    close(sb.inv(y), x.numpy(), rtol=1e-10)
    # A change of variables: TransformedDistribution(Normal, Affine) is a Normal.
    td = D.TransformedDistribution(D.Normal(t64(0.0), t64(1.0)), [D.AffineTransform(2.0, 3.0)])
    close(td.log_prob(t64([0.7])), D.Normal(t64(2.0), t64(3.0)).log_prob(t64([0.7])).numpy())
    close(td.cdf(t64([0.7])), D.Normal(t64(2.0), t64(3.0)).cdf(t64([0.7])).numpy())


# ---------------------------------------------------------------- KL divergence
def test_kl_closed_forms() -> None:
    p, q = D.Normal(t64([0.0]), t64([1.0])), D.Normal(t64([1.0]), t64([2.0]))
    close(D.kl_divergence(p, q), [math.log(2) + (1 + 1) / 8 - 0.5])
    close(D.kl_divergence(p, p), [0.0])
    pe, qe = D.Exponential(t64([2.0])), D.Exponential(t64([0.5]))
    close(D.kl_divergence(pe, qe), [0.25 - 1 - math.log(0.25)])
    pb, qb = D.Bernoulli(probs=t64([0.3])), D.Bernoulli(probs=t64([0.6]))
    close(D.kl_divergence(pb, qb), [0.3 * math.log(0.5) + 0.7 * math.log(0.7 / 0.4)])
    pc = D.Categorical(probs=t64([0.5, 0.5, 0.0]))
    qc = D.Categorical(probs=t64([0.25, 0.25, 0.5]))
    close(D.kl_divergence(pc, qc), [math.log(2)])
    assert D.kl_divergence(qc, pc).item() == math.inf
    pu, qu = D.Uniform(t64([0.0]), t64([1.0])), D.Uniform(t64([-1.0]), t64([3.0]))
    close(D.kl_divergence(pu, qu), [math.log(4)])
    assert D.kl_divergence(qu, pu).item() == math.inf
    # The MVN formula against independent Normals (diagonal covariances).
    mp = D.MultivariateNormal(t64([0.0, 1.0]), covariance_matrix=t64([[1.0, 0.0], [0.0, 4.0]]))
    mq = D.MultivariateNormal(t64([1.0, 0.0]), covariance_matrix=t64([[2.0, 0.0], [0.0, 1.0]]))
    ip = D.Independent(D.Normal(t64([0.0, 1.0]), t64([1.0, 2.0])), 1)
    iq = D.Independent(D.Normal(t64([1.0, 0.0]), t64([math.sqrt(2), 1.0])), 1)
    close(D.kl_divergence(mp, mq), D.kl_divergence(ip, iq).numpy())
    ln = D.kl_divergence(D.LogNormal(t64([0.0]), t64([1.0])), D.LogNormal(t64([1.0]), t64([2.0])))
    close(ln, D.kl_divergence(p, q).numpy())


@pytest.mark.parametrize(
    "pair",
    [
        (lambda: D.Gamma(t64([2.0]), t64([1.5])), lambda: D.Gamma(t64([3.0]), t64([0.7]))),
        (lambda: D.Beta(t64([2.0]), t64([3.0])), lambda: D.Beta(t64([1.2]), t64([0.8]))),
        (lambda: D.Laplace(t64([0.0]), t64([1.0])), lambda: D.Laplace(t64([1.0]), t64([2.0]))),
        (lambda: D.Poisson(t64([3.0])), lambda: D.Poisson(t64([5.0]))),
        (lambda: D.Dirichlet(t64([1.0, 2.0, 3.0])), lambda: D.Dirichlet(t64([2.0, 2.0, 2.0]))),
        (lambda: D.Exponential(t64([1.5])), lambda: D.Gamma(t64([2.0]), t64([3.0]))),
        (lambda: D.Uniform(t64([-1.0]), t64([2.0])), lambda: D.Normal(t64([0.0]), t64([1.5]))),
        (lambda: D.Normal(t64([0.3]), t64([0.8])), lambda: D.Laplace(t64([0.0]), t64([1.2]))),
        (lambda: D.Geometric(probs=t64([0.3])), lambda: D.Geometric(probs=t64([0.6]))),
        (lambda: D.Binomial(10, probs=t64([0.3])), lambda: D.Binomial(10, probs=t64([0.6]))),
    ],
    ids=lambda f: "",
)
def test_kl_matches_monte_carlo(pair: Any) -> None:
    ember.manual_seed(5)
    p, q = pair[0](), pair[1]()
    x = p.sample((200_000,))
    diff = (p.log_prob(x) - q.log_prob(x)).numpy()
    mc, se = diff.mean(), diff.std() / math.sqrt(diff.size)
    exact = D.kl_divergence(p, q).numpy()
    assert abs(mc - exact.item()) < 5 * se + 1e-12, (mc, exact)


def test_kl_registry_dispatch() -> None:
    class MyNormal(D.Normal):
        pass

    # Subclasses use the most specific registered pair; a new registration takes precedence.
    p, q = MyNormal(t64([0.0]), t64([1.0])), D.Normal(t64([1.0]), t64([1.0]))
    close(D.kl_divergence(p, q), [0.5])

    @D.register_kl(MyNormal, D.Normal)
    def _mine(p: Any, q: Any) -> ember.Tensor:
        return ember.full((1,), 42.0, dtype=ember.float64)

    assert D.kl_divergence(p, q).item() == 42.0
    assert D.kl_divergence(q, q).item() == 0.0
    with pytest.raises(
        NotImplementedError, match="No KL\\(p \\|\\| q\\) is implemented for p type Poisson"
    ):
        D.kl_divergence(D.Poisson(t64([1.0])), D.Normal(t64([0.0]), t64([1.0])))
    with pytest.raises(TypeError, match="Expected type_p to be a Distribution subclass"):
        D.register_kl(int, D.Normal)


def test_torch_agrees_when_installed() -> None:
    torch = pytest.importorskip("torch")
    td = torch.distributions
    x = np.array([0.2, 1.3, 2.5])
    cases = [
        (
            D.Gamma(t64([2.0]), t64([1.5])),
            td.Gamma(
                torch.tensor([2.0], dtype=torch.float64), torch.tensor([1.5], dtype=torch.float64)
            ),
        ),
        (D.StudentT(t64([4.0])), td.StudentT(torch.tensor([4.0], dtype=torch.float64))),
        (D.HalfNormal(t64([1.5])), td.HalfNormal(torch.tensor([1.5], dtype=torch.float64))),
    ]
    for mine, theirs in cases:
        close(mine.log_prob(t64(x)), theirs.log_prob(torch.from_numpy(x)).numpy())
        close(mine.entropy(), theirs.entropy().numpy())
    p = D.Normal(t64([0.0]), t64([-1.0]), validate_args=False)
    assert repr(D.Normal(t64(0.0), t64(1.0))).startswith("Normal(loc: ")
    del p


def test_derived_families_validate_their_own_parameters() -> None:
    with pytest.raises(ValueError, match="distribution HalfNormal"):
        D.HalfNormal(t64([-1.0]))
    with pytest.raises(ValueError, match="Expected parameter df"):
        D.Chi2(t64([-2.0]))
    with pytest.raises(ValueError, match="Expected parameter probs"):
        D.Categorical(probs=t64([-0.5, 1.5]))


def test_relaxed_distributions_match_the_concrete_density() -> None:
    lam, p = 0.7, 0.3
    y = np.linspace(1e-3, 1 - 1e-3, 9)
    a = p / (1 - p)
    binary = (
        lam * a * y ** (-lam - 1) * (1 - y) ** (-lam - 1) / (a * y**-lam + (1 - y) ** -lam) ** 2
    )
    close(D.RelaxedBernoulli(t64(lam), probs=t64(p)).log_prob(t64(y)), np.log(binary))
    alphas = np.array([0.2, 0.3, 0.5])
    pts = np.array([[0.1, 0.3, 0.6], [0.7, 0.2, 0.1]])
    k = 3
    concrete = (
        math.factorial(k - 1)
        * lam ** (k - 1)
        * np.prod(alphas * pts ** (-lam - 1), -1)
        / np.sum(alphas * pts**-lam, -1) ** k
    )
    d = D.RelaxedOneHotCategorical(t64(lam), probs=t64(alphas))
    close(d.log_prob(t64(pts)), np.log(concrete))
    ember.manual_seed(0)
    s = d.rsample((1000,))
    assert tuple(s.shape) == (1000, 3) and bool(d.support.check(s).all())
    b = D.RelaxedBernoulli(t64(0.5), logits=t64([0.0, 1.0])).sample((1000,))
    assert bool(((b > 0) & (b < 1)).all())


def test_relaxed_rsample_gradients() -> None:
    def seeded(fn: Callable[..., ember.Tensor]) -> Callable[..., ember.Tensor]:
        def run(*args: ember.Tensor) -> ember.Tensor:
            ember.manual_seed(11)
            return fn(*args)

        return run

    logits = t64([0.3, -0.8, 1.2]).requires_grad_()
    assert gradcheck(
        seeded(lambda lg: D.RelaxedOneHotCategorical(t64(0.6), logits=lg).rsample((2,))), (logits,)
    )
    assert gradcheck(
        seeded(lambda lg: D.RelaxedBernoulli(t64(0.6), logits=lg).rsample((2,))), (logits,)
    )
