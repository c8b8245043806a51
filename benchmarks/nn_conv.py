"""conv2d and a small CNN training step, ember against torch (2 threads), interleaved.

    EMBER_BENCH_TORCH_SITE=/work/torchvenv/lib/python3.11/site-packages \
        uv run python benchmarks/nn_conv.py [--only ember|torch] [--threads N]

Workloads (issue 13 item 12): conv2d forward and forward+backward (N=32, 16 -> 32 channels,
28x28, k=3, padding 1), the same at 1-d (length 784); a CNN step (batch 64, 1x28x28:
conv(1->16)+relu+maxpool2, conv(16->32)+relu+maxpool2, linear(1568->10), log_softmax + NLL,
plain SGD update). Best of
interleaved rounds; ratio = ember time / torch time (below 1.00x ember is faster).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import ember
import ember.nn.functional as EF

TORCH_SITE = os.environ.get("EMBER_BENCH_TORCH_SITE")
if TORCH_SITE:
    sys.path.append(TORCH_SITE)
import torch  # noqa: E402
import torch.nn.functional as TF  # noqa: E402

THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2
ember.set_num_threads(THREADS)
torch.set_num_threads(THREADS)


def conv_workloads(lib: Any, F: Any) -> dict[str, Callable[[], Any]]:
    rng = np.random.default_rng(0)
    x = lib.from_numpy(rng.standard_normal((32, 16, 28, 28)).astype(np.float32))
    w = lib.from_numpy(rng.standard_normal((32, 16, 3, 3)).astype(np.float32) * 0.1)
    b = lib.from_numpy(rng.standard_normal(32).astype(np.float32))
    xg, wg, bg = (t.clone().requires_grad_() for t in (x, w, b))

    def fwd() -> Any:
        return F.conv2d(x, w, b, padding=1)

    def fwd_bwd() -> Any:
        F.conv2d(xg, wg, bg, padding=1).sum().backward()

    x1 = lib.from_numpy(rng.standard_normal((32, 16, 784)).astype(np.float32))
    w1 = lib.from_numpy(rng.standard_normal((32, 16, 3)).astype(np.float32) * 0.1)
    x1g, w1g = x1.clone().requires_grad_(), w1.clone().requires_grad_()

    def fwd_1d() -> Any:
        return F.conv1d(x1, w1, b, padding=1)

    def fwd_bwd_1d() -> Any:
        F.conv1d(x1g, w1g, bg, padding=1).sum().backward()

    return {
        "conv2d fwd": fwd,
        "conv2d fwd+bwd": fwd_bwd,
        "conv1d fwd": fwd_1d,
        "conv1d fwd+bwd": fwd_bwd_1d,
    }


def cnn_step(lib: Any, F: Any) -> Callable[[], Any]:
    rng = np.random.default_rng(1)

    def param(*shape: int, scale: float) -> Any:
        a = (rng.uniform(-1, 1, shape) * scale).astype(np.float32)
        return lib.from_numpy(a).requires_grad_()

    w1, b1 = param(16, 1, 3, 3, scale=1 / 3), param(16, scale=1 / 3)
    w2, b2 = param(32, 16, 3, 3, scale=1 / 12), param(32, scale=1 / 12)
    w3, b3 = param(10, 32 * 7 * 7, scale=1 / 40), param(10, scale=1 / 40)
    params = [w1, b1, w2, b2, w3, b3]
    x = lib.from_numpy(rng.standard_normal((64, 1, 28, 28)).astype(np.float32))
    y = lib.from_numpy(rng.integers(0, 10, 64))

    def step() -> Any:
        h = F.max_pool2d(F.conv2d(x, w1, b1, padding=1).relu(), 2)
        h = F.max_pool2d(F.conv2d(h, w2, b2, padding=1).relu(), 2)
        logits = h.flatten(1) @ w3.T + b3
        loss = -logits.log_softmax(1).gather(1, y.unsqueeze(1)).mean()
        for p in params:
            p.grad = None
        loss.backward()
        with lib.no_grad():
            for p in params:
                p.sub_(p.grad * 0.01)
        return loss

    return step


def best_ms(fn: Callable[[], Any], repeats: int) -> float:
    # The fastest of a few runs: on a shared machine the minimum is the least disturbed figure.
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def main() -> None:
    every = {
        "ember": lambda: {**conv_workloads(ember, EF), "cnn step": cnn_step(ember, EF)},
        "torch": lambda: {**conv_workloads(torch, TF), "cnn step": cnn_step(torch, TF)},
    }
    # --only ember / --only torch: one library per process (separate runs, no shared cores
    # between two thread pools that both spin).
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    libs = {name: make() for name, make in every.items() if only in (None, name)}
    results: dict[str, dict[str, list[float]]] = {n: {} for n in libs}
    for fn in (f for lib in libs.values() for f in lib.values()):
        fn()  # warm up
    for _ in range(5):  # interleaved rounds: load changes hit both libraries alike
        for name, work in libs.items():
            for key, fn in work.items():
                results[name].setdefault(key, []).append(best_ms(fn, 5))
    if only is not None:
        for key in libs[only]:
            print(f"{only} {key:<16} {min(results[only][key]):9.2f} ms")
        return
    print(f"{'workload':<16} {'ember ms':>9} {'torch ms':>9} {'ratio':>7}")
    for key in libs["ember"]:
        e = min(results["ember"][key])
        t = min(results["torch"][key])
        print(f"{key:<16} {e:9.2f} {t:9.2f} {e / t:6.2f}x")


if __name__ == "__main__":
    main()
