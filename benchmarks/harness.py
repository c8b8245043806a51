"""Timing helpers for benchmarks/run.py: adaptive batches, medians, import times, table output."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# A batch function runs the timed operation n times in a tight loop.
Batch = Callable[[int], object]


@dataclass(frozen=True)
class Settings:
    """How hard to measure. `quick` trades precision for a short run."""

    min_batch_s: float  # a timed batch lasts at least this long (calibrated loop count)
    min_samples: int  # medians over at least this many batches ...
    max_samples: int  # ... and at most this many
    budget_s: float  # stop adding samples after this much time per (workload, library)
    import_runs: int  # subprocess runs per library for the import time

    @staticmethod
    def make(quick: bool) -> Settings:
        if quick:
            return Settings(
                min_batch_s=0.005, min_samples=3, max_samples=5, budget_s=0.5, import_runs=3
            )
        return Settings(
            min_batch_s=0.02, min_samples=5, max_samples=21, budget_s=3.0, import_runs=7
        )


def _time_batch(batch: Batch, n: int) -> float:
    start = time.perf_counter()
    batch(n)
    return time.perf_counter() - start


def measure(batch: Batch, settings: Settings) -> float:
    """Median seconds per call of the operation run by `batch`.

    One warmup batch, then the loop count grows until one batch lasts `min_batch_s`, then batches
    are repeated until `max_samples` or the time budget (never fewer than `min_samples`).
    """
    _time_batch(batch, 1)  # warmup: first-touch page faults, lazy initialisation, caches
    n = 1
    while True:
        t = _time_batch(batch, n)
        if t >= settings.min_batch_s or n >= 1 << 24:
            break
        grow = min(settings.min_batch_s / max(t, 1e-9) * 1.2, 1024.0)
        n = max(n * 2, int(n * grow))
    samples = [t / n]
    spent = t
    while len(samples) < settings.max_samples:
        if len(samples) >= settings.min_samples and spent >= settings.budget_s:
            break
        t = _time_batch(batch, n)
        spent += t
        samples.append(t / n)
    return statistics.median(samples)


def import_time(code: str, baseline: str, runs: int) -> float:
    """Median wall time of `python -c code` minus the median of `python -c baseline` (seconds)."""

    # An installed package has its .pyc files (pip and uv write them, or Python does on first
    # import): never time compiling the sources, even where the environment sets
    # PYTHONDONTWRITEBYTECODE (this machine does).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(src: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", src], check=True, stdout=subprocess.DEVNULL, env=env)
        return time.perf_counter() - start

    run(code)  # warmup: fills the OS file cache and writes .pyc files
    run(baseline)
    with_import = statistics.median(run(code) for _ in range(runs))
    bare = statistics.median(run(baseline) for _ in range(runs))
    return max(with_import - bare, 0.0)


def format_seconds(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.2f} us"
    if s < 1.0:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.3f} s"


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
        return "  ".join([first, *rest]).rstrip()

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))
