"""Sequence-model workloads of issue 13 item 12, ember vs torch, 2 threads each.

    uv run python benchmarks/sequence_models.py                 # ember only
    EMBER_BENCH_TORCH_SITE=/work/torchvenv/lib/python3.11/site-packages \
        uv run python benchmarks/sequence_models.py             # with torch: ratios

Workloads: LSTM (2 layers, hidden 256, seq 64, batch 32) forward+backward;
TransformerEncoderLayer (d=256, 4 heads, seq 128, batch 16) forward+backward;
scaled_dot_product_attention at seq 4096, d=64 (8 heads) forward and forward+backward, with
the peak resident-memory growth (VmHWM after a reset, Linux) of each library in a fresh
subprocess.
Times are the minimum and median of the repeats; a ratio is ember's median / torch's median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

TORCH_SITE_ENV = "EMBER_BENCH_TORCH_SITE"


def _torch() -> Any:
    site = os.environ.get(TORCH_SITE_ENV)
    if site and site not in sys.path:
        sys.path.append(site)  # appended: never shadows the workspace's packages
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(2)
    return torch


def _time(step: Callable[[], Any], repeats: int) -> tuple[float, float]:
    step()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def lstm_step(lib: Any, nn: Any, tensor: Callable[[np.ndarray], Any]) -> Callable[[], Any]:
    x = tensor(np.random.default_rng(0).standard_normal((64, 32, 256)).astype(np.float32))
    model = nn.LSTM(256, 256, 2)

    def step() -> None:
        out, _ = model(x)
        out.sum().backward()

    return step


def encoder_step(lib: Any, nn: Any, tensor: Callable[[np.ndarray], Any]) -> Callable[[], Any]:
    x = tensor(np.random.default_rng(0).standard_normal((16, 128, 256)).astype(np.float32))
    layer = nn.TransformerEncoderLayer(256, 4, 1024, batch_first=True)

    def step() -> None:
        layer(x).sum().backward()

    return step


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _reset_peak_rss() -> int:
    """Resets the peak RSS (Linux: clear_refs 5) after imports; returns the current RSS (KiB)."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status_kib("VmRSS")


def _peak_rss() -> int:
    return _status_kib("VmHWM")


def sdpa_child(lib_name: str, backward: bool) -> None:
    """Runs in a subprocess: prints time (s) and the peak RSS growth (MiB) of one SDPA call."""
    shape = (1, 8, 4096, 64)
    arrays = [np.random.default_rng(i).standard_normal(shape).astype(np.float32) for i in range(3)]
    if lib_name == "torch":
        torch = _torch()
        qkv = [torch.from_numpy(a).requires_grad_(backward) for a in arrays]
        sdpa = torch.nn.functional.scaled_dot_product_attention
    else:
        import ember
        import ember.nn.functional as F

        ember.set_num_threads(2)
        qkv = [ember.from_numpy(a).requires_grad_(backward) for a in arrays]
        sdpa = F.scaled_dot_product_attention
    base = _reset_peak_rss()

    def step() -> None:
        out = sdpa(*qkv)
        if backward:
            out.sum().backward()

    best, med = _time(step, 3)
    print(f"{best} {med} {(_peak_rss() - base) / 1024}")


def model_child(lib_name: str, workload: str, repeats: int) -> None:
    """Runs in a subprocess (no other library's threads around): prints min and median (s)."""
    if lib_name == "torch":
        torch = _torch()
        lib, nn, tensor = torch, torch.nn, torch.from_numpy
    else:
        import ember
        import ember.nn as enn

        ember.set_num_threads(2)
        lib, nn, tensor = ember, enn, ember.from_numpy
    make = lstm_step if workload == "lstm" else encoder_step
    best, med = _time(make(lib, nn, tensor), repeats)
    print(f"{best} {med}")


def _child(*args: str) -> list[float]:
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=True,
        env=os.environ,
    )  # fmt: skip
    return [float(v) for v in out.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--sdpa-child", nargs=2, metavar=("LIB", "BACKWARD"))
    parser.add_argument("--model-child", nargs=2, metavar=("LIB", "WORKLOAD"))
    args = parser.parse_args()
    if args.sdpa_child:
        sdpa_child(args.sdpa_child[0], args.sdpa_child[1] == "1")
        return
    if args.model_child:
        model_child(args.model_child[0], args.model_child[1], args.repeats)
        return
    # Every measurement runs in its own process: an idle library's spinning threads (OpenBLAS,
    # thread pools) would otherwise steal the other's cores on a 2-core machine.
    libs = ["ember"] + (["torch"] if _torch() is not None else [])
    rows: dict[str, dict[str, tuple[float, float]]] = {}
    for workload, key in (("LSTM fwd+bwd", "lstm"), ("EncoderLayer fwd+bwd", "encoder")):
        for name in libs:
            best, med = _child("--model-child", name, key, "--repeats", str(args.repeats))
            rows.setdefault(workload, {})[name] = (best, med)
    inputs_mib = 3 * 8 * 4096 * 64 * 4 / 2**20
    memory: dict[str, dict[str, float]] = {}
    for backward in (False, True):
        workload = "SDPA 4096x64 " + ("fwd+bwd" if backward else "fwd")
        for name in libs:
            best, med, grow = _child("--sdpa-child", name, str(int(backward)))
            rows.setdefault(workload, {})[name] = (best, med)
            memory.setdefault(workload, {})[name] = grow
    print(f"{'workload':24} {'ember min/med (ms)':>20} {'torch min/med (ms)':>20} {'ratio':>7}")
    for workload, by_lib in rows.items():
        e = by_lib["ember"]
        t = by_lib.get("torch")
        ratio = f"{e[1] / t[1]:.2f}x" if t else "-"
        tcol = f"{t[0] * 1e3:.1f}/{t[1] * 1e3:.1f}" if t else "-"
        print(f"{workload:24} {f'{e[0] * 1e3:.1f}/{e[1] * 1e3:.1f}':>20} {tcol:>20} {ratio:>7}")
    for workload, by_lib in memory.items():
        parts = ", ".join(f"{k} +{v:.0f} MiB" for k, v in by_lib.items())
        print(f"{workload}: peak RSS growth {parts} (inputs {inputs_mib:.0f} MiB)")


if __name__ == "__main__":
    main()
