"""ember-autograd's distributions under malformed input (packages/tensor/tests/api_sweep_driver.py).

Every public callable of ``ember.distributions`` (each family's constructor, sampling,
log_prob/cdf/icdf and expand; each transform) is called with junk arguments in a child process
under a memory cap and a per-call alarm: a crash, a hang or an untyped error (AttributeError,
AssertionError, ...) fails the test.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

# The driver lives in ember-tensor's tests: packages/tensor/tests in the repository, tensor_tests
# next to this folder when the release check runs the wheels' tests.
_HERE = Path(__file__).resolve().parent
_CANDIDATES = [
    _HERE.parents[1] / "tensor" / "tests" / "api_sweep_driver.py",
    _HERE.parent / "tensor_tests" / "api_sweep_driver.py",
]
DRIVER = next((c for c in _CANDIDATES if c.exists()), None)
if DRIVER is None:
    pytest.skip(
        "the sweep driver (ember-tensor's tests) is not next to this distribution's tests",
        allow_module_level=True,
    )
_spec = importlib.util.spec_from_file_location("api_sweep_driver", DRIVER)
assert _spec is not None and _spec.loader is not None
sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep)

MODULES = ["ember.distributions"]


@pytest.mark.parametrize("seed", sweep.seeds())
def test_public_callables_refuse_junk_with_typed_errors(seed: int) -> None:
    failed = sweep.sweep_in_child(MODULES, seed)
    assert not failed, failed
