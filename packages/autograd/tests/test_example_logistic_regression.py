"""Smoke test of examples/logistic_regression.py (needs scikit-learn: `--group examples`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sklearn", reason="the example's data comes from scikit-learn")

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "logistic_regression.py"
if not EXAMPLE.is_file():
    # The release check runs these tests from ember-autograd's wheel, outside the repository.
    pytest.skip("the repository's examples/ folder is not here", allow_module_level=True)


def test_logistic_regression_learns(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("logistic_regression", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    accuracy = module.main(steps=60, lr=0.5, log_every=20)
    assert accuracy > 0.9
    losses = [
        float(line.split()[-1]) for line in capsys.readouterr().out.splitlines() if "loss" in line
    ]
    assert len(losses) == 3 and losses[0] > losses[-1]
