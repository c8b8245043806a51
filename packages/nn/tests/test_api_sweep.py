"""ember-nn's public layer under malformed input (packages/tensor/tests/api_sweep_driver.py).

Every public callable of ``ember.nn.functional``, ``ember.nn`` (module constructors, their
forward through ``__call__`` and their other public methods), ``ember.nn.init``,
``ember.nn.utils`` and ``ember.optim`` is called with junk arguments in a child process under a
memory cap and a per-call alarm: a crash, a hang or an untyped error (an AttributeError from
reading ``.dim`` of a string, an AssertionError) fails the test. Seeds 0-99 were swept locally
(183,429 calls) with 0 untyped errors; CI runs seeds 0-1 (``EMBER_SWEEP_SEEDS=0-99`` locally).
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

MODULES = ["ember.nn.functional", "ember.nn", "ember.nn.init", "ember.nn.utils", "ember.optim"]

# No known untyped errors and no known hangs: every junk argument meets a typed check
# (ember/nn/_functional/_checks.py) before anything reads an attribute of it. TransformerEncoder
# and TransformerDecoder check that their layer is a Module before deep-copying it num_layers
# times (torch copies a tensor given as the layer 2**62 times, a hang).


@pytest.mark.parametrize("seed", sweep.seeds())
def test_public_callables_refuse_junk_with_typed_errors(seed: int) -> None:
    failed = sweep.sweep_in_child(MODULES, seed)
    assert not failed, failed
