"""Normalization layers, softmax backward and cross-entropy, ember against torch (2 threads).

    EMBER_BENCH_TORCH_SITE=/work/torchvenv/lib/python3.11/site-packages \
        uv run python benchmarks/nn_layers.py [--threads N]

Workloads (issue 13 item 7): layer_norm [4096, 1024] (weight and bias) forward and
forward+backward; batch_norm2d [32, 64, 28, 28] training forward+backward (running statistics
updated); group_norm [32, 64, 28, 28] with 8 groups forward+backward; cross_entropy [4096, 1000]
forward+backward (plain and with label_smoothing=0.1); log_softmax [4096, 1000] backward alone
(the gradient is computed through autograd.grad with a fixed output gradient). Best of
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


def workloads(lib: Any, F: Any) -> dict[str, Callable[[], Any]]:
    rng = np.random.default_rng(0)

    def t(a: Any, grad: bool = False) -> Any:
        x = lib.from_numpy(np.ascontiguousarray(a, dtype=np.float32))
        return x.requires_grad_() if grad else x

    x = t(rng.standard_normal((4096, 1024)))
    xg = t(rng.standard_normal((4096, 1024)), True)
    w, b = t(rng.standard_normal(1024), True), t(rng.standard_normal(1024), True)

    def ln_fwd() -> Any:
        return F.layer_norm(x, [1024], w.detach(), b.detach())

    def ln_fwd_bwd() -> Any:
        F.layer_norm(xg, [1024], w, b).sum().backward()

    img = t(rng.standard_normal((32, 64, 28, 28)), True)
    bw, bb = t(np.ones(64), True), t(np.zeros(64), True)
    rm, rv = t(np.zeros(64)), t(np.ones(64))

    def bn_fwd_bwd() -> Any:
        F.batch_norm(img, rm, rv, bw, bb, training=True).sum().backward()

    def gn_fwd_bwd() -> Any:
        F.group_norm(img, 8, bw, bb).sum().backward()

    logits = t(rng.standard_normal((4096, 1000)), True)
    target = lib.from_numpy(rng.integers(0, 1000, 4096))

    def ce_fwd_bwd() -> Any:
        F.cross_entropy(logits, target).backward()

    def ce_smooth_fwd_bwd() -> Any:
        F.cross_entropy(logits, target, label_smoothing=0.1).backward()

    logp = F.log_softmax(logits, 1)
    gout = t(rng.standard_normal((4096, 1000)))

    def log_softmax_bwd() -> Any:
        return lib.autograd.grad(logp, logits, gout, retain_graph=True)

    return {
        "layer_norm fwd": ln_fwd,
        "layer_norm fwd+bwd": ln_fwd_bwd,
        "batch_norm2d train fwd+bwd": bn_fwd_bwd,
        "group_norm fwd+bwd": gn_fwd_bwd,
        "cross_entropy fwd+bwd": ce_fwd_bwd,
        "cross_entropy ls=0.1 fwd+bwd": ce_smooth_fwd_bwd,
        "log_softmax bwd": log_softmax_bwd,
    }


def best_ms(fn: Callable[[], Any], repeats: int) -> float:
    # The fastest of a few runs: on a shared machine the minimum is the least disturbed figure.
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1e3


def main() -> None:
    import ember.autograd  # lib.autograd.grad

    libs = {"ember": workloads(ember, EF), "torch": workloads(torch, TF)}
    results: dict[str, dict[str, list[float]]] = {n: {} for n in libs}
    for fn in (f for lib in libs.values() for f in lib.values()):
        fn()  # warm up
    for _ in range(5):  # interleaved rounds: load changes hit both libraries alike
        for name, work in libs.items():
            for key, fn in work.items():
                results[name].setdefault(key, []).append(best_ms(fn, 3))
    print(f"{'workload':<30} {'ember ms':>9} {'torch ms':>9} {'ratio':>7}")
    for key in libs["ember"]:
        e = min(results["ember"][key])
        t = min(results["torch"][key])
        print(f"{key:<30} {e:9.2f} {t:9.2f} {e / t:6.2f}x")


if __name__ == "__main__":
    main()
