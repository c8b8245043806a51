"""Train a small CNN on scikit-learn's 8x8 handwritten digits, save it, reload it, plot the curves.

Run from the repository root:

    uv run --group examples python examples/train_digits.py [--epochs 20] [--out-dir runs/digits]

The 1797 digit images (bundled with scikit-learn, no download) are split 80/20 (stratified, by
``--seed``) into train and test sets. A two-block CNN (Conv2d-ReLU-MaxPool2d twice, Dropout,
Linear) is trained with Adam and a cosine learning-rate schedule from a shuffling DataLoader,
with a tqdm progress bar per epoch. At the end it saves the weights with
``ember.save(model.state_dict(), path)``, loads them into a fresh model, evaluates both and writes
the per-epoch loss/accuracy curves as a PNG. The same seed gives the same run.

The code is what a PyTorch user would write: replace ``ember`` with ``torch`` and it runs there.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib
import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from tqdm import tqdm

import ember
import ember.nn as nn
import ember.nn.functional as F
from ember.utils.data import DataLoader, TensorDataset

matplotlib.use("Agg")  # no display: write files only
import matplotlib.pyplot as plt  # after choosing the backend


class DigitsCNN(nn.Module):
    """[N, 1, 8, 8] images -> [N, 10] logits."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=3, padding=1),  # 32 x 8 x 8
            nn.ReLU(),
            nn.MaxPool2d(2),  # 32 x 4 x 4
            nn.Conv2d(32, 64, kernel_size=3, padding=1),  # 64 x 4 x 4
            nn.ReLU(),
            nn.MaxPool2d(2),  # 64 x 2 x 2
        )
        self.classifier = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.25),
            nn.Linear(64 * 2 * 2, 128),
            nn.ReLU(),
            nn.Linear(128, 10),
        )

    def forward(self, x: ember.Tensor) -> ember.Tensor:
        return self.classifier(self.features(x))


def load_data(seed: int) -> tuple[TensorDataset, TensorDataset]:
    """The digits as float32 [N, 1, 8, 8] in [0, 1] with int64 labels, split 80/20."""
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]  # pixel values are 0..16
    x_train, x_test, y_train, y_test = train_test_split(
        images, digits.target, test_size=0.2, random_state=seed, stratify=digits.target
    )
    train = TensorDataset(ember.from_numpy(x_train), ember.from_numpy(y_train.astype(np.int64)))
    test = TensorDataset(ember.from_numpy(x_test), ember.from_numpy(y_test.astype(np.int64)))
    return train, test


@ember.no_grad()
def evaluate(model: nn.Module, loader: DataLoader) -> float:
    """Fraction of correctly classified samples."""
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += int((model(x).argmax(dim=1) == y).sum().item())
        total += y.shape[0]
    return correct / total


def plot_curves(losses: list[float], accuracies: list[float], path: Path) -> None:
    """Write the per-epoch training loss and test accuracy side by side."""
    epochs = range(1, len(losses) + 1)
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(9, 3.5))
    ax_loss.plot(epochs, losses, marker="o")
    ax_loss.set(xlabel="epoch", ylabel="mean training loss", title="loss")
    ax_acc.plot(epochs, accuracies, marker="o", color="tab:green")
    ax_acc.set(xlabel="epoch", ylabel="test accuracy", title="accuracy")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(epochs: int = 20, out_dir: str = "runs/digits", seed: int = 0) -> float:
    """Train, checkpoint, reload and plot; return the reloaded model's test accuracy."""
    start = time.perf_counter()
    ember.manual_seed(seed)  # weights, dropout masks and the loader's shuffling
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    train_set, test_set = load_data(seed)
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=256)

    model = DigitsCNN()
    optimizer = ember.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = ember.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)

    losses: list[float] = []
    accuracies: list[float] = []
    for epoch in range(1, epochs + 1):
        model.train()
        total_loss, seen = 0.0, 0
        bar = tqdm(train_loader, desc=f"epoch {epoch}/{epochs}", leave=False)
        for x, y in bar:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item() * y.shape[0]
            seen += y.shape[0]
            bar.set_postfix(loss=f"{loss.item():.4f}")
        scheduler.step()
        losses.append(total_loss / seen)
        accuracies.append(evaluate(model, test_loader))
        print(f"epoch {epoch:3d}  loss {losses[-1]:.4f}  test accuracy {accuracies[-1]:.4f}")

    checkpoint = out / "digits_cnn.pt"
    ember.save(model.state_dict(), checkpoint)
    reloaded = DigitsCNN()
    reloaded.load_state_dict(ember.load(checkpoint))
    accuracy = evaluate(model, test_loader)
    reloaded_accuracy = evaluate(reloaded, test_loader)
    print(f"test accuracy {accuracy:.4f}")
    print(f"reloaded test accuracy {reloaded_accuracy:.4f} (from {checkpoint})")

    curves = out / "curves.png"
    plot_curves(losses, accuracies, curves)
    print(f"curves written to {curves}")
    print(f"done in {time.perf_counter() - start:.1f} s")
    return reloaded_accuracy


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20, help="training epochs (default 20)")
    parser.add_argument("--out-dir", default="runs/digits", help="checkpoint and PNG folder")
    parser.add_argument("--seed", type=int, default=0, help="seed of the split, weights, shuffling")
    args = parser.parse_args()
    main(epochs=args.epochs, out_dir=args.out_dir, seed=args.seed)
