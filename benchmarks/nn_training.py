"""Whole training steps written with modules and optimizers, ember against torch (2 threads).

    EMBER_BENCH_TORCH_SITE=/work/torchvenv/lib/python3.11/site-packages \
        uv run python benchmarks/nn_training.py [--threads N]

Workloads (issue 13 item 12, issue 14 item 6), the same code run with `lib = ember` and
`lib = torch`:
- mlp sgd / mlp adam: the README's loop: a [1000, 20] batch through Linear(20, 64), ReLU,
  Linear(64, 1), BCEWithLogitsLoss, zero_grad, backward, optimizer step (SGD or Adam, each
  library's default implementation);
- cnn step fp32 / cnn step bf16: batch 64 of 1x28x28 through Conv2d(1, 16, 3) ReLU MaxPool2d(2),
  Conv2d(16, 32, 3) ReLU MaxPool2d(2), Linear(1568, 10), CrossEntropyLoss, SGD; the bf16 row runs
  the forward pass and the loss under `autocast(device_type="cpu", dtype=bfloat16)`.
Best of interleaved rounds; ratio = ember time / torch time (below 1.00x ember is faster).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import ember
import ember.nn
import ember.optim

TORCH_SITE = os.environ.get("EMBER_BENCH_TORCH_SITE")
if TORCH_SITE:
    sys.path.append(TORCH_SITE)
try:
    import torch
except ImportError:
    torch = None

THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2


def mlp_step(lib: Any, optimizer: str) -> Callable[[], Any]:
    rng = np.random.default_rng(0)
    lib.manual_seed(0)
    x = lib.from_numpy(rng.standard_normal((1000, 20)).astype(np.float32))
    y = lib.from_numpy((rng.standard_normal((1000, 1)) > 0).astype(np.float32))
    nn = lib.nn
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
    loss_fn = nn.BCEWithLogitsLoss()
    if optimizer == "adam":
        opt = lib.optim.Adam(model.parameters(), lr=1e-2)
    else:
        opt = lib.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

    def step() -> Any:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


def cnn_step(lib: Any, low_precision: bool) -> Callable[[], Any]:
    rng = np.random.default_rng(1)
    lib.manual_seed(1)
    nn = lib.nn
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * 7 * 7, 10),
    )
    loss_fn = nn.CrossEntropyLoss()
    opt = lib.optim.SGD(model.parameters(), lr=1e-2)
    x = lib.from_numpy(rng.standard_normal((64, 1, 28, 28)).astype(np.float32))
    y = lib.from_numpy(rng.integers(0, 10, 64))

    def step() -> Any:
        opt.zero_grad()
        with lib.autocast(device_type="cpu", dtype=lib.bfloat16, enabled=low_precision):
            loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return step


def workloads(lib: Any) -> dict[str, Callable[[], Any]]:
    return {
        "mlp sgd": mlp_step(lib, "sgd"),
        "mlp adam": mlp_step(lib, "adam"),
        "cnn step fp32": cnn_step(lib, False),
        "cnn step bf16": cnn_step(lib, True),
    }


def best_ms(fn: Callable[[], Any], repeats: int) -> float:
    # The fastest of a few runs: on a shared machine the minimum is the least disturbed figure.
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def main() -> None:
    ember.set_num_threads(THREADS)
    libs = {"ember": workloads(ember)}
    if torch is not None:
        torch.set_num_threads(THREADS)
        libs["torch"] = workloads(torch)
    results: dict[str, dict[str, list[float]]] = {n: {} for n in libs}
    for fn in (f for work in libs.values() for f in work.values()):
        for _ in range(3):
            fn()  # warm up: optimizer state, caches
    for _ in range(5):  # interleaved rounds: load changes hit both libraries alike
        for name, work in libs.items():
            for key, fn in work.items():
                results[name].setdefault(key, []).append(best_ms(fn, 10))
    print(f"{'workload':<16} {'ember ms':>9} {'torch ms':>9} {'ratio':>7}")
    for key in libs["ember"]:
        e = min(results["ember"][key])
        if "torch" not in results:
            print(f"{key:<16} {e:9.3f} {'-':>9} {'-':>7}")
            continue
        t = min(results["torch"][key])
        print(f"{key:<16} {e:9.3f} {t:9.3f} {e / t:6.2f}x")


if __name__ == "__main__":
    main()
