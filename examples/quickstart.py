"""The shortest ember training loop: an MLP learning synthetic binary labels.

Run from the repository root:

    uv run python examples/quickstart.py [--steps 200]

It makes 1000 random points with 20 features, labels them with a fixed random linear rule
(label 1 where ``x @ w > 0``), and fits a 20 -> 64 -> 1 MLP with ``BCEWithLogitsLoss`` and Adam,
printing the loss as it goes down and the training accuracy at the end. Replace ``ember`` with
``torch`` and the same code runs on PyTorch.
"""

from __future__ import annotations

import argparse

import ember
import ember.nn as nn


def main(steps: int = 200, log_every: int = 20, seed: int = 0) -> float:
    """Train and return the final training accuracy."""
    ember.manual_seed(seed)
    x = ember.randn(1000, 20)
    w_true = ember.randn(20, 1)
    y = (x @ w_true > 0).float()  # [1000, 1] labels in {0, 1}

    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer = ember.optim.Adam(model.parameters(), lr=1e-2)

    for step in range(1, steps + 1):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        if step % log_every == 0 or step in (1, steps):
            print(f"step {step:4d}  loss {loss.item():.4f}")

    with ember.no_grad():
        accuracy = ((model(x) > 0).float() == y).float().mean().item()
    print(f"training accuracy {accuracy:.4f}")
    return accuracy


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200, help="optimizer steps (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the data and the weights")
    args = parser.parse_args()
    main(steps=args.steps, seed=args.seed)
