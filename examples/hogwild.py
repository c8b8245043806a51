"""Hogwild training: several processes update one shared model on the digits data, lock-free.

Run from the repository root:

    uv run --group examples python examples/hogwild.py --processes 2

As pytorch/examples' mnist_hogwild: the model's parameters are moved to shared memory once
(``share_memory_()``); each process receives them (as views of the same memory, through
ember.multiprocessing), runs minibatch SGD on its own shard of the training set and writes its
updates in place, without locks (Hogwild!, Niu et al. 2011). The 1,797 8x8 digit images are
bundled with scikit-learn (no download); the split is 80/20 with a fixed seed. The model is a
2-layer MLP written with plain tensors and autograd (ember.nn is not needed). It prints the test
accuracy of the shared model, which reaches that of one process training alone.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import ember
import ember.multiprocessing as mp

SEED = 0
HIDDEN = 64


def load_split() -> tuple[ember.Tensor, ember.Tensor, ember.Tensor, ember.Tensor]:
    """(x_train, y_train, x_test, y_test), pixels scaled to [0, 1]."""
    from sklearn.datasets import load_digits

    data = load_digits()
    x = ember.from_numpy(data.data).float() / 16.0  # [1797, 64]
    y = ember.from_numpy(data.target).long()  # [1797]
    g = ember.Generator()
    g.manual_seed(SEED)
    order = ember.randperm(x.shape[0], generator=g)
    n_test = x.shape[0] // 5
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]


def init_params() -> list[ember.Tensor]:
    """W1, b1, W2, b2 of the MLP, leaves that require grad, in shared memory."""
    ember.manual_seed(SEED)
    w1 = ember.randn(64, HIDDEN) * (2.0 / 64) ** 0.5
    w2 = ember.randn(HIDDEN, 10) * (1.0 / HIDDEN) ** 0.5
    params = [w1, ember.zeros(HIDDEN), w2, ember.zeros(10)]
    return [p.requires_grad_(True).share_memory_() for p in params]


def forward(params: list[ember.Tensor], x: ember.Tensor) -> ember.Tensor:
    w1, b1, w2, b2 = params
    return ember.relu(x @ w1 + b1) @ w2 + b2


def cross_entropy(logits: ember.Tensor, y: ember.Tensor) -> ember.Tensor:
    """Mean negative log-likelihood of the labels under softmax(logits)."""
    picked = logits.gather(1, y.unsqueeze(1)).squeeze(1)
    return (ember.logsumexp(logits, 1) - picked).mean()


def train(
    rank: int, params: list[ember.Tensor], x: Any, y: Any, nprocs: int, epochs: int, lr: float
) -> None:
    """One Hogwild worker: SGD on shard `rank` of the data, updating the shared parameters."""
    ember.manual_seed(SEED + rank)
    xs, ys = x[rank::nprocs], y[rank::nprocs]
    batch = 32
    for _ in range(epochs):
        order = ember.randperm(xs.shape[0])
        for start in range(0, xs.shape[0], batch):
            idx = order[start : start + batch]
            loss = cross_entropy(forward(params, xs[idx]), ys[idx])
            loss.backward()
            with ember.no_grad():
                for p in params:
                    p -= lr * p.grad  # in place, in shared memory: every process sees it
                    p.grad = None


def accuracy(params: list[ember.Tensor], x: ember.Tensor, y: ember.Tensor) -> float:
    with ember.no_grad():
        predicted = forward(params, x).argmax(1)
        return float((predicted == y).float().mean().item())


def main(
    processes: int = 2, epochs: int = 10, lr: float = 0.1, start_method: str = "spawn"
) -> float:
    """Trains the shared model with `processes` Hogwild workers; returns the test accuracy."""
    x_train, y_train, x_test, y_test = load_split()
    params = init_params()
    # Each process covers 1/processes of the data per epoch: as many epochs over the whole set
    # as one process would run.
    start = time.perf_counter()
    mp.spawn(
        train,
        args=(params, x_train, y_train, processes, epochs, lr),
        nprocs=processes,
        start_method=start_method,
    )
    elapsed = time.perf_counter() - start
    acc = accuracy(params, x_test, y_test)
    print(
        f"{processes} process(es), {epochs} epochs each on its shard, {elapsed:.2f} s: "
        f"test accuracy {acc:.3f} ({y_test.shape[0]} images)"
    )
    return acc


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--start-method", default="spawn", choices=["spawn", "fork", "forkserver"])
    parser.add_argument("--compare", action="store_true", help="also train with one process")
    args = parser.parse_args()
    main(args.processes, args.epochs, args.lr, args.start_method)
    if args.compare:
        main(1, args.epochs, args.lr, args.start_method)
