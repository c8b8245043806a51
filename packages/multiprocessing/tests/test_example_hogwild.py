"""Smoke test of examples/hogwild.py: processes training one shared model reach one's accuracy.

Needs scikit-learn (the digits data) and ember-autograd (the example's gradients); skipped
without them, since ember-multiprocessing itself depends on neither.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("sklearn", reason="the example's data comes from scikit-learn")
pytest.importorskip("ember.autograd", reason="the example trains with autograd")

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "hogwild.py"
if not EXAMPLE.is_file():
    pytest.skip("the repository's examples/ folder is not here", allow_module_level=True)


def load_example() -> object:
    spec = importlib.util.spec_from_file_location("hogwild_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_hogwild_shared_model_learns_like_one_process() -> None:
    example: object = load_example()
    shared = example.main(processes=2, epochs=4, lr=0.1, start_method="fork")  # type: ignore[attr-defined]
    alone = example.main(processes=1, epochs=4, lr=0.1, start_method="fork")  # type: ignore[attr-defined]
    assert shared > 0.85 and alone > 0.85
    assert shared >= alone - 0.05


def test_hogwild_updates_reach_the_parent() -> None:
    # The parent's tensors are the ones trained: they moved away from their initial values.
    import ember

    example: object = load_example()
    params = example.init_params()  # type: ignore[attr-defined]
    before = [p.detach().clone() for p in params]
    x, y, _, _ = example.load_split()  # type: ignore[attr-defined]
    import ember.multiprocessing as mp

    mp.spawn(example.train, args=(params, x[:64], y[:64], 2, 1, 0.1), nprocs=2, start_method="fork")  # type: ignore[attr-defined]
    assert all(p.is_shared() for p in params)
    assert any(not ember.equal(a, b.detach()) for a, b in zip(before, params, strict=True))
