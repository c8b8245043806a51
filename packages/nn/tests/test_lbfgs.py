"""LBFGS: convergence on Rosenbrock (with and without the strong-Wolfe line search), its state
and argument checks, and a comparison with torch's trajectory when torch is importable."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import optim


def rosenbrock(x: ember.Tensor) -> ember.Tensor:
    return (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2


def minimize(
    line_search: str | None, steps: int, lr: float = 1.0
) -> tuple[ember.Tensor, optim.LBFGS]:
    x = ember.tensor([-1.5, 2.0], dtype=ember.float64, requires_grad=True)
    opt = optim.LBFGS([x], lr=lr, max_iter=50, history_size=10, line_search_fn=line_search)

    def closure() -> ember.Tensor:
        opt.zero_grad()
        loss = rosenbrock(x)
        loss.backward()
        return loss

    for _ in range(steps):
        opt.step(closure)
    return x, opt


def test_strong_wolfe_converges_on_rosenbrock() -> None:
    x, opt = minimize("strong_wolfe", 4)
    # torch 2.13 from the same start stops at the same point (tolerance_change) after the same
    # 43 iterations and 53 evaluations (recorded from torch.optim.LBFGS).
    np.testing.assert_allclose(x.detach().numpy(), [1.0, 1.0], atol=1e-4)
    np.testing.assert_allclose(x.detach().numpy(), [0.99998342, 0.9999669], atol=1e-8)
    state = opt.state[x]
    assert state["n_iter"] == 43 and state["func_evals"] == 53
    assert len(state["old_dirs"]) <= 10


def test_fixed_step_makes_progress() -> None:
    x, _ = minimize(None, 5, lr=0.1)
    start = float(rosenbrock(ember.tensor([-1.5, 2.0], dtype=ember.float64)))
    assert float(rosenbrock(x.detach())) < start * 1e-2


def test_quadratic_in_one_step() -> None:
    a = ember.tensor([[3.0, 1.0], [1.0, 2.0]], dtype=ember.float64)
    b = ember.tensor([1.0, -1.0], dtype=ember.float64)
    x = ember.zeros(2, dtype=ember.float64, requires_grad=True)
    opt = optim.LBFGS([x], line_search_fn="strong_wolfe")

    def closure() -> ember.Tensor:
        opt.zero_grad()
        loss = 0.5 * x @ (a @ x) - b @ x
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(x.detach().numpy(), np.linalg.solve(a.numpy(), b.numpy()), atol=1e-6)


def test_checks() -> None:
    x = ember.zeros(2, requires_grad=True)
    y = ember.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="doesn't support per-parameter options"):
        optim.LBFGS([{"params": [x]}, {"params": [y]}])
    opt = optim.LBFGS([x], line_search_fn="bogus")

    def closure() -> ember.Tensor:
        opt.zero_grad()
        loss = ((x - 1) ** 2).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(closure)
    assert optim.LBFGS([y], max_iter=8).defaults["max_eval"] == 10


def test_matches_torch() -> None:
    torch = pytest.importorskip("torch")
    tx = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    topt = torch.optim.LBFGS([tx], max_iter=50, history_size=10, line_search_fn="strong_wolfe")

    def tclosure():  # type: ignore[no-untyped-def]
        topt.zero_grad()
        loss = (1 - tx[0]) ** 2 + 100 * (tx[1] - tx[0] ** 2) ** 2
        loss.backward()
        return loss

    topt.step(tclosure)
    x, _ = minimize("strong_wolfe", 1)
    np.testing.assert_allclose(x.detach().numpy(), tx.detach().numpy(), rtol=1e-8)
