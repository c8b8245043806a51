"""Optimizer step over a model of 100 float32 parameter tensors (10M parameters in all): ember's
fused native step, ember's op-by-op reference path (foreach=False) and torch's default (foreach).

    EMBER_BENCH_TORCH_SITE=/work/torchvenv/lib/python3.11/site-packages \
        uv run python benchmarks/optim_step.py

Adam moves 28 bytes per parameter (read p, g, m, v; write p, m, v), SGD with momentum 20 (read p,
g, buf; write p, buf): GB/s is that traffic divided by the median step time. Every other optimizer
is listed with its own traffic (4 bytes per tensor read or written per parameter).
`python benchmarks/optim_step.py adam rprop` runs only those rows.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import numpy as np

import ember
import ember.optim

TORCH_SITE = os.environ.get("EMBER_BENCH_TORCH_SITE")
if TORCH_SITE:
    sys.path.append(TORCH_SITE)
try:
    import torch
except ImportError:
    torch = None

N_TENSORS, TOTAL = 100, 10_000_000
THREADS = 2


def sizes() -> list[int]:
    # Unequal tensors, as in a real model: 100 sizes summing to TOTAL.
    rng = np.random.default_rng(0)
    w = rng.uniform(0.2, 1.8, N_TENSORS)
    s = (w / w.sum() * TOTAL).astype(np.int64)
    s[-1] += TOTAL - s.sum()
    return [int(x) for x in s]


def median_time(step: Callable[[], None], repeats: int = 15) -> float:
    for _ in range(3):
        step()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        step()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


# (row, optimizer class name, arguments, bytes of traffic per parameter, torch's other CPU paths)
ROWS: list[tuple[str, str, dict[str, object], int, tuple[str, ...]]] = [
    ("adam", "Adam", {}, 28, ("foreach", "fused")),
    ("sgd_momentum", "SGD", {"lr": 0.01, "momentum": 0.9}, 20, ("foreach", "fused")),
    ("rmsprop", "RMSprop", {}, 20, ("foreach",)),
    ("rmsprop_c_m", "RMSprop", {"centered": True, "momentum": 0.9}, 36, ("foreach",)),
    ("adagrad", "Adagrad", {"lr_decay": 1e-3}, 20, ("foreach", "fused")),
    ("adadelta", "Adadelta", {}, 28, ("foreach",)),
    ("adamax", "Adamax", {}, 28, ("foreach",)),
    ("nadam", "NAdam", {}, 28, ("foreach",)),
    ("radam", "RAdam", {}, 28, ("foreach",)),
    ("asgd", "ASGD", {}, 20, ("foreach",)),
    ("rprop", "Rprop", {}, 28, ("foreach",)),
]


def ember_step(cls: str, kwargs: dict[str, object], foreach: bool | None) -> float:
    ps = [ember.randn(n, requires_grad=True) for n in sizes()]
    for p in ps:
        p.grad = ember.randn(p.shape[0])
    opt = getattr(ember.optim, cls)(ps, foreach=foreach, **kwargs)
    return median_time(opt.step)


def torch_step(cls: str, kwargs: dict[str, object], **flags: bool) -> float:
    # No flags: torch's default, which for CPU tensors is the single-tensor loop (torch picks
    # foreach only on CUDA-like devices); foreach=True and fused=True are its other CPU paths.
    ps = [torch.randn(n, requires_grad=True) for n in sizes()]
    for p in ps:
        p.grad = torch.randn(p.shape[0])
    opt = getattr(torch.optim, cls)(ps, **kwargs, **flags)
    return median_time(opt.step)


def triad_bandwidth() -> float:
    # a = b + s * c over 64M floats with out= (12 bytes per element): the machine's attainable
    # bandwidth through ember's own elementwise kernels, the yardstick for the fused steps.
    n = 1 << 26
    a, b, c = ember.empty(n), ember.ones(n), ember.ones(n)
    t = median_time(lambda: ember.add(b, c, alpha=0.5, out=a), repeats=7)
    return 12 * n / t / 1e9


def main() -> None:
    ember.set_num_threads(THREADS)
    if torch is not None:
        torch.set_num_threads(THREADS)
    print(f"triad (ember add out=, {THREADS} threads): {triad_bandwidth():5.1f} GB/s", flush=True)
    wanted = set(sys.argv[1:])
    for kind, cls, kwargs, nbytes, torch_paths in ROWS:
        if wanted and kind not in wanted:
            continue
        fused = ember_step(cls, kwargs, None)
        ref = ember_step(cls, kwargs, False)
        line = (
            f"{kind:13s} ember fused {fused * 1e3:7.2f} ms ({nbytes * TOTAL / fused / 1e9:5.1f}"
            f" GB/s)  ember op-by-op {ref * 1e3:7.2f} ms"
        )
        print(line, flush=True)
        if torch is None:
            continue
        for label in ("default", *torch_paths):
            flags = {} if label == "default" else {label: True}
            t = torch_step(cls, kwargs, **flags)
            print(
                f"{'':13s} torch {label:7s} {t * 1e3:7.2f} ms "
                f"({nbytes * TOTAL / t / 1e9:5.1f} GB/s)  torch/ember-fused {t / fused:5.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
