"""Smoke test of examples/typed_training.py: the typed MLP's loss falls and training is seeded.

The example also uses ember.utils.data (ember-data), so it is skipped where only ember-nn is
installed. ci/lint.sh checks the same file with `mypy --strict`.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("ember.utils.data", reason="the example loads batches with ember-data")

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "typed_training.py"
if not EXAMPLE.is_file():
    pytest.skip("the repository's examples/ folder is not here", allow_module_level=True)


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typed_training_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_typed_example_loss_falls(capsys: pytest.CaptureFixture[str]) -> None:
    losses = load_example().main(epochs=4)
    assert len(losses) == 4 and all(type(loss) is float for loss in losses)
    assert losses[-1] < losses[0] / 3
    out = capsys.readouterr().out
    assert "epoch 0: loss" in out and "input-gradient norm" in out


def test_typed_example_is_seeded() -> None:
    example = load_example()
    assert example.main(epochs=2) == example.main(epochs=2)
