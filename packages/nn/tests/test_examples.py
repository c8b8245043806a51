"""Smoke tests of examples/train_digits.py, quickstart.py and char_transformer.py.

Each example runs in a subprocess with tiny settings and its printed markers are checked. The
digits example needs scikit-learn, tqdm, matplotlib and ember.utils.data (the `dev` and
`examples` dependency groups), which ember-nn itself does not depend on: it skips without them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
if not (EXAMPLES / "train_digits.py").is_file():
    # The release check runs these tests from ember-nn's wheel, outside the repository.
    pytest.skip("the repository's examples/ folder is not here", allow_module_level=True)


def run_example(name: str, *args: str, cwd: Path | None = None) -> str:
    """Run examples/<name> with args; fail with its stderr if it exits non-zero."""
    env = dict(os.environ, MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )
    assert proc.returncode == 0, f"{name} failed:\n{proc.stderr[-3000:]}"
    return proc.stdout


def floats_after(pattern: str, out: str) -> list[float]:
    """Every number printed right after `pattern` (e.g. 'loss 0.1234'); ^ anchors at a line."""
    return [float(m) for m in re.findall(rf"{pattern} ([0-9.]+)", out, flags=re.MULTILINE)]


def test_train_digits_saves_reloads_plots_and_is_deterministic(tmp_path: Path) -> None:
    for module in ("sklearn", "tqdm", "matplotlib", "ember.utils.data"):
        pytest.importorskip(module)
    runs = [
        run_example(
            "train_digits.py", "--epochs", "1", "--seed", "3", "--out-dir", str(tmp_path / d)
        )
        for d in ("a", "b")
    ]
    out = runs[0]
    accuracy = floats_after("^test accuracy", out)
    reloaded = floats_after("^reloaded test accuracy", out)
    assert len(accuracy) == 1 and len(reloaded) == 1, out
    assert reloaded[0] == accuracy[0]
    assert accuracy[0] > 0.3  # one epoch from chance (0.1) already learns something
    assert (tmp_path / "a" / "digits_cnn.pt").stat().st_size > 0
    png = (tmp_path / "a" / "curves.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    # Same seed, same run: every printed loss and accuracy (not the timing or the folder).
    first, second = (re.sub(r"done in .*|from .*|written to .*", "", r) for r in runs)
    assert first == second


def test_quickstart_loss_goes_down() -> None:
    out = run_example("quickstart.py", "--steps", "40")
    losses = floats_after("^step +[0-9]+  loss", out)
    assert len(losses) == 3 and losses[0] > losses[1] > losses[2], out
    assert floats_after("training accuracy", out)[0] > 0.8


def test_char_transformer_trains_and_samples() -> None:
    out = run_example("char_transformer.py", "--steps", "20", "--sample-len", "40")
    losses = floats_after("^step +[0-9]+  loss", out)
    assert len(losses) == 2 and losses[1] < losses[0], out  # steps 1 and 20
    sample = out.split("--- sample (temperature 0.8) ---\n", 1)[1].rstrip("\n")
    assert sample.startswith("Alice ") and len(sample) == len("Alice ") + 40
