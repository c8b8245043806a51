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


def fault_latency(data: Any) -> float:
    import signal
    import threading

    loader = data.DataLoader(Spin(10**6, 10**7), batch_size=None, num_workers=1, timeout=60)
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
    args = parser.parse_args()
    if args.child:
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


if __name__ == "__main__":
    main()
