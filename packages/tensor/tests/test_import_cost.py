"""What a fresh ``import ember`` loads: its cost, checked by structure rather than by time.

``import ember`` must stay well under ``import numpy`` (issue 10: <= 0.5x). The modules below were
the measured costs (``python -X importtime -c "import ember"``) and load on first use now; a
change that imports one of them at module level again fails here, on any machine, at any load.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

import ember

# Standard-library modules ember needs only on some paths: printing options (dataclasses ->
# inspect, ast, dis, tokenize), save/load (json), custom Functions and anomaly mode (inspect,
# traceback), the zip and legacy torch formats (struct).
LAZY_STDLIB = ("dataclasses", "inspect", "ast", "dis", "tokenize", "json", "traceback", "struct")
# ember's own optional layers, imported when used: the derivative tables load on the first op
# that records a gradient; the other distributions on first attribute access.
LAZY_OTHER = (
    "ember.autograd.derivatives",
    "ember.autograd.derivatives.elementwise",
    "ember.autograd._rule",
    "ember.autograd._op_signatures",
    "ember.nn",
    "ember.optim",
    "ember.utils.data",
    "numpy",
)


def _has_autograd() -> bool:
    # ember's finder raises (naming the distribution) for a missing ember.autograd.
    try:
        return importlib.util.find_spec("ember.autograd") is not None
    except ModuleNotFoundError:
        return False


HAS_AUTOGRAD = _has_autograd()


def _modules_after(code: str) -> set[str]:
    """The names in sys.modules after ``code`` runs in a fresh interpreter (json not counted)."""
    script = (
        f"{code}\nimport sys\n_seen = sorted(sys.modules)\nimport json\nprint(json.dumps(_seen))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout
    return set(json.loads(out.splitlines()[-1]))


@pytest.fixture(scope="module")
def imported() -> set[str]:
    return _modules_after("import ember")


@pytest.mark.parametrize("name", LAZY_STDLIB + LAZY_OTHER)
def test_import_ember_does_not_load(name: str, imported: set[str]) -> None:
    assert name not in imported, f"`import ember` loads {name}: import it where it is used"


def test_autograd_is_still_installed_at_import(imported: set[str]) -> None:
    # The recorder registers at `import ember` (only the tables wait for first use).
    if not HAS_AUTOGRAD:
        pytest.skip("ember-autograd is not installed")
    assert "ember.autograd" in imported
    assert "ember.autograd._registry" in imported


def test_first_recorded_op_loads_the_derivative_tables() -> None:
    if not HAS_AUTOGRAD:
        pytest.skip("ember-autograd is not installed")
    code = (
        "import ember\n"
        "x = ember.tensor([1.0, 2.0], requires_grad=True)\n"
        "(x * x).sum().backward()\n"
        "assert x.grad.tolist() == [2.0, 4.0], x.grad"
    )
    loaded = _modules_after(code)
    assert "ember.autograd.derivatives.elementwise" in loaded


def test_lazy_paths_still_work() -> None:
    # Each moved import is reached on its own path: printing options, save/load (json).
    code = (
        "import io, ember\n"
        "with ember.printoptions(precision=2):\n"
        "    assert repr(ember.tensor([1.125])) == 'tensor([1.12])', repr(ember.tensor([1.125]))\n"
        "assert ember.get_printoptions()['precision'] == 4\n"
        "buf = io.BytesIO(); ember.save({'w': ember.arange(3)}, buf); buf.seek(0)\n"
        "assert ember.load(buf)['w'].tolist() == [0, 1, 2]"
    )
    loaded = _modules_after(code)
    assert "json" in loaded


def test_names_stay_visible() -> None:
    # Deferring imports inside ember's modules hides no top-level name.
    names = dir(ember)
    for name in ("Tensor", "save", "load", "set_printoptions", "printoptions", "serialization"):
        assert name in names, name
    if HAS_AUTOGRAD:
        assert "autograd" in names
