"""Every op of the registry, called with hostile arguments drawn by parameter type.

registry_fuzz_driver.py runs in a child process (a crash must not take pytest down): for every
variant of every declared op it draws arguments from edge-case pools by the declared types and
reports any exception that is not a typed refusal. A crash (SIGSEGV, SIGFPE, abort) or a hang
fails the test naming the call the child had started. Seeds are fixed, so CI draws the same
calls every run; ``EMBER_FUZZ_SEEDS=0-99 EMBER_FUZZ_CALLS=50`` searches wider locally.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def seeds() -> list[int]:
    spec = os.environ.get("EMBER_FUZZ_SEEDS", "0-1")
    low, _, high = spec.partition("-")
    return list(range(int(low), int(high or low) + 1))


@pytest.mark.parametrize("seed", seeds())
def test_no_op_crashes_hangs_or_raises_an_untyped_error(seed: int) -> None:
    calls = os.environ.get("EMBER_FUZZ_CALLS", "30")
    child = subprocess.run(
        [sys.executable, str(HERE / "registry_fuzz_driver.py"), str(seed), calls],
        capture_output=True,
        text=True,
        cwd=HERE,
        timeout=900,
    )
    last = [line for line in child.stderr.splitlines() if line.startswith("calling ")]
    started = last[-1].removeprefix("calling ") if last else "<nothing>"
    if child.returncode < 0:
        name = signal.Signals(-child.returncode).name
        pytest.fail(f"seed {seed}: the process died of {name} in {started}")
    assert child.returncode == 0, (
        f"seed {seed}: exit {child.returncode} in {started}\n{child.stderr[-2000:]}"
    )
    assert started == "<done>", f"seed {seed}: stopped in {started}"
    untyped = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
    assert untyped == [], f"seed {seed}: untyped errors:\n" + "\n".join(map(str, untyped))
