"""DataLoader benchmarks, ember against torch (when importable), each library in its own process.

    uv run python benchmarks/dataloader.py
    EMBER_BENCH_TORCH_SITE=/work/torchvenv/lib/python3.11/site-packages \
        uv run python benchmarks/dataloader.py             # side by side with torch
    uv run python benchmarks/dataloader.py --quick          # smaller epochs

Workloads (see benchmarks/README.md):
  mnist_epoch_w0 / _w2   one epoch of a TensorDataset of 60,000 x [1, 28, 28] float32 images with
                         int64 labels, batch 64, shuffle, num_workers 0 / 2 (platform default
                         context); samples/s, worker start-up included.
  python50us_w0 / _w2    a dataset whose __getitem__ runs ~50 us of Python (calibrated once,
                         the same loop count for both libraries), batch 64; samples/s.
  spawn_first_batch      DataLoader(..., num_workers=2, multiprocessing_context="spawn"): seconds
                         from iter() to the first batch (median of 3; the children re-import this
                         script, which imports nothing but the standard library at top level).
  fault_detect           a worker SIGKILLed while the main waits: seconds until the loader raises
                         (ember only: torch's default polling reports it on its next check).

Rows shared with benchmarks/run.py (``compare``; each measured in fresh processes):
  dataloader_spawn_first_tensor / _python
                         seconds from iter() to the first batch, spawn, 2 workers, a TensorDataset
                         of 256 x [1, 28, 28] / a 256-item Python dataset, batch 64: the median of
                         5 fresh processes (3 with --quick), after one unmeasured warm-up process.
  dataloader_epoch_w0 / _w2
                         one epoch of ``Transform`` (~100 us of numpy per sample: crop, flip, 3x3
                         blur, normalise, tanh; [3, 62, 62] float32), batch 32, 0 / 2 workers
                         (platform default context, worker start-up included): one warm-up
                         epoch, then the median of 3 (2 with --quick); 4,096 samples (2,048).

Each library runs in a fresh subprocess so neither pays for the other's imports or threads; both
use 2 threads. Ratios are ember's samples/s over torch's (above 1.00x ember is faster) and, for
latencies, torch's time over ember's (above 1.00x ember is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

TORCH_SITE_ENV = "EMBER_BENCH_TORCH_SITE"


class Spin:
    """A map-style dataset whose __getitem__ runs `loops` iterations of Python arithmetic."""

    def __init__(self, n: int, loops: int) -> None:
        self.n, self.loops = n, loops

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[float, int]:
        s = 0
        for k in range(self.loops):
            s += k ^ i
        return float(s), i


class Small:
    """A 256-item Python dataset of (float, int): what a spawned worker costs before any work."""

    def __len__(self) -> int:
        return 256

    def __getitem__(self, i: int) -> tuple[float, int]:
        return float(i), i


class Transform:
    """A map-style dataset whose __getitem__ does ~100 us of numpy work on a [3, 72, 72] image."""

    def __init__(self, n: int) -> None:
        import numpy as np

        self.n = n
        rng = np.random.default_rng(0)
        self.images = rng.standard_normal((16, 3, 72, 72)).astype(np.float32)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[Any, int]:
        import numpy as np

        img = self.images[i % len(self.images)]
        y, x = (i * 7) % 9, (i * 5) % 9
        crop = img[:, y : y + 64, x : x + 64]
        if i % 2:
            crop = crop[:, :, ::-1]
        blur = np.zeros((3, 62, 62), np.float32)
        for dy in range(3):
            for dx in range(3):
                blur += crop[:, dy : dy + 62, dx : dx + 62]
        mean = blur.mean(axis=(1, 2), keepdims=True)
        std = blur.std(axis=(1, 2), keepdims=True) + 1e-6
        return np.tanh((blur - mean) / std), i % 10


def calibrate_50us() -> int:
    loops = 1000
    ds = Spin(1, loops)
    while True:
        t = time.perf_counter()
        for _ in range(20):
            ds[0]
        per = (time.perf_counter() - t) / 20
        if per > 20e-6:
            return max(1, int(loops * 50e-6 / per))
        loops *= 2
        ds = Spin(1, loops)


def lib_modules(name: str) -> tuple[Any, Any]:
    if name == "torch":
        site = os.environ.get(TORCH_SITE_ENV)
        if site and site not in sys.path:
            sys.path.append(site)  # at the end: never shadows the workspace's packages
        import torch
        import torch.utils.data as data

        torch.set_num_threads(2)
        return torch, data
    import ember
    import ember.utils.data as data

    ember.set_num_threads(2)
    return ember, data


def epoch_rate(loader: Any) -> float:
    t = time.perf_counter()
    n = 0
    for batch in loader:
        n += len(batch[1])
    return n / (time.perf_counter() - t)


def run_child(name: str, quick: bool, loops: int) -> dict[str, float]:
    lib, data = lib_modules(name)
    n = 12_000 if quick else 60_000
    gen = lib.Generator()
    gen.manual_seed(0)
    images = lib.randn(n, 1, 28, 28)
    labels = lib.randint(0, 10, (n,))
    mnist = data.TensorDataset(images, labels)
    out: dict[str, float] = {}
    for w in (0, 2):
        loader = data.DataLoader(mnist, batch_size=64, shuffle=True, num_workers=w, generator=gen)
        out[f"mnist_epoch_w{w}"] = epoch_rate(loader)
    spin = Spin(1_000 if quick else 4_000, loops)
    for w in (0, 2):
        loader = data.DataLoader(spin, batch_size=64, num_workers=w)
        out[f"python50us_w{w}"] = epoch_rate(loader)
    small = data.TensorDataset(lib.randn(256, 1, 28, 28), lib.randint(0, 10, (256,)))
    firsts = []
    for _ in range(3):
        loader = data.DataLoader(
            small, batch_size=64, num_workers=2, multiprocessing_context="spawn"
        )
        t = time.perf_counter()
        it = iter(loader)
        next(it)
        firsts.append(time.perf_counter() - t)
        del it
    out["spawn_first_batch"] = statistics.median(firsts)
    if name == "ember":
        out["fault_detect"] = fault_latency(data)
    return out


def first_batch(name: str, kind: str) -> float:
    """Seconds from iter() to the first batch with 2 spawn workers (one per fresh process)."""
    lib, data = lib_modules(name)
    if kind == "tensor":
        ds: Any = data.TensorDataset(lib.randn(256, 1, 28, 28), lib.randint(0, 10, (256,)))
    else:
        ds = Small()
    loader = data.DataLoader(ds, batch_size=64, num_workers=2, multiprocessing_context="spawn")
    t = time.perf_counter()
    it = iter(loader)
    next(it)
    elapsed = time.perf_counter() - t
    del it
    return elapsed


def transform_epochs(name: str, quick: bool) -> dict[str, float]:
    """Median seconds of one epoch of Transform with 0 and 2 workers (after a warm-up epoch)."""
    _, data = lib_modules(name)
    n = 2048 if quick else 4096
    out: dict[str, float] = {"samples": float(n)}
    for w in (0, 2):
        loader = data.DataLoader(Transform(n), batch_size=32, num_workers=w)
        times = []
        for _ in range(3 if quick else 4):
            t = time.perf_counter()
            count = sum(len(labels) for _, labels in loader)
            times.append(time.perf_counter() - t)
            assert count == n
        out[f"w{w}"] = statistics.median(times[1:])
    return out


ROWS = {
    "dataloader_spawn_first_tensor": "spawn, 2 workers: iter() to first batch, TensorDataset",
    "dataloader_spawn_first_python": "spawn, 2 workers: iter() to first batch, Python dataset",
    "dataloader_epoch_w0": "epoch of a ~100 us/sample numpy transform, 0 workers",
    "dataloader_epoch_w2": "epoch of a ~100 us/sample numpy transform, 2 workers",
}


def _child(name: str, args: list[str]) -> dict[str, float]:
    # .pyc files are written and used as in an installed package (PYTHONDONTWRITEBYTECODE=1
    # would make every spawned worker compile ember from source).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    proc = subprocess.run(
        [sys.executable, __file__, "--child", name, *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if proc.returncode != 0:
        raise RuntimeError(" ".join(proc.stderr.strip().splitlines()[-1:]))
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def compare(
    names: list[str], quick: bool, rows: list[str]
) -> dict[str, dict[str, tuple[float | None, str]]]:
    """The selected ``ROWS`` for each library: {row: {library: (seconds or None, note)}}."""
    out: dict[str, dict[str, tuple[float | None, str]]] = {r: {} for r in rows}
    fresh = 3 if quick else 5
    for name in names:
        for kind in ("tensor", "python"):
            row = f"dataloader_spawn_first_{kind}"
            if row not in rows:
                continue
            try:
                _child(name, ["--case", f"first_{kind}"])  # warm-up: OS file cache, .pyc files
                runs = [_child(name, ["--case", f"first_{kind}"])["s"] for _ in range(fresh)]
                spread = f"{fresh} fresh processes: {min(runs):.3f}-{max(runs):.3f} s"
                out[row][name] = (statistics.median(runs), spread)
            except RuntimeError as e:
                out[row][name] = (None, str(e))
        if "dataloader_epoch_w0" in rows or "dataloader_epoch_w2" in rows:
            try:
                r = _child(name, ["--case", "transform", *(["--quick"] if quick else [])])
                load = "/".join(f"{x:.1f}" for x in os.getloadavg())
                speedup = f"2 workers vs 0: {r['w0'] / r['w2']:.2f}x the samples/s (load {load})"
                for w, note in ((0, ""), (2, speedup)):
                    if f"dataloader_epoch_w{w}" in rows:
                        out[f"dataloader_epoch_w{w}"][name] = (r[f"w{w}"] / r["samples"], note)
            except RuntimeError as e:
                for w in (0, 2):
                    if f"dataloader_epoch_w{w}" in rows:
                        out[f"dataloader_epoch_w{w}"][name] = (None, str(e))
    return out


def fault_latency(data: Any) -> float:
    import signal
    import threading

    loader = data.DataLoader(Spin(10**6, 10**10), batch_size=None, num_workers=1, timeout=60)
    it = iter(loader)
    pid = it._workers[0].process.pid
    killed_at: list[float] = []

    def kill() -> None:
        time.sleep(0.5)
        killed_at.append(time.perf_counter())
        os.kill(pid, signal.SIGKILL)

    threading.Thread(target=kill).start()
    try:
        next(it)
    except RuntimeError:
        return time.perf_counter() - killed_at[0]
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", choices=["ember", "torch"])
    parser.add_argument("--loops", type=int, default=0)
    parser.add_argument("--case", choices=["all", "first_tensor", "first_python", "transform"])
    args = parser.parse_args()
    if args.child:
        if args.case in ("first_tensor", "first_python"):
            print(json.dumps({"s": first_batch(args.child, args.case.split("_")[1])}))
        elif args.case == "transform":
            print(json.dumps(transform_epochs(args.child, args.quick)))
        else:
            print(json.dumps(run_child(args.child, args.quick, args.loops)))
        return
    loops = calibrate_50us()
    results: dict[str, dict[str, float]] = {}
    for name in ("ember", "torch"):
        cmd = [sys.executable, __file__, "--child", name, "--loops", str(loops)]
        if args.quick:
            cmd.append("--quick")
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            print(f"{name}: not run ({proc.stderr.strip().splitlines()[-1:]})")
            continue
        results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"__getitem__ of python50us: {loops} loop iterations (~50 us here)")
    print(f"{'workload':20s} {'ember':>14s} {'torch':>14s} {'ember vs torch':>15s}")
    for key in results.get("ember", {}):
        e = results["ember"][key]
        t = results.get("torch", {}).get(key)
        latency = key in ("spawn_first_batch", "fault_detect")
        unit = "s" if latency else "samples/s"
        cells = [f"{e:,.3f} {unit}" if latency else f"{e:,.0f}"]
        cells.append("-" if t is None else (f"{t:,.3f} {unit}" if latency else f"{t:,.0f}"))
        ratio = "-" if t is None else f"{(t / e if latency else e / t):.2f}x"
        print(f"{key:20s} {cells[0]:>14s} {cells[1]:>14s} {ratio:>15s}")
    shared = compare(list(results), args.quick, list(ROWS))
    for row, cells_by_lib in shared.items():
        for name, (seconds, note) in cells_by_lib.items():
            shown = "-" if seconds is None else f"{seconds:.4g} s"
            print(f"{row:30s} {name:6s} {shown:>12s}  {note}")


if __name__ == "__main__":
    main()
