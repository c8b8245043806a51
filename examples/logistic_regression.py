"""Logistic regression by gradient descent on the breast-cancer data, with ember autograd.

Run from the repository root:

    uv run --group examples python examples/logistic_regression.py

The 569 tumours (30 features each, bundled with scikit-learn, no download) are split 80/20 into
train and test sets with a fixed seed, standardized with the training set's mean and standard
deviation, and fitted by full-batch gradient descent on the mean binary cross-entropy. It prints
the training loss every ``--log-every`` steps and the final test accuracy.

Only ember-tensor and ember-autograd are used: the weights are leaf tensors with
``requires_grad=True``, ``loss.backward()`` fills their ``.grad``, and the update runs under
``ember.no_grad()``. numpy only carries the data out of scikit-learn.
"""

from __future__ import annotations

import argparse
import time

from sklearn.datasets import load_breast_cancer

import ember

SEED = 0
TEST_FRACTION = 0.2


def load_split() -> tuple[ember.Tensor, ember.Tensor, ember.Tensor, ember.Tensor]:
    """(x_train, y_train, x_test, y_test): a seeded random split, standardized on the train part."""
    data = load_breast_cancer()
    x = ember.from_numpy(data.data).float()  # [569, 30]
    y = ember.from_numpy(data.target).float()  # [569], 1 = benign
    ember.manual_seed(SEED)
    order = ember.randperm(x.shape[0])
    n_test = int(x.shape[0] * TEST_FRACTION)
    test, train = order[:n_test], order[n_test:]
    mean = x[train].mean(0)
    std = x[train].std(0)
    return (x[train] - mean) / std, y[train], (x[test] - mean) / std, y[test]


def bce_with_logits(logits: ember.Tensor, target: ember.Tensor) -> ember.Tensor:
    """Mean binary cross-entropy of sigmoid(logits) against 0/1 targets.

    -[y log s(z) + (1 - y) log(1 - s(z))] simplifies to log(1 + e^z) - y z; logaddexp(0, z)
    computes log(1 + e^z) without overflow for large |z|.
    """
    return (ember.logaddexp(ember.zeros_like(logits), logits) - target * logits).mean()


def accuracy(x: ember.Tensor, y: ember.Tensor, w: ember.Tensor, b: ember.Tensor) -> float:
    """The fraction of rows whose predicted class (logit > 0) equals the label."""
    with ember.no_grad():
        predicted = (x @ w + b > 0).float()
        return float((predicted == y).float().mean().item())


def main(steps: int = 300, lr: float = 0.5, log_every: int = 50) -> float:
    """Trains the model and returns its accuracy on the test set."""
    x_train, y_train, x_test, y_test = load_split()
    w = ember.zeros(x_train.shape[1], requires_grad=True)
    b = ember.zeros((), requires_grad=True)
    start = time.perf_counter()
    for step in range(1, steps + 1):
        loss = bce_with_logits(x_train @ w + b, y_train)
        loss.backward()
        with ember.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = None
        b.grad = None
        if step % log_every == 0 or step == steps:
            print(f"step {step:4d}  train loss {loss.item():.4f}")
    elapsed = time.perf_counter() - start
    train_acc = accuracy(x_train, y_train, w, b)
    test_acc = accuracy(x_test, y_test, w, b)
    print(f"{steps} steps in {elapsed:.2f} s")
    print(f"train accuracy {train_acc:.3f}  test accuracy {test_acc:.3f} ({y_test.shape[0]} rows)")
    return test_acc


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--log-every", type=int, default=50)
    args = parser.parse_args()
    main(args.steps, args.lr, args.log_every)
