"""ember-tensor's public Python layer under malformed input (api_sweep_driver.py).

Every public function and class of ``ember`` (the Python-level ones: native ops are
registry_fuzz_driver.py's), ``ember.linalg``, ``ember.fft``, ``ember.special`` and
``ember.serialization`` is called with junk arguments in a child process under a memory cap and a
per-call alarm; a crash, a hang or an untyped error (AttributeError, AssertionError, ...) fails.
"""

from __future__ import annotations

import pytest
from api_sweep_driver import seeds, sweep_in_child

MODULES = ["ember", "ember.linalg", "ember.fft", "ember.special", "ember.serialization"]


@pytest.mark.parametrize("seed", seeds())
def test_public_callables_refuse_junk_with_typed_errors(seed: int) -> None:
    failed = sweep_in_child(MODULES, seed)
    assert not failed, failed


def test_the_sweep_reports_untyped_errors_and_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    found = sweep_in_child(["api_sweep_canary"], 0)
    assert "api_sweep_canary.untyped" in found and "AttributeError" in found
    assert "refuses" not in found
    monkeypatch.setenv("EMBER_SWEEP_CANARY", "crash")
    crashed = sweep_in_child(["api_sweep_canary"], 0)
    assert "SIGSEGV" in crashed and "api_sweep_canary.zz_crashes" in crashed
