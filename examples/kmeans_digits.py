"""k-means clustering of scikit-learn's handwritten digits, written with ember tensors only.

Run from the repository root:

    uv run --group examples python examples/kmeans_digits.py

The 1797 8x8 digit images (64 features, bundled with scikit-learn, no download) are clustered into
k=10 groups: k-means++ initialisation seeded with ``ember.manual_seed(0)``, then Lloyd iterations
until no assignment changes (at most 100). It prints the iteration count, the inertia (sum of
squared distances to the assigned centers) and the purity of the clusters against the true labels.

Only the tensor API is used for the math: matmul, broadcasting arithmetic, reductions, comparisons
and masks built by multiplication (no advanced indexing). numpy only loads the data and counts the
majority labels at the end.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.datasets import load_digits

import ember

K = 10
MAX_ITERS = 100


def squared_distances(x: ember.Tensor, c: ember.Tensor) -> ember.Tensor:
    """[n, d] points and [k, d] centers -> [n, k] squared Euclidean distances."""
    return (x * x).sum(1, keepdim=True) - 2.0 * (x @ c.T) + (c * c).sum(1)


def kmeans_plus_plus(x: ember.Tensor, k: int) -> ember.Tensor:
    """Pick k rows of x: the first uniformly, each next one with probability ~ D(x)^2."""
    n = x.shape[0]
    rows = [x[int(ember.randint(0, n, (1,)).item())]]
    for _ in range(1, k):
        d2 = squared_distances(x, ember.stack(rows)).min(dim=1)[0]  # nearest chosen center
        d2 = d2 * (d2 > 0).float()  # rounding can leave tiny negatives: clamp them to 0
        cum = d2.cumsum(0)
        r = ember.rand(1) * cum[-1]
        i = int((cum < r).sum().item())  # first index whose cumulative weight reaches r
        rows.append(x[min(i, n - 1)])
    return ember.stack(rows)


def lloyd(x: ember.Tensor, centers: ember.Tensor) -> tuple[ember.Tensor, int]:
    """Alternate assignment and update steps; return (centers, iterations run)."""
    cluster_ids = ember.tensor(list(range(centers.shape[0])))  # [k] int64
    prev: ember.Tensor | None = None
    for it in range(1, MAX_ITERS + 1):
        assign = squared_distances(x, centers).argmin(dim=1, keepdim=True)  # [n, 1]
        if prev is not None and int((assign != prev).sum().item()) == 0:
            return centers, it  # assignments stable: converged
        prev = assign
        onehot = (assign == cluster_ids).float()  # [n, k]
        counts = onehot.sum(0, keepdim=True).T  # [k, 1]
        sums = onehot.T @ x  # [k, d]
        empty = (counts == 0).float()  # an empty cluster keeps its old center
        centers = sums / (counts + empty) * (1.0 - empty) + centers * empty
    return centers, MAX_ITERS


def purity(assign: np.ndarray, labels: np.ndarray) -> float:
    """Fraction of points whose cluster's majority label equals their own label."""
    agree = 0
    for c in np.unique(assign):
        agree += int(np.bincount(labels[assign == c]).max())
    return agree / len(labels)


def main() -> None:
    digits = load_digits()
    x = ember.from_numpy(np.ascontiguousarray(digits.data, dtype=np.float32))
    labels = np.asarray(digits.target)
    print(f"data: {x.shape[0]} images x {x.shape[1]} features, k={K}")

    ember.manual_seed(0)
    start = time.perf_counter()
    centers = kmeans_plus_plus(x, K)
    centers, iters = lloyd(x, centers)
    d2 = squared_distances(x, centers)
    inertia = d2.min(dim=1)[0].sum().item()
    assigned = np.asarray(d2.argmin(dim=1).tolist(), dtype=np.int64)
    elapsed = time.perf_counter() - start

    print(f"iterations: {iters}")
    print(f"inertia:    {inertia:.1f}")
    print(f"purity:     {purity(assigned, labels):.3f}")
    print(f"time:       {elapsed * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
