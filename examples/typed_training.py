"""A small regression MLP trained with ember.nn, written with type annotations everywhere.

Run from the repository root:

    uv run python examples/typed_training.py

It fits y = sin(x0) + 0.5 * x1 with a two-layer MLP, Adam and a shuffled DataLoader over a
TensorDataset, printing the mean loss of each epoch (it falls). CI checks this file with
``mypy --strict`` against ember's generated stubs, so it doubles as a test of ember's public typing.
"""

from __future__ import annotations

import ember
from ember import Tensor, nn
from ember.nn import functional as F
from ember.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    """Two linear layers with a ReLU between them."""

    def __init__(self, in_features: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x: Tensor) -> Tensor:
        # A Sequential call returns Any (as torch's Module.__call__ does): name its type once.
        out: Tensor = self.body(x).squeeze(-1)
        return out


def make_data(n: int, generator: ember.Generator) -> TensorDataset:
    x = ember.rand(n, 2, generator=generator) * 4.0 - 2.0
    y = ember.sin(x[:, 0]) + 0.5 * x[:, 1]
    return TensorDataset(x, y)


def train_epoch(model: MLP, loader: DataLoader[tuple[Tensor, ...]], opt: ember.optim.Adam) -> float:
    total, batches = 0.0, 0
    for x, y in loader:
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        total += loss.item()
        batches += 1
    return total / batches


def input_gradient_norm(model: MLP, x: Tensor) -> float:
    # d(sum of predictions)/d(inputs) through autograd.grad, without touching parameter .grad.
    x = x.detach().requires_grad_(True)
    (grad,) = ember.autograd.grad(model(x).sum(), [x])
    return float(grad.norm().item())


def main(epochs: int = 8) -> list[float]:
    ember.manual_seed(0)
    dataset = make_data(512, ember.Generator().manual_seed(1))
    loader: DataLoader[tuple[Tensor, ...]] = DataLoader(dataset, batch_size=32, shuffle=True)
    model = MLP(2, 32)
    opt = ember.optim.Adam(model.parameters(), lr=1e-2)
    losses: list[float] = []
    for epoch in range(epochs):
        losses.append(train_epoch(model, loader, opt))
        print(f"epoch {epoch}: loss {losses[-1]:.4f}")
    with ember.no_grad():
        origin = ember.zeros(1, 2, dtype=ember.float32)
        at_origin: float = model(origin).item()  # the target there is sin(0) + 0 = 0
    grad_norm = input_gradient_norm(model, dataset[0][0].unsqueeze(0))
    print(f"prediction at (0, 0): {at_origin:.4f}; input-gradient norm: {grad_norm:.4f}")
    return losses


if __name__ == "__main__":
    main()
